/** Test helper: parse5 trees of rendered HTML and small queries over them (structure assertions, never whole-file snapshots). */
import { parse } from 'parse5';

/** A parsed node (the parse5 default tree adapter's shape, narrowed to what tests read). */
export interface El {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: El[];
  value?: string;
  content?: El;
}

/** Parses a complete HTML document as a browser would. */
export function parseHtml(html: string): El {
  return parse(html) as unknown as El;
}

/** Every element below `root`, in document order. */
export function elements(root: El): El[] {
  const out: El[] = [];
  const walk = (node: El): void => {
    if (node.tagName !== undefined) out.push(node);
    for (const child of node.childNodes ?? []) walk(child);
    if (node.content) walk(node.content);
  };
  walk(root);
  return out;
}

/** An attribute value, or null. */
export function attr(el: El, name: string): string | null {
  return el.attrs?.find((a) => a.name === name)?.value ?? null;
}

/** The class list of an element. */
export function classes(el: El): string[] {
  return (attr(el, 'class') ?? '').split(/\s+/).filter(Boolean);
}

/** Concatenated text below a node. */
export function text(el: El): string {
  if (el.nodeName === '#text') return el.value ?? '';
  return (el.childNodes ?? []).map(text).join('');
}

/** Elements with this tag and, optionally, this class. */
export function byTag(root: El, tag: string, cls?: string): El[] {
  return elements(root).filter((e) => e.tagName === tag && (cls === undefined || classes(e).includes(cls)));
}
