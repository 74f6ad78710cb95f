/**
 * `docforge init` (DESIGN.md section 3): guessing content and code roots from a directory and
 * writing a commented schema-version-1 docforge.toml without overwriting an existing one.
 */
import { existsSync, linkSync, lstatSync, opendirSync, readdirSync, realpathSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { errors } from '@docforge/core';
import { BUILTIN_ADAPTER_MANIFESTS } from '@docforge/identity';
import { BUILTIN_CODE_ADAPTERS, DESCRIPTOR_FILE, ID_PATTERN } from '@docforge/project';
import { buildFoldersHoldingCode } from './build-code.js';
import { packageEntries } from './entries.js';
import { generatedCopies } from './generated.js';
import { leftAsCodeFolder } from './code-folder.js';
import { unreadableLeftOut, type InitLeftOut } from './left-out.js';
export type { InitLeftOut } from './left-out.js';

export interface DescriptorTemplate {
  id: string;
  name: string;
  content_roots: readonly string[];
  code_roots: readonly string[];
  /** Built-in code adapter ids; empty renders `"none"`. */
  code: readonly string[];
  /** `[sources].exclude` globs; {@link DEFAULT_EXCLUDES} when omitted. */
  exclude?: readonly string[];
  /** `"c"`: render `[adapter.c] headers = "c"` (a C-only project: `.h` files are read as C); omitted: no such line. */
  c_headers?: 'c';
}

/** The excludes every proposed descriptor carries. */
export const DEFAULT_EXCLUDES: readonly string[] = ['**/node_modules/**', '**/.git/**'];
/** Further excludes when the code root is the project root: build output and coverage reports. */
export const ROOT_CODE_EXCLUDES: readonly string[] = ['dist/**', 'build/**', 'coverage/**', '.nyc_output/**'];
/** Root-level tool configuration files (`eslint.config.js`, `vite.config.ts`, …): not entry points. */
const CONFIG_FILE = /(^|\.)(config|rc)\.[cm]?[jt]s$|^\.[\w-]+rc\.[cm]?js$/i;

function tomlString(value: string): string {
  return JSON.stringify(value);
}

function tomlArray(values: readonly string[]): string {
  return `[${values.map(tomlString).join(', ')}]`;
}

/**
 * The comment above `strategy`: what "ast" gives for the descriptor's code adapters, read from
 * each built-in adapter's manifest (`logic`), so it never promises Logic an adapter does not build
 * (a Python project's "function Logic allowed" of the new-user trial). With no code adapter, every
 * adapter that builds Logic is named. Pure.
 * @param code the `[adapter] code` ids (built-in ids; unknown ids are left out)
 */
export function strategyComment(code: readonly string[]): string[] {
  const manifests = code.length === 0 ? BUILTIN_ADAPTER_MANIFESTS : code.flatMap((id) => BUILTIN_ADAPTER_MANIFESTS.filter((m) => m.id === id));
  const quoted = (ids: readonly string[]): string => ids.map((id) => `"${id}"`).join(', ');
  const withLogic = manifests.filter((m) => m.logic).map((m) => m.id);
  const without = manifests.filter((m) => !m.logic).map((m) => m.id);
  let ast: string;
  if (code.length === 0) ast = `syntax trees; function Logic for the ${quoted(withLogic)} adapters`;
  else if (without.length === 0) ast = `syntax trees and function Logic (${quoted(withLogic)})`;
  else if (withLogic.length === 0) ast = `syntax trees; the ${quoted(without)} ${without.length === 1 ? 'adapter builds' : 'adapters build'} no Logic`;
  else ast = `syntax trees; function Logic for ${quoted(withLogic)}, none for ${quoted(without)}`;
  return [`# "ast" (${ast}) or "lexical" (no syntax trees, no Logic).`];
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
    '# Folders of canonical Markdown (*.md) and TOML record files, or single Markdown files;',
    '# the only paths DocForge may write.',
    `content_roots = ${tomlArray(d.content_roots)}`,
    '# Read by the code adapters; never written.',
    `code_roots = ${tomlArray(d.code_roots)}`,
    `exclude = ${tomlArray(d.exclude ?? DEFAULT_EXCLUDES)}`,
    '',
    '[adapter]',
    `# Built-in code adapters: ${BUILTIN_CODE_ADAPTERS.map((id) => `"${id}"`).join(', ')}, "auto" (all of them) or "none".`,
    `code = ${code}`,
    ...strategyComment(d.code),
    'strategy = "ast"',
    '',
    ...(d.c_headers === 'c' ? ['[adapter.c]', '# .h files are C: the code roots hold no C++ source ("cpp", the default, reads them as C++).', 'headers = "c"', ''] : []),
    '[limits]',
    'max_results = 200           # cap for every collection tool (1..10000)',
    'max_output_chars = 60000    # MCP response size limit (4000..10000000; a lower value is raised to 4000)',
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
  /** Folder roots first, then top-level Markdown files, each its own file root. */
  content_roots: string[];
  code_roots: string[];
  /** Markdown files found under the chosen content roots (file roots included). */
  markdown_files: number;
  /** What init found but did not declare, with the reason and how to add it. */
  left_out: InitLeftOut[];
  /** Build-named folders read as code (the only copy of code the rest imports, yargs' `build/`), each with why. */
  kept: InitLeftOut[];
  /**
   * What the written descriptor will not give, one sentence each with what to do (a Go project
   * without go.mod: its imports do not resolve). Empty when there is nothing to say.
   */
  warnings: string[];
}

const MARKDOWN_EXT = /\.(md|markdown)$/i;
const TS_EXT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i;
const PY_EXT = /\.py$/i;
const DOCS_FOLDERS = ['docs', 'doc', 'documentation'];
/** License and notice files (`LICENSE.md`, `License.md`, `COPYING.md`, `NOTICE.md`, `LICENCE-MIT.md`): legal text, no file root. */
const LICENSE_FILE = /^(licen[cs]e|copying|notice|unlicense)([-_.][\w.-]*)?\.(md|markdown)$/i;

/** A language init recognises: its code files, the top-level files that mark a project of it, and its build and vendor folders. */
interface LanguageRule {
  id: string;
  display: string;
  ext: RegExp;
  /** Top-level file names that mark the language's project (`go.mod`). */
  marker: RegExp | null;
  /** Folder names of build output and vendored dependencies, excluded as `**\/NAME/**` when the language is detected (`cmake-build-*`: every folder so named). */
  folders: readonly string[];
  /** When set, the marker counts only if the project holds a file this matches (a Makefile marks C/C++ only beside .c/.cpp files). */
  markerNeedsCode?: RegExp;
}

/** The languages of the built-in adapters (issue 33 item 5); only ids in BUILTIN_CODE_ADAPTERS are proposed. */
const LANGUAGE_RULES: readonly LanguageRule[] = [
  { id: 'typescript', display: 'TypeScript/JavaScript', ext: TS_EXT, marker: null, folders: [] },
  { id: 'python', display: 'Python', ext: PY_EXT, marker: null, folders: [] },
  { id: 'go', display: 'Go', ext: /\.go$/i, marker: /^go\.mod$/, folders: ['vendor'] },
  { id: 'rust', display: 'Rust', ext: /\.rs$/i, marker: /^Cargo\.toml$/, folders: ['target'] },
  { id: 'java', display: 'Java', ext: /\.java$/i, marker: /^(pom\.xml|build\.gradle(\.kts)?|settings\.gradle(\.kts)?)$/, folders: ['target', 'build', '.gradle'] },
  { id: 'csharp', display: 'C#', ext: /\.cs$/i, marker: /\.(csproj|sln)$/, folders: ['bin', 'obj'] },
  { id: 'ruby', display: 'Ruby', ext: /\.rb$/i, marker: /^(Gemfile|.+\.gemspec)$/, folders: ['vendor/bundle'] },
  { id: 'php', display: 'PHP', ext: /\.php$/i, marker: /^composer\.json$/, folders: ['vendor'] },
  { id: 'cpp', display: 'C/C++', ext: /\.(c|h|cc|cpp|cxx|hpp|hh|hxx)$/i, marker: /^(CMakeLists\.txt|Makefile|makefile|GNUmakefile)$/, folders: ['build', 'cmake-build-*'], markerNeedsCode: /\.(c|cc|cpp|cxx)$/i },
];

function activeRules(): LanguageRule[] {
  return LANGUAGE_RULES.filter((rule) => BUILTIN_CODE_ADAPTERS.includes(rule.id));
}

function skippedDir(name: string, skip: ReadonlySet<string> = new Set()): boolean {
  return name.startsWith('.') || name === 'node_modules' || skip.has(name) || (skip.has('cmake-build-*') && name.startsWith('cmake-build-'));
}

/** Depth-first visit of regular files below `dir` (skipping dot dirs, node_modules and `skip`); stop when `visit` returns true. */
function visitFiles(dir: string, visit: (name: string) => boolean, skip: ReadonlySet<string> = new Set()): boolean {
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
    if (entry.isDirectory() && !skippedDir(entry.name, skip) && visitFiles(join(dir, entry.name), visit, skip)) return true;
  }
  return false;
}

