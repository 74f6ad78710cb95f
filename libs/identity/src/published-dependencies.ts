/**
 * The build dependency list of a publication (build-dependencies.ts), read from its index file's
 * `meta` rows: what a sync, a status check or a build compares the current state with.
 */
import path from 'node:path';
import type { StateLayout } from '@docforge/fs-safe';
import type { BuildDependencies } from './build-dependencies.js';
import { dependenciesOfMeta } from './identity.js';
import type { Publication } from '@docforge/store';
import { IndexReader } from '@docforge/store';

/**
 * What the build of `publication` read or probed outside the sources: from `served` when it is a
 * reader open on that very file (same name and inode), else from one read-only open of the file.
 * Empty without a publication; null when the file or its list cannot be read (an identity over
 * null matches no publication, so a sync builds). Never throws.
 */
export function publishedDependencies(
  layout: StateLayout, publication: Publication | null, served: { publication: Publication; reader: IndexReader } | null = null,
): BuildDependencies | null {
  if (publication === null) return dependenciesOfMeta(null);
  if (served !== null && served.reader.open && served.publication.index_file === publication.index_file && served.publication.index_ino === publication.index_ino) {
    return dependenciesOfMeta(served.reader.meta);
  }
  let reader: IndexReader;
  try {
    reader = new IndexReader(path.join(layout.indexDir, publication.index_file));
  } catch {
    return null;
  }
  try {
    return dependenciesOfMeta(reader.meta);
  } finally {
    reader.close();
  }
}
