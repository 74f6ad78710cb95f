/**
 * The TypeScript compiler, loaded with `require` (issue 14). Importing the 9 MB CommonJS file from
 * ESM makes Node 20 compile it once more to detect its format and lex it for named exports
 * (about 1 s and 30 MB here); `require` does neither. Every module of this adapter imports the
 * compiler from here, through compiler-api.ts: `import ts from './compiler-api.js'` (the value and
 * the type namespace of `typescript`), after `import './prime.js'`, which puts the compiler in
 * `require.cache` compiled with a V8 code cache (compiler.cts `primeCompiler`), so the `require`
 * below returns it; without a usable cache the `require` loads the compiler as usual.
 */
import ts = require('typescript');
export = ts;
