/**
 * Statement-level Logic (control-flow projection) of one function body over a tree-sitter tree,
 * shared by every language of the family; the language names its control structures in a
 * {@link LogicSpec}. Same step and flow vocabulary as the TypeScript adapter's logic.ts.
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { LogicFlow, LogicStep } from '@docforge/core';
import type { LogicSpec } from './spec.js';
import { collapse, endLine, line, named } from './tree.js';

/** Longest step label, in characters. */
const LABEL_MAX = 120;

/** A flow whose source is known and whose target is the next thing built. */
interface Pending {
  from: number;
  kind: string;
  label: string;
}

/** An enclosing loop or switch: where `break` (and, for loops, `continue`) go. */
interface Target {
  loop: boolean;
  step: number;
  breaks: Pending[];
}

function label(text: string): string {
  const first = collapse(text.split('\n')[0] ?? '');
  return first.length <= LABEL_MAX ? first : `${first.slice(0, LABEL_MAX - 1)}…`;
}

function statementsOf(node: SyntaxNode, spec: LogicSpec): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const child of named(node)) {
    if (/comment/.test(child.type)) continue;
    if (spec.blocks.has(child.type)) out.push(...statementsOf(child, spec));
    else out.push(child);
  }
  return out;
}

class LogicBuilder {
  readonly steps: LogicStep[] = [];
  readonly flows: LogicFlow[] = [];
  readonly exitIn: Pending[] = [];
  readonly targets: Target[] = [];
  /** Pending throws of the innermost try with catch clauses, or null. */
  catchIn: Pending[] | null = null;

  constructor(readonly spec: LogicSpec, readonly ownerId: string, readonly source: string) {}

  /** The first line of a node's source text, read from the file text without materialising the node's whole text. */
  head(node: SyntaxNode): string {
    const newline = this.source.indexOf('\n', node.startIndex);
    return this.source.slice(node.startIndex, newline < 0 || newline > node.endIndex ? node.endIndex : newline);
  }

  addStep(kind: string, text: string, node: SyntaxNode): number {
    const step = this.steps.length;
    this.steps.push({ owner_id: this.ownerId, step, kind, label: label(text), start_line: line(node), end_line: endLine(node) });
    return step;
  }

  connect(pending: readonly Pending[], to: number, contextKind = 'sequence'): void {
    for (const p of pending) {
      this.flows.push({ owner_id: this.ownerId, from_step: p.from, to_step: to, kind: p.kind === 'sequence' ? contextKind : p.kind, label: p.label });
    }
  }

  statements(nodes: readonly SyntaxNode[], pending: Pending[]): Pending[] {
    let out = pending;
    for (const node of nodes) out = this.statement(node, out);
    return out;
  }

  /** The statement a wrapper stands for when it wraps one control structure, else the node itself. */
  unwrap(node: SyntaxNode): SyntaxNode {
    if (!this.spec.wrappers.has(node.type)) return node;
    const inner = named(node).filter((child) => !/comment/.test(child.type));
    const only = inner.length === 1 ? inner[0] : undefined;
    return only === undefined ? node : this.unwrap(only);
  }

  statement(raw: SyntaxNode, pending: Pending[]): Pending[] {
    const spec = this.spec;
    const node = this.unwrap(raw);
    const type = node.type;
    if (spec.blocks.has(type)) return this.statements(statementsOf(node, spec), pending);
    if (spec.ifs.has(type)) return this.ifStatement(node, pending);
    if (spec.loops.has(type)) return this.loop(node, pending);
    if (spec.switches.has(type)) return this.switchStatement(node, pending);
    if (spec.tries.has(type)) return this.tryStatement(node, pending);
    if (spec.returns.has(type)) return this.jump('return', node, pending, this.exitIn);
    if (spec.throws.has(type) || spec.isThrowCall(node)) return this.jump('throw', node, pending, this.catchIn ?? this.exitIn);
    if (spec.breaks.has(type)) {
      const target = this.targets[this.targets.length - 1];
      return this.jump('break', node, pending, target?.breaks ?? this.exitIn);
    }
    if (spec.continues.has(type)) {
      const step = this.addStep('continue', this.head(node), node);
      this.connect(pending, step);
      const loop = [...this.targets].reverse().find((t) => t.loop);
      if (loop !== undefined) this.connect([{ from: step, kind: 'continue', label: '' }], loop.step);
      return [];
    }
    const step = this.addStep('statement', this.head(node), node);
    this.connect(pending, step);
    return [{ from: step, kind: 'sequence', label: '' }];
  }

