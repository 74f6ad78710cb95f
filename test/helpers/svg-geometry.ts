/**
 * Test helper: geometry of a rendered `graph` view read back from its SVG (issue 34 item 7). Each
 * node and relation-label text is measured with the renderer's width table and, where the fonts
 * are installed, with the real advance widths of the fonts the SVG names (read from their TTF
 * `hmtx` tables here, independently of the renderer's table).
 */
import { existsSync, readFileSync } from 'node:fs';
import { textWidth } from '@docforge/render';
import { attr, byTag, text, type El } from './html.js';

/** The fonts the graph SVG names, as Debian installs them (fonts-dejavu-core, fonts-liberation). */
export const FONT_FILES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf', '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
].filter((file) => existsSync(file));

/** Advance width in em of each character a TrueType font maps (cmap format 4, hmtx): a minimal reader. */
export function fontAdvances(file: string): (ch: string) => number | null {
  const d = readFileSync(file);
  const tables = new Map<string, number>();
  for (let i = 0; i < d.readUInt16BE(4); i++) tables.set(d.toString('latin1', 12 + 16 * i, 16 + 16 * i), d.readUInt32BE(20 + 16 * i));
  const unitsPerEm = d.readUInt16BE(tables.get('head')! + 18);
  const metrics = d.readUInt16BE(tables.get('hhea')! + 34);
  const hmtx = tables.get('hmtx')!;
  const cmap = tables.get('cmap')!;
  let sub = -1;
  for (let i = 0; i < d.readUInt16BE(cmap + 2); i++) if (d.readUInt16BE(cmap + 4 + 8 * i) === 3 && d.readUInt16BE(cmap + 6 + 8 * i) === 1) sub = cmap + d.readUInt32BE(cmap + 8 + 8 * i);
  const segments = d.readUInt16BE(sub + 6) / 2;
  const ends = sub + 14;
  const starts = ends + 2 * segments + 2;
  const deltas = starts + 2 * segments;
  const offsets = deltas + 2 * segments;
  return (ch) => {
    const code = ch.codePointAt(0)!;
    for (let s = 0; s < segments; s++) {
      if (code > d.readUInt16BE(ends + 2 * s) || code < d.readUInt16BE(starts + 2 * s)) continue;
      const offset = d.readUInt16BE(offsets + 2 * s);
      const raw = offset === 0 ? code : d.readUInt16BE(offsets + 2 * s + offset + 2 * (code - d.readUInt16BE(starts + 2 * s)));
      const glyph = raw === 0 ? 0 : (raw + d.readInt16BE(deltas + 2 * s)) & 0xffff;
      if (glyph === 0) return null;
      return d.readUInt16BE(hmtx + 4 * Math.min(glyph, metrics - 1)) / unitsPerEm;
    }
    return null;
  };
}

/** The widest drawn width of `line` at `fontPx` among the installed fonts (characters a font lacks count 0). */
export function realWidth(fonts: readonly ((ch: string) => number | null)[], line: string, fontPx: number): number {
  return Math.max(0, ...fonts.map((advance) => [...line].reduce((sum, ch) => sum + (advance(ch) ?? 0), 0) * fontPx));
}

function num(el: El, name: string): number {
  const value = attr(el, name);
  if (value === null) throw new Error(`<${el.tagName}> has no ${name}`);
  return Number(value);
}

function translate(el: El): { x: number; y: number } {
  const m = /^translate\(([-\d.]+),([-\d.]+)\)$/.exec(attr(el, 'transform') ?? '');
  if (m === null) throw new Error(`no translate on <${el.tagName}>`);
  return { x: Number(m[1]), y: Number(m[2]) };
}

/** A box drawn in the SVG: a node or a relation label, in SVG coordinates. */
export interface DrawnBox {
  kind: 'node' | 'label';
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Each text line in it: content, x, baseline y (relative to the box) and font size. */
  lines: { text: string; x: number; y: number; fontPx: number }[];
}

/** Every node box and relation-label box of a graph SVG. */
export function drawnBoxes(svg: El): DrawnBox[] {
  const read = (g: El, kind: DrawnBox['kind'], name: string): DrawnBox => {
    const rect = byTag(g, 'rect')[0]!;
    const lines = byTag(g, 'text').map((t) => ({ text: text(t), x: num(t, 'x'), y: num(t, 'y'), fontPx: num(t, 'font-size') }));
    return { kind, name, ...translate(g), width: num(rect, 'width'), height: num(rect, 'height'), lines };
  };
  return [
    ...byTag(svg, 'g', 'node').map((g) => read(g, 'node', attr(g, 'data-node-id')!)),
    ...byTag(svg, 'g', 'edge-label').map((g) => read(g, 'label', `${attr(g, 'data-source')} ${attr(g, 'data-relation')} ${attr(g, 'data-target')}`)),
  ];
}

/**
 * What is wrong with a graph SVG's geometry, as messages (none: all good): a text line whose
 * estimated width (or, with `fonts`, real width) does not fit inside its box with its x offset,
 * or whose baseline leaves the box; a relation drawn without a label naming it, unless `keyed`
 * lists the relation; two boxes that overlap.
 */
export function geometryProblems(svg: El, keyed: ReadonlySet<string>, fonts: readonly ((ch: string) => number | null)[] = []): string[] {
  const problems: string[] = [];
  const boxes = drawnBoxes(svg);
  for (const box of boxes) {
    for (const line of box.lines) {
      const widths = [textWidth(line.text, line.fontPx), ...(fonts.length > 0 ? [realWidth(fonts, line.text, line.fontPx)] : [])];
      for (const w of widths) if (line.x < 0 || line.x + w > box.width) problems.push(`${box.kind} ${box.name}: "${line.text}" is ${w.toFixed(1)} px from x=${line.x}, the box is ${box.width} px wide`);
      if (line.y - line.fontPx < 0 || line.y > box.height) problems.push(`${box.kind} ${box.name}: "${line.text}" baseline ${line.y} outside a box ${box.height} px high`);
    }
  }
  const labelled = new Set(byTag(svg, 'g', 'edge-label').map((g) => `${attr(g, 'data-source')}\0${attr(g, 'data-relation')}\0${attr(g, 'data-target')}\0${text(g)}`));
  for (const p of byTag(svg, 'path', 'edge')) {
    const relation = attr(p, 'data-relation')!;
    if (!labelled.has(`${attr(p, 'data-source')}\0${relation}\0${attr(p, 'data-target')}\0${relation}`) && !keyed.has(relation)) problems.push(`edge ${attr(p, 'data-source')} ${relation} ${attr(p, 'data-target')} has no label and the key does not list ${relation}`);
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i]!, boxes[j]!];
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height) problems.push(`${a.kind} ${a.name} overlaps ${b.kind} ${b.name}`);
    }
  }
  return problems;
}
