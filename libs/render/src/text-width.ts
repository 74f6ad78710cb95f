/**
 * Deterministic text measurement for the static SVG of the `graph` renderer (issue 34 item 7): no
 * browser and no font file at render time. Each printable ASCII character has its advance width
 * in thousandths of an em, the largest of four fonts a reader's browser picks for the SVG's
 * font-family list ({@link SVG_FONT_FAMILY}): DejaVu Sans and Liberation Sans (metric-compatible
 * with Arial and Helvetica), each in regular and bold, read from their `hmtx` tables. Any other
 * character counts one em (combining marks count zero), wider than those fonts draw Latin, Greek
 * or Cyrillic letters and equal to CJK ideographs. So an estimate is an upper bound for these
 * fonts, in either weight: text drawn in a box sized by it stays inside.
 */

/** The SVG font-family the width table covers (the first installed one is drawn). */
export const SVG_FONT_FAMILY = 'DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif';

/** Advance widths in 1/1000 em of U+0020..U+007E (see the module comment). */
const ASCII_WIDTHS: readonly number[] = Object.freeze([348,456,521,838,696,1002,872,306,457,457,523,838,380,415,380,365,696,696,696,696,696,696,696,696,696,696,400,400,838,838,838,611,1015,774,762,734,830,683,683,821,837,372,556,775,637,995,837,850,733,850,770,720,682,812,774,1103,771,724,725,457,365,457,838,556,500,675,716,593,716,678,435,716,712,343,343,665,343,1042,712,687,716,716,493,595,478,712,652,924,645,652,582,712,365,712,838]);
/** Width of a character outside the table, in 1/1000 em. */
const OTHER_WIDTH = 1000;
const ELLIPSIS = '…';

function charWidth(ch: string): number {
  const code = ch.codePointAt(0)!;
  if (code >= 0x20 && code <= 0x7e) return ASCII_WIDTHS[code - 0x20]!;
  return /\p{M}/u.test(ch) ? 0 : OTHER_WIDTH;
}

/**
 * Estimated drawn width of one line of text, in px (an upper bound for {@link SVG_FONT_FAMILY}).
 * @param fontSizePx the font size in px
 */
export function textWidth(text: string, fontSizePx: number): number {
  let thousandths = 0;
  for (const ch of text) thousandths += charWidth(ch);
  return (thousandths * fontSizePx) / 1000;
}

/** The longest prefix of `text` (whole code points) that, followed by `suffix`, fits `maxWidthPx`. */
function fittingPrefix(text: string, suffix: string, maxWidthPx: number, fontSizePx: number): string {
  const chars = Array.from(text);
  let width = textWidth(suffix, fontSizePx);
  let n = 0;
  while (n < chars.length && width + textWidth(chars[n]!, fontSizePx) <= maxWidthPx) width += textWidth(chars[n++]!, fontSizePx);
  return chars.slice(0, n).join('');
}

/**
 * `text` when it fits `maxWidthPx`, else cut with an ellipsis so that it fits: at the end
 * (`where = 'end'`) or in the middle (`'middle'`, for ids, whose head and tail both matter).
 */
export function fitText(text: string, maxWidthPx: number, fontSizePx: number, where: 'end' | 'middle' = 'end'): string {
  if (textWidth(text, fontSizePx) <= maxWidthPx) return text;
  if (where === 'end') return `${fittingPrefix(text, ELLIPSIS, maxWidthPx, fontSizePx).trimEnd()}${ELLIPSIS}`;
  const chars = Array.from(text);
  const half = (maxWidthPx - textWidth(ELLIPSIS, fontSizePx)) / 2;
  const head = fittingPrefix(text, '', half, fontSizePx);
  const tail = Array.from(fittingPrefix(chars.slice().reverse().join(''), '', half, fontSizePx)).reverse().join('');
  return `${head}${ELLIPSIS}${tail}`;
}

/**
 * Wraps `text` at spaces into at most `maxLines` lines of at most `maxWidthPx` each (a word
 * wider than a line is cut by {@link fitText}); the last line ends with an ellipsis when text is
 * left over. Never returns an empty list.
 */
export function wrapText(text: string, maxWidthPx: number, fontSizePx: number, maxLines: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = '';
  let i = 0;
  for (; i < words.length; i++) {
    const candidate = current === '' ? words[i]! : `${current} ${words[i]!}`;
    if (textWidth(candidate, fontSizePx) <= maxWidthPx) {
      current = candidate;
      continue;
    }
    if (current !== '') lines.push(current);
    if (lines.length === maxLines) break;
    current = words[i]!;
  }
  if (i === words.length && current !== '') lines.push(current);
  if (lines.length === 0) return [fitText(text.trim(), maxWidthPx, fontSizePx)];
  const kept = lines.map((line) => fitText(line, maxWidthPx, fontSizePx));
  const last = kept[kept.length - 1]!;
  if (i < words.length && !last.endsWith(ELLIPSIS)) {
    kept[kept.length - 1] = textWidth(`${last}${ELLIPSIS}`, fontSizePx) <= maxWidthPx ? `${last}${ELLIPSIS}` : `${fittingPrefix(last, ELLIPSIS, maxWidthPx, fontSizePx).trimEnd()}${ELLIPSIS}`;
  }
  return kept;
}
