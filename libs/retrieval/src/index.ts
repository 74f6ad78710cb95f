export { effectiveLimit } from './limits.js';
export type { SearchHit, NodeFilters, SearchResult, NodeSummary } from './search.js';
export { searchNodes, filterNodes, toFtsQuery, queryPhrases, filterSql, RANK_BONUS, STOP_WORDS } from './search.js';
export type { TraversalDirection, TraversalItem, TraversalResult, TraversalOptions, Backlink, NodeEdges } from './traversal.js';
export { traverse, backlinks, nodeEdges, DEFAULT_EDGE_BUDGET } from './traversal.js';
export { encodeCursor, decodeCursor, paramsHash, cursorOffset, CURSOR_DOMAIN, CURSOR_PARAMS_DOMAIN, MAX_CURSOR_LENGTH } from './cursor.js';
export type { CursorBinding, CursorPosition, DecodedCursor, InvalidCursorReason } from './cursor.js';
