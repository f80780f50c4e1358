import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MemoryLedger } from '@content-analysis/credits';
import {
  ADVANCED_ERROR,
  Engine,
  FACT_CHECK_LANGUAGES,
  HTTP_STATUS_OF,
  PLAGIARISM_LANGUAGES,
  SNAKE_CASE_CREDITS,
  textCompareFeature,
} from '@content-analysis/engine';
import {
  ADVANCED_ERROR_OF_STATUS,
  V2_ERROR_OF_STATUS,
  checkAnswer,
  checkToolAnswer,
  endpointArbitraries,
  loadSeeds,
  runCase,
  startTarget,
  withCaller,
} from '../../../scripts/fuzz/lib/index.mjs';
import type { FuzzTarget } from '../../../scripts/fuzz/lib/index.mjs';
import { createApiServer, listen } from '../src/index.js';
import { FixedAiImageClassifierDouble } from './testImage.js';

/**
 * The fixed-seed subset of the fuzzer of scripts/fuzz (the same generators and properties, fewer inputs, the
 * classifier replaced by a test double): every answer is documented, nothing is charged on an error, every
 * request is answered.
 */

const v2Endpoint = { errorStyle: 'v2' as const, result: textCompareFeature.result };

describe('the documented answers (the fuzzer\'s contract)', () => {
  it('agree with the engine\'s error table', () => {
    expect(Object.fromEntries(Object.entries(V2_ERROR_OF_STATUS).map(([status, code]) => [code, Number(status)]))).toEqual(HTTP_STATUS_OF);
    expect(ADVANCED_ERROR_OF_STATUS[400]).toBe(ADVANCED_ERROR.invalidUrl);
    expect(ADVANCED_ERROR_OF_STATUS[401]).toBe(ADVANCED_ERROR.unauthorized);
    expect(ADVANCED_ERROR_OF_STATUS[402]).toBe(ADVANCED_ERROR.insufficientCredits);
    expect(ADVANCED_ERROR_OF_STATUS[500]).toBe(ADVANCED_ERROR.analysisFailed);
  });

  it('accept a documented error body', () => {
    expect(checkAnswer(v2Endpoint, 403, { status: 403, error: 'FORBIDDEN', description: 'The server answered 404 Not Found' })).toEqual([]);
    expect(checkAnswer({ ...v2Endpoint, errorStyle: 'advanced' }, 400, { status: 400, error: 'Invalid URL provided', description: 'x' })).toEqual([]);
  });

  it('catch an undocumented status', () => {
    expect(checkAnswer(v2Endpoint, 418, { status: 418, error: 'BAD_REQUEST' })).toEqual(['undocumented status 418']);
    expect(checkAnswer(v2Endpoint, 404, { status: 404, error: 'NOT_FOUND' })).toEqual(['undocumented status 404']);
    expect(checkAnswer({ ...v2Endpoint, errorStyle: 'advanced' }, 403, { status: 403, error: 'FORBIDDEN' })).toEqual(['undocumented status 403']);
  });

  it('catch an error body that does not match its status, or has fields of its own', () => {
    expect(checkAnswer(v2Endpoint, 400, { status: 400, error: 'FORBIDDEN', description: 'x' })).toEqual([
      'undocumented error body for 400: error "FORBIDDEN", expected "BAD_REQUEST"',
    ]);
    expect(checkAnswer(v2Endpoint, 400, { status: 200, error: 'BAD_REQUEST', stack: 'at x' })).toEqual([
      'undocumented error body for 400: status field 200',
      'undocumented error body for 400: extra fields stack',
    ]);
    expect(checkAnswer(v2Endpoint, 400, 'Bad Request')).toEqual(['undocumented error body for 400: not a JSON object']);
  });

  it('count a 500 as a violation though it is documented', () => {
    expect(checkAnswer(v2Endpoint, 500, { status: 500, error: 'INTERNAL_SERVER_ERROR', description: 'Unexpected error.' })).toEqual([
      'unexpected status 500 (INTERNAL_SERVER_ERROR)',
    ]);
  });

  it('catch a 200 whose body is not the documented result', () => {
    expect(checkAnswer(v2Endpoint, 200, { status: 200, similarity_score: 'high' })[0]).toMatch(/^undocumented 200 body: /);
  });

  it('catch an internal JSON-RPC error and a tool error that is not documented', () => {
    const schemaOf = () => z.object({});
    expect(checkToolAnswer(schemaOf, { method: 'initialize' }, 200, { jsonrpc: '2.0', id: 1, error: { code: -32603, message: '[...]' } }).problems).toEqual([
      'undocumented JSON-RPC error -32603',
    ]);
    const toolError = { jsonrpc: '2.0', id: 1, result: { isError: true, content: [{ type: 'text', text: '{"status":418,"error":"TEAPOT"}' }] } };
    expect(checkToolAnswer(schemaOf, { method: 'tools/call', tool: 'text-compare' }, 200, toolError).problems).toEqual(['undocumented status 418']);
  });
});

