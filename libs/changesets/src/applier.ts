/**
 * The canonical applier binding (issue 11, item 1; contract: "Canonical application is a second
 * independent startup gate ... A project adapter must also supply a compatible project-owned
 * canonical applier implementation"). Two ways a project supplies one:
 *
 * - `[adapter] canonical_applier = "generic"` in docforge.toml: DocForge's built-in generic
 *   applier (the format-preserving serializer of serialize.ts, nothing else);
 * - a project-owned adapter module (`[adapter] module`) exporting `canonicalApplier`, an object
 *   of the {@link ProjectCanonicalApplier} interface (docs/project-adapters.md).
 *
 * Without either, `--canonical-applier` fails at start with `canonical_applier_unavailable`.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { errors } from '@docforge/core';
import type { Descriptor } from '@docforge/project';

/**
 * What a project-owned adapter module exports as `canonicalApplier` (interface version 1):
 *
 * ```js
 * export const canonicalApplier = {
 *   interface_version: 1,
 *   // optional: the text to write for one staged file, given the generic serializer's text
 *   stage({ path, before, after }) { return after; },
 * };
 * ```
 *
 * `stage` runs in the DocForge process for each file the changeset changes; `before` is the
 * current text (null: new file), `after` the generic serializer's text (null: the file is deleted).
 * It returns the text to write (null deletes). Whatever it returns must still reproduce the
 * approved graph projection when read back, or the application is rolled back.
 */
export interface ProjectCanonicalApplier {
  readonly interface_version: 1;
  stage?(file: { path: string; before: string | null; after: string | null }): string | null;
}

/** A bound canonical applier: where it came from and its optional staging hook. */
export interface CanonicalApplier {
  /** `generic`, or `project_adapter` for an adapter module's `canonicalApplier`. */
  readonly source: 'generic' | 'project_adapter';
  /** Project-relative module path of a project-owned applier; null for the generic one. */
  readonly module: string | null;
  stage?(file: { path: string; before: string | null; after: string | null }): string | null;
}

/** DocForge's built-in generic applier. */
export const GENERIC_APPLIER: CanonicalApplier = Object.freeze({ source: 'generic' as const, module: null });

/**
 * Whether the descriptor opts into the generic applier; the synchronous half of the gate.
 * @returns the generic applier, or null when the project must supply one through its adapter module
 */
export function genericApplierOf(descriptor: Descriptor): CanonicalApplier | null {
  return descriptor.adapter.canonical_applier === 'generic' ? GENERIC_APPLIER : null;
}

/**
 * Checks that the project's current descriptor still supplies `applier`, the applier bound when the
 * process started (break-it trial 48): a running `docforge-mcp --canonical-applier` whose project
 * removed `[adapter] canonical_applier = "generic"` it was bound with, or removed the adapter module that exports
 * `canonicalApplier` and every other opt-in, has lost the project's consent, so nothing may be
 * applied until the setting is restored (or the process restarts without application).
 * @param descriptor the descriptor as read for this application (the synchronized one)
 * @throws DocforgeError `canonical_applier_unavailable` naming what changed; nothing is touched
 */
export function checkApplierStillDeclared(descriptor: Descriptor, applier: CanonicalApplier): void {
  const declaredGeneric = genericApplierOf(descriptor) !== null;
  if (applier.source === 'generic' && !declaredGeneric) {
    throw errors.canonicalApplierUnavailable('docforge.toml no longer sets [adapter] canonical_applier = "generic", as it did when this process started: the project withdrew its opt-in to canonical application, so nothing was applied. Restore the setting, or restart without --canonical-applier.', { descriptor: descriptor.path, bound: 'generic' });
  }
  // A project-owned applier: the project withdrew every opt-in (no generic applier, no adapter module).
  if (applier.source === 'project_adapter' && !declaredGeneric && descriptor.adapter.module === null) {
    throw errors.canonicalApplierUnavailable(`docforge.toml no longer names the project-owned adapter module ${String(applier.module)} whose canonicalApplier this process bound at start, nor canonical_applier = "generic": the project withdrew its opt-in to canonical application, so nothing was applied.`, { descriptor: descriptor.path, bound: applier.module });
  }
}

/**
 * Resolves the canonical applier the project supplies (process start, before any tool call).
 * @throws DocforgeError `canonical_applier_unavailable` when the descriptor neither opts into the
 *   generic applier nor names an adapter module exporting a compatible `canonicalApplier`
 */
export async function loadCanonicalApplier(descriptor: Descriptor): Promise<CanonicalApplier> {
  const generic = genericApplierOf(descriptor);
  if (generic !== null) return generic;
  const module = descriptor.adapter.module;
  if (module === null) {
    throw errors.canonicalApplierUnavailable('--canonical-applier needs a canonical applier the project supplies: add [adapter] canonical_applier = "generic" to docforge.toml, or export canonicalApplier from the project-owned adapter module ([adapter] module). Canonical application stays disabled.', { descriptor: descriptor.path });
  }
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(pathToFileURL(path.join(descriptor.root, module)).href)) as Record<string, unknown>;
  } catch (error) {
    throw errors.canonicalApplierUnavailable(`the project-owned adapter module ${module} could not be loaded to find its canonicalApplier: ${(error as Error).message}`, { module }, { cause: error });
  }
  const exported = namespace['canonicalApplier'] as Partial<ProjectCanonicalApplier> | undefined;
  if (exported === undefined || exported === null || typeof exported !== 'object') {
    throw errors.canonicalApplierUnavailable(`the project-owned adapter module ${module} exports no canonicalApplier, and docforge.toml does not set [adapter] canonical_applier = "generic"; canonical application stays disabled.`, { module });
  }
  if (exported.interface_version !== 1 || (exported.stage !== undefined && typeof exported.stage !== 'function')) {
    throw errors.canonicalApplierUnavailable(`the canonicalApplier of ${module} is not compatible: it needs interface_version 1 and an optional stage function.`, { module });
  }
  const stage = exported.stage?.bind(exported);
  return Object.freeze(stage === undefined ? { source: 'project_adapter' as const, module } : { source: 'project_adapter' as const, module, stage });
}
