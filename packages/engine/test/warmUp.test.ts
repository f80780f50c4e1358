import { describe, expect, it } from 'vitest';
import { Engine } from '../src/index.js';
import { probeFeature } from './helpers.js';
import type { Probe } from './helpers.js';

describe('Engine.warmUp', () => {
  it('runs each named built-in feature once on its sample input', async () => {
    const probe: Probe = { events: [] };
    const engine = new Engine({ features: [probeFeature(probe, { id: 'text-compare' })], analysis: { mode: 'thread' } });
    await engine.warmUp(['text-compare', 'text-compare']);
    expect(probe.events).toEqual(['plan', 'analyse']);
  });

  it('warms every registered feature by default and skips those that are not built in', async () => {
    const builtin: Probe = { events: [] };
    const custom: Probe = { events: [] };
    const engine = new Engine({
      features: [probeFeature(builtin, { id: 'ai-content-detection' }), probeFeature(custom, { id: 'probe' })],
      analysis: { mode: 'thread' },
    });
    await engine.warmUp();
    expect(builtin.events).toEqual(['plan', 'analyse']);
    expect(custom.events).toEqual([]);
  });

  it('refuses an unknown feature id before warming anything', async () => {
    const probe: Probe = { events: [] };
    const engine = new Engine({ features: [probeFeature(probe, { id: 'text-compare' })], analysis: { mode: 'thread' } });
    await expect(engine.warmUp(['text-compare', 'no-such-feature'])).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Unknown feature "no-such-feature"' });
    expect(probe.events).toEqual([]);
  });

  it('warms the real text-compare and image-detection features', async () => {
    const engine = new Engine({ analysis: { mode: 'thread' } });
    await expect(engine.warmUp(['text-compare', 'image-detection'])).resolves.toBeUndefined();
  }, 120_000); // loads the image classifier and its backbone
});
