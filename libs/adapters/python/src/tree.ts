/**
 * Helpers over the tree-sitter Python syntax tree for the AST strategy: lines, docstrings,
 * assignment targets, parameters, dotted names, the `__main__` guard and syntax error issues.
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import { appendAll, type SourceIssue } from '@docforge/core';
import { collapse, cap, cleanDoc, isMainGuardText } from './module-facts.js';

/** At most this many syntax_error issues per file; the rest are counted in one extra issue. */
const SYNTAX_ISSUES_MAX = 20;

export function named(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const child of node.namedChildren) if (child !== null) out.push(child);
  return out;
}

export function line(node: SyntaxNode): number {
  return node.startPosition.row + 1;
}

export function endLine(node: SyntaxNode): number {
  const { row, column } = node.endPosition;
  // A node ending at column 0 ends on the previous line (its trailing newline belongs to it).
  return column === 0 && row > node.startPosition.row ? row : row + 1;
}

/** The text of a Python string literal without prefix and quotes, or null for f-strings and oddities. */
export function stringValue(node: SyntaxNode): string | null {
  if (node.type !== 'string') return null;
  const match = /^([rRuUbB]*)("""|'''|"|')([\s\S]*)\2$/.exec(node.text);
  if (match === null) return null;
  return match[3] ?? '';
}

/** The docstring of a module or a block: its first statement when that is a plain string literal. */
export function docstring(container: SyntaxNode | null): string {
  if (container === null) return '';
  for (const child of named(container)) {
    if (child.type === 'comment') continue;
    if (child.type !== 'expression_statement') return '';
    const parts = named(child);
    const only = parts.length === 1 ? parts[0] : undefined;
    if (only === undefined) return '';
    const value = stringValue(only);
    return value === null ? '' : cleanDoc(value);
  }
  return '';
}

/** Names bound by an assignment-like target (`a`, `a, b`, `[a, *b]`); attributes and subscripts bind nothing. */
export function collectTargets(target: SyntaxNode | null, out: Set<string>): void {
  if (target === null) return;
  const stack = [target];
  while (stack.length > 0) {
    const node = stack.pop() as SyntaxNode;
    if (node.type === 'identifier') out.add(node.text);
    else if (/^(pattern_list|tuple_pattern|list_pattern|list_splat_pattern|parenthesized_expression|tuple|list|as_pattern_target|expression_list)$/.test(node.type)) {
      appendAll(stack, named(node));
    }
  }
}

/** Parameter names of a `parameters` or `lambda_parameters` node. */
export function parameterNames(params: SyntaxNode | null): string[] {
  if (params === null) return [];
  const names: string[] = [];
  for (const param of named(params)) {
    if (param.type === 'identifier') names.push(param.text);
    else if (param.type === 'default_parameter' || param.type === 'typed_default_parameter') {
      const name = param.childForFieldName('name');
      if (name !== null) names.push(name.text);
    } else if (/^(typed_parameter|list_splat_pattern|dictionary_splat_pattern)$/.test(param.type)) {
      const name = named(param).find((child) => child.type === 'identifier' || /splat_pattern$/.test(child.type));
      if (name !== undefined) names.push(name.type === 'identifier' ? name.text : (named(name)[0]?.text ?? ''));
    }
  }
  return names.filter((name) => name !== '');
}

/** `name(params) -> ret` with each parameter on one line and comments dropped. */
export function parameterList(params: SyntaxNode | null): string {
  if (params === null) return '()';
  return `(${named(params).filter((p) => p.type !== 'comment').map((p) => collapse(p.text)).join(', ')})`;
}

/** Dotted path of a callee or base expression, or null when it is not a plain dotted name. */
export function dottedPath(node: SyntaxNode | null): string[] | null {
  if (node === null) return null;
  if (node.type === 'identifier') return [node.text];
  if (node.type === 'attribute') {
    const object = node.childForFieldName('object');
    const attribute = node.childForFieldName('attribute');
    if (object === null || attribute === null) return null;
    if (object.type === 'call') {
      const fn = object.childForFieldName('function');
      const args = object.childForFieldName('arguments');
      if (fn?.type === 'identifier' && fn.text === 'super' && args !== null && named(args).length === 0) {
        return ['<super>', attribute.text];
      }
      return null;
    }
    const head = dottedPath(object);
    return head === null ? null : [...head, attribute.text];
  }
  return null;
}

export function isMainGuard(condition: SyntaxNode | null): boolean {
  return condition !== null && isMainGuardText(condition.text);
}

/** Outermost ERROR and MISSING nodes of a tree that has errors, in document order. */
export function syntaxErrors(root: SyntaxNode, path: string, moduleId: string): SourceIssue[] {
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
  const issues: SourceIssue[] = found.slice(0, SYNTAX_ISSUES_MAX).map((node) => ({
    severity: 'warning',
    code: 'syntax_error',
    message: node.isMissing
      ? `Python syntax error: missing "${node.type}"`
      : `Python syntax error near "${cap(collapse(node.text)).slice(0, 60)}"`,
    path,
    line: line(node),
    node_id: moduleId,
  }));
  const extra = found[SYNTAX_ISSUES_MAX];
  if (extra !== undefined) {
    issues.push({
      severity: 'warning',
      code: 'syntax_error',
      message: `Python syntax error: ${found.length - SYNTAX_ISSUES_MAX} more syntax errors after the first ${SYNTAX_ISSUES_MAX}`,
      path,
      line: line(extra),
      node_id: moduleId,
    });
  }
  return issues;
}
