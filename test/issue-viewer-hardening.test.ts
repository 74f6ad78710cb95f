// Pins the viewer hardening after the attacker trial: a worker refuses a config that is not a project's published index; the source endpoint reads only indexed bytes inside the content and code roots (no symlink to .env or the state dir, no changed file); every framework error (bad percent-encoding, overlong segment, oversized headers, malformed HTTP, 404, 405) has the worker's structured error shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validateGraphBrowserError, validateGraphBrowserSource } from '@docforge/protocol';
import { exampleProjectCopy } from './helpers/projects.js';
import { openBrowserSession, workerConfig, WorkerProcess } from './helpers/graph-browser.js';

const SECRET = 'AWS_SECRET=hunter2-viewer-hardening';
const root = exampleProjectCopy();
writeFileSync(path.join(root, '.env'), `+++\nid = "LEAK-ENV"\nkind = "document"\ntitle = "Leak"\n+++\n${SECRET}\n`);
// A link that already exists when the project is indexed: its target is inside the root but outside the declared roots, so the walk must skip it.
symlinkSync('../../.env', path.join(root, 'docs/components/leak.md'));
const config = await workerConfig(root, { workerId: 'hardening' });
const session = await openBrowserSession(config);
const LEDGER = path.join(root, 'docs/components/ledger.md');
const original = readFileSync(LEDGER);

/** Asserts a structured error body with `code` (and no secret) and returns it. */
function structured(status: number, body: string, expectStatus: number, code: string, what: string): void {
  assert.equal(status, expectStatus, `${what}: ${body}`);
  const parsed = JSON.parse(body) as unknown;
  assert.ok(validateGraphBrowserError(parsed), `${what}: the body has the worker's error shape: ${body}`);
  assert.equal((parsed as { error: { code: string } }).error.code, code, what);
  assert.ok(!body.includes('hunter2') && !body.includes('source_identity'), `${what}: nothing of the target leaks`);
}

async function source(id: string): Promise<{ status: number; text: string }> {
  const response = await session.get(`/api/nodes/${encodeURIComponent(id)}/source`);
  return { status: response.status, text: await response.text() };
}

test('a worker refuses a config that is not the published index of a DocForge project, before it listens', async () => {
  const attacker = mkdtempSync(path.join(tmpdir(), 'docforge-atk-'));
  try {
    const crafted = path.join(attacker, config.signature.index_file);
    copyFileSync(config.index_path, crafted);
    for (const [what, forged, code] of [
      ['a root that is no project', { ...config, project_root: attacker, index_path: crafted }, 'project_root_invalid'],
      ['an index outside the project', { ...config, index_path: crafted }, 'invalid_arguments'],
      ['a relative root', { ...config, project_root: path.relative(process.cwd(), root) }, 'invalid_arguments'],
    ] as const) {
      const worker = new WorkerProcess(forged);
      const fatal = await worker.next('fatal');
      assert.equal(fatal.code, code, `${what}: ${fatal.message}`);
      assert.equal(await worker.exited, 1);
      assert.ok(!worker.messages.some((m) => m.type === 'ready'), `${what}: never listened`);
    }
  } finally {
    rmSync(attacker, { recursive: true, force: true });
  }
});

test('the source endpoint never follows a symbolic link out of the content and code roots, nor into the state dir', async () => {
  // Present at indexing as a link to .env (outside the declared roots): the walk skips it, so no node or search hit carries the secret.
  const leak = await source('LEAK-ENV');
  structured(leak.status, leak.text, 404, 'node_not_found', 'a link in docs/ pointing at .env is not indexed');
  const hits = await session.get('/api/search?q=hunter2');
  assert.equal(hits.status, 200);
  const found = (await hits.json()) as { query: string; [k: string]: unknown };
  assert.ok(!JSON.stringify({ ...found, query: '' }).includes('hunter2'), 'search never returns the linked secret');
  for (const [target, what] of [['../../.env', '.env in the project root'], ['../../.docforge/index/current.json', "the state dir's current.json"], ['../../docforge.toml', 'the descriptor']] as const) {
    rmSync(LEDGER);
    symlinkSync(target, LEDGER);
    const answer = await source('CMP-LEDGER');
    structured(answer.status, answer.text, 403, 'path_outside_root', `ledger.md swapped for a link to ${what}`);
  }
});

