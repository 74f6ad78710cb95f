/** Hashes the end-to-end tests expect, computed independently of @docforge/core and the index libs (node:crypto and a small canonical JSON). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';

/** SHA-256 hex of UTF-8 text. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** RFC 8785 canonical JSON of plain JSON values (string keys sorted by code unit, undefined members dropped). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Node set hash of a generation receipt: SHA-256 of sorted `id TAB content_hash` lines joined by LF. */
export function nodeSetHash(nodes: ReadonlyMap<string, string>): string {
  return sha256Hex([...nodes].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, hash]) => `${id}\t${hash}`).join('\n'));
}

/** Edge set hash: SHA-256 of the sorted `source NUL relation NUL target` keys joined by LF. */
export function edgeSetHash(keys: Iterable<string>): string {
  return sha256Hex([...keys].sort().join('\n'));
}

/** Collection hash of receipt items: SHA-256 over each item's canonical-JSON SHA-256 followed by LF. */
export function collectionHash(items: readonly unknown[]): string {
  return sha256Hex(items.map((item) => `${sha256Hex(canonical(item))}\n`).join(''));
}

/** SHA-256 of every file under `dir` (relative path -> hash), skipping the state dir. */
export function treeHashes(dir: string, skip = '.docforge'): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const child = rel === '' ? name : `${rel}/${name}`;
      if (child === skip) continue;
      const full = path.join(dir, child);
      if (statSync(full).isDirectory()) walk(child);
      else out.set(child, sha256Hex(readFileSync(full, 'utf8')));
    }
  };
  walk('');
  return out;
}
