// The parser module (issue 14, parser-build.cts): the part of typescript.js a syntax pass reaches
// parses exactly as the whole compiler does, the adapter extracts the same graph with it, every
// other name still works through the whole compiler, and a module that does not match the
// installed compiler is not used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as TS from 'typescript';
import { loadParserModule, parserModuleFor, primeCompiler } from '../src/compiler.cjs';
import { PARSER_API } from '../src/parser-api.cjs';
// parser-build.cjs loads the whole compiler (it reads typescript.js with it): imported by the last test only.
import type { ParserManifest } from '../tools/parser-build.cjs';
import '../src/prime.js';
import ts from '../src/ts.cjs';
import { Accelerators } from '@docforge/accelerate';
import { readDocforgeConfig } from '@docforge/core';
import { extractTypeScript } from '../src/adapter.js';

const requireHere = createRequire(import.meta.url);
const tsFile = requireHere.resolve('typescript');
const version = (JSON.parse(readFileSync(path.join(path.dirname(tsFile), '..', 'package.json'), 'utf8')) as { version: string }).version;
const here = path.dirname(fileURLToPath(import.meta.url));
const parserDir = path.join(here, '..', 'parser');
const parserFile = path.join(parserDir, 'typescript-parser.cjs');
const manifestFile = path.join(parserDir, 'typescript-parser.json');
const FASTIFY = path.join(here, '../../../../../node_modules/fastify');

/** The whole compiler, loaded apart from `require.cache` (where the adapter's thread holds the parser module). */
function wholeCompiler(): typeof TS {
  const { loadWithCodeCache } = requireHere('@docforge/accelerate') as typeof import('@docforge/accelerate');
  return loadWithCodeCache(tsFile, { cacheDir: null, key: 'whole', register: false }).exports as typeof TS;
}

function sources(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) {
      if (entry !== 'node_modules' && entry !== 'dist') sources(full, out);
    } else if (/\.(c|m)?(j|t)sx?$/.test(entry)) out.push(full);
  }
  return out;
}

/** Everything a parse tree says that the adapter can read: nodes, positions, flags, texts, modifiers, comments, children, diagnostics, lines. */
function dump(compiler: typeof TS, file: string, text: string): string {
  const kind = /\.tsx$/.test(file) ? compiler.ScriptKind.TSX : /\.(c|m)?ts$/.test(file) ? compiler.ScriptKind.TS : /\.jsx$/.test(file) ? compiler.ScriptKind.JSX : compiler.ScriptKind.JS;
  const sf = compiler.createSourceFile(file, text, { languageVersion: compiler.ScriptTarget.Latest, jsDocParsingMode: compiler.JSDocParsingMode.ParseNone }, true, kind);
  const lines = [(sf as unknown as { parseDiagnostics: TS.DiagnosticWithLocation[] }).parseDiagnostics
    .map((d) => `${d.start}:${d.code}:${compiler.flattenDiagnosticMessageText(d.messageText, '\n')}`).join('|')];
  const visit = (node: TS.Node): void => {
    const modifiers = compiler.canHaveModifiers(node) ? (compiler.getModifiers(node) ?? []).map((m) => m.kind).join('+') : '-';
    const comments = (compiler.getLeadingCommentRanges(text, node.pos) ?? []).map((c) => `${c.pos}-${c.end}`).join('+');
    const name = compiler.isIdentifier(node) || compiler.isStringLiteral(node) ? node.text : '';
    lines.push(`${compiler.SyntaxKind[node.kind]} ${node.pos}-${node.end} ${node.flags} ${node.getStart(sf)} ${modifiers} ${comments} ${node.getChildCount(sf)} ${name}`);
    compiler.forEachChild(node, visit);
  };
  visit(sf);
  lines.push(JSON.stringify(sf.getLineAndCharacterOfPosition(text.length)));
  return lines.join('\n');
}

test('the build made a parser module from the installed compiler, a sixth of its size, and the adapter loads it', () => {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as ParserManifest;
  assert.equal(manifest.typescript, version);
  assert.equal(manifest.source_size, statSync(tsFile).size);
  assert.equal(manifest.source_mtime_ms, statSync(tsFile).mtimeMs);
  assert.equal(manifest.module_size, statSync(parserFile).size);
  assert.equal(manifest.module_sha256, createHash('sha256').update(readFileSync(parserFile)).digest('hex'));
  assert.deepEqual(manifest.roots, [...PARSER_API]);
  assert.ok(statSync(parserFile).size < statSync(tsFile).size / 4, `${statSync(parserFile).size} bytes`);
  assert.equal(parserModuleFor(tsFile, version, Accelerators.from(readDocforgeConfig())), parserFile);
  assert.equal(primeCompiler(Accelerators.from(readDocforgeConfig()))?.module, 'parser');
  assert.equal(ts, requireHere('typescript'), 'require("typescript") in this thread returns the parser module');
  assert.equal((ts as unknown as { __docforgeParser?: { typescript: string } }).__docforgeParser?.typescript, version);
});

