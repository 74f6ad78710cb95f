/**
 * Parameter lists of a Markdown body (issue 32 item 2, `drift_parameters`): the parameters a doc
 * section lists for the function its heading names, in one of three forms:
 * - a table with a `Name`, `Parameter`, `Param`, `Argument` or `Option` column;
 * - a bullet list whose items start with a code span, under a heading (or a lone paragraph such
 *   as `**Parameters:**`) reading `Parameters`, `Arguments`, `Params`, `Args` or `Options`;
 * - `@param` lines outside code blocks.
 * The function is the first code span (or `name(` text) of the nearest enclosing heading that has
 * one. Pure: reads markdown-it tokens (libs/markdown markdown-facts.ts parses); the resolver
 * (libs/project resolve-refs.ts, with param-drift.ts here) compares with the code.
 */
/** The part of a markdown-it token read here (structural: core does not depend on markdown-it). */
export interface MarkdownToken {
  type: string;
  tag: string;
  level: number;
  map: [number, number] | null;
  content: string;
  children: MarkdownToken[] | null;
}
type Token = MarkdownToken;

/** One parameter list a section gives, resolved later against the function its heading names. */
export interface ParameterList {
  /** The heading's name of the documented function as written (`Ledger.capture(paymentId, amount)`). */
  function: string;
  /** Listed parameter names (first segment: `options.level` lists `options`), in order, unique. */
  names: string[];
  form: 'table' | 'list' | 'param';
  /** Set when the list is headed `Options` (heading, label or table column): it may list an options object's fields. */
  options?: true;
}

/** Most lists recorded per Markdown body. */
const MAX_LISTS = 64;
const COLUMN = /^(name|parameter|param|argument|arg|option)s?$/i;
const LIST_HEADING = /^(parameters|arguments|params|args|options)\b/i;
const LIST_LABEL = /^(parameters|arguments|params|args|options)\s*:?$/i;
const PARAM_LINE = /^\s*(?:[*-]\s*)?@param\s+(?:\{[^}]*\}\s*)?(\S+)/;

const LINE_END = /[\n\r\u2028\u2029]/;

/** `text` without its trailing run of `]`, `?` and `:` (was /[\]?:]+$/, quadratic on a long run: issue 30). */
function trimClosers(text: string): string {
  let end = text.length;
  while (end > 0 && ']?:'.includes(text[end - 1] as string)) end--;
  return text.slice(0, end);
}

/** `text` cut at the first `=` of its last line (was /=.*$/, quadratic on a run of `=`: issue 30). */
function beforeEquals(text: string): string {
  let lastLine = text.length;
  while (lastLine > 0 && !LINE_END.test(text[lastLine - 1] as string)) lastLine--;
  const eq = text.indexOf('=', lastLine);
  return eq < 0 ? text : text.slice(0, eq);
}

