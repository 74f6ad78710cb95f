/**
 * Group ids of the architecture map (issue 34 item 1). An id is minted by the worker for one
 * snapshot: `g1.<payload>.<mac>`, where the payload is the base64url of `<kind letter><offset in
 * base 36>:<path>` and the mac an HMAC-SHA256 (key: 32 random bytes drawn when the worker starts) over the snapshot
 * signature and the payload. `expand` accepts only ids this worker minted for this snapshot, so a
 * request can never name a free path; the snapshot then validates that the group exists.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { errors } from '@docforge/core';

/** The kinds of map groups (protocol overview.schema.json `map_group.kind`). */
export type GroupKind = 'folder' | 'files' | 'rest' | 'file';

/**
 * What a group id stands for: a folder (path with a trailing `/`, `''` for the root), the files
 * directly in a folder, the children of a folder from `offset` on (`rest`), or one file.
 */
export interface GroupRef {
  kind: GroupKind;
  path: string;
  /** For `rest`: the index of the first child it stands for; 0 otherwise. */
  offset: number;
}

const KINDS: readonly GroupKind[] = ['folder', 'files', 'rest', 'file'];
/** Characters of the mac kept in an id (base64url; 96 bits). */
const MAC_CHARS = 16;
/** One letter per kind in the payload (ids travel in every edge of an answer, so they are kept short). */
const KIND_LETTERS: Record<GroupKind, string> = { folder: 'd', files: 'f', rest: 'r', file: 'a' };
/** Longest id accepted (the schema's bound). */
export const MAX_GROUP_ID_CHARS = 2048;

/** Mints and checks the group ids of one worker and snapshot. */
export class GroupIds {
  readonly #key = randomBytes(32);

  /** @param binding the snapshot the ids belong to (its signature, serialized). */
  constructor(private readonly binding: string) {}

  #mac(payload: string): string {
    return createHmac('sha256', this.#key).update(this.binding).update('\0').update(payload).digest('base64url').slice(0, MAC_CHARS);
  }

  /** The id of `ref`. */
  mint(ref: GroupRef): string {
    const payload = Buffer.from(`${KIND_LETTERS[ref.kind]}${ref.offset.toString(36)}:${ref.path}`, 'utf8').toString('base64url');
    return `g1.${payload}.${this.#mac(payload)}`;
  }

  /**
   * The reference of an id this worker minted for this snapshot.
   * @throws DocforgeError `invalid_arguments` (details.reason `group_not_minted`) for anything else
   */
  parse(id: string): GroupRef {
    const refuse = (): never => {
      throw errors.invalidArguments('The expand value is not a group id of this map: pass only an id from an earlier /api/overview answer of this page.', { parameter: 'expand', reason: 'group_not_minted' });
    };
    const parts = id.length <= MAX_GROUP_ID_CHARS ? id.split('.') : [];
    if (parts.length !== 3 || parts[0] !== 'g1') return refuse();
    const [, payload, mac] = parts as [string, string, string];
    const expected = Buffer.from(this.#mac(payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return refuse();
    const text = Buffer.from(payload, 'base64url').toString('utf8');
    const match = /^([dfra])([0-9a-z]{1,8}):([\s\S]*)$/.exec(text);
    if (match === null) return refuse();
    const kind = KINDS.find((k) => KIND_LETTERS[k] === match[1])!;
    const offset = parseInt(match[2]!, 36);
    const path = match[3]!;
    return { kind: kind as GroupKind, path, offset };
  }
}
