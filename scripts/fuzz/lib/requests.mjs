// Request generators, one per endpoint: structurally valid requests at the edges of each schema (bounds of the
// spec and of `response-fields.md`), wrong types, missing and extra fields, odd unicode, huge and empty strings,
// bad base64 and data URLs, invalid and non-public URLs, and URLs served by the local resource server (every host
// name is routed to it; see `target.mjs`).
import { joinedWords, vowellessToken } from './attacks.mjs';
import { mutatedBytesArbitrary } from './mutate.mjs';

/** Host names that the fuzz target routes to its local resource server (through a public-looking address). */
export const SERVED_URLS = Object.freeze(['http://files.example.com/fuzz/resource', 'https://cdn.example.org/a/b.png?x=1', 'http://93.184.216.34/doc.pdf']);

/** URLs the guarded fetcher must refuse before any connection, or that are not URLs at all. */
const BAD_URLS = Object.freeze([
  'not a url', 'http://', 'https://', 'ftp://example.com/a.png', 'file:///etc/passwd', 'javascript:alert(1)',
  'http://localhost/a', 'http://LOCALHOST./a', 'http://x.localhost/a', 'http://127.0.0.1/', 'http://2130706433/',
  'http://0x7f.1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://10.0.0.1/', 'http://192.168.1.1/x',
  'http://169.254.169.254/latest/meta-data', 'http://user:pw@example.com/', 'http://example.com:99999/',
  'http://[fe80::1%25eth0]/', 'data:image/png;base64,AAAA', '//example.com/a', ' http://example.com/a ',
  'http://exa mple.com/', 'http://0.0.0.0/', 'http://[::]/', `https://example.com/${'a'.repeat(9000)}`, '\u0000',
  'http://例え.テスト/', 'http://xn--/', 'HTTP://EXAMPLE.COM', 'http://example.com/%zz',
]);

/** Characters that change how a text reads without changing what it says. */
const TWISTS = Object.freeze({
  none: (s) => s,
  zeroWidth: (s) => s.replace(/ /g, ' \u200b'),
  homoglyph: (s) => s.replace(/a/g, '\u0430').replace(/e/g, '\u0435').replace(/o/g, '\u043e'),
  emoji: (s) => s.replace(/\. /g, '. \u{1F600}\u{1F468}\u200d\u{1F469}\u200d\u{1F467} '),
  loneSurrogate: (s) => s.replace(/, /g, ',\ud800 \udfff'),
  nul: (s) => s.replace(/ the /g, ' \u0000the\u0001 '),
  rtl: (s) => `\u202e${s}\u202c`,
  cjk: (s) => s.replace(/[a-z]+/g, (w) => '文字列'.repeat(1 + (w.length % 3))),
  whitespace: (s) => s.replace(/\S/g, ' '),
  newlines: (s) => s.replace(/ /g, '\r\n'),
  combining: (s) => s.replace(/e/g, 'e\u0301\u0301\u0301'),
  upper: (s) => s.toUpperCase(),
  // Issue 26: a token without vowels (quadratic in a stemmer's regular expression) and words joined so that a
  // word counter sees fewer than the detector reads.
  vowelless: (s) => vowellessToken(s.length - Math.floor(s.length / 4), s.slice(0, Math.floor(s.length / 4))),
  joinedDots: (s) => joinedWords(s, '.'),
  joinedUnderscores: (s) => joinedWords(s, '_'),
  joinedColons: (s) => joinedWords(s, ':'),
  joinedApostrophes: (s) => joinedWords(s, "'"),
});

/** A text of about `length` characters cut from the seed prose at `offset`, with a twist. */
function proseOf(prose, length, offset, twist) {
  if (length === 0) return '';
  const start = offset % prose.length;
  const repeats = Math.ceil((length + start) / prose.length);
  return TWISTS[twist](prose.repeat(repeats).slice(start, start + length));
}

