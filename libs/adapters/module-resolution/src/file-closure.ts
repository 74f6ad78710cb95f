/**
 * A resolver for languages whose imports name files and bind no names (Ruby `require`, C/C++
 * `#include`): an import resolves to the one file `target` names, and a file's scope is every file
 * it reaches through its imports, directly or transitively (sorted; computed once per file).
 */
import { excludedTarget } from '@docforge/core';
import type { ImportTarget, LanguageResolver, ResolveContext, TreeImport } from './types.js';

/** Whether a project path counts as present: a file of the build, or (for {@link LanguageResolver.excluded}) one an exclude glob matches. */
export type PathTest = (path: string) => boolean;

/**
 * The resolver over one build whose import `spec` of `file` names the file `target(file, spec, has)`
 * returns, `has` telling which paths are files of the build (null: nothing in the project, counted
 * unresolved). `excluded` asks the same rules with `has` answering the paths an exclude glob matches.
 */
export function fileClosureResolver(context: ResolveContext, target: (file: string, spec: string, has: PathTest) => string | null): LanguageResolver {
  const files = new Set(context.paths);
  const has: PathTest = (path) => files.has(path);
  const direct = new Map<string, string[]>();
  const importsOf = (file: string): string[] => {
    let out = direct.get(file);
    if (out === undefined) {
      out = [...new Set((context.data.get(file)?.imports ?? []).map((imp) => target(file, imp.spec, has)).filter((f): f is string => f !== null))];
      direct.set(file, out);
    }
    return out;
  };
  const closures = new Map<string, string[]>();
  return {
    resolve(file: string, imp: TreeImport): ImportTarget | null {
      const found = target(file, imp.spec, has);
      return found === null ? null : { files: [found], bindings: [] };
    },
    excluded(file: string, imp: TreeImport): { path: string; glob: string } | null {
      const path = target(file, imp.spec, (p) => excludedTarget(context.resolver, [p]) !== null);
      return path === null ? null : excludedTarget(context.resolver, [path]);
    },
    scope(file: string): readonly string[] {
      const cached = closures.get(file);
      if (cached !== undefined) return cached;
      const seen = new Set<string>([file]);
      const queue = [file];
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        for (const imported of importsOf(next)) {
          if (!seen.has(imported)) {
            seen.add(imported);
            queue.push(imported);
          }
        }
      }
      seen.delete(file);
      const out = [...seen].sort();
      closures.set(file, out);
      return out;
    },
  };
}
