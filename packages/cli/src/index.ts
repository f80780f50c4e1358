export { main } from './main.js';
export { CliError, UsageError } from './errors.js';
export type { CliIo } from './main.js';
export { runBatch } from './batch.js';
export { ledgerPath, DEFAULT_ACCOUNT } from './ledgerFile.js';
export { demoJobs, runDemo } from './demo.js';
export type { DemoLine, DemoOptions } from './demo.js';