/** Arbitraries shared by the endpoints, built on `seeds` (`{texts, images, documents}`). */
export function commonArbitraries(fc, seeds) {
  const prose = seeds.texts.join('\n\n');
  const twist = fc.oneof({ weight: 6, arbitrary: fc.constant('none') }, { weight: 6, arbitrary: fc.constantFrom(...Object.keys(TWISTS)) });
  /** Lengths at and beside each bound, and anywhere below 3,000. */
  /** Lengths at and beside each bound, anywhere below 3,000, and mostly within 3,000 above the lower bound. */
  const lengthNear = (bounds) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...new Set([0, 1, 2, ...bounds.flatMap((b) => [b - 1, b, b + 1])].filter((n) => n >= 0))) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 3000 }) },
      { weight: 4, arbitrary: fc.integer({ min: bounds[0], max: bounds[0] + 3000 }) },
    );
  const text = (bounds) =>
    fc.oneof(
      { weight: 12, arbitrary: fc.tuple(lengthNear(bounds), fc.nat(), twist).map(([n, at, tw]) => proseOf(prose, n, at, tw)) },
      { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 400 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 400 }) },
      { weight: 1, arbitrary: fc.constantFrom('', ' ', '\u200b\u200b', '\u0000', '\ud800', 'a', '\n\n\n') },
    );
  const junk = fc.oneof(
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), fc.integer(), { maxKeys: 3 }),
    fc.string({ maxLength: 20 }),
  );
  /** A field: mostly its good values, sometimes a value of the wrong type, sometimes absent (undefined). */
  const field = (good, absentWeight = 1) =>
    fc.oneof({ weight: 24, arbitrary: good }, { weight: 1, arbitrary: junk }, { weight: absentWeight, arbitrary: fc.constant(undefined) });
  const servedDocument = fc.record({
    kind: fc.constant('bytes'),
    status: fc.constantFrom(200, 200, 200, 200, 206),
    file: mutatedBytesArbitrary(fc, seeds.documents),
    contentType: fc.constantFrom('application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/msword', 'text/html; charset=utf-8', 'text/plain', 'application/octet-stream', 'image/png', undefined),
  });
  const servedImage = fc.record({
    kind: fc.constant('bytes'),
    status: fc.constantFrom(200, 200, 200, 200, 203),
    file: mutatedBytesArbitrary(fc, seeds.images),
    contentType: fc.constantFrom('image/png', 'image/jpeg', 'image/webp', 'application/octet-stream', 'text/html', undefined),
  });
  const servedOther = fc.oneof(
    fc.record({ kind: fc.constant('status'), status: fc.constantFrom(204, 400, 404, 410, 500, 503) }),
    fc.record({
      kind: fc.constant('redirect'),
      status: fc.constantFrom(301, 302, 303, 307, 308),
      location: fc.constantFrom('http://127.0.0.1/', 'http://localhost:1/', 'http://files.example.com/loop', 'ftp://example.com/', 'http://user:pw@example.com/', '::::', ''),
    }),
    fc.record({ kind: fc.constant('gzip-bomb'), status: fc.constant(200) }),
  );
  const served = (bytes) => fc.oneof({ weight: 8, arbitrary: bytes }, { weight: 2, arbitrary: servedOther });
  /** A URL: one the local server answers (with `served`), one refused before any connection, or any web URL. */
  const url = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(SERVED_URLS[0], SERVED_URLS[0], SERVED_URLS[2], SERVED_URLS[1]) },
    { weight: 3, arbitrary: fc.constantFrom(...BAD_URLS) },
    { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  );
  const language = (codes) =>
    fc.oneof({ weight: 8, arbitrary: fc.constantFrom('auto', ...codes) }, { weight: 1, arbitrary: fc.constantFrom('', 'EN', 'e', 'eng', 'english', 'xx', 'zz', 'auto ', 'en-US') });
  return { text, junk, field, url, served, servedDocument, servedImage, language };
}

