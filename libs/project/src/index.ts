/**
 * @docforge/project: the project descriptor, the source walk and identities, the canonical
 * Markdown/TOML loader with heading sections, and graph resolution (DESIGN.md sections 3 and 4).
 */
export type { Descriptor, ViewDeclaration, ViewRenderer, ViewSelector, ProposalWriterPolicy, ApplierPolicy } from './descriptor-types.js';
export { DESCRIPTOR_FILE, MIN_MAX_OUTPUT_CHARS, MAX_DESCRIPTOR_BYTES, BUILTIN_CODE_ADAPTERS, PROPOSAL_OPERATIONS, ID_PATTERN } from './descriptor-types.js';
export { loadDescriptor } from './descriptor.js';
export { excludeGlobOf } from './walk-rules.js';
export { BUILTIN_CODE_EXTENSIONS } from './descriptor-state-sources.js';
export type { SourceEntry, SourcePathClass, SourceWalk, StatIdentity } from './walk.js';
export { CONTENT_EXTENSIONS, MAX_CONTENT_SOURCE_BYTES, MAX_CODE_SOURCE_BYTES, walkSources, cheapIdentity, statIdentity, sourceHash, codeSourcePathMatcher, sourcePathClassifier } from './walk.js';
export type { LinkRef, ContentParse, ContentSourceInput } from './content.js';
export { parseContentSource } from './content.js';
export type { ResolveDelta, ResolveInput, ResolveSource, ResolvedGraph } from './resolve.js';
export { resolveGraph } from './resolve.js';
export { IncrementalResolver } from './resolve-incremental.js';
export { slugify } from '@docforge/markdown';
export type { NodeSection } from '@docforge/markdown';
export { sectionAtOffset, sectionText } from '@docforge/markdown';
export type { AdapterFileHash, ProjectAdapterFingerprint, AdapterInputWalk } from './project-adapter.js';
export {
  MAX_ADAPTER_FILES, MAX_ADAPTER_INPUT_FILES, MISSING_FILE_HASH, fingerprintProjectAdapter, relativeSpecifiers, ProjectAdapterGuard,
  validInputGlob, walkAdapterInputs,
} from './project-adapter.js';
export { vocabularyCaseIssues } from './vocabulary-case.js';
export { MAX_NODE_ID_CHARS, nodeIdProblem } from '@docforge/core';
