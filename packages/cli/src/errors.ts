/** Thrown for a wrong command line; the CLI prints its message and the command's usage, and exits 2. */
export class UsageError extends Error {
  readonly code = 'CLI_USAGE';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure the CLI explains in one line (an input that is a directory, a busy port) and exits 1 on. */
export class CliError extends Error {
  readonly code = 'CLI_ERROR';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CliError';
  }
}
