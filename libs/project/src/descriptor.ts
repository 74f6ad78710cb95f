/**
 * The project descriptor `docforge.toml` (DESIGN.md section 3, schema version 1): loading with
 * line-accurate validation errors, rendering a commented template, and `docforge init`.
 */
import {
  closeSync, constants as fsConstants, existsSync, fstatSync, linkSync, lstatSync, openSync, readdirSync, readSync, realpathSync, renameSync, unlinkSync,
  writeFileSync, type Stats,
} from 'node:fs';
import { basename, isAbsolute, join, posix, sep } from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { DocforgeError } from '@docforge/core';
import { lineOf, outlineToml, type TomlOutline } from './toml-outline.js';

/** File name of the descriptor at the project root. */
export const DESCRIPTOR_FILE = 'docforge.toml';

/** Largest accepted descriptor, in bytes (1 MiB); a larger docforge.toml is `descriptor_invalid`. */
export const MAX_DESCRIPTOR_BYTES = 1024 * 1024;

/** Built-in view renderers (DESIGN.md section 3). */
export type ViewRenderer = 'page' | 'catalog' | 'matrix' | 'graph';

/** A declared view: `[[views]]` in the descriptor. */
export interface ViewDeclaration {
  /** View id, `^[a-z0-9][a-z0-9._-]{0,63}$`, unique in the descriptor. */
  id: string;
  title: string;
  renderer: ViewRenderer;
  /** Renderer-specific selection, e.g. `{ kinds: ["component"] }` (JSON values). */
  select: Record<string, unknown>;
  /** Project-relative POSIX output path; never escapes the root. */
  output: string;
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
    /** MCP response size limit in characters, 2000..10_000_000. */
    max_output_chars: number;
  };
  /** `dir` is the project-relative state directory (index, receipts, changesets). */
  state: { dir: string };
  views: ViewDeclaration[];
}

/** Built-in code adapter ids accepted by `[adapter].code`. */
export const BUILTIN_CODE_ADAPTERS: readonly string[] = Object.freeze(['typescript', 'python']);

const ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const RENDERERS: readonly ViewRenderer[] = ['page', 'catalog', 'matrix', 'graph'];
const DEFAULT_EXCLUDE = ['**/node_modules/**', '**/.git/**'];

const ALLOWED: Record<string, readonly string[]> = {
  '': ['schema_version', 'project', 'sources', 'adapter', 'vocabulary', 'limits', 'state', 'views'],
  project: ['id', 'name'],
  sources: ['content_roots', 'code_roots', 'exclude'],
  adapter: ['code', 'strategy', 'module'],
  vocabulary: ['kinds', 'authorities', 'statuses', 'relations'],
  limits: ['max_results', 'max_output_chars'],
  state: ['dir'],
  views: ['id', 'title', 'renderer', 'select', 'output'],
};

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Validation context: the descriptor text outline, for line lookups. */
class Checker {
  constructor(private readonly outline: TomlOutline) {}

  /** First line of the dotted key, or null. */
  lineOf(key: string): number | null {
    return lineOf(this.outline, key);
  }

  /** Throws descriptor_invalid for the dotted key (`limits.max_results`, `views.0.id`). */
  fail(key: string, message: string, line?: number | null): never {
    const at = line !== undefined ? line : lineOf(this.outline, key);
    const where = at === null ? `${DESCRIPTOR_FILE}:` : `${DESCRIPTOR_FILE}:${at}:`;
    throw new DocforgeError('descriptor_invalid', `${where} ${displayKey(key)} ${message}`, {
      path: DESCRIPTOR_FILE,
      line: at,
      key,
    });
  }
}

/** `limits.max_results` -> `[limits].max_results`; `views.0.id` -> `[[views]][0].id`. */
function displayKey(key: string): string {
  const parts = key.split('.');
  const head = parts[0] ?? '';
  if (parts.length === 1) return head !== 'schema_version' && (ALLOWED[''] ?? []).includes(head) ? `[${head}]` : head;
  if (parts[0] === 'views') {
    const rest = parts.slice(2).join('.');
    return `[[views]][${parts[1] ?? '?'}]${rest === '' ? '' : `.${rest}`}`;
  }
  return `[${parts[0]}].${parts.slice(1).join('.')}`;
}

