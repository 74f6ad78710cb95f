/**
 * The request side of the worker's API: the JSON Schema of each route's query string and node id,
 * compiled by fastify's validator, and the structured `invalid_arguments` error a failing request
 * gets (contract: Visualization boundary; DESIGN.md section 6). protocol/schemas/viewer/v2/api
 * holds the answers' schemas only, so the request schemas are declared here, each parameter next
 * to the sentence its failure reads.
 *
 * Wire rules the schemas encode (unchanged from the hand parser they replace): an unknown
 * parameter is refused (the first one named); a single-valued parameter given twice is refused,
 * never "the first one wins"; an integer is 1 to 9 decimal digits inside its range; lengths count
 * UTF-16 code units.
 */
import type { FastifyRequest, FastifySchema, FastifySchemaValidationError } from 'fastify';
import { errors, type DocforgeError } from '@docforge/core';

/** The part of a request a schema failure is about (fastify's `SchemaErrorDataVar`). */
type RequestPart = 'body' | 'headers' | 'params' | 'querystring';

/** A JSON Schema (draft-07) as fastify's ajv compiles it. */
export type JsonSchema = Record<string, unknown>;

/** One query parameter: its JSON Schema and the sentence a value failing it gets. */
export interface QueryParameter {
  readonly name: string;
  readonly schema: JsonSchema;
  /** The error message of a value that fails `schema` (a repeated single value gets its own). */
  readonly problem: string;
}

/** What every route's query string and path parameters must satisfy, and how failures read. */
export interface RequestShape {
  /** The parameters in the order the checks report them (also the `allowed` list of an unknown one). */
  readonly parameters: readonly QueryParameter[];
  /** Names of parameters that must be present. */
  readonly required?: readonly string[];
  /** Whether the route's path carries a node id (`:id`, one encoded segment). */
  readonly nodeId?: boolean;
}

/** The sentence of a node id that is not one non-empty path segment. */
const NODE_ID_PROBLEM = 'The node id must be one non-empty path segment (encodeURIComponent).';
/** An integer parameter's text: decimal digits only (no sign, exponent, point or spaces). */
const DECIMAL = /^\d{1,9}$/;

/** An integer in [minimum, maximum], `fallback` when absent (none: stays absent). */
export function integerParameter(name: string, minimum: number, maximum: number, fallback?: number): QueryParameter {
  const schema: JsonSchema = { type: 'integer', minimum, maximum };
  if (fallback !== undefined) schema.default = fallback;
  return { name, schema, problem: `${name} must be an integer from ${minimum} to ${maximum}.` };
}

/** Text of 1 to `maxChars` characters once trimmed (surrounding white space does not count). */
export function textParameter(name: string, maxChars: number): QueryParameter {
  // \s is the set String.prototype.trim removes; without the `u` flag [\s\S] counts UTF-16 code units.
  return { name, schema: { type: 'string', pattern: `^\\s*\\S(?:[\\s\\S]{0,${maxChars - 2}}\\S)?\\s*$` }, problem: `${name} must hold 1 to ${maxChars} characters.` };
}

/** Any single text value. */
export function stringParameter(name: string): QueryParameter {
  return { name, schema: { type: 'string' }, problem: `${name} must be given once as text.` };
}

/** A repeatable parameter: 1 to `maxValues` values, each 1 to `maxChars` characters. */
export function valuesParameter(name: string, maxValues: number, maxChars: number): QueryParameter {
  return {
    name,
    schema: { type: 'array', maxItems: maxValues, items: { type: 'string', pattern: `^[\\s\\S]{1,${maxChars}}$` } },
    problem: `${name} takes 1 to ${maxValues} values, each of 1 to ${maxChars} characters.`,
  };
}

/** The fastify route options that validate a request of `shape` (params before query string, as fastify runs them). */
export function requestValidation(shape: RequestShape): {
  schema: Pick<FastifySchema, 'params' | 'querystring'>;
  schemaErrorFormatter: (failures: FastifySchemaValidationError[], part: RequestPart) => Error;
  preValidation: (request: FastifyRequest) => Promise<void>;
} {
  const querystring: JsonSchema = {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(shape.parameters.map((p) => [p.name, p.schema])),
    required: [...(shape.required ?? [])],
  };
  const schema: Pick<FastifySchema, 'params' | 'querystring'> = { querystring };
  if (shape.nodeId === true) {
    schema.params = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 4096 } } };
  }
  return {
    schema,
    schemaErrorFormatter: (failures, part) => (part === 'params' ? errors.invalidArguments(NODE_ID_PROBLEM) : queryError(failures, shape.parameters)),
    preValidation: wireTypes(shape.parameters),
  };
}

/**
 * The query parser yields text, or a list for a repeated name. Before validation, a parameter the
 * schema types `integer` becomes a number when its text is decimal digits, and one it types `array`
 * given once becomes a one-value list; anything else stays as parsed and fails its schema.
 */
function wireTypes(parameters: readonly QueryParameter[]): (request: FastifyRequest) => Promise<void> {
  const integers = parameters.filter((p) => p.schema.type === 'integer').map((p) => p.name);
  const lists = parameters.filter((p) => p.schema.type === 'array').map((p) => p.name);
  return async (request) => {
    const query = request.query as Record<string, unknown>;
    for (const name of integers) {
      const value = query[name];
      if (typeof value === 'string' && DECIMAL.test(value)) query[name] = Number(value);
    }
    for (const name of lists) {
      const value = query[name];
      if (typeof value === 'string') query[name] = [value];
    }
  };
}

/**
 * The one error of a query string that fails its schema, as the checks report it: the first unknown
 * parameter, else the first failing parameter in declared order (a repeated single value, or its problem).
 */
function queryError(failures: readonly FastifySchemaValidationError[], parameters: readonly QueryParameter[]): DocforgeError {
  const unknown = failures.find((f) => f.keyword === 'additionalProperties');
  if (unknown !== undefined) {
    const name = String(unknown.params.additionalProperty);
    return errors.invalidArguments(parameters.length === 0 ? `Unknown query parameter ${JSON.stringify(name)}; this endpoint takes none.` : `Unknown query parameter ${JSON.stringify(name)}; allowed: ${parameters.map((p) => p.name).join(', ')}.`, { parameter: name });
  }
  for (const parameter of parameters) {
    const own = failures.filter((f) => failedParameter(f) === parameter.name);
    if (own.length === 0) continue;
    const repeated = parameter.schema.type !== 'array' && own.some((f) => f.keyword === 'type' && Array.isArray((f as { data?: unknown }).data));
    if (repeated) return errors.invalidArguments(`Query parameter ${JSON.stringify(parameter.name)} is given more than once; give it once.`, { parameter: parameter.name });
    return errors.invalidArguments(parameter.problem, { parameter: parameter.name });
  }
  return errors.invalidArguments('The query string does not fit its schema.', { errors: failures.slice(0, 5).map((f) => `${f.instancePath || '/'} ${f.message ?? f.keyword}`) });
}

/** The parameter a failure is about: a missing required one, or the first segment of its JSON Pointer. */
function failedParameter(failure: FastifySchemaValidationError): string | null {
  if (failure.keyword === 'required') return String(failure.params.missingProperty);
  const segment = failure.instancePath.split('/')[1];
  return segment === undefined ? null : segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
