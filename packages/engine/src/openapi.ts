import { DEFAULT_DESCRIPTION, HTTP_STATUS_OF } from './errors.js';
import type { ApiErrorCode } from './errors.js';
import { toJsonSchema } from './jsonSchema.js';
import type { FeatureRegistry } from './registry.js';

export interface OpenApiOptions {
  /** @default 'http://localhost:8080' */
  serverUrl?: string;
  /** @default the engine's package version */
  version?: string;
  /** Whether the tool server is mounted at /mcp/v1. @default true */
  toolServer?: boolean;
}

function stripDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

const ERROR_CODES = Object.keys(HTTP_STATUS_OF) as ApiErrorCode[];

/** An OpenAPI 3.1 document of the mounted features, generated from the same schemas that validate requests. */
export function openApiDocument(registry: FeatureRegistry, options: OpenApiOptions = {}): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const errorResponses = Object.fromEntries(
    ERROR_CODES.map((code) => [
      String(HTTP_STATUS_OF[code]),
      {
        description: `${code}: ${DEFAULT_DESCRIPTION[code]}`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
      },
    ]),
  );
  for (const feature of registry.list()) {
    for (const route of feature.routes) {
      paths[route] = {
        post: {
          operationId: `${feature.id}${route.startsWith('/v1') ? '-v1' : ''}`,
          summary: feature.title,
          description: feature.description,
          security: [{ bearerAuth: [] }],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: stripDialect(toJsonSchema(feature.request, 'input')) } },
          },
          responses: {
            '200': {
              description: `${feature.title} result.`,
              content: {
                'application/json': { schema: stripDialect(toJsonSchema(feature.result)) },
                // A feature that can answer a page (the advanced report, `report: "html"`) says so.
                ...(feature.htmlAnswer ? { 'text/html': { schema: { type: 'string', description: 'A self-contained HTML page of the same result.' } } } : {}),
              },
            },
            ...errorResponses,
          },
        },
      };
    }
  }
  if (options.toolServer ?? true) {
    paths['/mcp/v1'] = {
      post: {
        operationId: 'tool-server',
        summary: 'Tool server (Model Context Protocol, JSON-RPC 2.0 over streamable HTTP)',
        description:
          '`tools/list` needs no token; `tools/call` authenticates with the bearer token or an `apiKey` argument and ' +
          'costs what the matching REST endpoint costs.',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['jsonrpc', 'method'],
                properties: {
                  jsonrpc: { const: '2.0' },
                  id: { type: ['number', 'string'] },
                  method: { type: 'string' },
                  params: { type: 'object' },
                },
              },
            },
          },
        },
        responses: {
          '200': { description: 'A JSON-RPC response, as JSON or as a text/event-stream.' },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Content Analysis API',
      version: options.version ?? '0.1.0',
      description: 'AI text and image detection, plagiarism, fact checking and text comparison.',
    },
    servers: [{ url: options.serverUrl ?? 'http://localhost:8080' }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      schemas: {
        ErrorBody: {
          type: 'object',
          required: ['status', 'error'],
          properties: {
            status: { type: 'integer' },
            error: { type: 'string' },
            description: { type: 'string' },
          },
        },
      },
    },
  };
}
