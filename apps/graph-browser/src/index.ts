/**
 * The graph-browser worker: fastify on 127.0.0.1 over one exact index snapshot, token-bound,
 * read-only; serves the web UI (issues 12, 13). The viewer manager forks the package's bin
 * `docforge-graph-browser` (bin/graph-browser.js); these exports serve tests and benchmarks.
 */
export { parseWorkerConfig, WORKER_CONFIG_ENV } from './config.js';
export type { GraphBrowserWorkerConfig } from './config.js';
export { startWorker, prepareWorker, uiDirectory, BUILT_UI_DIR, MINIMAL_UI_DIR } from './server.js';
export type { RunningWorker, StartWorkerOptions, PreparedWorker } from './server.js';
export { SessionStore, TOKEN_TTL_MS, cookieValue } from './session.js';
export type { IssuedToken, TradeResult } from './session.js';
export { CONTENT_SECURITY_POLICY, ACTIVITY_INTERVAL_MS } from './security.js';
export { leafName, UPSTREAM_END, FLOW_RELATIONS, WEB_RELATIONS } from './graph.js';
