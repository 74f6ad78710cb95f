/**
 * The title of a plain Markdown page (no DocForge front matter; issue 30, new-user trial 48). A
 * README is the page of its folder: axios' README has no level-1 heading and opens with
 * `## Table of contents`, which a reader would not call the page. So a README without a level-1
 * heading is titled by its folder's name, and the project's README (at the root) by the project's
 * `[project].name` (`docforge init` writes the folder's name there; the user may write the
 * package's). Any other page keeps the first heading of any level.
 */
import { posix } from 'node:path';
import { isReadme, type MarkdownFacts } from '@docforge/markdown';
import { UNSAFE_TITLE_CHARACTER } from '@docforge/core';
import type { Descriptor } from './descriptor-types.js';

/** Every character a title may not hold (core's title rule), for removal from a derived title. */
const UNSAFE_TITLE_GLOBAL = new RegExp(UNSAFE_TITLE_CHARACTER.source, 'gu');

/**
 * The title of the page at `path` without front matter title: for a `README.*`, its first level-1
 * heading, else the name of its folder (`lib/adapters/README.md` -> `adapters`), else, at the
 * project root, `descriptor.project.name`; for any other page its first heading; null when none
 * (the caller falls back to the file name).
 */
export function pageTitle(path: string, facts: Pick<MarkdownFacts, 'firstHeading' | 'readmeHeading'>, descriptor: Pick<Descriptor, 'project'>): string | null {
  return withoutUnsafe(derivedTitle(path, facts, descriptor));
}

/**
 * A derived title without the control and bidi characters an authored title may not hold (break-it
 * trial of stop 49: a heading `# a \u202e b`, or an `<h1>` holding `&#x202E;`, put U+202E into the
 * title MCP clients show); null when nothing is left.
 */
function withoutUnsafe(title: string | null): string | null {
  if (title === null) return null;
  const kept = title.replace(UNSAFE_TITLE_GLOBAL, '').trim();
  return kept === '' ? null : kept;
}

function derivedTitle(path: string, facts: Pick<MarkdownFacts, 'firstHeading' | 'readmeHeading'>, descriptor: Pick<Descriptor, 'project'>): string | null {
  if (!isReadme(path)) return facts.firstHeading;
  if (facts.readmeHeading !== null) return facts.readmeHeading;
  const folder = posix.dirname(path);
  return folder === '.' ? descriptor.project.name : posix.basename(folder);
}
