import type { Engine, Feature } from '@content-analysis/engine';
import { MODEL_USAGE } from './customModels.js';

const flag = (field: string) => field.replace(/_/g, '-');

function featureArguments(feature: Feature<any, any>): string {
  return [
    ...feature.cli!.inputs.map((i) => `<${flag(i.field)}>`),
    ...(feature.cli!.options ?? []).map((o) => `[--${flag(o.field)} <${flag(o.field)}>]`),
  ].join(' ');
}

/** The usage of every command, printed for `--help` and for a wrong command line that names no known command. */
export function globalUsage(engine: Engine): string {
  const features = engine.features
    .list()
    .filter((f) => f.cli)
    .map((f) => `  ${`${f.cli!.command} ${featureArguments(f)}`.padEnd(43)} ${f.cli!.summary}`);
  return [
    'Usage: content-analysis <command> [options]   (content-analysis <command> --help: that command\'s usage)',
    '',
    'Feature commands (no account needed; each input is a file, an http(s) URL, or - for standard input):',
    ...features,
    '  image-metadata <image> [--compact]          metadata, exif, c2pa and AI watermark fields of an image',
    '  forensics <image> [--out <dir>]             advanced forensic analysis; --out writes heatmaps and raw maps,',
    '        [--report <file.html>]                  --report one self-contained HTML report',
    '  forensics-bench --dataset <dir>             per method pixel AUC, best F1, MCC, image AUC [--methods a,b] [--json f]',
    '  <command> --jsonl [file|-]                  batch: one JSON request per line in, one result per line out',
    '    --sources <folder|jsonl>                  plagiarism sources to check against (also --index <file> for an index)',
    '    --evidence <folder|jsonl>                 trusted documents the fact checker takes its evidence from',
    '',
    'Service:',
    '  serve [--port 8080] [--host 127.0.0.1]      run the HTTP API and the tool server (embedded SQLite ledger,',
    '        [--database url] [--redis url]          or a PostgreSQL ledger, Redis rate limits and analysis queue shared by several nodes)',
    '  worker --redis url [--concurrency 1]        run the queued analyses of `serve --redis` nodes',
    '  accounts list | create [id] [--credits n]   list the accounts, or open one (default 2000 credits)',
    '  tokens create [--account id] [--label x]    create an access token (shown once; stored as a hash)',
    '  tokens list [--account id] | revoke <id>    list tokens (ids and labels only) or revoke one',
    '  credits show [--account id]                 show an account balance',
    '  credits add <amount> [--account id]         top up an account, as a purchase would',
    '  index add <folder|jsonl> [--index file]     add documents to the persisted plagiarism source index',
    '  calibrate ai-text --human <folder|jsonl>    calibrate AI-text scores on this deployment\'s human texts',
    '        --target-fpr 0.01 [--out profile.json]  (apply with ai-text / serve / worker --calibration profile.json)',
    '  openapi                                     print the OpenAPI 3.1 document',
    '',
    'Options: --db <file> ledger file (default $CONTENT_ANALYSIS_DB or .data/content-analysis.sqlite), or',
    '         --database <postgres://…> [--database-schema name] the PostgreSQL ledger (default $CONTENT_ANALYSIS_DATABASE_URL);',
    '         --index <file> plagiarism source index (default $CONTENT_ANALYSIS_SOURCES or .data/sources.sqlite)',
  ].join('\n');
}

const DB = '  --db <file>     ledger file (default $CONTENT_ANALYSIS_DB or .data/content-analysis.sqlite)';
const LEDGER = [
  DB,
  '  --database <postgres://…>  the PostgreSQL ledger of `serve --database` instead (default $CONTENT_ANALYSIS_DATABASE_URL)',
  '  --database-schema <name>   its schema (default $CONTENT_ANALYSIS_DATABASE_SCHEMA or public)',
];

