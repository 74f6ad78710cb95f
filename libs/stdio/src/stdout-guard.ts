/**
 * Keeps code DocForge loads (project-owned adapters, built-in adapters, their dependencies) off
 * standard output, in every thread (DESIGN.md section 1: stdout of `docforge-mcp` carries MCP
 * frames only). Once installed in a thread, every `console` method and `process.stdout.write` of
 * that thread becomes a pino log line on stderr (fd 2) instead. The worker entries (worker.ts,
 * parse-worker.ts) install it before any adapter is imported; `docforge-mcp` installs it on its
 * main thread and writes MCP frames through the private stream it returns.
 *
 * Limit: a direct write to file descriptor 1 (`fs.writeSync(1, …)`) bypasses every stream and
 * cannot be intercepted inside the process.
 */
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { threadId } from 'node:worker_threads';
import type { Logger } from 'pino';
import { lazyStderrLogger } from './lazy-logger.js';

/** The pino message level used for captured output. */
const CAPTURED_LEVEL = 'warn';

/**
 * The real standard output of this thread once the guard is installed. Module state on purpose
 * (a justified exception, issue 29): what it guards, `console` and `process.stdout.write`, are
 * themselves global to the thread, and a second install would wrap the first one's replacement
 * (sending MCP frames to the log). The bundled and unbundled copies of this module never run in
 * one thread (a worker runs one or the other).
 */
let installed: Writable | null = null;

/** A writable that turns each write into one log line (`msg` is the text without its final newline). */
function logSink(logger: Logger, stream: 'stdout' | 'stderr'): Writable {
  return new Writable({
    decodeStrings: false,
    write(chunk: Buffer | string, encoding: BufferEncoding | 'buffer', callback: (error?: Error | null) => void) {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(encoding === 'buffer' ? 'utf8' : encoding);
      const message = text.endsWith('\n') ? text.slice(0, -1) : text;
      if (message !== '') logger[CAPTURED_LEVEL]({ captured: stream, thread: threadId }, message);
      callback();
    },
  });
}

/**
 * The default logger of captured output: pino on fd 2, level from `DOCFORGE_LOG_LEVEL` (default
 * `info`), created on first use (issue 14: a build worker whose adapters print nothing never loads pino).
 */
function defaultLogger(): Logger {
  return lazyStderrLogger('info');
}

/**
 * Routes this thread's `console` methods and `process.stdout.write` to `logger` (default: pino on
 * stderr) at level `warn`, with `captured: "stdout" | "stderr"` and the thread id. Idempotent per
 * thread: later calls return the first result.
 * @returns a writable to the real standard output, for the one legitimate writer of the thread
 *   (the MCP stdio transport on the main thread); nothing else should write to it
 */
export function guardStdout(logger: Logger = defaultLogger()): Writable {
  if (installed !== null) return installed;
  const stdout = process.stdout;
  const originalWrite = stdout.write.bind(stdout) as (chunk: string | Uint8Array, callback?: (error?: Error | null) => void) => boolean;
  const real = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      originalWrite(chunk, (error) => callback(error ?? null));
    },
  });
  // Errors of the real stream (EPIPE when the client went away) are the transport's concern; never crash on them here.
  real.on('error', (error) => logger.debug({ err: error }, 'stdout closed'));
  const outSink = logSink(logger, 'stdout');
  const errSink = logSink(logger, 'stderr');
  const captured = new Console({ stdout: outSink, stderr: errSink });
  const target = console as unknown as Record<string, unknown>;
  for (const [name, value] of Object.entries(captured)) {
    if (typeof value === 'function') target[name] = value;
  }
  stdout.write = ((chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void): boolean => {
    const done = typeof encoding === 'function' ? encoding : callback;
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8');
    outSink.write(text, () => done?.());
    return true;
  }) as typeof stdout.write;
  installed = real;
  return real;
}
