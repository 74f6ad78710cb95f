/**
 * SQLite schema of a published index file (DESIGN.md section 4). Published files are complete,
 * read-only snapshots: journal mode DELETE, never WAL, never written after publication.
 */
import { unspacedScriptMarks, WORD_MARK } from './segment.js';

/**
 * Bumped whenever the table layout or the meaning of a column changes (4: the persisted parses of
 * `sources.parse` changed with issue 8: foreign front matter, encodings, encoded code ids, anchor
 * links; 5: the FTS `terms` column of identifier subwords and the `edges.mention` column of issue 9;
 * 6: the `unresolved_calls` table of issue 9; 7: `sources.parse` moved out of the published file into
 * the state directory's parse cache, parse-cache.ts, issue 14; 8: the `build_dependencies` meta row,
 * whose state `source_identity` now covers, build-dependencies.ts: an index without it would be
 * trusted with an identity blind to tsconfig, package.json and link-target changes; 9: the
 * `sources.ctime_ns` column of issue 30, whose cheap identity covers the ctime, and the
 * full-text index reading `node_fts_text`, with words of scripts written without spaces segmented
 * (`node_segmented`, segment.ts) and their combining marks kept in tokens, issue 30 items 1 and 2;
 * 10: the `node_code` table of code text and its full-text index `code_fts`, issue 31 item 1;
 * 11: the `node_review` table of review hashes and the `edges.review` column of review stamps, issue 32 item 1;
 * 12: the `sources_content` index, so the copies of a search's files are found by hash instead of a
 * scan of every source per search: 65-75 ms at 100k sources before, 0.2 ms after, issue 30).
 */
export const INDEX_SCHEMA_VERSION = 12;

/**
 * The FTS5 tokenizer: Porter stems over unicode61 without diacritics, with the combining marks of
 * Thai, Lao, Myanmar and Khmer kept in their words and {@link WORD_MARK} (put between segmented
 * words) a separator. Single quotes never occur in the marks.
 */
const FTS_TOKENIZER = `porter unicode61 remove_diacritics 2 tokenchars '${unspacedScriptMarks()}' separators '${WORD_MARK}'`;

