/** Shared paths of the end-to-end tests: the repository, its examples, fastify's package and the compiled entry points. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Repository root (the compiled helpers sit in test/dist/helpers). */
export const REPO_ROOT = path.resolve(here, '../../..');
/** The bundled example project (`examples/`, project id acme-payments). */
export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
/** The installed fastify package: real documentation and code nobody here wrote. */
export const FASTIFY_DIR = path.join(REPO_ROOT, 'node_modules', 'fastify');
/**
 * What users run as docforge-mcp: its launcher, which runs the bundled server while that is fresh
 * and the `mcp-bundle` tactic is on, else the compiled entry (apps/mcp-server/dist/src/main.js).
 */
export const MCP_ENTRY = path.join(REPO_ROOT, 'apps/mcp-server/bin/docforge-mcp.js');
/**
 * What users run as docforge: its launcher, which answers a no-change `sync` from the bundled fast
 * path and runs the bundled full CLI while those are fresh and their tactics are on (`cli-bundle`,
 * `no-change-check`, `cli-full-bundle`), else the compiled CLI. A bundled run costs about 40 % less
 * CPU than the compiled one (a search on the examples: 0.42 s against 0.63 s); test/cli-full-bundle
 * pins that both print the same, and .ci/run's accelerators-off leg runs the CLI tests on the
 * compiled CLI through this launcher.
 */
export const CLI_ENTRY = path.join(REPO_ROOT, 'apps/cli/bin/docforge.js');
/** The compiled docforge command line, for tests that compare it with the bundled paths or pin its own no-change check. */
export const CLI_COMPILED = path.join(REPO_ROOT, 'apps/cli/dist/src/main.js');
/**
 * Environment variable naming a directory prepared by ops/run-tests.mjs before `node --test`
 * starts: `<dir>/acme-payments` is a copy of `examples/` with its index already built by
 * `docforge sync` (its state dir `.docforge` included).
 */
export const FIXTURES_ENV = 'DOCFORGE_TEST_FIXTURES';
