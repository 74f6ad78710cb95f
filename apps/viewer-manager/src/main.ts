/**
 * Entry of the viewer manager daemon (`docforge-viewer-manager`). Spawned detached by
 * @docforge/viewer-client; finds the graph-browser worker launcher through the package's `bin`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { daemonOptionsFromEnv, runDaemon } from './daemon.js';

function workerBin(): string {
  const manifest = createRequire(import.meta.url).resolve('@docforge/graph-browser/package.json');
  const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> }).bin;
  const rel = typeof bin === 'string' ? bin : bin === undefined ? undefined : Object.values(bin)[0];
  if (rel === undefined) throw new Error('@docforge/graph-browser declares no bin');
  return path.resolve(path.dirname(manifest), rel);
}

const clean = await runDaemon(daemonOptionsFromEnv(workerBin()));
process.exitCode = 0;
if (!clean) process.stderr.write('docforge-viewer-manager: another manager holds the lock; exiting\n');
