/**
 * The format of `index/current.json` and its ONE validator (issue 7: "current.json is checked by
 * one function, not two of differing strictness"). Every reader of current.json (the build, the
 * manager, the receipt status) goes through {@link parsePublication}.
 */

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

/** Name pattern of published index files inside `<state>/index/`. */
export const INDEX_FILE_PATTERN = /^gen-\d+-[a-z0-9]+\.sqlite$/;

const HEX64 = /^[0-9a-f]{64}$/;
const COUNT_KEYS = ['sources', 'nodes', 'edges', 'issues', 'logic_steps'] as const;

/** Outcome of checking a parsed current.json: the typed publication, or one sentence saying why not. */
export type PublicationCheck = { ok: true; publication: Publication } | { ok: false; problem: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * THE check of a parsed current.json: every required field present with the right type and
 * range; the receipt fields present together or not at all, typed. Whether the receipt they name
 * is genuine is for the receipt status to prove against the receipt file. Shaped to be replaced by
 * the generated schema validator of `protocol/` (`protocol/schemas/v1/current.schema.json`).
 */
export function checkPublication(value: unknown): PublicationCheck {
  const fail = (problem: string): PublicationCheck => ({ ok: false, problem });
  if (!isObject(value)) return fail('current.json is not an object');
  const v = value;
  if (v.schema_version !== 1) return fail('current.json has another schema version');
  if (!Number.isSafeInteger(v.generation) || (v.generation as number) < 1 || (v.generation as number) > MAX_GENERATION) return fail('current.json has no valid generation');
  if (typeof v.index_file !== 'string' || !INDEX_FILE_PATTERN.test(v.index_file)) return fail('current.json has no valid index file name');
  for (const key of ['source_identity', 'source_hash'] as const) {
    if (typeof v[key] !== 'string' || !HEX64.test(v[key])) return fail(`current.json has no valid ${key}`);
  }
  if (typeof v.index_ino !== 'string' || !/^\d+$/.test(v.index_ino)) return fail('current.json has no valid index_ino');
  if (!Number.isSafeInteger(v.index_size) || (v.index_size as number) <= 0) return fail('current.json has no valid index_size');
  if (!Number.isSafeInteger(v.index_schema_version)) return fail('current.json has no valid index_schema_version');
  if (typeof v.adapter_version !== 'string' || v.adapter_version.length > 1024) return fail('current.json has no valid adapter_version');
  if (typeof v.logic_present !== 'boolean' || typeof v.logic_allowed !== 'boolean') return fail('current.json has no valid Logic flags');
  if (typeof v.project_id !== 'string') return fail('current.json has no valid project_id');
  const counts = v.counts;
  if (!isObject(counts) || !COUNT_KEYS.every((k) => isCount(counts[k]))) return fail('current.json has no valid counts');
  if (typeof v.published_at !== 'string') return fail('current.json has no valid published_at');
  const receipt = [v.receipt_file, v.receipt_ino, v.receipt_size, v.receipt_hash];
  if (!receipt.every((x) => x === undefined)) {
    const ok = typeof v.receipt_file === 'string' && v.receipt_file.length > 0 && typeof v.receipt_ino === 'string' && /^\d+$/.test(v.receipt_ino)
      && isCount(v.receipt_size) && typeof v.receipt_hash === 'string' && HEX64.test(v.receipt_hash);
    if (!ok) return fail('current.json records a malformed receipt identity');
  }
  return { ok: true, publication: value as unknown as Publication };
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
