import './prime.js';
import ts from './compiler-api.js';
import { appendAll, type LogicFlow, type LogicStep } from '@docforge/core';
import { headText, lineAt, nodeLines, nodeText, oneLine } from './syntax.js';

/** Statement-level Logic of one function or method. */
export interface FunctionLogic {
  steps: LogicStep[];
  flows: LogicFlow[];
}

/** A flow whose source is known and whose target is the next thing built. */
interface Pending {
  from: number;
  kind: string;
  label: string;
}

type JumpType = 'return' | 'throw' | 'break' | 'continue';

interface Jump {
  type: JumpType;
  label: string | null;
}

interface TargetFrame {
  frame: 'target';
  kind: 'loop' | 'switch' | 'label';
  labels: readonly string[];
  loopStep: number;
  breaks: Pending[];
}

interface TryFrame {
  frame: 'try';
  region: 'try' | 'catch' | 'finally';
  hasCatch: boolean;
  hasFinally: boolean;
  catchIn: Pending[];
  finallyIn: Map<string, { jump: Jump; pending: Pending[] }>;
}

type Frame = TargetFrame | TryFrame;

const JUMP_KINDS = new Set<string>(['return', 'throw', 'break', 'continue']);

/** A function-like node whose body Logic can be built. */
export type LogicOwnerNode = ts.FunctionLikeDeclaration;

/**
 * Builds the statement-level control-flow projection of one function body.
 *
 * Steps: `entry` (step 0, spanning the whole function), one step per statement in source order
 * (`statement`, `branch`, `loop`, `switch`, `case`, `try`, `catch`, `finally`, `return`, `throw`,
 * `break`, `continue`), then a single `exit` step (last number, on the function's last line).
 * Flows: `sequence`; `branch_true` / `branch_false` out of an `if`; `case` from a switch to each
 * clause (label = clause text, plus `no match` to the code after a switch without default) and
 * `sequence` for fallthrough into the next clause; `loop_body`, `loop_back`, `loop_exit`;
 * `break` / `continue`; `return` / `throw` to exit, to an enclosing catch (`throw`) or into a
 * `finally` (kind `finally`, label = the jump it carries, re-emitted after the finally body);
 * `catch` from a `try` step to its catch clause. A flow leaving a step keeps its own kind
 * (e.g. a `branch_false` at the end of a loop body goes back to the loop as `branch_false`);
 * only plain `sequence` completions take the kind of their destination. Never throws.
 */
export function buildFunctionLogic(sf: ts.SourceFile, ownerId: string, fn: LogicOwnerNode, entryLabel: string): FunctionLogic | null {
  const body = fn.body;
  if (body === undefined) return null;
  const builder = new LogicBuilder(sf, ownerId);
  return builder.run(fn, body, entryLabel);
}

class LogicBuilder {
  private readonly steps: LogicStep[] = [];
  private readonly flows: LogicFlow[] = [];
  private readonly frames: Frame[] = [];
  private readonly exitIn: Pending[] = [];

  constructor(private readonly sf: ts.SourceFile, private readonly ownerId: string) {}

  run(fn: LogicOwnerNode, body: ts.ConciseBody, entryLabel: string): FunctionLogic {
    const entry = this.addStep('entry', oneLine(entryLabel), fn);
    let out: Pending[] = [{ from: entry, kind: 'sequence', label: '' }];
    if (ts.isBlock(body)) {
      out = this.block(body.statements, out);
    } else {
      const ret = this.addStep('return', nodeText(this.sf, body), body);
      this.connect(out, ret, 'sequence');
      out = [];
      this.route([{ from: ret, kind: 'return', label: '' }], { type: 'return', label: null });
    }
    const endLine = lineAt(this.sf, fn.end);
    const exit = this.steps.length;
    this.steps.push({ owner_id: this.ownerId, step: exit, kind: 'exit', label: 'exit', start_line: endLine, end_line: endLine });
    this.connect(out, exit, 'sequence');
    this.connect(this.exitIn, exit, 'sequence');
    return { steps: this.steps, flows: sortFlows(this.flows) };
  }

