// Oracle for sections and broken_link: every same-file `](#anchor)` and cross-file `*.md#anchor` link in fastify's own docs/ resolves to a recorded section of its target file, except the upstream-broken ones listed here, which are exactly the anchor broken_link findings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import MarkdownIt from 'markdown-it';
import type { GraphNode, SourceIssue } from '@docforge/core';
import { parseContentSource, resolveGraph, sectionText, type ResolveSource } from '../src/index.js';
import { testDescriptor } from './helpers.js';

/** Repository root (libs/project/dist/test → ../../../..). */
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const FASTIFY_DIR = path.join(REPO_ROOT, 'node_modules', 'fastify');

/**
 * Links that are broken upstream, keyed `target file#fragment`; each was checked by reading the
 * target file (fastify 5.x docs as installed). GitHub renders no element with these ids either.
 */
const BROKEN_UPSTREAM: Record<string, string> = {
  'docs/Reference/Errors.md#fst_err_error_handler_already_set':
    'the <a id> sits in cells 6-9 of a table row (line 462) whose header has 5 columns; GFM drops excess cells, so the id is never rendered',
  'docs/Reference/TypeScript.md#ContextConfigGeneric':
    'no heading or <a id> named ContextConfigGeneric exists; the link reference definition (line 1715) points at nothing',
  'docs/Reference/TypeScript.md#fastifyrawserver-rawrequest-rawreply-loggeropts-fastifyserveroptions-fastifyinstance':
    'stale: the heading at line 968 no longer has a RawServer parameter (slug fastify-rawrequest-rawreply-loggeropts-fastifyserveroptions-fastifyinstance)',
  'docs/Reference/TypeScript.md#fastifyrawreplydefaultexpression':
    'stale: the heading at line 1293 gained a RawServer parameter (slug fastifyrawreplydefaultexpression-rawserver)',
  'docs/Reference/TypeScript.md#fastifyfastifyloggeroptions':
    'stale: the heading at line 1406 carries type parameters (slug fastifyfastifyloggeroptions-rawserver-rawrequest-rawreply)',
  'docs/Reference/TypeScript.md#fastifyfastifyinstance':
    'stale: the heading at line 1134 carries type parameters (slug fastifyfastifyinstance-rawserver-rawrequest-requestgeneric-logger)',
  'docs/Reference/TypeScript.md#fastifyfastifyrequestrawserver-rawrequest-requestgeneric':
    'stale: the heading at line 1157 lists its parameters in another order (slug fastifyfastifyrequest-requestgeneric-rawserver-rawrequest)',
  'docs/Reference/TypeScript.md#fastifyfastifyreplyrawserver-rawreply-contextconfig':
    'stale: the heading at line 1257 has other parameters (slug fastifyfastifyreplyrequestgeneric-rawserver-rawrequest-rawreply-contextconfig)',
  'docs/Reference/TypeScript.md#fastifyfastifyregisterrawserver-rawrequest-requestgenericplugin-fastifyplugin-opts-fastifyregisteroptions':
    'stale: the register headings (lines 1357-1361) no longer carry type parameters (e.g. fastifyfastifyregisterplugin-fastifyplugin-opts-fastifyregisteroptions)',
  'docs/Reference/TypeScript.md#fastifyfastifyplugincallbackoptions':
    'stale: the heading at line 1325 is "fastify.FastifyPluginCallback< Options >" (slug fastifyfastifyplugincallback-options)',
  'docs/Reference/TypeScript.md#fastifyfastifypluginasyncoptions':
    'stale: the heading at line 1331 is "fastify.FastifyPluginAsync< Options >" (slug fastifyfastifypluginasync-options)',
  'docs/Reference/TypeScript.md#fastifyfastifytregisteroptions':
    'typo upstream ("fastifytregisteroptions"): the heading at line 1391 has slug fastifyfastifyregisteroptions',
  'docs/Reference/TypeScript.md#fastifyfastifypluginoptions-rawserver-rawrequest-requestgeneric':
    'stale: the heading at line 1345 has no type parameters (slug fastifyfastifypluginoptions)',
  'docs/Reference/TypeScript.md#fastifyrouteoptionsrawserver-rawrequest-rawreply-requestgeneric-contextconfig':
    'the heading at line 1479 has a space after "<" (slug fastifyrouteoptions-rawserver-rawrequest-rawreply-requestgeneric-contextconfig)',
};

function markdownFiles(dir: string, prefix: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...markdownFiles(path.join(dir, entry.name), rel));
    else if (entry.name.endsWith('.md')) out.push(rel);
  }
  return out.sort();
}

function decode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

