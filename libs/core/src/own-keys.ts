/**
 * Plain-object maps keyed by user strings (relation names, kinds, tags, ids, paths): a key that
 * names an Object.prototype property (`constructor`, `toString`, `__proto__`, ...) is an ordinary
 * name. Reads see own properties only; writes define an own property (an assignment to
 * `__proto__` would replace the prototype instead).
 */

/**
 * The own property `key` of `table`, or undefined when it has none (inherited members such as
 * `constructor` are not values of the map).
 */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Sets the own, enumerable property `key` of `table` to `value` (also for `key === '__proto__'`). */
export function setOwn<T>(table: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(table, key, { value, enumerable: true, writable: true, configurable: true });
}
