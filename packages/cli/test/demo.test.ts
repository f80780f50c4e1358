import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoJobs, runDemo } from '../src/index.js';

const root = join(import.meta.dirname, '..', '..', '..');

describe('npm run demo (runDemo on demoJobs)', () => {
  it('prints one summary line per job: two AI texts, the image and the text comparison', async () => {
    const lines = await runDemo(demoJobs(root));
    expect(lines.map((l) => l.job)).toEqual(['ai-text', 'ai-text', 'image', 'text-compare']);
    const [note, answer, image, compare] = lines.map((l) => l.line);
    expect(note).toBe(
      `AI text  fixtures/demo/personal-note.txt: human score ${lines[0]!.result.score} / 100 -> likely human-written ` +
        '(detector 2.0.0, language en, medium confidence)',
    );
    expect(lines[0]!.result.score).toBeGreaterThan(90);
    expect(answer).toMatch(
      /^AI text {2}fixtures\/demo\/assistant-answer\.txt: human score \d+(\.\d+)? \/ 100 -> likely (AI|human)-written \(detector 2\.0\.0, language en, medium confidence\)$/,
    );
    expect(image).toMatch(
      /^Image {4}fixtures\/demo\/evening-harbour\.jpg: human score \d+ \/ 100 -> (likely AI-generated|likely human-made|the pixels are not conclusive) \(classifier version 5, the default: model 9; (low|medium|high) confidence; 640x448 image\/jpeg, no AI watermark or declaration in the file\)$/,
    );
    expect(compare).toBe(
      'Compare  fixtures/text-compare/original.txt vs fixtures/text-compare/revised.txt: similarity 92.39% ' +
        '(170 of 193 words of the first and 170 of 175 of the second match)',
    );
  });

  it('reads the verdict from the score: below 50 is AI', async () => {
    const [answer] = await runDemo({ aiTexts: [join(root, 'fixtures', 'demo', 'assistant-answer.txt')], images: [], comparisons: [], root });
    const score = answer!.result.score as number;
    expect(answer!.line).toContain(`human score ${score} / 100 -> ${score < 50 ? 'likely AI-written' : 'likely human-written'}`);
  });
});
