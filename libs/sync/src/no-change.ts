/**
 * The no-change fast path of a whole-process `docforge sync` (issue 14: "a no-change `docforge
 * sync` reads the published identity and stops"). It makes, with light imports only (no pino, no
 * piscina, no Markdown parser, no tool validators, no IndexManager), exactly the checks by which
 * `IndexManager.sync()` answers "current, nothing rebuilt" in a fresh process: the descriptor, the
 * application journal, the one read of `current.json`, the file opening as an index of this schema
 * (which also gives the publication's build dependencies), the cheap source identity (identity.ts,
 * the manager's own walk), and every other check of the manager's served-current answer (Logic
 * bindings, the index file's inode and size). Whenever anything
 * is uncertain it answers "not current" and the caller runs the full synchronization, which then
 * decides (and reports errors) as always: a missing or invalid publication, any mismatch, an
 * invalid descriptor or project root, an open application journal, a project-owned adapter (whose
 * cheap identity is known only once the build worker has loaded it), any unexpected error.
 */
import path from 'node:path';
import type { Descriptor } from '@docforge/project';
import { loadDescriptor } from '@docforge/project';
import { stateLayout } from '@docforge/fs-safe';
import { aliasedIdentity, publicationMismatch } from '@docforge/identity';
import { adaptersFor } from '@docforge/identity';
import { openApplication, readIdentityAlias } from '@docforge/store';
import { dependenciesOfMeta, identityWalk, walkIdentity, type IdentityWalk } from '@docforge/identity';
import type { PrepareTask } from '@docforge/builder';
import type { Publication } from '@docforge/store';
import type { SourceIssue } from '@docforge/core';
import { publicationFileIntact, readPublicationOnce } from '@docforge/store';
import { resolveProjectRoot } from '@docforge/identity';
import { IndexReader } from '@docforge/store';

/** Why the fast path did not answer (tests and callers read it; never shown to users). */
export type NoChangeFallback =
  | 'project_root' | 'descriptor' | 'project_adapter' | 'application_open' | 'walk' | 'no_publication' | 'identity_changed'
  | 'logic_binding' | 'adapter_version' | 'index_file_changed' | 'index_unopenable' | 'error';

/**
 * The fast path's answer: the current publication (the sync would answer `rebuilt: false`,
 * staleness `current`, no stats, no error), or the reason to run the full synchronization and
 * whether that will most likely build (so a caller may start the build worker early).
 */
export type NoChangeAnswer =
  | { current: true; publication: Publication; errors: ErrorIssueSummary }
  | {
    current: false; reason: NoChangeFallback; build: boolean;
    /**
     * With `identity_changed`: what a build worker started now may prepare from the publication
     * this check read (build-pool.ts `prestartBuildWorker`), while the caller loads the full sync.
     */
    prepare?: PrepareTask;
  };

/** Options of {@link noChangeSync}. */
export interface NoChangeOptions {
  /** `--no-ast`, as the IndexManager would be given it. */
  noAst: boolean;
}

function fallback(reason: NoChangeFallback, build: boolean): NoChangeAnswer {
  return { current: false, reason, build };
}

/**
 * Whether the publication of the project at `root` is current, decided as a fresh
 * `IndexManager({ root, noAst }).sync()` would decide it, without building, writing or loading
 * the build machinery. Opens the published index file read-only once (as the manager does before
 * serving it) and closes it. Never throws.
 * @param root project root as given (resolved with realpath like the manager's)
 */
