/**
 * The form in which `tools/list` publishes a tool's input schema (issue 30 item 13: name,
 * description and input schema are what a client puts in the model's context). It validates
 * exactly what its bundled source validates: only where a local definition is written at its uses.
 */
import { withCheapDefsInline } from './published-defs.js';

/**
 * The published form of a bundled input schema (the bundle of `v1/tools/<tool>.input.schema.json`,
 * without `$schema`): every keyword kept, descriptions included (they are what a model reads to
 * call the tool), and each definition written at its uses where that is not longer than the
 * definition and its references ({@link withCheapDefsInline}; 854 characters over the
 * proposal tools). The branches of a tagged union (`oneOf`) and the union itself stay named
 * definitions, so the published union reads as its named operations (issue 30 item 5).
 */
export function publishedInput(schema: Record<string, unknown>): Record<string, unknown> {
  return withCheapDefsInline(schema, unionDefs(schema));
}

/** The `$defs` names that hold a `oneOf` or are referenced as one of its branches. */
function unionDefs(schema: Record<string, unknown>): Set<string> {
  const defs = (schema.$defs ?? {}) as Record<string, Record<string, unknown>>;
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (Array.isArray(record.oneOf)) {
      for (const branch of record.oneOf as { $ref?: unknown }[]) {
        if (typeof branch?.$ref === 'string' && branch.$ref.startsWith('#/$defs/')) names.add(branch.$ref.slice('#/$defs/'.length));
      }
    }
    Object.values(record).forEach(walk);
  };
  walk(schema);
  for (const [name, body] of Object.entries(defs)) if (Array.isArray(body.oneOf)) names.add(name);
  return names;
}
