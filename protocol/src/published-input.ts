/**
 * The form in which `tools/list` publishes a tool's input schema (issue 30 item 13: name,
 * description and input schema are what a client puts in the model's context). It validates
 * exactly what its bundled source validates: only where a local definition is written at its uses,
 * and where a tagged union states a tag rule that each of its branches already states.
 */
import { withCheapDefsInline } from './published-defs.js';

/**
 * The published form of a bundled input schema (the bundle of `v1/tools/<tool>.input.schema.json`,
 * without `$schema`): every keyword kept, descriptions included (they are what a model reads to
 * call the tool), each definition written at its uses where that is not longer than the
 * definition and its references ({@link withCheapDefsInline}; 854 characters over the
 * proposal tools), and a tagged union without the tag rule its branches imply
 * ({@link withoutImpliedTagRule}). The branches of a tagged union (`oneOf`) and the union itself
 * stay named definitions, so the published union reads as its named operations (issue 30 item 5).
 */
export function publishedInput(schema: Record<string, unknown>): Record<string, unknown> {
  return withCheapDefsInline(withoutImpliedTagRule(schema), unionDefs(schema));
}

/**
 * A copy of `schema` in which each `$defs` entry of the exact form
 * `{type: 'object', required: [T], properties: {T: {enum: V}}, oneOf: [local $refs]}` keeps only its
 * `oneOf` when every branch is a local definition with `type: 'object'`, `T` in its `required` and a
 * string `const` at `properties.T`, and those constants are exactly the values `V`. A value matches
 * the `oneOf` only through one branch, which already makes it an object with `T` present and equal
 * to one of `V`; so the rule stated before the `oneOf` refuses nothing more and accepts the same
 * values (the changeset operation union: about 130 characters in each of `register_changes` and
 * `create_changeset`). The generated validators of the server keep the rule, whose errors name the
 * tag (issue 30 item 5); this touches only what `tools/list` publishes.
 */
export function withoutImpliedTagRule(schema: Record<string, unknown>): Record<string, unknown> {
  const defs = schema.$defs as Record<string, Record<string, unknown>> | undefined;
  if (defs === undefined) return schema;
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, body] of Object.entries(defs)) out[name] = tagRuleImplied(body, defs) ? { oneOf: body.oneOf } : body;
  return { ...schema, $defs: out };
}

/** Whether `body` is a tag rule plus a `oneOf` whose local branches each state that rule for one value (see {@link withoutImpliedTagRule}). */
function tagRuleImplied(body: Record<string, unknown>, defs: Record<string, Record<string, unknown>>): boolean {
  const { type, required, properties, oneOf, ...rest } = body;
  if (Object.keys(rest).length > 0 || type !== 'object' || !Array.isArray(required) || required.length !== 1 || !Array.isArray(oneOf)) return false;
  const tag = required[0] as string;
  const props = (properties ?? {}) as Record<string, Record<string, unknown>>;
  const rule = props[tag];
  if (Object.keys(props).length !== 1 || rule === undefined || Object.keys(rule).join() !== 'enum' || !Array.isArray(rule.enum)) return false;
  const values: string[] = [];
  for (const branch of oneOf as { $ref?: unknown }[]) {
    const ref = typeof branch?.$ref === 'string' && Object.keys(branch).length === 1 ? branch.$ref : '';
    const target = ref.startsWith('#/$defs/') ? defs[ref.slice('#/$defs/'.length)] : undefined;
    const tagSchema = (target?.properties as Record<string, { const?: unknown }> | undefined)?.[tag];
    if (target === undefined || target.type !== 'object' || !(target.required as unknown[] | undefined)?.includes(tag)) return false;
    if (typeof tagSchema?.const !== 'string') return false;
    values.push(tagSchema.const);
  }
  const allowed = rule.enum as unknown[];
  return values.length === allowed.length && new Set(values).size === values.length && values.every((v) => allowed.includes(v));
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
