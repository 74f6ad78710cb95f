// ReDoS audit of every regular expression literal in the product sources (issue 30: the break-it trial's
// 80,000-capital title took 28 s to index through a backtracking regex). Finds each literal in
// libs/*/src, libs/adapters/*/src, apps/*/src (web/src too) and protocol/src with the TypeScript compiler API
// and checks it with `recheck` (a ReDoS checker). The verdicts are kept in ops/regex-audit.json, one entry per
// distinct (source, flags) with the files/lines that hold it, so that test/regex-linear.test.ts can compare the
// literals in the tree with the file in milliseconds and run recheck only on literals the file lacks.
// Usage: node ops/regex-audit.mjs --update   (re-checks only literals whose (source, flags) has no verdict yet;
//        --all re-checks every literal). Prints the literals that are not safe; exit 1 if one is not safe and
//        listed neither in `exceptions` nor in `open` of the file.
import { readFileSync, readdirSync, statSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const AUDIT_FILE = path.join(ROOT, 'ops', 'regex-audit.json');

/** Source directories scanned, relative to the repository root. */
export function sourceDirs() {
  const dirs = ['protocol/src'];
  for (const base of ['libs', 'libs/adapters', 'apps']) {
    for (const name of readdirSync(path.join(ROOT, base)).sort()) {
      for (const sub of ['src', 'web/src']) {
        const dir = path.join(base, name, sub);
        if (existsSync(path.join(ROOT, dir)) && statSync(path.join(ROOT, dir)).isDirectory()) dirs.push(dir);
      }
    }
  }
  return dirs;
}

function tsFiles(dir, out) {
  for (const name of readdirSync(path.join(ROOT, dir)).sort()) {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) {
      if (name !== 'test' && name !== 'node_modules') tsFiles(rel, out);
    } else if (/\.(ts|tsx|mts|cts)$/.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.test.ts')) out.push(rel);
  }
  return out;
}

/** Every regex literal in the product sources: { source, flags, file, line } sorted by file and line. */
export function findLiterals() {
  const found = [];
  for (const dir of sourceDirs()) {
    for (const file of tsFiles(dir, [])) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      const visit = (node) => {
        if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
          const t = node.getText(sf);
          const i = t.lastIndexOf('/');
          found.push({ source: t.slice(1, i), flags: t.slice(i + 1), file: file.split(path.sep).join('/'), line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }
  }
  return found;
}

/** The key of a literal in the audit file. */
export function keyOf(lit) {
  return `/${lit.source}/${lit.flags}`;
}

/** recheck's verdict on one literal: 'safe', 'vulnerable' or 'unknown' (+ complexity). g/y flags do not change it. */
export async function check(source, flags) {
  const { checkSync } = await import('recheck');
  const res = checkSync(source, flags.replace(/[gy]/g, ''), { timeout: 10000 });
  return { verdict: res.status, ...(res.complexity ? { complexity: res.complexity.type } : {}) };
}

/** The audit file's content, or an empty one. */
export function readAudit() {
  if (!existsSync(AUDIT_FILE)) return { exceptions: [], open: [], literals: [] };
  return JSON.parse(readFileSync(AUDIT_FILE, 'utf8'));
}

const NOTE = 'Written by node ops/regex-audit.mjs --update; checked by test/regex-linear.test.ts (issue 30). exceptions: literals run only on input of a stated bound, or that recheck cannot decide and a timing sweep shows linear (10k..1M characters; the bound says so); open: not-safe literals still to be rewritten (may only shrink).';

async function main() {
  const all = process.argv.includes('--all');
  const old = readAudit();
  const known = new Map(old.literals.map((e) => [keyOf(e), e]));
  const byKey = new Map();
  for (const lit of findLiterals()) {
    const k = keyOf(lit);
    const entry = byKey.get(k) ?? { source: lit.source, flags: lit.flags, at: [] };
    entry.at.push(`${lit.file}:${lit.line}`);
    byKey.set(k, entry);
  }
  const literals = [];
  for (const [k, entry] of [...byKey].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const prior = known.get(k);
    const verdict = !all && prior !== undefined ? { verdict: prior.verdict, ...(prior.complexity ? { complexity: prior.complexity } : {}) } : await check(entry.source, entry.flags);
    literals.push({ ...entry, ...verdict });
  }
  const exceptions = old.exceptions ?? [];
  // `open`: literals recheck finds not safe that are still to be rewritten (issue 30); the list may only shrink.
  const open = (old.open ?? []).filter((k) => byKey.has(k) && literals.find((e) => keyOf(e) === k)?.verdict !== 'safe');
  writeFileSync(AUDIT_FILE, `${JSON.stringify({ note: NOTE, exceptions, open, literals }, null, 1)}\n`);
  const excepted = new Set([...exceptions.map((e) => keyOf(e)), ...open]);
  const bad = literals.filter((e) => e.verdict !== 'safe' && !excepted.has(keyOf(e)));
  for (const e of bad) process.stdout.write(`${e.verdict} ${e.complexity ?? ''} ${e.at.join(',')} ${keyOf(e)}\n`);
  process.stdout.write(`${literals.length} distinct literals, ${bad.length} not safe and neither excepted nor open\n`);
  process.exitCode = bad.length > 0 ? 1 : 0;
}

if (process.argv.includes('--update')) await main();
