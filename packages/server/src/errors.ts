/** Errors of the server package itself (not API errors, which come from the engine). */
export class ServerConfigError extends Error {
  readonly code = 'SERVER_CONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'ServerConfigError';
  }
}
