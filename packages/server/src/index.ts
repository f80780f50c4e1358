export { TOOL_SERVER_PATH, close, createApiServer, listen } from './httpServer.js';
export type { ApiServerOptions } from './httpServer.js';
export { RateLimiter } from './rateLimiter.js';
export type { RateDecision, RateLimitOptions } from './rateLimiter.js';
export { handleToolServer } from './toolServer.js';
export type { ToolServerContext } from './toolServer.js';
export { ServerConfigError } from './errors.js';
