/**
 * Hydrates task evidence (metadata only) with provenance: the unprovable facts of
 * {@link UNPROVABLE_FACTS} and `unclassified_relation` limitations.
 */
import { trimTrailing, type MentionSection } from '@docforge/core';
import { slugify } from '@docforge/project';
import type { IndexReader } from '@docforge/store';
import { MAX_RELATIONSHIP_REASONS, type UNPROVABLE_FACTS } from './task-plan.js';
import type { StreamItem } from './packing.js';
import { compare, type Visit } from './task-traversal.js';
import { sectionMatching, sectionQuery } from './ranking.js';
import type { RecallQuery } from './ranking-match.js';

/** Longest excerpt of one evidence item, in characters (inside the token budget like the rest of the item). */
export const TASK_EXCERPT_CHARS = 480;
/** Most body characters scanned for a section heading when excerpting an evidence item. */
const EXCERPT_HEADING_SCAN_CHARS = 200_000;

/**
 * The bounded excerpt of an evidence item: for code, its summary (signature and doc comment); for
 * other nodes, the body from the section heading that best matches the task (else the body's
 * head, else the summary).
 */
function excerptOf(reader: IndexReader, id: string, task: RecallQuery, reread: MentionSection | undefined): { excerpt: string; excerpt_section: { slug: string; title: string; line: number } | null } {
  const node = reader.getNodeMeta(id);
  if (!node) return { excerpt: '', excerpt_section: null };
  if (node.origin === 'code') return { excerpt: node.summary.slice(0, TASK_EXCERPT_CHARS), excerpt_section: null };
  // An affected item's section is the one to reread (the section naming what the change reached).
  const section = reread?.slug && reread.title ? { slug: reread.slug, title: reread.title, line: reread.line } : sectionMatching(task, node.anchors, node.start_line, node.title);
  const body = section ? sectionExcerpt(reader, id, section.title) : reader.bodyExcerpt(id, null, TASK_EXCERPT_CHARS, EXCERPT_HEADING_SCAN_CHARS) ?? '';
  const text = body.trim() === '' ? node.summary : body;
  return { excerpt: text.replace(/\r\n/g, '\n').trim().slice(0, TASK_EXCERPT_CHARS), excerpt_section: section ? { slug: section.slug, title: section.title, line: section.line } : null };
}

/** A heading line's text as a slug compares it: the `#` marks, a closing `#` run and whitespace dropped. */
function headingSlug(line: string): string | null {
  const open = /^ {0,3}#{1,6}[ \t]+/.exec(line);
  if (open === null) return null;
  // The text, without trailing blanks and a closing `#` run that follows a blank: a linear scan
  // (the regex form `(.*?)(?:[ \t]+#+)?[ \t]*$` backtracks over long blank runs).
  const text = line.slice(open[0].length);
  const blank = (i: number): boolean => text[i] === ' ' || text[i] === '\t';
  let end = text.length;
  while (end > 0 && blank(end - 1)) end -= 1;
  let hashes = end;
  while (hashes > 0 && text[hashes - 1] === '#') hashes -= 1;
  if (hashes < end && hashes > 0 && blank(hashes - 1)) for (end = hashes; end > 0 && blank(end - 1); ) end -= 1;
  return slugify(text.slice(0, end));
}

/**
 * The body of node `id` from the heading of the section titled `title`, at most
 * {@link TASK_EXCERPT_CHARS} characters. First one indexed read by the heading's text (`# title`);
 * when the heading is spelled otherwise in the body (code spans, emphasis: `Caret Ranges \`^1.2.3\``
 * has the title `Caret Ranges ^1.2.3`), the first ATX heading line within the first
 * {@link EXCERPT_HEADING_SCAN_CHARS} characters whose GitHub slug is the title's (issue 30: the
 * excerpt is the section `excerpt_section` names, not the body's head); else the body's head.
 */