test('the source endpoint refuses a file whose bytes are no longer the indexed ones (source_changed), and serves it again once restored', async () => {
  rmSync(LEDGER, { force: true });
  symlinkSync('ledger-archive.md', LEDGER);
  writeFileSync(path.join(root, 'docs/components/ledger-archive.md'), 'not the indexed ledger\n');
  const swapped = await source('CMP-LEDGER');
  structured(swapped.status, swapped.text, 409, 'source_changed', 'a link to another file inside the content root');
  rmSync(LEDGER);
  writeFileSync(LEDGER, Buffer.concat([original, Buffer.from('\nedited after indexing\n')]));
  const edited = await source('CMP-LEDGER');
  structured(edited.status, edited.text, 409, 'source_changed', 'an edited file');
  writeFileSync(LEDGER, original);
  const restored = await session.get(`/api/nodes/${encodeURIComponent('CMP-LEDGER')}/source`);
  assert.equal(restored.status, 200);
  const body = (await restored.json()) as unknown;
  assert.ok(validateGraphBrowserSource(body));
  assert.equal((body as { changed: boolean }).changed, false);
});

/** One raw HTTP exchange (the request text is sent as is); resolves with the status and body. */
function rawHttp(text: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(session.port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body: rest.join('\r\n\r\n') });
    });
    socket.write(text);
  });
}

test('every framework error has the structured shape: bad percent-encoding, overlong segment, 404, 405, oversized headers, malformed HTTP', async () => {
  const host = `127.0.0.1:${session.port}`;
  const get = (urlPath: string, cookie = session.cookie): string => `GET ${urlPath} HTTP/1.1\r\nHost: ${host}\r\n${cookie ? `Cookie: ${cookie}\r\n` : ''}Connection: close\r\n\r\n`;
  for (const urlPath of ['/api/nodes/%zz', '/api/nodes/%ff%fe', '/%ff', '/api/nodes/%E0%A4%A/source', '/%']) {
    for (const cookie of [session.cookie, '']) {
      const answer = await rawHttp(get(urlPath, cookie));
      structured(answer.status, answer.body, 400, 'invalid_arguments', `${urlPath} (${cookie ? 'with' : 'without'} cookie)`);
    }
  }
  const long = await rawHttp(get(`/api/nodes/${'a'.repeat(5000)}`));
  // find-my-way matches no route for a parameter above maxParamLength: the structured 404.
  structured(long.status, long.body, 404, 'invalid_arguments', 'a path segment above maxParamLength');
  const missing = await rawHttp(get('/no/such/file.js'));
  structured(missing.status, missing.body, 404, 'invalid_arguments', 'an unknown file');
  const post = await rawHttp(`POST /api/overview HTTP/1.1\r\nHost: ${host}\r\nCookie: ${session.cookie}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
  structured(post.status, post.body, 405, 'viewer_access_denied', 'POST');
  const huge = await rawHttp(`GET /api/overview HTTP/1.1\r\nHost: ${host}\r\nX-Pad: ${'x'.repeat(20_000)}\r\nConnection: close\r\n\r\n`);
  structured(huge.status, huge.body, 431, 'invalid_arguments', 'headers above the parser limit');
  const garbage = await rawHttp('NOT HTTP AT ALL\r\n\r\n');
  structured(garbage.status, garbage.body, 400, 'invalid_arguments', 'a malformed request line');
  assert.equal(await session.worker.stop(), 0);
});
