/** A project made of a registry package as published, fetched by `npm pack` at test time (never a committed copy). */
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './projects.js';

/**
 * `npm pack <spec>` into a fresh temp dir, the tarball extracted there (its `package/` prefix
 * stripped) and `descriptor` written as docforge.toml; returns the dir.
 * @throws Error when npm or tar fails (no registry access: the test fails, it does not skip)
 */
export function npmPackProject(spec: string, descriptor: string, prefix = 'docforge-npm-'): string {
  const dir = tempDir(prefix);
  execFileSync('npm', ['pack', spec, '--pack-destination', dir, '--loglevel', 'warn'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack ${spec} wrote no tarball`);
  execFileSync('tar', ['xzf', tarball, '--strip-components=1'], { cwd: dir });
  rmSync(path.join(dir, tarball));
  writeFileSync(path.join(dir, 'docforge.toml'), descriptor);
  return dir;
}
