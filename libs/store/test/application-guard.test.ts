// Pins the index side of canonical application (issue 11): an open journal or a changed application epoch blocks publication, so a build that read sources while an application ran never publishes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stateLayout } from '@docforge/fs-safe';
import { applicationBlocksPublication, applicationEpoch, openApplication } from '../src/index.js';

test('an open journal or a changed epoch blocks publication; neither blocks nothing', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'docforge-guard-'));
  const layout = stateLayout(path.join(root, '.docforge'), root);
  assert.equal(openApplication(layout), null);
  const epoch = applicationEpoch(layout);
  assert.equal(epoch, '');
  assert.equal(applicationBlocksPublication(layout, epoch), null);

  mkdirSync(layout.applicationDir, { recursive: true });
  writeFileSync(layout.applicationJournal, JSON.stringify({ schema_version: 1, changeset_id: 'cs-1', step: 'writing' }));
  assert.deepEqual(openApplication(layout), { changeset_id: 'cs-1', step: 'writing' });
  const open = applicationBlocksPublication(layout, epoch);
  assert.equal(open?.code, 'application_in_progress');
  assert.equal(open?.details['changeset_id'], 'cs-1');

  // The application finished (journal gone) but ran after the build read its epoch: still blocked.
  rmSync(layout.applicationJournal);
  writeFileSync(layout.applicationEpoch, 'token-2');
  assert.equal(applicationBlocksPublication(layout, epoch)?.code, 'application_in_progress');
  assert.equal(applicationBlocksPublication(layout, applicationEpoch(layout)), null, 'a build that started after it publishes');
  writeFileSync(layout.applicationJournal, '{not json');
  assert.deepEqual(openApplication(layout), { changeset_id: 'unknown', step: 'unreadable' });
  rmSync(root, { recursive: true, force: true });
});
