/**
 * The answer side of the worker's API: each route's 200 answer is declared by the title of its
 * protocol schema (protocol/schemas/viewer/v2/api/*.schema.json), and the serializer fastify
 * compiles for it checks the answer with protocol's precompiled validator before writing it as JSON.
 * An answer that fails its schema is a defect: it never reaches the browser (500 `internal_error`,
 * logged with the schema's complaints).
 */
import type { FastifySerializerCompiler } from 'fastify';
import {
  describeValidationErrors, validateGraphBrowserFilter, validateGraphBrowserGraph, validateGraphBrowserLogic, validateGraphBrowserNode,
  validateGraphBrowserOverview, validateGraphBrowserSearch, validateGraphBrowserSource, validateGraphBrowserStatus, type SchemaValidator,
} from '@docforge/protocol';

/** Protocol's validator of each API answer, by the title of its schema. */
const ANSWER_VALIDATORS = {
  GraphBrowserOverview: validateGraphBrowserOverview,
  GraphBrowserStatus: validateGraphBrowserStatus,
  GraphBrowserSearch: validateGraphBrowserSearch,
  GraphBrowserFilter: validateGraphBrowserFilter,
  GraphBrowserNode: validateGraphBrowserNode,
  GraphBrowserGraph: validateGraphBrowserGraph,
  GraphBrowserLogic: validateGraphBrowserLogic,
  GraphBrowserSource: validateGraphBrowserSource,
} as const satisfies Record<string, SchemaValidator<unknown>>;

/** The title of an answer schema in protocol/schemas/viewer/v2/api. */
export type AnswerTitle = keyof typeof ANSWER_VALIDATORS;

/** The route `response` entry of an answer: its protocol schema, named by title. */
export interface AnswerSchema {
  readonly title: AnswerTitle;
  readonly $comment: string;
}

/** The `response` schema of a route whose 200 answer is the protocol schema `title`. */
export function answerSchema(title: AnswerTitle): { 200: AnswerSchema } {
  return { 200: { title, $comment: `validated by @docforge/protocol validate${title}` } };
}

/** The thrown error of an answer that fails its protocol schema (a defect; the error handler answers 500). */
export class AnswerSchemaError extends Error {
  constructor(readonly title: string, readonly problems: { path: string; message: string }[]) {
    super(`The ${title} answer fails its protocol schema: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`);
    this.name = 'AnswerSchemaError';
  }
}

/**
 * Fastify's serializer compiler for the API routes: a route's declared answer is checked with
 * protocol's validator, then written with JSON.stringify (the bytes fastify writes without a schema).
 * @throws Error at route registration when a route declares a response schema that names no protocol answer
 */
export const answerSerializer: FastifySerializerCompiler<unknown> = ({ schema, url }) => {
  const title = typeof schema === 'object' && schema !== null && 'title' in schema ? String(schema.title) : '';
  if (!Object.hasOwn(ANSWER_VALIDATORS, title)) throw new Error(`The route ${url} declares an answer schema that names no protocol schema (${JSON.stringify(title)}).`);
  const validate: SchemaValidator<unknown> = ANSWER_VALIDATORS[title as AnswerTitle];
  return (data: unknown): string => {
    if (!validate(data)) throw new AnswerSchemaError(title, describeValidationErrors(validate.errors, 5));
    return JSON.stringify(data);
  };
};
