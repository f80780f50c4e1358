import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '@content-analysis/engine';
import type { ByteRate } from './byteRate.js';

/** Bytes of an over-long body the server still reads (and discards) so the client can read its 400. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

function mib(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 100) / 100} MiB`;
}

function tooLarge(limit: number): ApiError {
  return new ApiError('BAD_REQUEST', `The request body exceeds the limit of ${mib(limit)} for this endpoint.`);
}

/**
 * How long the server waits for a request body: a client that declares a length and then stalls, or trickles its
 * bytes, is cut off instead of holding its connection (slowloris).
 */
export interface BodyDeadlines {
  /** Longest wait for the next bytes of the body, in milliseconds. */
  idleMs: number;
  /** Longest time to receive the whole body, in milliseconds. */
  totalMs: number;
}

/** The body did not arrive in time; the connection is closed after the answer (see {@link closeAfterAnswer}). */
export class BodyTimeoutError extends ApiError {
  constructor(description: string) {
    super('BAD_REQUEST', description);
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * Calls `onExpiry` with the reason when the body stalls for `idleMs` or takes longer than `totalMs`; `progress()`
 * marks new bytes, `stop()` ends the watch.
 */
function watchDeadlines(deadlines: BodyDeadlines, onExpiry: (reason: string) => void): { progress(): void; stop(): void } {
  const expire = (reason: string) => {
    stop();
    onExpiry(reason);
  };
  let progressed = false;
  let stopped = false;
  let armedAt = performance.now();
  const total = setTimeout(() => expire(`the body took longer than ${seconds(deadlines.totalMs)}`), deadlines.totalMs);
  // The idle deadline judges the client, not this process: a timer that fires late by a quarter of its period
  // means this event loop was blocked (the bytes may be waiting unread), so the client gets another period. And
  // timers run before the poll phase reads sockets, so the verdict waits for the check phase, after it.
  const idle = setTimeout(() => {
    const late = performance.now() - armedAt - deadlines.idleMs > deadlines.idleMs / 4;
    progressed = false;
    setImmediate(() => {
      if (stopped) return;
      if (progressed || late) rearm();
      else expire(`no bytes of the body arrived for ${seconds(deadlines.idleMs)}`);
    });
  }, deadlines.idleMs);
  const rearm = () => {
    armedAt = performance.now();
    idle.refresh();
  };
  const stop = () => {
    stopped = true;
    clearTimeout(total);
    clearTimeout(idle);
  };
  return {
    progress() {
      progressed = true;
      rearm();
    },
    stop,
  };
}

/**
 * Discards the rest of a rejected body, up to a bound in bytes and the deadlines, so that the client finishes
 * sending and then reads the answer; past a bound the connection is cut. Resolves when the body has ended or the
 * connection closed: an answer sent before that races the client's upload (the server closes a connection whose
 * request it did not read to the end, and the client still writing sees a reset instead of the 400).
 */
export function drain(req: IncomingMessage, deadlines: BodyDeadlines, rate?: ByteRate): Promise<void> {
  return new Promise((resolve) => {
    if (req.readableEnded || req.destroyed) {
      resolve();
      return;
    }
    const watch = watchDeadlines(deadlines, () => req.destroy());
    let seen = 0;
    let draining = true;
    req.on('data', (chunk: Buffer) => {
      watch.progress();
      seen += chunk.length;
      if (seen > DRAIN_LIMIT) req.destroy();
      else rate?.meter(req, chunk.length, () => draining);
    });
    const done = () => {
      draining = false;
      watch.stop();
      resolve();
    };
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}

/** What {@link readBody} does besides reading. */
export interface ReadBodyOptions {
  /**
   * Looks at each chunk as it arrives and returns why the body is refused (a description), or undefined: the body
   * is then refused at once (BAD_REQUEST with that description, once the rest is drained) instead of being read on.
   */
  inspect?: (chunk: Buffer) => string | undefined;
  /** The budget the bytes of this body count against (a caller not authenticated): over it, reading pauses. */
  meter?: ByteRate;
  /** The budget the discarded rest of a refused body counts against (see {@link drain}). */
  discard?: ByteRate;
}

/**
 * Reads a request body of at most `limit` bytes within `deadlines`. Throws BAD_REQUEST past the limit or when
 * `options.inspect` refuses a chunk, after draining the rest (see `drain`), and {@link BodyTimeoutError} when the
 * body stalls or takes too long. Reads by events, not by async iteration: leaving an async iterator early destroys
 * the stream.
 */
export async function readBody(req: IncomingMessage, limit: number, deadlines: BodyDeadlines, options: ReadBodyOptions = {}): Promise<Buffer> {
  const { inspect, meter, discard } = options;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    await drain(req, deadlines, discard);
    throw tooLarge(limit);
  }
  const read = await new Promise<Buffer | ApiError>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let reading = true;
    const watch = watchDeadlines(deadlines, (reason) => {
      detach();
      chunks.length = 0;
      req.pause();
      reject(new BodyTimeoutError(`The request body was not received in time: ${reason}.`));
    });
    const refuse = (error: ApiError): void => {
      watch.stop();
      detach();
      chunks.length = 0;
      void drain(req, deadlines, discard).then(() => resolve(error));
    };
    const onData = (chunk: Buffer): void => {
      watch.progress();
      size += chunk.length;
      if (size > limit) {
        refuse(tooLarge(limit));
        return;
      }
      const problem = inspect?.(chunk);
      if (problem !== undefined) {
        refuse(new ApiError('BAD_REQUEST', problem));
        return;
      }
      chunks.push(chunk);
      meter?.meter(req, chunk.length, () => reading);
    };
    const onEnd = (): void => {
      watch.stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      watch.stop();
      reject(error);
    };
    const onClose = (): void => {
      watch.stop();
      if (!req.readableEnded) reject(new ApiError('BAD_REQUEST', 'The request body ended before it was complete.'));
    };
    const detach = (): void => {
      reading = false;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.once('close', onClose);
  });
  if (read instanceof ApiError) throw read;
  return read;
}

/**
 * Closes the connection of a request whose body was not read to the end once its answer is out (at once if the
 * client has not closed it a second later): a client that stalled its upload gets its error, then loses the
 * connection instead of holding it.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  if (!res.headersSent) res.setHeader('connection', 'close');
  const socket = req.socket;
  const cut = setTimeout(() => socket.destroy(), 1000);
  cut.unref();
  // Ending (not destroying) lets the answer reach a client that reads it; the connection goes a second later anyway.
  res.once('finish', () => socket.end());
}

/** Parses a JSON body; a malformed one is BAD_REQUEST saying where it broke. */
export function parseJson(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  if (text.trim().length === 0) throw new ApiError('BAD_REQUEST', 'The request body is empty; a JSON object is expected.');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError('BAD_REQUEST', `Malformed JSON body: ${(error as Error).message}`);
  }
}

/** Whether a Content-Type header names JSON (`application/json`, any parameters, any case). */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const type = header.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json';
}
