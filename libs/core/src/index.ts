export type { Anchor, NodeOrigin, GraphNode, GraphEdge, MentionSection, LogicStep, LogicFlow, IssueSeverity, SourceIssue, ParsedSource } from './model.js';
export { RELATION_ALIASES, ALIASED_RELATIONS, relationCategory, MAX_MENTION_SECTIONS, NODE_FIELDS, AUTHORED_NODE_FIELDS, type NodeField, type AuthoredNodeField } from './model.js';
export { locatedIssueMessage } from './issue-location.js';
export { sha256, canonicalJson, hashJson, domainHash } from './hash.js';
export { withContentHash } from './node-hash.js';
export type { ErrorSpec, ErrorCode, WireError, ErrorOptions, ErrorFactoryName } from './errors.js';
export { ERROR_CODES, DocforgeError, toDocforgeError, isErrorCode, errors, errorInContext, formatErrorMessage, LOGIC_LANGUAGES } from './errors.js';
export type { AdapterManifest, CodeAdapter, CodeLinker, CodeExtractInput, ModuleResolver, LinkResult, AdapterStrategy, FileLinkOutput, LinkInput, PartialLinkPlan, PartialLinkResult } from './adapter.js';
export type { EdgeIdentity } from './edge-key.js';
export { edgeIdentityKey, parseEdgeIdentityKey, EDGE_KEY_SEPARATOR } from './edge-key.js';
export { argumentsError } from './arguments-error.js';
export type { CursorTextReason } from './cursor-text.js';
export { decodeCursorText } from './cursor-text.js';
export { CODE_ID_PREFIX, encodeCodePath, decodeCodePath, codeId, parseCodeId, encodeMemberName, canonicalCodeId, decodeMemberName } from './code-id.js';
export { isLogLevel, envLogLevel, repeatedOption, type OptionToken } from './cli-options.js';
export { ACCESS_ID_PATTERN, ACCESS_ID_RULE, MAX_ACCESS_ID_LENGTH, accessIdProblem } from './access-id.js';
export { LOG_LEVELS, readDocforgeConfig, NO_TEST_FAULTS, WORKER_CONFIG_ENV, type DocforgeConfig, type TestFaults, type Environment } from './config.js';
export { appendAll } from './arrays.js';
export { ownString } from './own-string.js';
export { mergeLinkOutputs } from './link-merge.js';
export { ownValue, setOwn } from './own-keys.js';
export { collectCodeText, MAX_CODE_TEXT_CHARS, MAX_CODE_LINE_CHARS, type NodeCodeText, type CodeTextOptions } from './code-text.js';
// A file's own doc comments (JSDoc `@param [options.x]`, `@property`) carried to the code text of the functions that read the name (issue 31).
export { documentedNames, withDocumentedNames, MAX_BRIDGED_WORDS } from './documented-names.js';
export { definedConstants, MAX_VALUE_LINES } from './defined-constants.js';
export { ApiTable, MAX_API_NAMES } from './api-table.js';
export type { ParameterList, MarkdownToken } from './param-lists.js';
export { parameterLists, listedName } from './param-lists.js';
export { javaImportLines, rustDeclarations, withoutAngles, withoutQuery, firstBraced, trimTrailing } from './linear-scan.js';
export { cppFunctionDefinitions, cppIncludeLines, type IncludeLine } from './linear-scan-cpp.js';
export { maskSource, lineAtOffset, blankDeclarationMacros, type MaskSyntax } from './source-mask.js';
export { modifierDeclarations, type DeclarationWords } from './linear-scan-decl.js';
export { withoutTrailingDirective, goModuleLinePath, startsLikeModuleCode, trimMentionPunctuation, quotedStringBodies, staticImportSpecifiers } from './linear-scan-text.js';
export { cppTypeDefinitions, rubyRequireLines, rustUseLines, phpUseLines, goImportSpecs, type PhpUse } from './linear-scan-source.js';
export { signatureParameters, parameterDriftIssue, sectionAt } from './param-drift.js';
export { coverageIssues, coverageFacts, coverageRelevant, coverageTest, nodeCoverage, sortCoverage, REQUIREMENT_KINDS, DECISION_KINDS, type CoverageFacts } from './coverage.js';
export type { EdgeReview, ReviewStamp, NodeReviewHash, ReviewState } from './model.js';
export {
  REVIEW_HASH_CHARS, REVIEW_HASH_PATTERN, reviewHash, documentReviewHash, withoutStampComments, codeReviewText, codeReviewHashes, nodeReviewHash, reviewState,
  parseStampComment, formatStampComment, type StampPair,
} from './review.js';
export { attachReviews, commentStamps, frontMatterStamps, type AttachedReviews, type RawReviewEntry } from './review-stamps.js';
export type { DecodedSource } from './source-text.js';
export { decodeSourceText, firstInvalidUtf8, invalidEncodingIssue } from './source-text.js';
export { DESCRIPTOR_FILE_NAME, nearestProjectRoot, projectRootLookalike, initHint } from './project-root.js';
export { authoredTextProblem, MAX_NODE_ID_CHARS, nodeIdProblem, shownId, UNSAFE_ID_CHARACTER, UNSAFE_TITLE_CHARACTER, type AuthoredText } from './node-id-rules.js';
export { excludedClause, excludedImportIssue, excludedTarget } from './excluded-import.js';
// Build copies of one source (content copies, twins) and the kept one, for search and mentions alike (issue 30, new-user trial on lru-cache).
export { BUNDLE_FILE, codeParts, twinKey, oneSource, copyPreference, compareCopyPaths, canonicalCopyPaths, copyKey, oneOfCopies } from './build-copies.js';
// Minified code told by its shape (new-user trial on marked): init leaves it out, sync warns `minified_source`.
export { minifiedEvidence, minifiedReason, MINIFIED_SAMPLE_CHARS, MINIFIED_READ_CHARS, type MinifiedEvidence } from './minified.js';
