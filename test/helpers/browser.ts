/** Headless Chromium for the browser tests: Debian's /usr/bin/chromium driven by playwright-core (`.ci/run` installs it), and where screenshots go. */
import path from 'node:path';
import { REPO_ROOT } from './paths.js';

/** The Chromium the browser tests drive (override with DOCFORGE_CHROMIUM). */
export const CHROMIUM = process.env.DOCFORGE_CHROMIUM ?? '/usr/bin/chromium';
/** Where the browser tests write their screenshots (ops/run-tests.mjs prints it at the end of the run). */
export const BROWSER_ARTIFACTS = path.join(REPO_ROOT, 'test/dist/artifacts/browser');
/**
 * The `skip` option of a browser test: false when Chromium is present, and always false under CI
 * (`DOCFORGE_CI=1`, set by `.ci/run`), where a missing browser must fail the test, never skip it;
 * otherwise the reason the test is skipped.
 */
export function browserSkip(exists: (file: string) => boolean): false | string {
  if (process.env.DOCFORGE_CI === '1' || exists(CHROMIUM)) return false;
  return `no Chromium at ${CHROMIUM} (install it: apt-get install -y chromium, or set DOCFORGE_CHROMIUM)`;
}
