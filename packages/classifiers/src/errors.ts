/** Bad input from the caller: the field it is about is named in `field` (as in the HTTP request). */
export class InvalidInputError extends TypeError {
  readonly code = 'BAD_REQUEST';
  override readonly name = 'InvalidInputError';
  /** Request field or option the error is about (`text`, `language`, `sentences`, `threads`, ...). */
  readonly field: string;

  constructor(field: string, expected: string, received: unknown, options?: { cause?: unknown }) {
    super(`Expected ${expected} for ${field} but received ${describe(received)}`, options);
    this.field = field;
  }
}

/**
 * The language the caller sent, or the one detected in the text (language `auto` or absent), has no trained
 * detector. The message says which of the two it was and names the language (`German (de)`).
 */
export class UnsupportedLanguageError extends RangeError {
  readonly code = 'UNSUPPORTED_LANGUAGE';
  override readonly name = 'UnsupportedLanguageError';
  readonly field = 'language';
  /** The 2-letter code sent or detected. */
  readonly language: string;
  /** `detected`: found in the text because the caller sent `auto` or nothing; `requested`: sent by the caller. */
  readonly origin: 'detected' | 'requested';

  constructor(language: string, supported: readonly string[], origin: 'detected' | 'requested' = 'requested') {
    super(
      origin === 'detected'
        ? `The text was detected to be in ${languageName(language)}, which is not supported ` +
            `(supported: ${supported.map(languageName).join(', ')})`
        : `The request sent language ${languageName(language)}, which is not supported ` +
            `(supported: ${supported.map(languageName).join(', ')}, or auto)`,
    );
    this.language = language;
    this.origin = origin;
  }
}

/**
 * The caller declared one language and the text is confidently in another (`found`): scoring it as the declared
 * language would give a meaningless score. Through the API: 400 BAD_REQUEST with this message, nothing charged.
 */
export class LanguageMismatchError extends RangeError {
  readonly code = 'LANGUAGE_MISMATCH';
  override readonly name = 'LanguageMismatchError';
  readonly field = 'language';
  /** The 2-letter code the caller sent, and the one found in the text. */
  readonly declared: string;
  readonly found: string;

  constructor(declared: string, found: string, supported: readonly string[]) {
    super(
      `The request sent language ${languageName(declared)}, but the text is in ${languageName(found)}` +
        `${supported.includes(found) ? '' : ', which is not supported'} (supported: ${supported.map(languageName).join(', ')}, or auto)`,
    );
    this.declared = declared;
    this.found = found;
  }
}

/**
 * The text has no identifiable language (only digits, symbols, emoji, control characters or undecodable bytes), so
 * it cannot be scored as prose in a supported language. A fault of `text` (BAD_REQUEST), not of `language`: the
 * caller sent no unsupported language, and none was found.
 */
export class UnidentifiedLanguageError extends TypeError {
  readonly code = 'BAD_REQUEST';
  override readonly name = 'UnidentifiedLanguageError';
  readonly field = 'text';

  constructor(supported: readonly string[]) {
    super(
      'No language could be identified in the text (no recognisable words: only digits, symbols, emoji, control ' +
        `characters or undecodable bytes) (supported: ${supported.map(languageName).join(', ')})`,
    );
  }
}

/** No model with this id (and version) is registered. */
export class UnknownModelError extends RangeError {
  readonly code = 'UNKNOWN_MODEL';
  override readonly name = 'UnknownModelError';
  readonly modelId: string;

  constructor(modelId: string, version: string | undefined, known: readonly string[]) {
    super(`Unknown model ${modelId}${version === undefined ? '' : `@${version}`}; registered: ${known.join(', ') || 'none'}`);
    this.modelId = modelId;
  }
}

/**
 * A request names a model version this package does not ship and whose package is not installed: the versions that
 * are neither a default nor `latest` live in `@content-analysis/models-extra`. A fault of the request's `version`
 * for this deployment (the engine answers BAD_REQUEST with this message); never answered with another model.
 */
export class ModelNotInstalledError extends RangeError {
  readonly code = 'MODEL_NOT_INSTALLED';
  override readonly name = 'ModelNotInstalledError';
  readonly field = 'version';
  readonly modelId: string;
  readonly version: string;
  /** The npm package that holds the model. */
  readonly packageName: string;

  constructor(modelId: string, version: string, packageName: string) {
    super(`${modelId} version ${version} is in ${packageName}, which is not installed: npm install ${packageName}`);
    this.modelId = modelId;
    this.version = version;
    this.packageName = packageName;
  }
}

