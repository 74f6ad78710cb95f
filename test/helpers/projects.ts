/** Temp project copies for the end-to-end tests: the example project (optionally with its prebuilt index) and parts of fastify. */
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXAMPLES_DIR, FASTIFY_DIR, FIXTURES_ENV } from './paths.js';

const created: string[] = [];
// Removed when the test file's process exits, after every server hook has closed its child.
process.on('exit', () => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
});

/** A fresh, realpath-resolved temp dir, removed when the test process exits. */
export function tempDir(prefix = 'docforge-test-'): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/**
 * Copies `source` into a fresh temp dir without any `.docforge` state, node_modules, or a top-level
 * `site/` (where `docforge render` writes the examples' declared views; gitignored, so a checkout
 * where someone rendered them copies as a fresh one); returns the copy.
 */
export function tempCopy(source: string, prefix = 'docforge-test-'): string {
  const dir = tempDir(prefix);
  const site = path.join(source, 'site');
  cpSync(source, dir, {
    recursive: true,
    filter: (src) => !src.split(path.sep).includes('.docforge') && !src.split(path.sep).includes('node_modules') && src !== site && !src.startsWith(`${site}${path.sep}`),
  });
  return dir;
}

/** Removes a directory now (temp dirs are removed at exit anyway). */
export function removeDir(dir: string): void {
  // Retries ENOTEMPTY/EBUSY: a daemon that was just told to stop may still write its last log line.
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

const FIXTURE_WAIT_MS = 120_000;

/** Sleeps the calling thread (test files are their own processes; the fixture appears from outside). */
function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The prebuilt copy of the example project made by ops/run-tests.mjs (built in the background
 * while the unit tests run: this waits for its `ready` marker), or null when the tests run
 * without it.
 * @throws Error when the fixture build failed or did not finish within two minutes.
 */
export function prebuiltExample(): string | null {
  const dir = process.env[FIXTURES_ENV];
  if (!dir) return null;
  const deadline = Date.now() + FIXTURE_WAIT_MS;
  while (!existsSync(path.join(dir, 'ready'))) {
    if (existsSync(path.join(dir, 'failed'))) throw new Error(`the example fixture build failed: ${readFileSync(path.join(dir, 'failed'), 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`the example fixture at ${dir} was not ready within ${FIXTURE_WAIT_MS} ms`);
    sleepMs(50);
  }
  return path.join(dir, 'acme-payments');
}

/**
 * A private copy of the example project in a fresh temp dir. With `state: true` (the default) the
 * copy carries the index prebuilt once by ops/run-tests.mjs (its `.docforge` dir); tests that must
 * observe a cold first build pass `state: false`. Without the prebuilt fixture (a test file run on
 * its own) the copy has no state either way. Either way the copy's first sync (a CLI sync, or a
 * server's first call) builds it from scratch, about 1 s of CPU: the publication records its index
 * file's inode and the index its root, and a copy has neither. A test that only reads uses
 * {@link sharedExampleProject}, which is current.
 */
export function exampleProjectCopy(options: { state?: boolean } = {}): string {
  const prebuilt = options.state === false ? null : prebuiltExample();
  if (prebuilt === null) return tempCopy(EXAMPLES_DIR, 'docforge-example-');
  const dir = tempDir('docforge-example-');
  cpSync(prebuilt, dir, { recursive: true, preserveTimestamps: true });
  return dir;
}

/**
 * The example project for tests that only read it: the prebuilt fixture itself, shared by every
 * such test file (its index is current, so no server builds it again), or a private copy when the
 * tests run without ops/run-tests.mjs. A test that writes anything uses exampleProjectCopy().
 */
export function sharedExampleProject(): string {
  return prebuiltExample() ?? exampleProjectCopy();
}

/** Which parts of the fastify package a project copy holds. */
export type FastifyPart = 'docs' | 'lib' | 'test' | 'types' | 'fastify.js' | 'fastify.d.ts' | 'package.json';

/**
 * A project in a fresh temp dir made of parts of the installed fastify package, with
 * `descriptor` (docforge.toml text) written at its root when given.
 */
export function fastifyProjectCopy(parts: readonly FastifyPart[], descriptor?: string, prefix = 'docforge-fastify-'): string {
  const dir = tempDir(prefix);
  for (const part of parts) cpSync(path.join(FASTIFY_DIR, part), path.join(dir, part), { recursive: true });
  if (descriptor !== undefined) writeFileSync(path.join(dir, 'docforge.toml'), descriptor);
  return dir;
}
