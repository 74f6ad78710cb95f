// Pins issue 30 (break-it, left by stop 47): a tool argument object with the key `__proto__`, sent as raw JSON
// (`{"query":"x","__proto__":{"a":1}}`), is refused like any other unknown key: every tool answers
// invalid_arguments naming `__proto__` (the input schemas say additionalProperties: false). The SDK's
// `tools/call` schema rebuilt the arguments and dropped that key without a word. The frames are written to
// the real server's stdin by hand: the SDK client would drop the key before sending it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { MCP_ENTRY } from './helpers/paths.js';
import { sharedExampleProject } from './helpers/projects.js';

interface Frame {
  id?: number;
  result?: { structuredContent?: { ok: boolean; error?: { code: string; message: string; details?: unknown } }; tools?: { name: string }[] };
  error?: unknown;
}

/** Writes `lines` to a fresh docforge-mcp (after initialize) and returns its responses by id once `count` have come. */
async function exchange(lines: (id: number) => string[], count: (toolCount: number) => number): Promise<Map<number, Frame>> {
  const child = spawn(process.execPath, [MCP_ENTRY, '--project-root', sharedExampleProject(), '--proposal-writer', 'agent'], { stdio: 'pipe' });
  const byId = new Map<number, Frame>();
  let buffer = '';
  let wake = (): void => undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const frame = JSON.parse(buffer.slice(0, nl)) as Frame;
      if (typeof frame.id === 'number') byId.set(frame.id, frame);
      buffer = buffer.slice(nl + 1);
    }
    wake();
  });
  const until = async (n: number): Promise<void> => {
    while (byId.size < n) await new Promise<void>((resolve) => (wake = resolve));
  };
  try {
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    await until(2);
    const tools = byId.get(2)!.result!.tools!.map((t) => t.name);
    let id = 10;
    for (const name of tools) for (const line of lines(id)) child.stdin.write(line.replace('TOOL', name).replace('ID', String(id++)));
    await until(2 + count(tools.length));
    return byId;
  } finally {
    child.kill();
  }
}

test('every tool answers invalid_arguments naming a raw `__proto__` argument key, as it does any other unknown key', async () => {
  // Per tool: the brief's frame, `__proto__` alone, and an ordinary unknown key to compare with.
  const frames = [
    '{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"TOOL","arguments":{"query":"x","__proto__":{"a":1}}}}\n',
    '{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"TOOL","arguments":{"__proto__":{"a":1}}}}\n',
    '{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"TOOL","arguments":{"zz_unknown":{"a":1}}}}\n',
  ];
  const byId = await exchange(() => frames, (n) => n * frames.length);
  const calls = [...byId.entries()].filter(([id]) => id >= 10).sort((a, b) => a[0] - b[0]);
  assert.ok(calls.length >= 3 * 10, `${calls.length} answers`);
  for (let i = 0; i < calls.length; i += 3) {
    const [withQuery, alone, ordinary] = calls.slice(i, i + 3).map(([, frame]) => frame.result?.structuredContent);
    const label = `frames ${calls[i]![0]}-${calls[i]![0] + 2}`;
    assert.equal(ordinary?.error?.code, 'invalid_arguments', `${label}: an ordinary unknown key is refused`);
    for (const envelope of [withQuery, alone]) {
      assert.equal(envelope?.ok, false, `${label}: ${JSON.stringify(envelope)}`);
      assert.equal(envelope.error?.code, 'invalid_arguments', `${label}: ${JSON.stringify(envelope.error)}`);
      assert.match(JSON.stringify(envelope.error), /__proto__/, `${label}: the error names the key`);
    }
    // The refusal has the shape of the ordinary one: the same message with the key's name swapped.
    assert.equal(alone!.error!.message.replaceAll('__proto__', 'zz_unknown'), ordinary!.error!.message, label);
  }
});
