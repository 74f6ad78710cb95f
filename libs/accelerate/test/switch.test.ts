// Pins the DOCFORGE_ACCELERATE switch (switch.cts, accelerators.cts; issue 29): unset or blank is every tactic,
// `off` none, `-name,-name` all but those; anything else is refused with a message naming the
// known tactics, and `Accelerators` (the gates) reads an invalid value as all off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ACCELERATE_ENV, AccelerateError, ACCELERATORS, Accelerators, parseAccelerate } from '../src/index.cjs';

test('unset or blank turns every tactic on, off turns every tactic off', () => {
  assert.deepEqual([...parseAccelerate(undefined)], [...ACCELERATORS]);
  assert.deepEqual([...parseAccelerate('')], [...ACCELERATORS]);
  assert.deepEqual([...parseAccelerate('  ')], [...ACCELERATORS]);
  assert.deepEqual([...parseAccelerate('off')], []);
  assert.deepEqual([...parseAccelerate(' off ')], []);
});

test('-name items turn those tactics off and leave the others on', () => {
  const some = parseAccelerate('-prestart, -code-cache');
  assert.equal(some.has('prestart'), false);
  assert.equal(some.has('code-cache'), false);
  assert.deepEqual([...some], ACCELERATORS.filter((name) => name !== 'prestart' && name !== 'code-cache'));
  assert.equal(parseAccelerate('-prestart,-prestart').has('prestart'), false);
  assert.deepEqual([...parseAccelerate(ACCELERATORS.map((name) => `-${name}`).join(','))], []);
});

test('unknown names, items without their minus and off inside a list are refused, naming the tactics', () => {
  for (const value of ['-nope', 'prestart', '-prestart,nope', 'on', 'off,-prestart', '-prestart,', '-', 'OFF', '-Prestart']) {
    assert.throws(() => parseAccelerate(value), (error: unknown) => {
      assert.ok(error instanceof AccelerateError);
      assert.match(error.message, new RegExp(`^${ACCELERATE_ENV}=`));
      for (const name of ACCELERATORS) assert.ok(error.message.includes(name), `${value}: ${error.message}`);
      return true;
    }, value);
  }
});

test('Accelerators read the settings they are given; an invalid value is all off there, never an exception', () => {
  const accelerated = (name: (typeof ACCELERATORS)[number], accelerateText?: string): boolean => Accelerators.from({ accelerateText }).on(name);
  assert.equal(accelerated('prestart'), true);
  assert.equal(accelerated('prestart', '-prestart'), false);
  assert.equal(accelerated('code-cache', '-prestart'), true);
  assert.equal(accelerated('code-cache', 'off'), false);
  assert.equal(accelerated('code-cache', '-nope'), false);
});

test('DOCFORGE_TS_PARSER=whole turns parser-module off; the code cache directory is null when code-cache is off', () => {
  assert.equal(Accelerators.from({ tsParser: 'whole' }).on('parser-module'), false);
  assert.equal(Accelerators.from({ tsParser: 'whole' }).on('code-cache'), true);
  assert.equal(Accelerators.from({ codeCacheDirText: '/tmp/x' }).codeCacheDir, '/tmp/x');
  assert.equal(Accelerators.from({ codeCacheDirText: '/tmp/x', accelerateText: '-code-cache' }).codeCacheDir, null);
  assert.equal(Accelerators.from({ codeCacheDirText: 'off' }).codeCacheDir, null);
});
