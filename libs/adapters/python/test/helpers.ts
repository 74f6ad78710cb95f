// Shared test helpers: read the fixture project and run extract + link over it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, relative, sep } from 'node:path';
import type { GraphEdge, LinkResult, ParsedSource } from '@docforge/core';
import { pythonAdapter } from '../src/whole.js';

/** A file of an in-memory Python project: project-relative POSIX path and text. */
export interface SourceFile {
  path: string;
  content: string;
}

/** An extracted file as the linker receives it. */
export type Extracted = Pick<ParsedSource, 'path' | 'nodes' | 'edges' | 'issues' | 'logic_steps' | 'logic_flows' | 'link_data'>;

/** Absolute path of a fixture project kept in test/fixtures (tests run from dist/test). */
export function fixtureDir(name: string): string {
  return fileURLToPath(new URL(`../../test/fixtures/${name}/`, import.meta.url));
}

/** Every `.py` file under a folder, sorted by project-relative POSIX path. */
export function readProject(root: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.py')) out.push({ path: relative(root, full).split(sep).join('/'), content: readFileSync(full, 'utf8') });
    }
  };
  walk(root);
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Extracts one file with strategy `ast`. */
export function extractFile(file: SourceFile): Extracted {
  return { path: file.path, ...pythonAdapter.extract({ path: file.path, content: file.content, strategy: 'ast', logic: true }) };
}

/** Extracts every file and links them with a resolver that knows exactly these paths. */
export function extractAndLink(files: readonly SourceFile[], known: readonly string[] = files.map((f) => f.path)): { parsed: Extracted[]; link: LinkResult } {
  const parsed = files.map(extractFile);
  const paths = new Set(known);
  const link = pythonAdapter.link(parsed, { hasFile: (path) => paths.has(path), readText: () => null });
  return { parsed, link };
}

/** `source relation target @line` strings of edges, sorted, for exact comparisons. */
export function edgeLines(edges: readonly GraphEdge[], relation?: string): string[] {
  return edges
    .filter((edge) => relation === undefined || edge.relation === relation)
    .map((edge) => `${edge.source_id} ${edge.relation} ${edge.target_id} @${edge.line}`)
    .sort();
}
