/**
 * Ruby `require` resolution: `require_relative "x"` (recorded as `./x`) is `x.rb` beside the
 * requiring file; `require "a/b"` is `a/b.rb` under a load-path folder, every folder named `lib`
 * holding Ruby files of the build (the one holding the requiring file first; a name found under
 * two other `lib` folders is not proven and stays unresolved). A require binds no name: Ruby loads
 * a file's constants globally, so a file's bare constants see what it requires, directly or
 * through the files those require (its scope, the transitive closure).
 */
import { posix } from 'node:path';
import type { LanguageResolver, ResolveContext } from './types.js';
import { fileClosureResolver, type PathTest } from './file-closure.js';

/** The `lib` folders that hold files of the build (`lib`, `gems/a/lib`), sorted. */
function loadPath(paths: readonly string[]): string[] {
  const roots = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    parts.forEach((part, i) => {
      if (part === 'lib' && i < parts.length - 1) roots.add(parts.slice(0, i + 1).join('/'));
    });
  }
  return [...roots].sort();
}

/** The Ruby require rules over one build (LanguageSpec.resolver). */
export function rubyResolver(context: ResolveContext): LanguageResolver {
  const roots = loadPath(context.paths);
  const target = (file: string, spec: string, has: PathTest): string | null => {
    if (spec === '') return null;
    const withExt = spec.endsWith('.rb') ? spec : `${spec}.rb`;
    if (spec.startsWith('.')) {
      const joined = posix.normalize(posix.join(posix.dirname(file), withExt));
      return has(joined) ? joined : null;
    }
    const own = roots.filter((root) => file.startsWith(`${root}/`)).map((root) => `${root}/${withExt}`).find((c) => has(c));
    if (own !== undefined) return own;
    const found = roots.map((root) => `${root}/${withExt}`).filter((c) => has(c));
    return found.length === 1 ? (found[0] as string) : null;
  };
  return fileClosureResolver(context, target);
}
