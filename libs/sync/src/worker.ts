/**
 * Piscina worker entry: parses sources and builds index files off the MCP main thread
 * (DESIGN.md sections 1 and 7). The thread holds one set of build caches for its lifetime (parses,
 * the written graph, link caches, standby copy, the parse threads of large builds: build-caches.ts),
 * created here and passed to every task, so most builds are incremental.
 */
import { parentPort } from 'node:worker_threads';
import { BuildCaches, loadBuiltinAdapter, loadBuiltinLinker } from '@docforge/builder';
import { setAdapterLoader } from '@docforge/identity';
import { guardStdout } from '@docforge/stdio';
import { prepareBuild, prepareDeltaBase, primeBuildCaches, runBuild } from '@docforge/builder';
import { BUILD_WORKER_LOADED, type BuildOutcome, type BuildTask, type PrepareTask, type PrimeTask } from '@docforge/builder';

// Code loaded in this thread (adapters and what they import) never reaches stdout (MCP frames only).
guardStdout();
setAdapterLoader(loadBuiltinAdapter, loadBuiltinLinker);

/** This thread's build caches: its entry owns them, for as long as the thread lives. */
const caches = new BuildCaches();

// This thread can run tasks: the pool stops suspecting that a failed task means it cannot start (build-pool.ts).
parentPort?.postMessage({ [BUILD_WORKER_LOADED]: true });

/** Runs one build task; never rejects (errors come back as a structured outcome). */
export default async function build(task: BuildTask): Promise<BuildOutcome> {
  return runBuild(task, caches);
}

/** Idle-time priming after a build of a long-lived process (piscina task name `prime`; build-idle.ts primeBuildCaches). Never rejects. */
export function prime(task: PrimeTask): { primed: boolean; ms: number; standby: boolean } {
  const primed = primeBuildCaches(caches, task.root);
  return { ...primed, standby: prepareDeltaBase(caches, task.root, task.stateDir) };
}

/** Work of a worker started before its build (piscina task name `prepare`; build-idle.ts prepareBuild). Never rejects. */
export function prepare(task: PrepareTask): Promise<boolean> {
  return prepareBuild(task, caches);
}

/**
 * Settles once the standby copy started by `prime` is finished (piscina task name `standbyReady`;
 * tests and benchmarks, through IndexManager.whenIdle). True when one is ready. Never rejects.
 */
export function awaitStandby(): Promise<boolean> {
  return caches.standby.ready();
}
