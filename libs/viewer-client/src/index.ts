/**
 * @docforge/viewer-client: finds, spawns (detached) and talks to the per-user viewer manager; used by the MCP server and the CLI (issue 12).
 */
export {};
