/**
 * The one wording, for every code adapter, of an import whose target a `[sources].exclude` glob
 * leaves out (issue 30: the TypeScript adapter named the glob, the Python and tree-sitter adapters
 * said nothing). The glob comes from {@link ModuleResolver.excludedBy}, decided by the descriptor
 * alone, so the file may well be there.
 */
import type { ModuleResolver } from './adapter.js';
import type { SourceIssue } from './model.js';

/**
 * The clause appended to an unresolved import's message before its full stop: `: its path P
 * matches [sources].exclude "G" of docforge.toml, so it is not indexed (remove that glob to index it)`.
 * A path in the state dir (`excludedBy` answers `[state].dir "DIR"`) is said to lie in the state
 * dir instead: DocForge's own exclusion is no glob the user wrote (issue 30).
 */
export function excludedClause(target: string, glob: string): string {
  if (glob.startsWith('[state].dir ')) return `: its path ${target} lies in the state dir (${glob} of docforge.toml), which DocForge never indexes (choose a state dir that holds no sources)`;
  return `: its path ${target} matches [sources].exclude "${glob}" of docforge.toml, so it is not indexed (remove that glob to index it)`;
}

/**
 * The first of `candidates` (project-relative POSIX paths an import would name, in the language's
 * search order) that a `[sources].exclude` glob matches, with that glob; null when none does, a
 * candidate leaves the root (`../`), or the resolver has no `excludedBy`.
 */
export function excludedTarget(resolver: ModuleResolver, candidates: Iterable<string>): { path: string; glob: string } | null {
  if (resolver.excludedBy === undefined) return null;
  for (const path of candidates) {
    if (path === '..' || path.startsWith('../') || path.startsWith('/')) continue;
    const glob = resolver.excludedBy(path);
    if (glob !== null) return { path, glob };
  }
  return null;
}

/**
 * The `unresolved_import` warning of an import written `specifier` on `line` of the file at
 * `path` (module node `node_id`) whose target `excluded.path` the glob `excluded.glob` leaves out:
 * "Cannot resolve module 'S' to a project file: its path P matches [sources].exclude "G" …", as the
 * TypeScript adapter words it (docs/errors.md `unresolved_import`).
 */
export function excludedImportIssue(path: string, line: number, node_id: string, specifier: string, excluded: { path: string; glob: string }): SourceIssue {
  return {
    severity: 'warning', code: 'unresolved_import', path, line, node_id,
    message: `Cannot resolve module '${specifier}' to a project file${excludedClause(excluded.path, excluded.glob)}.`,
  };
}
