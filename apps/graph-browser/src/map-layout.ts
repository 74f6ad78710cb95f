/**
 * Builds one architecture map answer (issue 34 item 1) from the snapshot's folder tree: the groups
 * of the expanded state (given ids, or the automatic first-screen expansion), a route from every
 * expanded folder to its drawn children, and the SQL-aggregated edges rolled up onto the drawn leaf
 * groups. See map.ts for the sources and bounds.
 */
import { relationCategory } from '@docforge/core';
import type { IndexReader, MapEdgeCount } from '@docforge/store';
import type { GroupRef } from './map-ids.js';
import { MAP_BOUNDS, MAP_EXCLUDED_RELATIONS, parentOf, refKey, type MapGroup, type MapSource, type OverviewMap } from './map.js';

/** How an expanded folder routes a path to its drawn child groups. */
interface Route {
  /** Drawn subfolder groups by folder path. */
  children: Map<string, string>;
  /** The collapsed `rest` group standing for undrawn children, if any. */
  rest: string | null;
  /** The collapsed group of the folder's own files, if drawn. */
  files: string | null;
  /** Drawn file groups by file path, when the folder's files are drawn one by one. */
  fileGroups: Map<string, string> | null;
  /** The group standing for the files a bound left out (the innermost page's, when pages are expanded). */
  filesRest: string | null;
  /** Code and doc nodes of the files drawn one by one so far (what a files `rest` group does not hold). */
  drawnCode: number;
  drawnDoc: number;
}

type Folder = ReturnType<MapSource['folders']> extends Map<string, infer F> ? F : never;

/** One child entry of a folder page: a subfolder, or the folder's own files. */
type Entry = { folder: string } | { files: true };

function entriesOf(folder: Folder): Entry[] {
  return [...folder.children.map((f) => ({ folder: f })), ...(folder.ownFiles > 0 ? [{ files: true as const }] : [])];
}

/** Last path segment of a folder (`a/b/` → `b/`) or file (`a/b.ts` → `b.ts`); the root is `./`. */
function baseName(path: string): string {
  if (path === '') return './';
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  return `${trimmed.slice(trimmed.lastIndexOf('/') + 1)}${path.endsWith('/') ? '/' : ''}`;
}

/** Collects the groups of one answer under the group budget. */
class MapBuilder {
  readonly groups: MapGroup[] = [];
  readonly routes = new Map<string, Route>();
  /** Folders whose files are drawn one by one, in drawing order. */
  readonly fileFolders: string[] = [];
  readonly expandedIds: string[] = [];
  cut = false;
  readonly #folders: Map<string, Folder>;

  constructor(private readonly source: MapSource, private readonly reader: IndexReader, private readonly expanded: ReadonlySet<string>) {
    this.#folders = source.folders(reader);
  }

