/**
 * The source view: a bounded, project-confined window of the node's indexed source (from
 * /api/nodes/{id}/source) with line numbers, the node's lines highlighted and scrolled into view,
 * and the recognized anchors (headings) listed as buttons that scroll to their line. Links to a
 * `#slug` inside the shown text navigate the same way. Nothing here changes the URL fragment.
 */
import { button, el } from './dom.js';
import type { SourceResponse } from './types.js';

/** Renders `source` into `container`; `onClose` returns to the graph. */
export function renderSource(container: HTMLElement, source: SourceResponse, onClose: () => void): void {
  const lines = el('pre', { 'aria-label': `Source of ${source.path}` });
  const byLine = new Map<number, HTMLElement>();
  source.lines.forEach((text, index) => {
    const number = source.first_line + index;
    const highlighted = number >= source.highlight.start_line && number <= source.highlight.end_line;
    const row = el('span', { class: highlighted ? 'line hl' : 'line', 'data-line': String(number) }, el('span', { class: 'num' }, String(number)), text);
    byLine.set(number, row);
    lines.append(row);
  });
  const goTo = (line: number): void => {
    const row = byLine.get(line);
    if (!row) return;
    row.scrollIntoView({ block: 'center' });
    row.classList.add('target');
    row.setAttribute('tabindex', '-1');
    row.focus();
  };
  const slugs = new Map(source.anchors.map((a) => [a.slug, a.line]));
  const anchorList = el('ul', { class: 'items', 'aria-label': 'Anchors' });
  for (const anchor of source.anchors) {
    anchorList.append(el('li', { 'data-slug': anchor.slug }, button(`${'#'.repeat(anchor.level)} ${anchor.title}`, () => goTo(anchor.line), { 'aria-label': `Go to anchor ${anchor.slug} (line ${anchor.line})` })));
  }
  // In-text links to a recognized anchor (`](#slug)`) navigate inside the view.
  for (const [number, row] of byLine) {
    const text = row.textContent ?? '';
    for (const slug of anchorLinks(text)) {
      const line = slugs.get(slug);
      if (line !== undefined) row.append(' ', button(`↪ #${slug}`, () => goTo(line), { 'aria-label': `Follow link to #${slug} from line ${number}` }));
    }
  }
  const last = source.first_line + source.lines.length - 1;
  const notes: string[] = [`${source.path}, lines ${source.first_line}-${last} of ${source.total_lines}`];
  // The worker's `truncated` also covers a window that merely starts after line 1 or ends before the
  // last line; only a window over the whole file that is still marked truncated had lines cut.
  const partial = source.first_line > 1 || last < source.total_lines;
  if (partial) notes.push(`showing the node with context${source.first_line > 1 ? `; ${source.first_line - 1} line${source.first_line === 2 ? '' : 's'} above not shown` : ''}${last < source.total_lines ? `; ${source.total_lines - last} line${source.total_lines - last === 1 ? '' : 's'} below not shown` : ''}`);
  else if (source.truncated) notes.push('long lines cut (bounded read)');
  if (source.changed) notes.push('the file changed since it was indexed');
  container.replaceChildren(
    el('div', { class: 'actions' }, button('Back to graph', onClose, { 'aria-label': 'Close source and return to the graph' })),
    el('p', { class: 'note', 'data-role': 'source-path' }, notes.join('; ')),
    ...(source.anchors.length > 0 ? [el('h2', {}, 'Anchors'), anchorList] : []),
    lines,
  );
  container.hidden = false;
  const first = byLine.get(source.highlight.start_line);
  if (first) first.scrollIntoView({ block: 'center' });
}

/**
 * The slugs of the in-text anchor links (`](#slug)`) of `text`, left to right: the matches of the former
 * /\]\(#([^)\s]+)\)/g (13 s on a 50 KB line of `](#`: issue 30) in linear time. A failed `](#` skips to its
 * run's end, where every later `](#` inside that run fails too.
 */
export function anchorLinks(text: string): string[] {
  const out: string[] = [];
  for (let at = text.indexOf('](#'); at >= 0; ) {
    let end = at + 3;
    while (end < text.length && text[end] !== ')' && !/\s/.test(text[end] as string)) end++;
    const found = end > at + 3 && text[end] === ')';
    if (found) out.push(text.slice(at + 3, end));
    at = text.indexOf('](#', found ? end + 1 : Math.max(end, at + 1));
  }
  return out;
}