/** A server that breaks the properties on purpose: the fuzzer's run of one case must say so. */
describe('a case against a misbehaving server', () => {
  let target: FuzzTarget;
  let stopServer: () => Promise<void>;

  beforeAll(async () => {
    const ledger = new MemoryLedger();
    const rich = await ledger.createAccount({ credits: 1000 });
    const poor = await ledger.createAccount({ credits: 10 });
    const server = createServer((req, res) => {
      req.resume();
      const answer = async () => {
        if (req.url === '/v2/teapot') return [418, { status: 418, error: 'TEAPOT' }] as const;
        if (req.url === '/v2/charges-on-error') await ledger.charge(rich.id, 5);
        if (req.url === '/v2/crash') return void req.socket.destroy();
        return [400, { status: 400, error: 'BAD_REQUEST', description: 'no' }] as const;
      };
      void answer().then((a) => a && res.writeHead(a[0], { 'content-type': 'application/json' }).end(JSON.stringify(a[1])));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stopServer = () => new Promise<void>((resolve) => server.close(() => resolve()));
    const feature = { errorStyle: 'v2', result: z.object({}), credits: SNAKE_CASE_CREDITS };
    target = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      engine: { features: { byRoute: () => feature } },
      ledger,
      logged: [],
      accounts: { rich: rich.id, poor: poor.id },
      tokens: { valid: 'ca_x', poor: 'ca_y' },
      serve: () => undefined,
      refill: async () => undefined,
      stop: stopServer,
    };
  });
  afterAll(() => stopServer());

  const send = (path: string) => runCase(target, { path, body: { json: {} }, auth: 'valid', contentType: 'application/json' });

  it('passes a documented error that charges nothing', async () => {
    expect(await send('/v2/fine')).toEqual({ status: 400, problems: [] });
  });

  it('reports an undocumented status', async () => {
    expect((await send('/v2/teapot')).problems).toEqual(['undocumented status 418']);
  });

  it('reports a charge on an error', async () => {
    expect((await send('/v2/charges-on-error')).problems).toEqual(['charged 5 credits on an error (status 400)']);
  });

  it('reports a request left without an answer as a crash', async () => {
    const outcome = await send('/v2/crash');
    expect(outcome.status).toBeUndefined();
    expect(outcome.problems[0]).toMatch(/^crash: no answer/);
  });
});

describe('fixed-seed fuzzing of every endpoint', () => {
  let target: FuzzTarget;
  const arbitraries = endpointArbitraries(fc, loadSeeds({ hostile: false }), { plagiarism: PLAGIARISM_LANGUAGES, factCheck: FACT_CHECK_LANGUAGES });

  beforeAll(async () => {
    target = await startTarget(
      { Engine, MemoryLedger, createApiServer, listen },
      { services: { imageClassifier: new FixedAiImageClassifierDouble(0.2) } },
    );
  });
  afterAll(() => target.stop());

  const RUNS: Record<string, number> = {
    'text-compare': 120,
    'ai-content-detection': 100,
    plagiarism: 100,
    'plagiarism-v1': 60,
    'fact-checker': 80,
    'image-detection': 80,
    'image-detection-v1': 30,
    'advanced-image-detection': 60,
    'tool-server': 120,
  };

  for (const [name, numRuns] of Object.entries(RUNS)) {
    it(`answers ${numRuns} generated ${name} requests as documented, charging nothing on an error`, async () => {
      const arbitrary = withCaller(fc, arbitraries[name]!);
      await fc.assert(
        fc.asyncProperty(arbitrary, async (c) => {
          const outcome = await runCase(target, c);
          expect(outcome.problems).toEqual([]);
        }),
        { numRuns, seed: 18 },
      );
      expect(target.logged).toEqual([]);
    });
  }
});
