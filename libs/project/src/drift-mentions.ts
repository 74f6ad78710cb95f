/**
 * `unresolved_code_mention` (issue 32 item 2): a document names code that no longer resolves.
 * A mention that names nothing is ordinary in prose (an option name, another library's function,
 * a variable of an example), so only mentions whose own spelling proves they meant this project's
 * code are findings:
 * - a path with a code extension under a code root (`lib/x.js`, what the walk would have read)
 *   that is no code file of the project;
 * - a qualified name (`Ledger.capture`, `pino.transport()`) whose receiver resolves to project
 *   code (a declaration with members, a module's exports, a public API name's package or
 *   namespace) but whose member does not, and that the document does not bind itself.
 * A bare name (`withRetry`) is never a finding: nothing in its spelling says it was project code.
 */
import type { SourceIssue } from '@docforge/core';
import type { DocBinding } from '@docforge/markdown';
import { returnMemberKey } from './resolve-api.js';

/** The name tables a mention is read against (resolve-refs.ts `CodeNames`, the part used here). */
export interface NameTables {
  qualified: ReadonlyMap<string, readonly string[]>;
  exports: ReadonlyMap<string, readonly string[]>;
  api: ReadonlyMap<string, readonly string[]>;
}

/** What an unresolved mention names that is gone: the code node id of its receiver (or the missing path's would-be module id) and why. */
export interface MentionDrift {
  /** The code node id the mention was read against: the receiver's id, or `code:<path>` of the missing file. */
  node_id: string;
  reason: string;
}

/** Members every JavaScript function or class has without declaring them, and file extensions (`index.js`). */
const IMPLICIT_MEMBERS = new Set([
  'prototype', 'constructor', 'name', 'length', 'call', 'apply', 'bind', 'toString', 'valueOf',
  'js', 'mjs', 'cjs', 'ts', 'mts', 'cts', 'jsx', 'tsx', 'json', 'md', 'html', 'css', 'py', 'pyi', 'd', 'yml', 'yaml', 'toml', 'txt', 'map', 'node',
]);

const QUALIFIED = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+[?!=]?$/; // a Ruby name may end in ?, ! or =
const CODE_PATH = /^[\w.@-]+(?:\/[\w.@-]+)+\.[A-Za-z]+$/;
/** `A.B#m`: Ruby and JSDoc notation for the instance method `m` of `A.B` (`Rake::Task#invoke`, new-user trial u2). */
const INSTANCE_MEMBER = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*#[A-Za-z_$][\w$]*[?!=]?$/;