/** Markdown files below `dir` (as {@link visitFiles} sees them). */
function countMarkdown(dir: string): number {
  let count = 0;
  visitFiles(dir, (file) => {
    if (MARKDOWN_EXT.test(file)) count += 1;
    return false;
  });
  return count;
}

/** The project's top level: folders init may choose (sorted), hidden folders, and regular files (sorted). */
interface TopLevel {
  dirs: string[];
  hidden: string[];
  files: string[];
  nodeModules: boolean;
  /** Top-level names {@link UNNAMEABLE} matches: never proposed, listed as left out. */
  unnameable: string[];
  /** Top-level folders init could not list (`EACCES`, ...), with the error code: never proposed, listed as left out. */
  unreadable: { name: string; code: string }[];
}

/** The error code of listing `dir`, or null when it can be listed. */
function listingError(dir: string): string | null {
  try {
    opendirSync(dir).closeSync();
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'unknown';
  }
}

/** A name docforge.toml cannot hold as a root: a backslash or a drive prefix (`C:`) reads as a non-POSIX or absolute path there. */
const UNNAMEABLE = /\\|^[A-Za-z]:/;

function topLevelOf(root: string): TopLevel {
  const all = readdirSync(root, { withFileTypes: true });
  const entries = all.filter((entry) => !UNNAMEABLE.test(entry.name));
  const names = (keep: (entry: (typeof entries)[number]) => boolean): string[] => entries.filter(keep).map((entry) => entry.name).sort();
  const unreadable = names((entry) => entry.isDirectory() && !skippedDir(entry.name)).flatMap((name) => {
    const code = listingError(join(root, name));
    return code === null ? [] : [{ name, code }];
  });
  const unreadableNames = new Set(unreadable.map((entry) => entry.name));
  return {
    unreadable,
    dirs: names((entry) => entry.isDirectory() && !skippedDir(entry.name) && !unreadableNames.has(entry.name)),
    hidden: names((entry) => entry.isDirectory() && entry.name.startsWith('.') && entry.name !== '.git'),
    files: names((entry) => entry.isFile()),
    nodeModules: entries.some((entry) => entry.name === 'node_modules'),
    unnameable: all.filter((entry) => UNNAMEABLE.test(entry.name) && (entry.isDirectory() || entry.isFile())).map((entry) => entry.name).sort(),
  };
}

