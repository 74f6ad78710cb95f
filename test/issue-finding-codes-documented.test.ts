// Pins a new-user trial finding: docs/errors.md promised every code, but changeset findings
// (`metadata_not_representable`, `conflict`, ...) and many validation findings of the walk and
// the adapters appeared nowhere. This test reads the finding codes out of the sources, as they are
// written there, and requires each to be documented in docs/errors.md: the changeset pipeline's
// codes as rows of "Changeset findings", every validation finding code as a row of the validation
// tables. A code added later without a row fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './helpers/paths.js';

const CODE = '[a-z][a-z0-9_]*';

/** The TypeScript sources under `dir` (recursively), without tests, builds and dependencies. */
function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['node_modules', 'dist', 'test', 'scripts'].includes(entry.name)) out.push(...sourcesUnder(full));
    } else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')) {
      out.push(full);
    }
  }
  return out;
}

/** Every capture group 1 of `pattern` in `text`. */
function captures(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

/** Template codes (`undeclared_${field}`) and the codes they produce; an unknown template fails the test. */
const TEMPLATES: Record<string, string[]> = {
  'undeclared_${field}': ['undeclared_kind', 'undeclared_authority', 'undeclared_status'],
};

function expand(code: string, where: string): string[] {
  if (!code.includes('${')) return [code];
  const expanded = TEMPLATES[code];
  assert.ok(expanded !== undefined, `${where} builds the finding code ${code} from a template: list what it expands to in TEMPLATES`);
  return expanded;
}

/**
 * The finding codes the changeset pipeline (libs/changesets/src) writes: `refuse('code'` of the
 * projection, serializer and review edits, `reviewRefusal(...)('code'`, `finding('severity',
 * 'code'`, and `code: 'code'` literals (conflicts, serializer warnings). An operation refused by
 * the write-target rule records the code of the error `writeTargetOf` throws, listed here.
 */
function changesetCodes(): Map<string, string> {
  const codes = new Map<string, string>();
  const patterns = [
    new RegExp(`\\b(?:refuse|refuseEdit)\\(\\s*'(${CODE})'`, 'g'),
    new RegExp(`\\breviewRefusal\\([^)]*\\)\\(\\s*'(${CODE})'`, 'g'),
    new RegExp(`\\bfinding\\(\\s*'(?:error|warning)',\\s*'(${CODE})'`, 'g'),
    new RegExp(`\\bcode:\\s*'(${CODE})'`, 'g'),
  ];
  const dir = path.join(REPO_ROOT, 'libs/changesets/src');
  for (const file of sourcesUnder(dir)) {
    const text = readFileSync(file, 'utf8');
    const rel = path.relative(REPO_ROOT, file);
    for (const pattern of patterns) for (const code of captures(text, pattern)) codes.set(code, rel);
    if (/step\.refuse\(error\.code/.test(text)) for (const code of ['path_outside_root', 'invalid_arguments']) codes.set(code, `${rel} (writeTargetOf)`);
  }
  return codes;
}

/**
 * The validation finding codes (SourceIssue) every other lib writes: `issue('severity', 'code'`,
 * object literals `severity: '...', code: '...'`, calls of a local helper taking `code: string`
 * first (`info('coverage_...'`, `warning('malformed_review_stamp'`, `finding('suspect_link'`), and
 * string-literal unions typed `code: 'a' | 'b'`.
 */
function validationCodes(): Map<string, string> {
  const codes = new Map<string, string>();
  const libs = path.join(REPO_ROOT, 'libs');
  const files = sourcesUnder(libs).filter((f) => !f.startsWith(path.join(libs, 'changesets') + path.sep));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (!/SourceIssue|severity:/.test(text)) continue;
    const rel = path.relative(REPO_ROOT, file);
    const found = [
      ...captures(text, /\bissue\(\s*'(?:error|warning|info)',\s*['`]([^'`]+)['`]/g),
      ...captures(text, /\bseverity:\s*'(?:error|warning|info)'(?:\s+as\s+const)?,\s*code:\s*['`]([^'`]+)['`]/g),
    ];
    for (const helper of captures(text, /\bfunction (\w+)\(code: string\b/g)) found.push(...captures(text, new RegExp(`\\b${helper}\\(\\s*'(${CODE})'`, 'g')));
    for (const union of captures(text, new RegExp(`\\bcode:\\s*('${CODE}'(?:\\s*\\|\\s*'${CODE}')+)`, 'g'))) found.push(...captures(union, new RegExp(`'(${CODE})'`, 'g')));
    for (const code of found) for (const one of expand(code, rel)) codes.set(one, rel);
  }
  return codes;
}

/** The codes named in the first cell of the table rows of `section` (a `` `code` `` or a comma-separated list of them). */
function documentedIn(section: string): Set<string> {
  const out = new Set<string>();
  for (const [, cell] of section.matchAll(/^\| ([^|]+) \|/gm)) for (const code of captures(cell!, /`([a-z][a-z0-9_]*)`/g)) out.add(code);
  return out;
}

const doc = readFileSync(path.join(REPO_ROOT, 'docs/errors.md'), 'utf8');

function sectionOf(heading: string, next: string | null): string {
  const start = doc.indexOf(heading);
  assert.ok(start >= 0, `docs/errors.md has the section ${heading}`);
  const end = next === null ? doc.length : doc.indexOf(next, start);
  assert.ok(end > start, `docs/errors.md has ${next} after ${heading}`);
  return doc.slice(start, end);
}

test('every finding code of the changeset pipeline is a row of "Changeset findings" in docs/errors.md', () => {
  const codes = changesetCodes();
  // The extraction itself is pinned, so a changed spelling in the sources cannot make it find nothing.
  for (const known of ['metadata_not_representable', 'conflict', 'content_hash_mismatch', 'inbound_link_broken', 'hash_not_allowed', 'section_not_found', 'relation_not_present']) {
    assert.ok(codes.has(known), `the extraction finds ${known} in libs/changesets/src`);
  }
  assert.ok(codes.size >= 25, `found ${codes.size} changeset finding codes`);
  const rows = documentedIn(sectionOf('\n## Changeset findings', null));
  const missing = [...codes].filter(([code]) => !rows.has(code)).map(([code, where]) => `${code} (${where})`);
  assert.deepEqual(missing, [], 'changeset finding codes without a row in docs/errors.md "Changeset findings"');
});

test('every validation finding code the libs emit is a row of the validation tables in docs/errors.md', () => {
  const codes = validationCodes();
  for (const known of ['duplicate_id', 'dangling_relation', 'undeclared_kind', 'broken_link', 'coverage_api_undocumented', 'suspect_link', 'malformed_review_stamp', 'unreadable_package_json', 'symlink_loop', 'adapter_invalid_edge', 'syntax_error']) {
    assert.ok(codes.has(known), `the extraction finds ${known} in libs`);
  }
  const rows = documentedIn(sectionOf('\n## Validation findings', '\n## Changeset findings'));
  const missing = [...codes].filter(([code]) => !rows.has(code)).map(([code, where]) => `${code} (${where})`);
  assert.deepEqual(missing, [], 'validation finding codes without a row in docs/errors.md "Validation findings"');
});
