/**
 * The "(not followed: …)" line of the CLI's text answers: how many calls an answer leaves out, and
 * why or where to look, so the text never says less than `--json` (issue 30, new-user trial:
 * `docforge deps` printed "no related nodes" while its JSON counted 9 unresolved calls). Used by
 * `docforge affected` (callers it does not walk) and the read commands (read-output.ts: call sites
 * without a proven target).
 */

/**
 * `(not followed: [over ]N call[s] WHERE; WHY)`.
 * @param calls how many calls are left out (> 0 when printed at all)
 * @param where what the calls reach or leave from (`into the changed node`, `from code:a.ts#f`)
 * @param why why they are not listed, and where to look instead
 * @param capped true when `calls` is a lower bound (printed as `over N`)
 */
export function notFollowedLine(calls: number, where: string, why: string, capped = false): string {
  return `(not followed: ${capped ? 'over ' : ''}${calls} ${calls === 1 ? 'call' : 'calls'} ${where}; ${why})`;
}

/**
 * The line for a code node's call sites that no declaration or binding proved a target for (the
 * `unresolved_calls` count of `docforge_get_node` and `docforge_dependencies`), or null when the
 * result carries no such count or it is 0.
 * @param nodeId the node whose call sites they are
 */
export function unresolvedCallsLine(unresolved: unknown, nodeId: string): string | null {
  if (typeof unresolved !== 'number' || unresolved <= 0) return null;
  return notFollowedLine(unresolved, `from ${nodeId}`, 'the code adapter proved no target for them, so they have no calls edge and are not listed here (counted, never guessed)');
}
