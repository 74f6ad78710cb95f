// Pins the tool-call lifecycle: its named stages in order, a refusal before sync carrying the pre-sync project block, and output validation failing loudly on a response that breaks the tool's output schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { errors } from '@docforge/core';
import { IndexManager } from '@docforge/sync';
import { computeCapabilities, computeEffectivePolicy } from '@docforge/policy';
import { OutputSchemaMismatch, TOOL_CALL_STAGES, runToolCall } from '../src/lifecycle.js';
import type { ToolContext, ToolDefinition } from '../src/define-tool.js';
import { implementedTools } from '../src/registry.js';

function harness(): { ctx: ToolContext; root: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-lifecycle-'));
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "life"\n[sources]\ncontent_roots = ["."]\n');
  const manager = new IndexManager({ root, noAst: false });
  const policy = computeEffectivePolicy({ capabilityMode: 'read', factory: 'generic', proposalWriter: null, canonicalApplier: null, noAst: false, diagnostics: false, adapterStrategy: 'ast', projectAdapterModule: null });
  const capabilities = computeCapabilities(policy, new Set(implementedTools().keys()));
  return { root, ctx: { manager, policy, capabilities, boundAt: new Date(0).toISOString(), toolList: [] } };
}

/** A status tool whose stages are spies; `validateOutput` answers as told. */
function fakeTool(outputValid: boolean, seen: string[]): ToolDefinition {
  const real = implementedTools().get('docforge_get_generation_diff')!;
  return {
    ...real,
    validateOutput: Object.assign(() => outputValid, { errors: outputValid ? null : [{ instancePath: '/result', schemaPath: '#/x', keyword: 'required', params: {}, message: 'must have required property x' }] }) as unknown as ToolDefinition['validateOutput'],
    checkArguments: (args: unknown) => {
      seen.push('validate');
      return real.checkArguments(args);
    },
    precheck: () => void seen.push('precheck'),
    runSync: () => Promise.reject(new Error('not a sync tool')),
    runStatus: async () => {
      seen.push('handler');
      return { result: { page_schema_version: 1, receipt_state: 'missing', reason: 'r' }, project: null };
    },
  };
}

test('the stages are named once, in order', () => {
  assert.deepEqual([...TOOL_CALL_STAGES], ['adapter_check', 'validate', 'precheck', 'sync', 'handler', 'fit_to_size', 'error']);
});

test('validate, precheck and handler run in order; a status response without a publication gets the pre-sync project block', async () => {
  const { ctx, root } = harness();
  const seen: string[] = [];
  const response = await runToolCall(fakeTool(true, seen), {}, { ctx, logger: pino({ level: 'silent' }), diagnosticsEnabled: false, validateOutput: true });
  assert.deepEqual(seen, ['validate', 'precheck', 'handler']);
  assert.deepEqual((response.structuredContent as { project: unknown }).project, { id: 'life', root, revision: 0, source_hash: null, adapter_version: null, staleness: 'unknown' });
  await ctx.manager.close();
  rmSync(root, { recursive: true, force: true });
});

test('a precheck refusal ends in the error stage before sync, with the pre-sync project block', async () => {
  const { ctx, root } = harness();
  const tool: ToolDefinition = { ...fakeTool(true, []), precheck: () => { throw errors.taskContextUnavailable('docforge_get_task_context'); } };
  const response = await runToolCall(tool, {}, { ctx, logger: pino({ level: 'silent' }), diagnosticsEnabled: false, validateOutput: false });
  const envelope = response.structuredContent as { ok: boolean; error: { code: string }; project: { revision: number } };
  assert.equal(response.isError, true);
  assert.equal(envelope.error.code, 'task_context_unavailable');
  assert.equal(envelope.project.revision, 0);
  await ctx.manager.close();
  rmSync(root, { recursive: true, force: true });
});

test('with output validation on, a response that breaks the output schema throws OutputSchemaMismatch; off, it passes through', async () => {
  const { ctx, root } = harness();
  const env = { ctx, logger: pino({ level: 'silent' }), diagnosticsEnabled: false, validateOutput: true };
  await assert.rejects(runToolCall(fakeTool(false, []), {}, env), (error: unknown) => error instanceof OutputSchemaMismatch && /must have required property x/.test(error.message));
  const unchecked = await runToolCall(fakeTool(false, []), {}, { ...env, validateOutput: false });
  assert.equal((unchecked.structuredContent as { ok: boolean }).ok, true);
  await ctx.manager.close();
  rmSync(root, { recursive: true, force: true });
});
