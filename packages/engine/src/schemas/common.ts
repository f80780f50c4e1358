import * as z from 'zod';
import { languageName } from '@content-analysis/classifiers';

/** A string of `min`..`max` UTF-16 code units, the unit in which the spec states its text bounds. */
export function boundedText(min: number, max: number) {
  return z
    .string()
    .min(min, { error: min === 1 ? 'must not be empty' : `must be at least ${min} characters long` })
    .max(max, { error: `must be at most ${max} characters long` });
}

/**
 * A caller-supplied URL. Only its shape is checked here; whether it is public (and reachable) is decided by the
 * guarded fetcher when the URL is used, so the rules live in one place.
 */
export const urlString = z.string().min(1, { error: 'must be a non-empty URL' }).max(8192, { error: 'must be at most 8192 characters long' });

/** `auto` or a 2-letter lowercase language code. */
export const anyLanguage = z
  .string()
  .regex(/^(auto|[a-z]{2})$/, { error: 'must be a 2-letter lowercase language code or "auto"' });

/** `auto` or one of `codes`; a refusal says what the request sent (`German (de)`), so it is not read as detected. */
export function languageOf(codes: readonly string[]) {
  return z.enum(['auto', ...codes] as [string, ...string[]], {
    error: (issue) => `must be "auto" or one of the supported codes: ${codes.join(', ')}, but the request sent ${sentLanguage(issue.input)}`,
  });
}

function sentLanguage(input: unknown): string {
  if (typeof input !== 'string') return `a ${input === null ? 'null' : typeof input}`;
  return /^[a-z]{2}$/.test(input) ? languageName(input) : JSON.stringify(input.slice(0, 40));
}

/** Where a text comes from, in the spec's order of priority: website, then file, then text. */
export type TextInput =
  | { kind: 'website'; url: string }
  | { kind: 'file'; url: string }
  | { kind: 'text'; text: string };
