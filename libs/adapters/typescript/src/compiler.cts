/**
 * Loads the TypeScript compiler through the V8 code cache of @docforge/accelerate (issue 14): about
 * 85 ms instead of 200 ms per thread that parses code, the same module either way. Where the build
 * made one (scripts/build-parser.mjs), what loads is the parser module of parser-build.cts, the
 * part of the same compiler a syntax pass reaches (1.5 of 9.1 MB); `DOCFORGE_TS_PARSER=whole`
 * (or `DOCFORGE_ACCELERATE=-parser-module`) loads the whole compiler instead. The tactics in force
 * come in as an {@link Accelerators} value (prime.ts builds it from the thread's config).
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type * as TS from 'typescript';
import { Accelerators, readRegularFile, registerModule, type CodeCacheLoad } from '@docforge/accelerate';
import { PARSER_API } from './parser-api.cjs';
import type { ParserManifest } from '../tools/parser-build.cjs';

/** A sample parsed after a fresh compile, so the parser functions a build runs are in the cached data. */
const WARM_SAMPLE = `#!/usr/bin/env node
'use strict';
/** A documented class. @param {string} name */
import fs, { readFileSync as read } from 'node:fs';
import * as path from 'node:path';
export * from './other.js';
const { a, b: [c, ...d] = [] } = require('./x');
module.exports = function plugin(app, opts = {}, done) { app.decorate('x', async () => await done?.(null)); };
export default class Box<T extends object = {}> extends Base implements Shape {
  static #count = 0; private readonly items: Map<string, T[]> = new Map();
  constructor(public name: string, protected size?: number) { super(); Box.#count++; }
  get count(): number { return Box.#count; }
  @logged async *walk(this: Box<T>, fn: (x: T, i: number) => boolean): AsyncGenerator<T> {
    for (const [key, list] of this.items) { if (!list?.length) continue; label: for (let i = 0; i < list.length; i += 1) yield list[i]!; }
    try { throw new Error(\`bad \${this.name} \${1 + 2 * 3}\`); } catch (error) { console.error(error as Error); } finally { void 0; }
    switch (typeof fn) { case 'function': break; default: return; }
  }
}
export interface Shape { readonly area?: number; scale(by: number): Shape; [key: string]: unknown }
export type Pick2<T, K extends keyof T> = { [P in K]: T[P] } & (T extends string ? 'a' | 'b' : never);
export enum Kind { A = 1, B = A << 2 }
declare module 'm' { export function f(x: number): string; }
namespace N { export const re = /a+b?[c-d]*/gi; }
const obj = { a, [c]: d, m() { return this; }, ...rest, n: 0x1f, s: 'x' satisfies string, q: x! as unknown };
do { new Box<object>('n').walk((x) => x !== null); } while (false);
`;

