import { errors } from '@docforge/core';

/**
 * The effective result limit of a collection tool (contract: "explicit result limits bounded by
 * the project max_results policy. Omitted limits are still capped").
 * @param requested the tool argument, if any (already schema-checked as an integer >= 1)
 * @param maxResults the descriptor's `[limits].max_results`
 * @param defaultLimit the tool's default when omitted (still capped by maxResults)
 * @throws DocforgeError `invalid_arguments` when the requested limit exceeds max_results
 */
export function effectiveLimit(requested: number | undefined, maxResults: number, defaultLimit = 50): number {
  if (requested === undefined) return Math.min(defaultLimit, maxResults);
  if (!Number.isInteger(requested) || requested < 1) {
    throw errors.invalidArguments('limit must be an integer of at least 1.', { argument: 'limit' });
  }
  if (requested > maxResults) {
    throw errors.invalidArguments(`limit ${requested} exceeds the project max_results of ${maxResults}.`, { argument: 'limit', max_results: maxResults });
  }
  return requested;
}
