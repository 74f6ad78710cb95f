/**
 * Link data kept in the parse cache, then as its JSON text, until first read (issue 14). A new build worker warms from the
 * parse cache (warm.ts): an edit links only the files it can affect, so parsing every file's link
 * data up front (4.8 MB of fastify's 5.6 MB of cached parse JSON, most of it per-file call sites
 * that only the file's own linking reads) was most of the warm start's cost. A warmed source's
 * `link_data` is a getter that parses the text once; {@link linkDataPresent} and
 * {@link linkDataJson} answer without parsing.
 *
 * A text that is not JSON, or JSON that is not link data of the source's adapter (a damaged cache
 * row: not an object, or rejected by the adapter's `isLinkData`), reads as null and is counted;
 * the build that read it fails and runs again from scratch ({@link LinkDataCounters.takeDamaged},
 * build-session.ts). The counters belong to the build caches that hold the warmed sources
 * (build-caches.ts), never to the module.
 */
import type { CachedSource } from './build-types.js';
import { codeLinker } from '@docforge/identity';
import type { LinkDataFetch } from '@docforge/store';

interface Cell {
  text: string | null;
  /** Reads the text from the parse cache (not read yet); null once read or when there is none. */
  fetch: LinkDataFetch | null;
  /** The fetch found nothing: every read is damaged (never "no link data"). */
  lost: boolean;
  value: unknown;
  /** The id of the code adapter that wrote the link data (its `isLinkData` checks the shape), or null. */
  adapter: string | null;
  /** Where reads of this cell are counted (the build caches of the worker that warmed the source). */
  counters: LinkDataCounters;
}

/**
 * How many lazily read link data texts were parsed and how many were damaged, since the counts were
 * last taken. One instance per set of build caches: the build that reads a damaged text learns it
 * from the counts it takes after linking, and runs again from the sources.
 */
export class LinkDataCounters {
  private damaged = 0;
  private parsed = 0;

  /** Counts one damaged text. */
  countDamaged(): void {
    this.damaged += 1;
  }

  /** Counts one text parsed on first read. */
  countParsed(): void {
    this.parsed += 1;
  }

  /** How many lazily read texts were damaged since the last call (then reset to 0). */
  takeDamaged(): number {
    const count = this.damaged;
    this.damaged = 0;
    return count;
  }

  /** How many texts were parsed on first read since the last call (then reset to 0). */
  takeParsed(): number {
    const count = this.parsed;
    this.parsed = 0;
    return count;
  }
}

/** Per lazy source object, its cell (keyed by the object itself: the state lives and dies with the source). */
const cells = new WeakMap<object, Cell>();

/** The text of `cell` read from the parse cache, if it was not yet; false when it could not be read (the row is gone or holds another parse). */
function fetched(cell: Cell): boolean {
  if (cell.lost) return false;
  if (cell.fetch === null) return true;
  const text = cell.fetch();
  cell.fetch = null;
  if (text === null) {
    cell.lost = true;
    return false;
  }
  cell.text = text;
  return true;
}

/** The link data of `cell`, read and parsed on the first call. */
function read(cell: Cell): unknown {
  if (!fetched(cell)) {
    cell.counters.countDamaged();
    cell.value = null;
    return null;
  }
  if (cell.text !== null) {
    const text = cell.text;
    cell.text = null;
    cell.counters.countParsed();
    try {
      const value = JSON.parse(text) as unknown;
      const check = cell.adapter === null ? undefined : codeLinker(cell.adapter)?.isLinkData;
      if (typeof value !== 'object' || value === null || Array.isArray(value) || (check !== undefined && !check(value))) throw new TypeError('not link data');
      cell.value = value;
    } catch {
      // Not JSON, or not this adapter's link data: a damaged cache row, read as none and counted.
      cell.counters.countDamaged();
      cell.value = null;
    }
  }
  return cell.value;
}

/**
 * A cached source whose `link_data` is read (when `text` is a parse-cache fetch) and parsed from
 * its JSON text (of a non-null value; null: no link data) on its first read. A fetch that finds
 * nothing counts as damaged, as a text that does not parse does. Assigning `link_data` replaces it.
 * @param source every other field of the source
 * @param counters where reads of the source's link data are counted (the caches that hold it)
 */
export function withLazyLinkData(source: Omit<CachedSource, 'link_data'>, text: string | LinkDataFetch | null, counters: LinkDataCounters): CachedSource {
  const cell: Cell = {
    text: typeof text === 'string' ? text : null, fetch: typeof text === 'function' ? text : null, lost: false, value: null, adapter: source.adapter, counters,
  };
  const lazy = {
    ...source,
    get link_data(): unknown {
      return read(cell);
    },
    set link_data(value: unknown) {
      cell.text = null;
      cell.fetch = null;
      cell.lost = false;
      cell.value = value;
    },
  };
  cells.set(lazy, cell);
  return lazy;
}

/** Whether `source` has link data, without reading or parsing text not read yet. */
export function linkDataPresent(source: CachedSource): boolean {
  const cell = cells.get(source);
  if (cell !== undefined && (cell.text !== null || cell.fetch !== null || cell.lost)) return true;
  return source.link_data !== null && source.link_data !== undefined;
}

/**
 * The JSON text of `source`'s link data (as the parse cache stores it), or null (none); text not
 * parsed yet is returned as is (read from the cache first if need be). Undefined when it could not
 * be read from the cache: the caller stores no row for the source, so a later build parses it again.
 */
export function linkDataJson(source: CachedSource): string | null | undefined {
  const cell = cells.get(source);
  if (cell !== undefined && !fetched(cell)) return undefined;
  if (cell !== undefined && cell.text !== null) return cell.text;
  const value = source.link_data;
  return value === null || value === undefined ? null : JSON.stringify(value);
}