/**
 * The content roots of a project (issue 30 item 11): `docs`/`doc`/`documentation` when they hold
 * Markdown, else the top-level folders holding Markdown; then every top-level Markdown file (the
 * main README first among them by name order) as its own file root, never `.` (which would make
 * every top-level `*.toml` a record file). Whatever holds Markdown or TOML and is not declared is
 * listed in `leftOut` with the reason.
 */
function contentChoice(root: string, top: TopLevel): { roots: string[]; markdownFiles: number; leftOut: InitLeftOut[] } {
  const leftOut: InitLeftOut[] = [];
  const counts = new Map(top.dirs.map((name) => [name, countMarkdown(join(root, name))]));
  const withMarkdown = top.dirs.filter((name) => (counts.get(name) ?? 0) > 0);
  let dirRoots = withMarkdown.filter((name) => DOCS_FOLDERS.includes(name));
  if (dirRoots.length > 0) {
    for (const name of withMarkdown.filter((dir) => !dirRoots.includes(dir))) {
      leftOut.push({ path: name, reason: `holds ${counts.get(name)} Markdown ${counts.get(name) === 1 ? 'file' : 'files'}, but ${dirRoots.join(', ')} is the documentation folder; add "${name}" to content_roots to index it` });
    }
  } else dirRoots = withMarkdown.filter((name) => !leftAsCodeFolder(root, name, counts.get(name) ?? 0, (file) => activeRules().some((rule) => rule.ext.test(file)), leftOut));
  for (const name of top.hidden) {
    if (countMarkdown(join(root, name)) > 0) leftOut.push({ path: name, reason: 'a hidden folder (tool configuration such as .github); add it to content_roots to index its Markdown' });
  }
  const fileRoots: string[] = [];
  for (const file of top.files.filter((name) => MARKDOWN_EXT.test(name))) {
    if (LICENSE_FILE.test(file)) { leftOut.push({ path: file, reason: 'a license or notice file, not documentation; add it to content_roots to index it' }); continue; }
    const stem = file.replace(MARKDOWN_EXT, '');
    const twin = dirRoots.flatMap((dir) => [`${dir}/${stem}.md`, `${dir}/${stem}.markdown`]).find((rel) => existsSync(join(root, rel)));
    if (twin !== undefined) {
      leftOut.push({ path: file, reason: `its document id "${stem}" would be the id of ${twin} too (a duplicate id); give one of them an id in TOML front matter, then add "${file}" to content_roots` });
    } else fileRoots.push(file);
  }
  for (const file of top.files.filter((name) => /\.toml$/i.test(name) && name !== DESCRIPTOR_FILE)) {
    leftOut.push({ path: file, reason: 'top-level TOML is configuration, not DocForge records (a content root reads every *.toml as a record file, so the project root is never one)' });
  }
  if (top.nodeModules) leftOut.push({ path: 'node_modules', reason: 'installed dependencies are never indexed' });
  for (const name of top.unnameable) leftOut.push({ path: name, reason: 'its name holds a backslash or a drive prefix, which a docforge.toml path cannot express (paths use forward slashes); rename it to index it' });
  let markdownFiles = fileRoots.length;
  for (const dir of dirRoots) markdownFiles += counts.get(dir) ?? 0;
  return { roots: [...dirRoots, ...fileRoots], markdownFiles, leftOut };
}

