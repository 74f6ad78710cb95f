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
  // issue 12: graph-browser worker IPC and HTTP API
  validateGraphBrowserWorkerConfig,
  validateGraphBrowserWorkerMessage,
  validateGraphBrowserWorkerCommand,
  validateGraphBrowserError,
  validateGraphBrowserOverview,
  validateGraphBrowserSearch,
  validateGraphBrowserFilter,
  validateGraphBrowserNode,
  validateGraphBrowserGraph,
  validateGraphBrowserLogic,
  validateGraphBrowserSource,
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
  GraphBrowserWorkerConfig,
  GraphBrowserWorkerMessage,
  GraphBrowserWorkerCommand,
  GraphBrowserError,
  GraphBrowserOverview,
  GraphBrowserSearch,
  GraphBrowserFilter,
  GraphBrowserNode,
  GraphBrowserGraph,
  GraphBrowserLogic,
  GraphBrowserSource,
  SchemaToolName,
  ToolInputs,
  ToolOutputs,
} from './generated/index.js';
