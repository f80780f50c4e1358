import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import type { EngineServicesOptions } from '@content-analysis/engine';

type AiImageClassifier = NonNullable<EngineServicesOptions['imageClassifier']>;
type AiImageClassification = Awaited<ReturnType<AiImageClassifier['classify']>>;
/** The classifier's documented confidence rule (classifiers' confidenceOf): distance of the AI probability from 0.5. */
const confidence = (distance: number): AiImageClassification['confidence'] => (distance < 0.1 ? 'low' : distance < 0.3 ? 'medium' : 'high');

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/** An RGB PNG of `width` x `height` whose pixel (x, y) is `pixel(x, y)`, with an XMP packet when given. */
function encodePng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number], xmp?: string): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) row.set(pixel(x, y), 1 + x * 3);
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    // iTXt: keyword, NUL, not compressed, method 0, empty language tag and translated keyword, then the text.
    ...(xmp ? [chunk('iTXt', Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'), Buffer.from(xmp, 'utf8')]))] : []),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const clamp = (v: number): number => Math.max(0, Math.min(255, Math.round(v)));

/**
 * A photo-like PNG made here (no image library in this package): a colour gradient with deterministic noise. With
 * `xmp`, the packet is stored in an iTXt chunk, where editors put it.
 */
export function gradientPng(width: number, height: number, options: { xmp?: string } = {}): Buffer {
  let seed = 3;
  return encodePng(width, height, (x, y) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const noise = (seed >>> 28) - 8;
    return [clamp((x / width) * 200 + 30 + noise), clamp((y / height) * 180 + 40 + noise), clamp(128 + 60 * Math.sin(x / 30) + noise)];
  }, options.xmp);
}

/** A PNG of uniform random pixels: incompressible, about 3 bytes per pixel. */
export function noisePng(width: number, height: number): Buffer {
  let seed = 5;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
  return encodePng(width, height, () => [next(), next(), next()]);
}

/** An XMP packet declaring the IPTC digital source type `trainedAlgorithmicMedia` (made by a generative AI model). */
export const AI_DECLARATION_XMP =
  '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">' +
  '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""' +
  ' xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"' +
  ' Iptc4xmpExt:DigitalSourceType="http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia"/>' +
  '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>';

/**
 * TEST DOUBLE of the AI-image classifier, not the model: the same AI probability for every image, each call
 * recorded. The server tests check transport, auth, credits and errors, not the model's judgement.
 */
export class FixedAiImageClassifierDouble implements AiImageClassifier {
  readonly versions: unknown[] = [];

  constructor(readonly aiProbability: number) {}

  async classify(_bytes: Uint8Array, options: { version?: string | number } = {}): Promise<AiImageClassification> {
    this.versions.push(options.version);
    const human = 1 - this.aiProbability;
    const version = String(options.version ?? '5') as AiImageClassification['version'];
    return { version, ai_probability: this.aiProbability, human_probability: human, score: Math.round(100 * human), confidence: confidence(Math.abs(this.aiProbability - 0.5)) };
  }
}

/** A loopback server answering `files` by path (404 otherwise), and fetch hooks that route every host name to it. */
export async function imageHost(files: Record<string, Buffer>): Promise<{
  fetch: { resolve: () => Promise<Array<{ address: string; family: 4 }>>; dial: () => { host: string; port: number } };
  close(): Promise<void>;
}> {
  const server = createServer((req, res) => {
    const body = files[req.url ?? ''];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/png' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    fetch: { resolve: async () => [{ address: '93.184.216.34', family: 4 }], dial: () => ({ host: '127.0.0.1', port }) },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
