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
