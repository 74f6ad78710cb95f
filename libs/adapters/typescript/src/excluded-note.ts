/**
 * Wording of an unresolved import whose target the descriptor excludes (issue 30, new-user trial 48:
 * yargs with `build/**` excluded reported `index.mjs` importing './build/lib/yargs-factory.js' as
 * "Cannot resolve module … to a project file", though the file is there). Pure; loads no compiler.
 */
import { posix } from 'node:path';
import type { ModuleResolver } from '@docforge/core';

/**
 * For a relative specifier (`./`, `../`) of the file `from` whose normalised project path a
 * `[sources].exclude` glob matches (`ModuleResolver.excludedBy`): the clause `: its path P matches
 * [sources].exclude "G" of docforge.toml, so it is not indexed (remove that glob to index it)`,
 * appended to the message before its full stop. '' for any other specifier, a path leaving the
 * root, or a resolver without `excludedBy`. A path in the state dir (`excludedBy` answers
 * `[state].dir "DIR"`) is said to lie in the state dir instead.
 */
export function excludedNote(resolver: ModuleResolver, from: string, specifier: string): string {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return '';
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  const glob = target.startsWith('../') ? null : resolver.excludedBy?.(target) ?? null;
  if (glob === null) return '';
  // DocForge's own exclusion of its state dir (issue 30) is no glob the user wrote.
  if (glob.startsWith('[state].dir ')) return `: its path ${target} lies in the state dir (${glob} of docforge.toml), which DocForge never indexes (choose a state dir that holds no sources)`;
  return `: its path ${target} matches [sources].exclude "${glob}" of docforge.toml, so it is not indexed (remove that glob to index it)`;
}