  /** Draws the group of `ref` (shown as `kind`, by default the ref's own) unless the group bound is reached. */
  #add(ref: GroupRef, parent: string | null, fields: Omit<MapGroup, 'id' | 'kind' | 'path' | 'parent' | 'expanded'>, kind: GroupRef['kind'] = ref.kind): { id: string; open: boolean } | null {
    if (this.groups.length >= MAP_BOUNDS.groups) {
      this.cut = true;
      return null;
    }
    const id = this.source.ids.mint(ref);
    const open = fields.expandable && this.expanded.has(refKey(ref)) && this.groups.length + 2 <= MAP_BOUNDS.groups;
    this.groups.push({ id, kind, path: ref.path, parent, expanded: open, ...fields });
    if (open) this.expandedIds.push(id);
    return { id, open };
  }

  /** Draws the folder `path` (and, when expanded, what it holds). */
  folder(path: string, parent: string | null): string | null {
    const f = this.#folders.get(path)!;
    const added = this.#add({ kind: 'folder', path, offset: 0 }, parent, {
      label: baseName(path), expandable: f.children.length > 0 || f.ownFiles > 0, files: f.files, nodes: f.code + f.doc, code_nodes: f.code, doc_nodes: f.doc,
    });
    if (added === null) return null;
    if (added.open) {
      const route: Route = { children: new Map(), rest: null, files: null, fileGroups: null, filesRest: null, drawnCode: 0, drawnDoc: 0 };
      this.routes.set(path, route);
      if (f.children.length === 0) this.#files(path, added.id, route);
      else this.#page(path, 0, added.id, route);
    }
    return added.id;
  }

  /** Children `offset`… of a folder inside `parent`, a `rest` group for what does not fit. */
  #page(path: string, offset: number, parent: string, route: Route): void {
    const f = this.#folders.get(path)!;
    const entries = entriesOf(f);
    const room = entries.length - offset <= MAP_BOUNDS.children ? entries.length - offset : MAP_BOUNDS.children - 1;
    for (const entry of entries.slice(offset, offset + room)) {
      if ('folder' in entry) {
        const id = this.folder(entry.folder, parent);
        if (id !== null) route.children.set(entry.folder, id);
        continue;
      }
      const added = this.#add({ kind: 'files', path, offset: 0 }, parent, {
        label: `${f.ownFiles} file${f.ownFiles === 1 ? '' : 's'} in ${baseName(path)}`, expandable: true, files: f.ownFiles, nodes: f.ownCode + f.ownDoc, code_nodes: f.ownCode, doc_nodes: f.ownDoc,
      });
      if (added?.open) this.#files(path, added.id, route);
      else if (added) route.files = added.id;
    }
    const left = entries.slice(offset + room);
    if (left.length === 0) return;
    const sum = (pick: (x: Folder) => number, own: (x: Folder) => number): number => left.reduce((n, e) => n + ('folder' in e ? pick(this.#folders.get(e.folder)!) : own(f)), 0);
    const code = sum((x) => x.code, (x) => x.ownCode);
    const doc = sum((x) => x.doc, (x) => x.ownDoc);
    const added = this.#add({ kind: 'rest', path, offset: offset + room }, parent, {
      label: `+${left.length} more in ${baseName(path)}`, expandable: true, files: sum((x) => x.files, (x) => x.ownFiles), nodes: code + doc, code_nodes: code, doc_nodes: doc,
    });
    if (added?.open) this.#page(path, offset + room, added.id, route);
    else if (added) route.rest = added.id;
  }

  /**
   * The files directly in `path` from position `offset` (largest first), one group each (a bound's
   * worth), inside `parent`; then one `rest` group for the files left out, holding their node
   * counts. That group is expandable: its ref is the folder's `files` ref at the offset it starts
   * from (a `files` group otherwise always has offset 0, so the id is its own), and expanding it
   * draws the next files inside it.
   */
  #files(path: string, parent: string, route: Route, offset = 0): void {
    const { rows, truncated } = this.reader.mapFolderFiles(path, MAP_BOUNDS.children - 1, offset);
    if (route.fileGroups === null) {
      route.fileGroups = new Map();
      this.fileFolders.push(path);
    }
    for (const row of rows) {
      const code = row.role === 'code' ? row.nodes : 0;
      route.drawnCode += code;
      route.drawnDoc += row.nodes - code;
      const nodeId = this.reader.nodesOfFile(row.path, 1)[0];
      const added = this.#add({ kind: 'file', path: row.path, offset: 0 }, parent, {
        label: baseName(row.path), expandable: false, files: 1, nodes: row.nodes, code_nodes: code, doc_nodes: row.nodes - code, ...(nodeId !== undefined ? { node_id: nodeId } : {}),
      });
      if (added) route.fileGroups.set(row.path, added.id);
    }
    if (!truncated) return;
    const f = this.#folders.get(path)!;
    const more = f.ownFiles - offset - rows.length;
    // The rest holds what the pages drawn so far (this one and the enclosing ones) did not.
    const code = Math.max(0, f.ownCode - route.drawnCode);
    const doc = Math.max(0, f.ownDoc - route.drawnDoc);
    const start = offset + rows.length;
    const added = this.#add({ kind: 'files', path, offset: start }, parent, {
      label: `+${more} more files in ${baseName(path)}`, expandable: more > 0, files: more, nodes: code + doc, code_nodes: code, doc_nodes: doc,
    }, 'rest');
    this.cut = true;
    if (added === null) return;
    route.filesRest = added.id;
    if (added.open) this.#files(path, added.id, route, start);
  }

  /** The drawn leaf group holding `path` (a folder with `/`, whose own files are meant, or a file), or null. */
  leafOf(path: string): string | null {
    let at = '';
    for (;;) {
      const route = this.routes.get(at);
      if (route === undefined) return null;
      const rest = path.slice(at.length);
      const slash = rest.indexOf('/');
      if (slash >= 0) {
        const child = at + rest.slice(0, slash + 1);
        const id = route.children.get(child);
        if (id === undefined) return route.rest;
        if (!this.routes.has(child)) return id;
        at = child;
        continue;
      }
      if (route.fileGroups !== null) return rest === '' ? null : route.fileGroups.get(path) ?? route.filesRest;
      return route.files ?? route.rest;
    }
  }
}

/**
 * The automatic first-screen expansion: the root, then repeatedly the largest collapsed folder
 * whose children still fit {@link MAP_BOUNDS.autoLeaves} leaf groups (a folder of files only when
 * it holds at most {@link MAP_BOUNDS.autoFiles}). Reads only the folder tree.
 */
