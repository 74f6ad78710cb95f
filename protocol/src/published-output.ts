/**
 * The form in which `tools/list` publishes a tool's output schema (issue 30 item 13: the list is
 * what a client loads, often into a model's context). The published form declares the same
 * property paths as its bundled source, each with its type and structure, and accepts every value
 * the source accepts; annotations, indirections and validation-only keywords go (third pass:
 * {@link outlineSchema}). The server validates its results with the full generated validators;
 * field documentation stays in the source files under `protocol/schemas`.
 */
import { withCheapDefsInline } from './published-defs.js';
import { outlineSchema } from './published-outline.js';

/**
 * The published form of a bundled output schema (the bundle of
 * `v1/tools/<tool>.output.schema.json`): without annotation keywords, with the response envelope at
 * its root, outlined ({@link outlineSchema}: property names, types and structure, no validation-only
 * keyword), and with each definition written at its uses where that is not longer.
 */
export function publishedOutput(schema: Record<string, unknown>): Record<string, unknown> {
  return withCheapDefsInline(outlineSchema(withEnvelopeInline(withoutAnnotations(schema))));
}

/** The `$defs` name under which a bundled output schema carries the response envelope (`v1/tool-envelope.schema.json`). */
const ENVELOPE_DEF = 'tool-envelope';

/**
 * An output schema of the source form `{type: object, allOf: [{$ref: envelope}], properties: {result}}`
 * with the envelope written at its root and `result` in place of the envelope's open
 * `result: {type: object}` (issue 30 item 13: about 100 characters less per tool). It accepts
 * exactly what the source form accepts: the envelope's keywords are unchanged and the tool's
 * result is the only schema of `result` (typed `object` when it is not typed). Any other shape is
 * returned as it is.
 */
function withEnvelopeInline(schema: Record<string, unknown>): Record<string, unknown> {
  const { type, allOf, properties, $defs, ...rest } = schema;
  const defs = ($defs ?? {}) as Record<string, Record<string, unknown>>;
  const envelope = defs[ENVELOPE_DEF];
  const own = (properties ?? {}) as Record<string, Record<string, unknown>>;
  const refsEnvelope = Array.isArray(allOf) && allOf.length === 1 && (allOf[0] as { $ref?: unknown }).$ref === `#/$defs/${ENVELOPE_DEF}`;
  if (!refsEnvelope || type !== 'object' || envelope === undefined || Object.keys(rest).length > 0 || Object.keys(own).join() !== 'result') return schema;
  const result = own.result!;
  if (result.type !== undefined && result.type !== 'object') return schema;
  if (JSON.stringify(envelope).includes(`"#/$defs/`)) return schema;
  const { [ENVELOPE_DEF]: _envelope, ...otherDefs } = defs;
  const merged = { ...envelope, properties: { ...(envelope.properties as Record<string, unknown>), result: { type: 'object', ...result } } };
  return Object.keys(otherDefs).length === 0 ? merged : { ...merged, $defs: otherDefs };
}

/** Annotation keywords a published output schema leaves out (issue 30 item 13): they validate nothing. */
const OUTPUT_ANNOTATIONS: ReadonlySet<string> = new Set(['description', 'title', '$comment', '$schema']);

/**
 * A copy of an output schema without annotation keywords ({@link OUTPUT_ANNOTATIONS}); property
 * and `$defs` names are kept, so every field the tool returns is still declared with its type and
 * every validation keyword is unchanged (issue 30 item 13: `tools/list` is what a client loads; the
 * field documentation stays in the source files under `protocol/schemas`). The input schema keeps
 * its descriptions: they are what a model reads to call the tool.
 */
function withoutAnnotations(schema: Record<string, unknown>): Record<string, unknown> {
  const strip = (node: unknown, names: boolean): unknown => {
    if (Array.isArray(node)) return node.map((v) => strip(v, false));
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (!names && OUTPUT_ANNOTATIONS.has(k) && typeof v === 'string') continue;
      out[k] = strip(v, !names && (k === 'properties' || k === '$defs' || k === 'definitions'));
    }
    return out;
  };
  return strip(schema, false) as Record<string, unknown>;
}
