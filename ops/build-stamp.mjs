// Up-to-date checks for the build scripts (issue 29 item 7): `npm test` right after `npm ci` (whose
// `prepare` built everything) rebuilds nothing, and an edited source still rebuilds what it feeds.
// A build writes a stamp beside its outputs: a key (what else decides the output: the script and its
// helpers' hashes, esbuild's version, the output folder's real path), and the SHA-256 of every input
// and output file. The outputs are current while the key is the same, every output is intact, and
// every input has its recorded content and is not newer than the oldest output: the last rule is
// the one the build pool applies at run time (a bundle with an input newer than it is never used).
// The launchers' bundles are stricter (libs/accelerate bundleState: any change of an input's size,
// mtime, ctime or inode), so their scripts also ask bundleState before keeping a bundle: a bundle
// this check keeps is one they use. Paths are stored relative to the
// stamp's folder. `--force` on a script's command line skips the check.
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The installed esbuild's version, read from its package.json (importing esbuild costs far more). */
export function esbuildVersion() {
  return JSON.parse(readFileSync(require.resolve('esbuild/package.json'), 'utf8')).version;
}

/** SHA-256 (hex) of a file's bytes. Throws when it cannot be read. */
export function fileHash(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** True when `argv` asks for a rebuild regardless of the stamp. */
export function forced(argv = process.argv) {
  return argv.includes('--force');
}

/**
 * True when the stamp at `stampFile` records `key` and its outputs and inputs are as described in
 * the file header. Any unreadable file or malformed stamp means "not current" (the build runs).
 */
export function stampIsCurrent(stampFile, key) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch (error) {
    if (error && error.code !== 'ENOENT') console.error(`build-stamp: ${stampFile} unreadable (${error.message}); rebuilding`);
    return false;
  }
  if (!stamp || JSON.stringify(stamp.key) !== JSON.stringify(key) || typeof stamp.outputs !== 'object' || typeof stamp.inputs !== 'object') return false;
  const dir = path.dirname(stampFile);
  const same = (entries, check) => Object.entries(entries).every(([relative, hash]) => {
    const file = path.resolve(dir, relative);
    try {
      return lstatSync(file).isFile() && check(file) && fileHash(file) === hash;
    } catch (error) {
      if (error && error.code !== 'ENOENT') throw error;
      return false;
    }
  });
  const outputs = Object.keys(stamp.outputs);
  if (outputs.length === 0) return false;
  let oldest = Infinity;
  if (!same(stamp.outputs, (file) => ((oldest = Math.min(oldest, statSync(file).mtimeMs)), true))) return false;
  return same(stamp.inputs, (file) => statSync(file).mtimeMs <= oldest);
}

/**
 * Records `key`, `inputs` and `outputs` (absolute paths) in `stampFile`, through a temp file and a
 * rename. Call it after the outputs are written.
 */
export function writeStamp(stampFile, key, inputs, outputs) {
  const dir = path.dirname(stampFile);
  const hashes = (files) => Object.fromEntries([...new Set(files)].sort().map((file) => [path.relative(dir, file), fileHash(file)]));
  const text = `${JSON.stringify({ key, outputs: hashes(outputs), inputs: hashes(inputs) }, null, 2)}\n`;
  writeFileSync(`${stampFile}.tmp`, text);
  renameSync(`${stampFile}.tmp`, stampFile);
}

/** Removes a stamp (before a build rewrites its outputs, so a failed build is never "current"). */
export function dropStamp(stampFile) {
  rmSync(stampFile, { force: true });
}