export function autoExpansion(folders: ReturnType<MapSource['folders']>): GroupRef[] {
  const units = (f: Folder): number => Math.min(MAP_BOUNDS.children, f.children.length === 0 ? f.ownFiles : entriesOf(f).length);
  const visible = (f: Folder): string[] => (entriesOf(f).length <= MAP_BOUNDS.children ? f.children : f.children.slice(0, MAP_BOUNDS.children - 1));
  const root = folders.get('')!;
  const chosen: GroupRef[] = [{ kind: 'folder', path: '', offset: 0 }];
  let leaves = units(root);
  let collapsed = visible(root);
  while (chosen.length < MAP_BOUNDS.expand) {
    const fits = collapsed.map((p) => folders.get(p)!).filter((f) => (f.children.length > 0 || f.ownFiles <= MAP_BOUNDS.autoFiles) && (f.children.length > 0 || f.ownFiles > 0) && leaves - 1 + units(f) <= MAP_BOUNDS.autoLeaves);
    if (fits.length === 0) break;
    const best = fits.reduce((a, b) => (b.code + b.doc > a.code + a.doc ? b : a));
    chosen.push({ kind: 'folder', path: best.path, offset: 0 });
    leaves += units(best) - 1;
    collapsed = [...collapsed.filter((p) => p !== best.path), ...visible(best)];
  }
  return chosen;
}

/** The folder-pair rows, with the rows of folders whose files are drawn replaced by their file-pair rows (each stored edge counted once). */
function edgeRows(source: MapSource, reader: IndexReader, fileFolders: readonly string[]): MapEdgeCount[] {
  if (fileFolders.length === 0) return source.folderEdges(reader);
  const fileLevel = new Set(fileFolders);
  const rows = source.folderEdges(reader).filter((r) => !fileLevel.has(r.source) && !fileLevel.has(r.target));
  fileFolders.forEach((folder, index) => {
    const earlier = new Set(fileFolders.slice(0, index));
    for (const row of source.fileEdges(reader, folder)) {
      const other = parentOf(row.source) === folder ? row.target : row.source;
      if (!earlier.has(parentOf(other))) rows.push(row);
    }
  });
  return rows;
}

/** Rolls the SQL rows up onto the drawn leaf groups: one edge per (source group, target group), heaviest first, at most {@link MAP_BOUNDS.edges}. */
function rollUp(builder: MapBuilder, rows: readonly MapEdgeCount[]): { edges: OverviewMap['edges']; cut: boolean } {
  const pairs = new Map<string, { source: string; target: string; count: number; relations: Map<string, number> }>();
  const leaf = new Map<string, string | null>();
  const leafOf = (path: string): string | null => {
    if (!leaf.has(path)) leaf.set(path, builder.leafOf(path));
    return leaf.get(path)!;
  };
  for (const row of rows) {
    const source = leafOf(row.source);
    const target = leafOf(row.target);
    if (source === null || target === null || source === target) continue;
    const key = `${source}\0${target}`;
    let pair = pairs.get(key);
    if (pair === undefined) pairs.set(key, (pair = { source, target, count: 0, relations: new Map() }));
    pair.count += row.count;
    pair.relations.set(row.relation, (pair.relations.get(row.relation) ?? 0) + row.count);
  }
  const all = [...pairs.values()].sort((a, b) => b.count - a.count || a.source.localeCompare(b.source) || a.target.localeCompare(b.target));
  const edges = all.slice(0, MAP_BOUNDS.edges).map((p) => ({
    source: p.source, target: p.target, count: p.count,
    relations: [...p.relations].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, MAP_BOUNDS.relations).map(([relation, count]) => ({ relation, category: relationCategory(relation), count })),
  }));
  return { edges, cut: all.length > edges.length };
}

/**
 * The map for an expansion state: `expand` (validated refs) or, when null, the automatic
 * first-screen expansion.
 */
export function buildMap(source: MapSource, reader: IndexReader, expand: readonly GroupRef[] | null): OverviewMap {
  const folders = source.folders(reader);
  const refs = expand ?? autoExpansion(folders);
  const builder = new MapBuilder(source, reader, new Set(refs.map(refKey)));
  builder.folder('', null);
  const { edges, cut } = rollUp(builder, edgeRows(source, reader, builder.fileFolders));
  return {
    groups: builder.groups,
    edges,
    expanded: builder.expandedIds,
    truncated: builder.cut || cut || source.cut(),
    excluded_relations: [...MAP_EXCLUDED_RELATIONS],
  };
}
