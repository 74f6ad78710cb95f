/**
 * Types and constants of the project descriptor `docforge.toml` (DESIGN.md section 3, schema
 * version 1), shared by loading, validation and `docforge init`.
 */
import { DESCRIPTOR_FILE_NAME, type SourceIssue } from '@docforge/core';

/** File name of the descriptor at the project root (core's DESCRIPTOR_FILE_NAME: the CLI's project discovery looks for it too). */
export const DESCRIPTOR_FILE = DESCRIPTOR_FILE_NAME;

/**
 * The floor of `[limits].max_output_chars` in characters (issue 30, item 8): the smallest limit at
 * which `docforge_bootstrap` and `docforge_get_contract` return every record the contract requires
 * (their compact forms) with a 255-character project root in every capability mode, rounded up
 * with a margin (measured 3,561 for get_contract in application mode, 1,912 for bootstrap; see
 * docs/architecture.md). A lower configured value is raised to it with a validation warning.
 */
export const MIN_MAX_OUTPUT_CHARS = 4000;

/** Largest accepted descriptor, in bytes (1 MiB); a larger docforge.toml is `descriptor_invalid`. */
export const MAX_DESCRIPTOR_BYTES = 1024 * 1024;

/** Built-in view renderers (DESIGN.md section 3). */
export type ViewRenderer = 'page' | 'catalog' | 'matrix' | 'graph';

/** Keys a view selector may hold (`select`, and a matrix's `rows` and `columns`). */
export const VIEW_SELECTOR_KEYS: readonly string[] = Object.freeze(['ids', 'kinds', 'families', 'authorities', 'statuses', 'tags', 'languages', 'capabilities']);

/**
 * A node selector of a view: every listed field narrows (within a field any value matches, across
 * fields all must; `capabilities` compose: every one is required). An empty selector selects every
 * node. Values are exact strings.
 */
export interface ViewSelector {
  ids?: string[];
  kinds?: string[];
  families?: string[];
  authorities?: string[];
  statuses?: string[];
  tags?: string[];
  languages?: string[];
  capabilities?: string[];
}

/**
 * A declared view: `[[views]]` in the descriptor (DESIGN.md section 3). Renderer-specific keys are
 * present only for their renderer: `matrix` has `rows`, `columns` and `relations`; `graph` has
 * `focus` and `depth` (default 2).
 */
export interface ViewDeclaration {
  /** View id, `^[a-z0-9][a-z0-9._-]{0,63}$`, unique in the descriptor. */
  id: string;
  title: string;
  renderer: ViewRenderer;
  /** The nodes the view shows (catalog, page); empty: every node. */
  select: ViewSelector;
  /** Project-relative POSIX output path ending in `.html`; never escapes the root, never inside the state dir or version-control metadata (issue 30), unique. */
  output: string;
  /** matrix: the row nodes. */
  rows?: ViewSelector;
  /** matrix: the column nodes. */
  columns?: ViewSelector;
  /** matrix: relation names followed from a row to a column (either direction); non-empty. */
  relations?: string[];
  /**
   * matrix: `coverage` (issue 32 item 4) draws each row against the code and the tests among the
   * `columns` nodes it reaches through `relations` (up to 3 steps, through any node), as two columns.
   */
  mode?: 'coverage';
  /** graph: the node id at the centre of the neighbourhood. */
  focus?: string;
  /** graph: how many relation hops around `focus` are shown, 1..4. */
  depth?: number;
}

/** A validated descriptor with every default filled in. */
export interface Descriptor {
  schema_version: 1;
  /** Absolute real path of the project root. */
  root: string;
  /** Absolute path of docforge.toml. */
  path: string;
  project: { id: string; name: string };
  sources: {
    /** Project-relative POSIX directories (`.` for the root) holding canonical Markdown and TOML. */
    content_roots: string[];
    /** Project-relative POSIX directories read by the code adapters. */
    code_roots: string[];
    /** picomatch globs on project-relative paths; always includes the state dir and `.git`. */
    exclude: string[];
  };
  adapter: {
    /** Built-in code adapter ids (`typescript`, `python`); empty for `none`. */
    code: string[];
    strategy: 'ast' | 'lexical';
    /** Project-relative path of a project-owned adapter module, or null. */
    module: string | null;
    /**
     * `"generic"`: the project opts into DocForge's built-in canonical applier (issue 11); null:
     * canonical application needs a project-owned adapter module exporting `canonicalApplier`.
     */
    canonical_applier: 'generic' | null;
    /**
     * `[adapter.c]`: project-relative include folders of the C/C++ adapter, in order (the loader always sets it, empty when not
     * declared; hand-built descriptors may omit it), and `headers`, the grammar of `.h` files, as declared (absent: `cpp`).
     */
    c?: { include_dirs: string[]; headers?: 'c' | 'cpp' };
  };
  /** Closed vocabularies; null means open. `relations` lists names allowed beyond the 22 aliased ones. */
  vocabulary: {
    kinds: string[] | null;
    authorities: string[] | null;
    statuses: string[] | null;
    relations: string[] | null;
  };
  limits: {
    /** Cap for every collection tool, 1..10000. */
    max_results: number;
    /**
     * The effective MCP response size limit in characters, {@link MIN_MAX_OUTPUT_CHARS}..10_000_000
     * (a configured 2000..3999 is raised to the floor, with a warning in {@link Descriptor.warnings}).
     */
    max_output_chars: number;
  };
  /** `dir` is the project-relative state directory (index, receipts, changesets). */
  state: { dir: string };
  views: ViewDeclaration[];
  /**
   * `[proposals.writers.ID]`: per-writer narrowing of the proposal policy (issue 10). A writer not
   * listed keeps the generic policy; a listed writer may use only `operations` (null: all five) on
   * paths matching one of `paths` (picomatch globs on project-relative paths; null: every path
   * inside the content roots). Nothing here widens the generic policy.
   */
  proposals: {
    writers: Record<string, ProposalWriterPolicy>;
    /**
     * `[proposals.appliers.ID]` (issue 11): whose changesets the canonical applier `ID`
     * (`--canonical-applier ID`) may apply. An applier not listed may apply any writer's.
     */
    appliers: Record<string, ApplierPolicy>;
  };
  /**
   * Findings about a valid descriptor (severity `warning`, path `docforge.toml`, with the line),
   * reported by validation like other source findings; absent when there are none. Today only
   * `max_output_chars_raised`: `[limits].max_output_chars` below {@link MIN_MAX_OUTPUT_CHARS}.
   */
  warnings?: SourceIssue[];
}

/** One `[proposals.appliers.ID]` table. */
export interface ApplierPolicy {
  /** Writer ids whose changesets this applier may apply. */
  writers: string[];
}

/** The proposal operations (issue 10; contract "Isolated proposal tools"). */
export const PROPOSAL_OPERATIONS: readonly string[] = Object.freeze(['node_create', 'node_update', 'node_move', 'relationship_update', 'node_delete', 'link_review']);

/** One `[proposals.writers.ID]` table. */
export interface ProposalWriterPolicy {
  /** Allowed operation names, a subset of {@link PROPOSAL_OPERATIONS}; null when not narrowed. */
  operations: string[] | null;
  /** Allowed path globs; null when not narrowed. */
  paths: string[] | null;
}

/** Built-in code adapter ids accepted by `[adapter].code`. */
export const BUILTIN_CODE_ADAPTERS: readonly string[] = Object.freeze(['typescript', 'python', 'go', 'rust', 'java', 'csharp', 'ruby', 'php', 'cpp']);

/** Pattern of `[project].id` (DESIGN.md section 3). */
export const ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
