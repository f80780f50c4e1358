import { describe, expect, it } from 'vitest';
import { analyzeImageAuthenticity, advancedReportFigures, advancedReportHtml, metadataRows } from '../src/index.js';
import { FixedAiImageClassifierDouble, syntheticPhoto } from './images.js';

describe('metadataRows', () => {
  it('flattens nested metadata to path / value rows, plain arrays on one row, long values cut', () => {
    expect(metadataRows({ Make: 'Canon', GPS: { lat: 1.5, tags: ['a', 'b'] }, list: [{ x: 1 }], empty: {} })).toEqual([
      ['Make', 'Canon'], ['GPS.lat', '1.5'], ['GPS.tags', 'a, b'], ['list[0].x', '1'], ['empty', '{}'],
    ]);
    const [[, long]] = metadataRows({ note: 'x'.repeat(1000) }) as [[string, string]];
    expect(long).toBe(`${'x'.repeat(600)}... (1000 characters)`);
    expect(metadataRows({ thumbnail: new Uint8Array(5) })).toEqual([['thumbnail', '(5 bytes)']]);
  });

  it('keeps at most 400 rows and says how many more there were', () => {
    const rows = metadataRows(Object.fromEntries(Array.from({ length: 450 }, (_, i) => [`k${i}`, i])));
    expect(rows).toHaveLength(401);
    expect(rows.at(-1)).toEqual(['...', '50 more fields (see the JSON result)']);
  });
});

describe('the advanced report page', () => {
  it('shows the decision, the cost and balance, every kernel, and a fused map beside the image when the analysis has one', async () => {
    const bytes = await syntheticPhoto();
    const analysis = await analyzeImageAuthenticity(bytes, { classifier: new FixedAiImageClassifierDouble(0.3) });
    const edge = analysis.kernels.find((k) => k.id === 'edge-anomaly');
    if (edge?.state !== 'completed') throw new Error('edge-anomaly did not complete');
    const fused = { ...edge.result.maps[0]!, name: 'tamper-probability', displayRange: [0, 1] as [number, number] };
    const figures = await advancedReportFigures(bytes, { ...analysis, fused });
    expect(figures.overall).toMatchObject({ name: 'Fused map', legend: { label: 'tamper-probability' } });
    expect(figures.maps.filter((m) => !m.secondary).map((m) => m.name)).toEqual([
      'Error level analysis', 'Wavelet noise (NOI1)', 'Median-filter residual', 'Demosaicing traces (CFA1)', 'CFA re-interpolation (CFA2)', 'Edge anomaly',
      'Aligned double quantisation', 'JPEG grid (block artefact grid)', 'JPEG ghosts',
    ]);
    const result = { status: 200, ...analysis.report, cost: 500, balance: 1500, report_figures: figures };
    const html = advancedReportHtml(result, figures, new Date('2026-11-27T12:00:00Z'));
    expect(html).toContain(`<div class="badge">${analysis.report.authenticity}</div>`);
    expect(html).toContain('<div><dt>Cost</dt><dd>500 credits</dd></div><div><dt>Balance</dt><dd>1500 credits</dd></div>');
    expect(html).toContain('generated 2026-11-27 12:00 UTC');
    expect(html).toContain('<h3>Fused map</h3>');
    // The JSON result printed at the end is the API's, without the figures.
    expect(html).toContain('&quot;balance&quot;: 1500');
    expect(html).not.toContain('report_figures');
  }, 60_000);
});
