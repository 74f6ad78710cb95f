// Pins issue 35 (edits: state proportional to the change): a long-lived manager keeps the review
// findings per edge group and recomputes only the groups an edit reaches, and every publication holds
// exactly the findings (suspect_link, drift_unreviewed_change, drift_unresolved_mention, coverage,
// every other issue), nodes and edges, and records exactly the review baseline, that a build from
// scratch of the same sources gives when it starts from the same baseline. Edits: a stamp added and
// changed, a stamped function's body changed, a function renamed and removed, a heading added and
// removed, a file deleted; on examples/ and on pino's own docs and code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IndexManager } from '../src/index.js';
import { indexRows } from './full-build.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const BASELINE = path.join('.docforge', 'index', 'review-baseline.json');

const QUERIES = {
  issues: 'SELECT severity, code, message, path, line, node_id FROM issues ORDER BY seq',
  nodes: 'SELECT id, title, source_path, start_line, end_line, content_hash FROM nodes ORDER BY id',
  edges: 'SELECT source_id, relation, target_id, source_path, line, mention FROM edges ORDER BY 1, 2, 3',
};
type Rows = Record<keyof typeof QUERIES, string[]>;

/** The baseline file's text, or null when absent. */
function baselineOf(root: string): string | null {
  try {
    return readFileSync(path.join(root, BASELINE), 'utf8');
  } catch {
    return null;
  }
}

