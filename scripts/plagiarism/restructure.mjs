// A second paraphrase generator (issue 33, item 1), of another kind than corpus.mjs's `heavy` level (random word
// operations with WordNet synonyms, the detector's own resource): it rewrites the structure of a passage. Sentences
// are merged in pairs with a connective or split at a coordinating conjunction; clauses inside a sentence change
// places (the part after the first comma goes first); a hand-written paraphrase table (written here, not WordNet)
// swaps phrases and words a writer would swap; adverbs and hedges are dropped; discourse markers are added; nouns
// and verbs change number and tense. Deterministic for a given random source.

/** Phrase and word substitutions a writer makes, written for this generator (both directions where natural). */
const TABLE = [
  ['in order to', 'to'], ['a lot of', 'many'], ['because of', 'owing to'], ['because', 'since'], ['however', 'yet'],
  ['shows', 'makes clear'], ['show', 'make clear'], ['important', 'significant'], ['help', 'assist'], ['get', 'obtain'],
  ['big', 'large'], ['start', 'begin'], ['started', 'began'], ['use', 'employ'], ['used', 'employed'], ['using', 'employing'],
  ['about', 'roughly'], ['also', 'as well'], ['but', 'although'], ['many', 'numerous'], ['often', 'frequently'],
  ['found', 'discovered'], ['find', 'discover'], ['said', 'stated'], ['people', 'individuals'], ['need', 'require'],
  ['needs', 'requires'], ['try', 'attempt'], ['tried', 'attempted'], ['enough', 'sufficient'], ['whole', 'entire'],
  ['main', 'principal'], ['mostly', 'largely'], ['about', 'concerning'], ['such as', 'like'], ['more than', 'over'],
  ['less than', 'under'], ['for example', 'for instance'], ['at the same time', 'simultaneously'], ['in addition', 'moreover'],
  ['however,', 'nevertheless,'], ['therefore', 'thus'], ['so that', 'so'], ['is able to', 'can'], ['are able to', 'can'],
  ['a number of', 'several'], ['the majority of', 'most'], ['as well as', 'and'], ['due to', 'because of'],
  ['increase', 'rise'], ['decrease', 'drop'], ['results', 'findings'], ['study', 'investigation'], ['method', 'approach'],
  ['problem', 'issue'], ['change', 'alter'], ['changes', 'alterations'], ['work', 'labour'], ['buy', 'purchase'],
  ['give', 'provide'], ['gives', 'provides'], ['make', 'create'], ['makes', 'creates'], ['quickly', 'rapidly'],
];
const HEDGES = new Set(['very', 'really', 'quite', 'just', 'actually', 'simply', 'certainly', 'clearly', 'basically', 'rather']);
const MARKERS = ['In fact,', 'Notably,', 'Indeed,', 'In other words,', 'As a result,', 'On top of that,'];
const CONNECTIVES = ['; in addition,', ', and', ', while', '; moreover,'];

const pick = (rng, list) => list[Math.floor(rng() * list.length)];
const lowerFirst = (s) => (/^[A-Z][a-z]/.test(s) ? s[0].toLowerCase() + s.slice(1) : s);
const upperFirst = (s) => s.length === 0 ? s : s[0].toUpperCase() + s.slice(1);
const stripEnd = (s) => s.replace(/[.!?]+["')\]]*$/, '');

/** One table substitution per phrase found, with probability `rate`. */
function substitute(sentence, rate, rng) {
  let out = sentence;
  for (const [a, b] of TABLE) {
    for (const [from, to] of [[a, b], [b, a]]) {
      const pattern = new RegExp(`\\b${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i');
      if (pattern.test(out) && rng() < rate) out = out.replace(pattern, (m) => (m[0] === m[0].toUpperCase() ? upperFirst(to) : to));
    }
  }
  return out;
}

/** Number and tense changes, hedges dropped, on the words of a sentence. */
function inflectAndDrop(sentence, rate, rng) {
  return sentence.split(' ').filter((w) => !(HEDGES.has(w.toLowerCase()) || (/^[a-z]{5,}ly[,;]?$/.test(w) && rng() < 0.5))).map((w) => {
    const m = /^([a-z]{4,})([,;:]?)$/.exec(w);
    if (m === null || rng() >= rate) return w;
    const word = m[1];
    if (word.endsWith('ies')) return word.slice(0, -3) + 'y' + m[2];
    if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1) + m[2];
    if (word.endsWith('ed')) return word.slice(0, -2) + 's' + m[2];
    return word + 's' + m[2];
  }).join(' ');
}

/** The clause after the first comma goes first ("After the storm, the town rebuilt" -> "The town rebuilt after the storm"). */
function rotateClauses(sentence) {
  const body = stripEnd(sentence);
  const end = sentence.slice(body.length) || '.';
  const cut = body.indexOf(', ');
  if (cut < 12 || cut > body.length - 12) return sentence;
  const head = body.slice(0, cut);
  const tail = body.slice(cut + 2);
  return `${upperFirst(tail)}, ${lowerFirst(head)}${end}`;
}

/** Splits at the first coordinating conjunction after a comma, or returns the sentence alone. */
function splitSentence(sentence) {
  const m = /^(.{25,}?), (and|but|so) (.{25,})$/.exec(sentence);
  if (m === null) return [sentence];
  return [`${m[1]}.`, upperFirst(m[3])];
}

/** The restructured form of a passage (array of sentences). */
export function restructure(sentences, rng) {
  const out = [];
  // Clauses change places inside each sentence first, then sentences are merged in pairs or split.
  const rotated = sentences.map(rotateClauses);
  for (let i = 0; i < rotated.length; i++) {
    let s = rotated[i];
    if (i + 1 < rotated.length && rng() < 0.4) {
      s = `${stripEnd(s)}${pick(rng, CONNECTIVES)} ${lowerFirst(rotated[i + 1])}`;
      i++;
    }
    const parts = rng() < 0.5 ? splitSentence(s) : [s];
    for (let p of parts) {
      p = substitute(p, 0.6, rng);
      p = inflectAndDrop(p, 0.12, rng);
      if (rng() < 0.3) p = `${pick(rng, MARKERS)} ${lowerFirst(p)}`;
      out.push(p);
    }
  }
  return out.join(' ');
}
