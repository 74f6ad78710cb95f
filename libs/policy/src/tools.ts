/**
 * The fixed MCP tool vocabulary, in the exact order the contract lists it (contract sections
 * "Read tools", "Isolated proposal tools" and "Canonical application tool"). Registration order
 * and `tools/list` order follow these arrays; nothing else may add a tool name.
 */

/** Contract "Read tools", in contract order. */
export const READ_TOOLS = Object.freeze([
  'docforge_bootstrap',
  'docforge_sync',
  'docforge_project_info',
  'docforge_get_contract',
  'docforge_get_node',
  'docforge_get_logic',
  'docforge_search',
  'docforge_filter_nodes',
  'docforge_backlinks',
  'docforge_dependencies',
  'docforge_impact',
  'docforge_get_context',
  'docforge_get_task_context',
  'docforge_validate_project',
  'docforge_render_status',
  'docforge_visualize',
  'docforge_stop_visualization',
  'docforge_visualization_status',
  'docforge_get_generation_diff',
] as const);

/** Contract "Isolated proposal tools", in contract order. */
export const PROPOSAL_TOOLS = Object.freeze([
  'docforge_create_changeset',
  'docforge_register_changes',
  'docforge_list_changesets',
  'docforge_get_changeset',
  'docforge_rebase_changeset',
  'docforge_abandon_changeset',
  'docforge_propose_node_create',
  'docforge_propose_node_update',
  'docforge_propose_node_move',
  'docforge_propose_relationship_update',
  'docforge_propose_node_delete',
  'docforge_validate_changeset',
  'docforge_get_changeset_diff',
  'docforge_preview_changeset',
] as const);

/** Contract "Canonical application tool": registered only through the canonical applier gate. */
export const APPLICATION_TOOLS = Object.freeze(['docforge_apply_changeset'] as const);

/**
 * Operator-only tools. The contract reserves `operator` mode for explicitly selected operator
 * tools and adds none in the current version, so this list is empty on purpose.
 */
export const OPERATOR_TOOLS = Object.freeze([] as const);

/** A read tool name. */
export type ReadToolName = (typeof READ_TOOLS)[number];
/** An isolated proposal tool name. */
export type ProposalToolName = (typeof PROPOSAL_TOOLS)[number];
/** The canonical application tool name. */
export type ApplicationToolName = (typeof APPLICATION_TOOLS)[number];
/** Any tool name of the fixed contract surface. */
export type ToolName = ReadToolName | ProposalToolName | ApplicationToolName;
