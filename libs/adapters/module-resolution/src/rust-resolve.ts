/**
 * Rust `use` and `mod` resolution within the crate and the Cargo workspace: the crate of a file is
 * the nearest folder with a Cargo.toml; `src/lib.rs`/`src/main.rs` (and each file of `src/bin/`,
 * `tests/`, `benches/`, `examples/`) is a crate root; `mod x;` is `x.rs` or `x/mod.rs` beside a
 * root or `mod.rs`, else in the folder named after the file. Paths start at `crate`, `self`,
 * `super`, a crate of the workspace by its library name, or a child module; items are followed
 * through `pub use` re-exports. Anything else (std, other crates) is unresolved.
 */
import { ApiTable, excludedTarget } from '@docforge/core';
import type { ImportTarget, LanguageResolver, ResolveContext, TreeImport } from './types.js';

/** Re-export chains longer than this are not followed. */
const MAX_DEPTH = 8;

function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function join(...parts: string[]): string {
  return parts.filter((part) => part !== '').join('/');
}

/**
 * `name` and `[lib] name` of a Cargo.toml text (the library name: `[lib] name`, else the package
 * name with `-` as `_`). Read line by line, tracking the current table header, so the work is linear
 * in the text whatever its blank lines.
 */
export function cargoLibName(text: string): string | null {
  const names = new Map<string, string>();
  let table = '';
  for (const line of text.split('\n')) {
    const header = /^[ \t]*\[[ \t]*([A-Za-z0-9_.-]+)[ \t]*\][ \t]*(?:#.*)?\r?$/.exec(line);
    if (header !== null) table = header[1] as string;
    else if ((table === 'lib' || table === 'package') && !names.has(table)) {
      const name = /^[ \t]*name[ \t]*=[ \t]*"([^"]+)"/.exec(line)?.[1];
      if (name !== undefined) names.set(table, name);
    }
  }
  const name = names.get('lib') ?? names.get('package');
  return name === undefined ? null : name.replace(/-/g, '_');
}

/** A module: a file and the inline `mod` path inside it. */
interface Module {
  file: string;
  inline: string[];
}

type Resolved = { kind: 'module'; module: Module } | { kind: 'item'; file: string; qname: string };

class RustRules {
  readonly files: Set<string>;
  /** Crate folder (holding Cargo.toml) → library name. */
  readonly crates = new Map<string, string | null>();
  readonly crateOfDir = new Map<string, string | null>();

  constructor(readonly context: ResolveContext) {
    this.files = new Set(context.paths);
  }

  crateDir(file: string): string | null {
    const start = dirname(file);
    const seen: string[] = [];
    let found: string | null = null;
    for (let dir = start; ; dir = dirname(dir)) {
      const memo = this.crateOfDir.get(dir);
      if (memo !== undefined) {
        found = memo;
        break;
      }
      seen.push(dir);
      const text = this.context.resolver.readText(join(dir, 'Cargo.toml'));
      if (text !== null && /\[package\]/.test(text)) {
        this.crates.set(dir, cargoLibName(text));
        found = dir;
        break;
      }
      if (dir === '') break;
    }
    for (const dir of seen) this.crateOfDir.set(dir, found);
    return found;
  }

  /** The crate root a file belongs to (src/lib.rs or src/main.rs for src/ files; a file of bin/, tests/, benches/, examples/ is its own root). */
  rootOf(file: string): string | null {
    const crate = this.crateDir(file);
    if (crate === null) return null;
    const rel = crate === '' ? file : file.slice(crate.length + 1);
    if (/^(src\/bin|tests|benches|examples)\/[^/]+\.rs$/.test(rel) || rel === 'src/lib.rs' || rel === 'src/main.rs' || rel === 'build.rs') return file;
    if (!rel.startsWith('src/')) return null;
    for (const root of ['src/lib.rs', 'src/main.rs']) if (this.files.has(join(crate, root))) return join(crate, root);
    return null;
  }

