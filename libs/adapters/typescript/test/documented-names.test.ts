// Pins the documented-name bridge of the TypeScript code text (issue 31 item 2, documented-names.ts)
// on a real package nobody here wrote: lodash's debounce.js documents its options in JSDoc
// (`@param {number} [options.maxWait]` with the description on the next line), and the nested
// functions that read `maxWait` get that description as searchable code words, while the source
// lines (the excerpts) stay the file's own and a function that reads no documented name gains nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extractTypeScript } from '../src/adapter.js';
import { documentedNames, withDocumentedNames, MAX_BRIDGED_WORDS } from '@docforge/core';

const require = createRequire(import.meta.url);
const debouncePath = require.resolve('lodash/debounce.js');
const source = readFileSync(debouncePath, 'utf8');

function codeText(path: string, content: string): Map<string, { words: string[]; lines: string }> {
  const extracted = extractTypeScript({ path, content, strategy: 'ast', logic: false });
  return new Map((extracted.code_text ?? []).map((c) => [c.node_id, { words: c.words.split(' '), lines: c.lines }]));
}

test("lodash debounce: a function reading maxWait carries the option's JSDoc description, its lines unchanged", () => {
  const names = documentedNames(source);
  // The dotted @param names of debounce's JSDoc, by their last segment; `func` and `wait` are plain parameters.
  assert.deepEqual([...names.keys()].sort(), ['leading', 'maxWait', 'trailing']);
  assert.ok(names.get('maxWait')!.includes('delayed'), JSON.stringify(names.get('maxWait')));
  const text = codeText('debounce.js', source);
  const remaining = text.get('code:debounce.js#debounce.remainingWait');
  assert.ok(remaining !== undefined, [...text.keys()].join(', '));
  assert.ok(remaining.words.includes('maxWait'));
  // "The maximum time `func` is allowed to be delayed before it's invoked." is not in the function's source.
  assert.ok(!/delayed/.test(remaining.lines));
  assert.ok(remaining.words.includes('delayed') && remaining.words.includes('maximum'), remaining.words.join(' '));
  // invokeFunc reads none of leading, maxWait, trailing: it gains no description word.
  const invoke = text.get('code:debounce.js#debounce.invokeFunc');
  assert.ok(invoke !== undefined);
  assert.ok(!invoke.words.includes('delayed') && !invoke.words.includes('Specify'), invoke.words.join(' '));
});

test('a field named with leading underscores reads the documented option; plain parameters and two-letter names bridge nothing', () => {
  const content = [
    'class Receiver {',
    '  /**',
    '   * @param {Object} [options] Options object',
    '   * @param {Number} [options.maxPayload=0] The maximum allowed message length',
    '   * @param {String} [options.id] Identifier of the peer',
    '   * @param {Boolean} isServer Whether this is the server side',
    '   */',
    '  constructor(options, isServer) {',
    '    this._maxPayload = options.maxPayload | 0;',
    '    this._isServer = isServer;',
    '  }',
    '  haveLength(length) {',
    '    if (length > this._maxPayload && this._maxPayload > 0) return false;',
    '    return this._isServer;',
    '  }',
    '}',
    'module.exports = Receiver;',
  ].join('\n');
  const text = codeText('lib/receiver.js', content);
  const have = text.get('code:lib/receiver.js#Receiver.haveLength')!;
  assert.ok(have.words.includes('allowed') && have.words.includes('message'), have.words.join(' '));
  assert.ok(!have.words.includes('Whether') && !have.words.includes('Identifier'), have.words.join(' '));
});

test('a doc comment right above a property declaration documents that property', () => {
  const names = documentedNames([
    'interface Options {',
    '  /** Milliseconds an idle worker is kept before it is terminated. */',
    '  idleTimeout?: number;',
    '}',
  ].join('\n'));
  assert.deepEqual(names.get('idleTimeout'), ['Milliseconds', 'an', 'idle', 'worker', 'is', 'kept', 'before', 'it', 'terminated']);
});

test('bounded: a node gains at most MAX_BRIDGED_WORDS words', () => {
  const many = new Map([['limit', Array.from({ length: 200 }, (_, i) => `word${i}`)]]);
  const words = withDocumentedNames('limit other', many).split(' ');
  assert.equal(words.length, 2 + MAX_BRIDGED_WORDS);
});
