// Pins issue 9 item 3: identifier subwords, abbreviations and word forms find code, one ranking for docs and code, and the prefix property on fastify.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { IndexManager } from '@docforge/sync';
import { rankNodes, searchNodes } from '@docforge/retrieval';
import { fastifyProjectCopy, sharedExampleProject, tempDir } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

/** mulberry32: a small seeded generator, so the random queries are the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('ranking on the example project', async () => {
  const s = await useServer(sharedExampleProject());

  test('"request refund" finds RefundService.requestRefund among the first three', async () => {
    const e = await s.call('docforge_search', { query: 'request refund', limit: 3 });
    assert.ok(e.result!.items.some((i: { id: string }) => i.id === 'code:src/refunds/refund-service.ts#RefundService.requestRefund'), JSON.stringify(e.result!.items.map((i: { id: string }) => i.id)));
  });

  test('scores are monotonic in the order shown', async () => {
    const e = await s.call('docforge_search', { query: 'ledger refund', limit: 30 });
    const scores = e.result!.items.map((i: { score: number }) => i.score);
    for (let i = 1; i < scores.length; i += 1) assert.ok(scores[i] <= scores[i - 1], `score ${i} ${scores[i]} > ${scores[i - 1]}`);
    assert.ok(new Set(scores).size > scores.length / 2, `scores distinguishable: ${scores.join(' ')}`);
  });
});

describe('ranking on a small code project', () => {
  test('"option parsing" finds parseOptions and "where is the configuration validated" finds src/cfg-validator.ts', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "t"\nname = "T"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\n');
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docs', 'overview.md'), '# Overview\n\nThe configuration is described here and read at start. Options are listed below.\n');
    writeFileSync(path.join(root, 'src', 'cfg-validator.ts'), 'export function check(input: unknown): boolean {\n  return input !== null;\n}\n');
    writeFileSync(path.join(root, 'src', 'options.ts'), 'export function parseOptions(argv: string[]): string[] {\n  return argv;\n}\nexport function listen(port: number): number {\n  return port;\n}\n');
    const manager = new IndexManager({ root, noAst: false });
    await manager.sync();
    const reader = manager.reader();
    const top = (q: string, n: number): string[] => searchNodes(reader, q, n).items.map((i) => i.id);
    assert.ok(top('where is the configuration validated', 3).includes('code:src/cfg-validator.ts'), JSON.stringify(top('where is the configuration validated', 5)));
    assert.ok(top('option parsing', 3).includes('code:src/options.ts#parseOptions'), JSON.stringify(top('option parsing', 5)));
    assert.ok(top('listening', 3).includes('code:src/options.ts#listen'), JSON.stringify(top('listening', 5)));
    // Stop words are never required: the same hits with or without them ("where …" would add the
    // code-intent priors, which reorder code nodes on purpose; its hits are the same set).
    assert.deepEqual(top('what is the option parsing', 5), top('option parsing', 5));
    assert.deepEqual(top('where is the option parsing', 5).sort(), top('option parsing', 5).sort());
    await manager.close();
  });
});

describe('ranking rules of the second pass (negation, closed compounds, kind words, implementations)', () => {
  test('each rule reorders a small project as documented', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'src'));
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "t"\nname = "T"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\n');
    writeFileSync(path.join(root, 'docs', 'imbalance.md'), '+++\nid = "RB-1"\nkind = "runbook"\ntitle = "Account imbalance detected"\ntags = ["oncall"]\n+++\n# Account imbalance detected\n\nPage the owner.\n');
    writeFileSync(path.join(root, 'docs', 'account.md'), '+++\nid = "DOC-ACC"\nkind = "component"\ntitle = "Account"\n+++\n# Account\n\nAn account must balance. The account store interface keeps the entries; call sites may balance often.\n');
    writeFileSync(path.join(root, 'docs', 'store.md'), '+++\nid = "IFC-STORE"\nkind = "interface"\ntitle = "Account store interface"\n+++\n# Account store interface\n\nDescribes the account store.\n');
    writeFileSync(path.join(root, 'src', 'store.ts'), [
      'export interface AccountStore {', '  save(entry: string): void;', '}',
      'export interface Charger {', '  chargeCard(amount: number): number;', '}',
      'export class CardCharger implements Charger {', '  chargeCard(amount: number): number {', '    const fee = 1;', '    return amount + fee;', '  }', '}',
      'export interface ChargeCard {', '  amount: number;', '}', '',
    ].join('\n'));
    const manager = new IndexManager({ root, noAst: false });
    await manager.sync();
    const reader = manager.reader();
    const top = (q: string, n: number): string[] => searchNodes(reader, q, n).items.map((i) => i.id);
    // A negated word also finds its negated form; "on-call" also finds the closed form "oncall".
    assert.equal(top('the account does not balance, what should on-call do', 1)[0], 'RB-1', JSON.stringify(top('the account does not balance, what should on-call do', 5)));
    // A kind word in a "where" question matches a code node of that kind, above a page of the same title.
    assert.equal(top('where is the account store interface declared', 1)[0], 'code:src/store.ts#AccountStore', JSON.stringify(top('where is the account store interface declared', 5)));
    // Behaviour is asked for: the method with a body first, then its interface signature, then the like-named type.
    assert.deepEqual(top('where is a card charged', 3), ['code:src/store.ts#CardCharger.chargeCard', 'code:src/store.ts#Charger.chargeCard', 'code:src/store.ts#ChargeCard'], JSON.stringify(top('where is a card charged', 5)));
    // Without "where", the implementation still leads its one-line declaration.
    assert.equal(top('charge card', 1)[0], 'code:src/store.ts#CardCharger.chargeCard', JSON.stringify(top('charge card', 5)));
    await manager.close();
  });
});

describe('ranking rules of the third pass (creation questions, tests are not implementations, prepositions)', () => {
  test('a factory named after the created thing, implementation code above tests, "against" is not a required term', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'src'));
    mkdirSync(path.join(root, 'test'));
    writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "t"\nname = "T"\n[sources]\ncode_roots = ["src", "test"]\n[adapter]\ncode = "typescript"\n');
    writeFileSync(path.join(root, 'src', 'widget.ts'), [
      'export function widget(size: number): { size: number } {', '  const made = { size };', '  return made;', '}',
      '/** Creates the child logger of a widget instance. */', 'export function createChildLogger(name: string): string {', '  return name;', '}',
      'export function checkWidget(w: unknown): boolean {', '  return w !== null;', '}',
    ].join('\n'));
    // Unrelated modules, so that "widget" is not a word of every node (its idf stays above zero).
    for (const n of ['alpha', 'beta', 'gamma', 'delta']) {
      writeFileSync(path.join(root, 'src', `${n}.ts`), `export function ${n}Start(x: number): number {\n  return x + 1;\n}\nexport function ${n}Stop(x: number): number {\n  return x - 1;\n}\n`);
    }
    writeFileSync(path.join(root, 'src', 'validation.ts'), 'export function validate(request: unknown): boolean {\n  const ok = request !== null;\n  return ok;\n}\n');
    writeFileSync(path.join(root, 'test', 'validation.test.ts'), 'export function schemaValidator(): boolean {\n  const ok = true;\n  return ok;\n}\n');
    const manager = new IndexManager({ root, noAst: false });
    await manager.sync();
    const reader = manager.reader();
    const top = (q: string, n: number): string[] => searchNodes(reader, q, n).items.map((i) => i.id);
    // "the widget instance created": the function named `widget` is its factory (creation and
    // instance words match a class or function whose own name is the rest of the question).
    assert.equal(top('where is the widget instance created', 1)[0], 'code:src/widget.ts#widget', JSON.stringify(top('where is the widget instance created', 5)));
    // A function whose name is not the created thing gets no creation match from its kind.
    assert.ok(!top('where is the widget instance created', 5).slice(0, 1).includes('code:src/widget.ts#checkWidget'));
    // "where is X implemented" asks for implementation code: a like-named test helper ranks below it.
    assert.equal(top('where is a request validated against its schema', 1)[0], 'code:src/validation.ts#validate', JSON.stringify(top('where is a request validated against its schema', 5)));
    // "against" is an English function word: dropped, never required.
    assert.ok(searchNodes(reader, 'validated against schema', 5).dropped_terms.some((d) => d.term === 'against' && d.reason === 'stop_word'));
    await manager.close();
  });
});

