/**
 * `docforge viewer status|stop` (DESIGN.md section 1; `viewer open` is a read command in read-tools.ts): reports or stops the graph-browser workers
 * of the project (or, with --all, of every project and the per-user manager itself). Never starts
 * a manager: with none running, status says so and stop has nothing to do.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DocforgeError } from '@docforge/core';
import { IndexManager, resolveProjectRoot } from '@docforge/sync';
import { combineFreshness, connectViewerManager, sourceFreshness, type Freshness, type ViewerManagerClient, type WorkerRecord } from '@docforge/viewer-client';
import { printLine, terminalSafe } from './terminal.js';
import { refuseInput } from './cli-error.js';

/** Options of {@link runViewer}. */
export interface ViewerCommandOptions {
  json: boolean;
  /** Every project (status), or the whole manager (stop). */
  all: boolean;
}

function managerBin(): string {
  const manifest = createRequire(import.meta.url).resolve('@docforge/viewer-manager/package.json');
  const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: Record<string, string> }).bin?.['docforge-viewer-manager'];
  if (bin === undefined) throw new Error('@docforge/viewer-manager declares no docforge-viewer-manager bin');
  return path.resolve(path.dirname(manifest), bin);
}

/** A worker with the freshness `docforge_visualization_status` reports for it (contract: Visualization boundary). */
type FreshWorker = WorkerRecord & { snapshot_state: Freshness; freshness: { index: Freshness; source: Freshness } };

/**
 * The workers, each with its freshness as `docforge_visualization_status` gives it: the index
 * state (the manager's stat-only signature check) and the source state (the project's cheap source
 * identity, an lstat walk, against the snapshot's), combined as stale when either is stale and
 * current only when both are. A worker that is not running, or whose project folder is gone, has
 * source state `unknown`. Never synchronizes or builds.
 */
async function withFreshness(workers: readonly WorkerRecord[]): Promise<FreshWorker[]> {
  const identities = new Map<string, string | null>();
  for (const root of new Set(workers.filter((w) => w.state === 'running').map((w) => w.project_root))) {
    if (!existsSync(root)) continue;
    const manager = new IndexManager({ root, noAst: false });
    try {
      identities.set(root, manager.cheapIdentity());
    } finally {
      await manager.close();
    }
  }
  return workers.map((w) => {
    const source = sourceFreshness(w.state === 'running' ? identities.get(w.project_root) ?? null : null, w.signature.source_identity);
    const index: Freshness = w.state === 'running' ? w.signature_state : 'unknown';
    return { ...w, snapshot_state: combineFreshness(index, source), freshness: { index, source } };
  });
}

function workerLine(w: FreshWorker): string {
  const where = w.port === null ? '' : ` http://127.0.0.1:${w.port}/`;
  const ended = w.exit === null ? '' : ` (${w.exit.reason}${w.exit.signal ? `, ${w.exit.signal}` : ''})`;
  const why = w.freshness.source === 'stale' ? ' (sources changed since; run docforge sync)' : '';
  return terminalSafe(`${w.worker_id}  ${w.state}${ended}  snapshot ${w.snapshot_state}${why}  generation ${w.signature.generation}${where}  ${w.project_root}  last activity ${w.last_activity_at}`);
}

/**
 * The project root whose workers `viewer status|stop` name: the resolved project root, or, when the
 * project folder no longer exists, the absolute path as given, so the workers of a deleted project
 * can still be listed and stopped (their records keep the root they were started for).
 * @throws DocforgeError `project_root_invalid` when the folder exists but is not a project
 */
function viewerRoot(rootArg: string): string {
  try {
    return resolveProjectRoot(rootArg);
  } catch (error) {
    const given = path.resolve(rootArg);
    if (error instanceof DocforgeError && error.code === 'project_root_invalid' && !existsSync(given)) return given;
    throw error;
  }
}

/**
 * Runs `docforge viewer <action>`.
 * @returns the exit code: 0, or 2 for an unknown action
 * @throws DocforgeError `project_root_invalid` (not with --all; a folder that no longer exists is
 *   taken as given, see {@link viewerRoot}), `viewer_unavailable`
 */
export async function runViewer(rootArg: string, action: string | undefined, options: ViewerCommandOptions): Promise<number> {
  if (action !== 'status' && action !== 'stop') return refuseInput(options.json, `viewer needs open, status or stop${action === undefined ? '' : ` (got ${JSON.stringify(action)})`}`, 'viewer');
  const root = options.all ? null : viewerRoot(rootArg);
  const client: ViewerManagerClient | null = await connectViewerManager({ managerBin: managerBin(), client: 'docforge', spawn: false });
  try {
    if (action === 'status') {
      const listed = client === null ? null : root === null ? await client.listWorkers() : { manager: null, workers: (await client.workerStatus(root)).workers };
      const workers = await withFreshness(listed?.workers ?? []);
      if (options.json) {
        printLine(JSON.stringify({ manager_running: client !== null, manager: client?.manager ?? null, project_root: root, workers }));
        return 0;
      }
      if (client === null) {
        printLine('viewer manager: not running');
        return 0;
      }
      printLine(`viewer manager: running (pid ${client.manager.pid}, since ${client.manager.started_at})`);
      if (workers.length === 0) printLine(root === null ? 'no workers' : 'no workers for this project');
      for (const w of workers) printLine(workerLine(w));
      return 0;
    }
    const stopped = client === null ? [] : root === null ? (await client.shutdown()).stopped : (await client.stopWorker({ project_root: root })).stopped;
    if (options.json) printLine(JSON.stringify({ manager_running: client !== null, stopped, manager_stopped: client !== null && root === null }));
    else if (client === null) printLine('viewer manager: not running; nothing to stop');
    else printLine(`stopped ${stopped.length} worker${stopped.length === 1 ? '' : 's'}${root === null ? ' and the viewer manager' : ''}`);
    return 0;
  } finally {
    client?.close();
  }
}
