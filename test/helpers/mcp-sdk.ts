/**
 * The MCP SDK values the end-to-end harness (server.ts) uses, in one module: test/scripts/build-sdk-bundle.mjs
 * bundles its compiled file with everything it imports (the SDK, zod, ajv, cross-spawn) into
 * dist/helpers/mcp-sdk.bundle.mjs, which a test-file process loads as one ES module instead of some
 * hundreds (issue 29 item 7: 0.8 -> 0.37 s of CPU for a process that imports the harness).
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
export { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
export { McpError } from '@modelcontextprotocol/sdk/types.js';
