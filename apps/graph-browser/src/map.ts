/**
 * The architecture map of the graph browser's first screen (issue 34 item 1; contract:
 * Visualization boundary, the overview endpoint). Folders, the files directly in a folder, and
 * single files are groups; an expanded group is a compound node holding its children. Dependency
 * edges are aggregated in SQL (libs/store reader-map.ts: per folder pair, or per file pair for a
 * folder whose files are drawn) and rolled up here onto the drawn leaf groups, weighted by count.
 * Every answer is bounded ({@link MAP_BOUNDS}) whatever the project size.
 */
import { errors } from '@docforge/core';
import type { IndexReader, MapEdgeCount } from '@docforge/store';
import type { GraphBrowserOverview } from '@docforge/protocol';
import { GroupIds, type GroupRef } from './map-ids.js';

/** The map of an overview answer. */
export type OverviewMap = GraphBrowserOverview['map'];
/** One group of the map. */
export type MapGroup = OverviewMap['groups'][number];

/** Bounds of every map answer. */
export const MAP_BOUNDS = Object.freeze({
  /** Most groups drawn (schema maxItems). */
  groups: 240,
  /** Most aggregated edges drawn, heaviest first (the schema allows 400). */
  edges: 200,
  /** Most relations listed per aggregated edge, heaviest first. */
  relations: 3,
  /**
   * Most children of one expanded group; a `rest` group stands for the others. 12 keeps a box of
   * boxes readable at 11 px inside the canvas (two such boxes side by side still fit).
   */
  children: 12,
  /** Leaf groups the automatic first-screen expansion stops at (about what fits the canvas at 11 px). */
  autoLeaves: 32,
  /**
   * A folder with no subfolders and at most this many files is opened to its files automatically
   * (0: never; the first screen shows folders, a click opens their files).
   */
  autoFiles: 0,
  /** Most `expand` ids of one request. */
  expand: 32,
  /** Most folder rows read from the index. */
  folderRows: 50_000,
  /** Most aggregated folder-pair rows read from the index. */
  edgeRows: 250_000,
  /** Most aggregated file-pair rows read for one folder. */
  fileEdgeRows: 5_000,
});

/** Relations left out of the map: structure inside one file (a module defining its members). */
export const MAP_EXCLUDED_RELATIONS: readonly string[] = Object.freeze(['contains', 'defines', 'owns', 'defined_in']);

/** One folder of the tree with its own files and the totals under it. */
interface Folder {
  path: string;
  children: string[];
  ownFiles: number;
  ownCode: number;
  ownDoc: number;
  files: number;
  code: number;
  doc: number;
}

/** The snapshot's folder tree and its folder-pair edges, computed once per worker (the snapshot is immutable). */
export class MapSource {
  readonly ids: GroupIds;
  #folders: Map<string, Folder> | null = null;
  #folderEdges: MapEdgeCount[] | null = null;
  #foldersCut = false;
  #edgesCut = false;
  readonly #fileEdges = new Map<string, MapEdgeCount[]>();

  constructor(binding: string) {
    this.ids = new GroupIds(binding);
  }

  /** The folder tree (every ancestor of an indexed file's folder), by path. */
  folders(reader: IndexReader): Map<string, Folder> {
    if (this.#folders !== null) return this.#folders;
    const { rows, truncated } = reader.mapFolderCounts(MAP_BOUNDS.folderRows);
    this.#foldersCut = truncated;
    const folders = new Map<string, Folder>();
    const folderAt = (path: string): Folder => {
      let folder = folders.get(path);
      if (folder !== undefined) return folder;
      folder = { path, children: [], ownFiles: 0, ownCode: 0, ownDoc: 0, files: 0, code: 0, doc: 0 };
      folders.set(path, folder);
      if (path !== '') {
        const parent = folderAt(parentOf(path));
        parent.children.push(path);
      }
      return folder;
    };
    folderAt('');
    for (const row of rows) {
      const folder = folderAt(row.folder);
      folder.ownFiles += row.files;
      if (row.role === 'code') folder.ownCode += row.nodes;
      else folder.ownDoc += row.nodes;
    }
    const total = (folder: Folder): void => {
      folder.files = folder.ownFiles;
      folder.code = folder.ownCode;
      folder.doc = folder.ownDoc;
      for (const child of folder.children) {
        const c = folders.get(child)!;
        total(c);
        folder.files += c.files;
        folder.code += c.code;
        folder.doc += c.doc;
      }
      folder.children.sort((a, b) => weight(folders.get(b)!) - weight(folders.get(a)!) || a.localeCompare(b));
    };
    total(folders.get('')!);
    this.#folders = folders;
    return folders;
  }

  /** Folder-pair edge counts (SQL aggregate, computed once). */
  folderEdges(reader: IndexReader): MapEdgeCount[] {
    if (this.#folderEdges === null) {
      const { rows, truncated } = reader.mapFolderEdges(MAP_EXCLUDED_RELATIONS, MAP_BOUNDS.edgeRows);
      this.#folderEdges = rows;
      this.#edgesCut = truncated;
    }
    return this.#folderEdges;
  }

  /** File-pair edge counts of the files directly in `folder` (SQL aggregate, kept per folder, at most 64 folders). */
  fileEdges(reader: IndexReader, folder: string): MapEdgeCount[] {
    let rows = this.#fileEdges.get(folder);
    if (rows === undefined) {
      rows = reader.mapFileEdges(folder, MAP_EXCLUDED_RELATIONS, MAP_BOUNDS.fileEdgeRows).rows;
      if (this.#fileEdges.size >= 64) this.#fileEdges.clear();
      this.#fileEdges.set(folder, rows);
    }
    return rows;
  }

  /** Whether a bound cut the folder rows or the folder-pair edge rows. */
  cut(): boolean {
    return this.#foldersCut || this.#edgesCut;
  }
}

/** The size of a folder for ordering: its nodes. */
function weight(folder: Folder): number {
  return folder.code + folder.doc;
}

/** The parent folder of a folder path (`a/b/` → `a/`, `a/` → ``). */
export function parentOf(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  const slash = trimmed.lastIndexOf('/');
  return slash < 0 ? '' : trimmed.slice(0, slash + 1);
}

/**
 * Validates the `expand` ids of a request against the snapshot: each must be minted by this worker
 * ({@link GroupIds.parse}) and name a folder of the snapshot (a file group's folder for `file`).
 * @throws DocforgeError `invalid_arguments` (details.reason `group_not_minted`, `group_not_in_snapshot` or `too_many_groups`)
 */
export function validateExpansions(source: MapSource, reader: IndexReader, ids: readonly string[]): GroupRef[] {
  if (ids.length > MAP_BOUNDS.expand) throw errors.invalidArguments(`At most ${MAP_BOUNDS.expand} groups can be expanded at once.`, { parameter: 'expand', reason: 'too_many_groups' });
  const folders = source.folders(reader);
  return ids.map((id) => {
    const ref = source.ids.parse(id);
    const folder = ref.kind === 'file' ? parentOf(ref.path) : ref.path;
    if (!folders.has(folder)) throw errors.invalidArguments('The expand value names a group this snapshot does not hold.', { parameter: 'expand', reason: 'group_not_in_snapshot' });
    return ref;
  });
}

/** A stable key of a group reference (the same group minted twice has one key). */
export function refKey(ref: GroupRef): string {
  return `${ref.kind}\0${ref.path}\0${ref.offset}`;
}
