/**
 * A tool's outcome as a typed value (issue 29, item 3): what a handler returns besides its
 * `result`, and the closed list of fit strategies a tool declares in `defineTool()`. The lifecycle
 * stage `fit_to_size` ({@link respond}) dispatches on the declared strategy; it never probes the
 * shape of a result, and nothing travels on a result as a hidden (non-enumerable or Symbol-keyed)
 * property.
 */
import type { SyncReport } from '@docforge/sync';
import type { ProjectBlock } from './envelope.js';

/** The `result` object of a success envelope (plain JSON data only). */
export type ToolResult = Record<string, unknown>;

/**
 * The closed list of fit strategies, one per way the contract (MCP_CONTRACT.md) lets a response
 * stay within `[limits].max_output_chars`. Every strategy first drops `diagnostics` (contract:
 * `--diagnostics`); what still does not fit after the strategy ran becomes `result_too_large`.
 *
 * - `page`: a collection page (`items`, `truncated`, optionally `next_cursor` and
 *   `truncation_reason`). {@link respond} keeps the longest prefix of items that fits, sets
 *   `truncated = true` (and `truncation_reason = "result_limit"` where it was null), consumes an
 *   item that cannot fit even alone as an `oversized_items` entry (`id`, `chars`), and points
 *   `next_cursor` after the last item consumed through {@link Page.cursorAfter} (null when the tool
 *   has no cursor after an arbitrary item). Contract: "Collection responses report whether they
 *   were truncated".
 * - `page_with_omissions`: a page the handler packs itself against the response budget, where what
 *   cannot fit is a hash-identified record instead of being dropped: the `response_limit`
 *   omissions of context, task context and the generation diff, the deterministic operation
 *   summaries (hashes and character counts) of oversized changeset inspection and validation
 *   pages. {@link respond} never trims such a page: its receipt, page hash and cursor describe
 *   exactly the items it holds.
 * - `node_body`: one node with a body window ({@link BodyWindow}); {@link respond} cuts the body to
 *   the longest prefix that fits, sets `body_truncated = true` and `next_body_offset`.
 * - `chunked`: the handler pages entries and serves an individually oversized entry as a sequence
 *   of `canonical_json_chunk` pages (contract: changeset diffs); {@link respond} never trims them.
 * - `compact`: a read result with a declared compact form (the same output schema) that keeps
 *   every contract-required field; {@link respond} substitutes it when the full result does not fit.
 * - `receipt`: a committed mutation with its version-1 compact receipt, which its preflight proved
 *   fits; {@link respond} substitutes it when the full result does not fit and never turns a
 *   committed mutation into a failure.
 * - `none`: the result is bounded by construction (fixed-size records, or cut by the handler
 *   itself, as Logic's `truncation_reason = "response_limit"`).
 */
export const FIT_STRATEGIES = Object.freeze(['page', 'page_with_omissions', 'node_body', 'chunked', 'compact', 'receipt', 'none'] as const);

/** One fit strategy of {@link FIT_STRATEGIES} (see there for what each one means). */
export type FitStrategy = (typeof FIT_STRATEGIES)[number];

/** Whether a value is one of the {@link FIT_STRATEGIES}. */
export function isFitStrategy(value: unknown): value is FitStrategy {
  return typeof value === 'string' && (FIT_STRATEGIES as readonly string[]).includes(value);
}

/**
 * The page of a `page` outcome: the result's own `items` array and how to make the cursor that
 * continues after one of them (after {@link respond} trimmed the page to fit).
 */
export interface Page {
  /** The `items` array of the result (the same array, not a copy). */
  readonly items: readonly unknown[];
  /** The cursor of the page that starts after `item`; null when the tool has none (then a trimmed page reports `next_cursor: null`). */
  readonly cursorAfter: ((item: unknown) => string) | null;
}

/**
 * The body window of a `node_body` outcome: the node object whose `body` {@link respond} may cut,
 * and where the window starts in the full body.
 */
