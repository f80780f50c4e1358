// Loaded into a server the benchmark starts as the operator would (`node --import this bin.js serve`): answers the
// parent's event-loop delay reads over the IPC channel (loopDelay.mjs) without keeping the process alive.
import { answerLoopDelay } from './loopDelay.mjs';

if (process.send) {
  answerLoopDelay();
  process.channel?.unref();
}
