#!/usr/bin/env node
// Draws the call-site sample of ops/eval/calls/sites.json from fastify's lib/: every call and
// `new` expression (require() excluded) in path, line, column order, then every STRIDE-th one.
// Prints one JSON object per site (file, line, callee text, source line) for hand labelling; the
// labels themselves (expected target node id, or "unresolvable") are written by a person who
// reads the source, never by DocForge.
// Usage: node ops/eval/calls/sample.mjs [--stride 14]
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fastify = path.join(repo, 'node_modules', 'fastify');
const { values } = parseArgs({ options: { stride: { type: 'string', default: '14' } } });

/** Every call site of fastify's lib/, in file, line and column order. */
export function callSites() {
  const sites = [];
  for (const name of readdirSync(path.join(fastify, 'lib')).filter((n) => n.endsWith('.js')).sort()) {
    const file = `lib/${name}`;
    const text = readFileSync(path.join(fastify, file), 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const visit = (node) => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const callee = node.expression;
        const isRequire = ts.isCallExpression(node) && ts.isIdentifier(callee) && callee.text === 'require';
        if (!isRequire && callee.kind !== ts.SyntaxKind.ImportKeyword) {
          const start = callee.getStart(sf);
          const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
          const calleeText = `${ts.isNewExpression(node) ? 'new ' : ''}${text.slice(start, callee.end).replace(/\s+/g, ' ')}`;
          sites.push({ file, line: line + 1, column: character + 1, callee: calleeText, source: text.split('\n')[line].trim() });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return sites;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const stride = Number(values.stride);
  const all = callSites();
  const sample = all.filter((_, index) => index % stride === 0);
  console.error(`${all.length} call sites in fastify lib/, ${sample.length} sampled (every ${stride}th)`);
  for (const site of sample) console.log(JSON.stringify(site));
}
