/**
 * Shared built fixtures (issue 29 item 7): one built copy per fixture per test run, for tests that only
 * read a project. A copy of a built project is never current (the index records its file's inode and
 * its absolute root), so a test on a private copy builds it again; a test that only reads uses the
 * one copy built at a fixed path under the run's fixture folder (FIXTURES_ENV, made and removed by
 * ops/run-tests.mjs) instead.
 *
 * Which tests may share: those that never write below the project (sources, descriptor, state dir
 * by hand) and never assert a first sync or build outcome (`rebuilt`, generation 1, "nothing built",
 * a cold build's figures). A test that writes, mutates or asserts sync/build behaviour keeps a
 * private copy. ops/run-tests.mjs fails the run when a shared fixture's publication changed.
 *
 * Key: `<name>-<first 16 hex of SHA-256>` over the fixture's files as written (sorted relative paths,
 * modes, contents, symlink targets), the DOCFORGE_* environment (but the harness's own DOCFORGE_TEST_*
 * folders) and the Node version. The folder lives one run, so the built code cannot change under it: a later run (a new
 * build) always builds its fixtures afresh. Lock: the first test process to create the key's folder
 * (mkdir is atomic) builds; the others wait for its `ready` (or `failed`) marker.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, FASTIFY_DIR, FIXTURES_ENV } from './paths.js';
import { tempDir, type FastifyPart } from './projects.js';

/** How long a test waits for another process's build of a shared fixture (a fastify build under load takes a minute). */
const SHARED_WAIT_MS = 300_000;

/** Sleeps the calling thread (the fixture is built by another test process). */
function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** SHA-256 (hex) of the tree `root` (sorted relative paths, modes, contents, symlink targets), the DOCFORGE_* environment but the harness's DOCFORGE_TEST_* folders, and the Node version. */
export function fixtureKey(root: string): string {
  const hash = createHash('sha256');
  const env = Object.entries(process.env).filter(([k]) => k.startsWith('DOCFORGE_') && !k.startsWith('DOCFORGE_TEST_')).sort(([a], [b]) => a.localeCompare(b));
  hash.update(JSON.stringify([process.version, env]));
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const relative = rel ? `${rel}/${name}` : name;
      const stat = lstatSync(full);
      hash.update(`\0${relative}\0${stat.mode}\0`);
      if (stat.isSymbolicLink()) hash.update(`link:${readlinkSync(full)}`);
      else if (stat.isDirectory()) walk(full, relative);
      else hash.update(readFileSync(full));
    }
  };
  walk(root, '');
  return hash.digest('hex');
}

/** Waits for the `ready` marker of the shared fixture folder `dir`; returns its project. @throws Error when its build failed or did not finish in time. */
function awaitShared(dir: string): string {
  const deadline = Date.now() + SHARED_WAIT_MS;
  while (!existsSync(path.join(dir, 'ready'))) {
    if (existsSync(path.join(dir, 'failed'))) throw new Error(`the shared fixture ${dir} failed to build: ${readFileSync(path.join(dir, 'failed'), 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`the shared fixture ${dir} was not ready within ${SHARED_WAIT_MS} ms`);
    sleepMs(50);
  }
  return path.join(dir, 'project');
}

/** Builds the project `dir`/project with `docforge sync` and writes `dir`/ready (and published.json, the publication ops/run-tests.mjs checks at the end), or `dir`/failed. @throws Error when the sync fails. */
function buildShared(dir: string): void {
  const project = path.join(dir, 'project');
  const run = spawnSync(process.execPath, [CLI_ENTRY, 'sync', '-C', project], { encoding: 'utf8', timeout: SHARED_WAIT_MS });
  if (run.status !== 0) {
    const output = `exit ${run.status} ${run.signal ?? ''}\n${run.stdout}${run.stderr}`;
    writeFileSync(path.join(dir, 'failed'), output);
    throw new Error(`building the shared fixture ${dir} failed: ${output}`);
  }
  writeFileSync(path.join(dir, 'published.json'), readFileSync(path.join(project, '.docforge', 'index', 'current.json')));
  writeFileSync(path.join(dir, 'ready'), run.stdout);
}

/**
 * The run's one built copy of the project `populate` writes (see the file header), for a test that
 * only reads it: built by the first test process that asks, at `<fixtures>/shared/<name>-<key>/project`.
 * Without FIXTURES_ENV (a test file run on its own) it is a private copy this process's first sync
 * builds, as before.
 * @param name a short folder-name part (letters, digits, dashes)
 * @param populate writes the project's files into the empty folder it is given
 * @throws Error when the fixture's build failed or did not finish within five minutes
 */
export function sharedProject(name: string, populate: (dir: string) => void): string {
  const base = process.env[FIXTURES_ENV];
  if (!base) {
    const dir = tempDir(`docforge-${name}-`);
    populate(dir);
    return dir;
  }
  const shared = path.join(base, 'shared');
  mkdirSync(shared, { recursive: true });
  const staging = mkdtempSync(path.join(shared, 'staging-'));
  try {
    const project = path.join(staging, 'project');
    mkdirSync(project);
    populate(project);
    const dir = path.join(shared, `${name}-${fixtureKey(project).slice(0, 16)}`);
    if (existsSync(path.join(dir, 'ready'))) return path.join(dir, 'project');
    try {
      mkdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return awaitShared(dir);
    }
    // This process holds the key: the project moves to its fixed path before it is built there.
    try {
      renameSync(project, path.join(dir, 'project'));
      buildShared(dir);
    } catch (error) {
      if (!existsSync(path.join(dir, 'failed'))) writeFileSync(path.join(dir, 'failed'), String(error));
      throw error;
    }
    return path.join(dir, 'project');
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * {@link sharedProject} of parts of the installed fastify package with `descriptor` (docforge.toml
 * text) and `extra` files (relative path to text) written into it: the shared form of
 * fastifyProjectCopy() for tests that only read.
 */
export function sharedFastifyProject(parts: readonly FastifyPart[], descriptor: string, extra: Record<string, string> = {}): string {
  return sharedProject('fastify', (dir) => {
    for (const part of parts) cpSync(path.join(FASTIFY_DIR, part), path.join(dir, part), { recursive: true });
    writeFileSync(path.join(dir, 'docforge.toml'), descriptor);
    for (const [rel, text] of Object.entries(extra)) writeFileSync(path.join(dir, rel), text);
  });
}
