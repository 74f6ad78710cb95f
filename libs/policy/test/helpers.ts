/** Shared test input: the generic command's startup options with overrides. */
import type { PolicyOptions } from '../src/index.js';

/** Default PolicyOptions (generic factory, no access ids, ast strategy) with `overrides` applied. */
export function policyOptions(overrides: Partial<PolicyOptions> = {}): PolicyOptions {
  return {
    capabilityMode: null,
    factory: 'generic',
    proposalWriter: null,
    canonicalApplier: null,
    noAst: false,
    diagnostics: false,
    adapterStrategy: 'ast',
    projectAdapterModule: null,
    ...overrides,
  };
}
