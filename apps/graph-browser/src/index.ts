/**
 * The graph-browser worker: fastify on 127.0.0.1 over one exact index snapshot, token-bound, read-only; serves the web UI (issues 12, 13).
 */
export {};
