import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { CustomModelError } from '../errors.js';

/** Tasks a plugged model can serve. */
export const CUSTOM_MODEL_TASKS = ['ai-text', 'ai-image'] as const;
export type CustomModelTask = (typeof CUSTOM_MODEL_TASKS)[number];

/** Name of the file a model folder declares itself in. */
export const DECLARATION_FILE = 'content-analysis.json';

/** Where the ONNX file is looked for when the declaration names none: transformers.js's layout, then Optimum's. */
export const ONNX_CANDIDATES = ['onnx/model.onnx', 'model.onnx'] as const;

/** Largest ONNX model (with its external data) loaded when the deployment sets no bound: 2 GiB. */
export const DEFAULT_MAX_MODEL_BYTES = 2 * 1024 ** 3;

/** What `content-analysis.json` holds. */
export interface ModelDeclaration {
  task: CustomModelTask;
  /** The label of `config.json`'s `id2label` that means AI-generated. */
  aiLabel: string;
  /** ONNX file, relative to the folder. @default the first of ONNX_CANDIDATES that exists */
  file?: string;
  /** Longest token window of a text model, special tokens included. @default from the tokenizer or the graph, else 512 */
  maxTokens?: number;
  /** Languages a text model is meant for (2-letter codes); others are refused as ours are. @default any language */
  languages?: string[];
  /** One line shown in listings. @default none */
  description?: string;
}

/** A model folder read and checked, before any session is created. */
export interface ModelFolder {
  name: string;
  folder: string;
  declaration: ModelDeclaration;
  /** `config.json`'s labels, by class index. */
  labels: string[];
  /** Index of `declaration.aiLabel` in `labels`. */
  aiIndex: number;
  /** `config.json` as read. */
  config: Record<string, unknown>;
  onnxPath: string;
  /** Bytes of the ONNX file and of its external data. */
  onnxBytes: number;
}

const DECLARATION_KEYS = new Set(['task', 'aiLabel', 'file', 'maxTokens', 'languages', 'description']);

/**
 * Reads and checks a plugged model's folder: its declaration, the labels of `config.json` and the ONNX file (that it
 * exists, is within `maxBytes` and is ONNX, not a Git LFS pointer or PyTorch/safetensors weights). Throws
 * {@link CustomModelError} naming the reason. Nothing is read from the network: `folder` must be a local folder.
 */
export function readModelFolder(name: string, folder: string, maxBytes: number = DEFAULT_MAX_MODEL_BYTES): ModelFolder {
  const refuse = (reason: string, cause?: unknown): never => {
    throw new CustomModelError(name, folder, reason, cause === undefined ? undefined : { cause });
  };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(folder)) {
    refuse('models are read from a local folder, never from the network; download the model first (see the classifiers README)');
  }
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch (error) {
    refuse(`no such folder${/^[\w.-]+\/[\w.-]+$/.test(folder) ? ' (a Hugging Face model id is not fetched: export or download it to a folder first)' : ''}`, error);
  }
  if (!isFolder) refuse('not a folder');

  const declaration = checkDeclaration(readJson(folder, DECLARATION_FILE, refuse), refuse);
  const config = readJson(folder, 'config.json', refuse);
  const labels = labelsOf(config, refuse);
  const aiIndex = labels.indexOf(declaration.aiLabel);
  if (aiIndex < 0) {
    refuse(`aiLabel "${declaration.aiLabel}" is not a label of config.json's id2label (${labels.map((l) => JSON.stringify(l)).join(', ')})`);
  }
  const onnxPath = onnxFileOf(folder, declaration, refuse);
  const onnxBytes = onnxSize(onnxPath);
  if (onnxBytes > maxBytes) {
    refuse(`${relative(folder, onnxPath)} is ${formatBytes(onnxBytes)} with its external data, more than the ${formatBytes(maxBytes)} this deployment allows (max model bytes)`);
  }
  const notOnnx = sniffNotOnnx(onnxPath);
  if (notOnnx !== undefined) refuse(`${relative(folder, onnxPath)} is not an ONNX model: ${notOnnx}`);
  return { name, folder, declaration, labels, aiIndex, config, onnxPath, onnxBytes };
}

/** Reads a JSON object of the folder; `optional` files that are absent give `undefined`. */
export function readJson(folder: string, file: string, refuse: (reason: string, cause?: unknown) => never): Record<string, unknown>;
export function readJson(
  folder: string, file: string, refuse: (reason: string, cause?: unknown) => never, optional: true,
): Record<string, unknown> | undefined;
export function readJson(
  folder: string, file: string, refuse: (reason: string, cause?: unknown) => never, optional = false,
): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(join(folder, file), 'utf8');
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return refuse(`missing ${file}`, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return refuse(`${file} is not valid JSON (${(error as Error).message})`, error);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) refuse(`${file} is not a JSON object`);
  return value as Record<string, unknown>;
}

