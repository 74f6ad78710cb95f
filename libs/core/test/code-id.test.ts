// Pins code node ids: `#` and `%` in the path part are percent-encoded, so the first `#` always starts the qualified name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalCodeId, codeId, decodeCodePath, decodeMemberName, encodeCodePath, encodeMemberName, parseCodeId } from '../src/index.js';

test('ordinary paths are unchanged; # and % in a path are encoded', () => {
  assert.equal(codeId('src/a.ts'), 'code:src/a.ts');
  assert.equal(codeId('src/a.ts', 'C.m'), 'code:src/a.ts#C.m');
  assert.equal(codeId('src/a.ts', ''), 'code:src/a.ts');
  assert.equal(codeId('src/ünï code.ts', 'f'), 'code:src/ünï code.ts#f');
  assert.equal(codeId('src/a#b.ts'), 'code:src/a%23b.ts');
  assert.equal(codeId('src/100%.py', 'f'), 'code:src/100%25.py#f');
  assert.equal(encodeCodePath('x/%23#.ts'), 'x/%2523%23.ts');
});

test('a file named like a symbol id and the symbol itself get distinct ids', () => {
  // Before encoding, the module of "a.ts#f" and the function f of "a.ts" were both "code:a.ts#f".
  assert.notEqual(codeId('a.ts#f'), codeId('a.ts', 'f'));
  assert.deepEqual(parseCodeId(codeId('a.ts#f')), { path: 'a.ts#f', qualifiedName: null });
  assert.deepEqual(parseCodeId(codeId('a.ts', 'f')), { path: 'a.ts', qualifiedName: 'f' });
});

test('decoding inverts encoding, private names after the first # survive', () => {
  for (const path of ['a.ts', '%', '%25', '%23', '#', 'a%2523#b%#.py', 'dir#1/x%y.ts']) {
    assert.equal(decodeCodePath(encodeCodePath(path)), path, path);
    assert.doesNotMatch(encodeCodePath(path), /#/, path);
  }
  assert.deepEqual(parseCodeId(codeId('s#rc/a.ts', 'C.#secret')), { path: 's#rc/a.ts', qualifiedName: 'C.#secret' });
  assert.equal(parseCodeId('REQ-1'), null);
});

test('a computed member keeps its key text: only . and % inside the brackets are encoded, and decoding inverts it (issue 31 item 5)', () => {
  assert.equal(encodeMemberName('[Symbols.kConnected]'), '[Symbols%2EkConnected]');
  assert.equal(encodeMemberName('[kRun]'), '[kRun]');
  assert.equal(encodeMemberName('[a % b.c]'), '[a %25 b%2Ec]');
  for (const plain of ['send', '#secret', 'a.b', '[', ']', '[]']) assert.equal(encodeMemberName(plain), plain, plain);
  for (const name of ['[Symbols.kConnected]', '[a % b.c]', '[x%2Ey]', '[kRun]']) {
    const segment = encodeMemberName(name);
    assert.equal(decodeMemberName(segment), name, name);
    assert.doesNotMatch(segment.slice(1, -1), /\./, name);
  }
  // The id's qualified name splits on "." into the class and the whole member.
  const id = codeId('lib/mock/mock-pool.js', `MockPool.${encodeMemberName('[Symbols.kConnected]')}`);
  assert.deepEqual(parseCodeId(id)!.qualifiedName!.split('.'), ['MockPool', '[Symbols%2EkConnected]']);
});

test('canonicalCodeId escapes the dots inside a computed key written as in the source, and leaves every other id as it is', () => {
  assert.equal(canonicalCodeId('code:src/pool.js#Pool.[Symbols.kConnected]'), 'code:src/pool.js#Pool.[Symbols%2EkConnected]');
  assert.equal(canonicalCodeId('code:src/pool.js#Pool.[Symbols%2EkConnected]'), 'code:src/pool.js#Pool.[Symbols%2EkConnected]');
  assert.equal(canonicalCodeId('code:src/pool.js#Pool.[a.b].get'), 'code:src/pool.js#Pool.[a%2Eb].get');
  // The path part and ids without a computed key are not touched.
  for (const id of ['code:src/a.b[1].js#f.g', 'code:src/a.js', 'code:src/a.js#A.b', 'REQ-1', 'docs/[x.y]']) assert.equal(canonicalCodeId(id), id);
  assert.equal(codeId('src/pool.js', `Pool.${encodeMemberName('[Symbols.kConnected]')}`), canonicalCodeId('code:src/pool.js#Pool.[Symbols.kConnected]'));
});
