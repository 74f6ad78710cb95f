/**
 * What the two halves of descriptor validation share: the `descriptor_invalid` error with the
 * offending line and key ({@link Checker}), the display form of a key and the closed key lists of
 * each table, which name the expected keys in the message about an unknown one.
 */
import { errors } from '@docforge/core';
import { lineOf, type TomlOutline } from '@docforge/markdown';
import { DESCRIPTOR_FILE } from './descriptor-types.js';

/** A parsed TOML table. */
export type Table = Record<string, unknown>;

/** Whether a parsed TOML value is a table (TOML dates parse to Date objects, which are not). */
export function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * The keys each table may hold, in the order the messages list them. The descriptor schema
 * (protocol/schemas/v1/descriptor.schema.json) declares the same closed tables; the parity test
 * (libs/project/test/descriptor-schema-parity.test.ts) pins that both agree.
 */
export const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  '': ['schema_version', 'project', 'sources', 'adapter', 'vocabulary', 'limits', 'state', 'views', 'proposals'],
  proposals: ['writers', 'appliers'],
  proposal_applier: ['writers'],
  proposal_writer: ['operations', 'paths'],
  project: ['id', 'name'],
  sources: ['content_roots', 'code_roots', 'exclude'],
  adapter: ['code', 'strategy', 'module', 'canonical_applier', 'c'],
  adapter_c: ['include_dirs', 'headers'],
  vocabulary: ['kinds', 'authorities', 'statuses', 'relations'],
  limits: ['max_results', 'max_output_chars'],
  state: ['dir'],
  views: ['id', 'title', 'renderer', 'select', 'output', 'rows', 'columns', 'relations', 'mode', 'focus', 'depth'],
};

/** `limits.max_results` -> `[limits].max_results`; `views.0.id` -> `[[views]][0].id`. */
export function displayKey(key: string): string {
  const parts = key.split('.');
  const head = parts[0] ?? '';
  if (parts.length === 1) return head !== 'schema_version' && (ALLOWED[''] ?? []).includes(head) ? `[${head}]` : head;
  if (parts[0] === 'views') {
    const rest = parts.slice(2).join('.');
    return `[[views]][${parts[1] ?? '?'}]${rest === '' ? '' : `.${rest}`}`;
  }
  return `[${parts[0]}].${parts.slice(1).join('.')}`;
}

/** Validation context: the descriptor text outline (and its lines), for line lookups. */
export class Checker {
  constructor(private readonly outline: TomlOutline, private readonly lines: readonly string[] = []) {}

  /** First line of the dotted key, or null. */
  lineOf(key: string): number | null {
    return lineOf(this.outline, key);
  }

  /**
   * The line of one item of the list at `key`: the line, from the key's line on (at most 1,000
   * lines), that holds the `nth` occurrence of the item as a TOML string, else the key's line (null
   * without one).
   */
  itemLine(key: string, item: string, nth = 1): number | null {
    const keyLine = this.lineOf(key);
    if (keyLine === null) return null;
    const forms = [JSON.stringify(item), `'${item}'`];
    let seen = 0;
    for (let i = keyLine - 1; i < Math.min(this.lines.length, keyLine + 999); i += 1) {
      seen += forms.reduce((sum, form) => sum + this.lines[i]!.split(form).length - 1, 0);
      if (seen >= nth) return i + 1;
    }
    return keyLine;
  }

  /** The value text of a one-line `key = value` at the key's line (a trailing `# comment` cut when no string is on it), or null. */
  rawValue(key: string): string | null {
    const line = this.lineOf(key);
    const text = line === null ? undefined : this.lines[line - 1];
    const eq = text?.indexOf('=') ?? -1;
    if (text === undefined || eq < 0) return null;
    const value = text.slice(eq + 1);
    const hash = value.indexOf('#');
    const shown = (/["']/.test(value) || hash < 0 ? value : value.slice(0, hash)).trim();
    return shown === '' || shown.length > 40 ? null : shown;
  }

  /**
   * Throws descriptor_invalid for the dotted key (`limits.max_results`, `views.0.id`).
   * @param line the line to name; the key's own line when undefined, none when null
   */
  fail(key: string, message: string, line?: number | null): never {
    const at = line !== undefined ? line : lineOf(this.outline, key);
    const where = at === null ? `${DESCRIPTOR_FILE}:` : `${DESCRIPTOR_FILE}:${at}:`;
    throw errors.descriptorInvalid(`${where} ${displayKey(key)} ${message}`, {
      path: DESCRIPTOR_FILE,
      line: at,
      key,
    });
  }
}
