/**
 * The format of `index/current.json` and its ONE validator (issue 7: "current.json is checked by
 * one function, not two of differing strictness"). Every reader of current.json (the build, the
 * manager, the receipt status) goes through {@link parsePublication}.
 */
import { describeValidationErrors } from '@docforge/protocol/validator';
import { validateCurrentJson } from '@docforge/protocol/current-json';

/**
 * The content of `index/current.json`: which index file is published, and the five-field index
 * publication signature (`generation`, `source_identity`, `index_file`, `index_ino`, `index_size`)
 * of DESIGN.md section 4, plus the bindings every response reports.
 */
export interface Publication {
  schema_version: 1;
  generation: number;
  source_identity: string;
  source_hash: string;
  /** File name of the index inside `<state>/index/`. */
  index_file: string;
  /** Inode of the index file, decimal string. */
  index_ino: string;
  /** Size of the index file in bytes. */
  index_size: number;
  index_schema_version: number;
  adapter_version: string;
  /** Whether the published index holds any Logic rows. */
  logic_present: boolean;
  /** Whether the build that published it was allowed to extract Logic. */
  logic_allowed: boolean;
  project_id: string;
  counts: { sources: number; nodes: number; edges: number; issues: number; logic_steps: number };
  /** ISO-8601 time of publication. */
  published_at: string;
  /** File name of the generation receipt written with this publication (absent when none could be written). */
  receipt_file?: string;
  /** Inode of the receipt file, decimal string. */
  receipt_ino?: string;
  /** Size of the receipt file in bytes. */
  receipt_size?: number;
  /** `receipt_hash` of the receipt (SHA-256 of its canonical JSON without that field). */
  receipt_hash?: string;
}

/** Largest accepted `current.json` in bytes; a larger file is not a publication. */
export const MAX_CURRENT_BYTES = 64 * 1024;

/** Highest generation number accepted from disk; anything above is treated as corrupt state. */
export const MAX_GENERATION = 2 ** 40;

/** Name pattern of published index files inside `<state>/index/` (the schema holds the same pattern). */
export const INDEX_FILE_PATTERN = /^gen-\d+-[a-z0-9]+\.sqlite$/;

/** Outcome of checking a parsed current.json: the typed publication, or one sentence saying why not. */
export type PublicationCheck = { ok: true; publication: Publication } | { ok: false; problem: string };

/**
 * THE check of a parsed current.json: the generated validator of
 * `protocol/schemas/v1/current.schema.json` (every required field present with the right type and
 * range; the receipt fields present together or not at all). Whether the receipt they name is
 * genuine is for the receipt status to prove against the receipt file.
 */
export function checkPublication(value: unknown): PublicationCheck {
  if (validateCurrentJson(value)) return { ok: true, publication: value as Publication };
  const [first] = describeValidationErrors(validateCurrentJson.errors, 1);
  return { ok: false, problem: `current.json does not match its schema (${first ? `${first.path}: ${first.message}` : 'invalid'})` };
}

/** Parses the text of current.json and checks it with {@link checkPublication}. */
export function parsePublication(text: string): PublicationCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'current.json is not valid JSON' };
  }
  return checkPublication(value);
}