/** A build from scratch of `root`'s sources in a fresh copy whose state holds `baseline`: its rows and the baseline it records. */
async function scratchOf(root: string, baseline: string | null): Promise<{ rows: Rows; baseline: string | null }> {
  const fresh = mkdtempSync(path.join(os.tmpdir(), 'docforge-review-scratch-'));
  try {
    cpSync(root, fresh, { recursive: true, filter: (src) => !src.includes(`${path.sep}.docforge`) });
    if (baseline !== null) {
      mkdirSync(path.dirname(path.join(fresh, BASELINE)), { recursive: true });
      writeFileSync(path.join(fresh, BASELINE), baseline);
    }
    const manager = new IndexManager({ root: fresh, noAst: false });
    try {
      const outcome = await manager.sync();
      assert.equal(outcome.stats!.mode, 'full');
      return { rows: indexRows(fresh, outcome.publication.index_file, QUERIES), baseline: baselineOf(fresh) };
    } finally {
      await manager.close();
    }
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}

/** Runs `edits` in one manager (after its idle-time work when `idle`); after each, the publication and baseline equal a from-scratch build's. Returns the groups computed and the review codes found, per edit. */
async function checkEdits(root: string, edits: readonly [string, () => void][], idle = false): Promise<{ computed: number[]; codes: Set<string> }> {
  const manager = new IndexManager({ root, noAst: false });
  const computed: number[] = [];
  const codes = new Set<string>();
  try {
    await manager.sync();
    for (const [label, edit] of edits) {
      // With `idle`, each edit comes after the worker's idle-time work (a primed resolver), as in a server after a pause.
      if (idle) await manager.whenIdle();
      const before = baselineOf(root);
      edit();
      const outcome = await manager.sync();
      assert.equal(outcome.rebuilt, true, `${label}: rebuilt`);
      computed.push(outcome.stats!.review_groups_computed ?? -1);
      const expected = await scratchOf(root, before);
      const incremental = indexRows(root, outcome.publication.index_file, QUERIES);
      for (const key of Object.keys(QUERIES) as (keyof Rows)[]) assert.deepEqual(incremental[key], expected.rows[key], `${label}: ${key}`);
      assert.equal(baselineOf(root), expected.baseline, `${label}: review baseline`);
      for (const row of reviewCodes(incremental.issues)) codes.add((JSON.parse(row) as string[])[1]!);
    }
  } finally {
    await manager.close();
  }
  return { computed, codes };
}

function editor(root: string): { replace: (rel: string, from: string | RegExp, to: string) => void; write: (rel: string, text: string) => void; remove: (rel: string) => void } {
  const at = (rel: string): string => path.join(root, rel);
  return {
    replace: (rel, from, to) => {
      const text = readFileSync(at(rel), 'utf8');
      assert.ok(typeof from === 'string' ? text.includes(from) : from.test(text), `${rel} holds ${String(from)}`);
      writeFileSync(at(rel), text.replace(from, to));
    },
    write: (rel, text) => writeFileSync(at(rel), text),
    remove: (rel) => rmSync(at(rel)),
  };
}

/** Findings of the codes a review pass makes, and the probe requirement's coverage finding, over the rows. */
function reviewCodes(rows: readonly string[]): string[] {
  return rows.filter((r) => /suspect_link|drift_unreviewed_change|drift_unresolved_mention|coverage_requirement_untraced.*REQ-FRD-099/.test(r));
}

test('review findings and baseline kept per edge group equal a from-scratch build on examples/', { timeout: 300_000 }, async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-reviews-examples-'));
  try {
    cpSync(path.join(repo, 'examples'), root, { recursive: true, filter: (src) => !src.includes(`${path.sep}.docforge`) });
    const e = editor(root);
    const DOC = 'docs/components/retry.md';
    const stamp = (hash: string): string => `[[reviews]]\nrelation = "defines"\ntarget = "code:src/shared/retry.ts#withRetry"\nhash = "${hash}"\n+++`;
    const { computed, codes } = await checkEdits(root, [
      ['a wrong stamp (suspect link)', () => e.replace(DOC, /\n\+\+\+\n# Retry helper/, `\n${stamp('0123456789abcdef')}\n# Retry helper`)],
      ['the stamped function body changes', () => e.replace('src/shared/retry.ts', 'export async function withRetry', '// retried operations\nexport async function withRetry')],
      ['the stamp names another hash', () => e.replace(DOC, '0123456789abcdef', 'fedcba9876543210')],
      ['a heading is added', () => e.replace(DOC, '## Algorithm', '## Overview\n\nSee `isRetryable(error)`.\n\n## Algorithm')],
      ['a function is renamed', () => e.replace('src/shared/retry.ts', 'export function isRetryable', 'export function canRetry')],
      ['the heading is removed', () => e.replace(DOC, '## Overview\n\nSee `isRetryable(error)`.\n\n', '')],
      ['a page is added', () => e.write('docs/guides/retries.md', '# Retries\n\nUse `withRetry` from [the helper](../components/retry.md).\n')],
      ['a function is removed', () => e.replace('src/shared/retry.ts', /export function sleep[\s\S]*?\n}\n/, '')],
      ['a file is deleted', () => e.remove('docs/guides/retries.md')],
      ['an untraced requirement is added', () => e.write('docs/requirements/frd-099-probe.md', '+++\nid = "REQ-FRD-099"\nkind = "requirement"\ntitle = "Probe"\nstatus = "accepted"\n+++\n# Probe\n\nA requirement.\n')],
      ['its text moves down', () => e.replace('docs/requirements/frd-099-probe.md', '# Probe', '\n\n# Probe')],
      ['it is traced', () => e.replace('docs/requirements/frd-099-probe.md', 'status = "accepted"', 'status = "accepted"\n\n[relations]\nimplemented_by = ["CMP-RETRY"]')],
      ['it is removed', () => e.remove('docs/requirements/frd-099-probe.md')],
    ]);
    // Later edits keep most groups (the first may resolve from scratch).
    assert.ok(computed.slice(1).some((n) => n >= 0 && n < 40), `groups computed per edit: ${computed.join(', ')}`);
    assert.deepEqual([...codes].sort(), ['coverage_requirement_untraced', 'drift_unreviewed_change', 'drift_unresolved_mention', 'suspect_link'].sort());
    console.error(`groups computed per edit: ${computed.join(', ')}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('review findings and baseline kept per edge group equal a from-scratch build on pino', { timeout: 300_000 }, async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-reviews-pino-'));
  try {
    const pino = path.join(repo, 'node_modules', 'pino');
    for (const part of ['docs', 'lib', 'pino.js', 'pino.d.ts', 'package.json']) cpSync(path.join(pino, part), path.join(root, part), { recursive: true });
    writeFileSync(path.join(root, 'docforge.toml'), [
      'schema_version = 1', '[project]', 'id = "pino"', 'name = "pino"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
      'exclude = ["**/node_modules/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
    ].join('\n'));
    const e = editor(root);
    const { codes, computed } = await checkEdits(root, [
      ['a doc names a function', () => e.write('docs/review-probe.md', '# Probe\n\nCall `multistream()` from [lib](../lib/multistream.js).\n\n## Levels\n\nSee `levels`.\n')],
      ['the function body changes', () => e.replace('lib/multistream.js', 'function multistream (', '// fan out\nfunction multistream (')],
      ['the function is renamed', () => e.replace('lib/multistream.js', /function multistream \(/g, 'function fanout (')],
      ['a heading is removed', () => e.replace('docs/review-probe.md', '## Levels\n\nSee `levels`.\n', '')],
      ['the page is deleted', () => e.remove('docs/review-probe.md')],
    ], true);
    assert.ok(codes.size > 0, 'the edits make review findings');
    console.error(`pino groups computed per edit (after idle-time work): ${computed.join(', ')}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