/** How deep below the root a marker file is looked for when none is at the top level (`src/App/App.csproj` is depth 2). */
const NESTED_MARKER_DEPTH = 3;
/** At most this many folders are read while looking for a nested marker (a bound on init's cost in huge trees). */
const NESTED_MARKER_DIRS = 2_000;

/**
 * The project-relative path of the rule's marker file: a top-level one (`go.mod`), else the first
 * found breadth-first up to {@link NESTED_MARKER_DEPTH} folders down (a C# solution whose projects
 * sit in `src/App/App.csproj`, a Maven multi-module tree), skipping hidden folders, `node_modules`
 * and the rule's own build folders; undefined when there is none.
 */
function findMarker(root: string, top: TopLevel, rule: LanguageRule): string | undefined {
  const marker = rule.marker;
  if (marker === null) return undefined;
  const atTop = top.files.find((file) => marker.test(file));
  if (atTop !== undefined) return atTop;
  const skip = new Set(rule.folders.map((folder) => folder.split('/')[0]!));
  let level = top.dirs.filter((dir) => !skippedDir(dir, skip));
  let read = 0;
  for (let depth = 1; depth <= NESTED_MARKER_DEPTH && level.length > 0; depth += 1) {
    const next: string[] = [];
    for (const dir of level) {
      if (read++ >= NESTED_MARKER_DIRS) return undefined;
      let entries;
      try {
        entries = readdirSync(join(root, dir), { withFileTypes: true });
      } catch {
        continue;
      }
      const found = entries.find((entry) => entry.isFile() && marker.test(entry.name));
      if (found !== undefined) return `${dir}/${found.name}`;
      for (const entry of entries) if (entry.isDirectory() && !skippedDir(entry.name, skip)) next.push(`${dir}/${entry.name}`);
    }
    level = next.sort();
  }
  return undefined;
}

