import type * as z from 'zod';
import { badRequest } from './errors.js';

function describeReceived(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  return typeof input;
}

function fieldName(path: readonly PropertyKey[]): string {
  return path.length === 0 ? 'body' : path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
}

/** The value at `path` in the body, and whether it is there at all. */
function valueAt(body: unknown, path: readonly PropertyKey[]): { present: boolean; value: unknown } {
  let value: unknown = body;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return { present: false, value: undefined };
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return { present: true, value };
}

function describeIssue(issue: z.core.$ZodIssue, body: unknown): string {
  const field = fieldName(issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      const { present, value } = valueAt(body, issue.path);
      if (!present || value === undefined) return `${field} is required`;
      return `${field} must be of type ${issue.expected} but received ${describeReceived(value)}`;
    }
    case 'unrecognized_keys':
      return `${field} has unknown fields: ${issue.keys.join(', ')}`;
    default:
      // Messages written as whole sentences about the field (from refinements) are kept as they are.
      return issue.message.startsWith(`${field} `) ? issue.message : `${field} ${issue.message}`;
  }
}

/**
 * Validates a request body against an endpoint's schema. Every problem is named with its field in the
 * BAD_REQUEST description, so a caller can fix the request in one go.
 */
export function validateRequest<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest(`The request body must be a JSON object but received ${describeReceived(body)}`);
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const messages = [...new Set(parsed.error.issues.map((issue) => describeIssue(issue, body)))];
  throw badRequest(messages.join('; '));
}
