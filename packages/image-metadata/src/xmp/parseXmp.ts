/**
 * A small XMP (RDF/XML) reader: enough of RDF for photo metadata. Values stay strings (no number guessing, so a
 * scene code "011221" keeps its zero), language alternatives become their x-default text, bags and sequences become
 * arrays, structures (`rdf:parseType="Resource"`, nested `rdf:Description`, attribute shorthand) become objects
 * keyed by local name. Top-level properties are keyed `prefix:Name` with the conventional prefix of the namespace.
 */

/** A parsed XMP value. */
export type XmpValue = string | XmpValue[] | { [field: string]: XmpValue };

/** Top-level XMP properties keyed `prefix:Name`. */
export type XmpProperties = Record<string, XmpValue>;

/** Conventional prefixes, so a file that binds a namespace to an unusual prefix still maps to the usual name. */
const CANONICAL_PREFIX: Record<string, string> = {
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://ns.adobe.com/photoshop/1.0/': 'photoshop',
  'http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/': 'Iptc4xmpCore',
  'http://iptc.org/std/Iptc4xmpExt/2008-02-29/': 'Iptc4xmpExt',
  'http://ns.useplus.org/ldf/xmp/1.0/': 'plus',
  'http://ns.adobe.com/xap/1.0/': 'xmp',
  'http://ns.adobe.com/xap/1.0/rights/': 'xmpRights',
  'http://ns.adobe.com/xap/1.0/mm/': 'xmpMM',
  'http://ns.adobe.com/exif/1.0/': 'exif',
  'http://ns.adobe.com/tiff/1.0/': 'tiff',
  'http://purl.org/dc/terms/': 'dcterms',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#': 'rdf',
};

interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

