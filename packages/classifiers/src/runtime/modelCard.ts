/** One row of a model's length calibration. */
export interface CalibrationBucket {
  /** Texts of at least this many canonical characters (and fewer than the next bucket's) use this row. */
  min_chars: number;
  /** Number of held-apart human texts the row was estimated on. */
  n_human: number;
  /** Raw model output at the shipped decision threshold (human score 50). */
  threshold: number;
  /** Standard deviation of the raw output of human text in this bucket. */
  scale: number;
}

/** The model card written next to every model file (`card.json`), as far as the runtime reads it. */
export interface ModelCard {
  id: string;
  version: string;
  date: string;
  task: string;
  /** ONNX file name inside the model folder. */
  file: string;
  input: string;
  output: string;
  feature_names: string[];
  features_used: string[];
  data: Record<string, unknown>;
  metrics: Record<string, unknown>;
  calibration?: { human_quantile: number; buckets: CalibrationBucket[]; score: string };
  /**
   * Resource files of the AI-text features by role (human_lm, machine_lm, human_dictionary, machine_dictionary), as
   * paths relative to the model folder, and optionally their SHA-256 (hex), checked when they are read.
   */
  resources?: Record<string, string>;
  resource_sha256?: Record<string, string>;
  /** A fixed input and the output the committed model gives for it. */
  fixed_input?: { text: string; ai_logit: number };
}