describe('bounded candidate tier (issue 14 item 6)', () => {
  test('a very common term leaves the candidate queries without changing the order of the others; a query of only such terms ranks a bounded tier', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "t"\nname = "T"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n');
    for (let i = 0; i < 12; i += 1) {
      const extra = i === 3 ? ' omega omega' : i === 8 ? ' omega' : '';
      writeFileSync(path.join(root, 'docs', `d${String(i).padStart(2, '0')}.md`), `# Doc ${i}\n\nalpha ${'alpha '.repeat(i)}text${extra}.\n`);
    }
    const manager = new IndexManager({ root, noAst: false });
    await manager.sync();
    const reader = manager.reader();
    const ids = (q: string, tier: number): string[] => rankNodes(reader, q, {}, undefined, tier).ranked.map((r) => r.row.id);
    // Every match ranked: all 12 documents contain "alpha".
    assert.equal(ids('alpha omega', Infinity).length, 12);
    // With a tier of 3 matches, "alpha" (in 12 of 12 nodes) is very common: only "omega" finds candidates,
    // in the same relative order as when every match is ranked.
    const pruned = rankNodes(reader, 'alpha omega', {}, undefined, 3);
    assert.equal(pruned.windowed, true);
    assert.equal(pruned.ranked.length, 2);
    assert.deepEqual(pruned.ranked.map((r) => r.row.id), ids('alpha omega', Infinity).filter((id) => ['d03', 'd08'].includes(id)));
    // Only very common terms: the first 3 matches in index order (full text and names), never all 12.
    const bounded = rankNodes(reader, 'alpha', {}, undefined, 3);
    assert.equal(bounded.windowed, true);
    assert.ok(bounded.ranked.length > 0 && bounded.ranked.length <= 6, String(bounded.ranked.length));
    // The default tier (5,000 matches) prunes nothing on a small index.
    assert.deepEqual(ids('alpha omega', 5000), ids('alpha omega', Infinity));
    await manager.close();
  });
});