test('the parser module parses fastify and this adapter exactly as the whole compiler does', () => {
  const whole = wholeCompiler();
  assert.notEqual(whole, ts);
  const files = [...sources(FASTIFY, []), ...sources(path.join(here, '..', '..', 'src'), [])];
  assert.ok(files.length > 250, `${files.length} files`);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    assert.equal(dump(ts as unknown as typeof TS, file, text), dump(whole, file, text), file);
  }
  // Broken input too: the same recovery and diagnostics.
  for (const text of ['class {', 'let x = (1 +;', 'export default async function* () { yield* }', '<div>{x</div>', '\u00a0\ufeff/* unterminated']) {
    assert.equal(dump(ts as unknown as typeof TS, 'bad.tsx', text), dump(whole, 'bad.tsx', text), text);
  }
  assert.deepEqual(ts.parseConfigFileTextToJson('tsconfig.json', '{ "a": 1, // c\n}'), whole.parseConfigFileTextToJson('tsconfig.json', '{ "a": 1, // c\n}'));
});

test('extraction with the parser module uses no name outside PARSER_API and equals extraction with the whole compiler', () => {
  const files = sources(path.join(FASTIFY, 'lib'), []).concat(path.join(FASTIFY, 'fastify.js'), path.join(FASTIFY, 'types', 'instance.d.ts'));
  const extract = (file: string): unknown => extractTypeScript({ path: path.relative(FASTIFY, file), content: readFileSync(file, 'utf8'), strategy: 'ast', logic: true });
  const withParser = JSON.stringify(files.map(extract));
  assert.deepEqual([...(ts as unknown as { __docforgeParser: { fallbacks: Set<string> } }).__docforgeParser.fallbacks], []);
  // The same extraction in a process made to load the whole compiler.
  const script = `import { extractTypeScript } from ${JSON.stringify(new URL('../src/adapter.js', import.meta.url).href)};
    import { readFileSync } from 'node:fs'; import path from 'node:path';
    import { primeCompiler } from ${JSON.stringify(new URL('../src/compiler.cjs', import.meta.url).href)};
    import { Accelerators } from ${JSON.stringify(import.meta.resolve('@docforge/accelerate'))};
    const files = ${JSON.stringify(files)};
    const out = files.map((file) => extractTypeScript({ path: path.relative(${JSON.stringify(FASTIFY)}, file), content: readFileSync(file, 'utf8'), strategy: 'ast', logic: true }));
    process.stdout.write(JSON.stringify({ module: primeCompiler(Accelerators.from({})).module, out: JSON.stringify(out) }));`;
  const child = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, DOCFORGE_TS_PARSER: 'whole' }, maxBuffer: 1 << 28 }).toString()) as { module: string; out: string };
  assert.equal(child.module, 'whole');
  assert.equal(child.out, withParser);
});

test('a name outside PARSER_API comes from the whole compiler and is counted', () => {
  const parser = requireHere(parserFile) as typeof TS & { __docforgeParser: { fallbacks: Set<string> } };
  const output = parser.transpileModule('export const x: number = 1;', { compilerOptions: { module: parser.ModuleKind.CommonJS } }).outputText;
  assert.match(output, /exports\.x = 1;/);
  assert.deepEqual([...parser.__docforgeParser.fallbacks].sort(), ['ModuleKind', 'transpileModule']);
});

