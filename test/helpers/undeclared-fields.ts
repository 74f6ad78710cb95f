// Issue 30 item 13: output schemas "still describe every field the tool returns". This walks a real
// result beside its tool's bundled output schema (local `$defs` only) and lists every object key the
// schema does not declare. A key counts as declared when a schema that applies at that point names
// it in `properties`, matches it with `patternProperties`, or gives `additionalProperties` a schema
// (a map whose keys are data, such as counts by kind).

type Schema = Record<string, unknown>;

/** The schemas that apply at one point: the schema itself plus everything reachable through `$ref`, `allOf`, `anyOf`, `oneOf` and `if`/`then`/`else`. */
function applicable(schema: unknown, defs: Record<string, unknown>, out: Schema[] = [], seen = new Set<unknown>()): Schema[] {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || seen.has(schema)) return out;
  seen.add(schema);
  const s = schema as Schema;
  out.push(s);
  if (typeof s.$ref === 'string' && s.$ref.startsWith('#/$defs/')) applicable(defs[s.$ref.slice('#/$defs/'.length)], defs, out, seen);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(s[key])) for (const sub of s[key] as unknown[]) applicable(sub, defs, out, seen);
  for (const key of ['if', 'then', 'else'] as const) applicable(s[key], defs, out, seen);
  return out;
}

/**
 * Every object key path in `value` (`/result/items/0/copies`) that `schema` does not declare.
 * `schema` is a bundled JSON Schema whose `$ref`s point into its own `$defs`. Arrays are walked through
 * `items`; keys with dynamic names are accepted where `additionalProperties` is a schema.
 */
export function undeclaredFields(schema: Schema, value: unknown): string[] {
  const defs = (schema.$defs ?? {}) as Record<string, unknown>;
  const found: string[] = [];
  const walk = (schemas: Schema[], v: unknown, at: string): void => {
    if (Array.isArray(v)) {
      const itemSchemas = schemas.flatMap((s) => (s.items !== undefined && !Array.isArray(s.items) ? applicable(s.items, defs) : []));
      v.forEach((item, i) => walk(itemSchemas, item, `${at}/${i}`));
      return;
    }
    if (v === null || typeof v !== 'object') return;
    for (const [key, child] of Object.entries(v as Record<string, unknown>)) {
      const named = schemas.flatMap((s) => {
        const props = s.properties as Record<string, unknown> | undefined;
        return props !== undefined && Object.hasOwn(props, key) ? applicable(props[key], defs) : [];
      });
      const patterned = schemas.flatMap((s) => Object.entries((s.patternProperties ?? {}) as Record<string, unknown>).filter(([p]) => new RegExp(p, 'u').test(key)).flatMap(([, sub]) => applicable(sub, defs)));
      const extra = schemas.flatMap((s) => (s.additionalProperties !== undefined && typeof s.additionalProperties === 'object' ? applicable(s.additionalProperties, defs) : []));
      const childSchemas = [...named, ...patterned, ...(named.length + patterned.length === 0 ? extra : [])];
      if (childSchemas.length === 0) {
        found.push(`${at}/${key}`);
        continue;
      }
      walk(childSchemas, child, `${at}/${key}`);
    }
  };
  walk(applicable(schema, defs), value, '');
  return found;
}
