// Pins package.json entrypoints: the link step reports `entrypoint` for modules named by `main` or `bin`, on fixtures and on the real fastify package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkTypeScript, extractTypeScript } from '../src/adapter.js';
import { memoryResolver } from './helpers.js';

function link(files: Record<string, string>, strategy: 'ast' | 'lexical' = 'ast') {
  const extracted = Object.entries(files)
    .filter(([path]) => !path.endsWith('.json'))
    .map(([path, content]) => ({ path, ...extractTypeScript({ path, content, strategy, logic: false }) }));
  return linkTypeScript(extracted, memoryResolver(files));
}

test('main and bin (string and map) of the root and nested package.json mark their modules', () => {
  const files = {
    'package.json': JSON.stringify({ name: 'root', main: 'lib/server.js', bin: { tool: './tools/run.js', other: 'tools/other' } }),
    'lib/server.js': "module.exports = require('./util')\n",
    'lib/util.js': 'module.exports = {}\n',
    'tools/run.js': "require('../lib/server')\n",
    'tools/other.js': '\n',
    'packages/pkg/package.json': JSON.stringify({ name: 'pkg', bin: 'start.mjs', main: './missing.js' }),
    'packages/pkg/start.mjs': "import '../../lib/util.js'\n",
  };
  for (const strategy of ['ast', 'lexical'] as const) {
    const result = link(files, strategy);
    assert.deepEqual(result.capabilities, {
      'code:lib/server.js': ['entrypoint'],
      'code:packages/pkg/start.mjs': ['entrypoint'],
      'code:tools/other.js': ['entrypoint'],
      'code:tools/run.js': ['entrypoint'],
    }, strategy);
    assert.equal(result.stats.package_entrypoints, 4);
  }
});

test('modules already classified as entrypoints and malformed manifests add nothing', () => {
  const result = link({
    'package.json': '{ not json',
    'bin/cli.js': '#!/usr/bin/env node\n',
    'sub/package.json': JSON.stringify({ main: 'bin/cli.js', bin: ['x'] }),
    'sub/index.js': '\n',
  });
  assert.deepEqual(result.capabilities, {});
});

const here = dirname(fileURLToPath(import.meta.url));
const FASTIFY = join(here, '../../../../../node_modules/fastify');

test('fastify: package.json main names fastify.js, which becomes an entrypoint', () => {
  const pkg = JSON.parse(readFileSync(join(FASTIFY, 'package.json'), 'utf8')) as { main: string };
  assert.equal(pkg.main, 'fastify.js');
  const paths = ['fastify.js', 'lib/route.js', 'lib/symbols.js'];
  const files: Record<string, string> = { 'package.json': readFileSync(join(FASTIFY, 'package.json'), 'utf8') };
  for (const path of paths) files[path] = readFileSync(join(FASTIFY, path), 'utf8');
  const result = link(files);
  assert.deepEqual(result.capabilities, { 'code:fastify.js': ['entrypoint'] });
});