  jump(kind: string, node: SyntaxNode, pending: Pending[], into: Pending[]): Pending[] {
    const step = this.addStep(kind, this.head(node), node);
    this.connect(pending, step);
    into.push({ from: step, kind, label: '' });
    return [];
  }

  ifStatement(node: SyntaxNode, pending: Pending[]): Pending[] {
    const parts = this.spec.ifParts?.(node) ?? {
      condition: node.childForFieldName('condition'), consequence: node.childForFieldName('consequence'), alternative: node.childForFieldName('alternative'),
    };
    const condition = parts.condition;
    const keyword = this.source.startsWith('unless', node.startIndex) ? 'unless' : 'if';
    const step = this.addStep('branch', `${keyword} ${condition === null ? '' : condition.text}`, node);
    this.connect(pending, step);
    const consequence = parts.consequence;
    const whenTrue = consequence === null ? [{ from: step, kind: 'branch_true', label: '' }] : this.statement(consequence, [{ from: step, kind: 'branch_true', label: '' }]);
    let alternative = parts.alternative;
    if (alternative !== null && this.spec.elses.has(alternative.type)) alternative = named(alternative).find((c) => !/comment/.test(c.type)) ?? null;
    const falsePending: Pending[] = [{ from: step, kind: 'branch_false', label: '' }];
    const whenFalse = alternative === null ? falsePending : this.statement(alternative, falsePending);
    return [...whenTrue, ...whenFalse];
  }

  loop(node: SyntaxNode, pending: Pending[]): Pending[] {
    const body = node.childForFieldName('body');
    const head = this.source.slice(node.startIndex, body === null ? node.endIndex : Math.max(node.startIndex, body.startIndex));
    const step = this.addStep('loop', head.split('\n')[0] ?? '', node);
    this.connect(pending, step);
    const target: Target = { loop: true, step, breaks: [] };
    this.targets.push(target);
    const out = body === null ? [] : this.statement(body, [{ from: step, kind: 'loop_body', label: '' }]);
    this.targets.pop();
    this.connect(out, step, 'loop_back');
    return [{ from: step, kind: 'loop_exit', label: '' }, ...target.breaks];
  }

  casesOf(node: SyntaxNode): SyntaxNode[] {
    const cases: SyntaxNode[] = [];
    const visit = (parent: SyntaxNode, depth: number): void => {
      for (const child of named(parent)) {
        if (this.spec.cases.has(child.type)) cases.push(child);
        else if (depth < 2 && !this.spec.switches.has(child.type)) visit(child, depth + 1);
      }
    };
    visit(node, 0);
    return cases;
  }

  switchStatement(node: SyntaxNode, pending: Pending[]): Pending[] {
    const step = this.addStep('switch', this.head(node), node);
    this.connect(pending, step);
    const target: Target = { loop: false, step, breaks: [] };
    this.targets.push(target);
    const outs: Pending[] = [];
    let carry: Pending[] = [];
    let hasDefault = false;
    for (const kase of this.casesOf(node)) {
      hasDefault ||= this.spec.isDefault(kase);
      const caseText = this.head(kase);
      const caseStep = this.addStep('case', caseText, kase);
      this.connect([{ from: step, kind: 'case', label: label(caseText) }], caseStep);
      this.connect(carry, caseStep);
      const out = this.statements(this.spec.caseBody(kase), [{ from: caseStep, kind: 'sequence', label: '' }]);
      if (this.spec.fallthrough) carry = out;
      else outs.push(...out);
    }
    outs.push(...carry);
    this.targets.pop();
    if (!hasDefault) outs.push({ from: step, kind: 'case', label: 'no match' });
    return [...outs, ...target.breaks];
  }

