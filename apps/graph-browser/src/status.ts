/**
 * GET /api/status (protocol/schemas/viewer/v2/api/status.schema.json): which generation the
 * worker serves and which one the project publishes now. The worker keeps serving its exact
 * snapshot (contract: Visualization boundary: "requires another MCP invocation to refresh"); this
 * only lets the page say so. One lstat of `index/current.json` per request; the file (at most
 * MAX_CURRENT_BYTES) is re-read and re-validated only when its identity changed. Read-only.
 */
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_CURRENT_BYTES, parsePublication, type Publication } from '@docforge/store';
import type { GraphBrowserStatus } from '@docforge/protocol';
import type { GraphBrowserWorkerConfig } from './config.js';

/** Name of the publication file beside the index files (libs/fs-safe stateLayout: `<state>/index/current.json`). */
const CURRENT_FILE = 'current.json';

/** Answers /api/status for one worker; caches the parsed publication by its file identity. */
export class PublicationWatch {
  readonly #config: GraphBrowserWorkerConfig;
  readonly #file: string;
  #stamp = '';
  #publication: Publication | null = null;

  constructor(config: GraphBrowserWorkerConfig) {
    this.#config = config;
    this.#file = path.join(path.dirname(config.index_path), CURRENT_FILE);
  }

  /** The publication `current.json` names now (null when none, oversized, not a file or invalid). Never throws. */
  published(): Publication | null {
    let stamp: string;
    try {
      const st = lstatSync(this.#file, { bigint: true });
      if (!st.isFile() || st.size > BigInt(MAX_CURRENT_BYTES)) return this.#remember('not-a-publication', null);
      stamp = `${st.ino}:${st.size}:${st.mtimeNs}`;
    } catch {
      return this.#remember('absent', null);
    }
    if (stamp === this.#stamp) return this.#publication;
    let publication: Publication | null = null;
    try {
      const checked = parsePublication(readFileSync(this.#file, 'utf8'));
      publication = checked.ok ? checked.publication : null;
    } catch {
      publication = null;
    }
    return this.#remember(stamp, publication);
  }

  #remember(stamp: string, publication: Publication | null): Publication | null {
    this.#stamp = stamp;
    this.#publication = publication;
    return publication;
  }

  /** The status answer: served generation, published generation, and whether they are the same file. */
  status(): GraphBrowserStatus {
    const signature = this.#config.signature;
    const now = this.published();
    return {
      served: { generation: signature.generation, index_file: signature.index_file },
      published: now === null ? null : { generation: now.generation, index_file: now.index_file, published_at: now.published_at.slice(0, 64) },
      current: now !== null && now.index_file === signature.index_file && now.index_ino === signature.index_ino && now.index_size === signature.index_size,
    };
  }
}
