/**
 * PHP `use` resolution through PSR-4: every composer.json above the project's PHP files maps
 * namespace prefixes (`autoload` and `autoload-dev`, `psr-4`) to folders; `use A\B\C;` is the file
 * the longest matching prefix maps `C` to, and binds `C` (or its alias) to the class `C` there. A
 * class no mapping reaches is the one file of namespace `A\B` declaring `C`, if exactly one does.
 * `use function A\B\f;` binds `f` to the one file of namespace `A\B` declaring function `f`; `use
 * const` and namespace aliases bind nothing. A bare name sees the files of its own namespace.
 */
import { posix } from 'node:path';
import { ApiTable, excludedTarget } from '@docforge/core';
import type { ImportTarget, LanguageResolver, ResolveContext, TreeImport } from './types.js';

interface Psr4 {
  /** Namespace prefix with its trailing backslash (`Monolog\`), or `''` for the fallback mapping. */
  prefix: string;
  /** Folder of the classes, project-relative, no trailing slash (`''` for the root). */
  dir: string;
}

/** The PSR-4 mappings of a composer.json text found in folder `root` (malformed text: none). */
export function composerPsr4(text: string, root: string): Psr4[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const out: Psr4[] = [];
  for (const section of ['autoload', 'autoload-dev']) {
    const block = (json as Record<string, unknown> | null)?.[section] as Record<string, unknown> | undefined;
    const psr4 = block?.['psr-4'];
    if (typeof psr4 !== 'object' || psr4 === null) continue;
    for (const [prefix, dirs] of Object.entries(psr4 as Record<string, unknown>)) {
      for (const dir of Array.isArray(dirs) ? dirs : [dirs]) {
        if (typeof dir !== 'string') continue;
        const joined = posix.normalize(posix.join(root === '' ? '.' : root, dir)).replace(/\/$/, '');
        out.push({ prefix: prefix === '' || prefix.endsWith('\\') ? prefix : `${prefix}\\`, dir: joined === '.' ? '' : joined });
      }
    }
  }
  return out;
}

function mappings(context: ResolveContext): Psr4[] {
  const seen = new Set<string>();
  const out: Psr4[] = [];
  for (const path of context.paths) {
    for (let dir = posix.dirname(path); ; dir = posix.dirname(dir)) {
      const root = dir === '.' ? '' : dir;
      if (seen.has(root)) break;
      seen.add(root);
      const text = context.resolver.readText(root === '' ? 'composer.json' : `${root}/composer.json`);
      if (text !== null) out.push(...composerPsr4(text, root));
      if (root === '') break;
    }
  }
  return out.sort((a, b) => b.prefix.length - a.prefix.length);
}

/** The PHP `use` rules over one build (LanguageSpec.resolver). */
export function phpResolver(context: ResolveContext): LanguageResolver {
  const files = new Set(context.paths);
  const psr4 = mappings(context);
  const byNamespace = new Map<string, string[]>();
  for (const path of context.paths) {
    const ns = context.data.get(path)?.package ?? '';
    byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), path]);
  }
  const split = (fqn: string): { ns: string; name: string } => {
    const cut = fqn.lastIndexOf('\\');
    return { ns: cut < 0 ? '' : fqn.slice(0, cut), name: fqn.slice(cut + 1) };
  };
  const declaring = (fqn: string): string | null => {
    const { ns, name } = split(fqn);
    const hits = (byNamespace.get(ns) ?? []).filter((file) => context.defsOf(file).has(name));
    return hits.length === 1 ? (hits[0] as string) : null;
  };
  // The files PSR-4 maps a class to, longest prefix first.
  const candidates = (fqn: string): string[] => psr4.filter((map) => fqn.startsWith(map.prefix)).map((map) => {
    const rel = `${fqn.slice(map.prefix.length).split('\\').join('/')}.php`;
    return map.dir === '' ? rel : `${map.dir}/${rel}`;
  });
  const classFile = (fqn: string): string | null => candidates(fqn).find((candidate) => files.has(candidate)) ?? declaring(fqn);
  return {
    resolve(_file: string, imp: TreeImport): ImportTarget | null {
      const { name } = split(imp.spec);
      const file = imp.static === true ? declaring(imp.spec) : classFile(imp.spec);
      if (file === null) return null;
      const bound = context.defsOf(file).has(name) ? [{ name: imp.alias ?? name, def: { file, qname: name } }] : [];
      return { files: [file], bindings: bound };
    },
    excluded: (_file, imp) => (imp.static === true ? null : excludedTarget(context.resolver, candidates(imp.spec))),
    scope(file: string): readonly string[] {
      return byNamespace.get(context.data.get(file)?.package ?? '') ?? [];
    },
    pathHead(_file: string, _owner: string, head: string): readonly string[] | null {
      if (!head.startsWith('\\')) return null;
      const file = classFile(head.slice(1));
      return file === null ? null : [file];
    },
  };
}

/**
 * Public PHP names for doc mentions: `Namespace.Type` and `Namespace.Type.member` of the public
 * declarations of each namespaced file (`Monolog.Registry`, `Monolog.Handler.HandlerInterface`), as
 * a page writes them `Monolog\Registry` (mentionName reads `\` between names as `.`).
 */
export function phpApi(context: ResolveContext): Record<string, string[]> {
  const table = new ApiTable();
  for (const path of context.paths) {
    const ns = (context.data.get(path)?.package ?? '').split('\\').filter((segment) => segment !== '').join('.');
    if (ns === '') continue;
    for (const [qname, def] of context.defsOf(path)) if (def.exported && !qname.includes('~')) table.add(`${ns}.${qname}`, def.id);
  }
  return table.toRecord();
}
