/** One validation failure as ajv reports it (the fields DocForge reads). */
export interface SchemaValidationError {
  /** JSON Pointer of the failing value, '' for the document itself. */
  instancePath: string;
  /** JSON Pointer of the failing keyword inside the schema. */
  schemaPath: string;
  /** The failing keyword, e.g. `required`, `enum`, `additionalProperties`. */
  keyword: string;
  /** Keyword parameters, e.g. `{ allowedValues }` for `enum`, `{ additionalProperty }`. */
  params: Record<string, unknown>;
  message?: string;
}

/**
 * A precompiled (ajv standalone) validator of one protocol schema: a type guard that records why
 * the last call failed in `errors` (null after a success). Never throws.
 */
export interface SchemaValidator<T> {
  (data: unknown): data is T;
  errors?: SchemaValidationError[] | null;
}

/**
 * Formats a validator's errors as short `path: message` lines (at most `max`), naming the allowed
 * values of an enum and the offending property of `additionalProperties`; a tagged union's
 * `discriminator` error is reported at the tag's own path (`/operations/0/op`).
 */
export function describeValidationErrors(errors: readonly SchemaValidationError[] | null | undefined, max = 20): { path: string; message: string }[] {
  return (errors ?? []).slice(0, max).map((e) => {
    let message = e.message ?? 'invalid';
    if (e.keyword === 'additionalProperties' && 'additionalProperty' in e.params) message += `: ${String(e.params.additionalProperty)}`;
    if (e.keyword === 'enum' && Array.isArray(e.params.allowedValues)) message += `: ${e.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    // A tagged union's tag (issue 30 item 5): ajv's discriminator names the tag, not the path to it.
    if (e.keyword === 'discriminator' && typeof e.params.tag === 'string') {
      const tag = e.params.tag;
      const at = `${e.instancePath}/${tag.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      return { path: at, message: e.params.error === 'mapping' ? `names no variant of the union: ${JSON.stringify(e.params.tagValue)}` : 'must be a string naming the variant' };
    }
    return { path: e.instancePath || '/', message };
  });
}