/**
 * The languages whose marker file is at the top level (`go.mod`, `Cargo.toml`, …) or a few folders
 * down ({@link findMarker}), and the build and vendor folders to exclude for them, each with a
 * left-out entry when the folder is there (at the top level or beside the marker).
 */
function markedLanguages(root: string, top: TopLevel): { marked: Set<string>; skip: Set<string>; excludes: string[]; leftOut: InitLeftOut[] } {
  const marked = new Set<string>();
  const skip = new Set<string>();
  const excludes: string[] = [];
  const leftOut: InitLeftOut[] = [];
  for (const rule of activeRules()) {
    const marker = findMarker(root, top, rule);
    const needs = rule.markerNeedsCode;
    if (marker === undefined || (needs !== undefined && !visitFiles(root, (file) => needs.test(file), new Set(rule.folders)))) continue;
    marked.add(rule.id);
    for (const folder of rule.folders) {
      skip.add(folder.split('/')[0]!);
      const glob = `**/${folder}/**`;
      if (!excludes.includes(glob)) excludes.push(glob);
      const beside = marker.includes('/') ? marker.slice(0, marker.lastIndexOf('/') + 1) : '';
      const present = folder.endsWith('*') ? top.dirs.filter((dir) => dir.startsWith(folder.slice(0, -1)))
        : [folder, `${beside}${folder}`].filter((rel, i, all) => all.indexOf(rel) === i && existsSync(join(root, rel)));
      for (const path of present) {
        if (!leftOut.some((entry) => entry.path === path)) leftOut.push({ path, reason: `${rule.display} build output or vendored dependencies (the project has ${marker}); excluded as "${glob}"` });
      }
    }
  }
  return { marked, skip, excludes, leftOut };
}

/** The code roots and adapter languages: top-level folders holding code, or `.` when the root itself holds an entry point. */
function codeChoice(root: string, top: TopLevel, contentRoots: readonly string[], skip: ReadonlySet<string>): { roots: string[]; languages: Set<string> } {
  const rules = activeRules();
  const languages = new Set<string>();
  const roots: string[] = [];
  for (const name of top.dirs) {
    if (contentRoots.includes(name) || skippedDir(name, skip)) continue;
    let found = false;
    visitFiles(join(root, name), (file) => {
      for (const rule of rules) if (rule.ext.test(file)) { languages.add(rule.id); found = true; }
      return languages.size === rules.length;
    }, skip);
    if (found) roots.push(name);
  }
  // Root-level code files (a package's entry point such as pino's pino.js, a Go module's package
  // files) are only covered by the root itself: then the code root is `.`, with build output and
  // coverage excluded too.
  if (top.files.some((file) => rules.some((rule) => rule.ext.test(file)) && !(TS_EXT.test(file) && CONFIG_FILE.test(file)))) {
    roots.splice(0, roots.length, '.');
    for (const rule of rules) if (top.files.some((file) => rule.ext.test(file))) languages.add(rule.id);
  }
  return { roots, languages };
}

/**
 * The folders {@link ROOT_CODE_EXCLUDES} leaves out when the code root is the project root, each
 * listed with its reason (none is excluded silently); one holding code files says how many, since a
 * folder named `build` may hold real sources (fastify's `build/build-validation.js`).
 */
