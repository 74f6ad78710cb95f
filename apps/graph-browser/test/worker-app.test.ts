// Pins the graph-browser worker's fastify assembly through inject(), without opening a port (issue 29 item 4): the security plugin's guards, the routes' query-string and node-id schemas with the exact structured errors the hand parser gave, answers checked against their protocol schemas, and the snapshot hook.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { readPublication } from '@docforge/store';
import { IndexManager } from '@docforge/sync';
import { validateGraphBrowserError, validateGraphBrowserFilter, validateGraphBrowserNode, validateGraphBrowserOverview, validateGraphBrowserStatus, type GraphBrowserWorkerConfig } from '@docforge/protocol';
import { prepareWorker } from '../src/server.js';
import { AnswerSchemaError, answerSerializer } from '../src/routes/answers.js';

const PORT = 43_210;
const HOST = `127.0.0.1:${PORT}`;

/** A two-page project with a published index, and the worker configuration of that publication. */
async function publishedProject(): Promise<GraphBrowserWorkerConfig> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'docforge-gb-inject-')));
  after(() => rmSync(root, { recursive: true, force: true }));
  const files: Record<string, string> = {
    'docforge.toml': 'schema_version = 1\n[project]\nid = "inject"\nname = "Inject"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n',
    'docs/a.md': '# Alpha\n\nFirst page, see [Beta](b.md).\n',
    'docs/b.md': '# Beta\n\nSecond page.\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  const manager = new IndexManager({ root, noAst: false });
  try {
    await manager.sync();
    const publication = readPublication(manager.layout());
    assert.ok(publication !== null);
    const { generation, source_identity, index_file, index_ino, index_size } = publication;
    return {
      worker_id: 'inject', project_root: root, project_id: publication.project_id, index_path: path.join(manager.layout().indexDir, index_file),
      signature: { generation, source_identity, index_file, index_ino, index_size }, no_ast: false,
    };
  } finally {
    await manager.close();
  }
}

const config = await publishedProject();
const worker = await prepareWorker({ config, logger: pino({ level: 'silent' }) }, () => PORT);
after(() => worker.close());
const traded = await worker.app.inject({ url: worker.sessions.issue().url_path, headers: { host: HOST } });
const cookie = String(traded.headers['set-cookie']).split(';')[0]!;

/** A GET through inject() with the worker's Host and the session cookie (override or drop with `headers`). */
async function get(url: string, headers: Record<string, string | undefined> = {}): Promise<{ status: number; body: unknown; headers: Record<string, unknown> }> {
  const merged = Object.fromEntries(Object.entries({ host: HOST, cookie, ...headers }).filter((e): e is [string, string] => e[1] !== undefined));
  const answer = await worker.app.inject({ url, headers: merged });
  return { status: answer.statusCode, body: answer.body === '' ? null : JSON.parse(answer.body), headers: answer.headers };
}

/** Asserts a structured error: status, code, and (when given) the exact message and details. */
async function refused(url: string, status: number, code: string, message?: string, details?: Record<string, unknown>, headers?: Record<string, string | undefined>): Promise<void> {
  const answer = await get(url, headers);
  assert.equal(answer.status, status, `${url}: ${JSON.stringify(answer.body)}`);
  assert.ok(validateGraphBrowserError(answer.body), url);
  assert.equal(answer.body.error.code, code, url);
  if (message !== undefined) assert.equal(answer.body.error.message, message, url);
  if (details !== undefined) assert.deepEqual(answer.body.error.details, details, url);
}

test('the token trade answers 303 with the session cookie, and the guards refuse before any route', async () => {
  assert.equal(traded.statusCode, 303);
  assert.match(cookie, /^docforge_inject_[0-9a-f]{8}=[A-Za-z0-9_-]{43}$/);
  await refused('/api/overview', 401, 'viewer_access_denied', undefined, { check: 'session' }, { cookie: undefined });
  await refused('/nope', 403, 'viewer_access_denied', undefined, { check: 'session' }, { cookie: `${cookie.split('=')[0]!}=forged` });
  await refused('/api/overview', 403, 'viewer_access_denied', undefined, { check: 'host' }, { host: `127.0.0.1:${PORT + 1}` });
  await refused('/api/overview', 403, 'viewer_access_denied', undefined, { check: 'origin' }, { origin: 'http://evil.example' });
  await refused('/api/search?q=%E0%A4%A', 400, 'invalid_arguments', 'The request URL is not valid percent-encoded UTF-8.');
  const post = await worker.app.inject({ method: 'POST', url: '/api/overview', headers: { host: HOST, cookie } });
  assert.equal(post.statusCode, 405);
  assert.equal(post.headers.allow, 'GET, HEAD');
  const overview = await get('/api/overview');
  assert.equal(overview.status, 200);
  assert.ok(validateGraphBrowserOverview(overview.body));
  assert.match(String(overview.headers['content-security-policy']), /^default-src 'self'.*frame-ancestors 'none'$/);
  assert.equal(overview.headers['cache-control'], 'no-store');
});

