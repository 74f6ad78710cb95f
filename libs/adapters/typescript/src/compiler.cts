/**
 * Loads the TypeScript compiler through the V8 code cache of code-cache.cts (issue 14): about
 * 85 ms instead of 200 ms per thread that parses code, the same module either way.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type * as TS from 'typescript';
import { codeCacheDir, loadWithCodeCache, type CodeCacheLoad } from './code-cache.cjs';

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

let primed: CodeCacheLoad | null = null;

/**
 * Puts `typescript` (as resolved from this package) into `require.cache`, compiled with the code
 * cache of `codeCacheDir()`, once per thread. Never throws: on any failure nothing is primed and
 * a plain `require('typescript')` loads the compiler.
 * @returns how the load went (code-cache.cts `CodeCacheStatus`), or null when it failed
 */
export function primeCompiler(): CodeCacheLoad | null {
  if (primed !== null) return primed;
  try {
    const file = require.resolve('typescript');
    const version = (JSON.parse(readFileSync(path.join(path.dirname(file), '..', 'package.json'), 'utf8')) as { version?: unknown }).version;
    primed = loadWithCodeCache(file, { cacheDir: codeCacheDir(), key: `typescript@${String(version)}`, warm });
    return primed;
  } catch {
    return null;
  }
}
