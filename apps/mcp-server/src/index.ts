export { createProjectServer, createReadOnlyServer, respond } from './server.js';
export type { ProjectServerOptions, ProjectServer } from './server.js';
export { CONTENT_NOTICE } from './envelope.js';
export type { Envelope, ProjectBlock, ToolResponse } from './envelope.js';