export function noChangeSync(root: string, options: NoChangeOptions): NoChangeAnswer {
  try {
    let real: string;
    try {
      real = resolveProjectRoot(root);
    } catch {
      return fallback('project_root', false);
    }
    let descriptor;
    try {
      descriptor = loadDescriptor(real);
    } catch {
      return fallback('descriptor', false);
    }
    // A project-owned adapter has no cheap identity until the build worker loaded it: the manager always builds.
    if (descriptor.adapter.module !== null) return fallback('project_adapter', true);
    const layout = stateLayout(path.join(real, descriptor.state.dir), real);
    if (openApplication(layout) !== null) return fallback('application_open', false);
    const logicAllowed = !options.noAst && descriptor.adapter.strategy === 'ast';
    const published = readPublicationOnce(layout).publication;
    // The server's decision (current.ts), first without the identity: the walk comes after the file checks.
    const expected = { descriptor, logicAllowed, checkAdapterVersion: true };
    const mismatch = publicationMismatch(published, expected);
    if (mismatch !== null || published === null) return fallback(mismatch ?? 'no_publication', true);
    if (!publicationFileIntact(layout, published)) return fallback('index_file_changed', true);
    // The identity covers what the publication's build read or probed (build-dependencies.ts): its
    // list comes from the index file, opened here once, as the manager opens it before serving it.
    const opened = indexMeta(path.join(layout.indexDir, published.index_file), options.noAst);
    if (opened === null) return fallback('index_unopenable', true);
    const index = opened.meta;
    let walked: IdentityWalk;
    try {
      walked = identityWalk(real, descriptor, [], null, dependenciesOfMeta(index));
    } catch {
      return fallback('walk', false);
    }
    // A metadata-only change the last build found to leave the content as published stands for the publication's identity (identity-alias.ts).
    const identity = aliasedIdentity(published, walkIdentity(walked), () => readIdentityAlias(layout));
    if (publicationMismatch(published, { ...expected, identity }) !== null) {
      const parseAdapters = changedCodeAdapters(path.join(layout.indexDir, published.index_file), descriptor, walked);
      return { current: false, reason: 'identity_changed', build: true, prepare: { root: real, stateDir: layout.stateDir, logicAllowed, parseAdapters } };
    }
    return { current: true, publication: published, errors: opened.errors };
  } catch {
    return fallback('error', false);
  }
}

/**
 * The code adapters whose files (by extension; adapter-registry.ts `adaptersFor`) the walk found
 * new or with another stat than their published `sources` row: those the coming build will most
 * likely parse with (PrepareTask `parseAdapters`). A file whose stat changed but whose content did
 * not counts; a manifest the linker reads (package.json, tsconfig.json) does not. Every adapter of
 * the descriptor when the index cannot be read.
 */
function changedCodeAdapters(file: string, descriptor: Descriptor, walked: IdentityWalk): string[] {
  let reader: IndexReader | null = null;
  try {
    reader = new IndexReader(file);
    const published = reader.sourceStats();
    const changed = walked.walk.entries.filter((entry) => entry.role === 'code' && published.get(entry.path) !== `${entry.size}:${entry.mtime_ns}:${entry.ctime_ns}:${entry.ino}`);
    return adaptersFor(descriptor, changed);
  } catch {
    return [...descriptor.adapter.code];
  } finally {
    reader?.close();
  }
}

/**
 * The error-severity issues of an index (issue 30, sync message): their count and the first
 * {@link SYNC_ERRORS_SHOWN} in stored order, which `docforge sync` names so an error finding is
 * never silent there.
 */
export interface ErrorIssueSummary {
  count: number;
  first: SourceIssue[];
}

/** Most error issues `docforge sync` names; `docforge check` lists the rest. */
export const SYNC_ERRORS_SHOWN = 3;

/** The {@link ErrorIssueSummary} of an open index (two small queries). */
export function errorIssueSummary(reader: IndexReader): ErrorIssueSummary {
  const count = reader.issueCountsBySeverity().error ?? 0;
  const first = count === 0 ? [] : reader.issuesBySeverity(['error'], SYNC_ERRORS_SHOWN).map(({ seq: _seq, ...issue }) => issue);
  return { count, first };
}

/**
 * What the manager checks before serving a file: it opens as an index of this schema (and holds no
 * Logic under --no-ast). Returns its `meta` rows and its error issues, or null when it does not pass.
 */
function indexMeta(file: string, noAst: boolean): { meta: Readonly<Record<string, string>>; errors: ErrorIssueSummary } | null {
  let reader: IndexReader;
  try {
    reader = new IndexReader(file);
  } catch {
    return null;
  }
  try {
    return noAst && reader.count('logic_steps') > 0 ? null : { meta: reader.meta, errors: errorIssueSummary(reader) };
  } catch {
    return null;
  } finally {
    reader.close();
  }
}
