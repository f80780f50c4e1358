// Sends one generated case to the target and checks the properties of its answer: a documented status with a
// documented body (a 200 matching the documented result), an answer at all (no crash), and credits: an error
// charges nothing, a success charges exactly what it says and reports the balance left.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { checkAnswer, checkToolAnswer } from './contract.mjs';

const REQUEST_TIMEOUT_MS = 60_000;

function headersOf(target, c) {
  const headers = {};
  if (c.contentType !== undefined) headers['content-type'] = c.contentType;
  if (c.path === '/mcp/v1') headers.accept = 'application/json, text/event-stream';
  const token = { valid: target.tokens.valid, poor: target.tokens.poor, invalid: 'ca_0000000000000000000000000000000000000000', malformed: 'x y' }[c.auth];
  if (token !== undefined) headers.authorization = c.auth === 'malformed' ? `Basic ${token}` : `Bearer ${token}`;
  return headers;
}

/** The body sent: the tool server's `apiKey` argument is filled in here, where the token is known. */
function payloadOf(target, c) {
  if (c.body.raw !== undefined) return c.body.raw;
  const json = c.body.json;
  if (c.apiKey && json?.params?.arguments) {
    const apiKey = c.apiKey === 'valid' ? target.tokens.valid : c.apiKey === 'number' ? 42 : 'ca_nope';
    return JSON.stringify({ ...json, params: { ...json.params, arguments: { ...json.params.arguments, apiKey } } });
  }
  return JSON.stringify(json);
}

/** Reads a tool server answer, JSON or a one-event `text/event-stream`. */
function parseToolBody(contentType, text) {
  if (/text\/event-stream/.test(contentType ?? '')) {
    const data = text.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5)).join('');
    return JSON.parse(data);
  }
  return JSON.parse(text);
}

/** Sends `c` and returns `{status, problems}`: `status` is undefined when no answer came (a crash). */
export async function runCase(target, c) {
  target.serve(c.served);
  const balances = async () => [await target.ledger.balance(target.accounts.rich), await target.ledger.balance(target.accounts.poor)];
  const before = await balances();
  let response;
  let text;
  try {
    response = await fetch(`${target.url}${c.path}`, {
      method: 'POST',
      headers: headersOf(target, c),
      body: payloadOf(target, c),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    return { status: undefined, problems: [`crash: no answer (${error?.cause?.code ?? error?.name ?? error})`] };
  }
  const after = await balances();
  const status = response.status;
  const problems = [];
  let body;
  try {
    body = c.path === '/mcp/v1' ? parseToolBody(response.headers.get('content-type'), text) : JSON.parse(text);
  } catch {
    problems.push(`undocumented body: not JSON (status ${status})`);
  }

  let charged = 0;
  let remaining;
  let success = false;
  if (body !== undefined && c.path === '/mcp/v1') {
    const resultSchemaOfTool = (name) => target.engine.features.byTool(name)?.result;
    const checked = checkToolAnswer(resultSchemaOfTool, { method: c.body.json?.method, tool: c.tool }, status, body);
    problems.push(...checked.problems);
    if (checked.result) {
      success = true;
      const credits = target.engine.features.byTool(c.tool).credits;
      charged = checked.result[credits.used];
      remaining = checked.result[credits.remaining];
    }
  } else if (body !== undefined) {
    const feature = target.engine.features.byRoute(c.path);
    problems.push(...checkAnswer(feature, status, body));
    if (status === 200 && problems.length === 0) {
      success = true;
      charged = body[feature.credits.used];
      remaining = body[feature.credits.remaining];
    }
  }

  const callerAccount = c.auth === 'poor' ? 1 : 0;
  for (const i of [0, 1]) {
    const expected = before[i] - (success && i === callerAccount ? charged : 0);
    if (after[i] !== expected) {
      problems.push(success ? `charged ${before[i] - after[i]} credits but the result says ${charged}` : `charged ${before[i] - after[i]} credits on an error (status ${status})`);
    }
  }
  if (success && remaining !== after[callerAccount]) problems.push(`result says ${remaining} credits remain, the ledger ${after[callerAccount]}`);
  // The tool server takes an `apiKey` argument when no bearer token is sent (a Basic header sends none).
  const authenticated = c.auth === 'valid' || c.auth === 'poor' || (c.path === '/mcp/v1' && c.apiKey === 'valid' && (c.auth === 'none' || c.auth === 'malformed'));
  if (success && !authenticated) problems.push('a request without a valid token was answered with a result');
  if (before.some((b, i) => b !== after[i])) await target.refill();
  return { status: body?.error?.code !== undefined ? `${status}/rpc${body.error.code}` : body?.result?.isError ? `${status}/isError` : status, problems };
}

let gcFunction;
/** A full garbage collection (exposing `gc` on first use when node was not started with --expose-gc). */
export function collectGarbage() {
  if (!gcFunction) {
    if (typeof globalThis.gc === 'function') gcFunction = globalThis.gc;
    else {
      setFlagsFromString('--expose-gc');
      gcFunction = runInNewContext('gc');
    }
  }
  gcFunction();
  gcFunction();
}

/** Heap used and resident set size after a full collection, in bytes. */
export function memoryAfterGc() {
  collectGarbage();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

/**
 * Runs `numRuns` cases of one endpoint's arbitrary through fast-check (fixed seed) and tallies the answers.
 * Every case runs, whatever the earlier ones answered; the report lists the problems found.
 */
export async function fuzzEndpoint(fc, target, arbitrary, { numRuns, seed, onProblem }) {
  const statuses = new Map();
  const problems = [];
  let tried = 0;
  let crashes = 0;
  let undocumented = 0;
  await fc.assert(
    fc.asyncProperty(arbitrary, async (c) => {
      tried++;
      const outcome = await runCase(target, c);
      const key = String(outcome.status ?? 'no answer');
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (outcome.problems.length > 0) {
        if (outcome.status === undefined) crashes++;
        if (outcome.problems.some((p) => p.startsWith('undocumented'))) undocumented++;
        const entry = { case: describeCase(c), problems: outcome.problems };
        problems.push(entry);
        onProblem?.(entry);
      }
      return true;
    }),
    { numRuns, seed, endOnFailure: true },
  );
  return { tried, statuses: Object.fromEntries([...statuses].sort()), crashes, undocumented, problems };
}

/** A short description of a case for the report (long strings cut). */
export function describeCase(c) {
  const json = JSON.stringify(c, (key, value) => {
    if (typeof value === 'string' && value.length > 120) return `${value.slice(0, 60)}...(${value.length} chars)`;
    if (value?.type === 'Buffer') return `<${value.data.length} bytes>`;
    return value;
  });
  return json.length > 1500 ? `${json.slice(0, 1500)}...` : json;
}
