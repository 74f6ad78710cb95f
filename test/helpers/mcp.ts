/** Shared helpers for the end-to-end tests: temp projects and a real docforge-mcp child process. */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Repository root (test/dist/helpers → ../../..). */
export const REPO_ROOT = path.resolve(here, '../../..');
export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
export const FASTIFY_DIR = path.join(REPO_ROOT, 'node_modules', 'fastify');
export const MCP_ENTRY = path.join(REPO_ROOT, 'apps/mcp-server/dist/src/main.js');
export const CLI_ENTRY = path.join(REPO_ROOT, 'apps/cli/dist/src/main.js');

// Every server a test starts (in process or as a child) validates each response against the
// tool's own output schema and fails the call loudly on a mismatch.
process.env.DOCFORGE_VALIDATE_OUTPUT = '1';

/** The response envelope as the tests read it. */
export interface Envelope {
  schema_version: number;
  ok: boolean;
  notice: string;
  project?: { id: string; root: string; revision: number; source_hash: string; adapter_version: string; staleness: string; sync_error?: { code: string; message: string } };
  result?: Record<string, any>;
  error?: { code: string; message: string; remediation: string; details: Record<string, any> };
  diagnostics?: Record<string, any>;
}

/** Copies a directory to a fresh temp dir (without any .docforge state) and returns the copy's path. */
export function tempCopy(source: string, prefix = 'docforge-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  cpSync(source, dir, { recursive: true, filter: (src) => !src.split(path.sep).includes('.docforge') && !src.split(path.sep).includes('node_modules') });
  return dir;
}

/** Removes a temp dir. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A connected MCP SDK client talking to a spawned docforge-mcp. */
export interface Session {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<Envelope>;
  raw(name: string, args?: Record<string, unknown>): Promise<{ structuredContent?: unknown; content: unknown; isError?: boolean }>;
  close(): Promise<void>;
  stderr(): string;
}

/** Spawns `docforge-mcp --project-root ROOT ...extraArgs` and connects the SDK client over stdio. */
export async function startServer(root: string, extraArgs: string[] = []): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_ENTRY, '--project-root', root, ...extraArgs], stderr: 'pipe', env: { ...getDefaultEnvironment(), DOCFORGE_VALIDATE_OUTPUT: '1' } });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'docforge-e2e', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  const raw = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as { structuredContent?: unknown; content: unknown; isError?: boolean };
  return {
    client,
    raw,
    async call(name, args = {}) {
      const response = await raw(name, args);
      const envelope = response.structuredContent as Envelope;
      const text = (response.content as { type: string; text: string }[])[0]!.text;
      if (JSON.stringify(envelope) !== text) throw new Error(`${name}: text block differs from structuredContent`);
      if (Boolean(response.isError) === envelope.ok) throw new Error(`${name}: isError does not match ok`);
      return envelope;
    },
    async close() {
      await client.close();
    },
    stderr: () => stderr,
  };
}
