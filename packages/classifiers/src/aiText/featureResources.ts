import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ModelLoadError } from '../errors.js';
import { CharNgramModel } from './charNgramModel.js';
import { CompressionReference } from './compressionProfile.js';
import type { FeatureResources } from './prepareDocument.js';

/** File names of the feature resources inside a model folder. */
export const RESOURCE_FILES = {
  humanLm: 'human.ngram.gz',
  machineLm: 'machine.ngram.gz',
  humanDictionary: 'human.dict.txt',
  machineDictionary: 'machine.dict.txt',
} as const;

/** Card keys (`resources`, `resource_sha256`) of each resource. */
const CARD_KEYS = { humanLm: 'human_lm', machineLm: 'machine_lm', humanDictionary: 'human_dictionary', machineDictionary: 'machine_dictionary' } as const;

/**
 * Reads the two language models and two deflate dictionaries of a model and prepares the LZ77 references. `paths`
 * (the card's `resources`) gives each file relative to the folder, so a version can share an earlier version's
 * files; `sha256` (the card's `resource_sha256`), when given, must match each file read.
 */
export async function loadFeatureResources(
  folder: string, paths: Record<string, string> = {}, sha256: Record<string, string> = {},
): Promise<FeatureResources> {
  const read = async (role: keyof typeof RESOURCE_FILES): Promise<Buffer> => {
    const key = CARD_KEYS[role];
    const path = resolve(folder, paths[key] ?? RESOURCE_FILES[role]);
    const bytes = await readFile(path);
    const expected = sha256[key];
    if (expected !== undefined && createHash('sha256').update(bytes).digest('hex') !== expected) {
      throw new ModelLoadError(folder, `resource ${path} differs from the one the model was trained with (SHA-256)`);
    }
    return bytes;
  };
  const [human, machine, humanDictionary, machineDictionary] = await Promise.all([
    read('humanLm'), read('machineLm'), read('humanDictionary'), read('machineDictionary'),
  ]);
  const humanText = humanDictionary.toString('utf8');
  const machineText = machineDictionary.toString('utf8');
  return {
    humanLm: CharNgramModel.deserialize(human),
    machineLm: CharNgramModel.deserialize(machine),
    humanDictionary,
    machineDictionary,
    // The text alone is priced with the human text's literal code: a neutral English letter distribution.
    plainReference: new CompressionReference('', humanText),
    humanReference: new CompressionReference(humanText),
    machineReference: new CompressionReference(machineText),
  };
}
