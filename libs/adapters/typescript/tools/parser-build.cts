/**
 * Builds the adapter's parser module (issue 14): the declarations of the TypeScript compiler's
 * `typescript.js` that the syntax pass reaches from {@link PARSER_API}, in their original order and
 * text, as one CommonJS file of about 1.5 MB instead of 9.1 MB. It is TypeScript's own code, only
 * less of it: loading it costs about a sixth of the whole compiler's time and 30 MB less memory, in
 * every thread that parses. Run at build time by scripts/build-parser.mjs; compiler.cts loads the
 * result only while it was made from the `typescript` that resolves (version and file size).
 *
 * Why not a bundler's tree shaking: esbuild (8.5 MB left) and rollup (8.9 MB) keep nearly all of
 * it, because the compiler's top level runs code whose effects they cannot see through (namespace
 * IIFEs, `registerCodeFix(...)` calls, static class fields), and each such statement keeps what it
 * names. Here reachability runs over top-level statements by name, with the effects sorted by
 * what they act on (see {@link subjectsOf}).
 *
 * Every other export of the compiler stays reachable through a getter that loads the whole
 * compiler on first use (outside `require.cache`) and counts the name, so a name missing from
 * PARSER_API is slower, never wrong.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import ts = require('typescript');

/** The generated module and what it kept. */
export interface ParserModule {
  /** The CommonJS text of the parser module. */
  code: string;
  /** The manifest compiler.cts checks before it loads the module. */
  manifest: ParserManifest;
}

/** What a parser module was made from (written beside it as JSON). */
export interface ParserManifest {
  /** `version` of the `typescript` package the module was made from. */
  typescript: string;
  /** Size in bytes and mtime (ms) of that package's `lib/typescript.js`. */
  source_size: number;
  source_mtime_ms: number;
  /** Size in bytes and SHA-256 (hex) of the generated module's text. */
  module_size: number;
  module_sha256: string;
  /** The names exported as the compiler's own values (the rest load the whole compiler). */
  roots: string[];
  /** Top-level statements kept, of all in `typescript.js`. */
  kept: number;
  total: number;
}

const OPEN = 'var ts = {}; ((module) => {';
const CLOSE = '})({ get exports()';
const EXPORTS = 'typescript_exports';
/** Calls that fill the language service's registries (code fixes, refactors): nothing a parse reads. */
const SERVICE_REGISTRIES = new Set(['registerCodeFix', 'registerRefactor']);

interface Statement {
  node: ts.Statement;
  /** Its text in the generated module (the original text, but for {@link parseOnlyAllocator}). */
  text: string;
  declares: string[];
  /** Top-level names it refers to (identifiers not in property-name positions). */
  refs: Set<string>;
  /** For a statement that declares nothing: the declarations it acts on (keep it only if they are kept); null: always keep; []: drop. */
  subjects: string[] | null;
  keep: boolean;
}

/**
 * Makes the parser module of the `typescript.js` at `typescriptFile` (the package's
 * `lib/typescript.js`; `version` is its package version) for the exported names `roots`.
 * @throws Error when the file is not laid out as TypeScript 5's bundle (one `((module) => {...})`
 *   scope with an `__export(typescript_exports, {...})` list), or a root is not one of its exports
 */
