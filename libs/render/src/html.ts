/**
 * HTML text helpers shared by the renderers: escaping, node anchors and the document shell. Every
 * project string reaches the output through {@link escapeHtml} or markdown-it with raw HTML
 * disabled (issue 11 item 5; security: a node body never becomes live markup).
 */

import { stampGenerator } from './ownership.js';

/** Escapes text for an HTML text node or a double-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}

/**
 * The element id of a node inside one output: `n-` plus the id with every character outside
 * `[A-Za-z0-9._:-]` spelled `_<hex code point>_`, so distinct node ids never share an anchor.
 */
export function nodeAnchor(id: string): string {
  return `n-${id.replace(/[^A-Za-z0-9.:-]/gu, (c) => `_${c.codePointAt(0)!.toString(16)}_`)}`;
}

/** Style of every rendered document (inline: the output is one self-contained file). */
const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1f24}
h1{font-size:1.6rem}section.node{border-top:1px solid #d0d7de;padding:.5rem 0}
.meta{color:#57606a;font-size:.85rem}.tag{background:#eef1f4;border-radius:3px;padding:0 .3rem;margin-right:.25rem}
table{border-collapse:collapse}table.matrix{display:block;overflow-x:auto;max-width:100%}table.matrix tbody th{text-align:left;min-width:14rem}svg.graph{max-width:100%;height:auto}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;vertical-align:top}
tr.uncovered th{background:#ffebe9}td.hit{text-align:center;background:#dafbe1}
.unresolved-link{text-decoration:underline dotted}.truncated{color:#9a6700}
svg .added rect{stroke:#1a7f37;stroke-width:3}svg .changed rect{stroke:#9a6700;stroke-width:3}svg .removed rect{stroke:#cf222e;stroke-width:3;stroke-dasharray:4 3}
svg path.added{stroke:#1a7f37}svg path.removed{stroke:#cf222e;stroke-dasharray:4 3}
svg .edge-label.added text{fill:#1a7f37}svg .edge-label.removed text{fill:#cf222e;text-decoration:line-through}
.node.added:not(g){border-left:4px solid #1a7f37;padding-left:.5rem}.node.changed:not(g){border-left:4px solid #9a6700;padding-left:.5rem}
li.added,li.removed{font-weight:600}li.removed{text-decoration:line-through}
aside.legend{border:1px solid #d0d7de;border-radius:6px;padding:.25rem .75rem;font-size:.85rem}aside.legend ul,ul.key{list-style:none;padding-left:0}
svg.swatch{vertical-align:middle}ul.key li{display:inline-block;margin-right:1rem}.key-note{color:#57606a;font-size:.85rem}`;

/**
 * A complete HTML document. The Content-Security-Policy forbids every script, frame, object and
 * remote load, so even a defect that let markup through could not run code. The document carries
 * DocForge's generator marker line (ownership.ts, issue 30), which lets a later render replace it.
 * @param title plain text (escaped here)
 * @param body trusted HTML built by a renderer
 */
export function htmlDocument(title: string, body: string): string {
  return stampGenerator([
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n'));
}
