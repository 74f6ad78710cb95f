/**
 * `entrypoint` capabilities from package.json files (the link step of linkTypeScript): the modules
 * a package.json names as `main` or `bin` (string or map), for every package.json in the project
 * root or in a directory holding linked files (outside node_modules). Targets resolve relative to
 * their package.json like relative specifiers.
 */
import type { ModuleResolver } from '@docforge/core';
import type { Resolution } from './resolve.js';
import { packageDirectories } from '@docforge/ts-paths';

/**
 * Capabilities by module node id (`['entrypoint']`).
 * @param paths the linked files' paths
 * @param resolve resolves a specifier as written in the file at `from` (a package.json path here)
 * @param entrypointId the module node id for a resolved file, or null when it has no module (a
 *   module whose parse already set `entrypoint` is listed too: the capability is a union)
 */
export function packageEntrypoints(
  paths: readonly string[], resolver: ModuleResolver, resolve: (from: string, specifier: string) => Resolution,
  entrypointId: (path: string) => string | null,
): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const dir of packageDirectories(paths)) {
    const manifest = dir === '' ? 'package.json' : `${dir}/package.json`;
    const text = resolver.readText(manifest);
    if (text === null) continue;
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (json === null || typeof json !== 'object') continue;
    const targets: string[] = [];
    if (typeof json['main'] === 'string') targets.push(json['main']);
    const bin = json['bin'];
    if (typeof bin === 'string') targets.push(bin);
    else if (bin !== null && typeof bin === 'object') {
      for (const value of Object.values(bin as Record<string, unknown>)) if (typeof value === 'string') targets.push(value);
    }
    for (const target of targets) {
      const specifier = target.startsWith('./') || target.startsWith('../') ? target : `./${target}`;
      const resolution = resolve(manifest, specifier);
      if (resolution.kind !== 'file') continue;
      const id = entrypointId(resolution.path);
      if (id !== null) result[id] = ['entrypoint'];
    }
  }
  return result;
}
