// Compiled by scripts/pack-check.mjs against the installed tarballs with `strict`, `moduleResolution: nodenext`
// and `skipLibCheck: false`: the documented calls type-check without a cast.
import { MemoryLedger } from '@content-analysis/credits';
import { extractPdf } from '@content-analysis/documents';
import { Engine } from '@content-analysis/engine';
import type { RunResult } from '@content-analysis/engine';
import { compareTexts } from '@content-analysis/text-compare';

const engine = new Engine();
await engine.warmUp(['text-compare']);

const aiText = await engine.run('ai-content-detection', { text: 'A text of at least three hundred characters.' });
const textScore: number = aiText.result.score;
const textResult: RunResult<'ai-content-detection'> = aiText.result;

const aiImage = await engine.run('image-detection', { image: 'iVBORw0KGgo=' });
const imageScore: number = aiImage.result.score;
const imageResult: RunResult<'image-detection'> = aiImage.result;

const compared = await engine.run('text-compare', { first_text: 'a b c', second_text: 'a b d' });
const similarity: number = compared.result.similarity_score;

const ledger = new MemoryLedger();
const account = await ledger.createAccount();
const { token } = await ledger.createToken(account.id);
const metered = await new Engine({ ledger }).execute('text-compare', { first_text: 'a b c', second_text: 'a b d' }, { token });
const remaining: number = metered.creditsRemaining;

const direct: number = compareTexts('a b c', 'a b d').similarity_score;
const pdf = await extractPdf(new Uint8Array());
const pages: number = pdf.pages.length;

console.log(textScore, textResult.score, imageScore, imageResult.score, similarity, remaining, direct, pages);
