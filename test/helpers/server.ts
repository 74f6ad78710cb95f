/** The shared end-to-end harness: a real docforge-mcp child over stdio driven by the MCP SDK client, and the error assertion. */
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import type { CapabilityMode, ToolName } from '@docforge/policy';
import { MCP_ENTRY } from './paths.js';
import type * as McpSdk from './mcp-sdk.js';

// The SDK's values from one bundled module (test/scripts/build-sdk-bundle.mjs; ops/run-tests.mjs and
// `npm run build` build it), else from the compiled files (a run of one file after a plain tsc -b).
const bundledSdk = new URL('./mcp-sdk.bundle.mjs', import.meta.url);
const sdk = (await import(existsSync(bundledSdk) ? bundledSdk.href : './mcp-sdk.js')) as typeof McpSdk;
/** The SDK's McpError class of the harness's client (a client error is an instance of this one, not of another copy's). */
export const McpError = sdk.McpError;

// Every in-process server a test builds validates its responses against its output schemas too.
process.env.DOCFORGE_VALIDATE_OUTPUT = '1';

/** Loose JSON object as the tests read results (the server validates the exact shapes). */
export type Json = Record<string, any>;

/** The wire error of a failed tool call (DESIGN.md section 5). */
export interface WireErrorView {
  code: string;
  message: string;
  remediation: string;
  details: Json;
}

/** The response envelope (`structuredContent`) as the tests read it. */
export interface Envelope {
  schema_version: number;
  ok: boolean;
  notice: string;
  project?: { id: string; root: string; revision: number; source_hash: string; adapter_version: string; staleness: string; sync_error?: { code: string; message: string } };
  result?: Json;
  error?: WireErrorView;
  diagnostics?: Json;
}

/** A raw `tools/call` result. */
export interface RawResult {
  structuredContent?: unknown;
  content: unknown;
  isError?: boolean;
}

/**
 * The clients' output-schema validator: the SDK's Ajv validator, compiled on a tool's first call
 * rather than for every tool at `tools/list`, and shared by every client of this test process by the
 * schema's text. The SDK client compiles all of a server's output schemas when it lists the tools
 * (about 0.5 s of CPU per server start, ~40 schemas); a test file calls a few tools of servers whose
 * lists are the same, so each schema a test uses is compiled once per file. Every call result is still
 * validated by the client against the tool's listed output schema, as before.
 */
class SharedLazyValidator implements jsonSchemaValidator {
  private readonly ajv = new sdk.AjvJsonSchemaValidator();
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    return (input: unknown) => {
      let validate = this.compiled.get(key);
      if (validate === undefined) {
        validate = this.ajv.getValidator<unknown>(schema);
        this.compiled.set(key, validate);
      }
      return validate(input) as ReturnType<JsonSchemaValidator<T>>;
    };
  }
}

const outputValidator = new SharedLazyValidator();

/**
 * The request timeout of the harness's calls (initialize, tools/list, tools/call), in ms. The SDK's
 * default is 60 s, which a first call that builds a large project outlasted on a loaded 2-core
 * machine ("MCP error -32001: Request timed out" after 60.2 s: the dense generated project of
 * test/context.test.ts, issue 29 item 7). A hang guard, not a timing assertion.
 */
export const REQUEST_TIMEOUT_MS = 600_000;
const requestOptions = { timeout: REQUEST_TIMEOUT_MS };

/** Process options of the spawned server. */
export interface ServerOptions {
  /** `--capability-mode`. */
  mode?: CapabilityMode;
  /** `--proposal-writer`. */
  proposalWriter?: string;
  /** `--canonical-applier`. */
  canonicalApplier?: string;
  /** `--no-ast`. */
  noAst?: boolean;
  /** `--diagnostics`. */
  diagnostics?: boolean;
  /** Extra environment variables for the child (added to the parent's). */
  env?: Record<string, string>;
}

/** A connected client of one spawned docforge-mcp. */
export interface Server {
  client: Client;
  /**
   * Calls a tool and returns its envelope, after checking that the text block is the same JSON
   * and that `isError` is set exactly when `ok` is false. Unknown tools reject (JSON-RPC error).
   */
  call(tool: ToolName, args?: Record<string, unknown>): Promise<Envelope>;
  /** Calls a tool and returns the raw result (for response sizes and text blocks). */
  raw(tool: ToolName, args?: Record<string, unknown>): Promise<RawResult>;
  /** Closes the client and the child; idempotent (also run by the registered `after` hook). */
  close(): Promise<void>;
  /** Everything the child wrote to stderr so far. */
  stderr(): string;
}

/** The command-line arguments for `options` (after `--project-root ROOT`). */
export function serverArgs(options: ServerOptions): string[] {
  const args: string[] = [];
  if (options.mode) args.push('--capability-mode', options.mode);
  if (options.proposalWriter) args.push('--proposal-writer', options.proposalWriter);
  if (options.canonicalApplier) args.push('--canonical-applier', options.canonicalApplier);
  if (options.noAst) args.push('--no-ast');
  if (options.diagnostics) args.push('--diagnostics');
  return args;
}

/**
 * Spawns `docforge-mcp --project-root ROOT` with `options`, connects the MCP SDK client over
 * stdio and lists the tools (so output schemas are validated by the client). Registers the close
 * with node:test's `after` in the calling context: call it in a test body (closed after that
 * test), at a test file's top level, or in an async `describe` body (closed after the suite);
 * not in a `before` hook, whose `after` runs right after the hook.
 */
export async function useServer(root: string, options: ServerOptions = {}): Promise<Server> {
  // Every server a test starts validates each response against the tool's own output schema and
  // fails the call loudly on a mismatch (DOCFORGE_VALIDATE_OUTPUT).
  const base = options.env ? (process.env as Record<string, string>) : sdk.getDefaultEnvironment();
  const env = { ...base, DOCFORGE_VALIDATE_OUTPUT: '1', ...(options.env ?? {}) };
  const transport = new sdk.StdioClientTransport({ command: process.execPath, args: [MCP_ENTRY, '--project-root', root, ...serverArgs(options)], stderr: 'pipe', env });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new sdk.Client({ name: 'docforge-e2e', version: '1.0.0' }, { jsonSchemaValidator: outputValidator });
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await client.close();
  };
  after(close);
  await client.connect(transport, requestOptions);
  await client.listTools(undefined, requestOptions);
  const raw = async (tool: ToolName, args: Record<string, unknown> = {}): Promise<RawResult> => (await client.callTool({ name: tool, arguments: args }, undefined, requestOptions)) as RawResult;
  return {
    client,
    raw,
    async call(tool, args = {}) {
      const response = await raw(tool, args);
      const envelope = response.structuredContent as Envelope;
      const text = (response.content as { type: string; text: string }[])[0]!.text;
      assert.equal(text, JSON.stringify(envelope), `${tool}: the text block is the structuredContent JSON`);
      assert.equal(Boolean(response.isError), !envelope.ok, `${tool}: isError is set exactly when ok is false`);
      return envelope;
    },
    close,
    stderr: () => stderr,
  };
}

/**
 * Asserts that `response` (an envelope from `Server.call`, which already checked that `isError`
 * matches `ok`, or a promise of one) failed with `error.code === code`, and returns the error.
 */
export async function expectError(response: Envelope | Promise<Envelope>, code: string): Promise<WireErrorView> {
  const envelope = await response;
  assert.equal(envelope.ok, false, `expected ${code}, got a success`);
  assert.ok(envelope.error, 'a failure carries an error');
  assert.equal(envelope.error.code, code, `${envelope.error.code}: ${envelope.error.message}`);
  return envelope.error;
}
