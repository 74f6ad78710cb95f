/**
 * The ancestor walk of the tree-sitter family's linker: which declaration a member name reaches
 * through a type's declared supertypes, in an order each language gives as a plan of steps (Ruby
 * and PHP: method resolution order with mixins; Java, C# and C++: the superclass chain, then the
 * interfaces or several bases as one unordered group). Answers are memoized per type, member name,
 * side and (only when it matters) calling file, and the walk keeps its own stack, so N calls over
 * a chain of N ancestors cost O(N) lookups in all, and a chain of any length cannot overflow the
 * call stack (a 6,000-long Ruby `include` chain did, and cost O(N²)).
 */

/** A resolved definition. */
export interface DefRef {
  file: string;
  qname: string;
  id: string;
  kind: string;
}

/**
 * What a walk answers: the declaration; null when it is not proven (an ancestor met before any
 * declaration is not resolved or declares the name more than once, or the ancestry is cyclic);
 * undefined when no ancestor declares it.
 */
export type Answer = DefRef | null | undefined;

/**
 * One step of a type's plan, in order: `own`, the type's own member; `seq`, one ancestor whose answer,
 * if any, is the type's (`onUnresolved`: whether an unresolved ancestor stops the walk unproven,
 * `stop`, or ends it with no answer, `end`); `group`, ancestors of equal rank, whose one distinct
 * answer is the type's (two distinct answers, or one unproven, stop the walk unproven); `known`, an ancestor outside the
 * project whose every member name is known: one of them stops the walk unproven, any other name passes it.
 */
export type Step =
  | { own: true }
  | { known: ReadonlySet<string> }
  | { seq: DefRef | null; onUnresolved: 'stop' | 'end' }
  | { group: readonly DefRef[] };

/** What the walk asks of the linker. */
export interface WalkHost {
  /** The steps of `type` on the instance side (`instance`) or on its class side. */
  plan(type: DefRef, instance: boolean): readonly Step[];
  /** The member `name` declared by `type` itself, seen from a call in `caller`: the definition, null when unproven (overloaded), undefined when none. */
  own(type: DefRef, name: string, caller: string): Answer;
  /** What a member lookup of `name` from a call in file `caller` may depend on besides the type (part of the memo key). */
  callerKey(caller: string, name: string): string;
}

const PENDING = Symbol('pending');
const CONTINUE = Symbol('continue');

interface Frame {
  type: DefRef;
  key: string;
  steps: readonly Step[];
  /** Next step. */
  i: number;
  /** Next ancestor of the current `group` step. */
  j: number;
  /** Distinct answers of the current `group` step so far. */
  hits: DefRef[];
}

/** The memoized ancestor walk over one link run (one instance per run: the memo holds that run's answers). */
export class AncestorWalk {
  readonly memo = new Map<string, Answer | typeof PENDING>();

  constructor(readonly host: WalkHost) {}

  /**
   * The declaration `name` reaches from `type` (`afterOwn`: from the step after the type's own member
   * on, as a `super` call does), for a call in file `caller`, on the instance side or the class side.
   */
  answer(type: DefRef, name: string, caller: string, instance: boolean, afterOwn = false): Answer {
    const suffix = `\u0000${name}\u0000${instance ? 'i' : 'c'}\u0000${this.host.callerKey(caller, name)}`;
    const rootKey = `${type.id}${suffix}${afterOwn ? '\u0000after' : ''}`;
    if (this.memo.has(rootKey)) {
      const cached = this.memo.get(rootKey);
      return cached === PENDING ? null : cached;
    }
    const steps = this.host.plan(type, instance);
    const from = afterOwn ? steps.findIndex((s) => 'own' in s) + 1 : 0;
    const frames: Frame[] = [{ type, key: rootKey, steps, i: afterOwn && from === 0 ? steps.length : from, j: 0, hits: [] }];
    this.memo.set(rootKey, PENDING);
    let result: Answer;
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as Frame;
      const out = this.advance(frame, frames, name, caller, instance, suffix);
      if (out === CONTINUE) continue;
      this.memo.set(frame.key, out);
      frames.pop();
      result = out;
    }
    return result;
  }

  /** Runs `frame` until it answers, or pushes the frame of an ancestor not yet answered (CONTINUE). */
  private advance(frame: Frame, frames: Frame[], name: string, caller: string, instance: boolean, suffix: string): Answer | typeof CONTINUE {
    for (;;) {
      const step = frame.steps[frame.i];
      if (step === undefined) return undefined;
      if ('own' in step) {
        const own = this.host.own(frame.type, name, caller);
        if (own !== undefined) return own;
        frame.i += 1;
        continue;
      }
      if ('known' in step) {
        if (step.known.has(name)) return null;
        frame.i += 1;
        continue;
      }
      if ('seq' in step && step.seq === null) {
        if (step.onUnresolved === 'stop') return null;
        return undefined;
      }
      const targets = 'seq' in step ? [step.seq as DefRef] : step.group;
      for (; frame.j < targets.length; frame.j += 1) {
        const target = targets[frame.j] as DefRef;
        const key = `${target.id}${suffix}`;
        if (!this.memo.has(key)) {
          this.memo.set(key, PENDING);
          frames.push({ type: target, key, steps: this.host.plan(target, instance), i: 0, j: 0, hits: [] });
          return CONTINUE;
        }
        const stored = this.memo.get(key);
        const found = stored === PENDING ? null : stored;
        if ('seq' in step) {
          if (found !== undefined) return found;
        } else if (found === null) return null;
        else if (found !== undefined && !frame.hits.some((hit) => hit.id === found.id)) frame.hits.push(found);
      }
      frame.j = 0;
      if ('group' in step) {
        const hits = frame.hits;
        frame.hits = [];
        if (hits.length > 1) return null;
        if (hits.length === 1) return hits[0];
      }
      frame.i += 1;
    }
  }
}
