import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  colormapTable, escapeHtml, exportRawMap, kernelReportMaps, legendGradient, legendTicks, reportFigures, reportHtml,
} from '../src/index.js';
import type { ForensicMap, KernelOutcome, PixelBuffer, ReportFigures } from '../src/index.js';
import { downsampleMap } from '../src/report/downsampleMap.js';

const map = (name: string, values: number[], width: number, cellSize = 8, displayRange: [number, number] = [0, 1]): ForensicMap => ({
  name, data: Float32Array.from(values), width, height: values.length / width, cellSize, displayRange,
});

async function rgba(dataUri: string): Promise<{ data: Buffer; width: number; height: number }> {
  const bytes = Buffer.from(dataUri.slice(dataUri.indexOf(',') + 1), 'base64');
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function gradientImage(width: number, height: number): PixelBuffer {
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) data.fill((i % width) & 255, i * 3, i * 3 + 3);
  return { data, width, height, channels: 3 };
}

describe('escapeHtml', () => {
  it('writes markup characters as entities and control characters as U+FFFD', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;');
    expect(escapeHtml('a\u0000b\tc\n')).toBe('a\ufffdb\tc\n');
  });
});

describe('colour scale', () => {
  it('labels evenly spaced values with the decimals the span needs', () => {
    expect(legendTicks(0, 75).map((t) => t.label)).toEqual(['0', '18.8', '37.5', '56.3', '75']);
    expect(legendTicks(0, 0.5).map((t) => t.label)).toEqual(['0', '0.125', '0.25', '0.375', '0.5']);
    expect(legendTicks(-1, 1).map((t) => t.label)).toEqual(['-1', '-0.5', '0', '0.5', '1']);
    expect(legendTicks(0, 3.44).map((t) => t.position)).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });

  it('draws the colour map as a gradient from its first to its last entry', () => {
    const t = colormapTable('viridis');
    const gradient = legendGradient('viridis');
    expect(gradient.startsWith(`linear-gradient(to right, rgb(${t[0]},${t[1]},${t[2]}) 0%`)).toBe(true);
    expect(gradient.endsWith(`rgb(${t[765]},${t[766]},${t[767]}) 100%)`)).toBe(true);
    expect(gradient.match(/rgb\(/g)).toHaveLength(17);
  });
});

describe('downsampleMap', () => {
  it('averages the finite values of each box and widens the cells', () => {
    const small = downsampleMap(map('m', [1, 2, 3, NaN, 5, 6, 7, 8], 4, 2), 2);
    expect([small.width, small.height, small.cellSize]).toEqual([2, 1, 4]);
    expect(Array.from(small.data)).toEqual([3.5, 6]);
    const blank = downsampleMap(map('m', [NaN, NaN, 1, 1], 4, 1), 2);
    expect(Number.isNaN(blank.data[0])).toBe(true);
  });
});

describe('reportFigures', () => {
  const values = [0, 0.25, 0.5, 0.75, 1, NaN, 0.5, 0.25];

  it('draws a float map and the same map read back from its 16-bit raw PNG identically', async () => {
    const float = map('tamper', values, 4);
    const figures = await reportFigures({
      image: gradientImage(64, 32),
      maps: [
        { name: 'Float', map: float, scaleLabel: 'probability' },
        { name: 'Raw', raw: exportRawMap(float) },
      ],
    });
    const [a, b] = figures.maps;
    expect(a!.heatmap!.src.startsWith('data:image/png;base64,')).toBe(true);
    const [pa, pb] = [await rgba(a!.heatmap!.src), await rgba(b!.heatmap!.src)];
    expect([pa.width, pa.height]).toEqual([4, 2]);
    expect(pb.data.equals(pa.data)).toBe(true);
    // The NaN cell is transparent; the cell of value 1 has the colour map's last entry.
    expect(pa.data[5 * 4 + 3]).toBe(0);
    const t = colormapTable('inferno');
    expect([...pa.data.subarray(16, 19)]).toEqual([t[765], t[766], t[767]]);
    expect(a!.heatmap!.blankShare).toBe(1 / 8);
    expect(a!.legend!.label).toBe('probability');
    expect(b!.legend!.label).toBe('tamper');
    expect(a!.heatmap!.pixelated).toBe(true);
  });

  it('embeds the image as a JPEG at most maxSide pixels a side and keeps its analysed size', async () => {
    const figures = await reportFigures({ image: gradientImage(640, 448), maps: [], maxSide: 100 });
    expect(figures.image).toMatchObject({ width: 640, height: 448 });
    expect(figures.image.src.startsWith('data:image/jpeg;base64,')).toBe(true);
    const shown = await rgba(figures.image.src);
    expect([shown.width, shown.height]).toEqual([100, 70]);
  });

  it('shows a failed method as its message, and puts the overall map apart', async () => {
    const figures = await reportFigures({
      image: gradientImage(64, 64),
      maps: [{ name: 'Ghosts', error: 'not a JPEG' }],
      overall: { name: 'Fused', map: map('fused', values, 4), range: [0, 0.5] },
    });
    expect(figures.maps[0]).toEqual({ name: 'Ghosts', secondary: false, error: 'not a JPEG' });
    expect(figures.overall?.legend?.ticks.at(-1)?.label).toBe('0.5');
  });

  it('widens the empty display range of a constant map to one unit', async () => {
    const figures = await reportFigures({ image: gradientImage(64, 64), maps: [{ name: 'flat', map: map('flat', [2, 2], 2, 8, [2, 2]) }] });
    expect(figures.maps[0]!.legend!.ticks.map((t) => t.label)).toEqual(['2', '2.25', '2.5', '2.75', '3']);
  });

  it('refuses a map without data and an empty range, naming the map', async () => {
    await expect(reportFigures({ image: gradientImage(64, 64), maps: [{ name: 'x' }] }))
      .rejects.toThrow('Expected exactly one of map, raw or error for map "x" but received 0');
    await expect(reportFigures({ image: gradientImage(64, 64), maps: [{ name: 'y', map: map('y', values, 4), range: [1, 1] }] }))
      .rejects.toThrow('Expected range [low, high] with finite high > low for map "y" but received [1, 1]');
  });
});

describe('kernelReportMaps', () => {
  const completed = (id: string, maps: ForensicMap[], score: number) =>
    ({ state: 'completed', id, version: '1', ms: 1, result: { maps, stats: {}, score } }) as unknown as KernelOutcome;

  it('puts each kernel\'s main map in the grid, its other maps apart, and shows kernels it does not know by their ids', () => {
    const panels = kernelReportMaps([
      completed('ela', [map('ela', [1, 2], 2, 1), map('ela-block-mean', [1], 1, 16)], 0.25),
      completed('noise-print', [map('noise-print-q75', [0, 1], 2)], 0.5),
      { state: 'errored', id: 'edge-anomaly', version: '1', error: { code: 'ERR_FORENSICS_KERNEL_FAILED', message: 'boom' } },
      completed('spectral', [{ ...map('pmap-spectrum', [1], 1), cellSize: 0 }], 0.1),
    ]);
    expect(panels.map((p) => [p.name, p.secondary ?? false])).toEqual([
      ['Error level analysis', false], ['noise-print', false], ['Edge anomaly', false], ['Error level analysis: ela-block-mean', true],
    ]);
    expect(panels[0]).toMatchObject({ detail: 'ela_image · ela', note: 'Score 0.25 · map ela, 2x1 pixels' });
    expect(panels[1]).toMatchObject({ detail: 'noise-print', scaleLabel: 'noise-print-q75' });
    expect(panels[2]).toMatchObject({ error: 'boom (ERR_FORENSICS_KERNEL_FAILED)' });
  });
});

describe('reportHtml', () => {
  const hostile = `<script>window.pwned=1</script><img src=x onerror="window.pwned=2">`;
  async function figures(): Promise<ReportFigures> {
    return reportFigures({ image: gradientImage(64, 64), maps: [{ name: hostile, map: map('m', [0, 1], 2), note: hostile, scaleLabel: hostile }] });
  }

  it('prints every text escaped: no element comes from the strings it is given', async () => {
    const html = reportHtml({
      title: hostile, subtitle: hostile, tags: [hostile], figures: await figures(),
      verdict: { headline: hostile, tone: 'alert', summary: hostile, facts: [{ label: hostile, value: hostile }] },
      sections: [{ heading: hostile, paragraphs: [hostile], items: [{ term: hostile, text: hostile }], table: [[hostile, hostile]], preformatted: hostile }],
      footer: [hostile],
    });
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onerror="');
    expect(html.match(/<img /g)).toHaveLength(2);
    expect(html.split('&lt;script&gt;window.pwned=1&lt;/script&gt;').length - 1).toBeGreaterThanOrEqual(14);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:;`);
  });

  it('writes no image that is not an embedded PNG or JPEG', async () => {
    const f = await figures();
    expect(() => reportHtml({ title: 't', figures: { ...f, image: { ...f.image, src: 'https://example.com/a.png' } } }))
      .toThrow('Expected a base64 PNG or JPEG data: URI for the image "The analysed image"');
    const gradient = { ...f.maps[0]!, legend: { ...f.maps[0]!.legend!, gradient: 'url(https://example.com/x)' } };
    expect(() => reportHtml({ title: 't', figures: { ...f, maps: [gradient] } })).toThrow('Expected a colour gradient of rgb() stops');
  });
});
