/**
 * The graph model shared by every DocForge lib: nodes, edges, Logic rows, source issues and
 * the per-source parse result that the index stores and reuses for incremental builds.
 * All paths are project-relative POSIX paths; all lines are 1-based.
 */
import type { ChangesetDocument, GenerationReceipt } from '@docforge/protocol';

/**
 * A recognized heading anchor (GitHub-style slug) inside a node's source, and the section it
 * opens: from its heading line to the last content line before the next heading of the same or a
 * higher level (or the end of the file). Recorded by the Markdown parser (markdown-it), so ATX
 * (`#`) and setext (`===`/`---`) headings count and headings inside fenced code do not.
 */
export interface Anchor {
  /** GitHub-style slug, unique within the source file (`-1`, `-2` suffixes for repeats). */
  slug: string;
  /** Heading text as written. */
  title: string;
  /** Heading level 1-6. */
  level: number;
  /** 1-based line of the heading in the source file (first line of the section). */
  line: number;
  /**
   * 1-based last line of the section in the source file (inclusive; trailing blank lines before
   * the next heading are not part of it). Equals `line` for a section with no content (for a setext
   * heading, the underline line).
   */
  end_line: number;
  /**
   * Explicit HTML anchor ids (`<a id="x">`, `<a name="x">`) that also name this section, as GitHub
   * keeps them: ids standing alone right before the heading, or placed anywhere inside the section
   * (e.g. in a table row). Links to `#x` resolve here. Empty for most headings.
   */
  aliases: string[];
}

/** Where a node came from: front matter Markdown, a TOML record, plain Markdown, code or a project adapter. */
export type NodeOrigin = 'document' | 'record' | 'markdown' | 'code' | 'adapter';

/**
 * A graph node. Every field here is a "core Node field" in the sense of the contract's
 * generation diff: a change of any of them is a node change.
 */
export interface GraphNode {
  /** Stable identity: front matter id, path-derived id, or `code:<path>[#<qualified.name>]`. */
  id: string;
  kind: string;
  title: string;
  family: string | null;
  authority: string | null;
  status: string | null;
  /** Sorted, de-duplicated tags. */
  tags: string[];
  /** First paragraph of the body (at most 400 characters), or a code signature. */
  summary: string;
  /** Body text (Markdown without front matter, TOML `body`, or empty for code). */
  body: string;
  /** Project-relative POSIX path of the file that defines the node. */
  source_path: string;
  /** 1-based first line of the node in its source. */
  start_line: number;
  /** 1-based last line of the node in its source. */
  end_line: number;
  anchors: Anchor[];
  /** Code language (`typescript`, `javascript`, `python`) or null for documents. */
  language: string | null;
  /** Sorted code capabilities (`exported`, `async`, `generator`, `test`, `entrypoint`). */
  capabilities: string[];
  origin: NodeOrigin;
  /** SHA-256 hex of the canonical JSON of every other field of this node. */
  content_hash: string;
}

/**
 * Every core Node field (every {@link GraphNode} key but the identity `id` and the derived
 * `content_hash`), in the fixed order of the generation receipt's `changed_fields` (contract:
 * docforge_get_generation_diff; protocol/schemas/v1/receipt.schema.json `node_field`). The one
 * declaration of the node's field list: the receipt code, the CLI and the project loader derive
 * from it. The compile-time checks below fail when a field is added to GraphNode or to the
 * receipt schema without being listed here.
 */
export const NODE_FIELDS = Object.freeze([
  'kind', 'title', 'family', 'authority', 'status', 'tags', 'summary', 'body', 'source_path',
  'start_line', 'end_line', 'anchors', 'language', 'capabilities', 'origin',
] as const satisfies readonly ReceiptNodeField[]);

/** A core Node field (one of {@link NODE_FIELDS}). */
export type NodeField = (typeof NODE_FIELDS)[number];

/** The receipt schema's `node_field` enum, as protocol generates it. */
type ReceiptNodeField = Extract<GenerationReceipt['items'][number], { change: 'node_changed' }>['changed_fields'][number];

/**
 * The node fields a writer sets when it creates a node (front matter keys, `[[node]]` keys and a
 * changeset's `node_create` node, less its `relations` table), in the canonical key order of a
 * written node. Each is a {@link GraphNode} field and a field of protocol's `NodeFields`.
 */
