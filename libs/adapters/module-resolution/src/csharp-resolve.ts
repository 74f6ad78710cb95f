/**
 * C# `using` resolution by namespace declarations: a namespace is the set of project files that
 * declare it (their first `namespace`). `using N;` makes the types of N's files visible by bare
 * name (after the file's own namespace and its parents), `using A = N;` binds `A` to N's files,
 * `using A = N.T;` binds `A` to the type T, and `using static N.T;` gives T's file and binds nothing.
 */
import { ApiTable, excludedTarget } from '@docforge/core';
import type { ImportTarget, LanguageResolver, ResolveContext, TreeImport } from './types.js';

/**
 * Folders by namespace, as the build's files lay them out: a file of namespace `A.B` in folder
 * `src/A/B` gives `A.B` -> `src/A/B`, and, while the folder's last names are the namespace's last
 * names, `A` -> `src/A` and the root namespace '' -> `src` (the first file of a namespace decides).
 */
function namespaceFolders(context: ResolveContext): Map<string, string> {
  const out = new Map<string, string>();
  for (const path of context.paths) {
    let ns = (context.data.get(path)?.package ?? '').split('.').filter((part) => part !== '');
    let dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')).split('/') : [];
    for (;;) {
      const key = ns.join('.');
      if (!out.has(key)) out.set(key, dir.join('/'));
      if (ns.length === 0 || dir.length === 0 || dir[dir.length - 1] !== ns[ns.length - 1]) break;
      ns = ns.slice(0, -1);
      dir = dir.slice(0, -1);
    }
  }
  return out;
}

/**
 * The project paths a `using` of `spec` names: below the folder of the longest known namespace
 * that prefixes it, the folder of the rest (`using A.B.C;` -> `src/A/B/C`) and, for a type, its
 * file (`src/A/B/C.cs`).
 */
function csharpCandidates(folders: ReadonlyMap<string, string>, spec: string): string[] {
  const parts = spec.split('.');
  if (parts.some((part) => part === '')) return [];
  for (let cut = parts.length; cut >= 0; cut -= 1) {
    const folder = folders.get(parts.slice(0, cut).join('.'));
    if (folder === undefined) continue;
    const rest = parts.slice(cut).join('/');
    if (rest === '') return [];
    const path = folder === '' ? rest : `${folder}/${rest}`;
    return [path, `${path}.cs`];
  }
  return [];
}

/** The C# import rules over one build (LanguageSpec.resolver). */
export function csharpResolver(context: ResolveContext): LanguageResolver {
  const byNamespace = new Map<string, string[]>();
  for (const path of context.paths) {
    const ns = context.data.get(path)?.package ?? '';
    byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), path]);
  }
  let mapped: Map<string, string> | null = null;
  const folders = (): Map<string, string> => (mapped ??= namespaceFolders(context));
  /** The file declaring type `T` of namespace `N` for a dotted `N.T`, or null. */
  const typeFile = (dotted: string): { file: string; qname: string } | null => {
    const cut = dotted.lastIndexOf('.');
    const files = byNamespace.get(cut < 0 ? '' : dotted.slice(0, cut)) ?? [];
    const name = dotted.slice(cut + 1);
    const hits = files.filter((file) => context.defsOf(file).has(name));
    return hits.length === 1 ? { file: hits[0] as string, qname: name } : null;
  };
  return {
    resolve(_file: string, imp: TreeImport): ImportTarget | null {
      const files = byNamespace.get(imp.spec);
      if (imp.static === true) {
        const type = typeFile(imp.spec);
        return type === null ? null : { files: [type.file], bindings: [] };
      }
      if (files !== undefined && imp.spec !== '') {
        return imp.alias === null ? { files, bindings: [], opens: files } : { files, bindings: [{ name: imp.alias, files }] };
      }
      const type = imp.alias === null ? null : typeFile(imp.spec);
      return type === null || imp.alias === null ? null : { files: [type.file], bindings: [{ name: imp.alias, def: type }] };
    },
    excluded: (_file, imp) => excludedTarget(context.resolver, csharpCandidates(folders(), imp.spec)),
    scope(file: string): readonly string[] {
      const out: string[] = [];
      let ns = context.data.get(file)?.package ?? '';
      for (;;) {
        out.push(...(byNamespace.get(ns) ?? []));
        if (ns === '') break;
        ns = ns.includes('.') ? ns.slice(0, ns.lastIndexOf('.')) : '';
      }
      return out;
    },
  };
}

/** Public C# names for doc mentions: `Namespace.Type` and `Namespace.Type.Member` of public declarations. */
export function csharpApi(context: ResolveContext): Record<string, string[]> {
  const table = new ApiTable();
  for (const path of context.paths) {
    const ns = context.data.get(path)?.package ?? null;
    if (ns === null) continue;
    for (const [qname, def] of context.defsOf(path)) if (def.exported && !qname.includes('~')) table.add(`${ns}.${qname}`, def.id);
  }
  return table.toRecord();
}