export function buildParserModule(typescriptFile: string, version: string, roots: readonly string[]): ParserModule {
  const source = readFileSync(typescriptFile, 'utf8');
  const start = source.indexOf(OPEN);
  const end = source.lastIndexOf(CLOSE);
  if (start < 0 || end < start) throw new Error(`${typescriptFile}: not laid out as TypeScript 5's typescript.js (no ${OPEN} ... ${CLOSE})`);
  const license = source.slice(0, start).trim();
  const body = source.slice(start + OPEN.length, end);
  const file = ts.createSourceFile('typescript.js', body, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const exported = exportList(file);
  for (const root of roots) if (!exported.has(root)) throw new Error(`${root} is not an export of ${typescriptFile}`);

  const statements: Statement[] = [];
  const byName = new Map<string, Statement>();
  for (const node of file.statements) {
    if (isExportPlumbing(node)) continue;
    const statement: Statement = { node, text: body.slice(node.pos, node.end), declares: declaredNames(node), refs: referencedNames(node), subjects: null, keep: false };
    parseOnlyAllocator(statement, body);
    statements.push(statement);
    for (const name of statement.declares) byName.set(name, statement);
  }
  for (const statement of statements) if (statement.declares.length === 0) statement.subjects = subjectsOf(statement, byName);

  const queue: Statement[] = [];
  const mark = (statement: Statement): void => {
    if (statement.keep) return;
    statement.keep = true;
    queue.push(statement);
  };
  for (const root of roots) {
    const declaration = byName.get(exported.get(root)!);
    if (!declaration) throw new Error(`${root}: its value ${exported.get(root)!} is not a top-level declaration of ${typescriptFile}`);
    mark(declaration);
  }
  for (const statement of statements) if (statement.declares.length === 0 && statement.subjects === null) mark(statement);
  for (;;) {
    while (queue.length > 0) for (const name of queue.pop()!.refs) { const declaration = byName.get(name); if (declaration) mark(declaration); }
    const effects = statements.filter((s) => !s.keep && s.declares.length === 0 && s.subjects !== null && s.subjects.length > 0 && s.subjects.every((n) => byName.get(n)!.keep));
    if (effects.length === 0) break;
    effects.forEach(mark);
  }

  const kept = statements.filter((s) => s.keep);
  const others = [...exported.keys()].filter((name) => !roots.includes(name));
  const code = [
    license,
    `// Generated by @docforge/adapter-typescript (tools/parser-build.cts) from typescript@${version}: ${kept.length} of ${file.statements.length} top-level statements. Do not edit.`,
    '"use strict";',
    kept.map((s) => s.text).join(''),
    '',
    FALLBACK,
    `module.exports = { ${roots.map((name) => `${name}: ${exported.get(name)!}`).join(', ')} };`,
    `for (const name of ${JSON.stringify(others)}) Object.defineProperty(module.exports, name, { get() { return __docforgeWhole(name); }, enumerable: true, configurable: true });`,
    `Object.defineProperty(module.exports, '__docforgeParser', { value: { typescript: ${JSON.stringify(version)}, fallbacks: __docforgeFallbacks } });`,
    '',
  ].join('\n');
  const sourceStat = statSync(typescriptFile);
  return {
    code,
    manifest: {
      typescript: version, source_size: sourceStat.size, source_mtime_ms: sourceStat.mtimeMs,
      module_size: Buffer.byteLength(code, 'utf8'), module_sha256: createHash('sha256').update(code).digest('hex'),
      roots: [...roots], kept: kept.length, total: file.statements.length,
    },
  };
}

/**
 * The generated module's way to every other export: the whole compiler, loaded once outside
 * `require.cache` by @docforge/accelerate's code cache (resolved from the module's folder, as its workspace link).
 */
const FALLBACK = `const __docforgeFallbacks = new Set();
let __docforgeWholeCompiler = null;
function __docforgeWhole(name) {
  __docforgeFallbacks.add(name);
  __docforgeWholeCompiler ??= require('@docforge/accelerate').loadWithCodeCache(require.resolve('typescript'), { cacheDir: null, key: 'whole', register: false }).exports;
  return __docforgeWholeCompiler[name];
}`;

/** `__export(typescript_exports, { name: () => value, ... })` as export name → the top-level name of its value. */
function exportList(file: ts.SourceFile): Map<string, string> {
  for (const node of file.statements) {
    const call = callOf(node);
    if (call && ts.isIdentifier(call.expression) && call.expression.text === '__export' && firstArgument(call) === EXPORTS) {
      const list = call.arguments[1];
      if (list && ts.isObjectLiteralExpression(list)) {
        const names = new Map<string, string>();
        for (const p of list.properties) {
          if (!ts.isPropertyAssignment(p) || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) continue;
          const value = p.initializer;
          if (ts.isArrowFunction(value) && ts.isIdentifier(value.body)) names.set(p.name.text, value.body.text);
        }
        return names;
      }
    }
  }
  throw new Error(`typescript.js: no __export(${EXPORTS}, {...}) list`);
}

/** The statements that build the compiler's own `module.exports` (replaced by the generated exports). */
function isExportPlumbing(node: ts.Statement): boolean {
  if (ts.isVariableStatement(node)) return node.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === EXPORTS);
  const call = callOf(node);
  if (call && firstArgument(call) === EXPORTS) return true;
  return ts.isExpressionStatement(node) && ts.isBinaryExpression(node.expression) && node.expression.getText().startsWith('module.exports');
}

function callOf(node: ts.Statement): ts.CallExpression | null {
  return ts.isExpressionStatement(node) && ts.isCallExpression(node.expression) ? node.expression : null;
}

function firstArgument(call: ts.CallExpression): string | null {
  const first = call.arguments[0];
  return first && ts.isIdentifier(first) ? first.text : null;
}