describe('prefix property on fastify (docs, lib, fastify.js)', () => {
  test('for 100 seeded random queries, the results for each limit 1..50 are the first entries of limit 50', async () => {
    const root = fastifyProjectCopy(['docs', 'lib', 'fastify.js', 'package.json'],
      'schema_version = 1\n[project]\nid = "fastify"\nname = "Fastify"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["."]\nexclude = ["**/node_modules/**"]\n[adapter]\ncode = "typescript"\n');
    const manager = new IndexManager({ root, noAst: false });
    await manager.sync();
    const reader = manager.reader();
    // Words of fastify's own node titles, so queries hit a realistic mix of docs and code.
    const vocabulary = [...new Set(reader.nodesByFilter({}, 5000, null).items.flatMap((n) => n.title.toLowerCase().match(/[a-z]{3,}/g) ?? []))].sort();
    assert.ok(vocabulary.length > 100);
    const next = rng(9);
    const queries = ['hooks'];
    while (queries.length < 100) {
      const words = 1 + Math.floor(next() * 3);
      queries.push(Array.from({ length: words }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(' '));
    }
    for (const q of queries) {
      const full = searchNodes(reader, q, 50).items.map((i) => i.id);
      for (let limit = 1; limit <= 50; limit += 1) {
        const page = searchNodes(reader, q, limit).items.map((i) => i.id);
        assert.deepEqual(page, full.slice(0, limit), `query ${JSON.stringify(q)} limit ${limit}`);
      }
    }
    const hooks = searchNodes(reader, 'hooks', 20).items.map((i) => i.id);
    assert.ok(hooks.slice(0, 3).includes('Reference/Hooks'), JSON.stringify(hooks));
  });
});
