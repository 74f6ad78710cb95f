// Pins the new-user trial's Python call faults (stop 45): every call that gives no edge is counted in unresolved_calls per
// calling node; a call through an `import ... as` name reaches its target; a module-level alias of a bound method of a
// module-level instance of a project class (`_obj = PyJWS()`, `decode = _obj.decode`) reaches that method, as does a call
// on the instance itself; nothing when the instance or the alias is bound twice, is rebound by `global`, or the class is
// not the project's. Then PyJWT (Debian's python3-jwt): jwks_client's `decode_token(...)` (`from .api_jwt import
// decode_complete as decode_token`) reaches PyJWT.decode_complete, and every new edge is checked against the source text.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { initPythonAdapter } from '../src/whole.js';
import { edgeLines, extractAndLink, readProject } from './helpers.js';
import type { SourceFile } from './helpers.js';

before(async () => {
  await initPythonAdapter();
});

function file(path: string, ...lines: string[]): SourceFile {
  return { path, content: `${lines.join('\n')}\n` };
}

const PROJECT = [
  file('pkg/__init__.py', 'from .api import decode, encode'),
  file('pkg/api.py',
    'import os',
    'class Codec:',
    '    def decode(self, s):',
    '        return s',
    '    def encode(self, s):',
    '        return s',
    '',
    '_codec = Codec()',
    'decode = _codec.decode',
    'encode = _codec.encode',
    'plain = Codec',
    'twice = Codec()',
    'twice = os.getcwd()',
    'foreign = os.path',
    'def rebind():',
    '    global encode',
    '    encode = None',
    '',
    'def run(x):',
    '    _codec.encode(x)',
    '    twice.decode(x)',
    '    foreign.join(x)',
    '    encode(x)',
    '    plain().decode(x)',
    '    x.anything()',
    '    os.getcwd()',
    '    return decode(x)'),
  file('pkg/client.py',
    'from .api import decode as decode_token',
    'import pkg.api as api_mod',
    '',
    'def use(t):',
    '    decode_token(t)',
    '    api_mod.decode(t)',
    '    unknown_name(t)'),
  // A wildcard import may bind any name at run time; a head both imported and defined is decided at run time.
  file('pkg/star.py', 'from os.path import *', 'from .api import Codec', '_c = Codec()', 'def f():', '    _c.decode(1)'),
  file('pkg/amb.py', 'try:', '    from .api import Codec', 'except ImportError:', '    class Codec:', '        def decode(self, s):', '            return s',
    '_c = Codec()', 'def g():', '    _c.decode(1)'),
];

describe('python: module-level aliases, import-as names and the count of calls without an edge', () => {
  it('resolves calls through import-as names and aliases of bound methods of module-level instances, and counts every miss', () => {
    const { link } = extractAndLink(PROJECT);
    const calls = edgeLines(link.edges, 'calls');
    assert.deepEqual(calls.filter((c) => c.startsWith('code:pkg/client.py#use ')), [
      'code:pkg/client.py#use calls code:pkg/api.py#Codec.decode @5',
    ]);
    // Through `import pkg.api as api_mod`, api_mod.decode is the same alias (line 6): one edge, smallest line.
    assert.equal(link.unresolved_calls?.['code:pkg/client.py#use'], 1, 'unknown_name(t)');
    assert.deepEqual(calls.filter((c) => c.startsWith('code:pkg/api.py#run ')), [
      // plain() through `plain = Codec` constructs Codec; the .decode on its result is no dotted name.
      'code:pkg/api.py#run calls code:pkg/api.py#Codec @24',
      'code:pkg/api.py#run calls code:pkg/api.py#Codec.decode @27',
      'code:pkg/api.py#run calls code:pkg/api.py#Codec.encode @20',
    ]);
    // twice.decode (bound twice), foreign.join (no project class), encode(x) (rebound through `global` in rebind),
    // plain().decode (a call's result), x.anything() (a parameter), os.getcwd() (not the project's).
    assert.equal(link.unresolved_calls?.['code:pkg/api.py#run'], 6);
    assert.equal(link.unresolved_calls?.['code:pkg/star.py#f'], 1, 'no alias is proven in a module with a wildcard import');
    assert.equal(link.unresolved_calls?.['code:pkg/amb.py#g'], 1, 'Codec is imported in the try and defined in the except');
    const total = Object.values(link.unresolved_calls ?? {}).reduce((a, b) => a + b, 0);
    assert.equal(total, link.stats['calls_unresolved'], 'every unresolved call is counted for its caller');
  });
});

const PYJWT = '/usr/lib/python3/dist-packages/jwt';

describe('PyJWT (python3-jwt): aliases of module-level instances', { skip: existsSync(PYJWT) || process.env.DOCFORGE_CI === '1' ? false : `${PYJWT} is missing (apt-get install -y python3-jwt)` }, () => {
  it('jwks_client decode_token reaches PyJWT.decode_complete; every call gives an edge or is counted', () => {
    const files = readProject(PYJWT).map((f) => ({ path: `jwt/${f.path}`, content: f.content }));
    const { link } = extractAndLink(files);
    const calls = link.edges.filter((e) => e.relation === 'calls');
    assert.ok(calls.some((e) => e.source_id === 'code:jwt/jwks_client.py#PyJWKClient.get_signing_key_from_jwt' && e.target_id === 'code:jwt/api_jwt.py#PyJWT.decode_complete'),
      'decode_token(token, ...) through `from .api_jwt import decode_complete as decode_token`');
    const total = Object.values(link.unresolved_calls ?? {}).reduce((a, b) => a + b, 0);
    assert.equal(total, link.stats['calls_unresolved']);
    assert.ok(total > 0);
    // Each edge into a method of PyJWS or PyJWT from outside its class names that method on its line (or its alias).
    const text = new Map(files.map((f) => [f.path, f.content.split('\n')]));
    const aliases: Record<string, string> = { decode_token: 'decode_complete' };
    for (const e of calls.filter((c) => /#PyJW[ST]\.\w+$/.test(c.target_id) && !c.source_id.includes(c.target_id.split('#')[1]!.split('.')[0]!))) {
      const method = e.target_id.split('.').pop()!;
      const line = text.get(e.source_path)?.[e.line - 1] ?? '';
      const named = [...line.matchAll(/(\w+)\(/g)].map((m) => aliases[m[1]!] ?? m[1]!);
      assert.ok(named.includes(method), `${e.source_path}:${e.line} calls ${method}: ${line.trim()}`);
    }
  });
});
