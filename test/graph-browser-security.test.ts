// Pins issue 12 item 3 (security of the graph-browser worker, against a real forked worker): one-time tokens and the per-worker cookie, Host and Origin checks, GET/HEAD only, no reads outside the project through encoded `..`, strict headers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { validateGraphBrowserError } from '@docforge/protocol';
import { sharedExampleProject } from './helpers/projects.js';
import { openBrowserSession, workerConfig } from './helpers/graph-browser.js';

// The worker only reads the project: the run's shared fixture, current (a private copy is always built
// from scratch, about 1 s of CPU: issue 29 item 7), or a private copy when this file runs alone.
const root = sharedExampleProject();
// A secret next to the project (inside its temp dir's parent, the run's fixture folder) and one inside its state dir: no URL may read either.
const SECRET = 'SECRET-c1d2e3-not-for-the-browser';
writeFileSync(path.join(path.dirname(root), `${path.basename(root)}-secret.txt`), SECRET);
const session = await openBrowserSession(await workerConfig(root, { workerId: 'sec' }));
const FOCUS = encodeURIComponent('REQ-FRD-001');

async function errorOf(response: Response): Promise<{ code: string }> {
  const body = (await response.json()) as unknown;
  assert.ok(validateGraphBrowserError(body), `error body fits its schema: ${JSON.stringify(body)}`);
  return (body as { error: { code: string } }).error;
}

/** A raw request with exactly these headers (fetch cannot forge Host). */
function raw(method: string, urlPath: string, headers: Record<string, string>): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: session.port, method, path: urlPath, headers, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('without a cookie every path answers 401 viewer_access_denied; a wrong cookie 403', async () => {
  for (const urlPath of ['/', '/minimal.js', '/api/overview', `/api/nodes/${FOCUS}`, '/nope']) {
    const none = await fetch(session.base + urlPath, { redirect: 'manual' });
    assert.equal(none.status, 401, urlPath);
    assert.equal((await errorOf(none)).code, 'viewer_access_denied');
    const wrong = await fetch(session.base + urlPath, { redirect: 'manual', headers: { cookie: `${session.cookieName}=forged` } });
    assert.equal(wrong.status, 403, urlPath);
    assert.equal((await errorOf(wrong)).code, 'viewer_access_denied');
  }
  // The right value under another worker's cookie name is no session either.
  const value = session.cookie.split('=')[1]!;
  assert.equal((await fetch(`${session.base}/api/overview`, { headers: { cookie: `docforge_other_00000000=${value}` } })).status, 401);
});

test('a token is traded once for an HttpOnly SameSite=Strict cookie and a token-free 303; wrong and reused tokens get 403', async () => {
  const token = await session.worker.token();
  assert.match(token.token, /^[A-Za-z0-9_-]{43}$/);
  const traded = await fetch(`${session.base}${token.url_path}&focus=${FOCUS}&view=flow`, { redirect: 'manual' });
  assert.equal(traded.status, 303);
  assert.equal(traded.headers.get('location'), `/?focus=${FOCUS}&view=flow`);
  const cookie = traded.headers.get('set-cookie') ?? '';
  assert.match(cookie, new RegExp(`^${session.cookieName}=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict$`));
  const fresh = cookie.split(';')[0]!;
  assert.equal((await fetch(`${session.base}/api/overview`, { headers: { cookie: fresh } })).status, 200);
  const reused = await fetch(session.base + token.url_path, { redirect: 'manual' });
  assert.equal(reused.status, 403);
  assert.equal(reused.headers.get('set-cookie'), null);
  assert.match((await reused.json() as { error: { message: string } }).error.message, /already used/);
  const wrong = await fetch(`${session.base}/?token=${'A'.repeat(43)}`, { redirect: 'manual' });
  assert.equal(wrong.status, 403);
  assert.equal(wrong.headers.get('set-cookie'), null);
  // A token elsewhere than the root is not traded.
  const elsewhere = await session.worker.token();
  assert.equal((await fetch(`${session.base}/api/overview?token=${elsewhere.token}`, { redirect: 'manual' })).status, 403);
  assert.equal((await fetch(session.base + elsewhere.url_path, { method: 'HEAD', redirect: 'manual' })).status, 403, 'HEAD does not trade');
  assert.equal((await fetch(session.base + elsewhere.url_path, { redirect: 'manual' })).status, 303, 'a refused attempt elsewhere does not consume the token');
});

test('a foreign Host header is refused (DNS rebinding), loopback names with the right port pass', async () => {
  for (const host of ['evil.example', `evil.example:${session.port}`, '127.0.0.1', `127.0.0.1:${session.port + 1}`, `[::1]:${session.port}`, `0.0.0.0:${session.port}`]) {
    const answer = await raw('GET', '/api/overview', { host, cookie: session.cookie });
    assert.equal(answer.status, 403, host);
    assert.match(answer.body, /"check":"host"/, host);
  }
  // No Host at all (HTTP/1.1 requires one): the same refusal in the worker's JSON shape.
  const missing = await raw('GET', '/api/overview', { cookie: session.cookie });
  assert.equal(missing.status, 403);
  assert.match(missing.body, /"code":"viewer_access_denied".*"check":"host"/);
  assert.ok(validateGraphBrowserError(JSON.parse(missing.body)));
  // An absolute-form target names another host: refused before anything is served.
  const absolute = await raw('GET', 'http://evil.example/api/overview', { host: `127.0.0.1:${session.port}`, cookie: session.cookie });
  assert.equal(absolute.status, 400);
  assert.match(absolute.body, /"code":"invalid_arguments"/);
  assert.ok(!absolute.body.includes('project_id'));
  for (const host of [`127.0.0.1:${session.port}`, `localhost:${session.port}`]) {
    assert.equal((await raw('GET', '/api/overview', { host, cookie: session.cookie })).status, 200, host);
  }
});

