/**
 * Span edits of foreign YAML front matter (issue 30, item 21): a title change once re-serialised
 * the whole block through the `yaml` Document API, so an untouched `tags: [a,  b]` became
 * `tags: [ a, b ]`. Here each changed top-level key is located by its node's source range and
 * only its value is replaced, in the style it had (plain, single- or double-quoted scalar; flow or
 * block sequence); a new key is appended as one line. Everything else keeps its bytes. The result
 * must read back as the intended mapping, else null (the caller falls back to the Document API).
 *
 * Pure: no file system access.
 */
import type * as Yaml from 'yaml';
import type { Document as YamlDocument, Node as YamlNode } from 'yaml';
import { sameToml } from './toml-check.js';

type Table = Record<string, unknown>;

/** A scalar in flow context, single line: in the style of `old` when it can hold the value. */
function scalarText(yaml: typeof Yaml, value: unknown, old: YamlNode | null): string | null {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') return null;
  const type = old !== null && yaml.isScalar(old) ? old.type : 'PLAIN';
  if (type === 'QUOTE_DOUBLE' || type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED') return JSON.stringify(value);
  const text = yaml.stringify(value, { lineWidth: 0, defaultStringType: type === 'QUOTE_SINGLE' ? 'QUOTE_SINGLE' : 'PLAIN' }).replace(/\n$/, '');
  return text.includes('\n') ? JSON.stringify(value) : text;
}

/** A sequence in the style of `old`: flow `[a, b]` (spacing kept), or block items at its indent. */
function sequenceText(yaml: typeof Yaml, value: readonly unknown[], old: YamlNode | null, indent: string, eol: string): string | null {
  const items = old !== null && yaml.isSeq(old) ? old.items as YamlNode[] : [];
  const parts: string[] = [];
  for (const v of value) {
    const text = scalarText(yaml, v, items[0] ?? null);
    if (text === null) return null;
    parts.push(text);
  }
  if (old !== null && yaml.isSeq(old) && !old.flow && parts.length > 0) return parts.map((p) => `- ${p}`).join(`${eol}${indent}`);
  return parts.length === 0 ? '[]' : `[${parts.join(', ')}]`;
}

function valueText(yaml: typeof Yaml, value: unknown, old: YamlNode | null, indent: string, eol: string): string | null {
  return Array.isArray(value) ? sequenceText(yaml, value, old, indent, eol) : scalarText(yaml, value, old);
}

/**
 * `raw` (the front matter block's content) with its top-level mapping changed from `before` to
 * `after` by span edits, or null when a change is not one it makes (a removed key, a value that
 * is not a scalar or a list of scalars, a flow mapping at the top) or the result would not read
 * back as `after`.
 * @param yaml the `yaml` package; `doc` its parse of `raw`
 */
export function spliceYaml(yaml: typeof Yaml, raw: string, doc: YamlDocument, before: Table, after: Table): string | null {
  const root = doc.contents;
  if (root === null || !yaml.isMap(root) || root.flow === true) return null;
  const nl = raw.indexOf('\n');
  const eol = nl > 0 && raw[nl - 1] === '\r' ? '\r\n' : '\n';
  const splices: { from: number; to: number; text: string }[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (sameToml(before[key], after[key])) continue;
    if (!Object.hasOwn(after, key)) return null;
    const pair = root.items.find((p) => yaml.isScalar(p.key) && p.key.value === key);
    const old = pair !== undefined && yaml.isNode(pair.value) ? pair.value : null;
    if (pair !== undefined) {
      const range = old?.range;
      if (old === null || range === undefined || range === null) return null;
      const lineStart = raw.lastIndexOf('\n', range[0] - 1) + 1;
      const text = valueText(yaml, after[key], old, ' '.repeat(range[0] - lineStart), eol);
      if (text === null) return null;
      // A block sequence's range runs through its last line break: the break stays.
      let to = range[1];
      while (to > range[0] && /[\r\n]/.test(raw[to - 1]!)) to -= 1;
      splices.push({ from: range[0], to, text });
      continue;
    }
    const text = valueText(yaml, after[key], null, '', eol);
    if (text === null || !/^[A-Za-z0-9_-]+$/.test(key)) return null;
    const lead = raw.length > 0 && !raw.endsWith('\n') ? eol : '';
    splices.push({ from: raw.length, to: raw.length, text: `${lead}${key}: ${text}${eol}` });
  }
  let out = raw;
  for (const s of splices.sort((a, b) => b.from - a.from)) out = out.slice(0, s.from) + s.text + out.slice(s.to);
  const reread = yaml.parseDocument(out);
  return reread.errors.length === 0 && sameToml(reread.toJS(), after) ? out : null;
}
