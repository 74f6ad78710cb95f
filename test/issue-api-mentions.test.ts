// Pins issue 31 item 3 on packages nobody here wrote: docs name code through the package's public
// API (`pino.transport()`, `json.dumps`), and such a mention becomes a `documents` edge to the
// implementation the package entry's exports and re-exports prove; the test reads the sources
// itself to confirm each export chain. A member of a value the page binds from a call whose return
// type nothing proves (`logger.foo()`) stays unlinked and is counted as `unproven_receiver`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

const PINO = path.join(REPO_ROOT, 'node_modules', 'pino');
const JSON_PACKAGE = '/usr/lib/python3.11/json';

function descriptor(id: string, code: string, exclude: string): string {
  return [
    'schema_version = 1', '[project]', `id = "${id}"`, `name = "${id}"`, '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
    `exclude = [${exclude}]`, '[adapter]', `code = "${code}"`, 'strategy = "ast"', '',
  ].join('\n');
}

/** The source text of a project file. */
function source(root: string, rel: string): string {
  return readFileSync(path.join(root, rel), 'utf8');
}

describe('pino docs linked through its public API', async () => {
  const root = tempDir('docforge-pino-api-');
  for (const part of ['docs', 'lib', 'pino.js', 'pino.d.ts', 'browser.js', 'file.js', 'package.json']) cpSync(path.join(PINO, part), path.join(root, part), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), descriptor('pino', 'typescript', '"**/node_modules/**"'));
  // A page of ours: a logger bound from a proven call, and members nothing proves on it.
  writeFileSync(path.join(root, 'docs', 'unproven.md'), [
    '# Unproven receivers', '', '```js', "const pino = require('pino')", 'const logger = pino()', '```', '',
    'Calling `logger.foo()` names nothing, and `logger.child()` is not proven either: `pino` declares no return type in JavaScript.', '',
  ].join('\n'));
  const s = await useServer(root);

  const documentsOf = async (target: string): Promise<Json[]> => {
    const e = await s.call('docforge_backlinks', { node_id: target, relations: ['documents'], limit: 100 });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    return e.result!.items;
  };

  // Each edge: the public name, where the entry exports it (the text the test finds), and the implementation.
  const chains = [
    { name: 'pino.transport', target: 'code:lib/transport.js#transport', entry: "module.exports.transport = require('./lib/transport')", file: 'lib/transport.js', impl: ['function transport (', 'module.exports = transport'], docs: ['api', 'transports'] },
    { name: 'pino.multistream', target: 'code:lib/multistream.js#multistream', entry: "module.exports.multistream = require('./lib/multistream')", file: 'lib/multistream.js', impl: ['function multistream (', 'module.exports = multistream'], docs: ['api', 'help'] },
    { name: 'pino.destination', target: 'code:pino.js#destination', entry: 'module.exports.destination = (', file: 'pino.js', impl: ['module.exports = pino'], docs: ['api', 'asynchronous', 'help'] },
  ];

  for (const chain of chains) {
    test(`\`${chain.name}\` in the docs documents ${chain.target}, proven through pino.js's exports`, async () => {
      // The export chain, read from the sources: package.json main -> pino.js -> the implementation.
      assert.equal((JSON.parse(source(root, 'package.json')) as { name: string; main: string }).name, 'pino');
      assert.equal((JSON.parse(source(root, 'package.json')) as { main: string }).main, 'pino.js');
      assert.ok(source(root, 'pino.js').includes(chain.entry), chain.entry);
      for (const text of chain.impl) assert.ok(source(root, chain.file).includes(text), `${chain.file}: ${text}`);
      const items = await documentsOf(chain.target);
      for (const doc of chain.docs) {
        const item = items.find((i) => i.id === doc);
        assert.ok(item, `${doc} documents ${chain.target}: ${JSON.stringify(items.map((i) => i.id))}`);
        assert.ok(item.mention.sections.length >= 1, JSON.stringify(item.mention));
        // The section named is the one holding the mention: the line of the edge names the API in that document.
        const line = source(root, `docs/${doc}.md`).split('\n')[item.declared_in.line - 1]!;
        assert.ok(line.includes(chain.name.split('.')[1]!), `docs/${doc}.md:${item.declared_in.line}: ${line}`);
      }
    });
  }

  test('backlinks of lib/transport.js#transport hold the transports and API docs with their sections', async () => {
    const items = await documentsOf('code:lib/transport.js#transport');
    const transports = items.find((i) => i.id === 'transports');
    const api = items.find((i) => i.id === 'api');
    assert.ok(transports && api, JSON.stringify(items));
    const titles = (item: Json): string[] => item.mention.sections.map((x: Json) => x.title);
    assert.ok(titles(transports).some((t) => /Transports/.test(t)), JSON.stringify(titles(transports)));
    assert.ok(titles(api).length >= 1, JSON.stringify(titles(api)));
  });

  test('an unproven `logger.foo()` and `logger.child()` stay unlinked and are counted', async () => {
    const deps = await s.call('docforge_dependencies', { node_id: 'unproven', relations: ['documents'], depth: 1 });
    assert.equal(deps.ok, true, JSON.stringify(deps.error));
    assert.deepEqual(deps.result!.items.map((i: Json) => i.id), []);
    const child = await documentsOf('code:lib/proto.js#child');
    assert.ok(!child.some((i) => i.id === 'unproven'), JSON.stringify(child));
    const validate = await s.call('docforge_validate_project', {});
    assert.equal(validate.ok, true, JSON.stringify(validate.error));
    assert.ok(validate.result!.mentions.unproven_receiver >= 2, JSON.stringify(validate.result!.mentions));
  });
});

