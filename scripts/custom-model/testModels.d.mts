export declare const TEST_VOCABULARY: string[];
export declare const TEST_LABELS: string[];
export declare function seededWeights(count: number, seed: number): Float32Array;
export declare function wordPieceTokenizer(vocabulary?: string[]): Record<string, any>;
export interface TextWeights { embedding: Float32Array; bias: Float32Array; labels: number }
export interface ImageWeights { w: Float32Array; bias: Float32Array; labels: number }
export interface TextOnnxOptions { vocabulary?: number; labels?: number; seed?: number; inputs?: string[]; fixedLength?: number }
export interface ImageOnnxOptions { labels?: number; seed?: number; height?: number | string; width?: number | string }
export declare function textClassifierOnnx(options?: TextOnnxOptions): { bytes: Uint8Array; weights: TextWeights };
export declare function imageClassifierOnnx(options?: ImageOnnxOptions): { bytes: Uint8Array; weights: ImageWeights };
export declare function writeTextModel(dir: string, options?: {
  declaration?: Record<string, unknown>; tokenizer?: Record<string, any>; onnx?: TextOnnxOptions; labels?: string[]; maxTokens?: number;
}): TextWeights;
export declare function writeImageModel(dir: string, options?: {
  declaration?: Record<string, unknown>; preprocessor?: Record<string, unknown>; onnx?: ImageOnnxOptions; labels?: string[];
}): ImageWeights;
