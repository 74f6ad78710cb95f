/**
 * Wording of an unresolved import whose target the descriptor excludes (issue 30, new-user trial 48:
 * yargs with `build/**` excluded reported `index.mjs` importing './build/lib/yargs-factory.js' as
 * "Cannot resolve module … to a project file", though the file is there). Pure; loads no compiler.
 */
import { posix } from 'node:path';
import { excludedClause, excludedTarget, type ModuleResolver } from '@docforge/core';

/**
 * For a relative specifier (`./`, `../`) of the file `from` whose normalised project path a
 * `[sources].exclude` glob matches (`ModuleResolver.excludedBy`): the clause `: its path P matches
 * [sources].exclude "G" of docforge.toml, so it is not indexed (remove that glob to index it)`
 * (core's {@link excludedClause}, shared with the Python and tree-sitter adapters), appended to the
 * message before its full stop (a path in the state dir is said to lie there). '' for any other
 * specifier, a path leaving the root, or a resolver without `excludedBy`.
 */
export function excludedNote(resolver: ModuleResolver, from: string, specifier: string): string {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return '';
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  const excluded = excludedTarget(resolver, [target]);
  return excluded === null ? '' : excludedClause(excluded.path, excluded.glob);
}