function checkKeys(check: Checker, table: Table, scope: string, allowedKey: string): void {
  const allowed = ALLOWED[allowedKey] ?? [];
  for (const key of Object.keys(table)) {
    if (!allowed.includes(key)) {
      const full = scope === '' ? key : `${scope}.${key}`;
      check.fail(full, `is not a known ${scope === '' ? 'top-level table or key' : 'key'} (expected one of: ${allowed.join(', ')})`);
    }
  }
}

function optionalTable(check: Checker, doc: Table, key: string): Table {
  const value = doc[key];
  if (value === undefined) return {};
  if (!isTable(value)) check.fail(key, 'must be a table');
  return value;
}

function stringArray(check: Checker, value: unknown, key: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    check.fail(key, 'must be an array of strings');
  }
  return value as string[];
}

function intInRange(check: Checker, value: unknown, key: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    check.fail(key, `must be an integer from ${min} to ${max}`);
  }
  return value;
}

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Validates a project-relative path value: relative, no `..` segment, and (when it exists) its
 * real path stays inside the root. Returns the normalized POSIX form (`.` for the root itself).
 */
function relativePath(check: Checker, root: string, value: unknown, key: string, allowRoot: boolean): string {
  if (typeof value !== 'string' || value.trim() === '') check.fail(key, 'must be a non-empty string');
  if (isAbsolute(value) || /^[A-Za-z]:/.test(value) || value.startsWith('\\')) check.fail(key, `must be a relative path, got "${value}"`);
  if (value.includes('\\')) check.fail(key, `must use forward slashes, got "${value}"`);
  if (value.split('/').includes('..')) check.fail(key, `must not escape the project root ("..") in "${value}"`);
  let normalized = posix.normalize(value);
  while (normalized.endsWith('/') && normalized.length > 1) normalized = normalized.slice(0, -1);
  if (normalized === '.' && !allowRoot) check.fail(key, 'must not be the project root itself');
  const absolute = join(root, normalized);
  let real: string | null = null;
  try {
    real = realpathSync(absolute);
  } catch {
    real = null;
  }
  if (real !== null && !isInside(root, real)) check.fail(key, `resolves outside the project root ("${value}" -> ${real})`);
  return normalized;
}

function rootList(check: Checker, root: string, value: unknown, key: string, fallback: string[]): string[] {
  if (value === undefined) return [...fallback];
  const items = stringArray(check, value, key);
  const out: string[] = [];
  for (const item of items) {
    const normalized = relativePath(check, root, item, key, true);
    if (!out.includes(normalized)) out.push(normalized);
  }
  return out;
}

function adapterCodes(check: Checker, value: unknown, codeRoots: readonly string[]): string[] {
  if (value === undefined) return codeRoots.length > 0 ? [...BUILTIN_CODE_ADAPTERS] : [];
  const items = typeof value === 'string' ? [value] : Array.isArray(value) ? value : null;
  if (items === null || items.some((item) => typeof item !== 'string')) {
    check.fail('adapter.code', 'must be a string or an array of strings ("typescript", "python", "none", "auto")');
  }
  const out: string[] = [];
  for (const item of items as string[]) {
    if (item === 'none') continue;
    const ids = item === 'auto' ? BUILTIN_CODE_ADAPTERS : [item];
    for (const id of ids) {
      if (!BUILTIN_CODE_ADAPTERS.includes(id)) {
        check.fail('adapter.code', `names an unknown code adapter "${id}" (expected "typescript", "python", "none" or "auto")`);
      }
      if (!out.includes(id)) out.push(id);
    }
  }
  return out;
}

function vocabulary(check: Checker, table: Table, key: string): string[] | null {
  const value = table[key];
  if (value === undefined) return null;
  return [...new Set(stringArray(check, value, `vocabulary.${key}`))];
}

function toJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

