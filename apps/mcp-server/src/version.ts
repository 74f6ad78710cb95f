/**
 * The server's version, in a module of its own so that `docforge-mcp --version` (main.ts) reads
 * it without loading the server's module graph.
 */
import { readFileSync } from 'node:fs';

/**
 * The version of this package (`apps/mcp-server/package.json`), reported in `initialize` and by
 * `docforge-mcp --version`. Read once from the package file beside the compiled code.
 */
export const SERVER_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