test('query strings and node ids failing their schemas get the structured errors of the hand parser they replace', async () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['/api/overview?x=1', 'Unknown query parameter "x"; allowed: expand.', { parameter: 'x' }],
    ['/api/status?zzz=1', 'Unknown query parameter "zzz"; this endpoint takes none.', { parameter: 'zzz' }],
    ['/api/search', 'q must hold 1 to 500 characters.', { parameter: 'q' }],
    ['/api/search?q=%20%20', 'q must hold 1 to 500 characters.', { parameter: 'q' }],
    [`/api/search?q=${'x'.repeat(501)}`, 'q must hold 1 to 500 characters.', { parameter: 'q' }],
    ['/api/search?limit=x&q=', 'q must hold 1 to 500 characters.', { parameter: 'q' }],
    ['/api/search?sql=1', 'Unknown query parameter "sql"; allowed: q, limit.', { parameter: 'sql' }],
    ['/api/search?q=a&q=b', 'Query parameter "q" is given more than once; give it once.', { parameter: 'q' }],
    ['/api/search?q=a&limit=1.0', 'limit must be an integer from 1 to 200.', { parameter: 'limit' }],
    ['/api/search?q=a&limit=%2B1', 'limit must be an integer from 1 to 200.', { parameter: 'limit' }],
    ['/api/search?q=a&limit=0000000001', 'limit must be an integer from 1 to 200.', { parameter: 'limit' }],
    ['/api/filter?kind=', 'kind takes 1 to 20 values, each of 1 to 1024 characters.', { parameter: 'kind' }],
    [`/api/filter?${'tag=a&'.repeat(21)}`, 'tag takes 1 to 20 values, each of 1 to 1024 characters.', { parameter: 'tag' }],
    [`/api/filter?kind=${'k'.repeat(1025)}`, 'kind takes 1 to 20 values, each of 1 to 1024 characters.', { parameter: 'kind' }],
    ['/api/filter?kind=a&after=x&after=y', 'Query parameter "after" is given more than once; give it once.', { parameter: 'after' }],
    ['/api/filter?path=/etc', 'Unknown query parameter "path"; allowed: family, authority, status, tag, kind, language, capability, limit, after.', { parameter: 'path' }],
    ['/api/nodes/', 'The node id must be one non-empty path segment (encodeURIComponent).', {}],
    ['/api/nodes/x/neighborhood?depth=1', 'Unknown query parameter "depth"; allowed: limit.', { parameter: 'depth' }],
    ['/api/nodes/x/flow?depth=17', 'depth must be an integer from 1 to 16.', { parameter: 'depth' }],
    ['/api/nodes/x/logic?limit=2001', 'limit must be an integer from 1 to 2000.', { parameter: 'limit' }],
    ['/api/nodes/x/source?count=5000', 'count must be an integer from 1 to 1000.', { parameter: 'count' }],
    ['/api/nodes/x/source?from=1&from=2', 'Query parameter "from" is given more than once; give it once.', { parameter: 'from' }],
  ];
  for (const [url, message, details] of cases) await refused(url.replace(/&$/, ''), 400, 'invalid_arguments', message, details);
  await refused('/api/nodes/x', 404, 'node_not_found');
  await refused('/api/nodes/x/sql', 404, 'invalid_arguments', 'No such viewer endpoint.');
});

test('answers pass their protocol schemas; defaults apply and valid parameters reach the handler', async () => {
  const page = await get('/api/filter?kind=document&limit=1');
  assert.equal(page.status, 200);
  assert.ok(validateGraphBrowserFilter(page.body));
  assert.equal(page.body.items.length, 1);
  assert.equal(page.body.truncated, true);
  const first = page.body.items[0]!.id;
  const next = await get(`/api/filter?kind=document&limit=007&after=${encodeURIComponent(page.body.next_after!)}`);
  assert.ok(validateGraphBrowserFilter(next.body));
  assert.ok(next.body.items.length > 0 && next.body.items.every((n) => n.id > first));
  const node = await get(`/api/nodes/${encodeURIComponent(first)}`);
  assert.ok(validateGraphBrowserNode(node.body));
  assert.throws(() => answerSerializer({ schema: { title: 'GraphBrowserStatus' }, method: 'GET', url: '/api/status', httpStatus: '200' })({ served: null }), AnswerSchemaError);
  assert.throws(() => answerSerializer({ schema: { title: 'Nope' }, method: 'GET', url: '/api/x', httpStatus: '200' }), /names no protocol schema/);
});

test('once the index file is replaced every snapshot-bound route answers 409 and the status still answers; a bad parameter is refused (400) before the snapshot check', async () => {
  copyFileSync(config.index_path, `${config.index_path}.tmp`);
  renameSync(`${config.index_path}.tmp`, config.index_path);
  await refused('/api/overview', 409, 'snapshot_replaced');
  await refused('/api/search?q=alpha', 409, 'snapshot_replaced');
  await refused('/api/search?q=alpha&limit=0', 400, 'invalid_arguments');
  const status = await get('/api/status');
  assert.equal(status.status, 200);
  assert.ok(validateGraphBrowserStatus(status.body));
});