const SERVICE_USAGES: Record<string, string[]> = {
  'image-metadata': [
    'Usage: content-analysis image-metadata <image> [--compact]',
    '',
    'Prints the metadata, exif, c2pa and AI watermark fields of a JPEG, PNG or WEBP file (any size).',
    '  --compact       print the result on one line',
  ],
  forensics: [
    'Usage: content-analysis forensics <image> [--out <dir>] [--report <file.html>]',
    '',
    'Prints the advanced forensic analysis of an image (at least 256x256) with what it would cost.',
    '  --out <dir>            also write, per map, a heatmap, a 16-bit raw map and its scale (the fused map too)',
    '  --report <file.html>   also write one self-contained HTML report (image, heat maps with colour scales,',
    '                         metadata, decision; no script, nothing fetched)',
  ],
  'forensics-bench': [
    'Usage: content-analysis forensics-bench --dataset <dir> [--methods a,b] [--include <regex>] [--json <file>]',
    '',
    'Scores the forensic maps on a dataset: <dir>/tampered/*, <dir>/mask/<same stem>.png (nonzero = tampered),',
    'optional <dir>/original/* (authentic images, for the image-level AUC). Prints per method the mean pixel AUC,',
    'best F1 and MCC at that threshold over the tampered images, and the image AUC; --json writes them per image.',
    '  --methods <a,b>   kernel ids and/or fused (default: every kernel with a map, and fused)',
    '  --include <re>    only the images whose file name matches',
  ],
  serve: [
    'Usage: content-analysis serve [--port 8080] [--host 127.0.0.1] [options]',
    '',
    'Runs the HTTP API and the tool server (/mcp/v1). On its first start it creates the account "default"',
    '(2000 credits) and prints its first token once.',
    '  --port <n>      port to listen on (default $PORT or 8080; 0 for any free one)',
    '  --host <addr>   address to listen on (default 127.0.0.1)',
    DB,
    '  --database <url>           PostgreSQL ledger and plagiarism index (unless --index) shared by several nodes',
    '                             (default $CONTENT_ANALYSIS_DATABASE_URL)',
    '  --database-schema <name>   its schema (default $CONTENT_ANALYSIS_DATABASE_SCHEMA or public)',
    '  --redis <url>              count rate limits in Redis, shared by several nodes, and queue the image, AI-text,',
    '                             plagiarism and fact-check analyses for `content-analysis worker` processes',
    '                             (default $CONTENT_ANALYSIS_REDIS_URL)',
    '  --redis-prefix <prefix>    prefix of the rate-limit keys (default $CONTENT_ANALYSIS_REDIS_PREFIX or content-analysis:rate:)',
    '  --queue-prefix <prefix>    prefix of the queue keys (default $CONTENT_ANALYSIS_QUEUE_PREFIX or content-analysis:queue)',
    '  --queue-timeout <seconds>  how long a queued request waits for a worker before it answers 503 (default 100)',
    '  --sources <folder|jsonl>   plagiarism sources; --index <file> the persisted source index',
    '  --evidence <folder|jsonl>  trusted documents of the fact checker',
    '  --no-tool-server           do not mount /mcp/v1',
    '  --calibration <file>       AI-text calibration profile (content-analysis calibrate ai-text): scores compare',
    '                             each text with this deployment\'s human writing; give the workers the same one',
    '  --no-warm                  load the models on first use instead of before it reports listening and ready',
    '  --metrics-token <token>    require this bearer token on GET /metrics (default $CONTENT_ANALYSIS_METRICS_TOKEN; open)',
    ...MODEL_USAGE,
  ],
  worker: [
    'Usage: content-analysis worker --redis <url> [--database <url>] [--concurrency 1] [options]',
    '',
    'Takes the analysis jobs that `serve --redis` nodes queue (image detection, advanced image detection, AI text,',
    'plagiarism v2 and v1, fact checking), runs them and hands the results back; the API node charges. It loads its',
    'models before it takes a job. A plagiarism or fact-check job whose API node names other sources or evidence than',
    'this worker\'s is refused (the request answers 503, uncharged). SIGTERM lets the running jobs finish, then exits.',
    '  --redis <url>              the queue (default $CONTENT_ANALYSIS_REDIS_URL)',
    '  --queue-prefix <prefix>    prefix of its keys, the API nodes\' one (default $CONTENT_ANALYSIS_QUEUE_PREFIX or content-analysis:queue)',
    '  --concurrency <n>          jobs run at once (default 1)',
    '  --lock-duration <seconds>  lock of a running job, renewed every half of it (default 30)',
    '  --stall-interval <seconds> how often jobs of dead workers are put back (default the smaller of 10 and --lock-duration);',
    '                             a dead worker\'s job restarts within lock-duration + 2 × stall-interval (50 s by default)',
    '  --database <url>           PostgreSQL plagiarism index, as serve (default $CONTENT_ANALYSIS_DATABASE_URL);',
    '                             --database-schema its schema',
    '  --sources, --index, --evidence  as serve (they must be the API nodes\' ones)',
    '  --calibration <file>       AI-text calibration profile, the one the API nodes use',
    '  --no-warm                  load the models on first use instead of at start',
    ...MODEL_USAGE,
  ],
  calibrate: [
    'Usage: content-analysis calibrate ai-text --human <folder|jsonl> --target-fpr <rate> [--out profile.json]',
    '                                          [--confidence 0.95] [--version <detector version>]',
    '',
    'Scores this deployment\'s own human texts with the AI-text detector and writes a calibration profile: per length',
    'bucket, the threshold that keeps the false-positive rate at most --target-fpr with probability --confidence',
    '(order statistic, Clopper-Pearson bound; 299 texts per bucket for 1% at 95%). Apply it with ai-text, serve or',
    'worker --calibration profile.json: a human score below 50 then means flagged at that threshold.',
    '  --human <path>      a JSONL file (a JSON string or {"text": ...} per line; lines labelled other than human are',
    '                      left out) or a folder of .txt, .md, .pdf, .docx, .doc, .html and .jsonl files',
    '  --target-fpr <r>    false-positive rate to promise, in (0, 1)',
    '  --confidence <c>    probability with which the bound holds (default 0.95)',
    '  --out <file>        where to write the profile (default standard output)',
    '  --version <v>       detector version to calibrate (default the default version)',
    '  --model <NAME=DIR>  calibrate a plugged text model instead (apply its profile with --model-calibration)',
  ],
  accounts: [
    'Usage: content-analysis accounts list [--db file | --database url]',
    '       content-analysis accounts create [<account-id>] [--credits 2000] [--db file | --database url]',
    '',
    'Lists the accounts with their balances and active tokens, or opens an account (a random acct_… id if none',
    'is given). Account ids hold no control or format characters (newlines, U+202E) and no surrounding spaces.',
    ...LEDGER,
  ],
  tokens: [
    'Usage: content-analysis tokens create [--account id] [--label x] [--create-account] [--db file | --database url]',
    '       content-analysis tokens list [--account id] [--db file | --database url]',
    '       content-analysis tokens revoke <token-id> [--db file | --database url]',
    '',
    'Creates an access token for an account (default "default", opened with 2000 credits on first use); the token',
    'is shown once and only its hash is stored. Another account must exist (`accounts create`), unless',
    '--create-account opens it. `list` shows token ids and labels, never tokens; `revoke` takes a token id.',
    ...LEDGER,
  ],
  credits: [
    'Usage: content-analysis credits show [--account id] [--db file | --database url]',
    '       content-analysis credits add <amount> [--account id] [--db file | --database url]',
    '',
    'Shows a balance and its last movements, or tops an existing account up by a positive whole number of credits.',
    ...LEDGER,
  ],
  index: [
    'Usage: content-analysis index add <folder|jsonl> [--index file | --database url [--database-schema name]]',
    '',
    'Adds documents to the persisted plagiarism source index.',
    '  --index <file>  the index (default $CONTENT_ANALYSIS_SOURCES or .data/sources.sqlite)',
    '  --database <postgres://…>  the index shared by `serve --database` nodes, when no --index is given',
    '                  (default $CONTENT_ANALYSIS_DATABASE_URL); --database-schema its schema (default public)',
  ],
  openapi: ['Usage: content-analysis openapi', '', 'Prints the OpenAPI 3.1 document of the HTTP API.'],
};

