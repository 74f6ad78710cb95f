/**
 * What the three visualization tools share (contract: Visualization boundary; DESIGN.md section
 * 6): the viewer manager's launcher path (resolved here, in the app, since libs never resolve
 * apps), one connection per call timed as diagnostics stage `viewer_manager` with its requests
 * counted as `viewer_requests`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { DiagnosticsCollector } from '@docforge/policy';
import { connectViewerManager, type ViewerManagerClient } from '@docforge/viewer-client';

/** The fixed built-in template every visualization uses. */
export const VIEWER_TEMPLATE = 'graph-browser@17' as const;

let managerBinCache: string | null = null;

/** Absolute path of the `docforge-viewer-manager` launcher (`bin` of @docforge/viewer-manager). @throws Error when the package declares no bin (a packaging defect) */
export function viewerManagerBin(): string {
  if (managerBinCache !== null) return managerBinCache;
  const manifest = createRequire(import.meta.url).resolve('@docforge/viewer-manager/package.json');
  const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: Record<string, string> }).bin?.['docforge-viewer-manager'];
  if (bin === undefined) throw new Error('@docforge/viewer-manager declares no docforge-viewer-manager bin');
  managerBinCache = path.resolve(path.dirname(manifest), bin);
  return managerBinCache;
}

/**
 * Runs `fn` with a connection to the per-user viewer manager (spawned detached when `spawn` and
 * none runs) and closes it afterwards; the manager and its workers keep running.
 * With `spawn` false and no manager running, `fn` receives null.
 * @throws DocforgeError `viewer_unavailable`, `protocol_version_unsupported`, or whatever `fn` throws
 */
export async function withViewerManager<T>(spawn: boolean, diagnostics: DiagnosticsCollector | null, fn: (client: ViewerManagerClient | null) => Promise<T>): Promise<T> {
  let client: ViewerManagerClient | null = null;
  const run = async (): Promise<T> => {
    client = await connectViewerManager({ managerBin: viewerManagerBin(), client: 'docforge-mcp', spawn });
    return fn(client);
  };
  try {
    return diagnostics ? await diagnostics.timeAsync('viewer_manager', run) : await run();
  } finally {
    const used = client as ViewerManagerClient | null;
    if (used !== null) {
      diagnostics?.count('viewer_requests', used.requests);
      used.close();
    }
  }
}
