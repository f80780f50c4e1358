// The documented answers of the API, written from the specification (`content-analysis-api.md`, "Errors", and
// `response-fields.md`, "Errors: body and HTTP status"), not from the engine: the fuzz test checks that the engine's
// own table agrees with it. `checkAnswer` and `checkToolAnswer` return what is wrong with one answer (empty when it
// is a documented one).

/** HTTP status -> `error` of the v2 error body (`response-fields.md`). */
export const V2_ERROR_OF_STATUS = Object.freeze({
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
});

/**
 * HTTP status -> `error` of /v2/advanced-image-detection (spec, "Advanced image detection errors", with the
 * statuses of `response-fields.md`). Rate limiting and load shedding keep the v2 body there.
 */
export const ADVANCED_ERROR_OF_STATUS = Object.freeze({
  400: 'Invalid URL provided',
  401: 'Unauthorized',
  402: 'Insufficient credits',
  429: 'TOO_MANY_REQUESTS',
  500: 'Error while analyzing image, please try again later or contact support',
  503: 'SERVICE_UNAVAILABLE',
});

/** JSON-RPC error codes the tool server may answer with for a caller's mistake (never -32603, internal error). */
export const TOOL_PROTOCOL_ERRORS = Object.freeze([-32000, -32600, -32601, -32602, -32700]);

/**
 * Statuses that are documented but must never answer a fuzzed request: 500 is an unexpected failure of the
 * service (a defect), 429 and 503 cannot happen with the rate limit off and one request at a time.
 */
export const UNEXPECTED_STATUSES = Object.freeze([429, 500, 503]);

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** What is wrong with an error body for `status` in `style` ('v2' or 'advanced'); empty if nothing. */
export function errorBodyProblems(style, status, body) {
  const table = style === 'advanced' ? ADVANCED_ERROR_OF_STATUS : V2_ERROR_OF_STATUS;
  const expected = table[status];
  if (expected === undefined) return [`undocumented status ${status}`];
  if (!isObject(body)) return [`undocumented error body for ${status}: not a JSON object`];
  const problems = [];
  if (body.error !== expected) problems.push(`undocumented error body for ${status}: error ${JSON.stringify(body.error)}, expected ${JSON.stringify(expected)}`);
  if (body.status !== status) problems.push(`undocumented error body for ${status}: status field ${JSON.stringify(body.status)}`);
  if ('description' in body && typeof body.description !== 'string') problems.push(`undocumented error body for ${status}: description not a string`);
  const extra = Object.keys(body).filter((key) => !['status', 'error', 'description'].includes(key));
  if (extra.length > 0) problems.push(`undocumented error body for ${status}: extra fields ${extra.join(', ')}`);
  if (UNEXPECTED_STATUSES.includes(status)) problems.push(`unexpected status ${status} (${expected})`);
  return problems;
}

/**
 * What is wrong with one REST answer. `endpoint` gives the error style and the zod schema of the documented result;
 * a 200 must match that schema.
 */
export function checkAnswer(endpoint, status, body) {
  if (status === 200) {
    if (!isObject(body)) return ['undocumented 200 body: not a JSON object'];
    const parsed = endpoint.result.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return [`undocumented 200 body: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim()];
    }
    return [];
  }
  return errorBodyProblems(endpoint.errorStyle, status, body);
}

/**
 * What is wrong with one answer of the tool server (POST /mcp/v1, one JSON-RPC request), and the tool result when
 * it is a successful call. A tool error is a result with `isError` and the v2 error body as its text; a protocol
 * error a JSON-RPC error with one of {@link TOOL_PROTOCOL_ERRORS}.
 */
export function checkToolAnswer(resultSchemaOfTool, request, status, body) {
  const { method, tool: toolName } = request;
  if (![200, 400, 415].includes(status)) return { problems: [`undocumented tool server status ${status}`] };
  if (!isObject(body) || body.jsonrpc !== '2.0') return { problems: [`undocumented tool server body (status ${status})`] };
  if (isObject(body.error)) {
    if (!TOOL_PROTOCOL_ERRORS.includes(body.error.code)) return { problems: [`undocumented JSON-RPC error ${JSON.stringify(body.error.code)}`] };
    if (typeof body.error.message !== 'string') return { problems: ['JSON-RPC error without a message'] };
    return { problems: [], error: true };
  }
  if (status !== 200) return { problems: [`tool server status ${status} without a JSON-RPC error`] };
  const result = body.result;
  if (method !== 'tools/call') {
    if (!isObject(result)) return { problems: [`${method} answered without a result object`] };
    if (method === 'tools/list' && !(Array.isArray(result.tools) && result.tools.every((t) => typeof t?.name === 'string' && isObject(t.inputSchema)))) {
      return { problems: ['tools/list result without tools'] };
    }
    return { problems: [] };
  }
  const text = isObject(result) && Array.isArray(result.content) && result.content[0]?.type === 'text' ? result.content[0].text : undefined;
  if (typeof text !== 'string') return { problems: ['tool result without a text content'] };
  if (result.isError === true) {
    let errorBody;
    try {
      errorBody = JSON.parse(text);
    } catch {
      return { problems: ['tool error whose text is not a JSON error body'] };
    }
    const problems = isObject(errorBody) && typeof errorBody.status === 'number' ? errorBodyProblems('v2', errorBody.status, errorBody) : ['tool error body without a status'];
    return { problems, error: true };
  }
  const newline = text.indexOf('\n');
  let parsed;
  try {
    parsed = JSON.parse(text.slice(newline + 1));
  } catch {
    return { problems: ['tool result whose second line is not JSON'] };
  }
  const schema = resultSchemaOfTool(toolName);
  if (newline < 1) return { problems: ['tool result without a summary line'] };
  if (!schema) return { problems: [`tool result from an unknown tool ${JSON.stringify(toolName)}`] };
  const check = schema.safeParse(parsed);
  if (!check.success) return { problems: [`undocumented tool result: ${check.error.issues[0]?.path.join('.')} ${check.error.issues[0]?.message}`] };
  return { problems: [], result: parsed };
}
