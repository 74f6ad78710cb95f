/**
 * A pino logger on stderr that is created on first use (issue 14): a process or thread that logs
 * nothing never loads pino. Shared by the build worker's stdout guard and the CLI.
 */
import { createRequire } from 'node:module';
import type * as Pino from 'pino';
import type { Logger } from 'pino';
import { envLogLevel } from '@docforge/core';

/**
 * A `Logger` whose first property access creates pino on fd 2 (synchronous writes), named
 * `docforge`, at the level `DOCFORGE_LOG_LEVEL` or else `defaultLevel`.
 * @param defaultLevel a pino level name (`info`, `warn`, …) used when `DOCFORGE_LOG_LEVEL` is unset or names no level
 */
export function lazyStderrLogger(defaultLevel: string): Logger {
  let real: Logger | null = null;
  const logger = (): Logger => {
    if (real === null) {
      const { pino } = createRequire(import.meta.url)('pino') as typeof Pino;
      real = pino({ name: 'docforge', level: envLogLevel(defaultLevel) }, pino.destination({ fd: 2, sync: true }));
    }
    return real;
  };
  return new Proxy({} as Logger, {
    get(_target, key) {
      const value: unknown = Reflect.get(logger(), key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(logger()) : value;
    },
  });
}
