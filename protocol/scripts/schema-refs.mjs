// The generator's view of $ref between schema files (used by generate.mjs only).
// Sources may reference a definition of another file (`../changeset-operation.schema.json#/definitions/operation`)
// or another schema file whole (`../tool-envelope.schema.json`). normalize() gives every definition
// reached from any entry ONE schema object with its own $id, and rewrites every $ref to such an id,
// so an ajv instance holding all of them compiles each shared definition once (ajv compiles a
// JSON-pointer ref into another file again for each referencing root, but a ref to a whole schema
// by $id only once). components() groups the entries that share definitions into one module.
import path from 'node:path';

/** Base URI of protocol/schemas: a file's $id is BASE + its path under protocol/schemas. */
export const BASE = 'https://docforge.dev/schemas/';

/** `{ file, def }` named by `ref` as written in `fromFile` (def null: the file's root schema). */
export function refTarget(fromFile, ref) {
  const url = new URL(ref, BASE + fromFile);
  if (!url.href.startsWith(BASE)) throw new Error(`${fromFile}: $ref ${ref} leaves protocol/schemas`);
  const file = decodeURIComponent(url.pathname.slice(new URL(BASE).pathname.length));
  const fragment = decodeURIComponent(url.hash.replace(/^#/, ''));
  if (fragment === '') return { file, def: null };
  const match = /^\/definitions\/([^/]+)$/.exec(fragment);
  if (!match) throw new Error(`${fromFile}: $ref ${ref}: only whole files and #/definitions/<name> are supported`);
  return { file, def: match[1] };
}

/** The generator-internal $id of a file's root (def null) or of one of its definitions. */
export function targetId({ file, def }) {
  return def === null ? BASE + file : `${BASE}${file}/definitions/${def}`;
}

/**
 * Normalizes `entries` ({ key, file, schema }) for one ajv instance. Returns `roots` (key -> root
 * schema with $id, its `definitions` removed) and `defs` (id -> { id, file, def, schema with $id })
 * holding every definition reached, each once; every $ref in both is an absolute id.
 * `read(file)` returns the parsed JSON of a file under protocol/schemas.
 * @throws Error on a ref this generator does not resolve (nested definitions, other pointers,
 *   a whole-file ref to a file that is not an entry, or a definition that does not exist)
 */
export function normalize(entries, read) {
  const entryFiles = new Set(entries.map((e) => e.file));
  const defs = new Map();
  const edges = new Map();
  const visit = (fromId, fromFile, node) => rewrite(node, fromFile, (target) => {
    const id = targetId(target);
    edges.get(fromId).add(id);
    if (target.def === null) {
      if (!entryFiles.has(target.file)) throw new Error(`${fromFile}: $ref to ${target.file}, which is not a generated schema`);
      return id;
    }
    if (!defs.has(id)) {
      const body = read(target.file).definitions?.[target.def];
      if (body === undefined) throw new Error(`${fromFile}: $ref to missing ${target.file}#/definitions/${target.def}`);
      defs.set(id, null);
      edges.set(id, new Set());
      defs.set(id, { id, file: target.file, def: target.def, schema: { $id: id, ...visit(id, target.file, body) } });
    }
    return id;
  });
  const roots = new Map();
  for (const e of entries) {
    const id = targetId({ file: e.file, def: null });
    edges.set(id, new Set());
    const { definitions: _local, ...rest } = e.schema;
    roots.set(e.key, { $id: id, ...visit(id, e.file, rest) });
  }
  return { roots, defs, edges };
}

/**
 * Deep copy of `node` with each `$ref` replaced by `resolve(target)` (refTarget refuses pointers
 * other than root definitions, so definitions nested deeper are never referenced).
 */
function rewrite(node, file, resolve) {
  if (Array.isArray(node)) return node.map((v) => rewrite(v, file, resolve));
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === '$ref' && typeof v === 'string' ? resolve(refTarget(file, v)) : rewrite(v, file, resolve);
  return out;
}

/**
 * Groups entry keys that reach a common definition or each other (union of the ref graph's
 * reachability), in entry order; each group becomes one generated module.
 */
export function components(entries, edges) {
  const reach = (start) => {
    const seen = new Set([start]);
    const stack = [start];
    while (stack.length > 0) for (const next of edges.get(stack.pop()) ?? []) if (!seen.has(next)) (seen.add(next), stack.push(next));
    return seen;
  };
  const parent = new Map(entries.map((e) => [e.key, e.key]));
  const find = (k) => (parent.get(k) === k ? k : find(parent.get(k)));
  const owner = new Map();
  for (const e of entries) {
    for (const id of reach(targetId({ file: e.file, def: null }))) {
      const other = owner.get(id);
      if (other === undefined) owner.set(id, e.key);
      else parent.set(find(e.key), find(other));
    }
  }
  const groups = new Map();
  for (const e of entries) {
    const root = find(e.key);
    if (!groups.has(root)) groups.set(root, []);
    groups.get(root).push(e);
  }
  return [...groups.values()];
}

/** File stem of a schema file (`v1/tool-envelope.schema.json` -> `tool-envelope`). */
export function stem(file) {
  return path.basename(file).replace(/\.schema\.json$|\.defs\.json$|\.json$/, '');
}
