/**
 * Local definitions of a published schema written at their uses where that is not longer (issue 30
 * item 13: `tools/list` is what a client loads, often into a model's context). Writing a
 * definition's body in place of its `$ref` changes no validation outcome: the body is the same
 * schema, and a definition whose keywords would clash with a reference's siblings stays.
 */

/**
 * A copy of `schema` in which each `$defs` entry (not referenced from inside itself) whose body
 * written at every use is not longer than the definition and its references replaces its
 * references: `{"type": "object", "$ref": "#/$defs/x"}` becomes the body of `x` merged with its
 * sibling keywords. A definition referenced once always goes (about 50 characters less); a small
 * one (an outlined enum is `{"type":"string"}`) goes at every use. A definition whose keywords
 * would clash with the siblings of a reference stays a definition, and so does every name in
 * `keep`. Repeats until none is left to inline.
 * @param keep definition names that stay definitions whatever they cost
 */
export function withCheapDefsInline(schema: Record<string, unknown>, keep: ReadonlySet<string> = new Set()): Record<string, unknown> {
  let current = schema;
  const kept = new Set<string>(keep);
  for (;;) {
    const defs = (current.$defs ?? {}) as Record<string, Record<string, unknown>>;
    const text = JSON.stringify(current);
    const name = Object.keys(defs).find((n) => {
      const ref = JSON.stringify(`#/$defs/${n}`);
      const body = JSON.stringify(defs[n]);
      if (kept.has(n) || body.includes(ref)) return false;
      const uses = text.split(ref).length - 1;
      return uses === 1 || uses * (body.length - `{"$ref":${ref}}`.length) <= JSON.stringify(n).length + body.length + 2;
    });
    if (name === undefined) return current;
    const inlined = inlineRef(current, `#/$defs/${name}`, defs[name]!);
    if (inlined === null) {
      kept.add(name);
      continue;
    }
    const { [name]: _used, ...rest } = (inlined.$defs ?? {}) as Record<string, unknown>;
    const { $defs: _defs, ...root } = inlined;
    current = Object.keys(rest).length === 0 ? root : { ...root, $defs: rest };
  }
}

/** `node` with the one `{$ref: ref, ...siblings}` replaced by `{...siblings, ...body}`; null when a sibling clashes with `body`. */
function inlineRef(node: Record<string, unknown>, ref: string, body: Record<string, unknown>): Record<string, unknown> | null {
  let clash = false;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    if (record.$ref === ref) {
      const { $ref: _ref, ...siblings } = record;
      for (const [k, v] of Object.entries(siblings)) if (k in body && JSON.stringify(body[k]) !== JSON.stringify(v)) clash = true;
      return { ...siblings, ...body };
    }
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, walk(v)]));
  };
  const out = walk(node) as Record<string, unknown>;
  return clash ? null : out;
}
