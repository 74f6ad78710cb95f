// esbuild plugin shared by the bundle scripts (libs/sync/scripts/build-worker-bundle.mjs,
// apps/cli/scripts/build-bundle.mjs): replaces `import.meta.url` in every bundled module by that
// module's own file URL, so relative files and createRequire look-ups resolve as in the unbundled files.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The plugin object (esbuild `Plugin`). */
export const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(builder) {
    builder.onLoad({ filter: /\.(?:js|mjs|cjs)$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'js' };
    });
  },
};