function rootExcludesLeftOut(root: string, codeRoots: readonly string[], listed: readonly InitLeftOut[]): InitLeftOut[] {
  if (!codeRoots.includes('.')) return [];
  const rules = activeRules();
  const out: InitLeftOut[] = [];
  for (const glob of ROOT_CODE_EXCLUDES) {
    const folder = glob.replace(/\/\*\*$/, '');
    if (listed.some((entry) => entry.path === folder) || !existsSync(join(root, folder))) continue;
    let code = 0;
    visitFiles(join(root, folder), (file) => {
      if (rules.some((rule) => rule.ext.test(file))) code += 1;
      return code >= 1000;
    });
    const holds = code === 0 ? '' : ` It holds ${code >= 1000 ? 'over 1,000' : code} code ${code === 1 ? 'file' : 'files'}: if ${code === 1 ? 'it is a source' : 'they are sources'}, not generated, remove "${glob}" from [sources].exclude.`;
    out.push({ path: folder, reason: `build output or coverage reports by its name (the code root is the project root); excluded as "${glob}".${holds}` });
  }
  return out;
}

/** Whether the code roots hold no C++ file (`.cc`, `.cpp`, `.cxx`, `.hpp`, `.hh`, `.hxx`): with C/C++ detected, a C-only project. */
function noCppSources(root: string, codeRoots: readonly string[], skip: ReadonlySet<string>): boolean {
  return !codeRoots.some((codeRoot) => visitFiles(join(root, codeRoot), (name) => /\.(cc|cpp|cxx|hpp|hh|hxx)$/i.test(name), skip));
}

function sanitizeId(name: string): string {
  const id = name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '').slice(0, 64).replace(/[-.]+$/, '');
  return id === '' ? 'project' : id;
}

