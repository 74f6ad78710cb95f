/** @docforge/stdio: the stdout guard of MCP processes and worker threads, the MCP frames stream over fd 3, and the stderr logger loaded on first use. */
export { guardStdout } from './stdout-guard.js';
export { framesStream } from './frames-stream.js';
export { lazyStderrLogger } from './lazy-logger.js';