test('a parser module that does not match the installed compiler, or DOCFORGE_TS_PARSER=whole, means the whole compiler', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-parser-'));
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as ParserManifest;
    const write = (change: Partial<ParserManifest> | string): string => {
      const file = path.join(dir, 'typescript-parser.json');
      writeFileSync(file, typeof change === 'string' ? change : JSON.stringify({ ...manifest, ...change }));
      return file;
    };
    writeFileSync(path.join(dir, 'typescript-parser.cjs'), readFileSync(parserFile));
    assert.equal(parserModuleFor(tsFile, version, Accelerators.from({}), write({})), path.join(dir, 'typescript-parser.cjs'));
    assert.equal(parserModuleFor(tsFile, version, Accelerators.from(readDocforgeConfig({ DOCFORGE_TS_PARSER: 'whole' })), write({})), null);
    assert.equal(parserModuleFor(tsFile, version, Accelerators.from({}), write({ typescript: '5.0.0' })), null);
    assert.equal(parserModuleFor(tsFile, version, Accelerators.from({}), write({ source_size: manifest.source_size + 1 })), null);
    // typescript.js patched in place to the same size (patch-package): its mtime moved.
    assert.equal(parserModuleFor(tsFile, version, Accelerators.from({}), write({ source_mtime_ms: manifest.source_mtime_ms + 1 })), null);
    assert.equal(parserModuleFor(tsFile, version, Accelerators.from({}), write({ module_size: manifest.module_size - 1 })), null);
    for (const text of ['null', '[]', '"x"', '42']) assert.equal(parserModuleFor(tsFile, version, Accelerators.from({}), write(text)), null, text);
    assert.equal(parserModuleFor(tsFile, version, Accelerators.from({}), write({ roots: PARSER_API.slice(1) })), null);
    assert.equal(parserModuleFor(tsFile, version, Accelerators.from({}), write('{ not json')), null);
    assert.equal(parserModuleFor(tsFile, version, Accelerators.from({}), path.join(dir, 'missing.json')), null);
    // A FIFO or a directory as the manifest: not read (no hang), the whole compiler.
    const fifoDir = path.join(dir, 'fifo');
    mkdirSync(fifoDir);
    execFileSync('mkfifo', [path.join(fifoDir, 'typescript-parser.json')]);
    writeFileSync(path.join(fifoDir, 'typescript-parser.cjs'), readFileSync(parserFile));
    assert.equal(parserModuleFor(tsFile, version, Accelerators.from({}), path.join(fifoDir, 'typescript-parser.json')), null);
    rmSync(path.join(dir, 'typescript-parser.json'));
    mkdirSync(path.join(dir, 'typescript-parser.json'));
    assert.equal(parserModuleFor(tsFile, version, Accelerators.from({}), path.join(dir, 'typescript-parser.json')), null);
    rmSync(path.join(dir, 'typescript-parser.json'), { recursive: true });
    rmSync(path.join(dir, 'typescript-parser.cjs'));
    assert.equal(parserModuleFor(tsFile, version, Accelerators.from({}), write({})), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a parser module that loads but is hollow, truncated or throws is refused, so the whole compiler loads', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-parser-hollow-'));
  // These modules' code caches go to the temporary folder, not the user's cache.
  const cacheDir = process.env['DOCFORGE_CODE_CACHE_DIR'];
  process.env['DOCFORGE_CODE_CACHE_DIR'] = path.join(dir, 'v8');
  try {
    const whole = readFileSync(parserFile, 'utf8');
    const cut = whole.slice(0, whole.lastIndexOf('\nmodule.exports = '));
    const withoutRoot = whole.replace(/createSourceFile: createSourceFile, /, '');
    assert.notEqual(withoutRoot, whole);
    const cases: Record<string, string> = {
      empty: '', exportsEmpty: 'module.exports = {};', exportsNull: 'module.exports = null;', cutBeforeExports: cut,
      missingRoot: withoutRoot, throws: `${whole}\nthrow new Error('late');`, otherVersion: whole.replace(/typescript: "[^"]+"/, 'typescript: "0.0.0"'),
    };
    for (const [name, text] of Object.entries(cases)) {
      const file = path.join(dir, `${name}.cjs`);
      writeFileSync(file, text);
      assert.equal(loadParserModule(file, version, Accelerators.from(readDocforgeConfig())), null, name);
    }
    const good = path.join(dir, 'good.cjs');
    writeFileSync(good, whole);
    const load = loadParserModule(good, version, Accelerators.from(readDocforgeConfig()));
    assert.equal(typeof (load?.exports as typeof TS | undefined)?.createSourceFile, 'function');
  } finally {
    if (cacheDir === undefined) delete process.env['DOCFORGE_CODE_CACHE_DIR'];
    else process.env['DOCFORGE_CODE_CACHE_DIR'] = cacheDir;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('buildParserModule refuses a file that is not the compiler and a root the compiler does not export', async () => {
  const { buildParserModule } = await import('../tools/parser-build.cjs');
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-parser-build-'));
  try {
    const other = path.join(dir, 'other.js');
    writeFileSync(other, 'module.exports = {};\n');
    assert.throws(() => buildParserModule(other, '0.0.0', ['createSourceFile']), /not laid out as TypeScript 5's typescript\.js/);
    assert.throws(() => buildParserModule(tsFile, version, ['createSourceFile', 'noSuchExport']), /noSuchExport is not an export/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
