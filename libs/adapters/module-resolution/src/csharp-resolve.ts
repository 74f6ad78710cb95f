/**
 * C# `using` resolution by namespace declarations: a namespace is the set of project files that
 * declare it (their first `namespace`). `using N;` makes the types of N's files visible by bare
 * name (after the file's own namespace and its parents), `using A = N;` binds `A` to N's files,
 * `using A = N.T;` binds `A` to the type T, and `using static N.T;` gives T's file and binds nothing.
 */
import { ApiTable } from '@docforge/core';
import type { ImportTarget, LanguageResolver, ResolveContext, TreeImport } from './types.js';

/** The C# import rules over one build (LanguageSpec.resolver). */
export function csharpResolver(context: ResolveContext): LanguageResolver {
  const byNamespace = new Map<string, string[]>();
  for (const path of context.paths) {
    const ns = context.data.get(path)?.package ?? '';
    byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), path]);
  }
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