  isRoot(file: string): boolean {
    return this.rootOf(file) === file;
  }

  /** Folder holding the files of a module file's child modules. */
  childDir(file: string): string {
    return this.isRoot(file) || file.endsWith('/mod.rs') || file === 'mod.rs' ? dirname(file) : file.replace(/\.rs$/, '');
  }

  childFile(file: string, name: string): string | null {
    const dir = this.childDir(file);
    for (const candidate of [join(dir, `${name}.rs`), join(dir, name, 'mod.rs')]) if (this.files.has(candidate)) return candidate;
    return null;
  }

  /** The module whose child `file` is (null for a crate root). */
  parentFile(file: string): string | null {
    if (this.isRoot(file)) return null;
    const root = this.rootOf(file);
    const moduleDir = file.endsWith('/mod.rs') ? dirname(file) : file.replace(/\.rs$/, '');
    const parentDir = dirname(moduleDir);
    if (root !== null && parentDir === dirname(root)) return root;
    for (const candidate of [`${parentDir}.rs`, join(parentDir, 'mod.rs')]) if (this.files.has(candidate)) return candidate;
    return null;
  }

  isNamespace(file: string, qname: string): boolean {
    return this.context.defsOf(file).get(qname)?.kind === 'namespace';
  }

  /** The module of an import written in `file` inside scope `scope` (its leading inline modules). */
  moduleAt(file: string, scope: string | undefined): Module {
    const inline: string[] = [];
    for (const part of scope === undefined || scope === '' ? [] : scope.split('.')) {
      if (!this.isNamespace(file, [...inline, part].join('.'))) break;
      inline.push(part);
    }
    return { file, inline };
  }

  /** One step down from a module: a child module (inline or file), an item, or an item re-exported there. */
  step(module: Module, name: string, depth: number): Resolved | null {
    const qname = [...module.inline, name].join('.');
    if (this.isNamespace(module.file, qname)) return { kind: 'module', module: { file: module.file, inline: [...module.inline, name] } };
    if (module.inline.length === 0) {
      const child = this.childFile(module.file, name);
      if (child !== null) return { kind: 'module', module: { file: child, inline: [] } };
    }
    if (this.context.defsOf(module.file).has(qname)) return { kind: 'item', file: module.file, qname };
    if (depth >= MAX_DEPTH) return null;
    // A `use` in that module binding `name` (a re-export, or a private import seen by a child).
    const scope = module.inline.join('.');
    for (const imp of this.context.data.get(module.file)?.imports ?? []) {
      if ((imp.scope ?? '') !== scope || imp.spec.endsWith('*') || imp.spec.startsWith('mod ')) continue;
      const bound = imp.alias ?? imp.spec.split('::').pop();
      if (bound === name) return this.resolvePath(module.file, imp, depth + 1);
    }
    return null;
  }

  parent(module: Module): Module | null {
    if (module.inline.length > 0) return { file: module.file, inline: module.inline.slice(0, -1) };
    const parent = this.parentFile(module.file);
    return parent === null ? null : { file: parent, inline: [] };
  }

  /** The start of a path: `crate`, `self`, `super`, a workspace crate by name, or a child module or item of the current module. */
  start(file: string, here: Module, head: string, depth: number): Resolved | null {
    if (head === 'crate') {
      const root = this.rootOf(file);
      return root === null ? null : { kind: 'module', module: { file: root, inline: [] } };
    }
    if (head === 'self') return { kind: 'module', module: here };
    if (head === 'super') {
      const parent = this.parent(here);
      return parent === null ? null : { kind: 'module', module: parent };
    }
    const local = this.step(here, head, depth);
    if (local !== null) return local;
    for (const [dir, name] of this.crates) {
      if (name !== head) continue;
      const lib = join(dir, 'src/lib.rs');
      if (this.files.has(lib)) return { kind: 'module', module: { file: lib, inline: [] } };
    }
    return null;
  }

