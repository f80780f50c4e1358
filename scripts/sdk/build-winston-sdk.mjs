// Builds the official Winston AI Node SDK (gowinston-ai/ai-detector-node, Apache-2.0; not on
// the npm registry this project can reach) from its fetched repository into .data/winston-sdk (git-ignored), for
// scripts/sdk/winston-sdk-check.mjs. The repository comes from the workplace's fetch tool: a bare copy under
// $CONTENT_ANALYSIS_MIRRORS (default /work/.mirror) as gowinston-ai+ai-detector-node/repo.
// Usage: node scripts/sdk/build-winston-sdk.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const COMMIT = '1ae2cb1';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const gitDir = join(process.env.CONTENT_ANALYSIS_MIRRORS ?? '/work/.mirror', 'gowinston-ai+ai-detector-node/repo');
if (!existsSync(gitDir)) {
  console.error(`NOT BUILT: the SDK repository ${gitDir} is missing (fetch github:gowinston-ai/ai-detector-node first; ` +
    'the SDK is not on the npm registry)');
  process.exit(2);
}
const out = join(root, '.data/winston-sdk');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'src'), { recursive: true });
for (const file of ['HttpsClient', 'WinstonAIClient', 'WinstonAIError', 'index', 'type']) {
  const source = execFileSync('git', ['--git-dir', gitDir, 'show', `${COMMIT}:src/${file}.ts`]);
  writeFileSync(join(out, 'src', `${file}.ts`), source);
}
writeFileSync(join(out, 'tsconfig.json'), JSON.stringify({
  compilerOptions: {
    module: 'commonjs', target: 'es2020', lib: ['es2020', 'dom'], esModuleInterop: true, strict: true,
    outDir: 'dist', rootDir: 'src', skipLibCheck: true, types: [],
  },
  include: ['src'],
}));
writeFileSync(join(out, 'package.json'), '{ "type": "commonjs" }\n');
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(out, 'tsconfig.json')], { stdio: 'inherit' });
console.log(`built the Winston AI SDK @ ${COMMIT} into ${join(out, 'dist')}`);