  private addStep(kind: string, label: string, node: ts.Node): number {
    const [start, end] = nodeLines(this.sf, node);
    const step = this.steps.length;
    this.steps.push({ owner_id: this.ownerId, step, kind, label, start_line: start, end_line: end });
    return step;
  }

  /**
   * Connects pending completions to a step. `sequence` completions take `contextKind`; with
   * `overrideJumps`, jump completions (return/throw/break/continue) do too and carry the jump
   * type as label.
   */
  private connect(pending: readonly Pending[], to: number, contextKind: string, overrideJumps = false): void {
    for (const p of pending) {
      let kind = p.kind;
      let label = p.label;
      if (kind === 'sequence') {
        kind = contextKind;
      } else if (overrideJumps && JUMP_KINDS.has(kind)) {
        label = label === '' ? kind : label;
        kind = contextKind;
      }
      this.flows.push({ owner_id: this.ownerId, from_step: p.from, to_step: to, kind, label });
    }
  }

  /** Sends abrupt completions to the innermost frame that handles them, or to the exit. */
  private route(pending: Pending[], jump: Jump): void {
    for (let i = this.frames.length - 1; i >= 0; i -= 1) {
      const frame = this.frames[i]!;
      if (frame.frame === 'try') {
        if (jump.type === 'throw' && frame.region === 'try' && frame.hasCatch) {
          appendAll(frame.catchIn, pending);
          return;
        }
        if (frame.hasFinally && frame.region !== 'finally') {
          const key = `${jump.type}:${jump.label ?? ''}`;
          let entry = frame.finallyIn.get(key);
          if (entry === undefined) {
            entry = { jump, pending: [] };
            frame.finallyIn.set(key, entry);
          }
          appendAll(entry.pending, pending);
          return;
        }
        continue;
      }
      if (jump.type === 'break' && matchesBreak(frame, jump.label)) {
        appendAll(frame.breaks, pending.map((p) => (p.kind === 'sequence' ? { ...p, kind: 'break' } : p)));
        return;
      }
      if (jump.type === 'continue' && frame.kind === 'loop' && (jump.label === null || frame.labels.includes(jump.label))) {
        this.connect(pending, frame.loopStep, 'continue');
        return;
      }
    }
    appendAll(this.exitIn, pending);
  }

  private block(statements: readonly ts.Statement[], pending: Pending[]): Pending[] {
    let out = pending;
    for (const statement of statements) out = this.statement(statement, out, []);
    return out;
  }

