/**
 * `docforge render [VIEW]` (issue 11 item 5; contract "Render boundary": declared project output is
 * rendered only through this explicit local CLI command). Synchronizes the index, renders the
 * declared views from that publication through the fixed registry, writes each output atomically
 * and its version-1 render publication receipt under `<state>/renders/`.
 * `docforge render --status [VIEW] [--deep]` prints the render status instead (writes nothing).
 */
import { IndexManager } from '@docforge/sync';
import { deepRenderStatus, openPublishedGraph, readerGraph, renderDeclaredViews, renderStatus, type ViewRenderStatus } from '@docforge/render';
import { progressReporter, type SyncOptions } from './commands.js';
import { printLine as print, printRaw } from './terminal.js';

/** Options of `docforge render`. */
export interface RenderCommandOptions extends SyncOptions {
  /** `--status`: report instead of rendering. */
  status: boolean;
  /** `--deep` (with `--status`): run the full-render equivalence oracle. */
  deep: boolean;
}

/** Renders declared views (all, or `view`); exit 0, or 1 when the index could not be brought up to date. */
export async function runRender(root: string, view: string | undefined, options: RenderCommandOptions): Promise<number> {
  if (options.status) return runRenderStatus(root, view, options);
  const manager = new IndexManager({ root, noAst: false, onWarning: (message, details) => options.logger.warn(details, message) });
  const reporter = progressReporter(process.stderr, options.progress);
  try {
    const sync = await manager.sync(reporter.onProgress ? { onProgress: reporter.onProgress } : {}).finally(() => reporter.finish());
    const p = sync.publication;
    const written = await renderDeclaredViews(sync.descriptor, readerGraph(manager.reader()), {
      project_id: p.project_id, generation: p.generation, source_identity: p.source_identity, source_hash: p.source_hash,
    }, view === undefined ? {} : { view });
    if (options.json) printRaw(JSON.stringify({ generation: p.generation, staleness: sync.staleness, views: written }, null, 2));
    else {
      for (const w of written) print(`rendered ${w.view} -> ${w.output} (${w.bytes} bytes)`);
      if (written.length === 0) print('no views declared ([[views]] in docforge.toml)');
      if (sync.sync_error) print(`  stale: rendered from the last good index generation ${p.generation}: ${sync.sync_error.code}: ${sync.sync_error.message}`);
    }
    return sync.sync_error ? 1 : 0;
  } finally {
    await manager.close();
  }
}

function printStatus(statuses: readonly ViewRenderStatus[], json: boolean, deep: boolean): void {
  if (json) {
    printRaw(JSON.stringify({ deep, views: statuses }, null, 2));
    return;
  }
  for (const s of statuses) print(`${s.status.padEnd(10)} ${s.view} -> ${s.output} (${s.reason})${s.status === 'current' ? '' : `; run: ${s.command}`}`);
  if (statuses.length === 0) print('no views declared ([[views]] in docforge.toml)');
}

/** `docforge render --status`: cheap status (no sync, no writes), or with `--deep` the oracle. Exit 1 when any view is not current. */
async function runRenderStatus(root: string, view: string | undefined, options: RenderCommandOptions): Promise<number> {
  const manager = new IndexManager({ root, noAst: false, onWarning: (message, details) => options.logger.warn(details, message) });
  try {
    const descriptor = manager.descriptor();
    const sourceIdentity = manager.cheapIdentity();
    let statuses: ViewRenderStatus[];
    if (!options.deep) statuses = renderStatus(descriptor, view === undefined ? { sourceIdentity } : { sourceIdentity, view });
    else {
      const published = openPublishedGraph(manager.layout(), sourceIdentity);
      try {
        statuses = await deepRenderStatus(descriptor, { sourceIdentity, graph: published?.graph ?? null, ...(view === undefined ? {} : { view }) });
      } finally {
        published?.close();
      }
    }
    printStatus(statuses, options.json, options.deep);
    return statuses.every((s) => s.status === 'current') ? 0 : 1;
  } finally {
    await manager.close();
  }
}
