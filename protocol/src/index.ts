/**
 * @docforge/protocol: the JSON Schemas of every format that crosses a process, file or MCP
 * boundary (protocol/schemas), their precompiled ajv validators and generated TypeScript types
 * (protocol/src/generated, from `npm run generate -w protocol`). Depends on no other workspace.
 */
export { loadToolSchemas, loadToolSchema, PROTOCOL_SCHEMA_DIR } from './schemas.js';
export type { ToolSchemaPair, ToolAnnotations } from './schemas.js';
export { describeValidationErrors } from './validator.js';
export type { SchemaValidator, SchemaValidationError } from './validator.js';
export {
  validateDescriptorDocument,
  validateCurrentJson,
  validateGenerationReceipt,
  validateCursorPayload,
  validateProjectAdapterOutput,
  validateChangesetDocument,
  validateViewerFrame,
  validateViewerHelloFrame,
  validateViewerErrorFrame,
  validateViewerHelloResultFrame,
  validateViewerEnsureWorkerFrame,
  validateViewerIssueTokenFrame,
  validateViewerWorkerStatusFrame,
  validateViewerStopWorkerFrame,
  validateViewerListWorkersFrame,
  validateViewerShutdownFrame,
  validateViewerEnsureWorkerResultFrame,
  validateViewerIssueTokenResultFrame,
  validateViewerWorkerStatusResultFrame,
  validateViewerStopWorkerResultFrame,
  validateViewerListWorkersResultFrame,
  validateViewerShutdownResultFrame,
  SCHEMA_VALIDATORS,
  TOOL_VALIDATORS,
} from './generated/index.js';
export type {
  DescriptorDocument,
  CurrentJson,
  GenerationReceipt,
  CursorPayload,
  ProjectAdapterOutput,
  ChangesetDocument,
  ViewerFrame,
  ViewerHelloFrame,
  ViewerErrorFrame,
  ViewerHelloResultFrame,
  ViewerEnsureWorkerFrame,
  ViewerIssueTokenFrame,
  ViewerWorkerStatusFrame,
  ViewerStopWorkerFrame,
  ViewerListWorkersFrame,
  ViewerShutdownFrame,
  ViewerEnsureWorkerResultFrame,
  ViewerIssueTokenResultFrame,
  ViewerWorkerStatusResultFrame,
  ViewerStopWorkerResultFrame,
  ViewerListWorkersResultFrame,
  ViewerShutdownResultFrame,
  SchemaToolName,
  ToolInputs,
  ToolOutputs,
} from './generated/index.js';
