import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModelLoadError, UnknownModelError } from '../errors.js';
import { EXTRA_MODEL_VERSIONS, extraModelFolder } from './extraModels.js';
import type { ModelCard } from './modelCard.js';

/** A registered model: where its folder is and what its card says. */
export interface ModelEntry {
  id: string;
  version: string;
  /** Folder holding the ONNX file, `card.json` and any resources. */
  folder: string;
  card: ModelCard;
}

/** Maps a model id and version to its folder and model card. */
export class ModelRegistry {
  private readonly entries = new Map<string, ModelEntry[]>();
  /** Versions kept in another package: `id@version` -> the folder, found (or refused) when first resolved. */
  private readonly elsewhere = new Map<string, () => string>();

  /** Registers the model in `folder` under the id and version its `card.json` gives. */
  register(folder: string): ModelEntry {
    const cardPath = join(folder, 'card.json');
    if (!existsSync(cardPath)) throw new ModelLoadError(cardPath, 'no model card');
    let card: ModelCard;
    try {
      card = JSON.parse(readFileSync(cardPath, 'utf8')) as ModelCard;
    } catch (error) {
      throw new ModelLoadError(cardPath, 'model card is not valid JSON', { cause: error });
    }
    const entry: ModelEntry = { id: card.id, version: card.version, folder, card };
    const list = (this.entries.get(card.id) ?? []).filter((e) => e.version !== card.version);
    list.push(entry);
    list.sort((a, b) => compareVersions(a.version, b.version));
    this.entries.set(card.id, list);
    return entry;
  }

  /**
   * Registers a version whose folder `locate` finds when the version is first resolved; `locate` throws (for the
   * bundled registry, ModelNotInstalledError) when the package holding it is not installed.
   */
  registerElsewhere(id: string, version: string, locate: () => string): void {
    this.elsewhere.set(`${id}@${version}`, locate);
  }

  /**
   * The model with this id, at `version` or else the highest version registered (versions registered elsewhere
   * only count once resolved by name).
   */
  resolve(id: string, version?: string): ModelEntry {
    const list = this.entries.get(id);
    let entry = version === undefined ? list?.at(-1) : list?.find((e) => e.version === version);
    const locate = version === undefined ? undefined : this.elsewhere.get(`${id}@${version}`);
    if (entry === undefined && locate !== undefined) {
      entry = this.register(locate());
      if (entry.id !== id || entry.version !== version) {
        throw new ModelLoadError(join(entry.folder, 'card.json'), `card says ${entry.id}@${entry.version}, expected ${id}@${version}`);
      }
    }
    if (entry === undefined) throw new UnknownModelError(id, version, this.list().map((e) => `${e.id}@${e.version}`));
    return entry;
  }

  /** Every registered model, by id then version. */
  list(): ModelEntry[] {
    return [...this.entries.values()].flat();
  }
}

/** Folder of the models shipped with this package. */
export const BUNDLED_MODELS_DIR = fileURLToPath(new URL('../../models/', import.meta.url));

let bundled: ModelRegistry | undefined;

/**
 * The registry of the models shipped in this package's `models/` folder, and of the older versions kept in
 * `@content-analysis/models-extra` (found there when first asked for; ModelNotInstalledError when it is not installed).
 */
export function bundledRegistry(): ModelRegistry {
  if (bundled === undefined) {
    const registry = new ModelRegistry();
    for (const version of EXTRA_MODEL_VERSIONS['ai-text']) {
      registry.registerElsewhere('ai-text', version, () => extraModelFolder('ai-text', version));
    }
    // Every AI-text version whose card exists (training writes the card last, so a half-trained folder is skipped).
    const root = join(BUNDLED_MODELS_DIR, 'ai-text');
    for (const version of readdirSync(root)) {
      const folder = join(root, version);
      if (existsSync(join(folder, 'card.json'))) registry.register(folder);
    }
    bundled = registry;
  }
  return bundled;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
