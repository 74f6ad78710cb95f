/**
 * The "open" end of a sync (IndexManager, manager.ts): the one publication an IndexManager serves
 * and its read-only reader (libs/store `IndexReader`). One file is opened whole, so answers never
 * mix generations; a file SQLite reported damaged is not trusted again until a sync validates it.
 */
import path from 'node:path';
import type { StateLayout } from '@docforge/fs-safe';
import { IndexReader, readPublication, type Publication } from '@docforge/store';

/** How often a sync re-reads `current.json` when the publication it was given vanished before it was opened. */
export const OPEN_RETRIES = 5;

/** The publication served, with its open reader. */
export interface Served {
  publication: Publication;
  reader: IndexReader;
}

/** The publication an IndexManager serves (see the module comment). */
export class ServedIndex {
  private current: Served | null = null;
  private newestGeneration = 0;
  /** Set by {@link invalidate}: the published file is not trusted even if its identity still matches. */
  private isDamaged = false;

  /** @param noAst `--no-ast`: an index holding Logic is rejected before any read (contract: Preserved no-AST bindings). */
  constructor(private readonly noAst: boolean) {}

  /** The publication served and its reader, or null before the first successful open. */
  served(): Served | null {
    return this.current;
  }

  /** The highest generation opened so far (0 before any). */
  lastGeneration(): number {
    return this.newestGeneration;
  }

  /** Whether the served file was reported damaged since the last build that published a new one. */
  damaged(): boolean {
    return this.isDamaged;
  }

  /** A build published a new file: it is trusted again. */
  trust(): void {
    this.isDamaged = false;
  }

  /** Opens (or keeps) the reader for a publication; false when the file is not a valid index. */
  open(layout: StateLayout, publication: Publication): boolean {
    if (this.current && this.current.publication.index_file === publication.index_file && this.current.publication.index_ino === publication.index_ino) {
      this.current.publication = publication;
      return true;
    }
    let reader: IndexReader;
    try {
      reader = new IndexReader(path.join(layout.indexDir, publication.index_file));
    } catch {
      // Not a valid index (or gone): the caller serves another publication or builds.
      return false;
    }
    if (this.noAst && reader.count('logic_steps') > 0) {
      // Contract (Preserved no-AST bindings): a pre-existing index containing Logic is rejected before any read.
      reader.close();
      return false;
    }
    this.current?.reader.close();
    this.current = { publication, reader };
    this.newestGeneration = Math.max(this.newestGeneration, publication.generation);
    return true;
  }

  /**
   * Opens `first`, or, when its file vanished (another process published after it and collected
   * it), the publication `current.json` names now: re-read up to {@link OPEN_RETRIES} times.
   * @returns the publication now served, or null when none could be opened
   */
  openNewest(layout: StateLayout, first: Publication): Publication | null {
    if (this.open(layout, first)) return first;
    let tried = first;
    for (let attempt = 0; attempt < OPEN_RETRIES; attempt += 1) {
      const now = readPublication(layout);
      if (now === null) return null;
      if (now.index_file === tried.index_file && now.index_ino === tried.index_ino) return null; // the same file again: it is broken
      if (this.open(layout, now)) return now;
      tried = now;
    }
    return null;
  }

  /** Forgets the open publication (SQLite reported the file damaged): the next sync validates it again. */
  invalidate(): void {
    this.close();
    this.isDamaged = true;
  }

  /** Closes the reader. */
  close(): void {
    this.current?.reader.close();
    this.current = null;
  }
}
