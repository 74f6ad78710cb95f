// Pins lazy-link-data.ts (issue 14): a warmed source's link data is parsed from its cached text on
// first read only; whether there is any and its text for the parse cache are answered without
// parsing; a damaged text reads as null and is counted, so the build that read it starts over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CachedSource } from '../src/build-types.js';
import { LinkDataCounters, linkDataJson, linkDataPresent, withLazyLinkData } from '../src/lazy-link-data.js';

const counters = new LinkDataCounters();

function source(path: string): Omit<CachedSource, 'link_data'> {
  return {
    entry: { path, role: 'code', size: 1, mtime_ns: '1', ctime_ns: '1', ino: '1' }, content_hash: 'h', nodes: [], edges: [], links: [], issues: [],
    logic_steps: [], logic_flows: [], adapter: 'typescript', stripped: true,
  };
}

test('link data is parsed on first read, once; presence and the stored text need no parse', () => {
  counters.takeParsed();
  counters.takeDamaged();
  const text = JSON.stringify({ format: 'docforge-ts-link/2', calls: [{ name: 'f', line: 3 }] });
  const lazy = withLazyLinkData(source('a.ts'), text, counters);
  assert.equal(linkDataPresent(lazy), true);
  assert.equal(linkDataJson(lazy), text, 'the cached text as is');
  assert.equal(counters.takeParsed(), 0, 'nothing parsed yet');
  const first = lazy.link_data;
  assert.deepEqual(first, JSON.parse(text));
  assert.equal(lazy.link_data, first, 'the same object on every read');
  assert.equal(counters.takeParsed(), 1);
  assert.equal(linkDataJson(lazy), JSON.stringify(first));
  // The other fields are the source's own; assignment replaces the link data.
  assert.equal(lazy.entry.path, 'a.ts');
  lazy.link_data = { format: 'other' };
  assert.deepEqual(lazy.link_data, { format: 'other' });
  assert.equal(counters.takeDamaged(), 0);
});

test('no link data is absent without a parse; a damaged text reads as null and is counted', () => {
  counters.takeDamaged();
  const none = withLazyLinkData(source('b.md'), null, counters);
  assert.equal(linkDataPresent(none), false);
  assert.equal(linkDataJson(none), null);
  assert.equal(none.link_data, null);
  const damaged = withLazyLinkData(source('c.ts'), '{"format": broken', counters);
  assert.equal(linkDataPresent(damaged), true, 'present until read');
  assert.equal(damaged.link_data, null);
  assert.equal(damaged.link_data, null);
  assert.equal(counters.takeDamaged(), 1, 'counted once');
  assert.equal(counters.takeDamaged(), 0, 'and reset');
  // A plain source answers from its value.
  const plain = { ...source('d.ts'), link_data: { format: 'x' } } as CachedSource;
  assert.equal(linkDataPresent(plain), true);
  assert.equal(linkDataJson(plain), '{"format":"x"}');
});

test('link data fetched from the parse cache is read once, on first use; one the cache no longer holds is damaged, never "none"', () => {
  counters.takeDamaged();
  counters.takeParsed();
  let reads = 0;
  const text = JSON.stringify({ format: 'x' });
  const lazy = withLazyLinkData(source('e.ts'), () => { reads += 1; return text; }, counters);
  assert.equal(linkDataPresent(lazy), true);
  assert.equal(reads, 0, 'presence reads nothing');
  assert.equal(linkDataJson(lazy), text);
  assert.deepEqual(lazy.link_data, { format: 'x' });
  assert.equal(reads, 1, 'read once');
  assert.equal(counters.takeParsed(), 1);
  // The row is gone or holds another parse: every read is damaged, and the parse cache gets no row for it.
  const lost = withLazyLinkData(source('f.ts'), () => null, counters);
  assert.equal(linkDataPresent(lost), true);
  assert.equal(linkDataJson(lost), undefined);
  assert.equal(lost.link_data, null);
  assert.equal(lost.link_data, null);
  assert.equal(linkDataPresent(lost), true, 'still present: never read as a file without link data');
  assert.equal(counters.takeDamaged(), 2);
  // Assigning replaces it.
  lost.link_data = { format: 'y' };
  assert.deepEqual(lost.link_data, { format: 'y' });
  assert.equal(linkDataJson(lost), '{"format":"y"}');
  assert.equal(counters.takeDamaged(), 0);
});
