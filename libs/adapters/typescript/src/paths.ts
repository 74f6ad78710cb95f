/**
 * Path rules of the TypeScript adapter: language, declaration files, test files, entrypoints and
 * the compiler's script kind, all decided from the project-relative path alone.
 */
import './prime.js';
import ts from './compiler-api.js';

const TS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];

/** `typescript` for .ts/.tsx/.mts/.cts, `javascript` otherwise. */
export function languageOf(path: string): 'typescript' | 'javascript' {
  return TS_EXTENSIONS.some((ext) => path.endsWith(ext)) ? 'typescript' : 'javascript';
}

/** Whether a path is a declaration file (`.d.ts`, `.d.mts`, `.d.cts`). */
export function isDeclarationPath(path: string): boolean {
  return /\.d\.[mc]?ts$/.test(path);
}

/**
 * Test-file rule: any directory segment `test`, `tests` or `__tests__`, or a file name
 * `*.test.*` / `*.spec.*`.
 */
export function isTestPath(path: string): boolean {
  const parts = path.split('/');
  const base = parts[parts.length - 1] ?? '';
  if (/\.(test|spec)\.[^.]+$/.test(base)) return true;
  return parts.slice(0, -1).some((p) => p === 'test' || p === 'tests' || p === '__tests__');
}

/**
 * Entrypoint rule at extraction time (package.json is not visible here): a shebang, a
 * `require.main === module` / `import.meta.main` check, a file under a `bin/` directory, a file
 * named `main.*` or `cli.*`, or an `index.*` at the project root or directly under `src/`.
 */
export function isEntrypointPath(path: string): boolean {
  const parts = path.split('/');
  const base = parts[parts.length - 1] ?? '';
  const stem = base.replace(/\.[^.]+$/, '');
  if (stem === 'main' || stem === 'cli') return true;
  if (parts.slice(0, -1).includes('bin')) return true;
  return stem === 'index' && (parts.length === 1 || (parts.length === 2 && parts[0] === 'src'));
}

/** The compiler script kind for a path (TSX, JSX, TS, else JS). */
export function scriptKindOf(path: string): ts.ScriptKind {
  if (path.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (path.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (TS_EXTENSIONS.some((ext) => path.endsWith(ext))) return ts.ScriptKind.TS;
  return ts.ScriptKind.JS;
}