test('fastify docs: every anchor link resolves to a recorded section, except the listed upstream breaks', () => {
  const descriptor = testDescriptor();
  const md = new MarkdownIt({ html: true });
  const nodes = new Map<string, GraphNode>();
  const texts = new Map<string, string>();
  const links: { from: string; line: number; target: string; anchor: string }[] = [];
  for (const file of markdownFiles(path.join(FASTIFY_DIR, 'docs'), 'docs')) {
    const text = readFileSync(path.join(FASTIFY_DIR, file), 'utf8');
    const parsed = parseContentSource({ path: file, text, descriptor });
    assert.equal(parsed.nodes.length, 1, file);
    nodes.set(file, parsed.nodes[0]!);
    texts.set(file, text);
    // Cross-file links as the loader records them.
    for (const link of parsed.links) {
      if (link.anchor !== null && link.target_path.endsWith('.md')) links.push({ from: file, line: link.line, target: link.target_path, anchor: link.anchor });
    }
    // Same-file links: the loader keeps no edge for them, so read them from markdown-it's link tokens.
    for (const token of md.parse(text, {})) {
      for (const child of token.children ?? []) {
        const href = child.type === 'link_open' ? child.attrGet('href') : null;
        // A bare "#" links to the top of the page, not to an anchor (Style-Guide.md uses one as a placeholder).
        if (href !== null && href.startsWith('#') && href.length > 1) links.push({ from: file, line: (token.map?.[0] ?? 0) + 1, target: file, anchor: decode(href.slice(1)) });
      }
    }
  }
  assert.ok(nodes.size >= 40, `fastify ships its docs (${nodes.size} files)`);
  assert.ok(links.length >= 500, `the docs hold many anchor links (${links.length})`);

  const broken = new Map<string, string[]>();
  let resolved = 0;
  for (const link of links) {
    const node = nodes.get(link.target);
    assert.ok(node, `${link.from}:${link.line} links to a missing file ${link.target}`);
    const section = sectionText(node, link.anchor);
    if (section === null) {
      const key = `${link.target}#${link.anchor}`;
      broken.set(key, [...(broken.get(key) ?? []), `${link.from}:${link.line}`]);
      continue;
    }
    resolved += 1;
    // Checked against the raw file: the section text is the file's lines line..end_line.
    const fileLines = texts.get(link.target)!.split(/\r?\n/);
    assert.equal(section.text, fileLines.slice(section.anchor.line - 1, section.anchor.end_line).join('\n'), `${link.target}#${link.anchor}`);
    assert.match(fileLines[section.anchor.line - 1]!, /^\s{0,3}#{1,6}\s|^\S/, `${link.target}#${link.anchor} starts at a heading line`);
  }
  const unexpected = [...broken.keys()].filter((key) => !(key in BROKEN_UPSTREAM)).map((key) => `${key} (from ${broken.get(key)!.join(', ')})`);
  assert.deepEqual(unexpected, [], 'links that do not resolve and are not listed as broken upstream');
  const nowResolving = Object.keys(BROKEN_UPSTREAM).filter((key) => !broken.has(key));
  assert.deepEqual(nowResolving, [], 'listed upstream breaks that resolve now: remove them from BROKEN_UPSTREAM');
  assert.ok(resolved > 700, `most links resolve (${resolved})`);
});

test('fastify docs: broken_link findings for anchors are exactly the listed upstream breaks', () => {
  const descriptor = testDescriptor();
  const sources: ResolveSource[] = [];
  const parserIssues: SourceIssue[] = [];
  for (const file of markdownFiles(path.join(FASTIFY_DIR, 'docs'), 'docs')) {
    const parsed = parseContentSource({ path: file, text: readFileSync(path.join(FASTIFY_DIR, file), 'utf8'), descriptor });
    sources.push({ path: file, nodes: parsed.nodes, edges: parsed.edges, links: parsed.links });
    parserIssues.push(...parsed.issues);
  }
  const graph = resolveGraph({ descriptor, sources, codePaths: new Set() });
  const found = new Map<string, string[]>();
  for (const issue of [...parserIssues, ...graph.issues]) {
    if (issue.code !== 'broken_link') continue;
    // Same-file: `link to "#a"`; cross-file: `link to "docs/x.md#a"`. Links to missing files are not anchor findings.
    const match = /link to "([^"#]*)#([^"]*)": (?:this|that) file has no section or anchor/.exec(issue.message);
    if (match === null) continue;
    const key = `${match[1] === '' ? issue.path : match[1]}#${match[2]}`;
    found.set(key, [...(found.get(key) ?? []), `${issue.path}:${issue.line}`]);
  }
  assert.deepEqual([...found.keys()].sort(), Object.keys(BROKEN_UPSTREAM).sort(), JSON.stringify(Object.fromEntries(found), null, 1));
  // The one missing file: Guides/Contributing.md is not shipped in fastify's npm package.
  const missingFiles = graph.issues.filter((issue) => issue.code === 'broken_link' && !issue.message.includes('no section or anchor'));
  assert.deepEqual(missingFiles.map((issue) => `${issue.path}:${issue.line}`), ['docs/Guides/Index.md:10']);
  assert.match(missingFiles[0]!.message, /"docs\/Guides\/Contributing\.md"/);
});
