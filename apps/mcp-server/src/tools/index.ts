/**
 * Every implemented tool, one `defineTool()` record per file. Registration order and the exposed
 * subset come from the contract lists in @docforge/policy (capability mode), never from this list.
 */
import type { ToolDefinition } from '../define-tool.js';
import { backlinksTool } from './backlinks.js';
import { bootstrapTool } from './bootstrap.js';
import { dependenciesTool } from './dependencies.js';
import { filterNodesTool } from './filter-nodes.js';
import { getContextTool } from './get-context.js';
import { getContractTool } from './get-contract.js';
import { generationDiffTool } from './get-generation-diff.js';
import { getLogicTool } from './get-logic.js';
import { getNodeTool } from './get-node.js';
import { getTaskContextTool } from './get-task-context.js';
import { impactTool } from './impact.js';
import { projectInfoTool } from './project-info.js';
import { searchTool } from './search.js';
import { syncTool } from './sync.js';
import { validateProjectTool } from './validate-project.js';
import { createChangesetTool } from './create-changeset.js';
import { registerChangesTool } from './register-changes.js';
import { listChangesetsTool } from './list-changesets.js';
import { getChangesetTool } from './get-changeset.js';
import { rebaseChangesetTool } from './rebase-changeset.js';
import { abandonChangesetTool } from './abandon-changeset.js';
import { proposeNodeCreateTool } from './propose-node-create.js';
import { proposeNodeUpdateTool } from './propose-node-update.js';
import { proposeNodeMoveTool } from './propose-node-move.js';
import { proposeRelationshipUpdateTool } from './propose-relationship-update.js';
import { proposeNodeDeleteTool } from './propose-node-delete.js';
import { validateChangesetTool } from './validate-changeset.js';
import { getChangesetDiffTool } from './get-changeset-diff.js';
import { renderStatusTool } from './render-status.js';
import { previewChangesetTool } from './preview-changeset.js';
import { visualizeTool } from './visualize.js';
import { stopVisualizationTool } from './stop-visualization.js';
import { visualizationStatusTool } from './visualization-status.js';
import { applyChangesetTool } from './apply-changeset.js';

/** Every tool definition (any order; see @docforge/policy for the registration order). */
export const ALL_TOOLS: readonly ToolDefinition[] = Object.freeze([
  bootstrapTool,
  syncTool,
  projectInfoTool,
  getContractTool,
  getNodeTool,
  getLogicTool,
  searchTool,
  filterNodesTool,
  backlinksTool,
  dependenciesTool,
  impactTool,
  getContextTool,
  getTaskContextTool,
  validateProjectTool,
  generationDiffTool,
  createChangesetTool,
  registerChangesTool,
  listChangesetsTool,
  getChangesetTool,
  rebaseChangesetTool,
  abandonChangesetTool,
  proposeNodeCreateTool,
  proposeNodeUpdateTool,
  proposeNodeMoveTool,
  proposeRelationshipUpdateTool,
  proposeNodeDeleteTool,
  validateChangesetTool,
  getChangesetDiffTool,
  renderStatusTool,
  previewChangesetTool,
  visualizeTool,
  stopVisualizationTool,
  visualizationStatusTool,
  applyChangesetTool,
]);
