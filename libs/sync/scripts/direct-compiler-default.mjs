// esbuild plugin of libs/sync/scripts/build-worker-bundle.mjs (issue 14): the TypeScript adapter's
// compiler-api.js (`import ts from './ts.cjs'; export default ts;`) is bundled as
// `export default require('./ts.cjs')`. Both give the same value, the compiler object (the default
// import of a CommonJS module in Node is its module.exports), but esbuild wraps an `import` of
// CommonJS in `__toESM`, which defines one getter per export on a new object: 2,245 names of the
// parser module, ~10 ms of every build worker's start that nothing reads (only `.default` is used).
// A `require` in an ES module is bundled without that wrapper. Any other text of compiler-api.js
// fails the bundle build, so a changed module is never bundled under this assumption.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The statements compiler-api.js must consist of (comments and source-map line aside). */
const EXPECTED = ["import ts from './ts.cjs';", 'export default ts;'];

/** The plugin object (esbuild `Plugin`); register it before ownImportMetaUrl. */
export const directCompilerDefault = {
  name: 'direct-compiler-default',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]adapters[\\/]typescript[\\/]dist[\\/]src[\\/]compiler-api\.js$/ }, (args) => {
      const code = readFileSync(args.path, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('//'));
      if (code.length !== EXPECTED.length || code.some((line, i) => line !== EXPECTED[i])) {
        return { errors: [{ text: `direct-compiler-default: ${args.path} is no longer exactly ${JSON.stringify(EXPECTED.join(' '))}; update libs/sync/scripts/direct-compiler-default.mjs` }] };
      }
      return { contents: "export default require('./ts.cjs');\n", loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};