  tryStatement(node: SyntaxNode, pending: Pending[]): Pending[] {
    const step = this.addStep('try', 'try', node);
    this.connect(pending, step);
    const clauses = named(node);
    const catches = clauses.filter((c) => this.spec.catches.has(c.type));
    const outer = this.catchIn;
    const thrown: Pending[] = [];
    if (catches.length > 0) this.catchIn = thrown;
    const body = node.childForFieldName('body');
    // A try without a body field holds its statements itself (Ruby `begin ... rescue ... ensure ... end`).
    const own = named(node).filter((c) => !/comment/.test(c.type) && !this.spec.catches.has(c.type) && !this.spec.finallys.has(c.type) && !this.spec.elses.has(c.type));
    let outs = body === null ? this.statements(own, [{ from: step, kind: 'sequence', label: '' }]) : this.statement(body, [{ from: step, kind: 'sequence', label: '' }]);
    this.catchIn = outer;
    for (const clause of catches) {
      const catchStep = this.addStep('catch', this.head(clause), clause);
      this.connect([{ from: step, kind: 'catch', label: '' }, ...thrown], catchStep, 'catch');
      const catchBody = clause.childForFieldName('body');
      outs = [...outs, ...(catchBody === null ? [{ from: catchStep, kind: 'sequence', label: '' }] : this.statement(catchBody, [{ from: catchStep, kind: 'sequence', label: '' }]))];
    }
    const fin = clauses.find((c) => this.spec.finallys.has(c.type));
    if (fin === undefined) return outs;
    const finStep = this.addStep('finally', 'finally', fin);
    this.connect(outs, finStep, 'finally');
    const block = named(fin).find((c) => this.spec.blocks.has(c.type));
    const finStatements = block === undefined ? named(fin).filter((c) => !/comment/.test(c.type)) : [block];
    return this.statements(finStatements, [{ from: finStep, kind: 'sequence', label: '' }]);
  }
}

/**
 * Builds the Logic of one function or method: `entry` (step 0, spanning the definition), a step
 * per statement (`statement`, `branch`, `loop`, `switch`, `case`, `try`, `catch`, `finally`,
 * `return`, `throw`, `break`, `continue`), then `exit` on the definition's last line. Flows:
 * `sequence`, `branch_true`/`branch_false`, `loop_body`/`loop_back`/`loop_exit`, `case` (label:
 * the case's first line; `no match` without a default), `break`, `continue`, `return`, `throw`
 * (to an enclosing catch, else to exit), `catch`, `finally`. Labeled break/continue go to the
 * innermost loop or switch, and jumps out of a `try` with `finally` go straight to their target
 * (a simplification the TypeScript builder does not make). Never throws.
 */
export function buildLogic(spec: LogicSpec, ownerId: string, fn: SyntaxNode, body: SyntaxNode, entryLabel: string, source: string): { steps: LogicStep[]; flows: LogicFlow[] } {
  const builder = new LogicBuilder(spec, ownerId, source);
  const entry = builder.addStep('entry', entryLabel, fn);
  const out = builder.statement(body, [{ from: entry, kind: 'sequence', label: '' }]);
  const exit = builder.steps.length;
  const last = endLine(fn);
  builder.steps.push({ owner_id: ownerId, step: exit, kind: 'exit', label: 'exit', start_line: last, end_line: last });
  builder.connect(out, exit);
  builder.connect(builder.exitIn, exit);
  return { steps: builder.steps, flows: builder.flows };
}
