import { describe, expect, it } from 'vitest';
import { Engine, RESULT_SCHEMAS, REQUEST_SCHEMAS, openApiDocument, toJsonSchema } from '../src/index.js';

describe('openApiDocument', () => {
  const doc = openApiDocument(new Engine().features) as any;

  it('is OpenAPI 3.1 with bearer security', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
  });

  it('lists the mounted features and the tool server, and nothing that has not landed', () => {
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/mcp/v1', '/v1/image-detection', '/v1/plagiarism', '/v2/advanced-image-detection', '/v2/ai-content-detection', '/v2/fact-checker',
      '/v2/image-detection', '/v2/plagiarism', '/v2/text-compare',
    ]);
  });

  it('describes the request with the same bounds that validate it', () => {
    const schema = doc.paths['/v2/text-compare'].post.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(['first_text', 'second_text']);
    expect(schema.properties.first_text).toMatchObject({ type: 'string', minLength: 1, maxLength: 120000 });
  });

  it('documents every error status with the error body', () => {
    const responses = doc.paths['/v2/text-compare'].post.responses;
    expect(Object.keys(responses).sort()).toEqual(['200', '400', '401', '402', '403', '415', '429', '500', '503']);
    expect(responses['402'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
  });
});

describe('JSON Schemas of every documented result', () => {
  it('exist for each endpoint and name the credit fields of the spec', () => {
    const credits = Object.fromEntries(
      Object.entries(RESULT_SCHEMAS).map(([name, schema]) => {
        const json = toJsonSchema(schema) as { properties: Record<string, unknown> };
        return [name, ['credits_used', 'creditsUsed', 'cost'].filter((f) => f in json.properties)];
      }),
    );
    expect(credits).toEqual({
      'ai-content-detection': ['credits_used'],
      'image-detection': ['credits_used'],
      'advanced-image-detection': ['cost'],
      plagiarism: ['credits_used'],
      'plagiarism-v1': ['credits_used'],
      'fact-checker': ['creditsUsed'],
      'text-compare': ['credits_used'],
    });
  });

  it('exist for each request', () => {
    expect(Object.keys(REQUEST_SCHEMAS)).toEqual(Object.keys(RESULT_SCHEMAS));
    const image = toJsonSchema(REQUEST_SCHEMAS['image-detection'], 'input') as any;
    // The bundled versions, or a model the deployment plugged in (`custom:<name>`).
    const [bundled, custom] = image.properties.version.anyOf;
    expect([...bundled.enum].sort()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', 'latest', 'legacy-5']);
    expect(custom).toEqual({ type: 'string', pattern: '^custom:[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' });
  });
});
