/**
 * Link data kept as its JSON text until first read (issue 14). A new build worker warms from the
 * parse cache (warm.ts): an edit links only the files it can affect, so parsing every file's link
 * data up front (4.8 MB of fastify's 5.6 MB of cached parse JSON, most of it per-file call sites
 * that only the file's own linking reads) was most of the warm start's cost. A warmed source's
 * `link_data` is a getter that parses the text once; {@link linkDataPresent} and
 * {@link linkDataJson} answer without parsing.
 *
 * A text that is not JSON, or JSON that is not link data of the source's adapter (a damaged cache
 * row: not an object, or rejected by the adapter's `isLinkData`), reads as null and is counted;
 * the build that read it fails and runs again from scratch ({@link takeDamagedLinkData}, build.ts).
 */
import type { CachedSource } from './build-types.js';
import { codeLinker } from './adapter-registry.js';

interface Cell {
  text: string | null;
  value: unknown;
  /** The id of the code adapter that wrote the link data (its `isLinkData` checks the shape), or null. */
  adapter: string | null;
}

const cells = new WeakMap<object, Cell>();
let damaged = 0;
let parsed = 0;

/** The link data of `cell`, parsed on the first call. */
function read(cell: Cell): unknown {
  if (cell.text !== null) {
    const text = cell.text;
    cell.text = null;
    parsed += 1;
    try {
      const value = JSON.parse(text) as unknown;
      const check = cell.adapter === null ? undefined : codeLinker(cell.adapter)?.isLinkData;
      if (typeof value !== 'object' || value === null || Array.isArray(value) || (check !== undefined && !check(value))) throw new TypeError('not link data');
      cell.value = value;
    } catch {
      damaged += 1;
      cell.value = null;
    }
  }
  return cell.value;
}

/**
 * A cached source whose `link_data` is parsed from `text` (the JSON of a non-null value, or null:
 * no link data) on its first read. Assigning `link_data` replaces it.
 * @param source every other field of the source
 */
export function withLazyLinkData(source: Omit<CachedSource, 'link_data'>, text: string | null): CachedSource {
  const cell: Cell = { text, value: null, adapter: source.adapter };
  const lazy = {
    ...source,
    get link_data(): unknown {
      return read(cell);
    },
    set link_data(value: unknown) {
      cell.text = null;
      cell.value = value;
    },
  };
  cells.set(lazy, cell);
  return lazy;
}

/** Whether `source` has link data, without parsing text not read yet. */
export function linkDataPresent(source: CachedSource): boolean {
  const cell = cells.get(source);
  if (cell !== undefined && cell.text !== null) return true;
  return source.link_data !== null && source.link_data !== undefined;
}

/** The JSON text of `source`'s link data (as the parse cache stores it), or null; text not read yet is returned as is. */
export function linkDataJson(source: CachedSource): string | null {
  const cell = cells.get(source);
  if (cell !== undefined && cell.text !== null) return cell.text;
  const value = source.link_data;
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/** How many lazily read texts were damaged since the last call (then reset to 0). */
export function takeDamagedLinkData(): number {
  const count = damaged;
  damaged = 0;
  return count;
}

/** How many texts were parsed on first read since the last call (then reset to 0). */
export function takeParsedLinkData(): number {
  const count = parsed;
  parsed = 0;
  return count;
}
