// Pins two ranking rules of issue 31 item 2 on code nobody here wrote (Python's tarfile, as CPython
// 3.11 ships it): a short pasted message (two or three words) that a string literal says as its whole
// leading clause finds the function that raises it, above the exception class named after it; and a
// question asked the way a developer asks it finds the function whose doc comment and body hold most
// of its words (query coverage, libs/retrieval/src/ranking-coverage.ts) above classes that share one
// frequent word with it; and a strong text match counts fully only on a node that holds most of the
// question, so a tiny exception class that says two of its words ranks below the method that does
// the check (PyJWT 2.6.0 as Debian's python3-jwt ships it; questions other than ops/eval's pyjwt set).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import type { Json } from './helpers/server.js';

const TARFILE = '/usr/lib/python3.11/tarfile.py';
const PYJWT_DIR = '/usr/lib/python3/dist-packages/jwt';

function search(root: string, query: string, limit = 5): string[] {
  const out = spawnSync(process.execPath, [CLI_ENTRY, 'search', '-C', root, '--json', '--limit', String(limit), query], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return ((JSON.parse(out.stdout) as Json).items as Json[]).map((item) => String(item.id));
}

/** The 1-based line of tarfile.py holding `text` (the first one). */
function lineOf(text: string): number {
  const index = readFileSync(TARFILE, 'utf8').split('\n').findIndex((line) => line.includes(text));
  assert.ok(index >= 0, `${text} in ${TARFILE}`);
  return index + 1;
}

describe('tarfile (CPython 3.11 standard library)', () => {
  const root = path.join(tempDir('docforge-rank31-'), 'tar');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  cpSync(TARFILE, path.join(root, 'src', 'tarfile.py'));
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "tar"\n[sources]\ncontent_roots = []\ncode_roots = ["src"]\n[adapter]\ncode = "python"\n');

  test('a two-word pasted message finds the method that raises it first, the exception class named after it below', () => {
    for (const [message, cls] of [['empty header', 'EmptyHeaderError'], ['truncated header', 'TruncatedHeaderError']] as const) {
      // TarInfo.frombuf: `raise EmptyHeaderError("empty header")`, `raise TruncatedHeaderError("truncated header")`.
      lineOf(`raise ${cls}("${message}")`);
      const ids = search(root, message);
      assert.equal(ids[0], 'code:src/tarfile.py#TarInfo.frombuf', `${message}: ${JSON.stringify(ids)}`);
      assert.ok(ids.includes(`code:src/tarfile.py#${cls}`), `${message}: ${JSON.stringify(ids)}`);
    }
  });

  test('a question whose words the answer holds in its doc comment and body finds it first, above classes sharing one word', () => {
    // TarFile.open's doc comment: "'r' or 'r:*' open for reading with transparent compression"; its body tries each OPEN_METH in turn.
    lineOf("open for reading with transparent compression");
    const ids = search(root, 'when reading an archive with transparent compression, how is each compression method tried in turn');
    assert.equal(ids[0], 'code:src/tarfile.py#TarFile.open', JSON.stringify(ids));
  });
});

describe('PyJWT 2.6.0 (Debian python3-jwt)', { skip: !existsSync(path.join(PYJWT_DIR, 'api_jwt.py')) && `${PYJWT_DIR} is not on this machine` }, () => {
  const root = path.join(tempDir('docforge-rank31-jwt-'), 'p');
  mkdirSync(root, { recursive: true });
  cpSync(PYJWT_DIR, path.join(root, 'jwt'), { recursive: true, filter: (src) => path.basename(src) !== '__pycache__' });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "jwt"\n[sources]\ncontent_roots = []\ncode_roots = ["."]\n[adapter]\ncode = "python"\n');

  test('the method that checks a claim ranks above the one-line exception class named after the failure', () => {
    // api_jwt.py: _validate_nbf compares payload["nbf"] with now + leeway; _validate_iat raises ImmatureSignatureError("The token is not yet valid (iat)").
    const nbf = search(root, 'where is the not before claim compared with the current time', 3);
    assert.equal(nbf[0], 'code:jwt/api_jwt.py#PyJWT._validate_nbf', JSON.stringify(nbf));
    const iat = search(root, 'why is the token rejected as not yet valid when its issued at time is in the future', 5);
    const method = iat.indexOf('code:jwt/api_jwt.py#PyJWT._validate_iat');
    const cls = iat.indexOf('code:jwt/exceptions.py#InvalidIssuedAtError');
    assert.ok(method >= 0 && (cls < 0 || method < cls), JSON.stringify(iat));
  });
});
