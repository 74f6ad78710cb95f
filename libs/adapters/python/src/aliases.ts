/**
 * Module-level names bound once to a dotted name or a call of one (`_obj = PyJWS()`, `decode = _obj.decode`, `Alias = Cls`),
 * which the linker follows (PythonLinkData.assigns): a call through `decode` reaches `PyJWS.decode` when `PyJWS` resolves to
 * a class of the project. A name bound more than once at module level (assignments, loop or `with` targets, imports,
 * definitions), or named by a function's `global` statement, is left out: its value is not proven. So is every candidate of a
 * module with a `from X import *` (os.py's `from posix import *` binds `fspath` over `if not _exists('fspath'): fspath =
 * _fspath`), and one whose path starts with a name the module both defines and imports (optparse's `_ = gettext`, where
 * `gettext` is imported in a `try` and defined in its `except`): which binding holds is decided at run time.
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { PythonAssign } from './link-data.js';
import { collectTargets, dottedPath } from './tree.js';

/** Collects the module-level bindings of one file (one per extractor). */
export class ModuleAssigns {
  readonly candidates = new Map<string, PythonAssign>();
  /** Module-level bindings per name, assignments and other targets alike. */
  readonly counts = new Map<string, number>();

  /** Counts the names a module-level target binds (an assignment's left side, a `for` or `with` target, a walrus name). */
  bind(target: SyntaxNode | null): void {
    const names = new Set<string>();
    collectTargets(target, names);
    for (const name of names) this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }

  /** Records `name = a.b` or `name = a.b(...)` (a module-level plain assignment) as a candidate. */
  assignment(node: SyntaxNode): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (node.type !== 'assignment' || left?.type !== 'identifier' || right === null) return;
    const call = right.type === 'call';
    const path = dottedPath(call ? right.childForFieldName('function') : right);
    if (path !== null && path[0] !== '<super>') this.candidates.set(left.text, { path, call });
  }

  /**
   * The proven assignments: candidates bound exactly once at module level, neither defined nor imported there nor named by
   * any `global` statement (`globals`); none when the module has a wildcard import; none whose head is ambiguous.
   */
  result(module: { defined(name: string): boolean; imported(name: string): boolean; wildcard: boolean }, globals: ReadonlySet<string>): Record<string, PythonAssign> {
    const out: Record<string, PythonAssign> = {};
    if (module.wildcard) return out;
    for (const [name, assign] of this.candidates) {
      const head = assign.path[0] as string;
      const ambiguous = module.defined(head) && module.imported(head);
      if (this.counts.get(name) === 1 && !module.defined(name) && !module.imported(name) && !globals.has(name) && !ambiguous) out[name] = assign;
    }
    return out;
  }
}
