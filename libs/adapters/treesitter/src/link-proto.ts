/**
 * C/C++ declarations joined to their definition (new-user trial 2026-12-07; rules and limits in docs/architecture.md): a call
 * that reaches a function or method declared without a body (link data `protos`) goes on to its definition, which
 * `implements` the declaration, only when both have external linkage (a free function not `static`; any member), the file
 * declares no overload of it, the project holds exactly one body of that qualified name (a static one or an overload `~n`
 * counts too), in another file, with the same parameter count (arity max; null: varargs), and the definition's file includes
 * the declaration's (directly or not) or a call reached the declaration through the caller's includes. Else all stays as before.
 */
import { codeId, type GraphEdge, type GraphNode } from '@docforge/core';
import type { TreeLinkData } from './link-data.js';
import type { DefRef } from './link-walk.js';

/** A function or method: `external` linkage (a member, or an exported free function), `params` (arity max; undefined: none), 1-based `line`. */
interface Entry extends DefRef {
  external: boolean;
  params: number | null | undefined;
  line: number;
}

/** One file as {@link Prototypes} reads it: its definition nodes and link data. */
export interface ProtoFile {
  path: string;
  nodes: readonly Pick<GraphNode, 'id' | 'kind' | 'capabilities' | 'start_line'>[];
  data: TreeLinkData;
}

/** One `implements` edge: definition → declaration, at the definition's line. */
export type ProtoEdge = Pick<GraphEdge, 'source_id' | 'target_id' | 'source_path' | 'line'>;

const baseName = (qname: string): string => qname.replace(/~\d+$/, '');

/** The joins of one link run (built once per {@link linkTree} call; holds no state across runs). */
export class Prototypes {
  /** Bodies by qualified name without `~n` (static ones too); bodiless declarations by id; `file\0name` declared more than once. */
  private readonly bodies = new Map<string, Entry[]>();
  private readonly declared = new Map<string, Entry>();
  private readonly overloaded = new Set<string>();
  /** Memo of {@link Prototypes.pair} by declaration id; declarations a call reached (it went on to the definition). */
  private readonly memo = new Map<string, Entry | null>();
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
