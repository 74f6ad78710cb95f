/**
 * Helpers over tree-sitter syntax trees shared by every language of the family: lines, named
 * children, doc comments, summaries, and syntax error issues.
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import { trimTrailing, withoutTrailingDirective, type SourceIssue } from '@docforge/core';

/** Longest summary kept, in characters (same cap as Markdown summaries). */
const SUMMARY_MAX_CHARS = 400;
/** At most this many syntax_error issues per file; the rest are counted in one extra issue. */
const SYNTAX_ISSUES_MAX = 20;

/** Named children of a node, nulls dropped. */
export function named(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const child of node.namedChildren) if (child !== null) out.push(child);
  return out;
}

/** 1-based first line of a node. */
export function line(node: SyntaxNode): number {
  return node.startPosition.row + 1;
}

/** 1-based last line of a node (a node ending at column 0 ends on the previous line). */
export function endLine(node: SyntaxNode): number {
  const { row, column } = node.endPosition;
  return column === 0 && row > node.startPosition.row ? row : row + 1;
}

/** Whitespace collapsed and trimmed. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Caps a summary at 400 characters. */
export function cap(text: string): string {
  return text.length <= SUMMARY_MAX_CHARS ? text : `${text.slice(0, SUMMARY_MAX_CHARS - 1)}…`;
}

/** The first paragraph of a doc text, whitespace collapsed and capped (a node summary). */
export function firstParagraph(text: string): string {
  return cap(collapse(text.split(/\n\s*\n/)[0] ?? ''));
}

/** Counts the lines of a text the way an editor shows them (a final newline opens no line); at least 1. */
export function countLines(content: string): number {
  const lines = content.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return Math.max(1, lines.length);
}

/**
 * The text of doc comments written as `//`, `///`, `//!`, `#`, `/* *\/` or `/** *\/`, markers and
 * leading `*` removed, lines joined with `\n`, blank edges dropped.
 */
