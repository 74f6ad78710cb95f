/** Reads the repository's workspaces and their source files with the TypeScript parser: module references (static, type-only, re-exports, dynamic import(), require(), resolve()) and relative path literals. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './paths.js';

/** One npm workspace of the repository. */
export interface Workspace {
  /** Repository-relative POSIX directory, e.g. `libs/core`. */
  dir: string;
  /** Package name, e.g. `@docforge/core`. */
  name: string;
  /** Declared runtime dependencies (names only). */
  dependencies: string[];
  /** Subpath entry points the package declares in its `exports` map besides `.` (e.g. `./manifest`). */
  subpaths: string[];
}

/** How a source file refers to a module. */
export type ReferenceKind = 'import' | 'import-type' | 'export' | 'dynamic-import' | 'require' | 'resolve';

/** A module specifier written in a source file. */
export interface ModuleReference {
  kind: ReferenceKind;
  specifier: string;
  line: number;
}

/** A string literal that climbs out of its directory (`../`), with its line. */
export interface PathLiteral {
  text: string;
  line: number;
}

/** The workspaces listed in the root package.json, in that order. */
export function workspaces(): Workspace[] {
  const root = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
  return root.workspaces.map((dir) => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, dir, 'package.json'), 'utf8')) as { name: string; dependencies?: Record<string, string>; exports?: Record<string, unknown> };
    const subpaths = Object.keys(pkg.exports ?? {}).filter((key) => key.startsWith('./') && key !== '.');
    return { dir, name: pkg.name, dependencies: Object.keys(pkg.dependencies ?? {}), subpaths };
  });
}

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs'];

/** Whether `file` is a hand-written source file: not a declaration file, not a test. */
export function isSourceFile(file: string): boolean {
  const base = path.basename(file);
  if (base.endsWith('.d.ts') || /\.test\.[cm]?[jt]sx?$/.test(base)) return false;
  return SOURCE_EXTENSIONS.some((ext) => base.endsWith(ext));
}

/**
 * Absolute paths of the source files under `dir` (recursively), sorted; skips node_modules,
 * dist, fixtures and, unless `includeGenerated`, every `generated/` directory.
 */
export function sourceFiles(dir: string, includeGenerated = false): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (['node_modules', 'dist', 'fixtures'].includes(entry.name) || (!includeGenerated && entry.name === 'generated')) continue;
      out.push(...sourceFiles(full, includeGenerated));
    } else if (isSourceFile(full)) out.push(full);
  }
  return out;
}

/**
 * Every source file under apps/star/src, libs/star-star/src and protocol/src (through the
 * workspaces), plus a browser page's sources under apps/star/web/src; generated code excluded.
 */
export function allSourceFiles(): string[] {
  return workspaces().flatMap((ws) => [...sourceFiles(path.join(REPO_ROOT, ws.dir, 'src')), ...sourceFiles(path.join(REPO_ROOT, ws.dir, 'web', 'src'))]);
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

function literalText(node: ts.Node | undefined): string | null {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null;
}

/** The module references and climbing path literals of one file. */
export function scanFile(file: string): { references: ModuleReference[]; paths: PathLiteral[] } {
  const source = parse(file);
  const references: ModuleReference[] = [];
  const paths: PathLiteral[] = [];
  const lineOf = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const specifier = literalText(node.moduleSpecifier);
      if (specifier !== null) references.push({ kind: node.importClause?.isTypeOnly ? 'import-type' : 'import', specifier, line: lineOf(node) });
    } else if (ts.isExportDeclaration(node)) {
      const specifier = literalText(node.moduleSpecifier);
      if (specifier !== null) references.push({ kind: 'export', specifier, line: lineOf(node) });
    } else if (ts.isImportTypeNode(node)) {
      const specifier = ts.isLiteralTypeNode(node.argument) ? literalText(node.argument.literal) : null;
      if (specifier !== null) references.push({ kind: 'import-type', specifier, line: lineOf(node) });
    } else if (ts.isCallExpression(node)) {
      const first = literalText(node.arguments[0]);
      if (first !== null) {
        if (node.expression.kind === ts.SyntaxKind.ImportKeyword) references.push({ kind: 'dynamic-import', specifier: first, line: lineOf(node) });
        else if (ts.isIdentifier(node.expression) && node.expression.text === 'require') references.push({ kind: 'require', specifier: first, line: lineOf(node) });
        else if (ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'resolve' && !first.startsWith('.') && !first.startsWith('/')) {
          // require.resolve('pkg'), import.meta.resolve('pkg'), createRequire(...).resolve('pkg'): package resolution without importing.
          references.push({ kind: 'resolve', specifier: first, line: lineOf(node) });
        }
      }
    }
    const text = literalText(node);
    if (text !== null && /(^|[/\\])\.\.([/\\]|$)/.test(text)) paths.push({ text, line: lineOf(node) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { references, paths };
}

/**
 * Resolves a relative module specifier of `file` to a source file: `./x.js` → `x.ts` (or the
 * same name with another source extension, or `x/index.ts`). Returns null when nothing matches.
 */
export function resolveRelative(file: string, specifier: string): string | null {
  const target = path.resolve(path.dirname(file), specifier);
  const stem = target.replace(/\.[cm]?js$/, '');
  const candidates = [target, ...SOURCE_EXTENSIONS.map((ext) => `${stem}${ext}`), ...SOURCE_EXTENSIONS.map((ext) => path.join(target, `index${ext}`))];
  return candidates.find((c) => existsSync(c) && isSourceFile(c) && !c.endsWith('.d.ts')) ?? null;
}

/** The workspace holding an absolute path, or null when it lies in none. */
export function workspaceOf(file: string, list: readonly Workspace[] = workspaces()): Workspace | null {
  const rel = path.relative(REPO_ROOT, file).split(path.sep).join('/');
  return list.filter((ws) => rel === ws.dir || rel.startsWith(`${ws.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0] ?? null;
}

/** Repository-relative POSIX path of an absolute path, for messages. */
export function repoPath(file: string): string {
  return path.relative(REPO_ROOT, file).split(path.sep).join('/');
}
