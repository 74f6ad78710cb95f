/**
 * @docforge/render: the fixed built-in renderer registry (catalog, page, matrix, graph), declared
 * views, render publication receipts, render status and changeset previews (issue 11; contract
 * "Render boundary"). Renderers read nodes from a {@link RenderGraph}: the published index through
 * the IndexReader (`readerGraph`), or that index overlaid with a changeset's projected content
 * graph (`overlayGraph`, previews).
 */
export type { RenderGraph, RenderEdge, Selection, ContentOverlay } from './graph.js';
export { readerGraph, overlayGraph, nodeMatchesSelector, MAX_VIEW_NODES, MAX_NODE_EDGES } from './graph.js';
export type { ChangeMark, ChangeMarks, RenderInput, Renderer } from './renderers/types.js';
export { edgeKey } from './renderers/types.js';
export { RENDERERS, RENDERER_VERSION, renderViewHtml } from './registry.js';
export { MAX_GRAPH_NODES } from './renderers/graph.js';
export { escapeHtml, nodeAnchor } from './html.js';
// Issue 34 item 7: the deterministic text measure the graph renderer sizes boxes with.
export { textWidth, fitText, wrapText, SVG_FONT_FAMILY } from './text-width.js';
export { renderMarkdown } from './markdown.js';
export type { LinkContext } from './markdown.js';
export type { RenderReceipt, ReceiptRead, FileStat } from './receipt.js';
export { readRenderReceipt, receiptPath, viewHash, fileStat, MAX_RENDER_RECEIPT_BYTES, RENDERS_DIR } from './receipt.js';
export type { RenderState, ViewRenderStatus, RenderStatusOptions, DeepRenderStatusOptions, DeclaredOutputsReport } from './status.js';
export { declaredOutputsReport, renderStatus, deepRenderStatus, renderCommand, selectViews, openPublishedGraph } from './status.js';
export type { RenderInputs, RenderedView } from './publish.js';
export { renderDeclaredViews } from './publish.js';
export type { PreviewInput, PreviewResult, PreviewMarkCounts } from './preview.js';
export { writePreview, changeMarks, previewPath } from './preview.js';
export type { OutputProblem, OutputProblemCode } from './output-path.js';
export { outputProblem } from './output-path.js';
// Issue 30: whether an existing output file is DocForge's own to replace.
export { foreignOutputReason, generatorMarker, stampGenerator, MAX_OWNED_OUTPUT_BYTES } from './ownership.js';
// Issue 32 item 5 (`docforge check`): findings as a CI check sees them.
export type { CheckFinding, CheckFailure, CheckSummary } from './findings.js';
export { checkFailure, checkSummary, checkSummaryLine, checkText, findingLocation, findingText, STRICT_CODE_PREFIXES } from './findings.js';
export { escapeCommandData, escapeCommandProperty, githubCommand, githubLine, githubLines } from './findings-github.js';
export type { SarifRun } from './findings-sarif.js';
export { sarifLevel, sarifLog, sarifUri, SARIF_ROOT_BASE_ID } from './findings-sarif.js';