export const AUTHORED_NODE_FIELDS = Object.freeze([
  'id', 'kind', 'title', 'family', 'authority', 'status', 'tags',
] as const satisfies readonly (keyof GraphNode & keyof CreatedNodeFields)[]);

/** One of {@link AUTHORED_NODE_FIELDS}. */
export type AuthoredNodeField = (typeof AUTHORED_NODE_FIELDS)[number];

/** The `node` of a changeset's `node_create` operation, as protocol generates it. */
type CreatedNodeFields = Extract<ChangesetDocument['operations'][number], { op: 'node_create' }>['node'];

/** True when the two key sets are equal; a compile error below names the one that drifted. */
type SameKeys<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never] ? true : false;
/** Compile-time ties: NODE_FIELDS = GraphNode's fields less id and content_hash = the receipt schema's enum. */
const NODE_FIELDS_MATCH_MODEL: SameKeys<NodeField, Exclude<keyof GraphNode, 'id' | 'content_hash'>> = true;
const NODE_FIELDS_MATCH_RECEIPT: SameKeys<NodeField, ReceiptNodeField> = true;
/** AUTHORED_NODE_FIELDS = protocol's created node fields less `relations`. */
const AUTHORED_FIELDS_MATCH_PROTOCOL: SameKeys<AuthoredNodeField, Exclude<keyof CreatedNodeFields, 'relations'>> = true;
void [NODE_FIELDS_MATCH_MODEL, NODE_FIELDS_MATCH_RECEIPT, AUTHORED_FIELDS_MATCH_PROTOCOL];

/** A typed relation between two nodes. Identity is the exact `(source_id, relation, target_id)` triple. */
export interface GraphEdge {
  source_id: string;
  relation: string;
  target_id: string;
  /** Project-relative path of the file that declared the edge. */
  source_path: string;
  /** 1-based line of the declaration, 0 when unknown. */
  line: number;
  /**
   * Present on a `documents` edge derived from mentions (issue 9 item 2): an inline code span or
   * link text of the document names the target code node. `sections` lists the sections that
   * mention it (first {@link MAX_MENTION_SECTIONS}, document order; `slug` is null for text before
   * the first heading). Not part of the edge identity.
   */
  mention?: { sections: MentionSection[] };
  /**
   * Review stamps of this relation (issue 32 item 1; review.ts), as its source declares them
   * (front matter `[[reviews]]`, or a plain-Markdown stamp comment), in source order; absent when
   * none. Not part of the edge identity.
   */
  reviews?: EdgeReview[];
}

/** A stamp as the relation keeps it (`GraphEdge.reviews`): which section it covers, the hash, and where it is written. */
export interface EdgeReview {
  section: string | null;
  hash: string;
  /** 1-based line of the stamp in the declaring source. */
  line: number;
}

/**
 * A review stamp as a source declares it, before it is matched to a relation: front matter
 * `[[reviews]]` (TOML) or `reviews:` (YAML) entries, or one `TARGET=HASH` pair of a plain-Markdown
 * stamp comment (which names no relation: it covers every relation from the page to the target).
 */
export interface ReviewStamp {
  source_id: string;
  /** The relation reviewed, or null for a stamp comment (every relation to `target_id`). */
  relation: string | null;
  target_id: string;
  /** Anchor slug of the section whose `documents` edge was reviewed; null for the whole node (or text before the first heading). */
  section: string | null;
  /** The target's review hash when the link was reviewed. */
  hash: string;
  /** Project-relative path and 1-based line of the stamp. */
  path: string;
  line: number;
}

/** The review hash of one node of a code file: see {@link codeReviewHashes}. */
export interface NodeReviewHash {
  node_id: string;
  hash: string;
}

/** Review state of one relation: every stamp matches its target's review hash, one does not, or it has none. */
export type ReviewState = 'reviewed' | 'suspect' | 'unreviewed';


/** A section of a document that mentions a code node (see {@link GraphEdge.mention}). */
export interface MentionSection {
  slug: string | null;
  title: string | null;
  /** 1-based line of the first mention in this section. */
  line: number;
}

/** Most sections listed on one mention-derived edge. */
export const MAX_MENTION_SECTIONS = 8;