/**
 * `docforge init DIR`: inspects DIR and writes a docforge.toml for it (atomically: temp file, then
 * a no-overwrite link into place). Content roots: `docs`/`doc`/`documentation` when they hold
 * Markdown, else the top-level directories holding Markdown but not more code (code-folder.ts), plus each top-level Markdown file as
 * a file root (never `.`); what is not declared is listed in `left_out`. Code roots: the other
 * top-level directories holding code files of a built-in adapter (.ts/.js, .py, .go, .rs,
 * .java, .cs), or `.` when the root itself holds code files other than tool configuration (pino's `pino.js`), then also
 * excluding {@link ROOT_CODE_EXCLUDES} except a folder that is the only copy of code the rest imports (`kept`). A language whose marker file is at the top level (`go.mod`)
 * gets its build and vendor folders excluded (`**\/vendor/**`), and those present are listed in `left_out`.
 * Generated copies under the code roots (CommonJS twins of ES modules, `cdn.js`/`*.min.js`
 * bundles; generated.ts) are excluded too, each glob listed in `left_out` with its count.
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
    throw errors.invalidArguments(`cannot initialize ${dir}: not an existing directory`, { path: DESCRIPTOR_FILE, line: null, key: null }, { cause: error });
  }
  const target = join(root, DESCRIPTOR_FILE);
  if (existsSync(target)) {
    throw errors.invalidArguments(`${target} already exists; init refuses to overwrite it (edit that file, or remove it and run init again)`, { path: DESCRIPTOR_FILE, line: null, key: null });
  }
  const id = options.id ?? sanitizeId(basename(root));
  if (!ID_PATTERN.test(id)) {
    throw errors.descriptorInvalid(`${DESCRIPTOR_FILE}: [project].id must match ^[a-z0-9][a-z0-9._-]{0,63}$, got "${id}"`, { path: DESCRIPTOR_FILE, line: null, key: 'project.id' });
  }

  const top = topLevelOf(root);
  const content = contentChoice(root, top);
  const contentRoots = content.roots;
  const marks = markedLanguages(root, top);
  const chosen = codeChoice(root, top, contentRoots, marks.skip);
  const { languages } = chosen;
  // Build-named folders that hold the only copy of code the rest imports are code (yargs' build/).
  const buildNames = ROOT_CODE_EXCLUDES.map((glob) => glob.replace(/\/\*\*$/, ''));
  const entries = packageEntries(root);
  const kept = chosen.roots.includes('.') || chosen.roots.includes('dist')
    ? buildFoldersHoldingCode(root, chosen.roots.includes('.') ? buildNames.filter((name) => top.dirs.includes(name)) : ['dist'], (rel) => skippedDir(basename(rel), marks.skip), entries.named) : [];
  const isKept = (name: string): boolean => kept.some((entry) => entry.path === name);
  // A top-level dist/ beside other code folders is their build output (issue 30: generated copies).
  const distOut: InitLeftOut[] = chosen.roots.length > 1 && chosen.roots.includes('dist') && !isKept('dist')
    ? [{ path: 'dist', reason: `build output beside the source folders ${chosen.roots.filter((dir) => dir !== 'dist').join(', ')}: not a code root (add "dist" to code_roots to index it)` }] : [];
  const codeRoots = distOut.length > 0 ? chosen.roots.filter((dir) => dir !== 'dist') : chosen.roots;
  const base = codeRoots.includes('.') ? [...DEFAULT_EXCLUDES, ...ROOT_CODE_EXCLUDES.filter((_, i) => !isKept(buildNames[i]!))] : [...DEFAULT_EXCLUDES];
  // Generated copies (CommonJS twins, cdn/min bundles) under what the roots and excludes leave read.
  const rootExcluded = codeRoots.includes('.') ? new Set(buildNames.filter((name) => !isKept(name))) : new Set<string>();
  const copies = generatedCopies(root, codeRoots, (rel, name) => skippedDir(name, marks.skip) || rootExcluded.has(rel), entries);
  const exclude = [...base, ...marks.excludes.filter((glob) => !base.includes(glob.replace(/^\*\*\//, '')) && !base.includes(glob)), ...copies.excludes];

  const code = BUILTIN_CODE_ADAPTERS.filter((language) => languages.has(language));
  // The file system root has no name of its own: the project's name must not be empty (the loader refuses it).
  const cHeaders = code.includes('cpp') && noCppSources(root, codeRoots, marks.skip) ? { c_headers: 'c' as const } : {};
  const text = renderDescriptor({ id, name: basename(root) || id, content_roots: contentRoots, code_roots: codeRoots, code, exclude, ...cHeaders });
  const temp = join(root, `.${DESCRIPTOR_FILE}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, text, { flag: 'wx' });
  } catch (error) {
    // A folder init may not write in (EACCES, EROFS, ENOSPC) is a refusal that names it, never an internal error.
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    throw errors.projectRootInvalid(root, `is not writable (${code}): init could not write ${DESCRIPTOR_FILE} there`, { path: DESCRIPTOR_FILE, errno: code }, { cause: error });
  }
  try {
    try {
      linkSync(temp, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        throw errors.invalidArguments(`${target} already exists; init refuses to overwrite it (edit that file, or remove it and run init again)`, { path: DESCRIPTOR_FILE, line: null, key: null });
      }
      // File systems without hard links: fall back to rename after the existence check above.
      renameSync(temp, target);
    }
  } finally {
    try { unlinkSync(temp); } catch { /* already renamed */ }
  }
  return {
    path: target, descriptor_text: text, content_roots: contentRoots, code_roots: codeRoots, markdown_files: content.markdownFiles,
    left_out: [...content.leftOut, ...marks.leftOut, ...rootExcludesLeftOut(root, codeRoots, [...marks.leftOut, ...kept]), ...distOut, ...copies.leftOut, ...unreadableLeftOut(top.unreadable)], kept,
    warnings: code.includes('go') && !marks.marked.has('go') ? [GO_MODULE_MISSING] : [],
  };
}

/**
 * The warning for Go code without a go.mod (a GOPATH layout such as Debian's /usr/share/gocode):
 * the Go adapter resolves an import through the module path of a go.mod (go-resolve.ts), so
 * without one no import between the project's packages is linked, nor an external test package's
 * (`package x_test`) import of the package it tests.
 */
const GO_MODULE_MISSING = `Go files but no go.mod (looked at the top level and up to ${NESTED_MARKER_DEPTH} folders down): Go imports resolve through a go.mod's module path, so imports between this project's packages, and the edges from external test packages (package x_test) to the code they test, will be missing; add a go.mod at the module root ("go mod init MODULE_PATH", e.g. the import path the code uses) and run docforge sync`;
