/**
 * Node ids in tool arguments compare in NFC (issue 30 item 3): the index holds every path-derived,
 * declared and code id in NFC, so an id a client sends in NFD (as macOS writes names) names the
 * same node. A computed member's key written as in the source (`#Pool.[Symbols.kConnected]`) names
 * the node whose id escapes its dots (`[Symbols%2EkConnected]`, issue 31 item 5). Only the
 * top-level id arguments are normalised; text a proposal writes stays as given.
 */
import { canonicalCodeId } from '@docforge/core';

/** The top-level arguments that name a node. */
const ID_ARGUMENTS = ['node_id', 'focus_node_id'] as const;

/**
 * `args` with its node id arguments in NFC and computed member keys escaped; `args` itself when none changes.
 * @param args tool arguments already accepted by the tool's input schema
 */
export function withNormalIds(args: unknown): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  const record = args as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const key of ID_ARGUMENTS) {
    const value = record[key];
    if (typeof value !== 'string') continue;
    const normal = canonicalCodeId(value.normalize('NFC'));
    if (normal === value) continue;
    out ??= { ...record };
    out[key] = normal;
  }
  return out ?? args;
}
