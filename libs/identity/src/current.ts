/**
 * The one decision "is the published index current" (issue 29): the comparison of a publication
 * with what a sync expects, made by the server (`IndexManager.servedCurrent`) and by the CLI's
 * no-change fast path (`noChangeSync`) alike. Pure: the file checks that follow it (the index file
 * is intact, it opens) read the disk and stay with the callers.
 */
import type { Descriptor } from '@docforge/project';
import { aliasOf, type IdentityAlias, type Publication } from '@docforge/store';
import { adapterVersionCurrent } from './adapter-manifests.js';

/** Why a publication is not current for a sync. */
export type PublicationMismatch = 'no_publication' | 'logic_binding' | 'adapter_version' | 'identity_changed';

/** What a sync expects of the publication it would serve. */
export interface CurrentExpectation {
  /** The project descriptor, for the adapter versions. */
  descriptor: Descriptor;
  /** The Logic policy of this sync (false under `--no-ast` or a non-ast strategy). */
  logicAllowed: boolean;
  /** False with a project-owned adapter, whose version only the build worker knows. */
  checkAdapterVersion: boolean;
  /** The walked source identity; absent before the walk (then not compared). */
  identity?: string;
}

/**
 * The identity a walk stands for: `published.source_identity` when `walked` is the identity its
 * alias recorded (a metadata-only change whose content the build found unchanged, store
 * identity-alias.ts), else `walked` itself. Callers read the alias only when `walked` differs from
 * the published identity, so the common no-change check reads nothing more.
 */
export function aliasedIdentity(published: Publication | null, walked: string, readAlias: () => IdentityAlias | null): string {
  if (published === null || walked === published.source_identity) return walked;
  const alias = readAlias();
  return aliasOf(alias, published) && alias!.observed === walked ? published.source_identity : walked;
}

/**
 * Whether `published` is current for a sync expecting `expected`: null when it is, else the first
 * reason it is not, in the order no publication, Logic binding, adapter version, source identity.
 */
export function publicationMismatch(published: Publication | null, expected: CurrentExpectation): PublicationMismatch | null {
  if (published === null) return 'no_publication';
  if (published.logic_allowed !== expected.logicAllowed || (published.logic_present && !expected.logicAllowed)) return 'logic_binding';
  if (expected.checkAdapterVersion && !adapterVersionCurrent(published.adapter_version, expected.descriptor)) return 'adapter_version';
  if (expected.identity !== undefined && published.source_identity !== expected.identity) return 'identity_changed';
  return null;
}
