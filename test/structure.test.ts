// Pins the standing structural rules of issue 29 item 6: no function over 80 lines in the src/ of every lib and app, no lib over 5,000 hand-written lines, one entry per lib, no module-level mutable state in the libs (justified exceptions listed); the 500-line file cap stays in file-size.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './helpers/paths.js';
import { repoPath, resolveRelative, scanFile, sourceFiles, workspaceOf, workspaces, type Workspace } from './helpers/source-graph.js';

const MAX_FUNCTION_LINES = 80;
const MAX_LIB_LINES = 5_000;

type Rule = 'function-length' | 'lib-size' | 'one-entry' | 'module-state';

/**
 * Justified module-level mutable state in the libs' src/ (`file: name`), each with its reason.
 * A lazily imported module is memoized so a command that never needs it never loads it.
 */
const MODULE_STATE_EXCEPTIONS: Readonly<Record<string, string>> = {
  'libs/fs-safe/src/process-identity.ts: ownStart': "this process's own start identity, read once from the OS (it cannot change while the process lives)",
  'libs/project/src/front-matter.ts: yamlModule': 'memo of the lazily imported yaml module',
  'libs/markdown/src/markdown-facts.ts: parser': 'memo of the lazily created markdown-it parser (stateless between calls)',
  'libs/adapters/python/src/runtime.ts: parser': 'memo of the lazily loaded tree-sitter Python parser (WASM, loaded once per process)',
  'libs/adapters/python/src/runtime.ts: loading': 'the one in-flight load of that parser, shared by concurrent callers',
  'libs/adapters/treesitter/src/runtime.ts: parsers': 'memo of the lazily loaded tree-sitter parsers by grammar (WASM grammars, each loaded once per thread when a file first needs it; replaced, never mutated)',
  'libs/adapters/treesitter/src/runtime.ts: loading': 'the in-flight grammar loads by grammar, shared by concurrent callers',
  'libs/changesets/src/diff.ts: diffModule': 'memo of the lazily imported diff module',
  'libs/changesets/src/serialize.ts: yamlModule': 'memo of the lazily imported yaml module',
  'libs/render/src/markdown.ts: md': 'memo of the lazily created markdown-it renderer (stateless between calls)',
  'libs/render/src/renderers/graph.ts: elk': 'memo of the lazily created ELK layout engine',
  'libs/store/src/reader-statements.ts: rowsRead': "the process's count of index rows read, behind the MCP server's --diagnostics rows_read (every reader of the process counts, whoever opened it)",
  'libs/identity/src/adapter-registry.ts: adapterLoader': "how this thread loads a code adapter, set once at its start (the build worker's bundle or the compiled libs); the registry it fills is per thread",
  'libs/identity/src/adapter-registry.ts: linkerLoader': 'how this thread loads a code adapter\'s linking half, set with adapterLoader',
  'libs/stdio/src/stdout-guard.ts: installed': 'whether this thread already redirected its stdout (a thread-global stream): installing twice would send MCP frames to the log',
};

const list = workspaces();
const libs = list.filter((ws) => ws.dir.startsWith('libs/'));

