// Pins the DOCFORGE_ACCELERATE switch (accelerate.cts, issue 29): unset or blank is every tactic,
// `off` none, `-name,-name` all but those; anything else is refused with a message naming the
// known tactics, and `accelerated` (the gates) reads an invalid value as all off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ACCELERATE_ENV, AccelerateError, ACCELERATORS, accelerated, parseAccelerate } from '../src/index.js';

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

test('accelerated reads the environment it is given; an invalid value is all off there, never an exception', () => {
  assert.equal(accelerated('prestart', {}), true);
  assert.equal(accelerated('prestart', { [ACCELERATE_ENV]: '-prestart' }), false);
  assert.equal(accelerated('code-cache', { [ACCELERATE_ENV]: '-prestart' }), true);
  assert.equal(accelerated('code-cache', { [ACCELERATE_ENV]: 'off' }), false);
  assert.equal(accelerated('code-cache', { [ACCELERATE_ENV]: '-nope' }), false);
});
