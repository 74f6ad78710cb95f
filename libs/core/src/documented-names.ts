/**
 * Documented names carried to the code that reads them (issue 31 item 2): a file's own JSDoc says
 * what an option or property means (`@param {Number} [options.maxPayload=0] The maximum allowed
 * message length`, `@property {string} host ...`, or a doc comment right above a property
 * declaration `maxPayload?: number`), and every function of the same file whose code text holds
 * that name (`options.maxPayload`, `this._maxPayload`, `{ maxPayload } = opts`) gets the
 * description's words as searchable code text. The bridge is the project's own statement, never a
 * vocabulary of ours; it stays inside one file, so a file's code text depends on that file alone
 * (an incremental build re-parses exactly what changed).
 */

/** A member tag: `@param {T} [options.name=default] text` or `@property {T} name text` (type optional). */
const MEMBER_TAG = /^@(param|arg|argument|property|prop)\s+(?:\{[^}]*\}\s*)?(\[?)([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)/;
/** A property declaration right after a doc comment: `name?: T`, `readonly name: T`, `name = value` in a class, `name: value` in a literal. */
const PROPERTY_LINE = /^\s*(?:(?:public|private|protected|readonly|static|declare)\s+)*#?([A-Za-z_$][\w$]*)\??\s*[:=]/;
/** A word of a description (as code text's words: letters, digits and `_`). */
const WORD = /[\p{L}\p{M}\p{N}_]+/gu;

/** Shortest documented name carried (a two-letter name such as `id` is too common to bridge). */
const MIN_NAME_CHARS = 3;
/** Most characters of one description read (a long essay contributes its first sentences only). */
const MAX_DESCRIPTION_CHARS = 300;
/** Most words a node gains from documented names, over all names it reads. */
export const MAX_BRIDGED_WORDS = 48;

/**
 * Every JSDoc block (`/** ... *\/`) of `text`, in order, as `{ 0: block, index }` (the shape of a
 * regex match, so callers read it alike). A linear scan: the regex form `\/\*\*[\s\S]*?\*\/`
 * is quadratic on a file with many unclosed `/**` (regex guard, issue 30).
 */
function* jsdocBlocks(text: string): Generator<{ 0: string; index: number }> {
  for (let start = text.indexOf('/**'); start >= 0; ) {
    const close = text.indexOf('*/', start + 3);
    if (close < 0) return;
    yield { 0: text.slice(start, close + 2), index: start };
    start = text.indexOf('/**', close + 2);
  }
}

/**
 * The description words of each documented name of a file, by name (the last segment of a dotted
 * `@param` name). A plain `@param {T} name` is a function parameter, not an option or property,
 * and is left out. Words are kept as written, as code text keeps them: two characters or more, a
 * number only with three digits or more.
 * Linear in the text.
 */
export function documentedNames(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const match of jsdocBlocks(text)) {
    const lines = match[0].slice(3, -2).split(/\r\n|\r|\n/).map((l) => l.replace(/^\s*\*?\s?/, '').trim());
    taggedNames(lines, out);
    const after = text.slice(match.index + match[0].length, match.index + match[0].length + 200).replace(/^\s*\n/, '');
    const property = PROPERTY_LINE.exec(after.split(/\r\n|\r|\n/, 1)[0] ?? '');
    if (property !== null) {
      const lead: string[] = [];
      for (const line of lines) {
        if (line.startsWith('@')) break;
        lead.push(line);
      }
      note(out, property[1]!, lead.join(' '));
    }
  }
  return out;
}

/** Notes the member tags of one JSDoc block's lines (continuation lines join their tag's text). */
function taggedNames(lines: readonly string[], out: Map<string, string[]>): void {
  let name: string | null = null;
  let description = '';
  const flush = (): void => {
    if (name !== null) note(out, name, description);
    name = null;
    description = '';
  };
  for (const line of lines) {
    if (!line.startsWith('@')) {
      if (name !== null) description += ` ${line}`;
      continue;
    }
    flush();
    const tag = MEMBER_TAG.exec(line);
    if (tag === null) continue;
    const dotted = tag[3]!.includes('.');
    if (!dotted && !tag[1]!.startsWith('prop')) continue;
    name = tag[3]!.slice(tag[3]!.lastIndexOf('.') + 1);
    let rest = line.slice(tag[0].length);
    if (tag[2] === '[') rest = rest.slice(rest.indexOf(']') + 1);
    description = rest.replace(/^\s*-?\s*/, '');
  }
  flush();
}

function note(out: Map<string, string[]>, name: string, description: string): void {
  if (name.length < MIN_NAME_CHARS) return;
  const words = (description.slice(0, MAX_DESCRIPTION_CHARS).match(WORD) ?? []).filter((w) => w.length >= 3 || (w.length === 2 && !/^\p{N}+$/u.test(w)));
  if (words.length === 0) return;
  const into = out.get(name) ?? [];
  for (const w of words) if (!into.includes(w)) into.push(w);
  out.set(name, into);
}

/**
 * `words` (a node's code words, space-separated) with the descriptions of the documented names it
 * holds appended: a word names a documented name as written or with leading underscores removed
 * (`_maxPayload` is the field that stores `maxPayload`). At most {@link MAX_BRIDGED_WORDS} words
 * are added; words already present are not repeated.
 */
export function withDocumentedNames(words: string, names: ReadonlyMap<string, readonly string[]>): string {
  if (names.size === 0) return words;
  const present = new Set(words.split(' '));
  const added: string[] = [];
  for (const word of present) {
    const described = names.get(word.replace(/^_+/, ''));
    if (described === undefined) continue;
    for (const w of described) {
      if (added.length >= MAX_BRIDGED_WORDS) break;
      if (!present.has(w) && !added.includes(w)) added.push(w);
    }
  }
  return added.length === 0 ? words : `${words} ${added.join(' ')}`;
}
