/**
 * Shared by the incremental-build tests: the index a fresh process builds from scratch, to compare
 * an incremental publication with.
 *
 * Reference builds are shared by source tree (issue 29 item 7): a tree's reference is its index
 * built from scratch by a new IndexManager in a fresh copy, kept under the run's reference folder
 * (REFERENCES_ENV, which ops/run-tests.mjs creates for a run and removes after it; without it, a
 * folder of this process) by the SHA-256 of the tree (every path, file mode, file content and
 * symlink target the copy takes) and of the DOCFORGE_* environment. A test file that compares with a tree another
 * file (or an earlier step) already built reads the same published index file instead of building it again; the
 * comparison itself still runs on that file. The folder lives one run: the built code cannot change under it.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { IndexManager } from '../src/index.js';

/** Where a run's reference builds are shared between test files (set by ops/run-tests.mjs). */
export const REFERENCES_ENV = 'DOCFORGE_TEST_REFERENCES';

/** The copy's filter, as every full build here has used: no state dir. */
const copied = (src: string): boolean => !src.includes(`${path.sep}.docforge`);

/**
 * SHA-256 (hex) of the tree `root` as fullBuildOf copies it (sorted relative paths, kinds, modes,
 * contents, symlink targets) and of the build-relevant environment (DOCFORGE_* but REFERENCES_ENV).
 */
export function sourceTreeHash(root: string): string {
  const hash = createHash('sha256');
  const env = Object.entries(process.env).filter(([k]) => k.startsWith('DOCFORGE_') && k !== REFERENCES_ENV).sort(([a], [b]) => a.localeCompare(b));
  hash.update(JSON.stringify(env));
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (!copied(full)) continue;
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

const processReferences = path.join(os.tmpdir(), `docforge-references-${process.pid}`);

/** The reference folder of this run, created when missing; a folder of this process (removed at its exit) without REFERENCES_ENV. */
function referencesDir(): string {
  const shared = process.env[REFERENCES_ENV];
  if (shared) {
    mkdirSync(shared, { recursive: true });
    return shared;
  }
  if (!existsSync(processReferences)) {
    mkdirSync(processReferences, { recursive: true });
    process.once('exit', () => rmSync(processReferences, { recursive: true, force: true }));
  }
  return processReferences;
}

/** Builds `root`'s copy from scratch (asserting a full build) into `into`/.docforge; returns the published index file's name. */
async function buildFromScratch(root: string, into: string): Promise<string> {
  cpSync(root, into, { recursive: true, filter: copied });
  const manager = new IndexManager({ root: into, noAst: false });
  try {
    const outcome = await manager.sync();
    assert.equal(outcome.stats!.mode, 'full');
    return outcome.publication.index_file;
  } finally {
    await manager.close();
  }
}

/**
 * The reference of `root`'s tree: a folder holding `.docforge/index/<file>` of its build from
 * scratch, and that file's name. Built at most once per tree and run (two files asking at once may
 * both build; the first to rename its folder into place is kept).
 */
async function referenceOf(root: string): Promise<{ dir: string; file: string }> {
  const base = referencesDir();
  const dir = path.join(base, sourceTreeHash(root));
  const marker = path.join(dir, 'reference.json');
  // One line per use (`reused|built HASH TEST-FILE`): how often a run shares its references.
  const use = (how: string): void => appendFileSync(path.join(base, 'uses.log'), `${how} ${path.basename(dir)} ${path.basename(process.argv[1] ?? '')}\n`);
  if (existsSync(marker)) {
    use('reused');
    return { dir, file: (JSON.parse(readFileSync(marker, 'utf8')) as { file: string }).file };
  }
  const fresh = mkdtempSync(path.join(os.tmpdir(), 'docforge-full-build-'));
  const staged = mkdtempSync(path.join(base, 'staged-'));
  try {
    const file = await buildFromScratch(root, fresh);
    mkdirSync(path.join(staged, '.docforge'));
    cpSync(path.join(fresh, '.docforge', 'index'), path.join(staged, '.docforge', 'index'), { recursive: true });
    writeFileSync(path.join(staged, 'reference.json'), JSON.stringify({ file }));
    use('built');
    try {
      renameSync(staged, dir);
    } catch (error) {
      // Another file published this tree's reference first: same tree, same build; use that one.
      if (!existsSync(marker)) throw error;
    }
    return { dir, file };
  } finally {
    rmSync(fresh, { recursive: true, force: true });
    rmSync(staged, { recursive: true, force: true });
  }
}

/**
 * Returns `snapshot` of the index a new IndexManager builds from scratch (a full build, asserted)
 * of a copy of `root`'s sources (not its state dir), read from the tree's shared reference (see the
 * file header): built once per distinct tree and run.
 * @param snapshot reads what the test compares from (the reference's root, index file name)
 */
export async function fullBuildOf<T>(root: string, snapshot: (root: string, indexFile: string) => T): Promise<T> {
  const reference = await referenceOf(root);
  return snapshot(reference.dir, reference.file);
}

/**
 * Rows of a published index file of `root` (`.docforge/index/<file>`), per named query, each row as
 * the JSON of its column values: what the incremental-build tests compare.
 */
export function indexRows<K extends string>(root: string, file: string, queries: Record<K, string>): Record<K, string[]> {
  const db = new Database(path.join(root, '.docforge', 'index', file), { readonly: true });
  try {
    const out = {} as Record<K, string[]>;
    for (const key of Object.keys(queries) as K[]) {
      out[key] = (db.prepare(queries[key]).all() as Record<string, unknown>[]).map((r) => JSON.stringify(Object.values(r)));
    }
    return out;
  } finally {
    db.close();
  }
}

/** The examples' file the comment edits go to. */
export const EDITED_CODE = 'src/shared/retry.ts';

/**
 * Appends the one comment line the incremental-build tests use as "an edit nothing reads" to
 * `root`/EDITED_CODE. The same text everywhere, so a copy of examples/ after k such edits is the same
 * tree in every test and file, and its reference build (fullBuildOf) is shared.
 */
export function appendCommentEdit(root: string): void {
  appendFileSync(path.join(root, EDITED_CODE), '\n// an edit\n');
}
