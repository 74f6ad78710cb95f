// Pins the frame reading of issue 30 item 18: a message of exactly the limit is read, one byte more is reported once as too_large and skipped up to its newline without ending the stream; chunks split anywhere; the request id is read only from the top level of the first 64 KiB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameReader, ID_SCAN_BYTES, requestIdOf } from '../src/stdio-frames.js';

test('requestIdOf reads a top-level string or number id, never a nested one or a cut one', () => {
  assert.equal(requestIdOf('{"jsonrpc":"2.0","id":7,"method":"x"}'), 7);
  assert.equal(requestIdOf(' { "id" : "a\\"b" , "method": "x"'), 'a"b');
  assert.equal(requestIdOf('{"params":{"id":5,"q":["}",{"id":6}]},"id":"top"}'), 'top');
  assert.equal(requestIdOf('{"params":{"id":5},"method":"x"'), null, 'a nested id is not the request id');
  assert.equal(requestIdOf('{"method":"x","id":12'), null, 'a number cut at the end may be longer');
  assert.equal(requestIdOf('{"id":null}'), null);
  assert.equal(requestIdOf('{"id":{"a":1}}'), null);
  assert.equal(requestIdOf('[{"id":1}]'), null, 'a batch has no single id');
  assert.equal(requestIdOf('not json'), null);
  assert.equal(requestIdOf(`{"params":{"q":"${'x'.repeat(ID_SCAN_BYTES)}`), null);
});

test('FrameReader: the limit is inclusive, a longer line is reported once and skipped, chunks split anywhere', () => {
  const reader = new FrameReader(10);
  const frames = [
    ...reader.push(Buffer.from('0123456789\n{"id":1,"x')),
    ...reader.push(Buffer.from('yz"}\r')),
    ...reader.push(Buffer.from('\n\n  \n{"id":"l"')),
    ...reader.push(Buffer.from(',"pad":"more than ten bytes"}\nok\n')),
  ];
  assert.deepEqual(frames, [
    { kind: 'line', text: '0123456789' },
    { kind: 'too_large', id: 1, limitBytes: 10 },
    { kind: 'too_large', id: 'l', limitBytes: 10 },
    { kind: 'line', text: 'ok' },
  ]);
  assert.deepEqual(new FrameReader(10).push(Buffer.from('{"a":"é"}\n')), [{ kind: 'line', text: '{"a":"é"}' }], 'UTF-8 is decoded once per line');
});