/** The usage of one command, or undefined for a name that is no command. */
export function commandUsage(engine: Engine, command: string | undefined): string | undefined {
  if (command === undefined) return undefined;
  const service = SERVICE_USAGES[command];
  if (service) return service.join('\n');
  const feature = engine.features.list().find((f) => f.cli?.command === command);
  if (!feature) return undefined;
  return [
    `Usage: content-analysis ${command} ${featureArguments(feature)} [--compact]`,
    `       content-analysis ${command} --jsonl [file|-] [--progress]`,
    '',
    feature.cli!.summary,
    'Each input is a file, an http(s) URL, or - for standard input; --<input> <value> gives the value itself.',
    ...(feature.cli!.options ?? []).map((o) => `  --${flag(o.field)} <${flag(o.field)}>`.padEnd(28) + o.description),
    ...(command === 'ai-text' ? ['  --calibration <file>'.padEnd(28) + 'apply a calibration profile (content-analysis calibrate ai-text)'] : []),
    // The model flags, in this usage's 28-character column.
    ...(['ai-content-detection', 'image-detection'].includes(feature.id)
      ? MODEL_USAGE.map((l) => l.replace(/^ {29}/, ' '.repeat(28)).replace(/^( {2}--\S+ <[^>]+>)\s+/, (_, f: string) => f.padEnd(28)))
      : []),
    '  --compact'.padEnd(28) + 'print the result on one line',
    '  --jsonl [file|-]'.padEnd(28) + 'one JSON request per line in, one result per line out (default -, standard input)',
    '  --sources, --index, --evidence: plagiarism sources and fact-check evidence (content-analysis --help)',
  ].join('\n');
}