/** The parameter name a list entry gives (`[options.level=info]` -> `options`), or null. */
export function listedName(raw: string): string | null {
  const name = beforeEquals(trimClosers(raw.trim().replace(/^\.\.\./, '').replace(/^\*{1,2}/, '').replace(/^\[/, ''))).split('.')[0]!.trim();
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : null;
}

function children(token: Token | undefined): Token[] {
  return token?.children ?? [];
}

/** Plain text of an inline token, code spans included. */
function plain(token: Token | undefined): string {
  return children(token).map((c) => c.content).join('').trim();
}

/**
 * The first `name(args)` of a heading's text, as `name(args)`: what /([A-Za-z_$][\w$.]*)\s*\(([^()]*)\)/ found (26 s on
 * 55 KB of `$`: issue 30) in linear time. Each run of [\w$.] is tried once, from its first [A-Za-z_$].
 */
function firstCall(text: string): string | null {
  for (let i = 0; i < text.length; ) {
    if (!/[\w$.]/.test(text[i] as string)) {
      i++;
      continue;
    }
    let end = i;
    while (end < text.length && /[\w$.]/.test(text[end] as string)) end++;
    let name = i;
    while (name < end && !/[A-Za-z_$]/.test(text[name] as string)) name++;
    let open = end;
    while (open < text.length && /\s/.test(text[open] as string)) open++;
    if (name < end && text[open] === '(') {
      let close = open + 1;
      while (close < text.length && text[close] !== '(' && text[close] !== ')') close++;
      if (text[close] === ')') return `${text.slice(name, end)}(${text.slice(open + 1, close)})`;
    }
    i = end;
  }
  return null;
}

/** The function a heading names: its first code span naming a call or dotted name, else `name(` in its text. */
function headingFunction(inline: Token | undefined): string | null {
  for (const child of children(inline)) {
    // One blank run before the tail (issue 30: two adjacent \s* were quadratic).
    // `pino.transport(options) => ThreadStream` names `pino.transport(options)`: the return part is dropped.
    const call = child.type === 'code_inline' ? /^([A-Za-z_$][\w$.#]*)(?:\s*(\([^()]*\)))?\s*(?:$|=>|:|->)/.exec(child.content.trim()) : null;
    if (call !== null) return `${call[1]}${call[2] ?? ''}`;
  }
  return firstCall(plain(inline));
}

function push(lists: (ParameterList & { line: number })[], line: number, fn: string | null, names: (string | null)[], form: ParameterList['form'], options = false): void {
  const unique = [...new Set(names.filter((n): n is string => n !== null))];
  if (fn !== null && unique.length > 0 && lists.length < MAX_LISTS) lists.push({ function: fn, names: unique, form, line, ...(options ? { options: true as const } : {}) });
}

/** The names of a table's column whose header reads as parameter names, or null when it has none. */
function tableNames(tokens: readonly Token[], start: number): { names: (string | null)[]; end: number; options: boolean } {
  let column = -1;
  let cell = -1;
  const names: (string | null)[] = [];
  let index = start;
  let header = true;
  let options = false;
  for (; index < tokens.length && tokens[index]!.type !== 'table_close'; index += 1) {
    const token = tokens[index]!;
    if (token.type === 'tr_open') cell = -1;
    else if (token.type === 'th_open' || token.type === 'td_open') cell += 1;
    else if (token.type === 'tbody_open') header = false;
    else if (token.type === 'inline') {
      const text = plain(token).replace(/[*_`]/g, '').trim();
      if (header && column < 0 && COLUMN.test(text)) {
        column = cell;
        options = /^options?$/i.test(text);
      }
      else if (!header && cell === column) {
        const code = children(token).find((c) => c.type === 'code_inline');
        names.push(listedName(code?.content ?? text.split(/\s/)[0] ?? ''));
      }
    }
  }
  return { names: column < 0 ? [] : names, end: index, options };
}

/** Top-level items of the bullet list opening at `start` that begin with a code span. */
function bulletNames(tokens: readonly Token[], start: number): { names: (string | null)[]; end: number } {
  const level = tokens[start]!.level;
  const names: (string | null)[] = [];
  let index = start + 1;
  for (; index < tokens.length && !(tokens[index]!.type === 'bullet_list_close' && tokens[index]!.level === level); index += 1) {
    const token = tokens[index]!;
    if (token.type !== 'list_item_open' || token.level !== level + 1) continue;
    const inline = tokens.slice(index + 1, index + 4).find((t) => t.type === 'inline');
    const first = children(inline)[0];
    if (first !== undefined && first.type === 'code_inline') names.push(listedName(first.content));
  }
  return { names, end: index };
}

/**
 * The parameter lists of a Markdown body's tokens; `firstLine` is the 1-based line of the body's
 * first line. Each list carries the 1-based line where it starts.
 */
export function parameterLists(tokens: readonly Token[], firstLine: number): (ParameterList & { line: number })[] {
  const lists: (ParameterList & { line: number })[] = [];
  const headings: { level: number; fn: string | null; title: string }[] = [];
  let label = false;
  let optionsLabel = false;
  const fn = (): string | null => [...headings].reverse().find((h) => h.fn !== null)?.fn ?? null;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    const line = (token.map?.[0] ?? 0) + firstLine;
    if (token.type === 'heading_open') {
      const level = Number(token.tag.slice(1));
      while (headings.length > 0 && headings.at(-1)!.level >= level) headings.pop();
      headings.push({ level, fn: headingFunction(tokens[index + 1]), title: plain(tokens[index + 1]) });
      label = false;
    } else if (token.type === 'table_open') {
      const table = tableNames(tokens, index);
      push(lists, line, fn(), table.names, 'table', table.options);
      index = table.end;
    } else if (token.type === 'bullet_list_open') {
      const underHeading = headings.length > 0 && LIST_HEADING.test(headings.at(-1)!.title);
      const list = bulletNames(tokens, index);
      const options = label ? optionsLabel : /^options\b/i.test(headings.at(-1)?.title ?? '');
      if (label || underHeading) push(lists, line, fn(), list.names, 'list', options);
      index = list.end;
      label = false;
    } else if (token.type === 'inline' && tokens[index - 1]?.type === 'paragraph_open') {
      const text = plain(token);
      label = LIST_LABEL.test(text.replace(/[*_]/g, '').trim());
      optionsLabel = label && /^options/i.test(text.replace(/[*_]/g, '').trim());
      const params = token.content.split('\n').map((l) => PARAM_LINE.exec(l)?.[1]).filter((n): n is string => n !== undefined);
      if (params.length > 0) push(lists, line, fn(), params.map(listedName), 'param');
    }
  }
  return lists;
}