  resolvePath(file: string, imp: TreeImport, depth: number): Resolved | null {
    this.crateDir(file);
    const here = this.moduleAt(file, imp.scope);
    const parts = imp.spec.split('::').filter((part) => part !== '*');
    const [head, ...rest] = parts;
    if (head === undefined) return null;
    let at = this.start(file, here, head, depth);
    for (const part of rest) {
      if (at === null || at.kind !== 'module') return null;
      at = part === 'super' ? ((m) => (m === null ? null : { kind: 'module' as const, module: m }))(this.parent(at.module)) : part === 'self' ? at : this.step(at.module, part, depth);
    }
    return at;
  }

  resolve(file: string, imp: TreeImport): ImportTarget | null {
    if (imp.spec.startsWith('mod ')) {
      const name = imp.spec.slice(4);
      const module = this.moduleAt(file, imp.scope);
      const child = module.inline.length === 0 ? this.childFile(file, name) : null;
      return child === null ? null : { files: [child], bindings: [{ name, files: [child] }] };
    }
    const found = this.resolvePath(file, imp, 0);
    if (found === null) return null;
    const name = imp.alias ?? imp.spec.split('::').pop() ?? '';
    if (found.kind === 'item') return { files: [found.file], bindings: imp.spec.endsWith('*') ? [] : [{ name, def: { file: found.file, qname: found.qname } }] };
    const module = found.module;
    const bindings = imp.spec.endsWith('*') || module.inline.length > 0 ? [] : [{ name, files: [module.file] }];
    return { files: [module.file], bindings };
  }
}

/** The Rust import rules over one build (LanguageSpec.resolver); a bare name sees only its own file. */
export function rustResolver(context: ResolveContext): LanguageResolver {
  const rules = new RustRules(context);
  return {
    resolve: (file, imp) => rules.resolve(file, imp),
    // `mod m;` whose `m.rs` or `m/mod.rs` an exclude glob leaves out (issue 30).
    excluded: (file, imp) => (imp.spec.startsWith('mod ') && imp.scope === undefined
      ? excludedTarget(context.resolver, [join(rules.childDir(file), `${imp.spec.slice(4)}.rs`), join(rules.childDir(file), imp.spec.slice(4), 'mod.rs')]) : null),
    scope: () => [],
    pathHead(file, owner, head) {
      if (head !== 'crate' && head !== 'self' && head !== 'super') return null;
      const found = rules.start(file, rules.moduleAt(file, owner), head, 0);
      return found?.kind === 'module' && found.module.inline.length === 0 ? [found.module.file] : null;
    },
  };
}

/**
 * Public Rust names for doc mentions: `crate_name.Item` for `pub` items of the crate root's file
 * and `crate_name.module.Item` for those of `src/<module>.rs` (methods `crate_name.Type.method`),
 * dotted as mentions are read (`::` reads as `.`).
 */
export function rustApi(context: ResolveContext): Record<string, string[]> {
  const table = new ApiTable();
  const rules = new RustRules(context);
  for (const path of context.paths) {
    const crate = rules.crateDir(path);
    const name = crate === null ? null : rules.crates.get(crate) ?? null;
    if (name === null || name === undefined || crate === null) continue;
    const rel = crate === '' ? path : path.slice(crate.length + 1);
    if (!rel.startsWith('src/') || rel.startsWith('src/bin/')) continue;
    const module = rel === 'src/lib.rs' || rel === 'src/main.rs' ? [] : rel.slice(4).replace(/(\/mod)?\.rs$/, '').split('/');
    for (const [qname, def] of context.defsOf(path)) {
      if (qname.includes('~') || def.kind === 'namespace' || !def.exported) continue;
      table.add([name, ...module, qname].join('.'), def.id);
    }
  }
  return table.toRecord();
}
