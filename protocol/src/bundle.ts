/**
 * Self-contained copies of protocol schemas (issue 29 item 5). Source schema files may `$ref` a
 * definition of another file (`../changeset-operation.schema.json#/definitions/operation`) or a
 * whole file (`../tool-envelope.schema.json`); what `tools/list` publishes must compile alone.
 * `bundleSchema` copies every definition a schema reaches into its local `$defs` and rewrites each
 * `$ref` to `#/$defs/<name>`: a definition keeps its key as name, a whole file its stem
 * (`tool-envelope`). The output is a pure function of the files: `$defs` in name order.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A JSON Schema object as read from a file. */
export type JsonSchemaObject = Record<string, unknown>;

/** Reads one file by its path under `protocol/schemas` (e.g. `v1/tools/docforge_search.input.schema.json`). */
export type SchemaFileReader = (file: string) => JsonSchemaObject;

const BASE = 'https://docforge.dev/schemas/';

/** What one `$ref` names: a file's root (`def` null) or one of its root `definitions`. */
interface RefTarget {
  file: string;
  def: string | null;
}

/**
 * A reader of the files under `root` that parses each file once for the reader's life (one reader
 * per listing: bundling every tool reads the shared files many times).
 * @throws Error from the returned reader when a file is missing or not JSON (a packaging defect)
 */
export function schemaFileReader(root: string): SchemaFileReader {
  const cache = new Map<string, JsonSchemaObject>();
  return (file) => {
    let json = cache.get(file);
    if (json === undefined) {
      json = JSON.parse(readFileSync(path.join(root, file), 'utf8')) as JsonSchemaObject;
      cache.set(file, json);
    }
    return json;
  };
}

/**
 * The schema of `file` with every definition it reaches bundled into local `$defs` (refs
 * rewritten to `#/$defs/<name>`, its own `definitions` moved there too): compiles in a fresh ajv
 * with no other schema added. The input objects are not modified.
 * @param file path under `protocol/schemas`
 * @throws Error when a `$ref` names something other than a whole file or `#/definitions/<name>`,
 *   when a definition is missing, or when two different definitions would share one `$defs` name
 */
export function bundleSchema(file: string, read: SchemaFileReader): JsonSchemaObject {
  const defs = new Map<string, { key: string; schema: unknown }>();
  const resolve = (from: string, ref: string): string => {
    const target = refTarget(from, ref);
    const name = target.def ?? stemOf(target.file);
    const key = `${target.file}#${target.def ?? ''}`;
    const known = defs.get(name);
    if (known !== undefined) {
      if (known.key !== key) throw new Error(`${file}: $defs/${name} would name both ${known.key} and ${key}`);
      return `#/$defs/${name}`;
    }
    if (target.def === null && target.file === file) throw new Error(`${file}: a $ref to its own root is not supported`);
    defs.set(name, { key, schema: null });
    defs.set(name, { key, schema: rewrite(definitionOf(target, read), target.file, resolve) });
    return `#/$defs/${name}`;
  };
  const { definitions: _local, ...root } = read(file);
  const out = rewrite(root, file, resolve) as JsonSchemaObject;
  if (defs.size === 0) return out;
  const names = [...defs.keys()].sort();
  return { ...out, $defs: Object.fromEntries(names.map((n) => [n, defs.get(n)!.schema])) };
}

/**
 * The schema a target names: a definition as written, or a whole file without its `$schema`, `$id`,
 * `definitions` and its file-level `title` and `description` (documentation of the file, repeated
 * in every schema that bundles it; the validation keywords are unchanged).
 */
function definitionOf(target: RefTarget, read: SchemaFileReader): JsonSchemaObject {
  const json = read(target.file);
  if (target.def === null) {
    const { $schema: _s, $id: _i, definitions: _d, title: _t, description: _desc, ...rest } = json;
    return rest;
  }
  const definitions = json.definitions as Record<string, JsonSchemaObject> | undefined;
  const body = definitions?.[target.def];
  if (body === undefined) throw new Error(`missing ${target.file}#/definitions/${target.def}`);
  return body;
}

/** Deep copy of `node` with every string `$ref` replaced by `resolve(file, ref)`. */
function rewrite(node: unknown, file: string, resolve: (from: string, ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((v) => rewrite(v, file, resolve));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === '$ref' && typeof v === 'string' ? resolve(file, v) : rewrite(v, file, resolve);
  return out;
}

/** The file and definition a `$ref` written in `from` names. */
function refTarget(from: string, ref: string): RefTarget {
  const url = new URL(ref, BASE + from);
  if (!url.href.startsWith(BASE)) throw new Error(`${from}: $ref ${ref} leaves protocol/schemas`);
  const file = decodeURIComponent(url.pathname.slice(new URL(BASE).pathname.length));
  const fragment = decodeURIComponent(url.hash.replace(/^#/, ''));
  if (fragment === '') return { file, def: null };
  const match = /^\/definitions\/([^/]+)$/.exec(fragment);
  if (match === null) throw new Error(`${from}: $ref ${ref}: only whole files and #/definitions/<name> are supported`);
  return { file, def: match[1]! };
}

/** `v1/tool-envelope.schema.json` -> `tool-envelope`. */
function stemOf(file: string): string {
  return path.basename(file).replace(/\.schema\.json$|\.defs\.json$|\.json$/, '');
}