/** A model file or one of its resources is missing, corrupt, or does not match its model card. */
export class ModelLoadError extends Error {
  readonly code = 'MODEL_LOAD_FAILED';
  override readonly name = 'ModelLoadError';
  readonly path: string;

  constructor(path: string, reason: string, options?: { cause?: unknown }) {
    super(`Could not load model file ${path}: ${reason}`, options);
    this.path = path;
  }
}

/**
 * A calibration profile that cannot be applied: not JSON, not a profile, or a field out of range. A fault of the
 * deployment's configuration, not of a request; the message names the file and the first problem.
 */
export class InvalidCalibrationProfileError extends Error {
  readonly code = 'BAD_CALIBRATION_PROFILE';
  override readonly name = 'InvalidCalibrationProfileError';

  constructor(origin: string, problem: string, options?: { cause?: unknown }) {
    super(`Invalid calibration profile ${origin}: ${problem}`, options);
  }
}

/**
 * A calibration profile applied to a detector it was not made with (another model, version or model files): its
 * thresholds are on another model's scale. Through the API a request that asks for another `version` than the
 * deployment's profile is a fault of `version` (BAD_REQUEST).
 */
export class CalibrationMismatchError extends TypeError {
  readonly code = 'BAD_REQUEST';
  override readonly name = 'CalibrationMismatchError';
  readonly field = 'version';

  constructor(
    made: { model: string; version: string; fingerprint?: string },
    used: { model: string; version: string; fingerprint?: string },
  ) {
    const name = (d: { model: string; version: string }) => `${d.model} ${d.version}`;
    super(
      made.model === used.model && made.version === used.version
        ? `The calibration profile was made with other model files of ${name(made)} (fingerprint ${made.fingerprint}, these are ${used.fingerprint}); calibrate again`
        : `The calibration profile in use was made for ${name(made)}; it cannot calibrate ${name(used)} (omit version, or ask for ${made.version})`,
    );
  }
}

/** Too few human texts to promise the target false-positive rate in any length bucket. */
export class InsufficientHumanTextError extends RangeError {
  readonly code = 'INSUFFICIENT_HUMAN_TEXT';
  override readonly name = 'InsufficientHumanTextError';
  /** Texts that could be used, and the fewest a bucket needs. */
  readonly used: number;
  readonly needed: number;

  constructor(used: number, needed: number, targetFpr: number, confidence: number) {
    super(
      `${used} usable human texts cannot promise a false-positive rate of ${targetFpr} at ${confidence} confidence: ` +
        `a length bucket needs at least ${needed} (raise --target-fpr, lower --confidence, or add texts)`,
    );
    this.used = used;
    this.needed = needed;
  }
}

/**
 * A model folder a deployment plugged in (`--model NAME=DIR`) was refused when it was loaded: a file is missing, the
 * ONNX graph's inputs or outputs are not a classifier's, a label is missing, the file is not ONNX or is larger than
 * the deployment allows. The message names the model, its folder and the reason.
 */
export class CustomModelError extends Error {
  readonly code = 'CUSTOM_MODEL_REFUSED';
  override readonly name = 'CustomModelError';
  /** The name the deployment gave the model (`custom:<name>` in requests). */
  readonly modelName: string;
  readonly folder: string;
  readonly reason: string;

  constructor(modelName: string, folder: string, reason: string, options?: { cause?: unknown }) {
    super(`Custom model "${modelName}" (${folder}) refused: ${reason}`, options);
    this.modelName = modelName;
    this.folder = folder;
    this.reason = reason;
  }
}

/** A request's `version` names a plugged model (`custom:<name>`) this deployment does not serve for the task. */
export class UnknownCustomModelError extends RangeError {
  readonly code = 'BAD_REQUEST';
  override readonly name = 'UnknownCustomModelError';
  readonly field = 'version';

  constructor(version: string, task: string, served: readonly string[], otherTask?: string) {
    super(
      `version "${version}" names no ${task} model of this deployment ` +
        `(${otherTask ? `it is an ${otherTask} model; ` : ''}` +
        `${served.length ? `plugged ${task} models: ${served.join(', ')}` : `it serves no plugged ${task} model`})`,
    );
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) {
    return `${value.byteLength} bytes starting ${Buffer.from(value.subarray(0, 8)).toString('hex') || '(empty)'}`;
  }
  return `${String(value)} of type ${value === null ? 'null' : typeof value}`;
}

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** `German (de)`, or the bare code when it names no language (`xx`). */
export function languageName(code: string): string {
  let name: string | undefined;
  try {
    name = LANGUAGE_NAMES.of(code);
  } catch {
    name = undefined;
  }
  return name === undefined || name === code ? code : `${name} (${code})`;
}