describe('Python stdlib json docs linked through its __init__ re-exports', async () => {
  const root = tempDir('docforge-json-api-');
  cpSync(JSON_PACKAGE, path.join(root, 'json'), { recursive: true, filter: (src) => !src.includes('__pycache__') });
  writeFileSync(path.join(root, 'docforge.toml'), descriptor('json', 'python', '"**/__pycache__/**"'));
  const docs = path.join(root, 'docs');
  mkdirSync(docs);
  writeFileSync(path.join(docs, 'usage.md'), [
    '# Using json', '', '## Encoding', '', 'Serialize with `json.dumps()`; a custom encoder subclasses `json.JSONEncoder`.', '',
    '## Decoding', '', 'Parse with `json.loads`; the decoder class is `json.JSONDecoder`.', '',
    '## Unlinked', '', '`json.nothing` names nothing, and `dumps` alone is a bare leaf name.', '',
  ].join('\n'));
  const s = await useServer(root);

  test('`json.dumps`, `json.loads`, `json.JSONDecoder` and `json.JSONEncoder` document their implementations', async () => {
    const init = source(root, 'json/__init__.py');
    // The chain, read from the sources: defined in __init__, or re-exported from a submodule.
    assert.match(init, /^def dumps\(/m);
    assert.match(init, /^def loads\(/m);
    assert.match(init, /^from \.decoder import JSONDecoder\b/m);
    assert.match(init, /^from \.encoder import JSONEncoder\b/m);
    assert.match(source(root, 'json/decoder.py'), /^class JSONDecoder\b/m);
    assert.match(source(root, 'json/encoder.py'), /^class JSONEncoder\b/m);
    const e = await s.call('docforge_dependencies', { node_id: 'usage', relations: ['documents'], depth: 1 });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    const targets = e.result!.items.map((i: Json) => i.id).sort();
    assert.deepEqual(targets, ['code:json/__init__.py#dumps', 'code:json/__init__.py#loads', 'code:json/decoder.py#JSONDecoder', 'code:json/encoder.py#JSONEncoder']);
    const back = await s.call('docforge_backlinks', { node_id: 'code:json/__init__.py#dumps', relations: ['documents'] });
    const item = back.result!.items.find((i: Json) => i.id === 'usage');
    assert.equal(item.mention.sections[0].title, 'Encoding');
  });
});
