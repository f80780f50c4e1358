import { deflateSync } from 'node:zlib';

// A paragraph of plain prose (written for this purpose), long enough for every text feature's lower bound.
const PROSE =
  'The harbour was quiet in the early evening. Fishing boats came back one after another, their engines slowing ' +
  'as they passed the breakwater, and the gulls followed them in. On the quay a few people waited with crates and ' +
  'trolleys, talking about the weather and the price of fuel. The light turned orange over the water and the town ' +
  'behind it, and by the time the last boat was tied up the first lamps were lit along the road to the station.';

/** A 256 x 256 grey gradient as a PNG: the smallest image the image features accept. */
function samplePng(): string {
  const size = 256;
  const rows = Buffer.alloc(size * (1 + size));
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) rows[y * (1 + size) + 1 + x] = (x + y) >> 1;
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0)),
  ]);
  return png.toString('base64');
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** The input each built-in feature is warmed up with. */
function sampleRequest(id: string): Record<string, unknown> | undefined {
  switch (id) {
    case 'text-compare': return { first_text: PROSE, second_text: PROSE.replace('quiet', 'calm') };
    case 'ai-content-detection': return { text: PROSE };
    case 'plagiarism': return { text: PROSE };
    case 'plagiarism-v1': return { text: PROSE };
    case 'fact-checker': return { text: PROSE };
    case 'image-detection': return { image: samplePng() };
    // advanced-image-detection takes only a URL (fetched); image-detection loads the same classifier and metadata reader.
    default: return undefined;
  }
}

/** Runs each built-in feature of `ids` once on its sample input, one after another; other ids are skipped. */
export async function warmUpFeatures(ids: readonly string[], analyse: (id: string, body: unknown) => Promise<unknown>): Promise<void> {
  for (const id of new Set(ids)) {
    const body = sampleRequest(id);
    if (body !== undefined) await analyse(id, body);
  }
}
