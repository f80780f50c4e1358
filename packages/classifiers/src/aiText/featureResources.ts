import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CharNgramModel } from './charNgramModel.js';
import type { FeatureResources } from './prepareDocument.js';

/** File names of the feature resources inside a model folder. */
export const RESOURCE_FILES = {
  humanLm: 'human.ngram.gz',
  machineLm: 'machine.ngram.gz',
  humanDictionary: 'human.dict.txt',
  machineDictionary: 'machine.dict.txt',
} as const;

/** Reads the two language models and two deflate dictionaries of a model folder. */
export async function loadFeatureResources(folder: string): Promise<FeatureResources> {
  const [human, machine, humanDictionary, machineDictionary] = await Promise.all([
    readFile(join(folder, RESOURCE_FILES.humanLm)),
    readFile(join(folder, RESOURCE_FILES.machineLm)),
    readFile(join(folder, RESOURCE_FILES.humanDictionary)),
    readFile(join(folder, RESOURCE_FILES.machineDictionary)),
  ]);
  return {
    humanLm: CharNgramModel.deserialize(human),
    machineLm: CharNgramModel.deserialize(machine),
    humanDictionary,
    machineDictionary,
  };
}
