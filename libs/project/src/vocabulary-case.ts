/**
 * Case-only variants in an open vocabulary (issue 8 item 7). Kinds, authorities and statuses are
 * exact, case-sensitive strings: `Requirement` and `requirement` are two kinds to every filter.
 * A closed vocabulary (`[vocabulary]` in docforge.toml) already flags the undeclared spelling
 * (`undeclared_kind`, ...); an open one accepts both silently, so this check names them.
 */
import type { GraphNode, SourceIssue } from '@docforge/core';
import type { Descriptor } from './descriptor-types.js';

type Field = 'kind' | 'authority' | 'status';

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Spelling {
  value: string;
  nodes: GraphNode[];
}

/**
 * The spelling others are measured against: the most used one, then the one that is its own
 * lowercase form, then the first in code-unit order.
 */
function preferred(spellings: readonly Spelling[]): Spelling {
  return [...spellings].sort((a, b) =>
    b.nodes.length - a.nodes.length ||
    Number(b.value === b.value.toLowerCase()) - Number(a.value === a.value.toLowerCase()) ||
    compare(a.value, b.value))[0] as Spelling;
}

function nodeOrder(a: GraphNode, b: GraphNode): number {
  return compare(a.source_path, b.source_path) || a.start_line - b.start_line || compare(a.id, b.id);
}

/**
 * Warnings `vocabulary_case_mismatch` for values of `kind`, `authority` and `status` that differ
 * only in case (Unicode lowercase) from another value of the same field in `nodes`, for each field
 * whose vocabulary is open (`[vocabulary]` list omitted). Every node using a spelling other than
 * the preferred one (the most used; ties: the all-lowercase one, then code-unit order) gets one
 * warning at its source line naming both spellings and the preferred spelling's count and first
 * node. Deterministic; linear in `nodes` apart from sorting the variants.
 */
export function vocabularyCaseIssues(nodes: readonly GraphNode[], descriptor: Descriptor): SourceIssue[] {
  const issues: SourceIssue[] = [];
  const fields: [Field, string[] | null][] = [
    ['kind', descriptor.vocabulary.kinds],
    ['authority', descriptor.vocabulary.authorities],
    ['status', descriptor.vocabulary.statuses],
  ];
  for (const [field, closed] of fields) {
    if (closed !== null) continue;
    // Nodes per spelling first (few distinct values), then spellings per case-folded value: the
    // same groups, in the same order of first occurrence, without folding every node's value.
    const bySpelling = new Map<string, GraphNode[]>();
    for (const node of nodes) {
      const value = node[field];
      if (value === null) continue;
      const list = bySpelling.get(value);
      if (list === undefined) bySpelling.set(value, [node]);
      else list.push(node);
    }
    const groups = new Map<string, Map<string, GraphNode[]>>();
    for (const [value, list] of bySpelling) {
      const folded = value.toLowerCase();
      let group = groups.get(folded);
      if (group === undefined) groups.set(folded, (group = new Map()));
      group.set(value, list);
    }
    for (const group of groups.values()) {
      if (group.size < 2) continue;
      const spellings = [...group].map(([value, users]) => ({ value, nodes: users.sort(nodeOrder) }));
      const main = preferred(spellings);
      const example = main.nodes[0] as GraphNode;
      for (const variant of spellings) {
        if (variant === main) continue;
        for (const node of variant.nodes) {
          const where = `${node.source_path}:${node.start_line}`;
          issues.push({
            severity: 'warning',
            code: 'vocabulary_case_mismatch',
            message: `${where}: ${field} "${variant.value}" of node "${node.id}" differs only in case from ${field} "${main.value}" (${main.nodes.length} node${main.nodes.length === 1 ? '' : 's'}, e.g. "${example.id}"); ${field} values are case-sensitive, so filters see two different values`,
            path: node.source_path,
            line: node.start_line,
            node_id: node.id,
          });
        }
      }
    }
  }
  return issues;
}
