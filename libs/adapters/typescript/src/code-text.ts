/**
 * The TypeScript/JavaScript code text (issue 31 item 1; @docforge/core `collectCodeText`): the words
 * inside function, method and class bodies and a module's top level, without the language's
 * keywords. Declaration files (`.d.ts`) have no bodies: their declarations' signatures and doc
 * comments are already their nodes' summaries and bodies, so they get none.
 */
import { collectCodeText, definedConstants, documentedNames, withDocumentedNames, type CodeExtractInput, type CodeTextOptions, type NodeCodeText, type ParsedSource } from '@docforge/core';
import { isDeclarationPath } from './paths.js';

/** Reserved and contextual keywords and literal keywords of JavaScript and TypeScript (never searchable code text). */
const TS_KEYWORDS: ReadonlySet<string> = new Set([
  'abstract', 'as', 'async', 'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'declare', 'default',
  'delete', 'do', 'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'from', 'function', 'if', 'implements',
  'import', 'in', 'infer', 'instanceof', 'interface', 'is', 'keyof', 'let', 'namespace', 'new', 'null', 'of', 'private',
  'protected', 'public', 'readonly', 'return', 'satisfies', 'static', 'super', 'switch', 'this', 'throw', 'true', 'try',
  'type', 'typeof', 'undefined', 'var', 'void', 'while', 'with', 'yield',
]);

const OPTIONS: CodeTextOptions = Object.freeze({ owners: new Set(['module', 'class', 'function', 'method']), keywords: TS_KEYWORDS });

/**
 * The code text of an extracted file's nodes: none for a declaration file. A node's words also
 * carry what the file's own doc comments say about the options and properties it reads
 * (@docforge/core documented-names.ts) and what the file's top-level literal constants it reads
 * state (defined-constants.ts: their literals and the comment above them); its lines (the excerpts)
 * are the source's only.
 */
export function typeScriptCodeText(input: Pick<CodeExtractInput, 'path' | 'content'>, nodes: ParsedSource['nodes']): NodeCodeText[] {
  if (isDeclarationPath(input.path)) return [];
  const texts = collectCodeText(input.content, nodes, OPTIONS);
  const names = documentedNames(input.content);
  for (const [name, words] of definedConstants(input.content)) names.set(name, [...(names.get(name) ?? []), ...words.filter((w) => !(names.get(name) ?? []).includes(w))]);
  return names.size === 0 ? texts : texts.map((t) => ({ ...t, words: withDocumentedNames(t.words, names) }));
}