  private statement(s: ts.Statement, pending: Pending[], labels: readonly string[]): Pending[] {
    const sf = this.sf;
    switch (s.kind) {
      case ts.SyntaxKind.Block:
        return this.block((s as ts.Block).statements, pending);
      case ts.SyntaxKind.EmptyStatement:
      case ts.SyntaxKind.FunctionDeclaration:
      case ts.SyntaxKind.InterfaceDeclaration:
      case ts.SyntaxKind.TypeAliasDeclaration:
      case ts.SyntaxKind.ModuleDeclaration:
      case ts.SyntaxKind.ImportDeclaration:
      case ts.SyntaxKind.ImportEqualsDeclaration:
      case ts.SyntaxKind.ExportDeclaration:
      case ts.SyntaxKind.MissingDeclaration:
        return pending;
      case ts.SyntaxKind.IfStatement: {
        const node = s as ts.IfStatement;
        const b = this.addStep('branch', oneLine(`if (${nodeText(sf, node.expression, 400)})`), node);
        this.connect(pending, b, 'sequence');
        const whenTrue = this.statement(node.thenStatement, [{ from: b, kind: 'branch_true', label: '' }], []);
        const falsePending: Pending[] = [{ from: b, kind: 'branch_false', label: '' }];
        const whenFalse = node.elseStatement ? this.statement(node.elseStatement, falsePending, []) : falsePending;
        return [...whenTrue, ...whenFalse];
      }
      case ts.SyntaxKind.ForStatement:
      case ts.SyntaxKind.ForInStatement:
      case ts.SyntaxKind.ForOfStatement:
      case ts.SyntaxKind.WhileStatement:
      case ts.SyntaxKind.DoStatement:
        return this.loopStatement(s as ts.IterationStatement, pending, labels);
      case ts.SyntaxKind.SwitchStatement:
        return this.switchStatement(s as ts.SwitchStatement, pending, labels);
      case ts.SyntaxKind.LabeledStatement:
        return this.labeledStatement(s as ts.LabeledStatement, pending, labels);
      case ts.SyntaxKind.ReturnStatement:
      case ts.SyntaxKind.ThrowStatement:
      case ts.SyntaxKind.BreakStatement:
      case ts.SyntaxKind.ContinueStatement: {
        const type: JumpType = s.kind === ts.SyntaxKind.ReturnStatement ? 'return'
          : s.kind === ts.SyntaxKind.ThrowStatement ? 'throw'
            : s.kind === ts.SyntaxKind.BreakStatement ? 'break' : 'continue';
        const step = this.addStep(type, nodeText(sf, s), s);
        this.connect(pending, step, 'sequence');
        const target = (s as ts.BreakStatement | ts.ContinueStatement).label;
        const jumpLabel = (type === 'break' || type === 'continue') && target !== undefined ? target.text : null;
        this.route([{ from: step, kind: type, label: '' }], { type, label: jumpLabel });
        return [];
      }
      case ts.SyntaxKind.TryStatement:
        return this.tryStatement(s as ts.TryStatement, pending);
      default: {
        const step = this.addStep('statement', nodeText(sf, s), s);
        this.connect(pending, step, 'sequence');
        return [{ from: step, kind: 'sequence', label: '' }];
      }
    }
  }

  /** A `for`/`for in`/`for of`/`while`/`do` loop: its step, body, back edge, exit and breaks; `labels` name it for `break`/`continue`. */
  private loopStatement(node: ts.IterationStatement, pending: Pending[], labels: readonly string[]): Pending[] {
    const sf = this.sf;
    const label = ts.isDoStatement(node)
      ? oneLine(`do … while (${nodeText(sf, node.expression, 400)})`)
      : headText(sf, node, node.statement.getStart(sf));
    const loop = this.addStep('loop', label, node);
    this.connect(pending, loop, 'sequence');
    const frame: TargetFrame = { frame: 'target', kind: 'loop', labels, loopStep: loop, breaks: [] };
    this.frames.push(frame);
    const bodyOut = this.statement(node.statement, [{ from: loop, kind: 'loop_body', label: '' }], []);
    this.frames.pop();
    this.connect(bodyOut, loop, 'loop_back');
    return [{ from: loop, kind: 'loop_exit', label: '' }, ...frame.breaks];
  }

  /** A `switch`: one step per clause (falling through in order), its breaks, and `no match` without a default. */
  private switchStatement(node: ts.SwitchStatement, pending: Pending[], labels: readonly string[]): Pending[] {
    const sf = this.sf;
    const sw = this.addStep('switch', oneLine(`switch (${nodeText(sf, node.expression, 400)})`), node);
    this.connect(pending, sw, 'sequence');
    const frame: TargetFrame = { frame: 'target', kind: 'switch', labels, loopStep: -1, breaks: [] };
    this.frames.push(frame);
    let previous: Pending[] = [];
    let hasDefault = false;
    for (const clause of node.caseBlock.clauses) {
      const caseText = ts.isCaseClause(clause) ? oneLine(`case ${nodeText(sf, clause.expression, 400)}`) : 'default';
      if (!ts.isCaseClause(clause)) hasDefault = true;
      const step = this.addStep('case', oneLine(`${caseText}:`), clause);
      this.connect([{ from: sw, kind: 'case', label: caseText }], step, 'case');
      this.connect(previous, step, 'sequence');
      previous = this.block(clause.statements, [{ from: step, kind: 'sequence', label: '' }]);
    }
    this.frames.pop();
    const out = [...previous, ...frame.breaks];
    if (!hasDefault) out.push({ from: sw, kind: 'case', label: 'no match' });
    return out;
  }

