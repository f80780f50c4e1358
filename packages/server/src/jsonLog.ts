/**
 * Structured logs: one JSON object per line, so that a log shipper parses every field without patterns. Every line
 * has `time` (ISO 8601), `level` (`info`, `warn`, `error`) and `event`; the other fields depend on the event and are
 * listed in the server's README (operator section). No line carries a request body, a token or a result.
 */
export type LogLevel = 'info' | 'warn' | 'error';

/** Writes one structured line. */
export type JsonLog = (level: LogLevel, event: string, fields?: Record<string, unknown>) => void;

/** A `JsonLog` writing to `write` (default: standard error). */
export function jsonLog(write: (line: string) => void = (line) => process.stderr.write(line)): JsonLog {
  return (level, event, fields = {}) => {
    write(`${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`);
  };
}

/** The message and stack of an error, as log fields. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { error: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { error: String(error) };
}
