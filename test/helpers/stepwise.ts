// A docforge-mcp session driven frame group by frame group over raw stdio, for tests that compare
// whole answers across launcher paths (mcp-bundle, bundle-cache).
import { spawn } from 'node:child_process';

/** initialize, initialized, tools/list and one search: JSON-RPC frames, each group sent after the answer before it. */
export function searchSteps(clientName: string): object[][] {
  return [
    [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: clientName, version: '0' } } }],
    [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }],
    [{ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'docforge_search', arguments: { query: 'refund ledger', limit: 10 } } }],
  ];
}

/** What a stepwise session printed: the exit status, its whole stdout (one frame per line) and stderr. */
export interface StepwiseRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node entry args…` with `env` added to this process's environment (DOCFORGE_ACCELERATE
 * cleared unless `env` sets it) and sends `steps` in turn: each group once the answer to the group
 * before has come (every group but a notification's ends with one answer, so the count of complete
 * stdout lines says which group is done); stdin is closed after the last answer.
 * @returns once the process exited; never rejects
 */
export async function stepwiseSession(entry: string, args: readonly string[], env: Record<string, string>, steps: readonly object[][]): Promise<StepwiseRun> {
  const child = spawn(process.execPath, [entry, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, DOCFORGE_ACCELERATE: '', ...env } });
  let stdout = '';
  let stderr = '';
  let step = 0;
  const send = (): void => {
    if (step < steps.length) child.stdin.write(steps[step]!.map((frame) => `${JSON.stringify(frame)}\n`).join(''));
    else child.stdin.end();
    step += 1;
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.split('\n').length - 1 === step) send();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  send();
  const status = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { status, stdout, stderr };
}
