import { gunzipSync } from 'node:zlib';

/** A NumPy array read from a .npy file: values widened to Float64, C-order shape. */
export interface NpyArray {
  shape: number[];
  dtype: string;
  data: Float64Array;
}

const MAGIC = '\x93NUMPY';

/**
 * Reads a NumPy .npy file (format 1.0-3.0, little- or big-endian bool/int/uint/float of 1-8 bytes, C or Fortran
 * order; Fortran arrays are returned in C order). Gzip-compressed input (.npy.gz) is inflated first.
 */
export function readNpy(bytes: Uint8Array): NpyArray {
  let buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf[0] === 0x1f && buf[1] === 0x8b) buf = gunzipSync(buf);
  if (buf.toString('latin1', 0, 6) !== MAGIC) throw new RangeError('Expected .npy magic \\x93NUMPY at the start of the file');
  const major = buf[6]!;
  const headerLength = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + headerLength);
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order':\s*True/.test(header);
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  if (!descr || shapeText === undefined) throw new RangeError(`Expected descr and shape in the .npy header but received ${header}`);
  const shape = shapeText.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const little = descr[0] !== '>';
  const kind = descr[1]!;
  const size = Number(descr.slice(2));
  const offset = start + headerLength;
  const raw = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const p = offset + i * size;
    raw[i] = readScalar(buf, p, kind, size, little);
  }
  const data = fortran && shape.length > 1 ? fortranToC(raw, shape) : raw;
  return { shape, dtype: descr, data };
}

function readScalar(buf: Buffer, p: number, kind: string, size: number, little: boolean): number {
  if (kind === 'f') {
    if (size === 4) return little ? buf.readFloatLE(p) : buf.readFloatBE(p);
    if (size === 8) return little ? buf.readDoubleLE(p) : buf.readDoubleBE(p);
  } else if (kind === 'u' || kind === 'b') {
    if (size <= 6) return little ? buf.readUIntLE(p, size) : buf.readUIntBE(p, size);
    if (size === 8) return Number(little ? buf.readBigUInt64LE(p) : buf.readBigUInt64BE(p));
  } else if (kind === 'i') {
    if (size <= 6) return little ? buf.readIntLE(p, size) : buf.readIntBE(p, size);
    if (size === 8) return Number(little ? buf.readBigInt64LE(p) : buf.readBigInt64BE(p));
  }
  throw new RangeError(`Unsupported .npy dtype ${kind}${size}`);
}

function fortranToC(raw: Float64Array, shape: number[]): Float64Array {
  const out = new Float64Array(raw.length);
  const dims = shape.length;
  const index = new Array<number>(dims).fill(0);
  for (let f = 0; f < raw.length; f++) {
    let c = 0;
    for (let d = 0; d < dims; d++) c = c * shape[d]! + index[d]!;
    out[c] = raw[f]!;
    for (let d = 0; d < dims; d++) {
      if (++index[d]! < shape[d]!) break;
      index[d] = 0;
    }
  }
  return out;
}
