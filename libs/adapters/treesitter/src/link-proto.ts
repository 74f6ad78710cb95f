/**
 * C/C++ declarations joined to their definition (new-user trial, 2026-12-07): a function declared without a body (a prototype
 * in a header, a member declared in its class) and defined with a body in another file of the project is one entity to the
 * compiler and the linker, but two nodes to the graph. The linker sends a call that reaches the declaration on to the
 * definition, and links the two with `<definition> implements <declaration>` (contract relation category `implementation`),
 * only where the declarations prove it:
 * - the declaration is a function or method the file declares without a body (link data `protos`), with external linkage (a
 *   free function not `static`; any member), and the file declares no overload of it (`qname~2`);
 * - the project holds exactly one definition with a body of that qualified name (static ones and overloads `~n` count too: two
 *   definitions are ambiguous), in another file, with external linkage;
 * - both have the same parameter count (max of the arity; varargs only with varargs; a default value counts as a parameter);
 * - the definition's file includes the declaration's file (directly or through other headers), or a call resolved to the
 *   declaration through the caller's own includes (then that call goes to the definition).
 * Anything else stays as before: the call reaches the declaration, or nothing. A definition inside an anonymous namespace
 * has internal linkage the link data does not show (a known limit, written down in docs/architecture.md).
 */
import { codeId } from '@docforge/core';
import type { GraphNode } from '@docforge/core';
import type { TreeLinkData } from './link-data.js';
import type { DefRef } from './link-walk.js';

/** One function or method of a file as {@link Prototypes} reads it. */
interface Entry extends DefRef {
  /** External linkage: any member (kind `method`), or a free function the extractor marks exported (not `static`). */
  external: boolean;
  /** The parameter count (arity max; null: varargs); undefined when the link data gives no arity. */
  params: number | null | undefined;
  /** 1-based first line. */
  line: number;
}

/** One file as {@link Prototypes} reads it: its definition nodes and link data. */
export interface ProtoFile {
  path: string;
  nodes: readonly Pick<GraphNode, 'id' | 'kind' | 'capabilities' | 'start_line'>[];
  data: TreeLinkData;
}

/** One `implements` edge: definition → declaration, at the definition's line. */
export interface ProtoEdge {
  source_id: string;
  target_id: string;
  source_path: string;
  line: number;
}

const baseName = (qname: string): string => qname.replace(/~\d+$/, '');

/** The joins of one link run (built once per {@link linkTree} call; holds no state across runs). */
export class Prototypes {
  /** Definitions with a body by qualified name without `~n`, every file (static ones too). */
  private readonly bodies = new Map<string, Entry[]>();
  /** Declarations without a body by id. */
  private readonly declared = new Map<string, Entry>();
  /** Qualified names without `~n` a file declares more than once (overloads), as `file\0name`. */
  private readonly overloaded = new Set<string>();
  /** Memo of {@link Prototypes.definitionOf} by declaration id. */
  private readonly memo = new Map<string, Entry | null>();
  /** Declarations a call reached (their calls went on to the definition). */
  private readonly called = new Set<string>();

  /** `scope(file)`: the files `file` includes, directly or transitively. */
  constructor(files: Iterable<ProtoFile>, private readonly scope: (file: string) => readonly string[]) {
    const all = [...files];
    // Languages without bodiless declarations (all but C/C++) pay nothing more.
    if (!all.some((file) => (file.data.protos?.length ?? 0) > 0)) return;
    for (const file of all) {
      const protos = new Set(file.data.protos ?? []);
      const prefix = `${codeId(file.path)}#`;
      const seen = new Set<string>();
      for (const node of file.nodes) {
        if (!node.id.startsWith(prefix) || (node.kind !== 'function' && node.kind !== 'method')) continue;
        const qname = node.id.slice(prefix.length);
        const base = baseName(qname);
        if (seen.has(base) || base !== qname) this.overloaded.add(`${file.path}\u0000${base}`);
        seen.add(base);
        const range = file.data.arity?.[qname];
        const entry: Entry = {
          file: file.path, qname, id: node.id, kind: node.kind, line: node.start_line,
          external: node.kind === 'method' || node.capabilities.includes('exported'), params: range === undefined ? undefined : range[1],
        };
        if (protos.has(qname)) this.declared.set(node.id, entry);
        else this.bodies.set(base, [...(this.bodies.get(base) ?? []), entry]);
      }
    }
  }

  /** The one definition a declaration is proven to declare (rules in the module comment, include proof aside); null otherwise. */
  private pair(id: string): Entry | null {
    const known = this.memo.get(id);
    if (known !== undefined) return known;
    const decl = this.declared.get(id);
    const bodies = decl === undefined ? undefined : this.bodies.get(decl.qname);
    const def = bodies?.length === 1 ? (bodies[0] as Entry) : undefined;
    const proven = decl !== undefined && def !== undefined && decl.external && def.external && def.file !== decl.file
      && !this.overloaded.has(`${decl.file}\u0000${decl.qname}`) && !this.overloaded.has(`${def.file}\u0000${def.qname}`)
      && decl.params !== undefined && decl.params === def.params;
    const out = proven ? def : null;
    this.memo.set(id, out);
    return out;
  }

  /**
   * The definition a call that resolved to `target` reaches instead: the one definition `target` declares, when `target` is a
   * declaration without a body and the rules hold (the call itself is the include proof: it reached the declaration through
   * the caller's includes). Null when `target` is no such declaration.
   */
  definitionOf(target: DefRef): DefRef | null {
    const def = this.pair(target.id);
    if (def === null) return null;
    this.called.add(target.id);
    return { file: def.file, qname: def.qname, id: def.id, kind: def.kind };
  }

  /**
   * The `implements` edges definition → declaration, sorted by declaration id: every proven pair whose definition's file
   * includes the declaration's file, or whose declaration a call reached ({@link Prototypes.definitionOf}).
   */
  edges(): ProtoEdge[] {
    const out: ProtoEdge[] = [];
    for (const id of [...this.declared.keys()].sort()) {
      const def = this.pair(id);
      const decl = this.declared.get(id) as Entry;
      if (def === null || (!this.called.has(id) && !this.scope(def.file).includes(decl.file))) continue;
      out.push({ source_id: def.id, target_id: decl.id, source_path: def.file, line: def.line });
    }
    return out;
  }
}
