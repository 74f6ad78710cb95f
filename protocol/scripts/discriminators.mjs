// Tagged unions in the server-side compile (issue 30 item 5). A `oneOf` whose every branch is an
// object naming one property (its tag: `op`, `type`, `change`) as required with a `const` or `enum`
// of strings, no value in two branches, is a tagged union. With `allErrors` ajv reports the errors of
// EVERY branch of a plain `oneOf` (about twenty for one wrong field of a register_changes operation);
// ajv's `discriminator` keyword picks the branch by the tag first, so only the errors of the meant
// branch are reported, at their own paths. `discriminator` is OpenAPI, not JSON Schema: it is added
// here, to the schemas the generator compiles, and never to the source files or to what tools/list
// publishes (protocol/src/bundle.ts), which stay standard `oneOf` with a `const` tag per branch.
// Used by generate.mjs and by protocol/test/generated-equivalence.test.ts (the reference compile).

/**
 * Adds `discriminator: { propertyName }` to every tagged `oneOf` of a normalized schema set
 * (schema-refs.mjs normalize(): `roots` key -> schema, `defs` id -> { schema }), in place, and
 * returns the number of unions tagged. A branch may be a `$ref` to a normalized definition.
 * @throws Error when a `oneOf` carries a `discriminator` already (sources must not use it)
 */
export function addDiscriminators(normalized) {
  const byId = new Map();
  for (const def of normalized.defs.values()) byId.set(def.schema.$id, def.schema);
  for (const root of normalized.roots.values()) byId.set(root.$id, root);
  const resolve = (branch) => (typeof branch?.$ref === 'string' && Object.keys(branch).length === 1 ? byId.get(branch.$ref) : branch);
  let tagged = 0;
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node.oneOf)) {
      if ('discriminator' in node) throw new Error('a source schema uses the OpenAPI discriminator keyword; tagged unions are found by the generator');
      const tag = unionTag(node.oneOf.map(resolve));
      if (tag !== null) {
        node.discriminator = { propertyName: tag };
        tagged++;
      }
    }
    for (const value of Object.values(node)) visit(value);
  };
  for (const def of normalized.defs.values()) visit(def.schema);
  for (const root of normalized.roots.values()) visit(root);
  return tagged;
}

/** The tag property shared by every branch (first in name order), or null when the branches are not a tagged union. */
function unionTag(branches) {
  if (branches.length < 2 || branches.some((b) => b === undefined || b === null || typeof b !== 'object')) return null;
  const candidates = Object.keys(branches[0].properties ?? {}).sort();
  for (const name of candidates) {
    const seen = new Set();
    const ok = branches.every((b) => {
      const values = tagValues(b, name);
      if (values === null || values.some((v) => seen.has(v))) return false;
      values.forEach((v) => seen.add(v));
      return true;
    });
    if (ok) return name;
  }
  return null;
}

/** The string values a branch allows for property `name` when it requires it, else null. */
function tagValues(branch, name) {
  if (!Array.isArray(branch.required) || !branch.required.includes(name)) return null;
  const property = branch.properties?.[name];
  if (property === undefined || property === null || typeof property !== 'object') return null;
  const values = 'const' in property ? [property.const] : Array.isArray(property.enum) ? property.enum : null;
  return values !== null && values.length > 0 && values.every((v) => typeof v === 'string') ? values : null;
}
