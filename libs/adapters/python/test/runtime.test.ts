// Pins the per-thread async initialization contract: extract throws before initPythonAdapter resolves, and each worker thread initializes on its own.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';

interface WorkerReport {
  readyBefore: boolean;
  before: { name: string; code: string; message: string } | 'no error';
  readyAfter: boolean;
  ids: string[];
}

/** Runs the adapter in a fresh worker thread, where no initialization has happened yet. */
function runInWorker(): Promise<WorkerReport> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      const mod = await import(workerData.url);
      const input = { path: 'w/a.py', content: 'class A:\\n    def m(self):\\n        pass\\n', strategy: 'ast', logic: false };
      const report = { readyBefore: mod.isPythonAdapterReady() };
      try {
        mod.pythonAdapter.extract(input);
        report.before = 'no error';
      } catch (error) {
        report.before = { name: error.name, code: error.code, message: error.message };
      }
      await Promise.all([mod.initPythonAdapter(), mod.initPythonAdapter()]);
      await mod.initPythonAdapter();
      report.readyAfter = mod.isPythonAdapterReady();
      report.ids = mod.pythonAdapter.extract(input).nodes.map((node) => node.id);
      parentPort.postMessage(report);
    })().catch((error) => { throw error; });
  `;
  const url = new URL('../src/whole.js', import.meta.url).href;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { url } });
    worker.once('message', (report: WorkerReport) => {
      void worker.terminate();
      resolve(report);
    });
    worker.once('error', reject);
  });
}

describe('initPythonAdapter', () => {
  it('is required per thread, idempotent and safe to await concurrently', async () => {
    const report = await runInWorker();
    assert.equal(report.readyBefore, false);
    assert.notEqual(report.before, 'no error');
    if (report.before !== 'no error') {
      assert.equal(report.before.name, 'DocforgeError');
      assert.equal(report.before.code, 'internal_error');
      assert.match(report.before.message, /await initPythonAdapter\(\)/);
    }
    assert.equal(report.readyAfter, true);
    assert.deepEqual(report.ids, ['code:w/a.py', 'code:w/a.py#A', 'code:w/a.py#A.m']);
  });

  it('initializes two threads independently', async () => {
    const [first, second] = await Promise.all([runInWorker(), runInWorker()]);
    assert.deepEqual(first?.ids, second?.ids);
    assert.equal(first?.readyBefore, false);
    assert.equal(second?.readyBefore, false);
  });
});
