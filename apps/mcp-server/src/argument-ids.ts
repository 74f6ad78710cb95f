/**
 * Node ids in tool arguments compare in NFC (issue 30 item 3): the index holds every path-derived,
 * declared and code id in NFC, so an id a client sends in NFD (as macOS writes names) names the
 * same node. Only the top-level id arguments are normalised; text a proposal writes stays as given.
 */

/** The top-level arguments that name a node. */
const ID_ARGUMENTS = ['node_id', 'focus_node_id'] as const;

/**
 * `args` with its node id arguments in NFC; `args` itself when none changes.
 * @param args tool arguments already accepted by the tool's input schema
 */
export function withNormalIds(args: unknown): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  const record = args as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const key of ID_ARGUMENTS) {
    const value = record[key];
    if (typeof value !== 'string' || value.normalize('NFC') === value) continue;
    out ??= { ...record };
    out[key] = value.normalize('NFC');
  }
  return out ?? args;
}
