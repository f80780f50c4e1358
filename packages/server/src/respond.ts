import type { ServerResponse } from 'node:http';
import { ApiError, toAdvancedErrorBody, toApiError } from '@content-analysis/engine';
import type { ErrorBody } from '@content-analysis/engine';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(payload)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(payload);
}

/**
 * Sends a 200 JSON answer and resolves once all of it has been handed to the operating system: at once for an answer
 * that fits the socket's buffer (the usual case), else on 'finish'. Rejects when the connection had closed already,
 * or closes before that. `Engine.execute`'s `deliver`: a charge whose answer this did not hand over is refunded.
 */
export function deliverJson(res: ServerResponse, body: unknown): Promise<void> {
  return deliver(res, () => sendJson(res, 200, body));
}

/**
 * The policy of an HTML answer (a feature's self-contained report): images from data: URIs and the inline style
 * sheet only; no script, no request, no framing.
 */
export const HTML_ANSWER_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** {@link deliverJson} for a feature's HTML page (`text/html`, under {@link HTML_ANSWER_POLICY}). */
export function deliverHtml(res: ServerResponse, html: string): Promise<void> {
  return deliver(res, () => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(html)),
      'cache-control': 'no-store',
      'content-security-policy': HTML_ANSWER_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    res.end(html);
  });
}

function deliver(res: ServerResponse, send: () => void): Promise<void> {
  const gone = () => new ApiError('SERVICE_UNAVAILABLE', 'The connection closed before the result was delivered; nothing was charged.');
  if (res.destroyed) return Promise.reject(gone());
  send();
  if (res.writableFinished) return Promise.resolve();
  return new Promise((resolve, reject) => {
    res.once('finish', resolve);
    res.once('close', () => reject(gone()));
  });
}

/**
 * Sends an error body `{status, error, description}`, in the advanced image detection style where that
 * endpoint asks for it. Unexpected failures are logged and answered INTERNAL_SERVER_ERROR without details.
 */
export function sendError(
  res: ServerResponse,
  error: unknown,
  style: 'v2' | 'advanced' = 'v2',
  log: (message: string, error: unknown) => void = defaultLog,
): void {
  const apiError = toApiError(error);
  if (apiError.code === 'INTERNAL_SERVER_ERROR' && apiError.cause !== undefined) log('request failed', apiError.cause);
  const body: ErrorBody = style === 'advanced' ? toAdvancedErrorBody(apiError) : apiError.toBody();
  const headers: Record<string, string> = {};
  if (apiError.retryAfter !== undefined) headers['retry-after'] = String(apiError.retryAfter);
  sendJson(res, body.status, body, headers);
}

export function defaultLog(message: string, error: unknown): void {
  process.stderr.write(`content-analysis: ${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
}
