// Characters per second of the AI-text detector on one core, for 1k, 10k and 150k-character texts, with sentence
// scores on and off, against the ONNX call alone (the same model on one feature vector) measured in the same run.
// Usage: node_modules/.bin/tsc -b packages/classifiers && node benchmarks/ai-text/bench.mjs [--version 1.1.0]
import { Bench } from 'tinybench';
import { createAiTextDetector, loadModel } from '../../packages/classifiers/dist/index.js';

// Prose written for this benchmark; numbered parts so the long text does not repeat exactly.
const PROSE =
  'The library on Elm Street opened an hour late on Monday because the heating had failed over the weekend. ' +
  'Staff wrapped themselves in coats and handed out blankets to the few readers who came in anyway. ' +
  'By noon a technician had found the fault, a cracked valve in a boiler older than most of the staff. ' +
  'The council says a replacement is planned for next spring, though it said the same thing two years ago. ';
const textOf = (chars) => {
  let out = '';
  for (let i = 1; out.length < chars; i++) out += `Part ${i}. ${PROSE}\n\n`;
  return out.slice(0, chars);
};

const versionAt = process.argv.indexOf('--version');
const version = versionAt === -1 ? undefined : process.argv[versionAt + 1];
const detector = await createAiTextDetector({ threads: 1, ...(version ? { version } : {}) });
const model = await loadModel('ai-text', { threads: 1, version: detector.version });
const width = model.card.feature_names.length;
const vector = new Float32Array(width).fill(1);
const bench = new Bench({ time: 1500, warmupTime: 300 });
bench.add('onnx call alone (1 row)', async () => {
  await model.run(vector, 1);
});
const sizes = [1_000, 10_000, 150_000];
for (const size of sizes) {
  const text = textOf(size);
  for (const sentences of [false, true]) {
    bench.add(`${size} chars, sentences ${sentences ? 'on' : 'off'}`, async () => {
      await detector.detect(text, { sentences, language: 'en' });
    });
  }
}
await bench.run();
const onnx = bench.tasks[0].result;
console.log(`detector ${detector.version}, Node ${process.version}, onnxruntime threads 1`);
console.log('task'.padEnd(32), 'mean ms'.padStart(10), 'chars/s'.padStart(12), 'x onnx call'.padStart(12));
for (const task of bench.tasks) {
  const size = Number(task.name.split(' ')[0]) || 0;
  const mean = task.result.latency?.mean ?? task.result.mean;
  const onnxMean = onnx.latency?.mean ?? onnx.mean;
  console.log(
    task.name.padEnd(32), mean.toFixed(3).padStart(10),
    (size ? Math.round(size / (mean / 1000)).toLocaleString('en') : '-').padStart(12),
    (mean / onnxMean).toFixed(1).padStart(12),
  );
}
