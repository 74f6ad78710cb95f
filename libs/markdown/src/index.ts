/**
 * @docforge/markdown: the Markdown facts of one content file (DESIGN.md section 3): heading sections
 * and their GitHub-style slugs, links and self-anchor checks, the summary, code mentions and the
 * bindings a page's script blocks make. Split out of libs/project by concern (issue 29 item 6): that
 * lib walks, loads and resolves a project; this one reads one Markdown body, and outlines TOML texts
 * (front matter, TOML record files, docforge.toml) for line numbers (toml-outline.ts, moved here
 * from libs/project in issue 30 to keep that lib under its size limit). Imports no other lib
 * but @docforge/core.
 */
export type { MarkdownFacts, MarkdownMention } from './markdown-facts.js';
export { SUMMARY_MAX, isReadme, markdownFacts, selfAnchorIssues } from './markdown-facts.js';
export type { NodeSection } from './sections.js';
export { anchorIds, anchorResolves, sectionAtOffset, sectionText } from './sections.js';
export { slugify } from './slug.js';
export type { DocBinding } from './doc-bindings.js';
export type { OutlineEntry, TomlOutline } from './toml-outline.js';
export { blockEnd, lineOf, outlineToml } from './toml-outline.js';
