/** Errors of the server package itself (not API errors, which come from the engine). */
export class ServerConfigError extends Error {
  readonly code = 'SERVER_CONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'ServerConfigError';
  }
}

/**
 * A JSON-RPC "Invalid params" error of the tool server. Its message is the text alone: the MCP client adds its own
 * `MCP error -32602:` prefix, so a message that carried one would show it twice.
 */
export class ToolParamsError extends Error {
  readonly code = -32602;
  constructor(message: string) {
    super(message);
    this.name = 'ToolParamsError';
  }
}

/** The Redis of a shared rate limiter did not answer when the limiter was opened. */
export class RedisUnavailableError extends Error {
  readonly code = 'REDIS_UNAVAILABLE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RedisUnavailableError';
  }
}
