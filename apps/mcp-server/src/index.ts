export { createProjectServer, createGenericServer, createReadOnlyServer, respond } from './server.js';
export type { ProjectServerOptions, ProjectServer } from './server.js';
export { CONTENT_NOTICE, CURSOR_AFTER } from './envelope.js';
export { implementedTools } from './registry.js';
export type { ToolDefinition, ToolContext } from './tools.js';
export type { Envelope, ProjectBlock, ToolResponse } from './envelope.js';
