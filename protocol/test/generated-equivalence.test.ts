// Pins the compacted generated validators (issue 29 item 5: loopRequired and
// scripts/compact-validators.mjs) to ajv's own code for the same schemas: for every schema, on every
// fixture and on systematic mutations of each (each property dropped, an unknown property added,
// each value replaced by values of other types), the generated validator and a validator ajv
// compiles at run time from the same normalized schemas with the generator's former options give
// the same verdict and the same `errors` (instancePath, schemaPath, keyword, params, message, order).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv, type AnySchemaObject, type ValidateFunction } from 'ajv';
import { SCHEMA_VALIDATORS } from '../src/index.js';

const PROTOCOL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = path.join(PROTOCOL_DIR, 'fixtures');
/** Mutations tried per schema at most (all fixtures together), to bound the run time. */
const MAX_DOCUMENTS = 4000;
/** Replacement values: one of each JSON type, and edge values of numbers and strings. */
const REPLACEMENTS: readonly unknown[] = [null, true, 0, -1, 1.5, '', 'x', [], {}, [null]];

interface Normalized {
  roots: Map<string, AnySchemaObject & { $id: string }>;
  defs: Map<string, { schema: AnySchemaObject }>;
}
type NormalizeFn = (entries: { key: string; file: string; schema: unknown }[], read: (file: string) => unknown) => Normalized;

function readSchema(file: string): unknown {
  return JSON.parse(readFileSync(path.join(PROTOCOL_DIR, 'schemas', file), 'utf8')) as unknown;
}

/** ajv's own validators of every entry: the generator's normalized schemas and its options before compaction. */
async function referenceValidators(): Promise<Map<string, ValidateFunction>> {
  const { normalize } = (await import(pathToFileURL(path.join(PROTOCOL_DIR, 'scripts/schema-refs.mjs')).href)) as { normalize: NormalizeFn };
  const { addDiscriminators } = (await import(pathToFileURL(path.join(PROTOCOL_DIR, 'scripts/discriminators.mjs')).href)) as { addDiscriminators: (n: Normalized) => number };
  const entries = SCHEMA_VALIDATORS.map((s) => ({ key: s.key, file: s.file, schema: readSchema(s.file) }));
  const normalized = normalize(entries, readSchema);
  // Tagged unions compile with ajv's discriminator, as in the generator (issue 30 item 5).
  addDiscriminators(normalized);
  const ajv = new Ajv({ allErrors: true, discriminator: true, strict: false, inlineRefs: false });
  for (const def of normalized.defs.values()) ajv.addSchema(def.schema);
  for (const root of normalized.roots.values()) ajv.addSchema(root);
  return new Map(entries.map((e) => [e.key, ajv.getSchema(normalized.roots.get(e.key)!.$id)!]));
}

function fixtureDocuments(key: string): unknown[] {
  return (['valid', 'invalid'] as const).flatMap((kind) => {
    const dir = path.join(FIXTURES, key, kind);
    if (!existsSync(dir)) return [];
    return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as unknown);
  });
}

/** `doc` with the value at `at` (a key path) replaced by `edit(old)`; `undefined` from edit deletes it. */
function edited(doc: unknown, at: readonly (string | number)[], edit: (old: unknown) => unknown): unknown {
  if (at.length === 0) return edit(doc);
  const [head, ...rest] = at;
  if (Array.isArray(doc)) return doc.flatMap((v, i) => (i !== head ? [v] : rest.length === 0 && edit(v) === undefined ? [] : [edited(v, rest, edit)]));
  const record = doc as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    if (k !== head) out[k] = v;
    else if (rest.length > 0 || edit(v) !== undefined) out[k] = edited(v, rest, edit);
  }
  return out;
}

/** Every value's key path in `doc`, the document itself first. */
function paths(doc: unknown, at: (string | number)[] = []): (string | number)[][] {
  const here = [at];
  if (Array.isArray(doc)) return here.concat(doc.flatMap((v, i) => paths(v, [...at, i])));
  if (doc !== null && typeof doc === 'object') return here.concat(Object.entries(doc).flatMap(([k, v]) => paths(v, [...at, k])));
  return here;
}

/** The fixture, then for each value: dropped, replaced by each REPLACEMENTS value, and (objects) given an unknown property. */
function* mutations(doc: unknown): Generator<unknown> {
  yield doc;
  for (const at of paths(doc)) {
    if (at.length > 0) yield edited(doc, at, () => undefined);
    for (const value of REPLACEMENTS) yield edited(doc, at, () => value);
    yield edited(doc, at, (old) => (old !== null && typeof old === 'object' && !Array.isArray(old) ? { ...old, unexpected_property: 1 } : old));
  }
}

test('every generated validator gives the verdict and errors of ajv\'s own code on fixtures and their mutations', async () => {
  const reference = await referenceValidators();
  let compared = 0;
  let rejected = 0;
  for (const { key, validate } of SCHEMA_VALIDATORS) {
    const expected = reference.get(key)!;
    let count = 0;
    for (const fixture of fixtureDocuments(key)) {
      for (const doc of mutations(fixture)) {
        if (count++ >= MAX_DOCUMENTS) break;
        const verdict = validate(doc);
        assert.equal(verdict, expected(doc), `${key}: verdict on ${JSON.stringify(doc).slice(0, 300)}`);
        if (JSON.stringify(validate.errors) !== JSON.stringify(expected.errors)) {
          assert.deepEqual(validate.errors, expected.errors, `${key}: errors on ${JSON.stringify(doc).slice(0, 300)}`);
        }
        if (!verdict) rejected++;
      }
    }
    compared += Math.min(count, MAX_DOCUMENTS);
  }
  assert.ok(compared > 10_000 && rejected > compared / 2, `${compared} documents compared, ${rejected} rejected`);
});
