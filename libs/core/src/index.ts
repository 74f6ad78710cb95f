export type { Anchor, NodeOrigin, GraphNode, GraphEdge, MentionSection, LogicStep, LogicFlow, IssueSeverity, SourceIssue, ParsedSource } from './model.js';
export { RELATION_ALIASES, ALIASED_RELATIONS, relationCategory, MAX_MENTION_SECTIONS } from './model.js';
export { sha256, canonicalJson, hashJson, domainHash } from './hash.js';
export { withContentHash } from './node-hash.js';
export type { ErrorSpec, ErrorCode, WireError, ErrorOptions, ErrorFactoryName } from './errors.js';
export { ERROR_CODES, DocforgeError, toDocforgeError, isErrorCode, errors, formatErrorMessage } from './errors.js';
export type { AdapterManifest, CodeAdapter, CodeExtractInput, ModuleResolver, LinkResult, AdapterStrategy } from './adapter.js';
export type { EdgeIdentity } from './edge-key.js';
export { edgeIdentityKey, parseEdgeIdentityKey, EDGE_KEY_SEPARATOR } from './edge-key.js';
