/**
 * The `ProjectService` of the read-only integration form (contract: "An explicit project
 * integration may instead construct the same read-only surface from a validated `ProjectService`
 * and project-owned context provider"): a project bound once to one root, with its validated
 * descriptor and the index (synchronization plus the bounded IndexReader) DocForge serves from.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import { errors } from '@docforge/core';
import { IndexManager, resolveProjectRoot } from '@docforge/sync';
import type { Descriptor } from '@docforge/project';

/** A bound project a read-only integration hands to {@link createReadOnlyServer}. */
export interface ProjectService {
  /** Absolute real project root (realpath), bound for the life of the service. */
  readonly root: string;
  /** The descriptor (`docforge.toml`) of that root, loaded and validated at binding. */
  readonly descriptor: Descriptor;
  /** Whether the index is bound without AST analysis (contract: "Preserved no-AST bindings"). */
  readonly noAst: boolean;
  /** The index manager of that root: synchronization and the bounded IndexReader. */
  readonly manager: IndexManager;
}

/**
 * Binds a project service: resolves the root, loads and validates the descriptor, creates the
 * index manager.
 * @throws DocforgeError `project_root_invalid` (missing or not a directory), `descriptor_invalid`
 */
export function createProjectService(options: { projectRoot: string; noAst?: boolean; logger: Logger }): ProjectService {
  const root = resolveProjectRoot(options.projectRoot);
  const noAst = options.noAst === true;
  // A long-lived process: an unchanged, watched source tree skips the identity walk (issue 14).
  const manager = new IndexManager({ root, noAst, onWarning: (message, details) => options.logger.warn(details, message), watchSources: true });
  return Object.freeze({ root, descriptor: manager.descriptor(), noAst, manager });
}

/**
 * What DocForge checks before serving a service it did not build: a DocForge IndexManager bound to
 * the same absolute root, whose current descriptor loads and names that root.
 * @returns the service
 * @throws DocforgeError `invalid_arguments` naming the mismatch; `descriptor_invalid` when the
 *   descriptor no longer loads
 */
export function validateProjectService(service: ProjectService): ProjectService {
  if (!(service.manager instanceof IndexManager)) throw errors.invalidArguments('ProjectService.manager must be a DocForge IndexManager (use createProjectService)');
  if (typeof service.root !== 'string' || !path.isAbsolute(service.root) || service.root !== service.manager.root) {
    throw errors.invalidArguments('ProjectService.root must be the absolute root its index manager is bound to', { root: String(service.root) });
  }
  if (typeof service.noAst !== 'boolean') throw errors.invalidArguments('ProjectService.noAst must be a boolean');
  const current = service.manager.descriptor();
  if (service.descriptor?.root !== current.root || current.root !== service.root) {
    throw errors.invalidArguments('ProjectService.descriptor must be the descriptor of the bound root', { root: service.root });
  }
  return service;
}
