import type { GraphEdge, ParsedSource, SourceIssue } from './model.js';

/** Extraction strategy from the descriptor: `ast` (compiler API, Logic allowed) or `lexical` (no AST, no Logic). */
export type AdapterStrategy = 'ast' | 'lexical';

/** Input for extracting one code file. */
export interface CodeExtractInput {
  /** Project-relative POSIX path. */
  path: string;
  /** File text (UTF-8). */
  content: string;
  strategy: AdapterStrategy;
  /** Whether Logic may be produced (false under `--no-ast` or strategy `lexical`). */
  logic: boolean;
  /**
   * Optional: the descriptor's `[adapter.NAME]` option tables by NAME, as {@link ModuleResolver.options} has them (`c`:
   * `{ include_dirs, headers }`; `headers: "c"` reads `.h` files with the C grammar). Part of the descriptor, so a change
   * rebuilds every file.
   */
  options?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** Read-only view of the project files a linker may consult to resolve module specifiers. */
export interface ModuleResolver {
  /** Whether a project-relative POSIX path is a code file known to the build. */
  hasFile(path: string): boolean;
  /** Text of a project-relative file (e.g. package.json), or null when absent or outside the root. */
  readText(path: string): string | null;
  /**
   * Optional: why {@link readText} answers null for a regular file that is there (e.g. larger than
   * the most a project text may hold), so a linker can report it; null when the file is absent.
   */
  unreadable?(path: string): string | null;
  /**
   * Optional: the `[sources].exclude` glob that matches a project-relative path, or null when none
   * does. Decided by the descriptor alone (nothing is read), so a linker can word an import into an
   * excluded folder as such rather than as a missing file. A path in the state dir, which DocForge
   * never indexes whatever the globs say, is answered `[state].dir "DIR"` (no glob the user wrote).
   */
  excludedBy?(path: string): string | null;
  /**
   * Optional: the descriptor's `[adapter.NAME]` option tables by NAME, as loaded and checked by
   * @docforge/project (`c`: `{ include_dirs: string[] }`, project-relative folders); absent or
   * empty when the project declares none.
   */
  options?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** Cross-file edges and findings produced by an adapter's link step. */
export interface LinkResult {
  edges: GraphEdge[];
  issues: SourceIssue[];
  /** Counters, e.g. `calls_total`, `calls_resolved`, `calls_unresolved`. */
  stats: Record<string, number>;
  /**
   * Capabilities the link step adds to nodes it can only classify across files (e.g. `entrypoint`
   * for modules named by a package.json `main`/`bin`), by node id. The build adds them to a copy of
   * the node (sorted, unique) and recomputes its `content_hash`; unknown ids are ignored.
   */
  capabilities?: Record<string, string[]>;
  /**
   * Per calling node id (function, method or module), how many of its call sites no declaration
   * or binding proves a target for (they get no `calls` edge); ids with none are left out.
   */
  unresolved_calls?: Record<string, number>;
  /**
   * The public API of the project's packages (issue 31 item 3): per public name as a user writes
   * it (`pino.transport`: a package specifier, then exported member names), the ids of the
   * declarations the package's entry exports and re-exports prove it names (sorted; several ids
   * mean the name is ambiguous). Documentation mentions of these names become `documents` edges.
   * A key `<declaration id>().<method>` lists the method the value a call of that function returns
   * is proven to have (a declared return type), for mentions like `logger.child()` after
   * `const logger = pino()` in the same document.
   */
  api?: Record<string, string[]>;
}

/**
 * What an adapter is, without loading it (DESIGN.md section 2: "each exports one Adapter and a
 * small manifest"): the index derives the files to walk from manifests, so an adapter's
 * extension list is written once, in its own package.
 */
export interface AdapterManifest {
  /** Adapter id, as named in `[adapter] code`, e.g. `typescript`. */
  readonly id: string;
  /** Version string; part of `adapter_version` in every response. */
  readonly version: string;
  /** File extensions handled, lower case with the dot (`.ts`). */
  readonly extensions: readonly string[];
  /**
   * Whether the adapter builds function Logic (steps and flows of functions and methods) under
   * `strategy = "ast"`; no adapter builds any under "lexical". What `docforge init` writes about
   * the strategy, and the README's list of Logic languages, come from this flag.
   */
  readonly logic: boolean;
}

/**
 * A built-in code adapter (libs/adapters/*). Extraction is per file, pure and cacheable by content
 * hash; linking resolves imports, calls and heritage across all files of the adapter and is cheap.
 */
/**
 * One file as a linker receives it. `link_data` may be read lazily: a build worker that warmed
 * from the parse cache parses a file's link data on its first read (issue 14), so a linker that
 * reads only the files it links stays cheap. `link_data_present`, when given, says whether
 * `link_data` is non-null without reading it.
 */
export type LinkInput = Pick<ParsedSource, 'path' | 'nodes' | 'link_data'> & { readonly link_data_present?: boolean };

export interface CodeAdapter {
  /** Adapter id, e.g. `typescript`. */
  id: string;
  /** Version string; part of `adapter_version` in every response. */
  version: string;
  /** File extensions handled, with the dot (`.ts`). */
  extensions: readonly string[];
  /**
   * Extracts nodes, intra-file edges, Logic and adapter-private `link_data` from one file.
   * Returns the ParsedSource fields other than the file identity fields.
   * Never throws for bad source: syntax problems become issues. `code_text` (optional) makes the
   * words inside bodies searchable (issue 31 item 1; `collectCodeText`); `review_hashes` (optional)
   * overrides the review hashes the build computes from each node's lines (issue 32; `codeReviewHashes`).
   */
  extract(input: CodeExtractInput): Pick<ParsedSource, 'nodes' | 'edges' | 'issues' | 'logic_steps' | 'logic_flows' | 'link_data' | 'code_text' | 'review_hashes'>;
  /**
   * Optional: loads on this thread what {@link CodeAdapter.extract} needs for the file `input` describes (a tree-sitter
   * grammar, loaded when the first file that needs it is parsed). Returns null when nothing is left to load, so a caller
   * awaits only then; the promise rejects (DocforgeError `internal_error`) when it cannot load, and a later call retries.
   */
  prepare?(input: Pick<CodeExtractInput, 'path' | 'strategy' | 'options'>): Promise<void> | null;
  /** Resolves cross-file edges from the `link_data` of every file this adapter extracted. */
  link(files: readonly LinkInput[], resolver: ModuleResolver): LinkResult;
  /**
   * Optional incremental form of {@link CodeAdapter.link} (issue 14): links only the files a change
   * can affect and reports each linked file's own output, so the caller keeps the outputs of the
   * others from the previous call. With `plan` null every file is linked.
   */
  linkFiles?(files: readonly LinkInput[], resolver: ModuleResolver, plan: PartialLinkPlan | null): PartialLinkResult;
  /**
   * Optional: whether a `link_data` value read back from a cache (valid JSON) has the shape this
   * adapter version's `extract` produces. A build that reads one that has not treats the cache row
   * as damaged and builds again from the sources (libs/builder lazy-link-data.ts), rather than link
   * that file as if it declared nothing.
   */
  isLinkData?(value: unknown): boolean;
}

/**
 * The linking half of a {@link CodeAdapter}, without `extract` (issue 14): what a build thread
 * needs when another thread parses its changed files, so it never loads the adapter's parser (for
 * the TypeScript adapter, the 9 MB compiler). Same id and version as the full adapter.
 */
export type CodeLinker = Omit<CodeAdapter, 'extract'>;

/** What one file's linking produced (its own edges, issues and unresolved call counts) and the files its specifiers resolve to. */
export interface FileLinkOutput {
  edges: GraphEdge[];
  issues: SourceIssue[];
  unresolved_calls: Record<string, number>;
  /** Project paths the file's import, re-export and binding specifiers resolve to (sorted, unique). */
  deps: string[];
}

/** Input of an incremental link: the files whose parse changed (or appeared) and the previous call's per-file outputs. */
export interface PartialLinkPlan {
  /** Paths whose link data changed since `previous` was produced, plus added paths. */
  changed: ReadonlySet<string>;
  /** Per path, the output of the previous call (its `deps` give the old import graph). */
  previous: ReadonlyMap<string, FileLinkOutput>;
  /**
   * Whether the set of code files `ModuleResolver.hasFile` answers for (every adapter's) changed
   * since `previous`: when false and the adapter's own files are the same, unchanged files'
   * specifiers resolve as before and their previous `deps` hold.
   */
  pathsChanged: boolean;
  /**
   * Per path, the `link_data` the previous call linked (optional): an adapter may compare a changed
   * file's previous and current link data to skip its importers when nothing they read changed.
   * Only `get` is offered: the link data may be parsed on read (see {@link LinkInput}).
   */
  previousLinkData?: Pick<ReadonlyMap<string, unknown>, 'get'>;
}

/**
 * Output of {@link CodeAdapter.linkFiles}: per re-linked file its output (files absent here keep
 * their previous output; files gone from the input are dropped by the caller), capabilities for the
 * whole input, and whether the outputs may be reused by a later incremental call: false when
 * resolution reached a cycle or the depth limit, where results can depend on the linking order.
 */
export interface PartialLinkResult {
  files: Map<string, FileLinkOutput>;
  capabilities: Record<string, string[]>;
  /** The public API names of the whole input, as {@link LinkResult.api}. */
  api?: Record<string, string[]>;
  /**
   * Findings about the whole input rather than one file (e.g. `public_api_bounded`,
   * `malformed_package_json`), recomputed by every call: the caller adds them to the per-file
   * issues. {@link LinkResult.issues} already holds them for a full link.
   */
  api_issues?: SourceIssue[];
  reusable: boolean;
}
