import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { FetchError } from './errors.js';
import type { DialTarget, ResolvedAddress } from './options.js';
import { bareHostname } from './validatePublicUrl.js';

/** What one hop needs besides the URL and its checked addresses. */
export interface HopContext {
  headers: Record<string, string>;
  connectTimeoutMs: number;
  dial: ((address: string, port: number) => DialTarget) | undefined;
  signal: AbortSignal;
}

const ACCEPT_ENCODING = 'gzip, deflate, br';

// A failure before the connection was up; the next address may still work.
class ConnectFailure {
  constructor(readonly error: FetchError) {}
}

/**
 * Sends a GET for `url` to the first of the checked addresses that accepts a connection and
 * resolves with the response head. The socket goes to that exact address (never to a fresh DNS
 * answer) while the Host header and the TLS server name stay the URL's host name, so certificate
 * validation still checks the name.
 *
 * @throws {FetchError} `NETWORK` or `TIMEOUT`; the signal's reason when it aborts.
 */
export async function openResponse(
  url: URL,
  addresses: readonly ResolvedAddress[],
  context: HopContext,
): Promise<IncomingMessage> {
  let lastFailure: FetchError | undefined;
  for (const { address } of addresses) {
    try {
      return await requestFromAddress(url, address, context);
    } catch (error) {
      if (!(error instanceof ConnectFailure)) throw error;
      lastFailure = error.error;
    }
  }
  throw lastFailure ?? new FetchError('NETWORK', `No address to connect to for ${url.host}`, { url: url.href });
}

function requestFromAddress(url: URL, address: string, context: HopContext): Promise<IncomingMessage> {
  const secure = url.protocol === 'https:';
  const port = url.port === '' ? (secure ? 443 : 80) : Number(url.port);
  const target = context.dial === undefined ? { host: address, port } : context.dial(address, port);
  if (isIP(target.host) === 0) {
    throw new TypeError(`Expected an IP address from dial but received ${JSON.stringify(target.host)}`);
  }
  const hostname = bareHostname(url);
  const options: https.RequestOptions = {
    host: target.host,
    port: target.port,
    method: 'GET',
    path: `${url.pathname}${url.search}`,
    headers: { ...context.headers, host: url.host, connection: 'close', 'accept-encoding': ACCEPT_ENCODING },
    agent: false,
  };
  if (secure) {
    options.rejectUnauthorized = true;
    // SNI and certificate checks use the URL's name, not the address the socket goes to.
    if (isIP(hostname) === 0) options.servername = hostname;
  }
  const { signal } = context;
  if (signal.aborted) return Promise.reject(signal.reason);

  return new Promise<IncomingMessage>((resolve, reject) => {
    let connected = false;
    const request = (secure ? https : http).request(options);
    const connectTimer = setTimeout(() => {
      const message = `Could not connect to ${url.host} within ${context.connectTimeoutMs} ms`;
      request.destroy(new FetchError('TIMEOUT', message, { url: url.href }));
    }, context.connectTimeoutMs);
    const onAbort = (): void => {
      request.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const cleanUp = (): void => {
      clearTimeout(connectTimer);
      signal.removeEventListener('abort', onAbort);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    request.once('socket', (socket) => {
      socket.once(secure ? 'secureConnect' : 'connect', () => {
        connected = true;
        clearTimeout(connectTimer);
      });
    });
    request.once('response', (response) => {
      cleanUp();
      resolve(response);
    });
    request.once('error', (error) => {
      cleanUp();
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const failure = error instanceof FetchError ? error : networkError(url, error);
      reject(connected ? failure : new ConnectFailure(failure));
    });
    request.end();
  });
}

function networkError(url: URL, error: Error): FetchError {
  const code = (error as { code?: unknown }).code;
  const reason = typeof code === 'string' ? code : error.message;
  return new FetchError('NETWORK', `Request to ${url.host} failed (${reason})`, { url: url.href, cause: error });
}