  /** A labeled statement: a loop or switch takes the label; any other statement is a `break` target of its own. */
  private labeledStatement(node: ts.LabeledStatement, pending: Pending[], labels: readonly string[]): Pending[] {
    const allLabels = [...labels, node.label.text];
    const inner = node.statement;
    if (ts.isLabeledStatement(inner) || ts.isIterationStatement(inner, false) || ts.isSwitchStatement(inner)) {
      return this.statement(inner, pending, allLabels);
    }
    const frame: TargetFrame = { frame: 'target', kind: 'label', labels: allLabels, loopStep: -1, breaks: [] };
    this.frames.push(frame);
    const out = this.statement(inner, pending, []);
    this.frames.pop();
    return [...out, ...frame.breaks];
  }

  private tryStatement(node: ts.TryStatement, pending: Pending[]): Pending[] {
    const tryStep = this.addStep('try', 'try', node);
    this.connect(pending, tryStep, 'sequence');
    const frame: TryFrame = {
      frame: 'try',
      region: 'try',
      hasCatch: node.catchClause !== undefined,
      hasFinally: node.finallyBlock !== undefined,
      catchIn: [],
      finallyIn: new Map(),
    };
    this.frames.push(frame);
    const tryOut = this.block(node.tryBlock.statements, [{ from: tryStep, kind: 'sequence', label: '' }]);
    let catchOut: Pending[] = [];
    if (node.catchClause) {
      frame.region = 'catch';
      const clause = node.catchClause;
      const label = clause.variableDeclaration ? oneLine(`catch (${nodeText(this.sf, clause.variableDeclaration, 400)})`) : 'catch';
      const catchStep = this.addStep('catch', label, clause);
      this.connect([{ from: tryStep, kind: 'catch', label: '' }], catchStep, 'catch');
      this.connect(frame.catchIn, catchStep, 'throw');
      catchOut = this.block(clause.block.statements, [{ from: catchStep, kind: 'sequence', label: '' }]);
    }
    frame.region = 'finally';
    this.frames.pop();
    if (!node.finallyBlock) return [...tryOut, ...catchOut];

    const finallyStep = this.addStep('finally', 'finally', node.finallyBlock);
    this.connect(tryOut, finallyStep, 'finally');
    this.connect(catchOut, finallyStep, 'finally');
    if (!frame.hasCatch) {
      // An exception anywhere in the try block runs the finally block, then propagates.
      const key = 'throw:';
      const entry = frame.finallyIn.get(key) ?? { jump: { type: 'throw' as const, label: null }, pending: [] };
      entry.pending.unshift({ from: tryStep, kind: 'throw', label: 'exception' });
      frame.finallyIn.set(key, entry);
    }
    for (const entry of frame.finallyIn.values()) this.connect(entry.pending, finallyStep, 'finally', true);
    const finallyOut = this.block(node.finallyBlock.statements, [{ from: finallyStep, kind: 'sequence', label: '' }]);
    for (const entry of frame.finallyIn.values()) {
      const type = entry.jump.type;
      this.route(finallyOut.map((p) => (p.kind === 'sequence' ? { ...p, kind: type } : p)), entry.jump);
    }
    return tryOut.length + catchOut.length > 0 ? finallyOut : [];
  }
}

function matchesBreak(frame: TargetFrame, label: string | null): boolean {
  if (label === null) return frame.kind === 'loop' || frame.kind === 'switch';
  return frame.labels.includes(label);
}

/** Sorts flows by (from, to, kind, label) and drops exact duplicates. */
function sortFlows(flows: LogicFlow[]): LogicFlow[] {
  flows.sort((a, b) => a.from_step - b.from_step || a.to_step - b.to_step
    || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  const out: LogicFlow[] = [];
  for (const flow of flows) {
    const last = out[out.length - 1];
    if (last && last.from_step === flow.from_step && last.to_step === flow.to_step && last.kind === flow.kind && last.label === flow.label) continue;
    out.push(flow);
  }
  return out;
}