/** Parses and walks the warm-up sample as TypeScript and as JavaScript, as extract.ts does. */
function warm(exports: unknown): void {
  const ts = exports as typeof TS;
  for (const [name, kind] of [['warm.ts', ts.ScriptKind.TS], ['warm.js', ts.ScriptKind.JS]] as const) {
    const sf = ts.createSourceFile(name, WARM_SAMPLE, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false, kind);
    const visit = (node: TS.Node): void => {
      sf.getLineAndCharacterOfPosition(node.getStart(sf));
      ts.getLeadingCommentRanges(WARM_SAMPLE, node.pos);
      if (ts.canHaveModifiers(node)) ts.getModifiers(node);
      if (ts.isIdentifier(node)) void node.text;
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
}

/** What {@link primeCompiler} loaded: the parser module (parser-build.cts) or the whole compiler, and how its code cache went. */
export interface PrimedCompiler extends CodeCacheLoad {
  module: 'parser' | 'whole';
}

/**
 * Puts `typescript` (as resolved from this package) into `require.cache`, once per thread, so the
 * `require('typescript')` of ts.cts returns it: the parser module made from that same package
 * (parser-build.cts, about 1.5 MB; its exports are the compiler's, every name outside PARSER_API
 * through the whole compiler) when {@link parserModuleFor} finds a matching one, else the whole
 * compiler (also when the parser module fails {@link loadParserModule}'s checks); either compiled with
 * the code cache `accelerators` name. Once the compiler is in `require.cache` (this thread primed
 * or loaded it already), loads nothing and reports which one is there (status `off`, no cache
 * file). Never throws: on any failure nothing is primed and a plain `require('typescript')` loads
 * the whole compiler.
 * @returns what was loaded and how the code cache went, or null when it failed
 */
export function primeCompiler(accelerators: Accelerators): PrimedCompiler | null {
  try {
    const file = require.resolve('typescript');
    const loaded = require.cache[file];
    if (loaded !== undefined) return { exports: loaded.exports, status: 'off', cacheFile: null, module: isParserModule(loaded.exports) ? 'parser' : 'whole' };
    const version = String((JSON.parse(readFileSync(path.join(path.dirname(file), '..', 'package.json'), 'utf8')) as { version?: unknown }).version);
    const parser = parserModuleFor(file, version, accelerators);
    const load = parser === null ? null : loadParserModule(parser, version, accelerators);
    if (load !== null) {
      registerModule(file, load.exports);
      return { ...load, module: 'parser' };
    }
    return { ...accelerators.loadWithCodeCache(file, { key: `typescript@${version}`, warm }), module: 'whole' };
  } catch {
    return null;
  }
}

/** Whether `exports` are a parser module's (parser-build.cts stamps them with `__docforgeParser`). */
function isParserModule(exports: unknown): boolean {
  return typeof exports === 'object' && exports !== null && Object.getOwnPropertyDescriptor(exports, '__docforgeParser') !== undefined;
}

/**
 * Loads the parser module `file` with the code cache and checks what it exports: the generated
 * module's stamp for `version` and a value for every name of PARSER_API (read without running a
 * fallback getter). Null when it throws while loading or exports anything else (an emptied or
 * truncated file that still runs), so the whole compiler loads instead.
 */
export function loadParserModule(file: string, version: string, accelerators: Accelerators): CodeCacheLoad | null {
  let load: CodeCacheLoad;
  try {
    load = accelerators.loadWithCodeCache(file, { key: `typescript-parser@${version}`, warm, register: false });
  } catch {
    return null;
  }
  const exports = load.exports;
  if (typeof exports !== 'object' || exports === null) return null;
  const own = (name: string): unknown => Object.getOwnPropertyDescriptor(exports, name)?.value;
  const stamp = own('__docforgeParser') as { typescript?: unknown } | undefined;
  if (stamp?.typescript !== version) return null;
  return PARSER_API.every((name) => own(name) !== undefined) ? load : null;
}

/** Bytes a parser manifest may have (it is about 2 KB). */
const MANIFEST_MAX_BYTES = 1 << 20;

/**
 * The parser module to load for the compiler `typescriptFile` (version `version`), or null for the
 * whole compiler: when `accelerators` has `parser-module` off (`DOCFORGE_TS_PARSER=whole` or `DOCFORGE_ACCELERATE`), when the module or its manifest is missing, no
 * regular file or unreadable (neither is read before fstat says it is a regular file: a FIFO never
 * blocks), or when the manifest names another version, size or mtime of `typescript.js`, another
 * module size, or lacks a name of PARSER_API (a module built before the adapter's sources
 * changed). Never throws.
 * @param manifestFile the manifest to read (default: this package's `dist/parser/typescript-parser.json`,
 *   found from the package's one entry, `dist/src/index.js`, since this file may run from a bundle
 *   elsewhere); the module is the `typescript-parser.cjs` beside it
 */
export function parserModuleFor(typescriptFile: string, version: string, accelerators: Accelerators, manifestFile: string | null = null): string | null {
  if (!accelerators.on('parser-module')) return null;
  try {
    manifestFile ??= path.join(path.dirname(require.resolve('@docforge/adapter-typescript')), '..', 'parser', 'typescript-parser.json');
    const bytes = readRegularFile(manifestFile, MANIFEST_MAX_BYTES);
    if (typeof bytes === 'string') return null;
    const manifest = JSON.parse(bytes.toString('utf8')) as Partial<ParserManifest> | null;
    if (typeof manifest !== 'object' || manifest === null) return null;
    const source = statSync(typescriptFile);
    if (manifest.typescript !== version || manifest.source_size !== source.size || manifest.source_mtime_ms !== source.mtimeMs) return null;
    if (!Array.isArray(manifest.roots) || !PARSER_API.every((name) => manifest.roots!.includes(name))) return null;
    const module = path.join(path.dirname(manifestFile), 'typescript-parser.cjs');
    const st = statSync(module);
    return st.isFile() && st.size === manifest.module_size ? module : null;
  } catch {
    return null;
  }
}
