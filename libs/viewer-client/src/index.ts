/**
 * @docforge/viewer-client: finds, spawns (detached) and talks to the per-user viewer manager; used
 * by the MCP server and the CLI (issue 12; DESIGN.md section 6). A lib never resolves an app: the
 * caller passes the manager's launcher path (`bin` of @docforge/viewer-manager).
 */
export type { ViewerConnectOptions } from './client.js';
export { ViewerManagerClient, connectViewerManager } from './client.js';
export type { ViewerRuntimePaths, WorkerRecord, PublicationSignature } from '@docforge/ipc';
export { viewerRuntimePaths } from '@docforge/ipc';
export type { Freshness } from './freshness.js';
export { combineFreshness, sourceFreshness } from './freshness.js';
