/**
 * `drift_unresolved_mention` (issue 32 item 2, "a renamed function makes the doc that names it a
 * finding, with the doc's line"): a doc mention (an inline code span or link text naming code)
 * that resolved to a code node when the review baseline recorded it, and that resolves to nothing
 * now while that node is gone from the graph (renamed or removed).
 *
 * The baseline keeps, beside the links' review hashes (build-reviews.ts), which code node each
 * mention of a document resolved to: `mentions: { "<doc id>\u0000<mention text>": "<code id>" }`
 * in `<state>/index/review-baseline.json`. It is disposable and never canonical: lost, it is
 * recorded again from the current resolutions (no finding until the next rename). An entry stays
 * while the document still holds the mention: the latest resolution while it resolves, the last
 * one once it no longer does (so the finding stays until the doc or the code is fixed); it goes with
 * the mention.
 *
 * Which text resolved to which node is read from the graph, not by resolving again: a
 * mention-derived `documents` edge lists each section's line of its first mention, and the mention
 * of its document on that line whose text names the target (the target id's last name, `Ledger.capture`
 * -> `capture`, or the path of a module) is the one that resolved. Linear in mentions and edges.
 */
import { trimMentionPunctuation, type GraphEdge, type GraphNode, type SourceIssue } from '@docforge/core';
import type { LinkRef } from '@docforge/project';
import type { CachedSource } from './build-types.js';

/** `"<doc id>\u0000<mention text>"` -> the code node id it resolved to. */
export type MentionBaseline = ReadonlyMap<string, string>;

/** The findings and the mention baseline brought up to date (null: unchanged). */
export interface MentionDrift {
  issues: SourceIssue[];
  mentions: ReadonlyMap<string, string> | null;
}

/** A mention's text without a call's argument list and surrounding punctuation: `Ledger.capture(x)` -> `Ledger.capture`. */
function bareText(text: string): string {
  return trimMentionPunctuation(text.trim().replace(/\(.*$/s, ''));
}

/** Whether a mention's text names `target` (a code id: `code:path#a.b` or `code:path`). */
function namesTarget(text: string, target: string): boolean {
  const bare = bareText(text);
  const hash = target.indexOf('#');
  if (hash === -1) return bare !== '' && target.slice('code:'.length).endsWith(bare.replace(/^\.\//, ''));
  const last = target.slice(hash + 1).split('.').at(-1)!;
  return bare === last || bare.endsWith(`.${last}`) || bare.endsWith(`#${last}`);
}

/** The mentions of the current sources: `from_id` -> line -> mentions on that line. */
function mentionsByLine(current: ReadonlyMap<string, CachedSource>): Map<string, Map<number, LinkRef[]>> {
  const out = new Map<string, Map<number, LinkRef[]>>();
  for (const source of current.values()) {
    for (const link of source.links) {
      if (link.mention === undefined) continue;
      let lines = out.get(link.from_id);
      if (lines === undefined) out.set(link.from_id, (lines = new Map()));
      const at = lines.get(link.line);
      if (at === undefined) lines.set(link.line, [link]);
      else at.push(link);
    }
  }
  return out;
}

/** What each mention text of a document resolves to now, read from the mention-derived edges. */
function resolvedNow(edges: readonly GraphEdge[], byLine: Map<string, Map<number, LinkRef[]>>): Map<string, string> {
  const now = new Map<string, string>();
  for (const edge of edges) {
    if (edge.mention === undefined) continue;
    const lines = byLine.get(edge.source_id);
    if (lines === undefined) continue;
    for (const section of edge.mention.sections) {
      for (const link of lines.get(section.line) ?? []) {
        if (namesTarget(link.mention!.text, edge.target_id)) now.set(`${edge.source_id}\u0000${link.mention!.text}`, edge.target_id);
      }
    }
  }
  return now;
}

/**
 * The `drift_unresolved_mention` findings of a resolved graph against the mention baseline
 * `before`, and the baseline brought up to date (see the module comment). Each finding is a
 * warning at the document's path and the line of the mention's first occurrence, naming its
 * section, the text and the code node it resolved to.
 */
export function mentionDrift(nodes: readonly GraphNode[], edges: readonly GraphEdge[], current: ReadonlyMap<string, CachedSource>, before: MentionBaseline): MentionDrift {
  const byLine = mentionsByLine(current);
  const now = resolvedNow(edges, byLine);
  // Built on the first finding only: most builds have none, and these are as large as the graph.
  let docPath: Map<string, string> | null = null;
  const nodePath = (id: string): string | undefined => (docPath ??= new Map(nodes.map((n) => [n.id, n.source_path]))).get(id);
  const after = new Map<string, string>();
  const issues: SourceIssue[] = [];
  let changed = false;
  for (const lines of byLine.values()) {
    for (const links of lines.values()) {
      for (const link of links) {
        const key = `${link.from_id}\u0000${link.mention!.text}`;
        if (after.has(key)) continue;
        const target = now.get(key) ?? before.get(key);
        if (target === undefined) continue;
        after.set(key, target);
        if (before.get(key) !== target) changed = true;
        if (now.has(key) || nodePath(target) !== undefined) continue;
        const section = link.mention!.section;
        const where = section === null ? `"${link.from_id}"` : `section #${section.slug} of "${link.from_id}"`;
        const path = nodePath(link.from_id) ?? '';
        issues.push({
          severity: 'warning', code: 'drift_unresolved_mention', path, line: link.line, node_id: link.from_id,
          message: `${path}:${link.line}: ${where} names \`${link.mention!.text}\`, which resolved to ${target} and now names no code (renamed or removed); update the doc or the code`,
        });
      }
    }
  }
  return { issues, mentions: changed || after.size !== before.size ? after : null };
}
