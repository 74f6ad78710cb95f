/**
 * The one grammar of writer and applier ids (`--proposal-writer ID`, `--canonical-applier ID`,
 * `ProjectProposals.writer`, the CLI's `--writer` and `--canonical-applier`; issue 30 item 6).
 * An id is stored in changesets and receipts, printed in logs and instructions and named in
 * `[proposals.writers.ID]` tables, so it is a plain token: no spaces, quotes, controls or
 * punctuation that a reader could mistake for syntax. The same characters as a changeset id
 * (protocol/schemas/v1/changeset.schema.json `id`), up to the changeset schema's writer
 * `maxLength` of 256.
 */

/** Maximum length of a writer or applier id, in characters (the changeset schema's `writer.maxLength`). */
export const MAX_ACCESS_ID_LENGTH = 256;

/** A writer or applier id: a letter or digit, then letters, digits, `.`, `_` or `-`; 1 to 256 characters. */
export const ACCESS_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,255}$/;

/** The grammar in words, for messages. */
export const ACCESS_ID_RULE = `1 to ${MAX_ACCESS_ID_LENGTH} characters: letters, digits, '.', '_' or '-', starting with a letter or digit`;

/**
 * Why `value` is not a writer or applier id, or null when it is one.
 * @param option the option or argument that carried it (`--proposal-writer`), named in the message
 * @returns a one-line message naming the option, the value (JSON, at most 80 characters) and the rule
 */
export function accessIdProblem(option: string, value: unknown): string | null {
  if (typeof value === 'string' && ACCESS_ID_PATTERN.test(value)) return null;
  const shown = typeof value === 'string' ? JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value) : typeof value;
  return `${option} ${shown} is not a valid id: give ${ACCESS_ID_RULE}`;
}
