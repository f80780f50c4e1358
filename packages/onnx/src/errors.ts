/** No ONNX runtime could be loaded in this thread: the reasons of each one tried are in the message. */
export class OnnxRuntimeUnavailableError extends Error {
  readonly code = 'ERR_ONNX_RUNTIME_UNAVAILABLE';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OnnxRuntimeUnavailableError';
  }
}
