// Pins the viewer protocol v2 schema files to protocol/scripts/viewer-schemas.mjs, their one source (shared signature and worker record in every frame).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROTOCOL_SCHEMA_DIR } from '../src/index.js';

const DIR = path.join(PROTOCOL_SCHEMA_DIR, '../viewer/v2');

test('every viewer v2 manager frame schema file is exactly what scripts/viewer-schemas.mjs writes', async () => {
  const script = pathToFileURL(path.resolve(PROTOCOL_SCHEMA_DIR, '../../scripts/viewer-schemas.mjs')).href;
  const { viewerSchemas } = (await import(script)) as { viewerSchemas: () => Record<string, unknown> };
  const expected = viewerSchemas();
  const present = new Set(readdirSync(DIR));
  for (const file of Object.keys(expected)) assert.ok(present.has(file), `${file} is missing`);
  for (const [file, schema] of Object.entries(expected)) assert.equal(readFileSync(path.join(DIR, file), 'utf8'), `${JSON.stringify(schema, null, 2)}\n`, `${file} differs; run node protocol/scripts/viewer-schemas.mjs`);
});