function declaredNames(node: ts.Statement): string[] {
  if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && node.name) return [node.name.text];
  if (!ts.isVariableStatement(node)) return [];
  const names: string[] = [];
  const add = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) names.push(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) add(element.name);
  };
  for (const declaration of node.declarationList.declarations) add(declaration.name);
  return names;
}

/** The object-allocator properties for what only the binder and checker make (symbols, types, signatures) and emit (source-map sources). */
const CHECKER_CONSTRUCTORS = /^get(Symbol|Type|Signature|SourceMapSource)Constructor$/;

/**
 * The compiler's top level installs the language service's object allocator, whose symbol, type
 * and signature classes reach most of the language service (documentation, completions,
 * formatting: about 1.8 MB). A parse makes only nodes, so `getServicesObjectAllocator` keeps just
 * its node, token, identifier and source-file constructors here: parse trees are the same
 * objects as with the whole compiler (with `getText`, `getStart`, `getChildren`), and the
 * compiler's plain constructors stay for the rest. A compiler without that function is left as it is.
 */
function parseOnlyAllocator(statement: Statement, body: string): void {
  const node = statement.node;
  if (!ts.isFunctionDeclaration(node) || node.name?.text !== 'getServicesObjectAllocator' || !node.body) return;
  const returned = node.body.statements.find(ts.isReturnStatement)?.expression;
  if (!returned || !ts.isObjectLiteralExpression(returned)) return;
  const dropped = returned.properties.filter((p) => p.name !== undefined && ts.isIdentifier(p.name) && CHECKER_CONSTRUCTORS.test(p.name.text));
  if (dropped.length === 0) return;
  const kept = returned.properties.filter((p) => !dropped.includes(p));
  const literal = `{\n${kept.map((p) => `    ${p.getText()}`).join(',\n')}\n  }`;
  statement.text = body.slice(node.pos, returned.getStart()) + literal + body.slice(returned.end, node.end);
  statement.refs = referencedNames(node, new Set(dropped));
}

/** Every identifier in `node` (but `skip`) that may name a top-level declaration (over-approximated: shadowing is ignored, which only keeps more). */
function referencedNames(node: ts.Node, skip: ReadonlySet<ts.Node> = new Set()): Set<string> {
  const names = new Set<string>();
  const visit = (child: ts.Node): void => {
    if (skip.has(child)) return;
    if (ts.isIdentifier(child)) {
      const parent = child.parent;
      const propertyName = (ts.isPropertyAccessExpression(parent) && parent.name === child)
        || ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent)
          || ts.isGetAccessorDeclaration(parent) || ts.isSetAccessorDeclaration(parent)) && parent.name === child);
      if (!propertyName) names.add(child.text);
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return names;
}

/**
 * What a top-level statement that declares nothing acts on, so it is kept exactly when that is:
 * a namespace IIFE `((X2) => {...})(X || (X = {}))` fills X; `A.b = v` sets a field of A;
 * `__export(ns, {...})` fills ns; `if (cond) ...` depends on the declarations its condition names
 * (none: always kept). The language service's registry calls and `0 && ...` are dropped ([]); any other
 * statement is always kept (null).
 */
function subjectsOf(statement: Statement, byName: Map<string, Statement>): string[] | null {
  const node = statement.node;
  const declared = (name: string | null): string[] | null => (name !== null && byName.has(name) ? [name] : null);
  if (ts.isIfStatement(node)) {
    const named = [...referencedNames(node.expression)].filter((name) => byName.has(name));
    return named.length > 0 ? named : null;
  }
  if (!ts.isExpressionStatement(node)) return null;
  const expression = node.expression;
  // `0 && (module.exports = { ... })`: never runs (esbuild writes it so Node's CommonJS lexer sees the export names).
  if (ts.isBinaryExpression(expression) && expression.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken
    && ts.isNumericLiteral(expression.left) && Number(expression.left.text) === 0) return [];
  if (ts.isBinaryExpression(expression) && expression.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    let target: ts.Expression = expression.left;
    while (ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target)) target = target.expression;
    return ts.isIdentifier(target) && target !== expression.left ? declared(target.text) : null;
  }
  if (!ts.isCallExpression(expression)) return null;
  const callee = expression.expression;
  if (ts.isIdentifier(callee)) {
    if (SERVICE_REGISTRIES.has(callee.text)) return [];
    if (callee.text === '__export') return declared(firstArgument(expression));
    return null;
  }
  if (ts.isParenthesizedExpression(callee) && ts.isArrowFunction(callee.expression)) {
    const argument = expression.arguments[0];
    if (argument && ts.isBinaryExpression(argument) && ts.isIdentifier(argument.left)) return declared(argument.left.text);
  }
  return null;
}