/** Source files of `src/` (tests, .d.ts and generated/ aside; a browser page's `web/` lies outside src/). */
function srcFiles(ws: Workspace): string[] {
  return sourceFiles(path.join(REPO_ROOT, ws.dir, 'src'));
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** Lines of every function-like node with a body, from its first token to its end; `line: lines` for those over the cap. */
function longFunctions(source: ts.SourceFile, max: number): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const lines = source.getLineAndCharacterOfPosition(node.end).line - first + 1;
      if (lines > max) out.push(`${first + 1}: ${lines} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Fails with the offenders of one rule, if any (a standing rule: no pending list). */
function assertRule(rule: Rule, offenders: Map<string, string>): void {
  const found = [...offenders].map(([p, why]) => `${p}: ${why}`);
  assert.deepEqual(found, [], `${rule} offenders:\n${found.join('\n')}`);
}

test('the function measure counts every function-like node with a body, from its first token to its end', () => {
  const probe = ts.createSourceFile('probe.ts', [
    'function a() {', '  return 1;', '}',
    'const b = () => {', '  const c = function () {', '    return 2;', '  };', '};',
    'declare function d(): void;',
    'class E {', '  m() {', '  }', '}',
  ].join('\n'), ts.ScriptTarget.Latest, true);
  assert.deepEqual(longFunctions(probe, 1), ['1: 3 lines', '4: 5 lines', '5: 3 lines', '11: 2 lines']);
});

test(`no function in the src/ of a lib or an app has more than ${MAX_FUNCTION_LINES} lines`, () => {
  const offenders = new Map<string, string>();
  let files = 0;
  for (const ws of list) {
    for (const file of srcFiles(ws)) {
      files += 1;
      const long = longFunctions(parse(file), MAX_FUNCTION_LINES);
      if (long.length > 0) offenders.set(repoPath(file), long.join(', '));
    }
  }
  assert.ok(files > 50, `${files} source files`);
  assertRule('function-length', offenders);
});

test(`no lib has more than ${MAX_LIB_LINES} hand-written lines in src/`, () => {
  const offenders = new Map<string, string>();
  for (const ws of libs) {
    const lines = srcFiles(ws).reduce((sum, file) => {
      const text = readFileSync(file, 'utf8');
      return sum + (text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
    }, 0);
    if (lines > MAX_LIB_LINES) offenders.set(ws.dir, `${lines} lines`);
  }
  assert.ok(libs.length >= 10, `${libs.length} libs`);
  assertRule('lib-size', offenders);
});

test('one entry per lib: no subpath in its exports, no import of its inner files from outside it', () => {
  const offenders = new Map<string, string>();
  const add = (p: string, why: string): void => {
    offenders.set(p, offenders.has(p) ? `${offenders.get(p)}; ${why}` : why);
  };
  const libByName = new Map(libs.map((ws) => [ws.name, ws]));
  for (const ws of libs) {
    if (ws.subpaths.length > 0) add(`${ws.dir}/package.json`, `exports ${ws.subpaths.join(', ')} besides "."`);
  }
  for (const ws of list) {
    for (const file of [...srcFiles(ws), ...sourceFiles(path.join(REPO_ROOT, ws.dir, 'web', 'src'))]) {
      for (const ref of scanFile(file).references) {
        if (ref.specifier.startsWith('@docforge/')) {
          const [scope, name, ...rest] = ref.specifier.split('/');
          const target = libByName.get(`${scope}/${name}`);
          if (target && target !== ws && rest.length > 0) add(repoPath(file), `line ${ref.line} imports ${ref.specifier}`);
        } else if (ref.specifier.startsWith('.')) {
          const resolved = resolveRelative(file, ref.specifier) ?? path.resolve(path.dirname(file), ref.specifier);
          const target = workspaceOf(resolved, list);
          if (target && target !== ws && target.dir.startsWith('libs/')) add(repoPath(file), `line ${ref.line} imports ${ref.specifier} inside ${target.dir}`);
        }
      }
    }
  }
  assertRule('one-entry', offenders);
});

test('no module-level mutable state in the libs: no top-level let or var, no globalThis slot (justified exceptions listed)', () => {
  const offenders = new Map<string, string>();
  const used = new Set<string>();
  for (const ws of libs) {
    for (const file of srcFiles(ws)) {
      const source = parse(file);
      const rel = repoPath(file);
      const found: string[] = [];
      for (const statement of source.statements) {
        if (!ts.isVariableStatement(statement) || (statement.declarationList.flags & (ts.NodeFlags.Const | ts.NodeFlags.Using)) !== 0) continue;
        for (const decl of statement.declarationList.declarations) {
          const key = `${rel}: ${decl.name.getText(source)}`;
          if (key in MODULE_STATE_EXCEPTIONS) used.add(key);
          else found.push(`top-level ${decl.name.getText(source)}`);
        }
      }
      // Any use of globalThis in a lib is a process-wide slot shared by every copy of a module.
      const visit = (node: ts.Node): void => {
        if (ts.isIdentifier(node) && node.text === 'globalThis') found.push(`globalThis at line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
        ts.forEachChild(node, visit);
      };
      visit(source);
      if (found.length > 0) offenders.set(rel, found.join(', '));
    }
  }
  const unused = Object.keys(MODULE_STATE_EXCEPTIONS).filter((key) => !used.has(key));
  assert.deepEqual(unused, [], 'exceptions that no longer exist (remove them from MODULE_STATE_EXCEPTIONS)');
  assertRule('module-state', offenders);
});
