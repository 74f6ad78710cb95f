// Pins the graph browser's stale-snapshot indicator (trial fix, contract "Visualization boundary": the browser exposes one exact snapshot and needs another MCP invocation to refresh): the page shows its generation, and after a sync publishes another one a banner says to call docforge_visualize again while the old snapshot stays drawn.
/// <reference lib="dom" />
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { IndexManager } from '@docforge/sync';
import { CHROMIUM, browserSkip } from './helpers/browser.js';
import { WorkerProcess, workerConfig } from './helpers/graph-browser.js';
import { exampleProjectCopy, removeDir } from './helpers/projects.js';

// Under CI (DOCFORGE_CI=1) a missing Chromium fails these tests instead of skipping them.
const skip = browserSkip(existsSync);
const METHOD = 'code:src/gateway/auth-gateway.ts#AuthGateway.authorize';

let root: string;
let worker: WorkerProcess;
let origin: string;
let browser: Browser;
let page: Page;
let served: number;

before(async () => {
  if (skip) return;
  root = exampleProjectCopy();
  const config = await workerConfig(root, { workerId: 'stale-test' });
  served = config.signature.generation;
  worker = new WorkerProcess(config);
  origin = `http://127.0.0.1:${(await worker.next('ready')).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
  // Hang guards, not timing assertions: on a loaded machine a step may take longer than Playwright's 30 s default (issue 29 item 7).
  page.setDefaultTimeout(90_000);
});

after(async () => {
  await browser?.close();
  await worker?.stop();
  if (root) removeDir(root);
});

test('the page shows its snapshot generation; after a sync publishes another, a banner says to call docforge_visualize again and the old snapshot stays drawn', { skip }, async () => {
  await page.goto(`${origin}${(await worker.token()).url_path}#focus=${encodeURIComponent(METHOD)}&view=nodes`);
  await page.waitForSelector('#graph[data-state="ready"]', { timeout: 90_000 });
  await page.locator('#generation', { hasText: `generation ${served}` }).waitFor();
  assert.equal(await page.locator('#stale').isVisible(), false, 'no banner while the snapshot is the published one');
  const before = await page.evaluate(async () => (await fetch('/api/status')).json()) as { current: boolean; served: { generation: number } };
  assert.deepEqual([before.current, before.served.generation], [true, served]);

  appendFileSync(path.join(root, 'docs/components/ledger.md'), '\n\nA line added after the browser opened.\n');
  const manager = new IndexManager({ root, noAst: false });
  try {
    await manager.sync();
  } finally {
    await manager.close();
  }
  const status = await page.evaluate(async () => (await fetch('/api/status')).json()) as { current: boolean; published: { generation: number } | null };
  assert.equal(status.current, false);
  assert.ok(status.published && status.published.generation > served, 'the worker reports the newer publication');
  // Any navigation (and the periodic poll) re-checks the status.
  await page.locator('#views button[data-view="flow"]').click();
  await page.waitForSelector('#graph[data-state="ready"]', { timeout: 90_000 });
  const banner = page.locator('#stale');
  await banner.waitFor({ state: 'visible' });
  const text = (await banner.textContent()) ?? '';
  assert.match(text, new RegExp(`generation ${served}\\b`));
  assert.match(text, new RegExp(`generation ${status.published!.generation}\\b`));
  assert.match(text, /docforge_visualize again/);
  assert.ok((await page.evaluate(() => (window as unknown as { docforgeGraph: { nodes(): string[] } }).docforgeGraph.nodes())).includes(METHOD), 'the exact snapshot stays served and drawn');
});
