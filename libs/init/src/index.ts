/**
 * @docforge/init: `docforge init`, which writes a starting `docforge.toml` for a project's layout
 * (content and code roots found by looking at the tree, file roots for a top-level README or entry
 * module, what it left out and why). Split out of libs/project by concern (issue 31): that lib reads
 * and checks descriptors; this one proposes one.
 */
export type { DescriptorTemplate, InitResult } from './init.js';
export { renderDescriptor, initProject, strategyComment } from './init.js';
