/**
 * Validation of a parsed `docforge.toml` (DESIGN.md section 3): unknown keys, types, ranges,
 * ids, roots that must stay inside the project, view declarations and the state dir placement,
 * each failure a `descriptor_invalid` error with the offending line and key.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, join, posix, sep } from 'node:path';
import { errors } from '@docforge/core';
import { lineOf, outlineToml, type TomlOutline } from './toml-outline.js';
import {
  BUILTIN_CODE_ADAPTERS, DESCRIPTOR_FILE, ID_PATTERN, PROPOSAL_OPERATIONS, type Descriptor, type ProposalWriterPolicy, type ApplierPolicy, type ViewDeclaration, type ViewRenderer,
  type ViewSelector, VIEW_SELECTOR_KEYS,
} from './descriptor-types.js';

const RENDERERS: readonly ViewRenderer[] = ['page', 'catalog', 'matrix', 'graph'];
const DEFAULT_EXCLUDE = ['**/node_modules/**', '**/.git/**'];

const ALLOWED: Record<string, readonly string[]> = {
  '': ['schema_version', 'project', 'sources', 'adapter', 'vocabulary', 'limits', 'state', 'views', 'proposals'],
  proposals: ['writers', 'appliers'],
  proposal_applier: ['writers'],
  proposal_writer: ['operations', 'paths'],
  project: ['id', 'name'],
  sources: ['content_roots', 'code_roots', 'exclude'],
  adapter: ['code', 'strategy', 'module', 'canonical_applier'],
  vocabulary: ['kinds', 'authorities', 'statuses', 'relations'],
  limits: ['max_results', 'max_output_chars'],
  state: ['dir'],
  views: ['id', 'title', 'renderer', 'select', 'output', 'rows', 'columns', 'relations', 'focus', 'depth'],
};

/** A parsed TOML table. */
export type Table = Record<string, unknown>;

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
    throw errors.descriptorInvalid(`${where} ${displayKey(key)} ${message}`, {
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

/** Whether `candidate` is `root` or lies under it (both absolute real paths). */
export function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Validates a project-relative path value: relative, no `..` segment, and its real path (of the
 * deepest existing ancestor, the missing rest appended) stays inside the root. Returns the normalized POSIX form (`.` for the root itself).
 * With `lexical` (view outputs) the file system is not consulted: a link at an output is refused by
 * the render, preview and status of that view only, never by the whole descriptor.
 */
function relativePath(check: Checker, root: string, value: unknown, key: string, allowRoot: boolean, lexical = false): string {
  if (typeof value !== 'string' || value.trim() === '') check.fail(key, 'must be a non-empty string');
  if (isAbsolute(value) || /^[A-Za-z]:/.test(value) || value.startsWith('\\')) check.fail(key, `must be a relative path, got "${value}"`);
  if (value.includes('\\')) check.fail(key, `must use forward slashes, got "${value}"`);
  if (value.split('/').includes('..')) check.fail(key, `must not escape the project root ("..") in "${value}"`);
  let normalized = posix.normalize(value);
  while (normalized.endsWith('/') && normalized.length > 1) normalized = normalized.slice(0, -1);
  if (normalized === '.' && !allowRoot) check.fail(key, 'must not be the project root itself');
  // The state dir gets the stricter check of checkStateDirReal (no link at all, path_outside_root).
  const real = key === 'state.dir' || lexical ? null : realThroughAncestor(root, normalized);
  if (real !== null && !isInside(root, real)) check.fail(key, `resolves outside the project root ("${value}" -> ${real})`);
  return normalized;
}

/**
 * The real absolute path of a root-relative path that need not exist: the deepest existing
 * ancestor is resolved with realpath and the missing rest appended (a missing tail holds no link).
 * @returns null when not even the root can be resolved
 */
function realThroughAncestor(root: string, rel: string): string | null {
  const segments = rel === '.' ? [] : rel.split('/');
  for (let existing = segments.length; existing >= 0; existing -= 1) {
    try {
      return join(realpathSync(join(root, ...segments.slice(0, existing))), ...segments.slice(existing));
    } catch {
      // missing (or not a directory): try the parent
    }
  }
  return null;
}

/** The first existing component of `rel` below `root` that is a link or not a directory (lstat only). */
function firstNonDirectory(root: string, rel: string): { path: string; why: string } | null {
  const segments = rel === '.' ? [] : rel.split('/');
  for (let i = 1; i <= segments.length; i += 1) {
    let st;
    try {
      st = lstatSync(join(root, ...segments.slice(0, i)));
    } catch {
      return null; // the rest does not exist yet and holds no link
    }
    const at = segments.slice(0, i).join('/');
    if (st.isSymbolicLink()) return { path: at, why: 'is a symbolic link' };
    if (!st.isDirectory()) return { path: at, why: 'is not a directory' };
  }
  return null;
}

/**
 * The state dir is created and emptied by DocForge, so it must be a real directory inside the
 * root reached through no symbolic link (checked on the components that exist; nothing is created).
 * @throws DocforgeError `path_outside_root` naming `[state].dir`, its line and the offending component
 */
function checkStateDirReal(check: Checker, root: string, stateDir: string): void {
  const problem = firstNonDirectory(root, stateDir);
  if (problem === null) return;
  const line = check.lineOf('state.dir');
  const real = realThroughAncestor(root, stateDir);
  const where = real !== null && !isInside(root, real) ? `resolves outside the project root ("${stateDir}" -> ${real})` : `passes through "${problem.path}", which ${problem.why}`;
  throw errors.pathOutsideRoot(
    `${DESCRIPTOR_FILE}:${line ?? ''}${line === null ? '' : ':'} [state].dir "${stateDir}" ${where}; DocForge creates and deletes files in its state dir, so it must be a real directory inside the project root; nothing was written.`,
    { path: problem.path, key: 'state.dir', line },
  );
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

const WRITER_ID = /^[^\u0000-\u001f\u007f]{1,256}$/;

function parseProposals(check: Checker, doc: Table): Descriptor['proposals'] {
  const proposals = optionalTable(check, doc, 'proposals');
  checkKeys(check, proposals, 'proposals', 'proposals');
  const writersTable = proposals['writers'] ?? {};
  if (!isTable(writersTable)) check.fail('proposals.writers', 'must be a table of [proposals.writers.ID] tables');
  const writers: Record<string, ProposalWriterPolicy> = {};
  for (const [id, entry] of Object.entries(writersTable as Table)) {
    const scope = `proposals.writers.${id}`;
    if (!WRITER_ID.test(id)) check.fail(scope, 'must name a writer id of 1 to 256 printable characters');
    if (!isTable(entry)) check.fail(scope, 'must be a table with operations and paths');
    checkKeys(check, entry as Table, scope, 'proposal_writer');
    const table = entry as Table;
    let operations: string[] | null = null;
    if (table['operations'] !== undefined) {
      operations = [...new Set(stringArray(check, table['operations'], `${scope}.operations`))];
      for (const op of operations) if (!PROPOSAL_OPERATIONS.includes(op)) check.fail(`${scope}.operations`, `names an unknown operation "${op}" (expected: ${PROPOSAL_OPERATIONS.join(', ')})`);
    }
    let paths: string[] | null = null;
    if (table['paths'] !== undefined) {
      paths = [...new Set(stringArray(check, table['paths'], `${scope}.paths`))];
      for (const glob of paths) if (glob.startsWith('/') || glob.split('/').includes('..')) check.fail(`${scope}.paths`, `glob "${glob}" must be project-relative without ".."`);
    }
    defineOwn(writers, id, { operations, paths });
  }
  const appliersTable = proposals['appliers'] ?? {};
  if (!isTable(appliersTable)) check.fail('proposals.appliers', 'must be a table of [proposals.appliers.ID] tables');
  const appliers: Record<string, ApplierPolicy> = {};
  for (const [id, entry] of Object.entries(appliersTable as Table)) {
    const scope = `proposals.appliers.${id}`;
    if (!WRITER_ID.test(id)) check.fail(scope, 'must name an applier id of 1 to 256 printable characters');
    if (!isTable(entry)) check.fail(scope, 'must be a table with writers');
    checkKeys(check, entry as Table, scope, 'proposal_applier');
    const list = (entry as Table)['writers'];
    if (list === undefined) check.fail(`${scope}.writers`, 'must list the writer ids whose changesets this applier may apply');
    defineOwn(appliers, id, { writers: [...new Set(stringArray(check, list, `${scope}.writers`))] });
  }
  return { writers, appliers };
}

/**
 * Sets `table[key]` as an own, enumerable data property even for keys such as `__proto__`, which a
 * plain assignment would turn into a prototype change (then the policy lookup by own property
 * would silently find nothing and fail open).
 */
function defineOwn<T>(table: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(table, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Renderer-specific keys: which renderer may declare them. */
const RENDERER_KEYS: Record<string, ViewRenderer> = { rows: 'matrix', columns: 'matrix', relations: 'matrix', focus: 'graph', depth: 'graph' };
/** Largest `depth` of a graph view. */
const MAX_GRAPH_DEPTH = 4;

function parseSelector(check: Checker, value: unknown, key: string): ViewSelector {
  if (!isTable(value)) check.fail(key, 'must be a table');
  const selector: ViewSelector = {};
  for (const [field, list] of Object.entries(value)) {
    if (!VIEW_SELECTOR_KEYS.includes(field)) check.fail(`${key}.${field}`, `is not a known selector key (expected one of: ${VIEW_SELECTOR_KEYS.join(', ')})`);
    selector[field as keyof ViewSelector] = [...new Set(stringArray(check, list, `${key}.${field}`))];
  }
  return selector;
}

function parseViews(check: Checker, root: string, value: unknown, stateDir: string): ViewDeclaration[] {
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
      check.fail(`${scope}.renderer`, `must be one of: ${RENDERERS.join(', ')}${typeof renderer === 'string' ? ` (unknown renderer "${renderer}")` : ''}`);
    }
    for (const [key, owner] of Object.entries(RENDERER_KEYS)) {
      if (view[key] !== undefined && owner !== renderer) check.fail(`${scope}.${key}`, `is a key of the ${owner} renderer, not of ${renderer}`);
    }
    const select = parseSelector(check, view['select'] ?? {}, `${scope}.select`);
    const output = relativePath(check, root, view['output'], `${scope}.output`, false, true);
    if (!output.endsWith('.html')) check.fail(`${scope}.output`, `must name an .html file, got "${output}"`);
    if (output === stateDir || output.startsWith(`${stateDir}/`)) check.fail(`${scope}.output`, `must not lie inside the state dir "${stateDir}"`);
    const twin = views.find((other) => other.output === output);
    if (twin !== undefined) check.fail(`${scope}.output`, `is also the output of view "${twin.id}"; each view writes its own file`);
    const declared: ViewDeclaration = { id, title, renderer: renderer as ViewRenderer, select, output };
    if (renderer === 'matrix') {
      for (const key of ['rows', 'columns', 'relations']) if (view[key] === undefined) check.fail(`${scope}.${key}`, 'is required for the matrix renderer', check.lineOf(`${scope}.id`));
      declared.rows = parseSelector(check, view['rows'], `${scope}.rows`);
      declared.columns = parseSelector(check, view['columns'], `${scope}.columns`);
      const relations = [...new Set(stringArray(check, view['relations'], `${scope}.relations`))];
      if (relations.length === 0) check.fail(`${scope}.relations`, 'must name at least one relation');
      declared.relations = relations;
    }
    if (renderer === 'graph') {
      const focus = view['focus'];
      if (typeof focus !== 'string' || focus === '') check.fail(`${scope}.focus`, 'is required for the graph renderer and must be a node id', focus === undefined ? check.lineOf(`${scope}.id`) : undefined);
      declared.focus = focus;
      declared.depth = intInRange(check, view['depth'], `${scope}.depth`, 1, MAX_GRAPH_DEPTH, 2);
    }
    views.push(declared);
  });
  return views;
}

/**
 * The root-relative real path of an existing path (null when it does not exist or leaves the root).
 * A state dir that does not exist yet but passes through a link is refused by checkStateDirReal.
 */
function realRelative(root: string, rel: string): string | null {
  try {
    const rootReal = realpathSync(root);
    const real = realpathSync(rel === '.' ? root : join(root, rel));
    if (real === rootReal) return '.';
    if (!isInside(rootReal, real)) return null;
    return real.slice(rootReal.length + (rootReal.endsWith(sep) ? 0 : 1)).split(sep).join('/');
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

/**
 * Validates a parsed descriptor and applies every default (DESIGN.md section 3).
 * @param doc the parsed TOML document; `text` its source, for line numbers; `root` the real root
 * @throws DocforgeError `descriptor_invalid` with details `{ path: 'docforge.toml', line, key }`
 */
export function validateDescriptor(doc: Table, text: string, root: string, file: string): Descriptor {
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
  checkStateDirReal(check, root, stateDir);
  const exclude = sources['exclude'] === undefined ? [...DEFAULT_EXCLUDE] : [...stringArray(check, sources['exclude'], 'sources.exclude')];
  for (const always of [`${stateDir}/**`, '**/.git/**']) if (!exclude.includes(always)) exclude.push(always);

  const adapter = optionalTable(check, doc, 'adapter');
  checkKeys(check, adapter, 'adapter', 'adapter');
  const code = adapterCodes(check, adapter['code'], codeRoots);
  const strategy = adapter['strategy'] ?? 'ast';
  if (strategy !== 'ast' && strategy !== 'lexical') check.fail('adapter.strategy', 'must be "ast" or "lexical"');
  const module = adapter['module'] === undefined ? null : relativePath(check, root, adapter['module'], 'adapter.module', false);
  const applier = adapter['canonical_applier'];
  if (applier !== undefined && applier !== 'generic') check.fail('adapter.canonical_applier', 'must be "generic" (the built-in canonical applier); a project-owned applier comes from [adapter] module');

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
    adapter: { code, strategy, module, canonical_applier: applier === 'generic' ? 'generic' : null },
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
    views: parseViews(check, root, doc['views'], stateDir),
    proposals: parseProposals(check, doc),
  };
}

