/**
 * The identity walks of a long-lived IndexManager (`watchSources`, issue 14): the source watcher
 * (source-watch.ts) standing for the walk while nothing changes, the last walk kept as the base of
 * the next partial walk (partial-walk.ts), and the directories watched for the build dependencies
 * the identity covers (build-dependencies.ts), so that a change to one of them is never missed.
 */
import type { Descriptor, SourcePathClass } from '@docforge/project';
import { sourcePathClassifier } from '@docforge/project';
import { codeExtensionsOf } from '@docforge/identity';
import { dependencyIdentities, dependencyWatch, type BuildDependencies } from '@docforge/identity';
import { identityExtra, walkIssueIdentities, type IdentityWalk } from '@docforge/identity';
import { partialWalk } from './partial-walk.js';
import { SourceWatch } from './source-watch.js';

/** The last walk: its descriptor, result and identity, and the directories watched only for build dependencies. */
interface LastWalk {
  descriptor: Descriptor;
  walked: IdentityWalk;
  identity: string;
  dependencyDirectories: ReadonlySet<string>;
}

/** See the module comment. One per watching IndexManager; all calls come from its serialized chain. */
export class WatchedWalks {
  readonly #root: string;
  readonly #watch: SourceWatch;
  #last: LastWalk | null = null;
  /** The single-path classifier of the descriptor of the last partial walk. */
  #classifier: { descriptor: Descriptor; classify: (rel: string) => SourcePathClass } | null = null;

  /** @param root the real absolute project root */
  constructor(root: string) {
    this.#root = root;
    this.#watch = new SourceWatch(root);
  }

  /** The identity of the last trusted walk when nothing changed since (SourceWatch.unchangedIdentity), else null. */
  unchangedIdentity(): Promise<string | null> {
    return this.#watch.unchangedIdentity();
  }

  /** Whether one more walk would become trusted (SourceWatch.awaitsTrustedWalk). */
  awaitsTrustedWalk(): boolean {
    return this.#watch.awaitsTrustedWalk();
  }

  /** The descriptor of the last recorded walk, or null. */
  lastDescriptor(): Descriptor | null {
    return this.#last?.descriptor ?? null;
  }

  /** Call right before a full walk starts. */
  beginWalk(): void {
    this.#watch.beginWalk();
  }

  /**
   * The watcher-driven partial walk: the last walk updated for the paths the watcher saw change
   * since it began, with the extra identities computed as `identityWalk` does (no extra identity
   * files, no project-owned adapter: the watcher is off with those) and `dependencies` (the list of
   * the publication compared against) lstat'ed again in full. Null, with nothing started, when a
   * full walk is needed (then call {@link beginWalk}).
   */
  partial(descriptor: Descriptor, dependencies: BuildDependencies | null): IdentityWalk | null {
    const last = this.#last;
    if (last === null || last.descriptor !== descriptor) return null;
    const paths = this.#watch.beginPartialWalk(last.identity);
    if (paths === null) return null;
    if (this.#classifier?.descriptor !== descriptor) {
      this.#classifier = { descriptor, classify: sourcePathClassifier(descriptor, codeExtensionsOf(descriptor.adapter.code)) };
    }
    // Dependencies are lstat'ed again in full, so events in directories watched only for them need no classifying.
    const walk = partialWalk(last.walked.walk, paths, this.#classifier.classify, last.dependencyDirectories);
    if (walk === null) return null;
    return {
      walk, extra: [...identityExtra(this.#root, descriptor, [], null), ...walkIssueIdentities(walk.issues)],
      dependencies: dependencyIdentities(this.#root, dependencies),
    };
  }

  /**
   * Hands a finished walk of identity `identity` to the watcher and keeps it as the base of the next
   * partial walk. The watcher also watches every directory on the way to each of `dependencies`
   * (the list the identity covers); it trusts no walk when one of them cannot be watched, when that
   * list is unreadable (null), or when `outside` (the identity depends on files elsewhere).
   */
  record(descriptor: Descriptor, walked: IdentityWalk, identity: string, dependencies: BuildDependencies | null, outside: boolean): void {
    const { walk } = walked;
    const watch = dependencies === null ? { directories: [], outside: true } : dependencyWatch(this.#root, dependencies);
    const read = new Set(walk.directories);
    const dependencyDirectories = new Set(watch.directories.filter((dir) => !read.has(dir)));
    this.#watch.endWalk({ identity, directories: [...walk.directories, ...dependencyDirectories], outside: outside || walk.links > 0 || watch.outside });
    this.#last = { descriptor, walked, identity, dependencyDirectories };
  }

  /** Stops watching. */
  close(): void {
    this.#watch.close();
  }
}
