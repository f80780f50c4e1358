/**
 * What public signatures name of an onnxruntime session, declared here because onnxruntime-common's own
 * declarations need the DOM library, which a Node project's strict build does not have.
 */
export interface OnnxSessionRunner {
  run(feeds: Record<string, unknown>): Promise<Record<string, { readonly data: unknown; readonly dims: readonly number[] }>>;
}