export function cleanComment(texts: readonly string[]): string {
  const lines: string[] = [];
  for (const raw of texts) {
    const text = raw.replace(/\r\n?/g, '\n');
    if (/^\/\*/.test(text)) {
      const opened = text.replace(/^\/\*+!?/, '');
      // The closing `*+/` cut by a trim (/\*+\/$/ rescanned every run of `*`: issue 30).
      const closed = opened.endsWith('/') ? trimTrailing(opened.slice(0, -1), '*') : opened;
      const body = closed.length < opened.length - 1 ? closed : opened;
      for (const part of body.split('\n')) lines.push(part.replace(/^\s*\*(?!\/) ?/, '').trimEnd());
    } else {
      for (const part of text.split('\n')) lines.push(part.replace(/^\s*(\/\/[/!]?|#+) ?/, '').trimEnd());
    }
  }
  while (lines.length > 0 && (lines[0] ?? '').trim() === '') lines.shift();
  while (lines.length > 0 && (lines[lines.length - 1] ?? '').trim() === '') lines.pop();
  return lines.join('\n');
}

/**
 * Magic comments (not documentation): a shebang, `# frozen_string_literal:`, `# encoding:` /
 * `# coding:`, `# -*- ... -*-`, `# typed:`, `# warn_indent:`, `# shareable_constant_value:`.
 */
const MAGIC_COMMENT = /^\s*(#!|#\s*-\*-.*-\*-\s*$|#\s*(frozen_string_literal|encoding|coding|typed|warn_indent|warn_past_scope|shareable_constant_value)\s*:)/i;
/** An RDoc directive standing alone on a doc line (`:nodoc:`, `:stopdoc:`, `:yields: x`, ...). */
const RDOC_DIRECTIVE_LINE = /^\s*:(nodoc|doc|stopdoc|startdoc|enddoc|notnew|not-new|yields|yield|arg|args|category|section|title|main|include|markup|private|public|protected):.*$/;
/** An inherited-doc marker that is the whole doc (PHP `{@inheritDoc}`, Java `{@inheritDoc}`). */
const INHERIT_ONLY = /^\s*\{?@inheritdoc\}?\s*$/i;

/**
 * The doc text of a definition from the comments directly above it: magic comments (see
 * MAGIC_COMMENT) dropped, then {@link cleanComment}, then lines that are only an RDoc directive
 * dropped, lines that are only an inherited-doc marker (`{@inheritDoc}`) dropped; '' when the
 * marker was followed only by tags (`@return ...`): an inherited doc is no doc of its own.
 */
export function docComment(texts: readonly string[]): string {
  const own = texts.filter((text) => !MAGIC_COMMENT.test(text));
  const lines = cleanComment(own).split('\n').filter((part) => !RDOC_DIRECTIVE_LINE.test(part));
  const kept = lines.filter((part) => !INHERIT_ONLY.test(part));
  const doc = kept.join('\n').trim();
  // `{@inheritDoc}` followed only by tags (`@return mixed[]`) has no text of its own either.
  return kept.length < lines.length && (doc === '' || doc.startsWith('@')) ? '' : doc;
}

/** A signature line without a trailing RDoc directive comment (`module Backtrace # :nodoc: all` -> `module Backtrace`). */
export function withoutDirective(signature: string): string {
  return withoutTrailingDirective(signature);
}

/**
 * The comments directly above a node (each ending on the line before the next, the last on the
 * line before `node`), skipping sibling nodes whose type `skip` accepts (Rust attributes, Java
 * annotations). Comment node types are those `isComment` accepts.
 */
export function precedingComments(node: SyntaxNode, isComment: (type: string) => boolean, skip: (type: string) => boolean = () => false): string[] {
  const out: string[] = [];
  let next = node.startPosition.row;
  for (let sibling = node.previousSibling; sibling !== null; sibling = sibling.previousSibling) {
    if (skip(sibling.type)) {
      next = sibling.startPosition.row;
      continue;
    }
    if (!isComment(sibling.type) || endLine(sibling) < next) break;
    out.unshift(sibling.text);
    next = sibling.startPosition.row;
  }
  return out;
}

/**
 * Outermost ERROR and MISSING nodes of a tree with errors, as at most 21 `syntax_error` warnings.
 * Those `artefact` accepts (C/C++: an unexpanded preprocessor construct, cpp-preproc.ts) become at
 * most 21 `unexpanded_preprocessor` infos instead; `content` is the parsed text (its lines are what
 * `artefact` reads).
 */
export function syntaxErrors(root: SyntaxNode, language: string, path: string, moduleId: string, artefact?: SyntaxArtefact, content = ''): SourceIssue[] {
  const found: SyntaxNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as SyntaxNode;
    if (node.isError || node.isMissing) {
      found.push(node);
      continue;
    }
    if (!node.hasError) continue;
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i -= 1) {
      const child = children[i];
      if (child !== null && child !== undefined) stack.push(child);
    }
  }
  if (artefact === undefined) return boundedIssues(found, 'warning', 'syntax_error', `${language} syntax error`, path, moduleId);
  let lines: string[] | null = null;
  const lineAt = (row: number): string => (lines ??= content.split('\n'))[row] ?? '';
  const real: SyntaxNode[] = [];
  const unexpanded: SyntaxNode[] = [];
  for (const node of found) (artefact(node, lineAt) ? unexpanded : real).push(node);
  const note = `${language} parse error at an unexpanded macro or preprocessor conditional (the preprocessor is not run)`;
  return [...boundedIssues(real, 'warning', 'syntax_error', `${language} syntax error`, path, moduleId),
    ...boundedIssues(unexpanded, 'info', 'unexpanded_preprocessor', note, path, moduleId)];
}

/** Decides whether an error node is an artefact of unexpanded source (`lineAt(row)`: the 0-based source line's text). */
export type SyntaxArtefact = (node: SyntaxNode, lineAt: (row: number) => string) => boolean;

/** At most {@link SYNTAX_ISSUES_MAX} issues for error nodes, then one counting the rest. */
function boundedIssues(found: readonly SyntaxNode[], severity: SourceIssue['severity'], code: string, prefix: string, path: string, moduleId: string): SourceIssue[] {
  const issues: SourceIssue[] = found.slice(0, SYNTAX_ISSUES_MAX).map((node) => ({
    severity,
    code,
    message: node.isMissing ? `${prefix}: missing "${node.type}"` : `${prefix} near "${collapse(node.text).slice(0, 60)}"`,
    path,
    line: line(node),
    node_id: moduleId,
  }));
  const extra = found[SYNTAX_ISSUES_MAX];
  if (extra !== undefined) {
    issues.push({ severity, code, message: `${prefix}: ${found.length - SYNTAX_ISSUES_MAX} more after the first ${SYNTAX_ISSUES_MAX}`, path, line: line(extra), node_id: moduleId });
  }
  return issues;
}

/** Identifiers (of the given node types) anywhere under a node, e.g. the names a pattern binds. */
export function identifiersUnder(node: SyntaxNode | null, types: ReadonlySet<string>, out: Set<string>): void {
  if (node === null) return;
  if (types.has(node.type)) {
    out.add(node.text);
    return;
  }
  for (const child of named(node)) identifiersUnder(child, types, out);
}
