/** @docforge/stdio: the stdout guard of MCP processes and worker threads, and the stderr logger loaded on first use. */
export { guardStdout } from './stdout-guard.js';
export { lazyStderrLogger } from './lazy-logger.js';
