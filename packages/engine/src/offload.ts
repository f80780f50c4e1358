import type { HandedInputs } from './inputs/readInputs.js';

/**
 * Somewhere else to run the analysis of some features (a job queue and its worker processes). The engine still
 * authenticates, validates, reads the remote inputs, prices and reserves the cost on the calling node, hands the
 * request body and the inputs it read to the offload, and settles the charge once the result has come back (or
 * releases it): the charge happens in one place, however often the offload retried the analysis.
 */
export interface AnalysisOffload {
  /** Whether the analysis of `featureId` runs through this offload. */
  accepts(featureId: string): boolean;
  /**
   * The analysis of one validated request, as {@link Engine.analyse} returns it on the node that ran it. Rejects with
   * an `ApiError` (SERVICE_UNAVAILABLE when nothing answered in time, or the error the analysis itself raised).
   */
  analyse(featureId: string, body: unknown, options: OffloadOptions): Promise<Record<string, unknown>>;
}

export interface OffloadOptions {
  /** The request id of the call, for logs. */
  requestId?: string | undefined;
  signal?: AbortSignal | undefined;
  /**
   * The remote inputs the calling node read and priced (the text of a `website` or `file`); the analysis reads these
   * and fetches none of them again (see {@link Engine.analyse}).
   */
  inputs?: HandedInputs | undefined;
}