function parseViews(check: Checker, root: string, value: unknown): ViewDeclaration[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => !isTable(item))) check.fail('views', 'must be an array of tables ([[views]])');
  const views: ViewDeclaration[] = [];
  (value as Table[]).forEach((view, index) => {
    const scope = `views.${index}`;
    checkKeys(check, view, scope, 'views');
    const id = view['id'];
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) check.fail(`${scope}.id`, 'must be a string matching ^[a-z0-9][a-z0-9._-]{0,63}$');
    if (views.some((other) => other.id === id)) check.fail(`${scope}.id`, `duplicates the view id "${id}"`);
    const title = view['title'] ?? id;
    if (typeof title !== 'string') check.fail(`${scope}.title`, 'must be a string');
    const renderer = view['renderer'];
    if (typeof renderer !== 'string' || !(RENDERERS as readonly string[]).includes(renderer)) {
      check.fail(`${scope}.renderer`, `must be one of: ${RENDERERS.join(', ')}`);
    }
    const select = view['select'] ?? {};
    if (!isTable(select)) check.fail(`${scope}.select`, 'must be a table');
    const output = relativePath(check, root, view['output'], `${scope}.output`, false);
    views.push({ id, title, renderer: renderer as ViewRenderer, select: toJson(select) as Record<string, unknown>, output });
  });
  return views;
}

function descriptorFileError(reason: string, cause?: unknown): DocforgeError {
  return new DocforgeError('descriptor_invalid', `${DESCRIPTOR_FILE}: ${reason}`, { path: DESCRIPTOR_FILE, line: null, key: null }, cause === undefined ? undefined : { cause });
}

function fileKind(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'a special file';
}

function checkDescriptorStat(file: string, target: string, stat: Stats): void {
  if (!stat.isFile()) throw descriptorFileError(`${file} is not a regular file (it is ${fileKind(stat)}${target === file ? '' : `, via symbolic link to ${target}`}); not read`);
  if (stat.size > MAX_DESCRIPTOR_BYTES) throw descriptorFileError(`${file} is larger than ${MAX_DESCRIPTOR_BYTES} bytes (${stat.size} bytes); not read`);
}

/**
 * Reads docforge.toml without ever blocking on or streaming from a non-regular file: a symlink
 * must resolve inside the root; the target's type and size are checked with lstat before it is
 * opened, then it is opened with O_NONBLOCK|O_NOFOLLOW (a FIFO swapped in cannot hang the open),
 * checked again with fstat on the open descriptor, and at most {@link MAX_DESCRIPTOR_BYTES} + 1
 * bytes are ever read.
 */
