import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { ApiError, openApiDocument } from '@content-analysis/engine';
import type { Engine } from '@content-analysis/engine';
import { bearerToken, clientKey } from './auth.js';
import { isJsonContentType, parseJson, readBody } from './body.js';
import { ServerConfigError } from './errors.js';
import { MemoryRateLimiter, isRateLimiter } from './rateLimiter.js';
import type { RateLimiter, RateLimitOptions } from './rateLimiter.js';
import { requestIdOf } from './requestId.js';
import { defaultLog, deliverJson, sendError, sendJson } from './respond.js';
import { handleToolServer } from './toolServer.js';

export const TOOL_SERVER_PATH = '/mcp/v1';

export interface ApiServerOptions {
  /** The engine to serve; it must have a ledger. */
  engine: Engine;
  /**
   * Per-client rate limit: the options of an in-process limiter, a limiter (a `RedisRateLimiter` shared by several
   * nodes), or `false` for none.
   * @default { burst: 60, perSecond: 10 }
   */
  rateLimit?: RateLimitOptions | RateLimiter | false;
  /**
   * Largest request body of a feature that does not set its own.
   * @default 2 MiB
   */
  maxBodyBytes?: number;
  /**
   * Largest request body of the tool server.
   * @default 8 MiB
   */
  maxToolBodyBytes?: number;
  /**
   * Whether the tool server is mounted at /mcp/v1.
   * @default true
   */
  toolServer?: boolean;
  /**
   * Version reported by the tool server and the OpenAPI document.
   * @default '0.1.0'
   */
  version?: string;
  /**
   * Requests analysed at once; past it a request is refused with SERVICE_UNAVAILABLE (and Retry-After) rather
   * than queued without bound.
   * @default 256
   */
  maxConcurrent?: number;
  /** Where unexpected failures are reported; the message names the request's `x-request-id`. @default standard error */
  log?: (message: string, error: unknown) => void;
}


/**
 * The HTTP API: every mounted feature's POST paths, `/openapi.json`, `/health` and the tool server. A path no
 * mounted feature serves answers 404.
 */
export function createApiServer(options: ApiServerOptions): Server {
  const { engine } = options;
  if (!engine.ledger) throw new ServerConfigError('The engine of an API server needs a ledger (accounts, tokens and credits)');
  const limiter = options.rateLimit === false ? undefined
    : isRateLimiter(options.rateLimit) ? options.rateLimit
    : new MemoryRateLimiter(options.rateLimit ?? {});
  const maxBodyBytes = options.maxBodyBytes ?? 2 * 1024 * 1024;
  const version = options.version ?? '0.1.0';
  const serverLog = options.log ?? defaultLog;
  const maxConcurrent = options.maxConcurrent ?? 256;
  if (!Number.isSafeInteger(maxConcurrent) || maxConcurrent < 1) {
    throw new ServerConfigError(`Expected positive integer for maxConcurrent but received ${String(maxConcurrent)} of type ${typeof maxConcurrent}`);
  }
  let inFlight = 0;
  let openApi: Record<string, unknown> | undefined;

  async function handle(req: IncomingMessage, res: ServerResponse, log: typeof serverLog, requestId: string): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === TOOL_SERVER_PATH && options.toolServer !== false) {
      await handleToolServer(req, res, { engine, limiter, maxBodyBytes: options.maxToolBodyBytes ?? 8 * 1024 * 1024, version, log });
      return;
    }
    if (req.method === 'GET' && path === '/openapi.json') {
      const host = req.headers.host ?? 'localhost';
      openApi ??= openApiDocument(engine.features, { serverUrl: `http://${host}`, version, toolServer: options.toolServer !== false });
      sendJson(res, 200, openApi);
      return;
    }
    // HEAD is GET without the body (node's response drops it): load balancers probe with either.
    if ((req.method === 'GET' || req.method === 'HEAD') && path === '/health') {
      sendJson(res, 200, { status: 'ok', features: engine.features.list().map((f) => f.id) });
      return;
    }
    const feature = engine.features.byRoute(path);
    if (!feature) {
      req.resume();
      sendJson(res, 404, { status: 404, error: 'NOT_FOUND', description: `No endpoint at ${path}` });
      return;
    }
    const style = feature.errorStyle;
    if (req.method !== 'POST') {
      req.resume();
      sendJson(res, 405, { status: 405, error: 'METHOD_NOT_ALLOWED', description: `${path} accepts POST only` }, { allow: 'POST' });
      return;
    }
    try {
      const token = bearerToken(req);
      const decision = await limiter?.take(clientKey(req, token));
      if (decision && !decision.allowed) {
        req.resume();
        throw new ApiError('TOO_MANY_REQUESTS', undefined, { retryAfter: decision.retryAfterSeconds });
      }
      if (!isJsonContentType(req.headers['content-type'])) {
        req.resume();
        throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `The request content type must be application/json, not ${req.headers['content-type'] ?? 'missing'}.`);
      }
      const accountId = await engine.authenticate(token).catch((error: unknown) => {
        req.resume();
        throw error;
      });
      const body = parseJson(await readBody(req, feature.maxBodyBytes ?? maxBodyBytes));
      const abort = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      // The answer is written before the charge is final, so that no request is charged without it.
      await engine.execute(feature.id, body, { accountId, requestId, signal: abort.signal, deliver: (outcome) => deliverJson(res, outcome.result) });
    } catch (error) {
      sendError(res, error, style, log);
    }
  }

  const server = createServer((req, res) => {
    // Set before anything is written, so every answer carries it: errors, 404s, /health and the tool server's.
    const requestId = requestIdOf(req);
    res.setHeader('x-request-id', requestId);
    const log = (message: string, error: unknown) => serverLog(`${message} (x-request-id ${requestId})`, error);
    if (inFlight >= maxConcurrent) {
      req.resume();
      sendError(res, new ApiError('SERVICE_UNAVAILABLE', 'The service is at capacity; retry shortly.', { retryAfter: 1 }), 'v2', log);
      return;
    }
    inFlight++;
    res.once('close', () => inFlight--);
    handle(req, res, log, requestId).catch((error: unknown) => sendError(res, error, 'v2', log));
  });
  server.requestTimeout = 120_000;
  server.headersTimeout = 30_000;
  return server;
}

/** Listens on `port` (0 for any free one) and resolves with the bound address. */
export async function listen(server: Server, port: number, host = '127.0.0.1'): Promise<{ host: string; port: number; url: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new ServerConfigError('The server has no TCP address');
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { host: address.address, port: address.port, url: `http://${shownHost}:${address.port}` };
}

/** Stops accepting connections and closes idle ones; resolves when the server is closed. */
export async function close(server: Server): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
  });
}
