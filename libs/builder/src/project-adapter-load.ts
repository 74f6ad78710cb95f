/**
 * Loading the project-owned adapter module inside the build worker (project-adapter.ts has the
 * module contract). Its files must hash to the process-start fingerprint before the import and again
 * right after; the module is imported at most once per worker and never reloaded. What was loaded,
 * and whether the files changed under an import, is held by one {@link ProjectAdapterSlot} per
 * worker (in its build caches, build-caches.ts), never by the module.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { errors, type DocforgeError } from '@docforge/core';
import { fingerprintProjectAdapter, MISSING_FILE_HASH, validInputGlob } from '@docforge/project';
import type { LoadedAdapter, ProjectAdapterReport, ProjectAdapterRunner, ProjectAdapterTask } from './project-adapter.js';
import { runnerOf } from './project-adapter-run.js';

/** The project-owned adapter as a build uses it: what was reported, and its runner (null when it did not load). */
export interface ProjectAdapterHandle {
  report: ProjectAdapterReport;
  run: ProjectAdapterRunner | null;
}

function restartRequired(details: Record<string, unknown>): DocforgeError {
  return errors.adapterRestartRequired('The project-owned adapter changed after process start; restart the MCP server to load it.', details);
}

function stringList(value: unknown): string[] | null {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return null;
  return [...new Set(value as string[])].sort();
}

function failed(fingerprint: string, message: string): LoadedAdapter {
  return {
    fingerprint,
    extract: null,
    rawInputs: null,
    report: { loaded: false, version: null, inputs: null, proposal_operations: null, error: errors.adapterFailed(message).toWire() },
  };
}

/** What an imported namespace gives: a usable adapter, or the reason it is not one. */
function fromNamespace(task: ProjectAdapterTask, namespace: Record<string, unknown> | null, loadError: string | null): LoadedAdapter {
  if (namespace === null) {
    return failed(task.fingerprint, `The project-owned adapter module ${task.module} cannot be imported (${loadError ?? 'unknown error'}).`);
  }
  if (typeof namespace.version !== 'string' || namespace.version.trim() === '' || namespace.version.length > 128) {
    return failed(task.fingerprint, `The project-owned adapter module ${task.module} must export a nonempty string \`version\`.`);
  }
  if (typeof namespace.extract !== 'function') {
    return failed(task.fingerprint, `The project-owned adapter module ${task.module} must export a function \`extract(context)\`.`);
  }
  const rawInputs = namespace.inputs === undefined ? null : Array.isArray(namespace.inputs) ? (namespace.inputs as unknown[]) : [];
  return {
    fingerprint: task.fingerprint,
    extract: namespace.extract as (context: unknown) => unknown,
    rawInputs,
    report: {
      loaded: true,
      version: namespace.version,
      inputs: rawInputs === null ? null : [...new Set(rawInputs.filter(validInputGlob))].sort(),
      proposal_operations: namespace.proposalOperations === undefined ? null : (stringList(namespace.proposalOperations) ?? []),
      error: null,
    },
  };
}

/** The one project-owned adapter module a build worker loads (the worker never reloads it). */
export class ProjectAdapterSlot {
  private loaded: LoadedAdapter | null = null;
  /** Set when the files changed under an import: the cached module is not the fingerprinted one. */
  private poisoned: string | null = null;

  /**
   * Imports the project-owned adapter once, after checking that its files still hash to the
   * process-start fingerprint. A module that cannot be imported or lacks `version`/`extract` is
   * reported (`loaded: false`, `error` `adapter_failed`) rather than thrown, so the build decides.
   * @throws DocforgeError `adapter_restart_required` when the files differ from the fingerprint, or
   *   when they changed while the module was being imported (the loaded code is then never used)
   */
  async load(root: string, task: ProjectAdapterTask): Promise<ProjectAdapterHandle> {
    if (this.poisoned !== null) throw restartRequired({ reason: 'changed_during_import', path: this.poisoned });
    if (this.loaded !== null) {
      if (this.loaded.fingerprint !== task.fingerprint) throw restartRequired({ reason: 'fingerprint_mismatch', fingerprint: task.fingerprint });
      return { report: this.loaded.report, run: runnerOf(this.loaded) };
    }
    const before = fingerprintProjectAdapter(root, task.module);
    if (before.fingerprint !== task.fingerprint) throw restartRequired({ reason: 'fingerprint_mismatch', fingerprint: task.fingerprint });
    const missing = before.files.find((f) => f.path === before.module)?.sha256 === MISSING_FILE_HASH;
    const entry = missing
      ? failed(task.fingerprint, `The project-owned adapter module ${task.module} does not exist inside the project root.`)
      : await this.importChecked(root, task);
    this.loaded = entry;
    return { report: entry.report, run: runnerOf(entry) };
  }

  /** Drops the loaded module reference (tests only; Node keeps its ES module cache regardless). */
  reset(): void {
    this.loaded = null;
    this.poisoned = null;
  }

  /** Imports the module, then checks the fingerprint again. @throws DocforgeError `adapter_restart_required` when the files changed meanwhile. */
  private async importChecked(root: string, task: ProjectAdapterTask): Promise<LoadedAdapter> {
    let namespace: Record<string, unknown> | null = null;
    let loadError: string | null = null;
    try {
      namespace = (await import(pathToFileURL(path.join(root, task.module)).href)) as Record<string, unknown>;
    } catch (error) {
      loadError = error instanceof Error ? error.message : String(error);
    }
    const after = fingerprintProjectAdapter(root, task.module);
    if (after.fingerprint !== task.fingerprint) {
      this.poisoned = task.module;
      throw restartRequired({ reason: 'changed_during_import', path: task.module });
    }
    return fromNamespace(task, namespace, loadError);
  }
}
