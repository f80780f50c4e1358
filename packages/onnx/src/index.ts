export { OnnxRuntimeUnavailableError } from './errors.js';
export { loadOnnxRuntime, onnxRuntime, onnxRuntimeChoice, onnxRuntimeName, ONNX_RUNTIME_VARIABLE } from './onnxRuntime.js';
export type { OnnxRuntimeChoice, OnnxRuntimeName } from './onnxRuntime.js';
