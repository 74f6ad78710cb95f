/**
 * The "identity" end of a sync (IndexManager, manager.ts): the bound project's descriptor (re-read
 * only when docforge.toml's stat changed), its project-owned adapter (the process-start
 * fingerprint, and what the build worker reported about it), and the cheap source identity of a
 * walk (libs/identity identity.ts), with the build dependency list of a publication cached per file.
 */
import path from 'node:path';
import { cheapIdentity, loadDescriptor, ProjectAdapterGuard, statIdentity, walkAdapterInputs, type Descriptor } from '@docforge/project';
import { stateLayout, type StateLayout } from '@docforge/fs-safe';
import { identityWalk, publishedDependencies, type BuildDependencies, type IdentityWalk } from '@docforge/identity';
import { identityWithInputs, type BuildTask, type ProjectAdapterReport } from '@docforge/builder';
import type { Publication } from '@docforge/store';
import type { Served } from './served-index.js';

/** The identity side of one bound project root (see the module comment). */
export class ProjectIdentity {
  private descriptorCache: { key: string; descriptor: Descriptor } | null = null;
  /** Project-owned adapter: implementation fingerprint taken at construction (process start). */
  private readonly adapterGuard: ProjectAdapterGuard;
  /** What the build worker reported about the project-owned adapter (null until it loaded it). */
  private adapterReport: ProjectAdapterReport | null = null;
  /** The build dependency list of the last publication asked for (by index file and inode; null: unreadable). */
  private dependencyCache: { key: string; dependencies: BuildDependencies } | null = null;

  /**
   * @param root the project root (absolute, real path)
   * @param extraIdentityFiles project-relative files whose stat joins the cheap identity
   */
  constructor(readonly root: string, readonly extraIdentityFiles: readonly string[]) {
    let adapterModule: string | null = null;
    try {
      adapterModule = this.descriptor().adapter.module;
    } catch {
      // A descriptor that does not load binds no project-owned adapter; tools report the descriptor error.
    }
    this.adapterGuard = new ProjectAdapterGuard(root, adapterModule);
  }

  /** The descriptor, re-read only when docforge.toml's stat changed. @throws DocforgeError `descriptor_invalid`. */
  descriptor(): Descriptor {
    const id = statIdentity(path.join(this.root, 'docforge.toml'), 'docforge.toml');
    const key = id ? `${id.size}:${id.mtime_ns}:${id.ctime_ns}:${id.ino}` : 'missing';
    if (this.descriptorCache?.key === key) return this.descriptorCache.descriptor;
    const descriptor = loadDescriptor(this.root);
    this.descriptorCache = { key, descriptor };
    return descriptor;
  }

  /** The descriptor last loaded, without checking docforge.toml again; null when none loaded yet. */
  lastDescriptor(): Descriptor | null {
    return this.descriptorCache?.descriptor ?? null;
  }

  /** The state layout of `descriptor`'s state directory. */
  layoutOf(descriptor: Descriptor): StateLayout {
    return stateLayout(path.join(this.root, descriptor.state.dir), this.root);
  }

  /**
   * Checks the project-owned adapter against the implementation fingerprint taken at process start.
   * @throws DocforgeError `adapter_restart_required` (stale, remediation `restart_project_server`)
   */
  checkProjectAdapter(): void {
    let module: string | null | undefined;
    try {
      module = this.descriptor().adapter.module;
    } catch {
      // No descriptor: the guard checks the module bound at start only.
      module = undefined;
    }
    this.adapterGuard.check(module);
  }

  /** The bound project-owned adapter (process-start fingerprint and the worker's report), or null. */
  projectAdapter(): { module: string; fingerprint: string; files: number; report: ProjectAdapterReport | null } | null {
    const fp = this.adapterGuard.fingerprint;
    return fp === null ? null : { module: fp.module, fingerprint: fp.fingerprint, files: fp.files.length, report: this.adapterReport };
  }

  /** Whether a project-owned adapter is bound. */
  hasProjectAdapter(): boolean {
    return this.adapterGuard.fingerprint !== null;
  }

  /** The project-owned adapter binding of a build task, or null. */
  adapterTask(): BuildTask['projectAdapter'] {
    const fp = this.adapterGuard.fingerprint;
    return fp === null ? null : { module: fp.module, fingerprint: fp.fingerprint };
  }

  /** Keeps what the build worker reported about the project-owned adapter. */
  recordAdapterReport(report: ProjectAdapterReport): void {
    this.adapterReport = report;
  }

  /** Whether the project has a cheap source identity: always without a project-owned adapter; with one once it declares `inputs`. */
  identityKnown(): boolean {
    if (this.adapterGuard.fingerprint === null) return true;
    return Array.isArray(this.adapterReport?.inputs);
  }

  /** The sources walked, every extra stat identity and the state of `dependencies` (identity.ts, shared with the no-change fast path). */
  walk(descriptor: Descriptor, dependencies: BuildDependencies | null): IdentityWalk {
    return identityWalk(this.root, descriptor, this.extraIdentityFiles, this.adapterGuard.fingerprint?.fingerprint ?? null, dependencies);
  }

  /** Cheap identity of walked sources plus extras plus build dependencies plus the declared adapter inputs (when known). */
  identityOf(descriptor: Descriptor, walked: IdentityWalk): string {
    const inputs = this.adapterReport?.inputs;
    const extra = [...walked.extra, ...walked.dependencies];
    if (this.adapterGuard.fingerprint === null || !Array.isArray(inputs)) return cheapIdentity(walked.walk.entries, extra);
    return identityWithInputs(walked.walk.entries, extra, walkAdapterInputs(this.root, inputs, descriptor.state.dir).files);
  }

  /** {@link publishedDependencies} of `publication`, cached per index file and inode (a null answer is not cached). */
  publishedDependencies(layout: StateLayout, publication: Publication | null, served: Served | null): BuildDependencies | null {
    const key = publication === null ? '' : `${publication.index_file}\u0000${publication.index_ino}`;
    if (this.dependencyCache?.key === key) return this.dependencyCache.dependencies;
    const dependencies = publishedDependencies(layout, publication, served);
    if (dependencies !== null) this.dependencyCache = { key, dependencies };
    return dependencies;
  }
}
