import { describe, expect, it } from 'vitest';
import { ImageInputError, toImageBytes } from '../src/index.js';

function reason(input: string): string {
  try {
    toImageBytes(input);
    return 'decoded';
  } catch (error) {
    expect(error).toBeInstanceOf(ImageInputError);
    return (error as ImageInputError).reason;
  }
}

describe('toImageBytes base64 (issue 26: a payload without whitespace is tested once, not copied)', () => {
  const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 255);
  const standard = Buffer.from(bytes).toString('base64');

  it('decodes plain, wrapped and URL-safe payloads to the same bytes', () => {
    expect(toImageBytes(standard)).toEqual(bytes);
    expect(toImageBytes(standard.replace(/.{76}/g, '$&\r\n'))).toEqual(bytes);
    expect(toImageBytes(` \t${standard}\u00a0\n`)).toEqual(bytes);
    expect(toImageBytes(Buffer.from(bytes).toString('base64url'))).toEqual(bytes);
    expect(toImageBytes(`data:image/png;base64,${standard}`)).toEqual(bytes);
  });

  it('refuses what is not base64, whitespace or not, and an empty payload', () => {
    expect(reason('QUJD=A')).toBe('INVALID_BASE64');
    expect(reason('QUJD===')).toBe('INVALID_BASE64');
    expect(reason('QU JD!')).toBe('INVALID_BASE64');
    expect(reason('QUJDR')).toBe('INVALID_BASE64');
    expect(reason('QU JD=\n=')).toBe('decoded');
    expect(reason(' \n\t')).toBe('EMPTY_INPUT');
    expect(reason('')).toBe('EMPTY_INPUT');
  });
});
