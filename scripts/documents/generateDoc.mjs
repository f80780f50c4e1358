// Converts the generated DOCX to a legacy Word 97-2003 .doc with LibreOffice, once; the small result is committed
// so that tests need no LibreOffice. Command used (LibreOffice 7.4, Debian 12 `libreoffice-writer-nogui`):
//   soffice --headless --convert-to 'doc:MS Word 97' tables-footnotes.docx
// Run: `node scripts/documents/generateDoc.mjs` after `generate.mjs`. The expected text is the DOCX one without
// the inline footnote markers, which the .doc format keeps as a special character and not as text.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/documents');
const work = mkdtempSync(join(tmpdir(), 'doc-fixture-'));
copyFileSync(join(root, 'tables-footnotes.docx'), join(work, 'legacy.docx'));
execFileSync('soffice', ['--headless', '--convert-to', 'doc:MS Word 97', 'legacy.docx', '--outdir', work], { cwd: work, stdio: 'inherit' });
copyFileSync(join(work, 'legacy.doc'), join(root, 'legacy.doc'));
const expected = readFileSync(join(root, 'tables-footnotes.txt'), 'utf8').replace(/(\S)\[\d+\]/g, '$1');
writeFileSync(join(root, 'legacy.txt'), expected);
console.log('legacy.doc and legacy.txt written');
