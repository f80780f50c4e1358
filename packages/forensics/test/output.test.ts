import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageDecodeError, ImageTooSmallError, analyzeImage, colormapTable, decodeImage, exportRawMap, readNpy, renderHeatmap } from '../src/index.js';

describe('colour maps', () => {
  it('match matplotlib viridis and inferno within 4/255 (error of the polynomial fits)', () => {
    // matplotlib _cm_listed entries 0, 128 and 255.
    const expected = {
      viridis: [[0.267004, 0.004874, 0.329415], [0.127568, 0.566949, 0.550556], [0.993248, 0.906157, 0.143936]],
      inferno: [[0.001462, 0.000466, 0.013866], [0.735683, 0.215906, 0.330245], [0.988362, 0.998364, 0.644924]],
    } as const;
    for (const name of ['viridis', 'inferno'] as const) {
      const table = colormapTable(name);
      [0, 128, 255].forEach((i, k) => {
        for (let c = 0; c < 3; c++) expect(Math.abs(table[i * 3 + c]! - 255 * expected[name][k]![c]!)).toBeLessThanOrEqual(4);
      });
    }
  });
});

describe('renderHeatmap and exportRawMap', () => {
  const map = { name: 'test', data: Float32Array.from([0, 1, 2, Number.NaN]), width: 2, height: 2, cellSize: 4, displayRange: [0, 2] as [number, number] };

  it('renders an RGBA PNG with NaN transparent, or over the image', async () => {
    const png = await renderHeatmap(map, { colormap: 'viridis' });
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([2, 2, 4]);
    expect(Array.from(data.subarray(0, 4))).toEqual([...colormapTable('viridis').subarray(0, 3), 255]);
    expect(data[15]).toBe(0);
    const under = { data: new Uint8Array(8 * 8 * 3).fill(200), width: 8, height: 8, channels: 3 };
    expect((await sharp(await renderHeatmap(map, { underlay: under })).metadata()).width).toBe(8);
  });

  it('writes a 16-bit grey PNG whose sidecar scale gives the values back', async () => {
    const { png, sidecar } = exportRawMap(map);
    const meta = await sharp(png).metadata();
    expect([meta.channels, meta.depth]).toEqual([1, 'ushort']);
    const { data } = await sharp(png).toColourspace('grey16').raw({ depth: 'ushort' }).toBuffer({ resolveWithObject: true });
    const samples = new Uint16Array(data.buffer, data.byteOffset, 4);
    expect(sidecar.offset + samples[1]! * sidecar.scale).toBeCloseTo(1, 4);
    expect(samples[3]).toBe(sidecar.nanSample);
  });
});

describe('readNpy', () => {
  it('reads a little-endian float32 2x3 array', () => {
    const header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    const padded = header.padEnd(118, ' ') + '\n';
    const head = Buffer.concat([Buffer.from([0x93]), Buffer.from('NUMPY', 'latin1'), Buffer.from([1, 0]), Buffer.from([padded.length, 0]), Buffer.from(padded, 'latin1')]);
    const body = Buffer.from(Float32Array.from([1, 2, 3, 4, 5, 6.5]).buffer);
    const array = readNpy(Buffer.concat([head, body]));
    expect(array.shape).toEqual([2, 3]);
    expect(Array.from(array.data)).toEqual([1, 2, 3, 4, 5, 6.5]);
  });
});

describe('bad input', () => {
  it('rejects bytes that are not an image with a typed error', async () => {
    await expect(decodeImage(Buffer.from('not an image'))).rejects.toBeInstanceOf(ImageDecodeError);
  });

  it('rejects a tiny image with ERR_FORENSICS_IMAGE_TOO_SMALL', async () => {
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#808080' } }).png().toBuffer();
    await expect(analyzeImage(png)).rejects.toMatchObject({ code: 'ERR_FORENSICS_IMAGE_TOO_SMALL' });
    await expect(analyzeImage(png)).rejects.toBeInstanceOf(ImageTooSmallError);
  });

  it('rejects an unknown kernel id', async () => {
    await expect(analyzeImage(new Uint8Array(4), { kernels: ['nope' as 'ela'] })).rejects.toMatchObject({ code: 'ERR_FORENSICS_UNKNOWN_KERNEL' });
  });
});