/** A mention's name: a trailing call (`()`, `(a, b)`) and a leading `./` dropped, `::` read as `.` (issue 33 item 6), `A::B#m` as `A.B.m`, PHP's `\Monolog\Registry` as `Monolog.Registry`. */
export function mentionName(text: string): string {
  const name = text.replace(/(?<!\s)\s*\([^()]*\)\s*$/, '').replace(/^\.\//, '').trim().replace(/(?<=\w)::(?=\w)/g, '.').replace(/^\\(?=[A-Za-z_]\w*\\)/, '').replace(/(?<=\w)\\(?=[A-Za-z_])/g, '.');
  return INSTANCE_MEMBER.test(name) ? name.replace('#', '.') : name;
}

/** Receivers of qualified names: a class (`Ledger`) or a public API root (`pino`) -> the code id it names. */
export interface ReceiverTable {
  classes: Map<string, string>;
  api: Map<string, string>;
  /** Public API roots (`pkg`) that are no declaration of their own (`module.exports = { a, b }`): named as a package in findings. */
  packages: Set<string>;
}

/** What {@link receiverTable} reads of a code node: its kind and its signature summary. */
export type NodeFacts = (id: string) => { kind: string; summary: string } | undefined;

/**
 * The receivers of the name tables. Classes: a qualified declaration of kind `class` that has
 * members recorded and extends nothing (`class X extends Y` in its signature: a member may be
 * inherited from code the tables do not show). Not modules (`reply` of `lib/reply.js` is as often a
 * variable of an example) and not JavaScript constructor functions (members assigned to a
 * prototype are not declarations). API roots: the first segment of every public API name
 * (`pino` of `pino.transport`), named by its own entry when it is one.
 */
export function receiverTable(names: NameTables, facts: NodeFacts): ReceiverTable {
  const table: ReceiverTable = { classes: new Map(), api: new Map(), packages: new Set() };
  for (const key of names.qualified.keys()) {
    const dot = key.lastIndexOf('.');
    if (dot <= 0) continue;
    const prefix = key.slice(0, dot);
    if (table.classes.has(prefix)) continue;
    const ids = names.qualified.get(prefix);
    if (ids === undefined || ids.length !== 1) continue;
    const node = facts(ids[0]!);
    if (node !== undefined && node.kind === 'class' && !/\bextends\b|^class\s+[\w$]+\s*\(/.test(node.summary)) table.classes.set(prefix, ids[0]!);
  }
  for (const [key, ids] of names.api) {
    if (key.includes('(')) continue;
    const root = key.split('.')[0]!;
    if (root === key || table.api.has(root)) continue;
    const own = names.api.get(root);
    table.api.set(root, own !== undefined && own.length === 1 ? own[0]! : ids[0]!);
    // The root's owner then stands for the package (a finding's node), never for what the root resolves to.
    if (own === undefined || own.length !== 1) table.packages.add(root);
  }
  return table;
}

/**
 * Whether an unresolved mention is drift, and of what. `text` is the mention as written, `name`
 * its name after resolveMention's normalisation (call dropped, `./` dropped); `receiver` the
 * document's binding of its first segment (then never a finding: the document says what it is).
 */
export function mentionDrift(
  name: string, called: boolean, receiver: DocBinding | undefined, names: NameTables, receivers: () => ReceiverTable,
  paths: { isCodeSourcePath?: (path: string) => boolean; codePaths: ReadonlySet<string>; sourcePaths: ReadonlySet<string> },
): MentionDrift | null {
  if (CODE_PATH.test(name)) {
    if (paths.codePaths.has(name) || paths.sourcePaths.has(name) || paths.isCodeSourcePath === undefined || !paths.isCodeSourcePath(name)) return null;
    return { node_id: `code:${name}`, reason: `"${name}" is no code file under the code roots` };
  }
  if (receiver !== undefined || !QUALIFIED.test(name)) return null;
  if (names.qualified.has(name) || names.exports.has(name) || names.api.has(name)) return null;
  const dot = name.lastIndexOf('.');
  const member = name.slice(dot + 1);
  if (IMPLICIT_MEMBERS.has(member)) return null;
  const prefix = name.slice(0, dot);
  const table = receivers();
  // A public API root counts only for a call (`pino.transport()`): values a package exports (`pino.version`) are no declarations.
  const owner = table.classes.get(prefix) ?? (called ? table.api.get(prefix) : undefined);
  if (owner === undefined) return null;
  // A member the link step proved on the value the root returns (`fastify().close`) is an instance method named as the package.
  if (names.api.has(returnMemberKey(owner, member))) return null;
  if (table.packages.has(prefix)) return { node_id: owner, reason: `the public API of package "${prefix}" has no "${member}"` };
  return { node_id: owner, reason: `"${prefix}" resolves to ${owner}, which has no "${member}"` };
}

/** A mention as the resolver holds it (content.ts `LinkRef` with `mention`). */
interface MentionLink {
  from_id: string;
  line: number;
  mention: { text: string; section: { slug: string; title: string; line: number } | null; receiver?: DocBinding };
}

/**
 * The `unresolved_code_mention` finding (info) of a mention that resolved to nothing, or null when
 * {@link mentionDrift} finds no drift. `names.receivers` is filled on first use (one table per
 * name table). `record` is told each path looked up and the receiver found (the incremental
 * resolver's dependencies).
 */
export function unresolvedMentionIssue(
  link: MentionLink, sourcePath: string, names: NameTables & { receivers?: ReceiverTable },
  paths: { isCodeSourcePath?: (path: string) => boolean; codePaths: ReadonlySet<string>; sourcePaths: ReadonlySet<string> },
  facts: NodeFacts, record?: { path(path: string): void; id(id: string): void },
): SourceIssue | null {
  const name = mentionName(link.mention.text);
  if (name === '' || /\s/.test(name)) return null;
  if (CODE_PATH.test(name)) record?.path(name);
  const called = link.mention.text.trimEnd().endsWith(')');
  const drift = mentionDrift(name, called, link.mention.receiver, names, () => (names.receivers ??= receiverTable(names, facts)), paths);
  if (drift === null) return null;
  record?.id(drift.node_id);
  const section = link.mention.section?.slug ?? '(top)';
  return {
    // Info, not drift: without a record of what the mention named before, a first sync cannot tell
    // code that went away from a doc that was wrong from the start (issue 32: no drift finding on a
    // project unchanged since its first sync).
    severity: 'info',
    code: 'unresolved_code_mention',
    message: `${sourcePath}:${link.line}: section "${section}" names \`${link.mention.text}\`, which resolves to no code: ${drift.reason} (${drift.node_id})`,
    path: sourcePath,
    line: link.line,
    node_id: link.from_id,
  };
}
