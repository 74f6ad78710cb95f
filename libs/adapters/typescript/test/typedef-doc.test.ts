// Pins the new-user trial 48 finding on commander 14.0.3 (issue 30): a JSDoc block that declares a
// type (`@typedef`, `@callback`) was taken as the doc comment of the declaration below it, so
// `class Help` was summarised "TypeScript import types for JSDoc, used by Visual Studio Code
// IntelliSense". Such a block documents the type it declares, never the next node. Real input: the
// installed avvio 9.3.1 (fastify's plugin loader), whose `class TimeTree` follows the block
// "Node of the TimeTree @typedef {object} TimeTreeNode"; commander's opening lines (MIT) quoted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractTypeScript } from '../src/adapter.js';

const AVVIO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../node_modules/avvio/lib/time-tree.js');

function node(result: ReturnType<typeof extractTypeScript>, id: string) {
  const found = result.nodes.find((n) => n.id === id);
  assert.ok(found, `${id} in ${result.nodes.map((n) => n.id).join(', ')}`);
  return found;
}

test('avvio: class TimeTree under a @typedef block has no doc comment; its documented members keep theirs', () => {
  const result = extractTypeScript({ path: 'lib/time-tree.js', content: readFileSync(AVVIO, 'utf8'), strategy: 'ast', logic: false });
  const tree = node(result, 'code:lib/time-tree.js#TimeTree');
  assert.equal(tree.body, '');
  assert.doesNotMatch(tree.summary, /Node of the TimeTree/);
  const track = result.nodes.find((n) => n.id.startsWith('code:lib/time-tree.js#TimeTree.[kTrackNode]'));
  assert.match(track?.body ?? '', /@param \{TimeTreeNode\} node/);
});

test('commander: the @typedef import block above `class Help` is not its doc; a doc block after a @callback block still is', () => {
  const help = `const { humanReadableArgName } = require('./argument.js');

/**
 * TypeScript import types for JSDoc, used by Visual Studio Code IntelliSense and \`npm run typescript-checkJS\`
 * https://www.typescriptlang.org/docs/handbook/jsdoc-supported-types.html#import-types
 * @typedef { import("./argument.js").Argument } Argument
 * @typedef { import("./command.js").Command } Command
 * @typedef { import("./option.js").Option } Option
 */

// Although this is a class, methods are static in style to allow override using subclass or just functions.
class Help {
  constructor() {
    this.helpWidth = undefined;
  }
}

/**
 * @callback GenerateRequestId
 * @param {Object} req
 */

/**
 * Makes the request id generator.
 */
function reqIdGenFactory() {}

module.exports = { Help, reqIdGenFactory };
`;
  const result = extractTypeScript({ path: 'lib/help.js', content: help, strategy: 'ast', logic: false });
  const cls = node(result, 'code:lib/help.js#Help');
  assert.equal(cls.body, '');
  assert.equal(cls.summary, 'class Help');
  assert.equal(node(result, 'code:lib/help.js#reqIdGenFactory').body, 'Makes the request id generator.');
});
