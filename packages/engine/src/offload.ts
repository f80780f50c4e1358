/**
 * Somewhere else to run the analysis of some features (a job queue and its worker processes). The engine still
 * authenticates, validates, prices and checks the balance on the calling node, hands the request body to the
 * offload, and charges once the result has come back: the charge happens in one place, after the result exists,
 * however often the offload retried the analysis.
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
}
