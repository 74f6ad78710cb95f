/**
 * The index side of canonical application (issue 11, item 2: "While a journal is open, no process
 * publishes an index generation from the half-applied files"). Canonical application (libs/changesets)
 * rewrites the token `<state>/application/epoch` and then opens the write-ahead journal
 * `<state>/application/journal.json` before it touches any canonical file, and removes the journal
 * only once the files are entirely before or entirely after. A sync that finds the journal open
 * serves the last publication with staleness `unknown`; a build records the epoch before it reads
 * any source and publishes only when, under the publication lock, the journal is still absent and
 * the epoch unchanged, so a build that overlapped an application never publishes what it read.
 */
import { errors, type WireError } from '@docforge/core';
import { readStateText, type StateLayout } from '@docforge/fs-safe';

/** The open application named by the journal, or null when no journal exists. */
export function openApplication(layout: StateLayout): { changeset_id: string; step: string } | null {
  let text: string;
  try {
    text = readStateText(layout.applicationJournal);
  } catch (error) {
    // ENOTDIR: a folder on the journal's path is a file (the state dir replaced by one), so no
    // journal can exist there; the sync then reports the state dir itself (break-it trial 50).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return { changeset_id: 'unknown', step: 'unreadable' };
  }
  try {
    const value = JSON.parse(text) as { changeset_id?: unknown; step?: unknown };
    // A planted journal's fields are echoed only when they have the shape of a changeset id / step.
    const id = typeof value.changeset_id === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(value.changeset_id) ? value.changeset_id : 'unknown';
    const step = typeof value.step === 'string' && /^[a-z_]{1,32}$/.test(value.step) ? value.step : 'unknown';
    return { changeset_id: id, step };
  } catch {
    return { changeset_id: 'unknown', step: 'unreadable' };
  }
}

/** The current application epoch token ('' when no application ever ran). */
export function applicationEpoch(layout: StateLayout): string {
  try {
    return readStateText(layout.applicationEpoch, 4096);
  } catch {
    return '';
  }
}

/**
 * Why a build that recorded `epoch` before reading its sources may not publish now, as the wire
 * error `application_in_progress`, or null when it may.
 */
export function applicationBlocksPublication(layout: StateLayout, epoch: string | undefined): WireError | null {
  const open = openApplication(layout);
  if (open !== null) return errors.applicationInProgress(open.changeset_id, { step: open.step }).toWire();
  if (epoch !== undefined && applicationEpoch(layout) !== epoch) {
    return errors.applicationInProgress('unknown', { step: 'overlapped', reason: 'a canonical application ran while this build read the sources' }).toWire();
  }
  return null;
}