export interface BodyWindow {
  /** The result's `node` (the same object): its `body` is the window. */
  readonly node: { body: string };
  /** Characters of the full body before the window (`body_offset`); null: the result reports no offset, hence no `next_body_offset`. */
  readonly offset: number | null;
  /**
   * Lists of the result that {@link respond} may cut, in this order, when the result does not fit
   * even with an empty body (at the smallest `max_output_chars`, break-it trial of issue 30).
   */
  readonly lists?: readonly CuttableList[];
}

/** One list of a result that the fitting may cut to a prefix, setting its truncation flag. */
export interface CuttableList {
  /** The object holding the list (a part of the result). */
  readonly holder: Record<string, unknown>;
  /** The list's key in `holder`. */
  readonly key: string;
  /** The object holding the list's truncation flag. */
  readonly flags: Record<string, unknown>;
  /** The flag's key in `flags`, set true when the list is cut. */
  readonly flag: string;
}

/** What each strategy adds to an outcome beside the result. */
export interface FitParts {
  page: { page: Page };
  page_with_omissions: Record<never, never>;
  node_body: { body: BodyWindow };
  chunked: Record<never, never>;
  /** The compact form: a plain object of the same output schema. */
  compact: { compact: ToolResult };
  /** The version-1 compact receipt of the mutation. */
  receipt: { receipt: ToolResult };
  none: Record<never, never>;
}

/**
 * What a sync tool's handler returns under fit strategy `F`: the result, the strategy's part
 * ({@link FitParts}) and, when the handler published a newer generation than the call's sync
 * stage (canonical application refreshes the index after writing), the {@link SyncReport} the
 * result was served from: the response's project block then names that publication.
 */
export type ToolOutcome<F extends FitStrategy = FitStrategy> = { result: ToolResult; servedFrom?: SyncReport } & FitParts[F];

/** What a status tool's handler returns: a {@link ToolOutcome} plus the project block it can prove from cheap identities (null: none). */
export type StatusOutcome<F extends FitStrategy = FitStrategy> = ToolOutcome<F> & { project: ProjectBlock | null };

/** A handler outcome with its strategy erased (what a tool definition hands the lifecycle; {@link fittingOf} restores it). */
export interface AnyToolOutcome {
  result: ToolResult;
  servedFrom?: SyncReport;
  page?: Page;
  body?: BodyWindow;
  compact?: ToolResult;
  receipt?: ToolResult;
}

/** The fitting {@link respond} applies: the declared strategy with its part of the outcome. */
export type Fitting =
  | { strategy: 'page'; page: Page }
  | { strategy: 'node_body'; body: BodyWindow }
  | { strategy: 'compact'; compact: ToolResult }
  | { strategy: 'receipt'; receipt: ToolResult }
  | { strategy: 'page_with_omissions' | 'chunked' | 'none' };

/** The fitting of a failure envelope (nothing to fit but the error itself). */
export const NO_FITTING: Fitting = Object.freeze({ strategy: 'none' });

/**
 * A `page` outcome from a result and its cursor maker: the page is the result's own `items`.
 * @param cursorAfter the cursor continuing after one item; null when the tool has none
 */
export function pageOutcome<T>(result: ToolResult & { items: T[] }, cursorAfter: ((item: T) => string) | null): ToolOutcome<'page'> {
  return { result, page: { items: result.items, cursorAfter: cursorAfter as ((item: unknown) => string) | null } };
}

/**
 * The fitting of a tool's declared strategy and its handler's outcome.
 * @throws Error when the outcome lacks the part its strategy needs (a defect of the tool; the
 *   lifecycle reports it as `internal_error`)
 */
export function fittingOf(strategy: FitStrategy, outcome: AnyToolOutcome): Fitting {
  const missing = (part: string): Error => new Error(`a tool declaring fit strategy ${strategy} returned no ${part}`);
  switch (strategy) {
    case 'page':
      if (outcome.page === undefined) throw missing('page');
      return { strategy, page: outcome.page };
    case 'node_body':
      if (outcome.body === undefined) throw missing('body window');
      return { strategy, body: outcome.body };
    case 'compact':
      if (outcome.compact === undefined) throw missing('compact form');
      return { strategy, compact: outcome.compact };
    case 'receipt':
      if (outcome.receipt === undefined) throw missing('compact receipt');
      return { strategy, receipt: outcome.receipt };
    default:
      return { strategy };
  }
}