test('a foreign Origin is refused; the own origin and an absent Origin on GET pass', async () => {
  for (const origin of ['http://evil.example', `http://127.0.0.1:${session.port + 1}`, `https://127.0.0.1:${session.port}`, 'null']) {
    const answer = await session.get('/api/overview', { origin });
    assert.equal(answer.status, 403, origin);
    assert.equal((await errorOf(answer)).code, 'viewer_access_denied');
  }
  assert.equal((await session.get('/api/overview', { origin: `http://127.0.0.1:${session.port}` })).status, 200);
  assert.equal((await session.get('/api/overview')).status, 200);
});

test('POST, PUT, DELETE, PATCH and OPTIONS are refused with 405 and Allow: GET, HEAD; HEAD works', async () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    for (const urlPath of ['/', '/api/overview', `/api/nodes/${FOCUS}`, '/unknown']) {
      const answer = await fetch(session.base + urlPath, { method, headers: { cookie: session.cookie, origin: session.base }, body: method === 'POST' || method === 'PUT' || method === 'PATCH' ? '{}' : undefined });
      assert.equal(answer.status, 405, `${method} ${urlPath}`);
      assert.equal(answer.headers.get('allow'), 'GET, HEAD');
    }
  }
  const head = await fetch(`${session.base}/api/overview`, { method: 'HEAD', headers: { cookie: session.cookie } });
  assert.equal(head.status, 200);
});

test('percent-encoded `..` in any URL reads nothing outside the project', async () => {
  const name = `${path.basename(root)}-secret.txt`;
  const paths = [
    `/../${name}`, `/%2e%2e/${name}`, `/%2E%2E%2F${name}`, `/..%2f${name}`, `/%2e%2e%5c${name}`, `/minimal/%2e%2e/%2e%2e/%2e%2e/${name}`,
    '/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd', '/..%252f..%252fetc/passwd', '/%c0%ae%c0%ae/etc/passwd',
    `/api/nodes/${encodeURIComponent(`../${name}`)}/source`, `/api/nodes/${encodeURIComponent('../../../../../../etc/passwd')}/source`,
    `/api/nodes/%2e%2e%2f%2e%2e%2f${name}/source`, `/api/nodes/${FOCUS}/source?path=../${name}`, `/api/nodes/${FOCUS}/%2e%2e/%2e%2e/%2e%2e/${name}`,
    '/.docforge/index/current.json', '/%2edocforge/index/current.json', '/../.docforge/index/current.json',
  ];
  for (const urlPath of paths) {
    const answer = await raw('GET', urlPath, { host: `127.0.0.1:${session.port}`, cookie: session.cookie });
    assert.ok(answer.status >= 400 && answer.status < 500, `${urlPath} answered ${answer.status}`);
    assert.ok(!answer.body.includes(SECRET) && !answer.body.includes('root:x:0:0') && !answer.body.includes('source_identity'), `${urlPath} leaked content`);
  }
  // A static path the file server refuses (a dotfile, `..`) is an access refusal with check `path`.
  const dotfile = await raw('GET', '/.docforge/index/current.json', { host: `127.0.0.1:${session.port}`, cookie: session.cookie });
  assert.equal(dotfile.status, 403);
  assert.match(dotfile.body, /"code":"viewer_access_denied".*"check":"path"/);
});

test('query parameters: undecodable percent-escapes and a single-valued parameter given twice are refused with invalid_arguments', async () => {
  for (const urlPath of ['/api/search?q=%ED%A0%80', '/api/search?q=%E0%A4%A', '/api/search?q=ledger&q=refund', `/api/nodes/${FOCUS}/neighborhood?depth=1&depth=2`]) {
    const answer = await session.get(urlPath);
    assert.equal(answer.status, 400, urlPath);
    const error = await errorOf(answer);
    assert.equal(error.code, 'invalid_arguments', urlPath);
  }
  // Well-formed escapes still work, including UTF-8 and `+` for a space.
  assert.equal((await session.get('/api/search?q=ledger+store')).status, 200);
  assert.equal((await session.get(`/api/search?q=${encodeURIComponent('café ledger')}`)).status, 200);
});

test('every answer carries a strict CSP without inline script, nosniff, no-referrer and no framing; no directory listing', async () => {
  for (const urlPath of ['/', '/minimal.js', '/api/overview', '/api/nodes/nope']) {
    const answer = await session.get(urlPath);
    const csp = answer.headers.get('content-security-policy') ?? '';
    assert.match(csp, /^default-src 'self'/, urlPath);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/, urlPath);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(answer.headers.get('referrer-policy'), 'no-referrer');
  }
  const page = await (await session.get('/')).text();
  assert.doesNotMatch(page, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script in the page');
  for (const dir of ['/minimal/', '/api/', '/api/nodes/']) {
    const listing = await session.get(dir);
    assert.ok(listing.status === 404 || listing.status === 400, `${dir} answered ${listing.status}`);
  }
});

test('the worker listens on 127.0.0.1 only and reports activity to its manager', async () => {
  const activity = await session.worker.next('activity');
  assert.ok(activity.at_ms > 0);
  await assert.rejects(fetch(`http://[::1]:${session.port}/`), 'no IPv6 loopback listener');
  assert.equal(await session.worker.stop(), 0);
  // Neither tokens nor session values reach the log file.
  assert.match(session.worker.log, /listening/);
  for (const m of session.worker.messages) if (m.type === 'token') assert.ok(!session.worker.log.includes(m.token), 'a token was logged');
  assert.ok(!session.worker.log.includes(session.cookie.split('=')[1]!), 'a session value was logged');
});
