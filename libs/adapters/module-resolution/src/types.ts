/**
 * The shapes import resolution works on: one import as written ({@link TreeImport}), what a
 * language's rules read of the build ({@link ResolveContext}), and what they answer
 * ({@link ImportTarget}, {@link LanguageResolver}). The tree-sitter adapters build the context
 * from their link data and call the rules; this lib never reads a syntax tree.
 */
import type { ModuleResolver } from '@docforge/core';

/**
 * One import as written: Go `import x "a/b"` (spec `a/b`, alias `x`), Rust `use crate::a::B as C`
 * (spec `crate::a::B`, alias `C`), Java `import a.b.C;` (spec `a.b.C`), `import a.b.*;` (spec
 * `a.b.*`), `import static a.b.C.m;` (spec `a.b.C.m`, `static: true`), Rust `mod m;` (spec `mod m`).
 */
export interface TreeImport {
  /** 1-based line of the import statement. */
  line: number;
  spec: string;
  /** The name the import binds when written explicitly (Go `x "a/b"`, Rust `as C`); null otherwise. */
  alias: string | null;
  /** Java `import static`. */
  static?: boolean;
  /** Qualified name of the definition the import is written in (a Rust inline `mod` or function); absent at file level. */
  scope?: string;
}

/** What the import rules read of one file's link data (the tree-sitter adapters' TreeLinkData has these fields). */
export interface ResolveFileData {
  /** Go `package` name, Java `package` name, C# and PHP namespace; null when none. */
  readonly package: string | null;
  readonly imports: readonly TreeImport[];
}

/** Resolution context a language's import rules read. */
export interface ResolveContext {
  /** Files of this language in the build (project-relative POSIX paths, sorted). */
  readonly paths: readonly string[];
  readonly resolver: ModuleResolver;
  /** Link data by path (only files of this language). */
  readonly data: ReadonlyMap<string, ResolveFileData>;
  /** Top-level definition qualified names of a file (definitions and lexical defs). */
  defsOf(path: string): ReadonlyMap<string, { id: string; kind: string; exported: boolean }>;
}

/** What an import resolves to: the files it makes visible and the names it binds in the importer. */
export interface ImportTarget {
  /** Files the import edge goes to (project files only). */
  files: string[];
  /**
   * Bindings: name in the importer → what it names: a namespace of files (`pkg.F`, `mod::f`) or
   * one definition (a Java class, a Rust item) by file and qualified name.
   */
  bindings: { name: string; files?: string[]; def?: { file: string; qname: string } }[];
  /** Files whose top-level definitions become visible by bare name, after the file's own scope (C# `using N;`). */
  opens?: string[];
  /** Types whose `static` members become visible by bare name after the single static imports (Java `import static a.b.C.*;`). */
  openTypes?: { file: string; qname: string }[];
}

/** Per-language import resolution. */
export interface LanguageResolver {
  /** Resolves one import of `file`; null when it names nothing in the project (counted unresolved). */
  resolve(file: string, imp: TreeImport): ImportTarget | null;
  /** Files whose top-level definitions a bare name in `file` sees besides the file itself (Go: its package's files; Java: its package's). */
  scope(file: string): readonly string[];
  /**
   * For an import {@link resolve} answers null for: the project path it would have named and the `[sources].exclude` glob
   * that leaves that path out (core's `excludedTarget`), or null (issue 30: worded as `unresolved_import`). Absent: never.
   */
  excluded?(file: string, imp: TreeImport): { path: string; glob: string } | null;
  /** Files a path head names that is no definition or import (Rust `crate`, `self`, `super` in a call in `owner`), or null. */
  pathHead?(file: string, owner: string, head: string): readonly string[] | null;
  /** Files `file` opens without writing an import, as an on-demand import opens them (Java's implicit `java.lang.*`). */
  implicitOpens?(file: string): readonly string[];
}
