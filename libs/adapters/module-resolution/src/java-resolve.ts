/**
 * Java import resolution: packages are folders under the source roots, found from each file's
 * `package` declaration (`src/main/java/a/b/C.java` declaring `package a.b` gives the root
 * `src/main/java`). `import a.b.C;` binds `C` to the type `C` of `a/b/C.java` under any root
 * (nested `a.b.C.D` to `C.D`); `import static a.b.C.m;` binds `m` to the member `C.m`; `a.b.*`
 * makes the package's types visible by bare name after the file's own package, and `import static
 * a.b.C.*;` the static members of `C` after the single static imports. A bare type name also sees
 * the types of its own package, in every root, and then, as an on-demand import, the project's own `java.lang` types (java-lang.ts).
 */
import { ApiTable, excludedTarget } from '@docforge/core';
import type { ImportTarget, LanguageResolver, ResolveContext, TreeImport } from './types.js';
import { javaLangOpens } from './java-lang.js';

function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Source roots and the files of each package. */
function index(context: ResolveContext): { roots: string[]; byPackage: Map<string, string[]> } {
  const roots = new Set<string>();
  const byPackage = new Map<string, string[]>();
  for (const path of context.paths) {
    const pkg = context.data.get(path)?.package ?? '';
    const folder = pkg.replace(/\./g, '/');
    const dir = dirname(path);
    if (dir === folder) roots.add('');
    else if (folder === '' ) roots.add(dir);
    else if (dir.endsWith(`/${folder}`)) roots.add(dir.slice(0, dir.length - folder.length - 1));
    byPackage.set(pkg, [...(byPackage.get(pkg) ?? []), path]);
  }
  return { roots: [...roots].sort(), byPackage };
}

/**
 * The project paths a Java import names under `roots` (the root '' when the build has none): the
 * file of its class, `a/b/C.java` for `a.b.C`, `a.b.C.D`, `a.b.C.m` or `a.b.C.*` (the first name
 * written with a capital letter is the class, as Java names are written; without one, every
 * prefix, longest first), and the package folder `a/b` for `a.b.*`.
 */
function javaCandidates(roots: readonly string[], spec: string): string[] {
  const parts = spec.split('.');
  const under = roots.length === 0 ? [''] : roots;
  const at = (root: string, rel: string): string => (root === '' ? rel : `${root}/${rel}`);
  const names = parts[parts.length - 1] === '*' ? parts.slice(0, -1) : parts;
  if (names.length === 0 || names.some((name) => name === '')) return [];
  const type = names.findIndex((name) => name[0]! >= 'A' && name[0]! <= 'Z');
  const cuts = type >= 0 ? [type + 1] : names.map((_, i) => names.length - i);
  const out = cuts.flatMap((cut) => under.map((root) => at(root, `${names.slice(0, cut).join('/')}.java`)));
  if (type < 0 && names !== parts) out.unshift(...under.map((root) => at(root, names.join('/'))));
  return out;
}

/** The Java import rules over one build (LanguageSpec.resolver). */
export function javaResolver(context: ResolveContext): LanguageResolver {
  const { roots, byPackage } = index(context);
  const files = new Set(context.paths);
  const fileOf = (parts: readonly string[]): string | null => {
    for (const root of roots) {
      const candidate = [root, `${parts.join('/')}.java`].filter((p) => p !== '').join('/');
      if (files.has(candidate)) return candidate;
    }
    return null;
  };
  return {
    resolve(_file: string, imp: TreeImport): ImportTarget | null {
      const parts = imp.spec.split('.');
      if (parts[parts.length - 1] === '*') {
        const pkg = parts.slice(0, -1).join('.');
        const inPackage = byPackage.get(pkg);
        // On demand: the package's types (or a class's static members) are visible by bare name after the file's own
        // package, a weaker tier than single-type imports (ImportTarget.opens, openTypes).
        if (inPackage !== undefined && imp.static !== true) return { files: inPackage, bindings: [], opens: inPackage };
        const type = fileOf(parts.slice(0, -1));
        if (type === null) return null;
        return imp.static === true ? { files: [type], bindings: [], openTypes: [{ file: type, qname: parts[parts.length - 2] as string }] } : { files: [type], bindings: [] };
      }
      // The longest prefix naming a file is the top-level type; the rest are nested names.
      for (let cut = parts.length; cut >= 1; cut -= 1) {
        const file = fileOf(parts.slice(0, cut));
        if (file === null) continue;
        const type = parts[cut - 1] as string;
        const qname = [type, ...parts.slice(cut)].join('.');
        const name = parts[parts.length - 1] as string;
        return { files: [file], bindings: [{ name, def: { file, qname } }] };
      }
      return null;
    },
    // The files (and, for `a.b.*`, the package folder) the import would name under each source root, longest name first.
    excluded: (_file, imp) => excludedTarget(context.resolver, javaCandidates(roots, imp.spec)),
    scope(file: string): readonly string[] {
      return byPackage.get(context.data.get(file)?.package ?? '') ?? [];
    },
    implicitOpens(file: string): readonly string[] {
      return javaLangOpens(byPackage, context.data.get(file)?.package ?? '');
    },
  };
}

/** Public Java names for doc mentions: `package.Type` and `package.Type.member` of public declarations. */
export function javaApi(context: ResolveContext): Record<string, string[]> {
  const table = new ApiTable();
  for (const path of context.paths) {
    const pkg = context.data.get(path)?.package ?? null;
    if (pkg === null) continue;
    for (const [qname, def] of context.defsOf(path)) if (def.exported && !qname.includes('~')) table.add(`${pkg}.${qname}`, def.id);
  }
  return table.toRecord();
}
