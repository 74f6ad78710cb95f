/**
 * `docforge_get_node`'s `section` argument (issue 30, new-user trial): the section a person or an
 * agent names, by its slug as node.anchors lists it, or by its heading text as the document shows
 * it; and when none matches, the nearest slugs to offer instead of only "see node.anchors".
 */
import { closest, distance } from 'fastest-levenshtein';
import type { GraphNode } from '@docforge/core';
import { sectionText, slugify, type NodeSection } from '@docforge/project';

/** Most slugs a refused `section` suggests. */
export const SECTION_SUGGESTIONS = 3;

/** The section found, or the slugs nearest to what was asked (best first, at most {@link SECTION_SUGGESTIONS}). */
export type SectionLookup = { found: NodeSection } | { found: null; did_you_mean: string[] };

/** Whitespace runs as one space, trimmed, lowercase: how a heading text is compared. */
function folded(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The section of `node` that `wanted` names, in this order: an anchor slug (or explicit HTML id,
 * as {@link sectionText}); a heading whose text equals `wanted` ignoring case and whitespace runs;
 * a heading whose GitHub slug equals the slug of `wanted` (`Caret Ranges ^1.2.3 ^0.2.5 ^0.0.4`
 * names `caret-ranges-123-025-004`; of headings with one text, the first). Else the nearest slugs:
 * those that start with the slug of `wanted` (`caret-ranges`), hold it, or are held by it, in that
 * order and nearest first, then the closest by edit distance within a third of its length (at
 * least 2). Pure; never throws.
 */
export function findSection(node: Pick<GraphNode, 'body' | 'anchors' | 'end_line'>, wanted: string): SectionLookup {
  const bySlug = sectionText(node, wanted);
  if (bySlug !== null) return { found: bySlug };
  const text = folded(wanted);
  const asSlug = slugify(wanted.trim());
  const heading = node.anchors.find((a) => folded(a.title) === text) ?? (asSlug === '' ? undefined : node.anchors.find((a) => slugify(a.title) === asSlug));
  const found = heading === undefined ? null : sectionText(node, heading.slug);
  if (found !== null) return { found };
  const slugs = [...new Set(node.anchors.map((a) => a.slug))];
  const suggestions: string[] = [];
  if (asSlug !== '') for (const slug of slugs) if (slug.includes(asSlug) || asSlug.includes(slug)) suggestions.push(slug);
  // A slug the text begins, then one that holds it, then one it holds; nearest first within each.
  const rank = (slug: string): number => (slug.startsWith(asSlug) ? 0 : slug.includes(asSlug) ? 1 : 2);
  suggestions.sort((a, b) => rank(a) - rank(b) || distance(asSlug, a) - distance(asSlug, b));
  const rest = slugs.filter((slug) => !suggestions.includes(slug));
  const bound = Math.max(2, Math.floor(asSlug.length / 3));
  while (asSlug !== '' && rest.length > 0 && suggestions.length < SECTION_SUGGESTIONS) {
    const nearest = closest(asSlug, rest);
    if (distance(asSlug, nearest) > bound) break;
    suggestions.push(nearest);
    rest.splice(rest.indexOf(nearest), 1);
  }
  return { found: null, did_you_mean: suggestions.slice(0, SECTION_SUGGESTIONS) };
}