/** DDL for a new index file; executed once per full build. */
export const INDEX_DDL = `
PRAGMA journal_mode = DELETE;
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE nodes (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  title TEXT NOT NULL,
  family TEXT,
  authority TEXT,
  status TEXT,
  tags TEXT NOT NULL,
  summary TEXT NOT NULL,
  body TEXT NOT NULL,
  source_path TEXT NOT NULL,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  anchors TEXT NOT NULL,
  headings TEXT NOT NULL,
  terms TEXT NOT NULL,
  language TEXT,
  capabilities TEXT NOT NULL,
  origin TEXT NOT NULL,
  content_hash TEXT NOT NULL
);
CREATE INDEX nodes_kind ON nodes (kind, id);
CREATE INDEX nodes_source ON nodes (source_path);
CREATE INDEX nodes_language ON nodes (language, id);
CREATE TABLE node_tags (tag TEXT NOT NULL, node_id TEXT NOT NULL, PRIMARY KEY (tag, node_id)) WITHOUT ROWID;
CREATE TABLE node_capabilities (capability TEXT NOT NULL, node_id TEXT NOT NULL, PRIMARY KEY (capability, node_id)) WITHOUT ROWID;
-- The full-text text of the nodes whose columns hold words of scripts written without spaces
-- (segmented, segment.ts) or text outside NFC: a NULL column is the node's own. Most nodes have no row.
CREATE TABLE node_segmented (
  rowid INTEGER PRIMARY KEY,
  id TEXT, title TEXT, headings TEXT, summary TEXT, body TEXT, tags TEXT, terms TEXT
);
-- Code text of code nodes (issue 31 item 1; libs/core code-text.ts), not a node field: \`words\` is
-- what \`code_fts\` indexes (identifier subwords added, segmented as node_segmented's columns), \`lines\` the kept source lines (\`<line>\t<text>\`)
-- search excerpts are cut from, as raw DEFLATE of their UTF-8 (code-lines.ts: read only for a
-- page's excerpts, about a quarter of the text's size). Nodes without code text have no row.
CREATE TABLE node_code (rowid INTEGER PRIMARY KEY, words TEXT NOT NULL, lines BLOB NOT NULL);
CREATE VIEW node_fts_text AS
  SELECT n.rowid AS node_rowid, coalesce(s.id, n.id) AS id, coalesce(s.title, n.title) AS title,
    coalesce(s.headings, n.headings) AS headings, coalesce(s.summary, n.summary) AS summary,
    coalesce(s.body, n.body) AS body, coalesce(s.tags, n.tags) AS tags, coalesce(s.terms, n.terms) AS terms
  FROM nodes n LEFT JOIN node_segmented s ON s.rowid = n.rowid;
CREATE VIRTUAL TABLE node_fts USING fts5(
  id, title, headings, summary, body, tags, terms,
  content = 'node_fts_text', content_rowid = 'node_rowid',
  tokenize = "${FTS_TOKENIZER}"
);
-- The code text's own full-text index (rowid = the node's): its own table, so its words never
-- lengthen a node's row in node_fts, whose bm25 normalises by the length of the whole row (a body
-- would otherwise make a function rank below a like-named declaration without one).
CREATE VIRTUAL TABLE code_fts USING fts5(
  words,
  content = 'node_code', content_rowid = 'rowid',
  tokenize = "${FTS_TOKENIZER}"
);
CREATE TABLE edges (
  source_id TEXT NOT NULL,
  relation TEXT NOT NULL,
  target_id TEXT NOT NULL,
  source_path TEXT NOT NULL,
  line INTEGER NOT NULL,
  mention TEXT,
  -- Review stamps of the relation (issue 32 item 1): JSON of its EdgeReview list, or NULL.
  review TEXT,
  PRIMARY KEY (source_id, relation, target_id)
) WITHOUT ROWID;
-- Review hash of each node (issue 32 item 1; libs/core review.ts), not a node field.
CREATE TABLE node_review (node_id TEXT PRIMARY KEY, hash TEXT NOT NULL) WITHOUT ROWID;
CREATE INDEX edges_incoming ON edges (target_id, relation, source_id);
CREATE TABLE logic_steps (
  owner_id TEXT NOT NULL,
  step INTEGER NOT NULL,
  kind TEXT NOT NULL,
  label TEXT NOT NULL,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  source_path TEXT NOT NULL,
  PRIMARY KEY (owner_id, step)
) WITHOUT ROWID;
CREATE TABLE logic_flows (
  owner_id TEXT NOT NULL,
  from_step INTEGER NOT NULL,
  to_step INTEGER NOT NULL,
  kind TEXT NOT NULL,
  label TEXT NOT NULL,
  source_path TEXT NOT NULL,
  PRIMARY KEY (owner_id, from_step, to_step, kind)
) WITHOUT ROWID;
CREATE TABLE sources (
  path TEXT PRIMARY KEY,
  role TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ns TEXT NOT NULL,
  ctime_ns TEXT NOT NULL,
  ino TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  node_count INTEGER NOT NULL
) WITHOUT ROWID;
-- Byte-identical copies of a file (the copies of search results, doc mentions): looked up per search by hash.
CREATE INDEX sources_content ON sources (content_hash);
-- Per calling code node (function, method or module): call sites the adapter's linker could not
-- prove a target for (they have no calls edge). Nodes without any are absent.
CREATE TABLE unresolved_calls (node_id TEXT PRIMARY KEY, count INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE issues (
  seq INTEGER PRIMARY KEY,
  severity TEXT NOT NULL,
  code TEXT NOT NULL,
  message TEXT NOT NULL,
  path TEXT,
  line INTEGER,
  node_id TEXT
);
`;

/**
 * bm25 column weights for node_fts, in column order: id, title, headings, summary, body, tags,
 * terms (identifier subwords of id and title, see terms.ts).
 */
export const FTS_WEIGHTS = [4, 10, 6, 3, 1, 3, 6] as const;

/**
 * Statements run after the DDL: persist the bm25 weights as the FTS5 `rank` function so that
 * `ORDER BY rank` uses them (node_fts is an external-content table over the view `node_fts_text`
 * of `nodes`, so document text is stored once, twice only for the few nodes `node_segmented` holds).
 */
export const INDEX_POST_DDL = `INSERT INTO node_fts (node_fts, rank) VALUES ('rank', 'bm25(${FTS_WEIGHTS.join(', ')})');`;
