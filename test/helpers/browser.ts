/** Headless Chromium for the browser tests: Debian's /usr/bin/chromium driven by playwright-core (`.ci/run` installs it), and where screenshots go. */
import path from 'node:path';
import { REPO_ROOT } from './paths.js';

/** The Chromium the browser tests drive (override with DOCFORGE_CHROMIUM). */
export const CHROMIUM = process.env.DOCFORGE_CHROMIUM ?? '/usr/bin/chromium';
/** Where the browser tests write their screenshots (ops/run-tests.mjs prints it at the end of the run). */
export const BROWSER_ARTIFACTS = path.join(REPO_ROOT, 'test/dist/artifacts/browser');
