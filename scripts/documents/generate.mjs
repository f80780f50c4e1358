// Writes every fixture of fixtures/documents (documents, expected texts, hostile files). Deterministic except the
// random bytes of the encrypted and corrupt PDFs. Run from the repository root: `node scripts/documents/generate.mjs`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDocx } from './generateDocx.mjs';
import { generateHtml } from './generateHtml.mjs';
import { generatePdfs } from './generatePdfs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/documents');
const generators = [generatePdfs, generateDocx, generateHtml];
for (const generate of generators) {
  for (const [name, content] of Object.entries(generate())) {
    const path = join(root, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    console.log(`${name} ${Buffer.byteLength(content)} bytes`);
  }
}
