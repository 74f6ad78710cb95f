/**
 * The identity alias of a publication (issue 30 item 1, docs/architecture.md): a build that re-read
 * every source whose stat changed and found the same content (a `touch`, a `chmod`, a checkout that
 * rewrote identical bytes) publishes no new generation, so viewer workers bound to the publication
 * signature stay current. The cheap identity it observed is recorded here instead, beside
 * `current.json` (`index/identity-alias.json`): "the sources with cheap identity `observed` have the
 * content of this publication". Later identity checks read it only when the walked identity differs
 * from the published one, so a later no-change check stays one walk. An alias names its publication
 * exactly (generation, file, inode, identity) and means nothing for any other.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { readStateText, writeFileAtomic, type StateLayout } from '@docforge/fs-safe';
import type { Publication } from './publication-format.js';
import { publicationUnchanged, withPublicationLock, type PublicationRead } from './publication.js';
import { applicationBlocksPublication } from './application-guard.js';

/** One publication's alias: which publication, and the cheap identity observed for its very content. */
export interface IdentityAlias {
  generation: number;
  index_file: string;
  index_ino: string;
  /** The publication's own `source_identity`. */
  source_identity: string;
  /** The cheap identity of the sources as the metadata-only build saw them. */
  observed: string;
}

/** Larger than any alias this module writes: a bigger file is not read. */
const MAX_ALIAS_BYTES = 4096;

function aliasFile(layout: StateLayout): string {
  return path.join(layout.indexDir, 'identity-alias.json');
}

function isAlias(value: unknown): value is IdentityAlias {
  const v = value as Partial<IdentityAlias> | null;
  return v !== null && typeof v === 'object' && Number.isSafeInteger(v.generation) && typeof v.index_file === 'string'
    && typeof v.index_ino === 'string' && typeof v.source_identity === 'string' && typeof v.observed === 'string';
}

/** The recorded alias, or null when there is none or it is not a regular file holding a well-formed one. Never throws. */
export function readIdentityAlias(layout: StateLayout): IdentityAlias | null {
  const file = aliasFile(layout);
  try {
    const st = lstatSync(file, { throwIfNoEntry: false });
    if (st === undefined || !st.isFile() || st.size > MAX_ALIAS_BYTES) return null;
    const value: unknown = JSON.parse(readStateText(file, MAX_ALIAS_BYTES));
    return isAlias(value) ? value : null;
  } catch {
    // Unreadable or malformed: no alias (the sync then builds, which is always correct).
    return null;
  }
}

/** Whether `alias` belongs to `publication` (same generation, file, inode and identity). */
export function aliasOf(alias: IdentityAlias | null, publication: Publication): boolean {
  return alias !== null && alias.generation === publication.generation && alias.index_file === publication.index_file
    && alias.index_ino === publication.index_ino && alias.source_identity === publication.source_identity;
}

/**
 * Records that the sources with cheap identity `observed` have the content of `prior`'s
 * publication, under the publication lock, only while `current.json` is still the file `prior`
 * read and no canonical application blocks publication (the build's snapshot is then exact).
 * @param applicationEpoch the canonical application epoch read before the sources were read
 * @returns whether it was recorded (false: another publication came, or an application runs)
 * @throws `lock_timeout`; errno errors of the index directory
 */
export function recordIdentityAlias(layout: StateLayout, prior: PublicationRead, observed: string, applicationEpoch?: string): Promise<boolean> {
  return withPublicationLock(layout, () => {
    const published = prior.publication;
    if (published === null || !publicationUnchanged(layout, prior) || applicationBlocksPublication(layout, applicationEpoch) !== null) return false;
    const alias: IdentityAlias = {
      generation: published.generation, index_file: published.index_file, index_ino: published.index_ino, source_identity: published.source_identity, observed,
    };
    writeFileAtomic(aliasFile(layout), `${JSON.stringify(alias)}\n`);
    return true;
  });
}