/** Drops the keys whose value is undefined (an absent field) and adds the extra fields. */
function assemble(fields, extra) {
  const body = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) body[key] = value;
  return extra ? Object.assign(body, extra) : body;
}

/** A request body: mostly an object made by `fields`, sometimes another JSON value, sometimes raw text that is not JSON. */
function bodyOf(fc, fields) {
  const extra = fc.option(fc.dictionary(fc.string({ maxLength: 10 }).filter((k) => k !== '__proto__'), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 2 }), { freq: 6 });
  return fc.oneof(
    { weight: 30, arbitrary: fc.tuple(fields, extra).map(([f, x]) => ({ json: assemble(f, x ?? undefined) })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((json) => ({ json })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', ' ', '{', '{"text":', '[]', 'null', '\ufeff{}', '{"a":1}x', `${'['.repeat(5000)}${']'.repeat(5000)}`, 'NaN', "{'a':1}").map((raw) => ({ raw })),
    },
  );
}

/** The text endpoints' `text`, `file` and `website`: the text most of the time, a document at a URL some of the time. */
function textInputFields(fc, common, bounds) {
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({ text: common.field(common.text(bounds)) }).map((f) => ({ fields: f })) },
    {
      weight: 3,
      arbitrary: fc
        .record({
          which: fc.constantFrom('file', 'website', 'both'),
          url: common.field(common.url, 0),
          text: fc.option(common.text(bounds), { nil: undefined }),
          served: common.served(common.servedDocument),
        })
        .map(({ which, url, text, served }) => ({
          fields: { text, ...(which === 'website' ? {} : { file: url }), ...(which === 'file' ? {} : { website: url }) },
          served,
        })),
    },
  );
}

/** Cases of every endpoint: `{path, body: {json} | {raw}, served?}`, the auth and content type added by `cases`. */
export function endpointArbitraries(fc, seeds, languages) {
  const c = commonArbitraries(fc, seeds);
  const withServed = (inputs, rest) => fc.tuple(inputs, rest).map(([{ fields, served }, more]) => ({ fields: { ...fields, ...more }, served }));
  const textEndpoint = (path, bounds, rest) => {
    return withServed(textInputFields(fc, c, bounds), rest).chain((p) => bodyOf(fc, fc.constant(p.fields)).map((body) => ({ path, body, served: p.served })));
  };

  const imageBase64 = fc
    .tuple(mutatedBytesArbitrary(fc, seeds.images), fc.constantFrom('base64', 'dataUrl', 'base64url', 'wrapped', 'badPrefix', 'oversize'), fc.constantFrom('image/png', 'image/jpeg', 'image/webp', 'image/gif', 'IMAGE/PNG', 'text/plain', 'image/svg+xml'))
    .map(([{ bytes }, form, mime]) => {
      switch (form) {
        case 'dataUrl': return `data:${mime};base64,${bytes.toString('base64')}`;
        case 'base64url': return bytes.toString('base64url');
        case 'wrapped': return bytes.toString('base64').replace(/.{76}/g, '$&\r\n');
        case 'badPrefix': return `data:${mime},${bytes.toString('base64')}`;
        case 'oversize': return Buffer.concat([bytes, Buffer.alloc(4 * 1024 * 1024 + 1)]).toString('base64');
        default: return bytes.toString('base64');
      }
    });
  const badImageString = fc.oneof(
    fc.constantFrom('!!!!', 'abc', '====', 'A', 'data:image/png;base64,', 'data:text/plain,hi', 'data:image/png,raw', 'data:;base64,AAAA', 'data:image/png;base64,@@@@', '\u00ff\u00fe'),
    fc.base64String({ maxLength: 200 }),
    fc.string({ maxLength: 100 }),
  );
  const imageVersion = fc.oneof({ weight: 5, arbitrary: fc.constantFrom('5', '4', '3', '2', '1', 'latest') }, { weight: 1, arbitrary: fc.constantFrom(5, 4, 1, '6', '0', '', 'LATEST', '05', -1, 5.5, ' 5') });
  const imageInput = fc.oneof(
    { weight: 6, arbitrary: fc.record({ image: fc.oneof({ weight: 4, arbitrary: imageBase64 }, { weight: 1, arbitrary: badImageString }) }).map((fields) => ({ fields })) },
    { weight: 4, arbitrary: fc.record({ url: c.url, served: c.served(c.servedImage) }).map(({ url, served }) => ({ fields: { url }, served })) },
    { weight: 1, arbitrary: fc.record({ url: c.junk, image: c.field(imageBase64) }).map((fields) => ({ fields })) },
  );
  const imageEndpoint = (path) => {
    return withServed(imageInput, fc.record({ version: c.field(imageVersion, 3) })).chain((p) => bodyOf(fc, fc.constant(p.fields)).map((body) => ({ path, body, served: p.served })));
  };

  const advancedParts = fc
    .record({ image_url: c.field(c.url, 1), served: c.served(c.servedImage) })
    .map(({ image_url, served }) => ({ fields: { image_url }, served }));

  const excludedSources = fc.array(
    fc.oneof({ weight: 8, arbitrary: fc.oneof(fc.domain(), fc.webUrl()) }, { weight: 1, arbitrary: fc.constantFrom('', 'example.com', 'EXAMPLE.COM', '*', '..', 'x'.repeat(3000)) }),
    { maxLength: 4 },
  );

  return {
    'text-compare': fc
      .tuple(bodyOf(fc, fc.record({ first_text: c.field(c.text([1, 120_000])), second_text: c.field(c.text([1, 120_000])) })))
      .map(([body]) => ({ path: '/v2/text-compare', body })),
    'ai-content-detection': textEndpoint('/v2/ai-content-detection', [300, 150_000], fc.record({
      sentences: c.field(fc.boolean(), 3),
      language: c.field(c.language(['en', 'en', 'en', 'fr']), 3),
      version: c.field(fc.oneof({ weight: 4, arbitrary: fc.constantFrom('latest', '1.0.0', '1.2.0', '2.0.0') }, { weight: 1, arbitrary: fc.constantFrom('9.9.9', '', 'x'.repeat(65)) }), 12),
    })),
    plagiarism: textEndpoint('/v2/plagiarism', [100, 120_000], fc.record({
      excluded_sources: c.field(excludedSources, 3),
      language: c.field(c.language(languages.plagiarism), 3),
      country: c.field(fc.oneof({ weight: 6, arbitrary: fc.constantFrom('us', 'US', 'gb', 'fr') }, { weight: 1, arbitrary: fc.constantFrom('usa', 'u', '1x', '') }), 3),
    })),
    'plagiarism-v1': fc
      .tuple(bodyOf(fc, fc.record({ text: c.field(c.text([80, 100, 120_000, 1_280_000])) })))
      .map(([body]) => ({ path: '/v1/plagiarism', body })),
    'fact-checker': textEndpoint('/v2/fact-checker', [300, 10_000], fc.record({ language: c.field(c.language(languages.factCheck), 3) })),
    'image-detection': imageEndpoint('/v2/image-detection'),
    'image-detection-v1': imageEndpoint('/v1/image-detection'),
    'advanced-image-detection': advancedParts.chain((p) => bodyOf(fc, fc.constant(p.fields)).map((body) => ({ path: '/v2/advanced-image-detection', body, served: p.served }))),
    'tool-server': toolServerArbitrary(fc, c, imageBase64),
  };
}

/**
 * JSON-RPC requests to /mcp/v1: tools/list, tools/call of each tool with fuzzed arguments, other methods (Object.prototype's
 * names among them), bad envelopes, ids that cannot correlate and batches that repeat an id.
 */
function toolServerArbitrary(fc, c, imageBase64) {
  const args = {
    'ai-text-detection': fc.record({ text: c.field(c.text([300, 150_000])) }),
    'plagiarism-detection': fc.record({ text: c.field(c.text([100, 120_000])), language: c.field(c.language(['en', 'fr', 'auto'])), country: c.field(fc.constantFrom('us', 'de', 'xyz')) }),
    'text-compare': fc.record({ first_text: c.field(c.text([1, 120_000])), second_text: c.field(c.text([1, 120_000])) }),
    'ai-image-detection': fc.record({ url: c.field(c.url) }),
  };
  const call = fc
    .tuple(
      fc.constantFrom(...Object.keys(args), 'nope', ''),
      fc.nat(),
      c.served(fc.oneof(c.servedImage, c.servedDocument)),
      fc.option(fc.constantFrom('valid', 'invalid', 'number'), { freq: 5 }),
    )
    .chain(([name, id, served, apiKey]) =>
      (args[name] ?? fc.dictionary(fc.string({ maxLength: 6 }), c.junk, { maxKeys: 2 })).map((a) => ({
        tool: name,
        served,
        apiKey,
        message: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: assemble(a) } },
      })),
    );
  const other = fc.oneof(
    fc.nat().map((id) => ({ message: { jsonrpc: '2.0', id, method: 'tools/list' } })),
    fc.tuple(fc.nat(), fc.constantFrom('ping', 'resources/list', 'nope/nope', 'initialize', '', '__proto__', 'constructor', 'toString', 'hasOwnProperty'))
      .map(([id, method]) => ({ message: { jsonrpc: '2.0', id, method } })),
    // Ids no answer can carry back as sent (issue 26): -32600, never a parse error or an internal one.
    fc.constantFrom('1e308', 'null', '1.5', 'true', '{}', '[1]', '-0.5e3')
      .map((id) => ({ raw: `{"jsonrpc":"2.0","id":${id},"method":"tools/list"}` })),
    // A batch that repeats an id: refused whole, nothing charged twice (issue 26).
    fc.tuple(fc.nat(), fc.constantFrom('tools/call', 'tools/list')).map(([id, method]) => {
      const message = method === 'tools/list' ? { jsonrpc: '2.0', id, method }
        : { jsonrpc: '2.0', id, method, params: { name: 'text-compare', arguments: { first_text: 'one two three', second_text: 'one two four' } } };
      return { raw: JSON.stringify([message, message]) };
    }),
    fc.tuple(fc.nat(), c.junk).map(([id, params]) => ({ message: { jsonrpc: '2.0', id, method: 'tools/call', params } })),
    fc.jsonValue({ maxDepth: 2 }).map((message) => ({ message })),
    fc.constantFrom('', '{', '[]', '[{"jsonrpc":"2.0"}]', '{"jsonrpc":"1.0","id":1,"method":"tools/list"}').map((raw) => ({ raw })),
  );
  void imageBase64;
  return fc.oneof({ weight: 6, arbitrary: call }, { weight: 2, arbitrary: other }).map((m) => ({
    path: '/mcp/v1',
    body: m.raw !== undefined ? { raw: m.raw } : { json: m.message },
    served: m.served,
    tool: m.tool,
    apiKey: m.apiKey ?? undefined,
  }));
}

/** Adds who calls (token) and how (content type) to an endpoint's cases. */
export function withCaller(fc, arbitrary) {
  const auth = fc.oneof({ weight: 16, arbitrary: fc.constant('valid') }, { weight: 1, arbitrary: fc.constantFrom('none', 'invalid', 'malformed', 'poor') });
  const contentType = fc.oneof(
    { weight: 20, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined) },
  );
  return fc.tuple(arbitrary, auth, contentType).map(([c, a, ct]) => ({ ...c, auth: a, contentType: ct }));
}
