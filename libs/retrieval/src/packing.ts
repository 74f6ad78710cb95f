/**
 * Token-budget packing of ranked items into one immutable stream (context and task context).
 * Packing is first-fit by contract, not a prefix: an item over the remaining budget becomes a
 * hash-identified omission and later items may still be selected, so each omission advances
 * exactly once and pagination cannot loop. Pages of the packed stream are cut by
 * {@link fitPrefix} (stream-page.ts).
 */
import { errors, canonicalJson, sha256 } from '@docforge/core';

/** Largest accepted token budget (both context tools). */
export const MAX_CONTEXT_BUDGET = 200_000;

/** Estimated tokens of a JSON value: `ceil(chars / 4)` of its canonical JSON. */
export function estimateTokens(value: unknown): number {
  return Math.ceil(canonicalJson(value).length / 4);
}

/** One item of a packed stream: a selected item or an omission; always carries `id`. */
export type StreamItem = Record<string, unknown> & { id: string; type: string };

/** A candidate for {@link packStream}: the full stream item and its token estimate. */
export interface PackCandidate {
  item: StreamItem;
  tokens: number;
}

/** Why {@link packStream} omitted an item. */
export type OmissionCause = 'token' | 'response';

/** Result of {@link packStream}. */
export interface PackedStream {
  /** Selected items first, then omissions in candidate order. */
  stream: StreamItem[];
  selected: number;
  token_omissions: number;
  response_omissions: number;
  used_tokens: number;
}

/**
 * First-fit packing of ranked candidates under a token budget and a per-item character ceiling.
 * A candidate whose tokens exceed what remains of the budget becomes a `token` omission; a
 * candidate that fits the budget but whose JSON is longer than `maxItemChars` becomes a
 * `response` omission and consumes no tokens.
 * @param omission builds the (small, hash-identified) omission item for a candidate
 * @throws DocforgeError `result_too_large` when even an omission item exceeds `maxItemChars`
 */
export function packStream(candidates: readonly PackCandidate[], budget: number, maxItemChars: number, omission: (candidate: PackCandidate, cause: OmissionCause, chars: number) => StreamItem): PackedStream {
  const selected: StreamItem[] = [];
  const omitted: StreamItem[] = [];
  let used = 0;
  let tokenOmissions = 0;
  let responseOmissions = 0;
  for (const candidate of candidates) {
    const chars = JSON.stringify(candidate.item).length;
    let cause: OmissionCause | null = null;
    if (used + candidate.tokens > budget) cause = 'token';
    else if (chars > maxItemChars) cause = 'response';
    if (cause === null) {
      used += candidate.tokens;
      selected.push(candidate.item);
      continue;
    }
    const item = omission(candidate, cause, chars);
    const omissionChars = JSON.stringify(item).length;
    if (omissionChars > maxItemChars) {
      // Even the omission record of this item cannot fit one page: raise [limits].max_output_chars.
      throw errors.resultTooLarge(omissionChars, maxItemChars, { max_item_chars: maxItemChars, omitted_id: candidate.item.id });
    }
    if (cause === 'token') tokenOmissions += 1;
    else responseOmissions += 1;
    omitted.push(item);
  }
  return { stream: [...selected, ...omitted], selected: selected.length, token_omissions: tokenOmissions, response_omissions: responseOmissions, used_tokens: used };
}

/** SHA-256 of an item's canonical JSON: the identity an omission carries. */
export function itemSha256(item: unknown): string {
  return sha256(canonicalJson(item));
}
