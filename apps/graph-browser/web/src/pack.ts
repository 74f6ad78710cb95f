/**
 * Positions of the architecture map (issue 34 item 1): every compound group packs its children in
 * rows (shelf packing, tallest first, rows about as wide as a box of the target aspect ratio would
 * be), bottom-up, so the whole map is a compact rectangle. The map's edges do not steer positions
 * (they are aggregates across groups), so this is box packing, not graph layout: ELK's `rectpacking`
 * produced the same picture but its module start and first run cost about half of the first
 * screen's one-second budget, so the first screen does without ELK (docs/architecture.md).
 */

/** One box to place: its id, its parent (compound) id, and for leaves its size in model pixels. */
export interface PackItem {
  id: string;
  parent?: string;
  w?: number;
  h?: number;
}

/** Space inside a compound around its children, and above them for its title, in model pixels. */
const PAD = { side: 14, top: 34, bottom: 14 };
/** Gap between packed boxes, in model pixels. */
const GAP = 14;

interface Box { id: string; w: number; h: number; x: number; y: number; children: Box[] }

/**
 * Packs `children` in rows to fit a `aspect` (width / height) frame best: every row width from
 * the widest box to all boxes in one row is tried (at most 24 steps) and the packing that scales
 * largest into the frame kept. Sets the children's x/y relative to the packing's top-left; returns its size.
 */
function shelf(children: Box[], aspect: number): { w: number; h: number } {
  const widest = Math.max(...children.map((c) => c.w));
  const total = children.reduce((sum, c) => sum + c.w + GAP, 0);
  let best = { rowWidth: widest, scale: -1 };
  for (let step = 0; step <= 24; step++) {
    const rowWidth = widest + ((total - widest) * step) / 24;
    const size = shelfAt(children, rowWidth);
    const scale = Math.min(aspect / Math.max(1, size.w), 1 / Math.max(1, size.h));
    if (scale > best.scale) best = { rowWidth, scale };
  }
  return shelfAt(children, best.rowWidth);
}

/** Shelf packing of `children` into rows at most `rowWidth` wide (tallest first). */
function shelfAt(children: Box[], rowWidth: number): { w: number; h: number } {
  const ordered = [...children].sort((a, b) => b.h - a.h || b.w - a.w);
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  let width = 0;
  for (const box of ordered) {
    if (x > 0 && x + box.w > rowWidth) {
      y += rowHeight + GAP;
      x = 0;
      rowHeight = 0;
    }
    box.x = x;
    box.y = y;
    x += box.w + GAP;
    rowHeight = Math.max(rowHeight, box.h);
    width = Math.max(width, x - GAP);
  }
  return { w: width, h: y + rowHeight };
}

/**
 * Centre positions (model pixels) of every leaf item: compounds are sized from their packed
 * children plus padding; every level aims at `aspect` (the canvas's).
 */
export function packPositions(items: readonly PackItem[], aspect: number): Map<string, { x: number; y: number }> {
  const boxes = new Map<string, Box>(items.map((i) => [i.id, { id: i.id, w: i.w ?? 0, h: i.h ?? 0, x: 0, y: 0, children: [] }]));
  const top: Box[] = [];
  for (const item of items) {
    const box = boxes.get(item.id)!;
    const parent = item.parent !== undefined ? boxes.get(item.parent) : undefined;
    if (parent) parent.children.push(box);
    else top.push(box);
  }
  const size = (box: Box): void => {
    if (box.children.length === 0) return;
    for (const child of box.children) size(child);
    const packed = shelf(box.children, aspect);
    box.w = packed.w + 2 * PAD.side;
    box.h = packed.h + PAD.top + PAD.bottom;
  };
  for (const box of top) size(box);
  shelf(top, aspect);
  const out = new Map<string, { x: number; y: number }>();
  const place = (box: Box, originX: number, originY: number): void => {
    const left = originX + box.x;
    const topY = originY + box.y;
    if (box.children.length === 0) {
      out.set(box.id, { x: left + box.w / 2, y: topY + box.h / 2 });
      return;
    }
    for (const child of box.children) place(child, left + PAD.side, topY + PAD.top);
  };
  for (const box of top) place(box, 0, 0);
  return out;
}
