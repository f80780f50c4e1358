import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AI_IMAGE_VERSIONS, AI_TEXT_MODEL_ID, aiImageModelCard, aiImageModelDir, aiImageModelFolder, BUNDLED_MODELS_DIR,
  bundledRegistry, DEFAULT_AI_IMAGE_VERSION, DEFAULT_AI_TEXT_VERSION, EXTRA_MODEL_VERSIONS, extraModelsDir,
  LATEST_AI_IMAGE_VERSION, MODELS_EXTRA_PACKAGE, ModelNotInstalledError, resolveAiTextVersion,
} from '../src/index.js';

const inExtra = `${sep}models-extra${sep}models${sep}`;

// The workspace installs @content-analysis/models-extra as a devDependency of the classifiers; a team's install
// without it is checked from the packed tarballs by scripts/pack-check.mjs (version 7 answers MODEL_NOT_INSTALLED).
describe('models kept in @content-analysis/models-extra', () => {
  it('the default and latest AI-image models ship in this package, every other version in models-extra', () => {
    const kept = new Set([aiImageModelFolder(DEFAULT_AI_IMAGE_VERSION), aiImageModelFolder(LATEST_AI_IMAGE_VERSION)]);
    expect([...kept]).toEqual(['9']);
    for (const v of AI_IMAGE_VERSIONS) {
      const dir = aiImageModelDir(v);
      const folder = aiImageModelFolder(v);
      expect(dir.endsWith(join('ai-image', folder))).toBe(true);
      expect(existsSync(join(dir, 'card.json'))).toBe(true);
      if (kept.has(folder)) {
        expect(dir).toBe(join(BUNDLED_MODELS_DIR, 'ai-image', folder));
        expect(EXTRA_MODEL_VERSIONS['ai-image']).not.toContain(folder);
      } else {
        expect(dir).toContain(inExtra);
        expect(EXTRA_MODEL_VERSIONS['ai-image']).toContain(folder);
        expect(existsSync(join(BUNDLED_MODELS_DIR, 'ai-image', folder))).toBe(false);
      }
    }
    expect(aiImageModelCard('legacy-5').version).toBe('5');
    expect(aiImageModelDir('legacy-5')).toContain(inExtra);
  });

  it('AI text keeps its default (= latest) here and finds the other versions in models-extra by name only', () => {
    expect(resolveAiTextVersion('latest')).toBe(DEFAULT_AI_TEXT_VERSION);
    const registry = bundledRegistry();
    expect(registry.resolve(AI_TEXT_MODEL_ID, DEFAULT_AI_TEXT_VERSION).folder).toBe(join(BUNDLED_MODELS_DIR, 'ai-text', DEFAULT_AI_TEXT_VERSION));
    expect(EXTRA_MODEL_VERSIONS['ai-text']).not.toContain(DEFAULT_AI_TEXT_VERSION);
    for (const v of EXTRA_MODEL_VERSIONS['ai-text']) {
      const entry = registry.resolve(AI_TEXT_MODEL_ID, v);
      expect(entry.version).toBe(v);
      expect(entry.folder).toBe(join(extraModelsDir()!, 'ai-text', v));
      expect(existsSync(join(BUNDLED_MODELS_DIR, 'ai-text', v))).toBe(false);
    }
    // 1.2.0 reads 1.0.0's language models and dictionaries: both moved together.
    expect(registry.resolve(AI_TEXT_MODEL_ID, '1.2.0').card.resources?.['human_lm']).toBe('../1.0.0/human.ngram.gz');
  });

  it('the error for a version whose package is missing names the package and the install command', () => {
    const error = new ModelNotInstalledError('ai-image', '7', MODELS_EXTRA_PACKAGE);
    expect(error).toBeInstanceOf(RangeError);
    expect(error).toMatchObject({ code: 'MODEL_NOT_INSTALLED', field: 'version', modelId: 'ai-image', version: '7' });
    expect(error.message).toBe(
      'ai-image version 7 is in @content-analysis/models-extra, which is not installed: npm install @content-analysis/models-extra',
    );
  });
});