function checkDeclaration(raw: Record<string, unknown>, refuse: (reason: string) => never): ModelDeclaration {
  const unknown = Object.keys(raw).filter((k) => !DECLARATION_KEYS.has(k));
  if (unknown.length > 0) refuse(`${DECLARATION_FILE} has unknown keys ${unknown.join(', ')} (known: ${[...DECLARATION_KEYS].join(', ')})`);
  const { task, aiLabel, file, maxTokens, languages, description } = raw;
  if (!CUSTOM_MODEL_TASKS.includes(task as CustomModelTask)) {
    refuse(`${DECLARATION_FILE}: task must be ${CUSTOM_MODEL_TASKS.map((t) => `"${t}"`).join(' or ')}, not ${JSON.stringify(task)}`);
  }
  if (typeof aiLabel !== 'string' || aiLabel.length === 0) refuse(`${DECLARATION_FILE}: aiLabel must name a label of config.json's id2label`);
  if (file !== undefined && (typeof file !== 'string' || file.length === 0)) refuse(`${DECLARATION_FILE}: file must be a path in the folder`);
  if (maxTokens !== undefined && (!Number.isSafeInteger(maxTokens) || (maxTokens as number) < 8)) {
    refuse(`${DECLARATION_FILE}: maxTokens must be an integer of at least 8, not ${JSON.stringify(maxTokens)}`);
  }
  if (languages !== undefined && (!Array.isArray(languages) || languages.length === 0 || !languages.every((l) => typeof l === 'string' && /^[a-z]{2}$/.test(l)))) {
    refuse(`${DECLARATION_FILE}: languages must be a list of 2-letter lower-case codes`);
  }
  if (description !== undefined && typeof description !== 'string') refuse(`${DECLARATION_FILE}: description must be a string`);
  return raw as unknown as ModelDeclaration;
}

/** The labels of `id2label` by index; the indices must be 0..n-1 (a classifier's output columns). */
function labelsOf(config: Record<string, unknown>, refuse: (reason: string) => never): string[] {
  const id2label = config.id2label;
  if (typeof id2label !== 'object' || id2label === null || Array.isArray(id2label)) refuse('config.json has no id2label (the labels of the output columns)');
  const entries = Object.entries(id2label as Record<string, unknown>);
  if (entries.length === 0) refuse('config.json\'s id2label is empty');
  const labels: string[] = [];
  for (const [key, label] of entries) {
    const index = Number(key);
    if (!Number.isSafeInteger(index) || index < 0 || index >= entries.length || String(index) !== key) {
      refuse(`config.json's id2label keys must be 0..${entries.length - 1}, found ${JSON.stringify(key)}`);
    }
    if (typeof label !== 'string' || label.length === 0) refuse(`config.json's id2label[${key}] is not a label`);
    labels[index] = label as string;
  }
  if (new Set(labels).size !== labels.length) refuse('config.json\'s id2label names a label twice');
  return labels;
}

function onnxFileOf(folder: string, declaration: ModelDeclaration, refuse: (reason: string) => never): string {
  if (declaration.file !== undefined) {
    const path = resolve(folder, declaration.file);
    const inside = relative(resolve(folder), path);
    if (inside.startsWith('..') || isAbsolute(inside)) refuse(`${DECLARATION_FILE}: file must lie inside the folder`);
    if (!isFile(path)) refuse(`missing ${declaration.file} (the ONNX file ${DECLARATION_FILE} names)`);
    return path;
  }
  for (const candidate of ONNX_CANDIDATES) {
    const path = join(folder, candidate);
    if (isFile(path)) return path;
  }
  return refuse(`missing the ONNX file: none of ${ONNX_CANDIDATES.join(', ')} (or name it in ${DECLARATION_FILE}'s "file")`);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The ONNX file's size with the external-data files exporters write beside a large model. */
function onnxSize(path: string): number {
  let bytes = statSync(path).size;
  for (const data of [`${path}_data`, `${path}.data`]) if (isFile(data)) bytes += statSync(data).size;
  return bytes;
}

/**
 * Why the file is not ONNX, when its first bytes say so: a Git LFS pointer (the weights were never pulled), a zip
 * (a PyTorch checkpoint), safetensors, or anything that does not start as a ModelProto does (field 1, ir_version).
 * A file that passes may still be refused by onnxruntime, whose message is kept.
 */
export function sniffNotOnnx(path: string): string | undefined {
  const head = Buffer.alloc(64);
  const fd = openSync(path, 'r');
  let n: number;
  try {
    n = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const bytes = head.subarray(0, n);
  const text = bytes.toString('latin1');
  if (n === 0) return 'the file is empty';
  if (text.startsWith('version https://git-lfs')) return 'it is a Git LFS pointer, the weights were never downloaded (git lfs pull)';
  if (text.startsWith('PK\u0003\u0004')) return 'it is a zip archive (a PyTorch checkpoint?); export the model to ONNX with optimum-cli';
  if (n >= 9 && bytes[8] === 0x7b && bytes.readBigUInt64LE(0) < 100_000_000n) return 'it is a safetensors file; export the model to ONNX with optimum-cli';
  if (text.startsWith('\u0089HDF')) return 'it is a Keras HDF5 file; convert it to ONNX first';
  if (bytes[0] !== 0x08) return `it does not start as an ONNX ModelProto does (first bytes ${bytes.subarray(0, 8).toString('hex')})`;
  return undefined;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${bytes} bytes`;
}
