/**
 * The TypeScript compiler as every module of this adapter imports it:
 * `import ts from './compiler-api.js'` (the value and the type namespace of `typescript`, loaded
 * by ts.cts). One ES module re-exports it so a bundle (libs/index/dist/bundle/worker.cjs) wraps the
 * CommonJS compiler object for ES module interop once, not once per importing module: each such
 * wrapper copies the compiler's thousands of exports (issue 14, ~13 ms of a one-file edit). The
 * worker bundle drops even that one copy: its plugin libs/sync/scripts/direct-compiler-default.mjs
 * bundles this module as `export default require('./ts.cjs')` (the same value) and refuses to bundle
 * it once its text is anything but the two statements below.
 */
import ts from './ts.cjs';

export default ts;
