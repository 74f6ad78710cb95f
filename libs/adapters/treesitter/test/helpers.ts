// Shared test helpers: extract and link in-memory or on-disk projects with one adapter of the family.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { CodeAdapter, GraphEdge, LinkResult, ParsedSource } from '@docforge/core';
import { initTreeLanguage, treeAdapter } from '../src/whole.js';

/** An extracted file as the linker receives it. */
export type Extracted = Pick<ParsedSource, 'path' | 'nodes' | 'edges' | 'issues' | 'logic_steps' | 'logic_flows' | 'link_data' | 'code_text'>;

/** The adapter of a family id, its grammar loaded. */
export async function adapterFor(id: string): Promise<CodeAdapter> {
  await initTreeLanguage(id);
  const adapter = treeAdapter(id);
  if (adapter === null) throw new Error(`no adapter ${id}`);
  return adapter;
}

/** Extracts every file (paths → text) and links them; `texts` also answers `readText` (go.mod, Cargo.toml). */
export function buildMemory(adapter: CodeAdapter, texts: Record<string, string>, strategy: 'ast' | 'lexical' = 'ast', logic = true): { parsed: Extracted[]; link: LinkResult } {
  const code = Object.keys(texts).filter((path) => adapter.extensions.some((ext) => path.endsWith(ext))).sort();
  const parsed = code.map((path) => ({ path, ...adapter.extract({ path, content: texts[path] as string, strategy, logic: logic && strategy === 'ast' }) }));
  const known = new Set(code);
  const link = adapter.link(parsed, { hasFile: (path) => known.has(path), readText: (path) => texts[path] ?? null });
  return { parsed, link };
}

/** Every file under `root` (following no links), project-relative POSIX path → text, for the given extensions and extra file names. */
export function readTree(root: string, extensions: readonly string[], names: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const stat = statSync(full);
      if (stat.isDirectory()) walk(full);
      else if (extensions.some((ext) => name.endsWith(ext)) || names.includes(name)) out[relative(root, full).split(sep).join('/')] = readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return out;
}

/** `source relation target @line` strings, sorted. */
export function edgeLines(edges: readonly GraphEdge[], relation?: string): string[] {
  return edges.filter((e) => relation === undefined || e.relation === relation).map((e) => `${e.source_id} ${e.relation} ${e.target_id} @${e.line}`).sort();
}

/**
 * The `skip` option of a test on installed third-party sources: false when `path` exists, and
 * always false under CI (`DOCFORGE_CI=1`, set by `.ci/run`, which installs the package), where a
 * missing input must fail the test; otherwise the reason.
 */
export function inputSkip(path: string, install: string): false | string {
  if (process.env.DOCFORGE_CI === '1' || existsSync(path)) return false;
  return `${path} is missing (install it: ${install})`;
}

/** The three modules with the most importers: `[module id, importer ids]`, most imported first (ties by id). */
export function mostImported(edges: readonly GraphEdge[], n = 3): [string, string[]][] {
  const by = new Map<string, string[]>();
  for (const edge of edges) if (edge.relation === 'imports') by.set(edge.target_id, [...(by.get(edge.target_id) ?? []), edge.source_id]);
  return [...by].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1)).slice(0, n);
}

/** The text of a 1-based line. */
export function lineOf(texts: Record<string, string>, path: string, line: number): string {
  return (texts[path] ?? '').split('\n')[line - 1] ?? '';
}

/** Where Debian's php-monolog and php-psr-log install their sources. */
export const PHP_SHARE = '/usr/share/php';

/**
 * Debian's php-monolog and php-psr-log install monolog 2.9.1 and psr/log 1.1.4 under /usr/share/php without their composer.json;
 * the project gets the upstream PSR-4 mappings (`Monolog\` → src/Monolog there, `Psr\Log\` → Psr/Log) for the installed layout,
 * and Debian's generated autoload.php files are left out.
 */
export function monologProject(dir: string): void {
  cpSync(join(PHP_SHARE, 'Monolog'), join(dir, 'Monolog'), { recursive: true, dereference: true });
  cpSync(join(PHP_SHARE, 'Psr'), join(dir, 'Psr'), { recursive: true, dereference: true });
  for (const generated of ['Monolog/autoload.php', 'Psr/Log/autoload.php']) rmSync(join(dir, generated), { force: true });
  writeFileSync(join(dir, 'composer.json'), JSON.stringify({ autoload: { 'psr-4': { 'Monolog\\': 'Monolog/', 'Psr\\Log\\': 'Psr/Log/' } } }, null, 1));
}
