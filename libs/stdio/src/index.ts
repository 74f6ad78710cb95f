export { guardStdout } from './stdout-guard.js';
export { lazyStderrLogger } from './lazy-logger.js';
