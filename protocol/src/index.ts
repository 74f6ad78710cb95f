/** Wire protocol package: JSON Schemas under protocol/schemas and their loader. */
export { loadToolSchemas, PROTOCOL_SCHEMA_DIR } from './schemas.js';
export type { ToolSchemaPair, ToolAnnotations } from './schemas.js';
