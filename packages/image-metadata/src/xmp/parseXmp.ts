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

const TOKEN = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<![^>]*>|<\/([^\s>]+)\s*>|<([^\s/>]+)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
const ATTR = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Parses an XMP packet; returns an empty object when it holds no RDF. Never throws on malformed XML. */
export function parseXmp(xml: string): XmpProperties {
  const prefixOf = new Map<string, string>();
  const root = parseXml(xml, prefixOf);
  const canonical = (qname: string): string => {
    const colon = qname.indexOf(':');
    if (colon < 0) return qname;
    const prefix = qname.slice(0, colon);
    return `${prefixOf.get(prefix) ?? prefix}${qname.slice(colon)}`;
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
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(xml); m !== null; m = TOKEN.exec(xml)) {
    const top = stack[stack.length - 1]!;
    if (m[1] !== undefined) top.text += m[1];
    else if (m[2] !== undefined) {
      const at = stack.findLastIndex((el) => el.name === m![2]);
      if (at > 0) stack.length = at;
    } else if (m[3] !== undefined) {
      const attrs: Record<string, string> = {};
      ATTR.lastIndex = 0;
      for (let a = ATTR.exec(m[4] ?? ''); a !== null; a = ATTR.exec(m[4] ?? '')) {
        const name = a[1]!;
        const value = decodeEntities(a[2] ?? a[3] ?? '');
        if (name.startsWith('xmlns:')) prefixOf.set(name.slice(6), CANONICAL_PREFIX[value] ?? name.slice(6));
        else attrs[name] = value;
      }
      const el: XmlElement = { name: m[3], attrs, children: [], text: '' };
      top.children.push(el);
      if (m[5] !== '/') stack.push(el);
    } else if (m[6] !== undefined) top.text += decodeEntities(m[6]);
  }
  return root;
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

function propertyValue(el: XmlElement, canonical: (q: string) => string): XmpValue {
  if (el.attrs['rdf:resource'] !== undefined) return el.attrs['rdf:resource'];
  if (el.attrs['rdf:parseType'] === 'Resource') return descriptionProperties(el, canonical, false);
  const container = el.children.find((c) => ['rdf:Bag', 'rdf:Seq', 'rdf:Alt'].includes(canonical(c.name)));
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
