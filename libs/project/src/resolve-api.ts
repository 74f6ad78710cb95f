/**
 * Mentions resolved through a package's public API (issue 31 item 3): `pino.transport()`,
 * `fastify.register`, `logger.child()` after `const logger = pino()` in the same document. The
 * table of public names comes from the code adapters' link step (`LinkResult.api`): each name was
 * proven by following a package entry's exports and re-exports to a declaration. Nothing here
 * guesses from spelling: a receiver is followed only through what the document binds, and an
 * instance method only through a return or constructed type the link step proved.
 */
import type { DocBinding } from '@docforge/markdown';

/** The public API names (`pkg.name` → declaration ids) and proven instance members (`<callee id>().<member>` → ids). */
export type ApiNames = ReadonlyMap<string, readonly string[]>;

/** The key of a proven member of the value a call of `calleeId` returns (link step `api` table). */
export function returnMemberKey(calleeId: string, member: string): string {
  return `${calleeId}().${member}`;
}

/** The one id a key names, or null (none, or several: ambiguous). */
function single(ids: readonly string[] | undefined): string | null {
  return ids !== undefined && ids.length === 1 ? ids[0]! : null;
}

/**
 * What a mention `name` (call parentheses dropped) names through the public API: with a
 * `receiver` (the document binds its first segment), the name with that segment replaced by what
 * it binds; a module binding (`const P = require('pino')`) gives `pino.<rest>`; a call or
 * construction binding (`const logger = pino()`, `new Pool()`) gives a method of the returned
 * value when the link step proved one (`rest` one segment), a construction binding (`new C()`) a
 * method of class `C` that `isStatic` (null: not a class method) shows is not static, else
 * `unproven`. Without
 * a receiver the name is looked up as written (`pino.transport`, the package name being its own
 * import binding). `ids` is empty when nothing is named.
 */
export function apiTargets(name: string, receiver: DocBinding | undefined, api: ApiNames, isStatic?: (id: string) => boolean | null): { ids: readonly string[]; unproven: boolean } {
  if (receiver === undefined) return { ids: api.get(name) ?? [], unproven: false };
  const rest = name.split('.').slice(1);
  const base = [receiver.module ?? receiver.name!, ...receiver.path];
  if (receiver.call === undefined && receiver.construct === undefined) return { ids: api.get([...base, ...rest].join('.')) ?? [], unproven: false };
  // A constructed value (`new Command()`): a method of the class that a `class` declaration marks as
  // not static (its signature says `static` otherwise); a function constructor is not followed.
  if (receiver.call === undefined) {
    const ids = rest.length === 1 && isStatic !== undefined ? (api.get([...base, ...rest].join('.')) ?? []) : [];
    const instance = ids.every((id) => isStatic!(id) !== null) ? ids.filter((id) => isStatic!(id) === false) : [];
    return { ids: instance, unproven: instance.length === 0 };
  }
  const callee = single(api.get(base.join('.')));
  if (callee === null || rest.length !== 1) return { ids: [], unproven: true };
  const ids = api.get(returnMemberKey(callee, rest[0]!)) ?? [];
  return { ids, unproven: ids.length === 0 };
}

/**
 * A method named in the method-call style (new-user trial on commander, issue 30): `.option()`
 * names the one public API member called `option` (`commander.Command.option`, or a method the
 * link step proved on a returned value); `program.option()` where the document binds `program` to
 * an export of package `pkg` the public API does not follow (`exports.program = new Command()`)
 * names the one member of `pkg`'s API called so. The ids of every such key: one names the target,
 * several are ambiguous (declaration twins aside, resolve-refs.ts), none names nothing.
 */
export function memberTargets(member: string, api: ApiNames, members: ReadonlyMap<string, readonly string[]>, pkg?: string): string[] {
  const keys = (members.get(member) ?? []).filter((key) => pkg === undefined || key.startsWith(`${pkg}.`));
  return [...new Set(keys.flatMap((key) => api.get(key) ?? []))];
}