// Tags are matched where a `<` is (sticky); comments, processing instructions, CDATA and declarations are found by
// indexOf. One regular expression for all of them, tried at every position, was quadratic on unterminated ones
// (`<!--` 10,000 times: 3.7 s).
const CLOSE_TAG = /<\/([^\s<>]+)\s*>/y;
const OPEN_TAG = /<([^\s/<>]+)((?:\s+[^\s=<>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
// Deeper elements are kept as children but not opened, so closing a tag searches at most this many.
const MAX_DEPTH = 64;
const SKIPPED: readonly (readonly [string, string])[] = [['<!--', '-->'], ['<?', '?>']];
const ATTR = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Parses an XMP packet; returns an empty object when it holds no RDF. Never throws on malformed XML. */
export function parseXmp(xml: string): XmpProperties {
  const prefixOf = new Map<string, string>();
  const root = parseXml(xml, prefixOf);
  // The same few names (rdf:li, rdf:Description, ...) come back for every element: each is mapped once.
  const canonicalNames = new Map<string, string>();
  const canonical = (qname: string): string => {
    let name = canonicalNames.get(qname);
    if (name === undefined) {
      const colon = qname.indexOf(':');
      const prefix = colon < 0 ? undefined : qname.slice(0, colon);
      name = prefix === undefined ? qname : `${prefixOf.get(prefix) ?? prefix}${qname.slice(colon)}`;
      canonicalNames.set(qname, name);
    }
    return name;
  };
  const out: XmpProperties = {};
  const visit = (el: XmlElement): void => {
    if (canonical(el.name) === 'rdf:Description') {
      Object.assign(out, descriptionProperties(el, canonical, true));
      return;
    }
    for (const child of el.children) visit(child);
  };
  visit(root);
  return out;
}

function parseXml(xml: string, prefixOf: Map<string, string>): XmlElement {
  const root: XmlElement = { name: '#root', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  const unclosed = new Set<string>();
  let position = 0;
  while (position < xml.length) {
    const top = stack[stack.length - 1]!;
    const lt = xml.indexOf('<', position);
    if (lt !== position) {
      top.text += decodeEntities(xml.slice(position, lt < 0 ? xml.length : lt));
      if (lt < 0) break;
    }
    // Only `<!` and `<?` can start markup to skip, only `</` a closing tag: the other tests are not tried.
    const next = xml.charCodeAt(lt + 1);
    position = next === 0x21 || next === 0x3f ? skipMarkup(xml, lt, top, unclosed) : lt;
    if (position > lt) continue;
    CLOSE_TAG.lastIndex = lt;
    const close = next === 0x2f ? CLOSE_TAG.exec(xml) : null;
    if (close !== null) {
      let at = stack.length - 1;
      while (at >= 0 && stack[at]!.name !== close[1]) at--;
      if (at > 0) stack.length = at;
      position = CLOSE_TAG.lastIndex;
      continue;
    }
    OPEN_TAG.lastIndex = lt;
    const open = OPEN_TAG.exec(xml);
    if (open === null) {
      position = lt + 1; // a stray '<' is dropped
      continue;
    }
    const attrs: Record<string, string> = {};
    ATTR.lastIndex = 0;
    for (let a = ATTR.exec(open[2] ?? ''); a !== null; a = ATTR.exec(open[2] ?? '')) {
      const name = a[1]!;
      const value = decodeEntities(a[2] ?? a[3] ?? '');
      if (name.startsWith('xmlns:')) prefixOf.set(name.slice(6), CANONICAL_PREFIX[value] ?? name.slice(6));
      else attrs[name] = value;
    }
    const el: XmlElement = { name: open[1]!, attrs, children: [], text: '' };
    top.children.push(el);
    if (open[3] !== '/' && stack.length < MAX_DEPTH) stack.push(el);
    position = OPEN_TAG.lastIndex;
  }
  return root;
}

/**
 * Past a comment, processing instruction, CDATA section (its text kept) or declaration at `lt`; `lt` itself when
 * none starts there or it is never closed (then its `<` is read as a stray one). `unclosed` remembers the closings
 * found nowhere further on, so ten thousand unterminated `<!--` cost one search, not one each.
 */
function skipMarkup(xml: string, lt: number, top: XmlElement, unclosed: Set<string>): number {
  const find = (closing: string, from: number): number => {
    if (unclosed.has(closing)) return -1;
    const end = xml.indexOf(closing, from);
    if (end < 0) unclosed.add(closing);
    return end;
  };
  if (xml.startsWith('<![CDATA[', lt)) {
    const end = find(']]>', lt + 9);
    if (end < 0) return lt;
    top.text += xml.slice(lt + 9, end);
    return end + 3;
  }
  for (const [opening, closing] of SKIPPED) {
    if (!xml.startsWith(opening, lt)) continue;
    const end = find(closing, lt + opening.length);
    return end < 0 ? lt : end + closing.length;
  }
  if (xml.startsWith('<!', lt)) {
    const end = find('>', lt + 2);
    return end < 0 ? lt : end + 1;
  }
  return lt;
}

const IGNORED_ATTRS = new Set(['rdf:about', 'rdf:parseType', 'rdf:resource', 'rdf:datatype', 'rdf:nodeID', 'xml:lang', 'x:xmptk']);

function descriptionProperties(el: XmlElement, canonical: (q: string) => string, qualified: boolean): Record<string, XmpValue> {
  const out: Record<string, XmpValue> = {};
  const key = (name: string): string => (qualified ? canonical(name) : localName(name));
  for (const [name, value] of Object.entries(el.attrs)) {
    if (!IGNORED_ATTRS.has(canonical(name)) && !name.startsWith('xmlns')) out[key(name)] = value;
  }
  for (const child of el.children) out[key(child.name)] = propertyValue(child, canonical);
  return out;
}

const CONTAINERS = new Set(['rdf:Bag', 'rdf:Seq', 'rdf:Alt']);

function propertyValue(el: XmlElement, canonical: (q: string) => string): XmpValue {
  if (el.attrs['rdf:resource'] !== undefined) return el.attrs['rdf:resource'];
  if (el.attrs['rdf:parseType'] === 'Resource') return descriptionProperties(el, canonical, false);
  const container = el.children.find((c) => CONTAINERS.has(canonical(c.name)));
  if (container) {
    const items = container.children.filter((c) => canonical(c.name) === 'rdf:li');
    if (canonical(container.name) === 'rdf:Alt') {
      const preferred = items.find((li) => li.attrs['xml:lang'] === 'x-default') ?? items[0];
      return preferred ? propertyValue(preferred, canonical) : '';
    }
    return items.map((li) => propertyValue(li, canonical));
  }
  const description = el.children.find((c) => canonical(c.name) === 'rdf:Description');
  if (description) return descriptionProperties(description, canonical, false);
  const structAttrs = Object.keys(el.attrs).filter((n) => !IGNORED_ATTRS.has(canonical(n)) && !n.startsWith('xmlns'));
  if (el.children.length > 0 || structAttrs.length > 0) {
    // An element with child properties but no parseType: still a structure.
    if (el.children.length > 0 || el.text.trim() === '') return descriptionProperties(el, canonical, false);
  }
  return el.text.trim();
}

function localName(qname: string): string {
  const colon = qname.indexOf(':');
  return colon < 0 ? qname : qname.slice(colon + 1);
}

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1] === 'x' ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[entity] ?? whole;
  });
}