function readDescriptorText(realRoot: string, file: string): string {
  let target = file;
  try {
    const link = lstatSync(file);
    if (link.isSymbolicLink()) {
      try {
        target = realpathSync(file);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        throw descriptorFileError(`${file} is not a regular file (symbolic link whose target cannot be resolved: ${code})`, error);
      }
      if (!isInside(realRoot, target)) throw descriptorFileError(`${file} is not a regular file inside the project root (symbolic link to ${target})`);
    }
    // Type and size are checked on a stat before any open: opening a device can itself have effects.
    checkDescriptorStat(file, target, target === file ? link : lstatSync(target));
  } catch (error) {
    if (error instanceof DocforgeError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? `no ${DESCRIPTOR_FILE} in ${realRoot} (run "docforge init ${realRoot}" to create one)` : `cannot read ${file} (${code ?? String(error)})`;
    throw descriptorFileError(reason, error);
  }
  let fd: number;
  try {
    fd = openSync(target, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | fsConstants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw descriptorFileError(`cannot read ${file} (${code ?? String(error)})`, error);
  }
  try {
    // Re-checked on the open descriptor: the path may have been swapped since the stat above.
    checkDescriptorStat(file, target, fstatSync(fd));
    // Read at most MAX + 1 bytes: a file that grew past the cap after fstat is refused, never slurped.
    const buffer = Buffer.allocUnsafe(MAX_DESCRIPTOR_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_DESCRIPTOR_BYTES) throw descriptorFileError(`${file} is larger than ${MAX_DESCRIPTOR_BYTES} bytes (grew while being read); not read`);
    }
    return buffer.subarray(0, length).toString('utf8');
  } catch (error) {
    if (error instanceof DocforgeError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw descriptorFileError(`cannot read ${file} (${code ?? String(error)})`, error);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads and validates `<root>/docforge.toml` (DESIGN.md section 3).
 * @param root project root directory (resolved with realpath)
 * @returns the descriptor with every default applied
 * @throws DocforgeError `descriptor_invalid` with details `{ path: 'docforge.toml', line, key }` for
 *   a missing or unreadable file, a descriptor that is not a regular file (FIFO, device, directory,
 *   socket, a symlink leaving the root or to a non-regular file: "docforge.toml: <path> is not a
 *   regular file", never read) or is larger than {@link MAX_DESCRIPTOR_BYTES}, a TOML syntax error (line from smol-toml), an unknown table or
 *   key, a wrong type, an out-of-range limit, a bad project id, a root escaping the project, or a
 *   `[state].dir` that is `.` or equals, contains or lies inside a content or code root.
 */
export function loadDescriptor(root: string): Descriptor {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch (error) {
    throw new DocforgeError('descriptor_invalid', `${DESCRIPTOR_FILE}: project root ${root} does not exist`, { path: DESCRIPTOR_FILE, line: null, key: null }, { cause: error });
  }
  const file = join(realRoot, DESCRIPTOR_FILE);
  let text = readDescriptorText(realRoot, file);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let doc: Table;
  try {
    doc = parseToml(text) as Table;
  } catch (error) {
    const line = error instanceof TomlError ? error.line : null;
    const reason = error instanceof Error ? error.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? 'syntax error' : String(error);
    throw new DocforgeError('descriptor_invalid', `${DESCRIPTOR_FILE}:${line ?? ''}: TOML syntax error: ${reason}`, { path: DESCRIPTOR_FILE, line, key: null }, { cause: error });
  }
  return validateDescriptor(doc, text, realRoot, file);
}

/** Project-relative POSIX form of a path's realpath, or null when it does not exist or leaves the root. */
function realRelative(root: string, rel: string): string | null {
  try {
    const real = realpathSync(rel === '.' ? root : join(root, rel));
    if (real === root) return '.';
    if (!isInside(root, real)) return null;
    return real.slice(root.length + (root.endsWith(sep) ? 0 : 1)).split(sep).join('/');
  } catch {
    return null;
  }
}

/** True when `a` equals `b` or one contains the other (project-relative POSIX paths, `.` = root). */
function overlaps(a: string, b: string): 'equal' | 'inside' | 'contains' | null {
  if (a === b) return 'equal';
  if (b === '.' || a.startsWith(`${b}/`)) return 'inside';
  if (a === '.' || b.startsWith(`${a}/`)) return 'contains';
  return null;
}

/**
 * The state dir (whose files DocForge deletes) must not overlap canonical sources: it may not
 * equal, contain, or lie inside any content or code root, compared both lexically and after
 * realpath. A root of `.` (the whole project) is the one exception for "inside": the state dir is
 * then always excluded from the walk, and no other placement would be possible.
 * @throws DocforgeError descriptor_invalid naming `state.dir` (line of `[state].dir`, or of the
 *   offending root list when the state dir is the default `.docforge`)
 */
function checkStateDirPlacement(check: Checker, root: string, stateDir: string, declared: boolean, contentRoots: readonly string[], codeRoots: readonly string[]): void {
  if (stateDir === '.') check.fail('state.dir', 'must not be the project root itself');
  const stateReal = realRelative(root, stateDir);
  const lists: [string, readonly string[]][] = [['sources.content_roots', contentRoots], ['sources.code_roots', codeRoots]];
  for (const [listKey, roots] of lists) {
    for (const rootRel of roots) {
      const rootReal = realRelative(root, rootRel);
      const pairs: [string, string][] = [[stateDir, rootRel]];
      if (stateReal !== null && rootReal !== null) pairs.push([stateReal, rootReal]);
      for (const [stateForm, rootForm] of pairs) {
        const relation = overlaps(stateForm, rootForm);
        if (relation === null || (relation === 'inside' && rootForm === '.')) continue;
        const kind = listKey === 'sources.content_roots' ? 'content root' : 'code root';
        const how = relation === 'equal' ? 'is the same directory as' : relation === 'inside' ? 'lies inside' : 'contains';
        const via = stateForm === stateDir && rootForm === rootRel ? '' : ` (after resolving symbolic links: "${stateForm}" vs "${rootForm}")`;
        const line = declared ? undefined : (check.lineOf(listKey) ?? null);
        check.fail('state.dir', `"${stateDir}" ${how} the ${kind} "${rootRel}"${via}; DocForge deletes files in its state dir, so it must not overlap canonical sources`, line);
      }
    }
  }
}

function validateDescriptor(doc: Table, text: string, root: string, file: string): Descriptor {
  const check: Checker = new Checker(outlineToml(text));
  checkKeys(check, doc, '', '');
  if (doc['schema_version'] === undefined) check.fail('schema_version', 'is required and must be 1', null);
  if (doc['schema_version'] !== 1) check.fail('schema_version', 'must be 1');

  if (doc['project'] === undefined) check.fail('project', 'is required (with id and name)', null);
  const project = optionalTable(check, doc, 'project');
  checkKeys(check, project, 'project', 'project');
  const id = project['id'];
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    check.fail('project.id', `must be a string matching ^[a-z0-9][a-z0-9._-]{0,63}$${typeof id === 'string' ? `, got "${id}"` : ''}`);
  }
  const name = project['name'] ?? id;
  if (typeof name !== 'string' || name.trim() === '') check.fail('project.name', 'must be a non-empty string');

  const state = optionalTable(check, doc, 'state');
  checkKeys(check, state, 'state', 'state');
  const stateDir = state['dir'] === undefined ? '.docforge' : relativePath(check, root, state['dir'], 'state.dir', false);

  const sources = optionalTable(check, doc, 'sources');
  checkKeys(check, sources, 'sources', 'sources');
  const contentRoots = rootList(check, root, sources['content_roots'], 'sources.content_roots', ['docs']);
  const codeRoots = rootList(check, root, sources['code_roots'], 'sources.code_roots', []);
  checkStateDirPlacement(check, root, stateDir, state['dir'] !== undefined, contentRoots, codeRoots);
  const exclude = sources['exclude'] === undefined ? [...DEFAULT_EXCLUDE] : [...stringArray(check, sources['exclude'], 'sources.exclude')];
  for (const always of [`${stateDir}/**`, '**/.git/**']) if (!exclude.includes(always)) exclude.push(always);

  const adapter = optionalTable(check, doc, 'adapter');
  checkKeys(check, adapter, 'adapter', 'adapter');
  const code = adapterCodes(check, adapter['code'], codeRoots);
  const strategy = adapter['strategy'] ?? 'ast';
  if (strategy !== 'ast' && strategy !== 'lexical') check.fail('adapter.strategy', 'must be "ast" or "lexical"');
  const module = adapter['module'] === undefined ? null : relativePath(check, root, adapter['module'], 'adapter.module', false);

  const vocab = optionalTable(check, doc, 'vocabulary');
  checkKeys(check, vocab, 'vocabulary', 'vocabulary');

  const limits = optionalTable(check, doc, 'limits');
  checkKeys(check, limits, 'limits', 'limits');

  return {
    schema_version: 1,
    root,
    path: file,
    project: { id, name },
    sources: { content_roots: contentRoots, code_roots: codeRoots, exclude },
    adapter: { code, strategy, module },
    vocabulary: {
      kinds: vocabulary(check, vocab, 'kinds'),
      authorities: vocabulary(check, vocab, 'authorities'),
      statuses: vocabulary(check, vocab, 'statuses'),
      relations: vocabulary(check, vocab, 'relations'),
    },
    limits: {
      max_results: intInRange(check, limits['max_results'], 'limits.max_results', 1, 10000, 200),
      max_output_chars: intInRange(check, limits['max_output_chars'], 'limits.max_output_chars', 2000, 10_000_000, 60000),
    },
    state: { dir: stateDir },
    views: parseViews(check, root, doc['views']),
  };
}

/** Input of {@link renderDescriptor}. */
export interface DescriptorTemplate {
  id: string;
  name: string;
  content_roots: readonly string[];
  code_roots: readonly string[];
  /** Built-in code adapter ids; empty renders `"none"`. */
  code: readonly string[];
}

function tomlString(value: string): string {
  return JSON.stringify(value);
}

function tomlArray(values: readonly string[]): string {
  return `[${values.map(tomlString).join(', ')}]`;
}

/**
 * Renders a valid, commented schema-version-1 docforge.toml. Pure.
 * @returns TOML text ending with a newline; {@link loadDescriptor} accepts it as is.
 */
export function renderDescriptor(d: DescriptorTemplate): string {
  const code = d.code.length === 0 ? tomlString('none') : d.code.length === 1 ? tomlString(d.code[0] ?? 'none') : tomlArray(d.code);
  return [
    '# DocForge project descriptor (schema version 1).',
    'schema_version = 1',
    '',
    '[project]',
    `id = ${tomlString(d.id)}                 # ^[a-z0-9][a-z0-9._-]{0,63}$`,
    `name = ${tomlString(d.name)}`,
    '',
    '[sources]',
    '# Canonical Markdown (*.md) and TOML record files; the only paths DocForge may write.',
    `content_roots = ${tomlArray(d.content_roots)}`,
    '# Read by the code adapters; never written.',
    `code_roots = ${tomlArray(d.code_roots)}`,
    'exclude = ["**/node_modules/**", "**/.git/**"]',
    '',
    '[adapter]',
    '# Built-in code adapters: "typescript", "python", "auto" (both) or "none".',
    `code = ${code}`,
    '# "ast" (compiler API, function Logic allowed) or "lexical" (no AST, no Logic).',
    'strategy = "ast"',
    '',
    '[limits]',
    'max_results = 200           # cap for every collection tool (1..10000)',
    'max_output_chars = 60000    # MCP response size limit (2000..10000000)',
    '',
    '[state]',
    'dir = ".docforge"           # disposable index, receipts, changesets, previews',
    '',
    '# Optional closed vocabularies; omitted = open.',
    '# [vocabulary]',
    '# kinds = ["requirement", "component", "decision", "document"]',
    '# statuses = ["draft", "accepted", "deprecated"]',
    '',
  ].join('\n');
}

/** Summary returned by {@link initProject}. */
export interface InitResult {
  /** Absolute path of the written docforge.toml. */
  path: string;
  descriptor_text: string;
  content_roots: string[];
  code_roots: string[];
  /** Markdown files found under the chosen content roots. */
  markdown_files: number;
}

const MARKDOWN_EXT = /\.(md|markdown)$/i;
const TS_EXT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i;
const PY_EXT = /\.py$/i;

function skippedDir(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** Depth-first visit of regular files below `dir` (skipping dot dirs and node_modules); stop when `visit` returns true. */
function visitFiles(dir: string, visit: (name: string) => boolean): boolean {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (entry.isFile() && visit(entry.name)) return true;
  }
  for (const entry of entries) {
    if (entry.isDirectory() && !skippedDir(entry.name) && visitFiles(join(dir, entry.name), visit)) return true;
  }
  return false;
}

function sanitizeId(name: string): string {
  const id = name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '').slice(0, 64).replace(/[-.]+$/, '');
  return id === '' ? 'project' : id;
}

/**
 * `docforge init DIR`: inspects DIR and writes a docforge.toml for it (atomically: temp file, then
 * a no-overwrite link into place). Content roots: `docs`/`doc`/`documentation` when they hold
 * Markdown, else the top-level directories holding Markdown, else `.`. Code roots: the other
 * top-level directories holding .ts/.js/.py files (`.` when only the root holds code).
 * @param options.id project id; by default derived from the directory name
 * @throws DocforgeError `invalid_arguments` when DIR does not exist or a docforge.toml already
 *   exists; `descriptor_invalid` when `options.id` is not a valid project id
 */
export function initProject(dir: string, options: { id?: string } = {}): InitResult {
  let root: string;
  try {
    root = realpathSync(dir);
    if (!lstatSync(root).isDirectory()) throw new Error('not a directory');
  } catch (error) {
    throw new DocforgeError('invalid_arguments', `cannot initialize ${dir}: not an existing directory`, { path: DESCRIPTOR_FILE, line: null, key: null }, { cause: error });
  }
  const target = join(root, DESCRIPTOR_FILE);
  if (existsSync(target)) {
    throw new DocforgeError('invalid_arguments', `${target} already exists; init refuses to overwrite it`, { path: DESCRIPTOR_FILE, line: null, key: null });
  }
  const id = options.id ?? sanitizeId(basename(root));
  if (!ID_PATTERN.test(id)) {
    throw new DocforgeError('descriptor_invalid', `${DESCRIPTOR_FILE}: [project].id must match ^[a-z0-9][a-z0-9._-]{0,63}$, got "${id}"`, { path: DESCRIPTOR_FILE, line: null, key: 'project.id' });
  }

  const topDirs = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !skippedDir(entry.name))
    .map((entry) => entry.name)
    .sort();
  const hasMarkdown = (name: string): boolean => visitFiles(join(root, name), (file) => MARKDOWN_EXT.test(file));
  let contentRoots = topDirs.filter((name) => ['docs', 'doc', 'documentation'].includes(name) && hasMarkdown(name));
  if (contentRoots.length === 0) contentRoots = topDirs.filter(hasMarkdown);
  if (contentRoots.length === 0) contentRoots = ['.'];

  const languages = new Set<string>();
  const codeRoots: string[] = [];
  for (const name of topDirs) {
    if (contentRoots.includes(name)) continue;
    let found = false;
    visitFiles(join(root, name), (file) => {
      if (TS_EXT.test(file)) { languages.add('typescript'); found = true; }
      if (PY_EXT.test(file)) { languages.add('python'); found = true; }
      return languages.size === 2;
    });
    if (found) codeRoots.push(name);
  }
  if (codeRoots.length === 0) {
    const rootFiles = readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name);
    if (rootFiles.some((file) => TS_EXT.test(file) || PY_EXT.test(file))) {
      codeRoots.push('.');
      if (rootFiles.some((file) => TS_EXT.test(file))) languages.add('typescript');
      if (rootFiles.some((file) => PY_EXT.test(file))) languages.add('python');
    }
  }

  let markdownFiles = 0;
  for (const contentRoot of contentRoots) {
    if (contentRoot === '.') {
      for (const entry of readdirSync(root, { withFileTypes: true })) if (entry.isFile() && MARKDOWN_EXT.test(entry.name)) markdownFiles += 1;
      for (const name of topDirs) visitFiles(join(root, name), (file) => { if (MARKDOWN_EXT.test(file)) markdownFiles += 1; return false; });
    } else {
      visitFiles(join(root, contentRoot), (file) => { if (MARKDOWN_EXT.test(file)) markdownFiles += 1; return false; });
    }
  }

  const code = BUILTIN_CODE_ADAPTERS.filter((language) => languages.has(language));
  const text = renderDescriptor({ id, name: basename(root), content_roots: contentRoots, code_roots: codeRoots, code });
  const temp = join(root, `.${DESCRIPTOR_FILE}.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(temp, text, { flag: 'wx' });
  try {
    try {
      linkSync(temp, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        throw new DocforgeError('invalid_arguments', `${target} already exists; init refuses to overwrite it`, { path: DESCRIPTOR_FILE, line: null, key: null });
      }
      // File systems without hard links: fall back to rename after the existence check above.
      renameSync(temp, target);
    }
  } finally {
    try { unlinkSync(temp); } catch { /* already renamed */ }
  }
  return { path: target, descriptor_text: text, content_roots: contentRoots, code_roots: codeRoots, markdown_files: markdownFiles };
}
