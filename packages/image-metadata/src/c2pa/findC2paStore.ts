/** Where the C2PA manifest store of a file is, found from the container structure without parsing JUMBF. */
export interface C2paLocation {
  /** An embedded JUMBF manifest store (JPEG APP11, PNG caBX, WEBP C2PA chunk). */
  embedded: boolean;
  /** `dcterms:provenance` of the XMP: a remote manifest URL or a `self#jumbf=` pointer. */
  provenance?: string;
}

/** Looks for C2PA traces in a few microseconds, so files without provenance never reach the SDK. */
export function findC2paStore(bytes: Uint8Array, format: 'jpeg' | 'png' | 'webp', xmp: string | undefined): C2paLocation {
  const embedded = format === 'jpeg' ? jpegHasJumbf(bytes) : format === 'png' ? pngHasCabx(bytes) : webpHasC2pa(bytes);
  return c2paLocation(embedded, xmp);
}

/** The location, when the container walk that reads the header has already seen whether a store is embedded. */
export function c2paLocation(embedded: boolean, xmp: string | undefined): C2paLocation {
  const provenance = xmp ? /dcterms:provenance\s*=\s*["']([^"']+)["']|<dcterms:provenance>([^<]+)</.exec(xmp) : null;
  const url = provenance ? (provenance[1] ?? provenance[2])?.trim() : undefined;
  return url ? { embedded, provenance: url } : { embedded };
}

function jpegHasJumbf(bytes: Uint8Array): boolean {
  let offset = 2;
  while (offset + 4 <= bytes.length && bytes[offset] === 0xff) {
    const marker = bytes[offset + 1]!;
    if (marker === 0xda || marker === 0xd9) return false;
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    // APP11 "JP" segments carry JUMBF; C2PA stores are labelled "c2pa".
    if (marker === 0xeb && bytes[offset + 4] === 0x4a && bytes[offset + 5] === 0x50) return true;
    offset += 2 + length;
  }
  return false;
}

function pngHasCabx(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  while (offset + 8 <= bytes.length) {
    const length = view.getUint32(offset);
    if (bytes[offset + 4] === 0x63 && bytes[offset + 5] === 0x61 && bytes[offset + 6] === 0x42 && bytes[offset + 7] === 0x58) return true;
    offset += 12 + length;
  }
  return false;
}

function webpHasC2pa(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const size = view.getUint32(offset + 4, true);
    if (bytes[offset] === 0x43 && bytes[offset + 1] === 0x32 && bytes[offset + 2] === 0x50 && bytes[offset + 3] === 0x41) return true;
    offset += 8 + size + (size % 2);
  }
  return false;
}
