/**
 * @docforge/ts-lexer: the hand-written JavaScript/TypeScript tokenizer behind the TypeScript
 * adapter's `lexical` strategy (no syntax tree, no compiler API). Split out of the adapter by
 * concern (issue 31): the adapter keeps extraction and linking, this lib the token scanner.
 */
export { lexTokens } from './lexer.js';
export type { LexToken } from './lexer.js';
