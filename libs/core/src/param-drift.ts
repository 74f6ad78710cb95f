/**
 * `drift_parameters` (issue 32 item 2): a doc section's parameter list (param-lists.ts) compared
 * with the parameters the documented function declares. The code adapters record a function's
 * parameters in its signature, the node's `summary` (`async function f(a: T, b = 1): R`,
 * `Ledger.capture(paymentId, amount)`, `def f(self, a, *args) -> T — doc`); that is read here, so
 * the node model needs no new field. A signature cut short (`…`) is not compared.
 */
import type { Anchor, GraphNode, SourceIssue } from './model.js';
import type { ParameterList } from './param-lists.js';

/** Code kinds whose signature lists parameters. */
const CALLABLE_KINDS = new Set(['function', 'method']);
/** Parameters a caller never passes by name: the receiver (`self`, `cls`, TypeScript's `this`) and Python's `/`, `*` markers. */
const IMPLICIT = new Set(['this', 'self', 'cls', '', '/', '*']);
/** Parameter names that hold an options object. */
const OPTIONS_PARAMETER = /^(opts|options|config|configuration|settings|props|params|init)$/i;
const OPEN = '([{<';
const CLOSE = ')]}>';

/** The top-level parenthesised parameter text of a signature, or null when it is cut short or absent. */
function parameterText(summary: string): string | null {
  let depth = 0;
  let start = -1;
  for (let i = 0; i < summary.length; i += 1) {
    const c = summary[i]!;
    if (c === '>' && summary[i - 1] === '=') continue;
    if (OPEN.includes(c)) {
      if (c === '(' && depth === 0) start = i + 1;
      depth += 1;
    } else if (CLOSE.includes(c)) {
      depth -= 1;
      if (depth === 0 && c === ')' && start >= 0) return summary.slice(start, i);
    }
  }
  return null;
}

/**
 * The declared parameter names of a signature summary, in order: null entries for destructured
 * parameters (`{ a, b }: Opts`), rest and keyword parameters by name (`...rest`, `*args`); the
 * receiver and Python's markers are left out. Null when the signature has no complete list.
 */
export function signatureParameters(summary: string): (string | null)[] | null {
  const text = parameterText(summary);
  if (text === null) return null;
  const out: (string | null)[] = [];
  let depth = 0;
  let current = '';
  const flush = (): void => {
    const raw = current.trim().replace(/^(?:@\w+\s+)*/, '').replace(/^(?:(?:public|private|protected|readonly|override)\s+)+/, '');
    current = '';
    if (raw.startsWith('{') || raw.startsWith('[')) return void out.push(null);
    const name = /^(?:\.\.\.|\*{1,2})?([A-Za-z_$][\w$]*)/.exec(raw)?.[1] ?? raw;
    if (!IMPLICIT.has(name)) out.push(name);
  };
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === '>' && text[i - 1] === '=') {
      current += c;
      continue;
    }
    if (OPEN.includes(c)) depth += 1;
    else if (CLOSE.includes(c)) depth -= 1;
    if (c === ',' && depth === 0) flush();
    else current += c;
  }
  if (current.trim() !== '') flush();
  return out;
}

/**
 * The `drift_parameters` warning of one parameter list whose function resolved to `target`, or
 * null: not a function or method, signature unknown, an `Options` list of a function that takes an
 * options object (destructured, or named `options`, `opts`, `config`, ...), no listed name among the
 * declared ones (the list then describes something else, such as an options object's fields), or
 * no difference.
 * Extra listed names are not reported when a parameter is destructured (its fields may be listed).
 */
export function parameterDriftIssue(list: ParameterList, line: number, section: string | null, fromId: string, sourcePath: string, target: GraphNode): SourceIssue | null {
  if (!CALLABLE_KINDS.has(target.kind)) return null;
  const declared = signatureParameters(target.summary);
  if (declared === null) return null;
  // An `Options` list of a function taking an options object lists that object's fields.
  if (list.options === true && declared.some((n) => n === null || OPTIONS_PARAMETER.test(n))) return null;
  const named = declared.filter((n): n is string => n !== null);
  if (!list.names.some((n) => named.includes(n))) return null;
  const missing = named.filter((n) => !list.names.includes(n));
  const extra = declared.includes(null) ? [] : list.names.filter((n) => !named.includes(n));
  if (missing.length === 0 && extra.length === 0) return null;
  const parts = [...(missing.length > 0 ? [`not listed: ${missing.join(', ')}`] : []), ...(extra.length > 0 ? [`not declared: ${extra.join(', ')}`] : [])];
  return {
    severity: 'warning',
    code: 'drift_parameters',
    message: `${sourcePath}:${line}: section "${section ?? '(top)'}" lists the parameters of ${target.id} as (${list.names.join(', ')}), which declares (${declared.map((n) => n ?? '{…}').join(', ')}): ${parts.join('; ')}`,
    path: sourcePath,
    line,
    node_id: fromId,
  };
}

/** The slug of the innermost section holding `line`, or null before the first heading. */
export function sectionAt(anchors: readonly Anchor[], line: number): string | null {
  let best: Anchor | null = null;
  for (const a of anchors) if (a.line <= line && line <= a.end_line && (best === null || a.line >= best.line)) best = a;
  return best?.slug ?? null;
}