/** One statement-level Logic step of a function or method (strategy `ast` only). */
export interface LogicStep {
  owner_id: string;
  /** 0-based index of the step inside its owner; step 0 is the entry. */
  step: number;
  /** `entry`, `statement`, `branch`, `switch`, `case`, `loop`, `return`, `throw`, `try`, `catch`, `finally`, `break`, `continue`, `exit`. */
  kind: string;
  /** Short source-derived label (at most 120 characters). */
  label: string;
  start_line: number;
  end_line: number;
}

/** A control flow between two Logic steps of the same owner. */
export interface LogicFlow {
  owner_id: string;
  from_step: number;
  to_step: number;
  /** `sequence`, `branch_true`, `branch_false`, `case`, `loop_body`, `loop_back`, `loop_exit`, `break`, `continue`, `return`, `throw`, `catch`, `finally`. */
  kind: string;
  label: string;
}

/** `info` (issue 32 item 4: coverage findings) never makes a project invalid. */
export type IssueSeverity = 'error' | 'warning' | 'info';

/** A validation finding about the project sources, reported by `docforge_validate_project`. */
export interface SourceIssue {
  severity: IssueSeverity;
  /** Stable snake_case code, e.g. `malformed_front_matter`, `duplicate_id`, `dangling_relation`. */
  code: string;
  message: string;
  /** Project-relative path of the file concerned, or null for project-level issues. */
  path: string | null;
  /** 1-based line, or null when unknown. */
  line: number | null;
  node_id: string | null;
}

/** What one source file contributed to the graph, as stored in the index for incremental reuse. */
export interface ParsedSource {
  path: string;
  /** `content` (Markdown/TOML under content roots), `code`, `descriptor` or `adapter_input`. */
  role: 'content' | 'code';
  size: number;
  /** Modification time in nanoseconds, as a decimal string (exceeds 2^53). */
  mtime_ns: string;
  /** Status change time in nanoseconds, as a decimal string. */
  ctime_ns: string;
  ino: string;
  /** SHA-256 hex of the file bytes. */
  content_hash: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  issues: SourceIssue[];
  logic_steps: LogicStep[];
  logic_flows: LogicFlow[];
  /** Adapter-private link data (JSON), resolved across files after parsing; null for documents. */
  link_data: unknown;
  /**
   * Code text of the source's code nodes (issue 31 item 1; code-text.ts), searchable but not a node
   * field: absent or empty for documents and for adapters that produce none.
   */
  code_text?: NodeCodeText[];
  /** Review hash of each node (issue 32 item 1; review.ts), in `nodes` order; absent when not computed. Not a node field. */
  review_hashes?: NodeReviewHash[];
  /** Review stamps the source declares (content sources only), matched to relations after resolution. */
  reviews?: ReviewStamp[];
}

/** The 22 relation names of the version-1 alias map, by category (contract: task context). */
export const RELATION_ALIASES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  structure: Object.freeze(['contains', 'defined_in', 'defines', 'owns']),
  implementation: Object.freeze(['implemented_by', 'implements', 'inherits', 'inherits_from']),
  dependency: Object.freeze(['depends_on', 'imports']),
  execution: Object.freeze(['activates', 'calls', 'dispatches_to', 'launches']),
  data: Object.freeze(['reads', 'writes']),
  evidence: Object.freeze(['documents', 'governs', 'proves', 'tested_by', 'verifies']),
  context: Object.freeze(['relates_to']),
});

/** Every aliased relation name, sorted. */
export const ALIASED_RELATIONS: readonly string[] = Object.freeze(
  Object.values(RELATION_ALIASES).flat().sort(),
);

/**
 * The version-1 alias category of a relation name, or `unclassified` for any other name.
 * Never infers semantics from spelling (contract: task context).
 */
export function relationCategory(relation: string): string {
  for (const [category, names] of Object.entries(RELATION_ALIASES)) {
    if (names.includes(relation)) return category;
  }
  return 'unclassified';
}

/**
 * The code text of one node, as the index stores it (libs/store `node_code`): `words` is what
 * full-text search reads, `lines` what a search excerpt shows.
 */
export interface NodeCodeText {
  node_id: string;
  /** The distinct words of the kept lines (identifiers as written, string and comment words; keywords and short numbers left out), space-separated, first occurrence first. */
  words: string;
  /** The kept lines, ascending: `<1-based line>\t<line text, trimmed, at most MAX_CODE_LINE_CHARS>`, joined by `\n`. */
  lines: string;
}
