/**
 * A search hit's excerpt and its section label name one place. The ranking picks a hit's section by
 * its heading words (`bestHeading`), and the excerpt is FTS5's best window anywhere in the body, so
 * the two could disagree: `section log` shown over an excerpt about `levelValue`. This module
 * reconciles them for the hits of one page, with one read of each such node's body.
 */
import { sectionAtOffset, sectionText } from '@docforge/project';
import type { Anchor } from '@docforge/core';
import type { IndexReader } from '@docforge/store';
import { boundedExcerpt, EXCERPT_SCAN_CHARS, holdsTerm } from './excerpt.js';

/** A hit's section label as search returns it. */
export interface HitSection {
  slug: string;
  title: string;
  line: number;
}

/** The excerpt of a hit and the section it lies in (null: none named). */
export interface PlacedExcerpt {
  excerpt: string;
  section: HitSection | null;
}

/** Whitespace runs as one space; the `…` marks of a cut excerpt split it into its pieces. */
function pieces(excerpt: string): string[] {
  return excerpt.split('\u2026').map((piece) => piece.replace(/\s+/g, ' ').trim()).filter((piece) => piece.length > 0);
}

/** The body offset where the longest piece of `excerpt` starts, matching any whitespace run as one; -1 when not found. */
function excerptOffset(body: string, excerpt: string): number {
  const longest = pieces(excerpt).sort((a, b) => b.length - a.length)[0];
  if (longest === undefined) return -1;
  const pattern = longest.split(' ').map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+');
  const found = new RegExp(pattern).exec(body);
  return found === null ? -1 : found.index;
}

function labelOf(anchor: Anchor): HitSection {
  return { slug: anchor.slug, title: anchor.title, line: anchor.line };
}

/**
 * The excerpt and section of a hit whose ranking named section `chosen` (by its heading words):
 * - the excerpt lies in `chosen`: both as they are;
 * - `chosen`'s text (after its heading line) holds no query word, and the excerpt lies in another
 *   section: that section, with the excerpt;
 * - otherwise: `chosen`, with the best window of its own text (at most {@link EXCERPT_SCAN_CHARS}
 *   characters) as the excerpt.
 * A node that is gone or has no such anchor keeps both.
 */
export function placeExcerpt(reader: IndexReader, id: string, chosen: HitSection, excerpt: string, queryWords: readonly string[]): PlacedExcerpt {
  const node = reader.getNode(id);
  const section = node === null ? null : sectionText(node, chosen.slug);
  if (node === null || section === null) return { excerpt, section: chosen };
  const offset = excerptOffset(node.body, excerpt);
  const holder = offset === -1 ? null : sectionAtOffset(node, offset);
  if (holder !== null && holder.slug === chosen.slug) return { excerpt, section: chosen };
  const text = section.text.split('\n').slice(1).join('\n').trim();
  if (holder !== null && !holdsTerm(text, queryWords)) return { excerpt, section: labelOf(holder) };
  if (text === '') return { excerpt, section: chosen };
  const head = text.slice(0, EXCERPT_SCAN_CHARS);
  return { excerpt: boundedExcerpt(head, queryWords, head.length === text.length), section: chosen };
}