function sectionExcerpt(reader: IndexReader, id: string, title: string): string {
  const quick = reader.bodyExcerpt(id, `# ${title}`, TASK_EXCERPT_CHARS, EXCERPT_HEADING_SCAN_CHARS) ?? '';
  const want = slugify(title);
  if (headingSlug(quick.split('\n', 1)[0] ?? '') === want) return quick;
  const head = reader.bodyExcerpt(id, null, EXCERPT_HEADING_SCAN_CHARS, EXCERPT_HEADING_SCAN_CHARS) ?? '';
  let at = 0;
  for (const line of head.split('\n')) {
    if (headingSlug(line) === want) return head.slice(at, at + TASK_EXCERPT_CHARS);
    at += line.length + 1;
  }
  return head.slice(0, TASK_EXCERPT_CHARS);
}

/** The descriptor's content and code roots (project-relative POSIX, `.` for the root). */
export interface EvidenceRoots {
  content_roots: readonly string[];
  code_roots: readonly string[];
}

function underRoot(p: string, roots: readonly string[]): boolean {
  return roots.some((r) => r === '.' || r === '' || p === r || p.startsWith(`${trimTrailing(r, '/')}/`));
}

/** Hydrates evidence items (metadata, a bounded excerpt) with provenance facts and limitations; `task` picks the excerpt's section. */
export function hydrate(reader: IndexReader, visits: readonly Visit[], roots: EvidenceRoots, task: string): StreamItem[] {
  const sourceHashes = new Map<string, string | null>();
  // Sections are picked by search's rule (the idf-weighted heading match), one weighting per task.
  const analysed = sectionQuery(reader, task);
  return visits.map((visit) => {
    const node = reader.nodeProvenance(visit.id);
    const unprovable: Record<string, unknown>[] = [];
    const last = visit.path.at(-1);
    let sourceFileHash: string | null = null;
    if (!node) {
      unprovable.push({ fact: 'node_not_indexed' });
    } else {
      if (!sourceHashes.has(node.source_path)) sourceHashes.set(node.source_path, reader.sourceHash(node.source_path));
      sourceFileHash = sourceHashes.get(node.source_path)!;
      if (last && last.declared_in.path !== node.source_path) unprovable.push({ fact: 'relation_declared_outside_node_source', declared_in: last.declared_in.path });
      if (node.origin !== 'code' && node.anchor_count === 0) unprovable.push({ fact: 'no_recognized_anchor' });
      if (node.origin === 'code' ? !underRoot(node.source_path, roots.code_roots) : node.origin !== 'adapter' && !underRoot(node.source_path, roots.content_roots)) {
        unprovable.push({ fact: 'source_outside_declared_roots', expected: node.origin === 'code' ? 'code_roots' : 'content_roots' });
      }
      if (sourceFileHash === null) unprovable.push({ fact: 'source_file_not_indexed' });
    }
    if (last && last.declared_in.line === 0) unprovable.push({ fact: 'relation_line_unknown' });
    const reasons = [...visit.reasons].sort((a, b) => compare(a.relation, b.relation) || compare(a.other_id, b.other_id) || compare(a.direction, b.direction));
    const unclassified = new Set<string>();
    for (const r of [...visit.path, ...reasons]) if (r.category === 'unclassified') unclassified.add(r.relation);
    const item: StreamItem = {
      type: 'evidence',
      id: visit.id,
      role: visit.depth === 0 ? 'focus' : visit.affected ? 'affected' : 'related',
      depth: visit.depth,
      focus_rank: visit.focusRank,
      focus_basis: visit.basis,
      score: visit.score,
      kind: node?.kind ?? null,
      title: node?.title ?? null,
      source_path: node?.source_path ?? null,
      start_line: node?.start_line ?? null,
      content_hash: node?.content_hash ?? null,
      source_file_hash: sourceFileHash,
      path: visit.path,
      relationship_reasons: reasons.slice(0, MAX_RELATIONSHIP_REASONS),
      relationship_reasons_omitted: Math.max(0, reasons.length - MAX_RELATIONSHIP_REASONS),
      limitations: [...unclassified].sort().map((relation) => ({ code: 'unclassified_relation', relation })),
      unprovable,
      ...(node ? excerptOf(reader, visit.id, analysed, visit.affected?.sections[0]) : { excerpt: '', excerpt_section: null }),
    };
    return item;
  });
}
