// Pins how a mention's PHP namespace separator reads (new-user trial on monolog: `Monolog\Registry`
// in doc/03-utilities.md never linked): `\` between names is `.`, a leading `\` (fully qualified) is
// dropped, and text that is no namespaced name keeps its backslashes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mentionName } from '../src/drift-mentions.js';

test('mentionName reads PHP `A\\B\\C` as `A.B.C`', () => {
  assert.equal(mentionName('Monolog\\Registry'), 'Monolog.Registry');
  assert.equal(mentionName('\\Monolog\\Handler\\HandlerInterface'), 'Monolog.Handler.HandlerInterface');
  assert.equal(mentionName('Monolog\\Logger::pushProcessor()'), 'Monolog.Logger.pushProcessor');
  assert.equal(mentionName('\\n'), '\\n');
  assert.equal(mentionName('C:\\'), 'C:\\');
});
