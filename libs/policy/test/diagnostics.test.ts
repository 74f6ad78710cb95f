// Pins the --diagnostics record: fixed version-1 shape, numbers only, rounding, closed stage/counter names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIAGNOSTIC_COUNTERS, DIAGNOSTIC_STAGES, DiagnosticsCollector } from '../src/index.js';
import type { DiagnosticCounter, DiagnosticStage } from '../src/index.js';

/** A manual clock: each call returns the current value; tests advance it explicitly. */
function manualClock(start = 1000): { now: () => number; advance: (ms: number) => void } {
  let value = start;
  return { now: () => value, advance: (ms) => { value += ms; } };
}

function leaves(value: unknown, out: unknown[] = []): unknown[] {
  if (value !== null && typeof value === 'object') for (const child of Object.values(value)) leaves(child, out);
  else out.push(value);
  return out;
}

test('a fresh record has every fixed stage and counter at zero, in fixed order', () => {
  const clock = manualClock();
  const record = new DiagnosticsCollector(clock.now).toJSON();
  assert.deepEqual(Object.keys(record), ['schema_version', 'total_ms', 'stages', 'counters']);
  assert.equal(record.schema_version, 1);
  assert.equal(record.total_ms, 0);
  assert.deepEqual(Object.keys(record.stages), ['source_parsing', 'adapter_extraction', 'index_work', 'rendering', 'viewer_manager']);
  assert.deepEqual(Object.keys(record.counters), [...DIAGNOSTIC_COUNTERS]);
  for (const stage of DIAGNOSTIC_STAGES) assert.deepEqual(record.stages[stage], { ms: 0, count: 0 });
});

test('time, timeAsync, add and count accumulate and round to 0.001 ms', async () => {
  const clock = manualClock();
  const diagnostics = new DiagnosticsCollector(clock.now);
  const parsed = diagnostics.time('source_parsing', () => {
    clock.advance(1.23456);
    return 'parsed';
  });
  assert.equal(parsed, 'parsed');
  const built = await diagnostics.timeAsync('index_work', async () => {
    clock.advance(10.0004);
    return 42;
  });
  assert.equal(built, 42);
  diagnostics.add('source_parsing', 0.5, 3);
  diagnostics.count('files_parsed', 4);
  diagnostics.count('rows_read');
  diagnostics.count('rows_read', 0);
  const record = diagnostics.toJSON();
  assert.deepEqual(record.stages.source_parsing, { ms: 1.735, count: 4 });
  assert.deepEqual(record.stages.index_work, { ms: 10, count: 1 });
  assert.equal(record.counters.files_parsed, 4);
  assert.equal(record.counters.rows_read, 1);
  assert.equal(record.total_ms, 11.235);
});

test('time records the stage even when the timed function throws or rejects', async () => {
  const clock = manualClock();
  const diagnostics = new DiagnosticsCollector(clock.now);
  assert.throws(() => diagnostics.time('rendering', () => {
    clock.advance(2);
    throw new Error('render failed');
  }), /render failed/);
  await assert.rejects(diagnostics.timeAsync('viewer_manager', async () => {
    clock.advance(3);
    throw new Error('manager down');
  }), /manager down/);
  const record = diagnostics.toJSON();
  assert.deepEqual(record.stages.rendering, { ms: 2, count: 1 });
  assert.deepEqual(record.stages.viewer_manager, { ms: 3, count: 1 });
});

test('unknown names and bad numbers throw TypeError and leave the record unchanged', () => {
  const diagnostics = new DiagnosticsCollector(manualClock().now);
  const before = JSON.stringify(diagnostics.toJSON());
  let ran = false;
  assert.throws(() => diagnostics.time('search query text' as DiagnosticStage, () => { ran = true; }), TypeError);
  assert.equal(ran, false, 'fn does not run for an unknown stage');
  assert.throws(() => diagnostics.add('/etc/passwd' as DiagnosticStage, 1), TypeError);
  assert.throws(() => diagnostics.count('node:secret' as DiagnosticCounter), TypeError);
  assert.throws(() => diagnostics.add('rendering', -1), TypeError);
  assert.throws(() => diagnostics.add('rendering', Number.NaN), TypeError);
  assert.throws(() => diagnostics.add('rendering', '5' as unknown as number), TypeError);
  assert.throws(() => diagnostics.add('rendering', 1, 1.5), TypeError);
  assert.throws(() => diagnostics.count('cache_hits', -2), TypeError);
  assert.equal(JSON.stringify(diagnostics.toJSON()), before);
});

test('the serialized record is bounded and contains only numbers, whatever real work was timed', () => {
  const diagnostics = new DiagnosticsCollector();
  const secretPath = '/home/owner/private/notes.md';
  const query = 'password reset flow';
  diagnostics.time('source_parsing', () => `${secretPath}:${query}`.split('').reverse().join(''));
  diagnostics.count('nodes_indexed', 12_345);
  const text = JSON.stringify(diagnostics);
  assert.ok(!text.includes('home') && !text.includes('password'));
  const record = JSON.parse(text) as unknown;
  for (const leaf of leaves(record)) assert.equal(typeof leaf, 'number');
  assert.equal(leaves(record).length, 2 + DIAGNOSTIC_STAGES.length * 2 + DIAGNOSTIC_COUNTERS.length);
  const parsed = record as { total_ms: number; stages: Record<string, { ms: number }> };
  assert.ok(parsed.total_ms >= parsed.stages.source_parsing!.ms);
  assert.ok(text.length < 1024);
});
