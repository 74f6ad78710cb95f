/**
 * The worker configuration handed over by the viewer manager in DOCFORGE_WORKER_CONFIG
 * (protocol/schemas/viewer/v2/worker-config.schema.json; DESIGN.md section 6).
 */
import path from 'node:path';
import { errors, WORKER_CONFIG_ENV } from '@docforge/core';
import { describeValidationErrors, validateGraphBrowserWorkerConfig, type GraphBrowserWorkerConfig } from '@docforge/protocol';

export type { GraphBrowserWorkerConfig };

/** Name of the environment variable that carries the worker configuration (JSON); declared in @docforge/core's config module. */
export { WORKER_CONFIG_ENV };

/**
 * Parses and validates the worker configuration text.
 * @throws DocforgeError `invalid_arguments` when the text is absent, not JSON, fails the schema, or
 *   names an index file other than the signature's `index_file`
 */
export function parseWorkerConfig(text: string | undefined): GraphBrowserWorkerConfig {
  if (text === undefined || text === '') throw errors.invalidArguments(`${WORKER_CONFIG_ENV} is not set; the viewer manager starts this worker.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw errors.invalidArguments(`${WORKER_CONFIG_ENV} is not JSON.`, {}, { cause: error });
  }
  if (!validateGraphBrowserWorkerConfig(value)) {
    const problems = describeValidationErrors(validateGraphBrowserWorkerConfig.errors);
    throw errors.invalidArguments(`${WORKER_CONFIG_ENV} fails its schema: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`, { errors: problems });
  }
  if (path.basename(value.index_path) !== value.signature.index_file) {
    throw errors.invalidArguments(`${WORKER_CONFIG_ENV}: index_path does not name the signature's index_file.`, { index_file: value.signature.index_file });
  }
  return value;
}
