// Pins "one source of truth for docforge.toml" (issue 29, item 4): every valid and invalid descriptor fixture of protocol/fixtures/descriptor gets the same verdict from the schema's generated validator and from loadDescriptor (which runs that validator, then the semantic checks), and the key lists named in messages are the schema's closed tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'smol-toml';
import { validateDescriptorDocument } from '@docforge/protocol/descriptor';
import { loadDescriptor } from '../src/index.js';
import { ALLOWED } from '../src/descriptor-check.js';
import { removeTree, tempTree } from './helpers.js';

const PROTOCOL = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../protocol');

function fixtures(kind: 'valid' | 'invalid'): { name: string; value: Record<string, unknown> }[] {
  const dir = path.join(PROTOCOL, 'fixtures', 'descriptor', kind);
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => ({ name: `${kind}/${f}`, value: JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown> }));
}

/** loadDescriptor's verdict on `doc` written as docforge.toml in a project holding its content and code roots. */
function loads(doc: Record<string, unknown>): boolean {
  const root = tempTree({ 'docforge.toml': stringify(doc) });
  try {
    const sources = (doc['sources'] ?? {}) as { content_roots?: unknown; code_roots?: unknown };
    for (const list of [sources.content_roots, sources.code_roots]) {
      if (Array.isArray(list)) for (const dir of list) if (typeof dir === 'string' && dir !== '' && !dir.includes('..')) mkdirSync(path.join(root, dir), { recursive: true });
    }
    writeFileSync(path.join(root, '.keep'), '');
    loadDescriptor(root);
    return true;
  } catch (error) {
    assert.equal((error as { code?: string }).code, 'descriptor_invalid', String(error));
    return false;
  } finally {
    removeTree(root);
  }
}

test('every descriptor fixture: the schema validator and loadDescriptor agree', () => {
  const all = [...fixtures('valid'), ...fixtures('invalid')];
  assert.ok(all.length >= 9, `${all.length} fixtures`);
  for (const { name, value } of all) {
    const schema = validateDescriptorDocument(value);
    assert.equal(schema, name.startsWith('valid/'), `${name}: schema verdict`);
    assert.equal(loads(value), schema, `${name}: loadDescriptor verdict differs from the schema's`);
  }
});

test('the key lists the messages name are the schema\'s closed tables', () => {
  const schema = JSON.parse(readFileSync(path.join(PROTOCOL, 'schemas', 'v1', 'descriptor.schema.json'), 'utf8')) as { properties: Record<string, { properties?: object; items?: { properties: object }; additionalProperties?: unknown }> };
  const keys = (o: object | undefined): string[] => Object.keys(o ?? {}).sort();
  assert.deepEqual([...(ALLOWED[''] ?? [])].sort(), keys(schema.properties));
  for (const table of ['project', 'sources', 'adapter', 'vocabulary', 'limits', 'state', 'proposals']) {
    assert.deepEqual([...(ALLOWED[table] ?? [])].sort(), keys(schema.properties[table]?.properties), table);
  }
  assert.deepEqual([...(ALLOWED['views'] ?? [])].sort(), keys(schema.properties['views']?.items?.properties));
  const adapter = schema.properties['adapter']?.properties as Record<string, { properties: object }>;
  assert.deepEqual([...(ALLOWED['adapter_c'] ?? [])].sort(), keys(adapter['c']?.properties));
  const proposals = schema.properties['proposals']?.properties as Record<string, { additionalProperties: { properties: object } }>;
  assert.deepEqual([...(ALLOWED['proposal_writer'] ?? [])].sort(), keys(proposals['writers']?.additionalProperties.properties));
  assert.deepEqual([...(ALLOWED['proposal_applier'] ?? [])].sort(), keys(proposals['appliers']?.additionalProperties.properties));
});
