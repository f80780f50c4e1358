// Preloaded (`node --require`) by onnxRuntime.test.ts: makes `onnxruntime-node` unresolvable, as in an install where
// the team did not add it (an optional peer of @content-analysis/onnx).
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'onnxruntime-node') {
    const error = new Error(`Cannot find module '${request}'`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolve.call(this, request, ...rest);
};
