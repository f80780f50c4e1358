import { describe, expect, it } from 'vitest';
import {
  ApiError,
  aiContentDetectionRequest,
  advancedImageDetectionRequest,
  factCheckerRequest,
  imageDetectionRequest,
  plagiarismRequest,
  textCompareRequest,
  validateRequest,
} from '../src/index.js';

function failure(schema: Parameters<typeof validateRequest>[0], body: unknown): ApiError {
  try {
    validateRequest(schema, body);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected a BAD_REQUEST');
}

describe('validateRequest', () => {
  it('rejects a body that is not an object', () => {
    for (const body of [null, [], 'text', 3]) {
      const error = failure(textCompareRequest, body);
      expect(error.code).toBe('BAD_REQUEST');
      expect(error.status).toBe(400);
      expect(error.description).toMatch(/must be a JSON object/);
    }
  });

  it('names a missing field', () => {
    expect(failure(textCompareRequest, { first_text: 'a' }).description).toBe('second_text is required');
  });

  it('names a field of the wrong type and what it received', () => {
    expect(failure(textCompareRequest, { first_text: 12, second_text: 'b' }).description).toBe(
      'first_text must be of type string but received number',
    );
  });

  it('states the text-compare bound of 120,000 characters', () => {
    const error = failure(textCompareRequest, { first_text: 'a', second_text: 'x'.repeat(120_001) });
    expect(error.description).toBe('second_text must be at most 120000 characters long');
    expect(validateRequest(textCompareRequest, { first_text: 'a', second_text: 'x'.repeat(120_000) }).second_text).toHaveLength(120_000);
  });

  it('lists every problem at once', () => {
    const error = failure(textCompareRequest, {});
    expect(error.description).toBe('first_text is required; second_text is required');
  });
});

describe('text inputs and their priority', () => {
  it('requires text unless website or file is given', () => {
    expect(failure(plagiarismRequest, {}).description).toBe('text is required unless website or file is given');
    expect(validateRequest(plagiarismRequest, { website: 'https://example.com/a' }).website).toBe('https://example.com/a');
  });

  it('applies the text bounds only when the text is the input used', () => {
    expect(failure(plagiarismRequest, { text: 'short' }).description).toMatch(/^text must be at least 100 characters long \(received 5\)$/);
    expect(validateRequest(plagiarismRequest, { text: 'short', file: 'https://example.com/a.pdf' }).file).toBe('https://example.com/a.pdf');
  });

  it('bounds fact-checker text to 300..10,000 characters', () => {
    expect(failure(factCheckerRequest, { text: 'x'.repeat(299) }).description).toMatch(/at least 300/);
    expect(failure(factCheckerRequest, { text: 'x'.repeat(10_001) }).description).toMatch(/at most 10000/);
    expect(validateRequest(factCheckerRequest, { text: 'x'.repeat(300) }).language).toBe('auto');
  });

  it('bounds ai-content-detection text to 300..150,000 characters and defaults sentences to true', () => {
    expect(failure(aiContentDetectionRequest, { text: 'x'.repeat(150_001) }).description).toMatch(/at most 150000/);
    const request = validateRequest(aiContentDetectionRequest, { text: 'x'.repeat(300) });
    expect(request.sentences).toBe(true);
    expect(request.language).toBe('auto');
  });
});

describe('languages and versions', () => {
  it('accepts the 47 plagiarism languages and auto, and rejects others', () => {
    expect(validateRequest(plagiarismRequest, { text: 'x'.repeat(100), language: 'sq' }).language).toBe('sq');
    expect(validateRequest(plagiarismRequest, { text: 'x'.repeat(100) }).language).toBe('auto');
    expect(failure(plagiarismRequest, { text: 'x'.repeat(100), language: 'et' }).description).toMatch(/^language must be "auto" or one of/);
  });

  it('accepts the fact-checker languages, which differ from the plagiarism ones', () => {
    expect(validateRequest(factCheckerRequest, { text: 'x'.repeat(300), language: 'et' }).language).toBe('et');
    expect(failure(factCheckerRequest, { text: 'x'.repeat(300), language: 'sq' }).description).toMatch(/^language must be/);
  });

  it('defaults the plagiarism country to us and checks its shape', () => {
    expect(validateRequest(plagiarismRequest, { text: 'x'.repeat(100) }).country).toBe('us');
    expect(failure(plagiarismRequest, { text: 'x'.repeat(100), country: 'usa' }).description).toBe('country must be a 2-letter country code');
  });

  it('takes image model versions 9..1, legacy-5 and latest, default 5', () => {
    expect(validateRequest(imageDetectionRequest, { url: 'https://example.com/a.png' }).version).toBe('5');
    expect(validateRequest(imageDetectionRequest, { url: 'https://example.com/a.png', version: 'latest' }).version).toBe('latest');
    expect(validateRequest(imageDetectionRequest, { url: 'https://example.com/a.png', version: '8' }).version).toBe('8');
    expect(validateRequest(imageDetectionRequest, { url: 'https://example.com/a.png', version: '9' }).version).toBe('9');
    expect(validateRequest(imageDetectionRequest, { url: 'https://example.com/a.png', version: 'legacy-5' }).version).toBe('legacy-5');
    expect(failure(imageDetectionRequest, { url: 'https://example.com/a.png', version: '10' }).description).toMatch(/^version must be one of/);
    expect(failure(imageDetectionRequest, { url: 'https://example.com/a.png', version: 'legacy' }).description).toMatch(/^version must be one of/);
    expect(failure(imageDetectionRequest, { url: 'https://example.com/a.png', version: 5 }).description).toMatch(/^version must be one of/);
    for (const version of [6, 4.5, -1, true, 'LATEST', ' 5']) {
      expect(failure(imageDetectionRequest, { url: 'https://example.com/a.png', version }).description).toMatch(/^version must be one of/);
    }
  });

  it('wants url or image, not both', () => {
    expect(failure(imageDetectionRequest, {}).description).toBe('url or image is required');
    expect(failure(imageDetectionRequest, { url: 'https://example.com/a.png', image: 'aGk=' }).description).toBe(
      'image and url cannot both be given: provide either url or image',
    );
  });

  it('wants a non-empty string image_url for advanced detection', () => {
    expect(failure(advancedImageDetectionRequest, { image_url: '' }).description).toBe('image_url must not be empty');
    expect(failure(advancedImageDetectionRequest, { image_url: 7 }).description).toBe('image_url must be of type string but received number');
  });
});
