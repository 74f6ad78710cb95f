#!/usr/bin/env node
// Draws a seeded random sample of the call edges only the module-level alias rule of the Python adapter 1.2.0 gives
// (PythonLinkData.assigns: `_obj = Cls()`, `name = _obj.method`, `Alias = Cls`), for verdicts written by a person who reads the
// source (ops/eval/calls/python-aliases.json). Each input is extracted once and linked twice, as extracted and without
// `assigns`; the edges of the first link missing from the second are the population.
// Inputs: PyJWT (Debian's python3-jwt, /usr/lib/python3/dist-packages/jwt, as `jwt/`) and the top-level modules of Python
// 3.11's standard library (/usr/lib/python3.11/*.py, no subfolders).
// Usage: node ops/eval/calls/python-aliases.mjs [--n 49] [--seed 33] [--json]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadPythonAdapter } from '@docforge/adapter-python';
import { drawWithoutReplacement } from '../../bench/generate.mjs';

const INPUTS = [
  { name: 'pyjwt', root: '/usr/lib/python3/dist-packages/jwt', prefix: 'jwt/', deep: true },
  { name: 'stdlib', root: '/usr/lib/python3.11', prefix: '', deep: false },
];

function read(input) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) {
        if (input.deep && name !== '__pycache__') walk(full);
      } else if (name.endsWith('.py')) out.push({ path: input.prefix + path.relative(input.root, full).split(path.sep).join('/'), content: readFileSync(full, 'utf8') });
    }
  };
  walk(input.root);
  return out;
}

const key = (e) => `${e.source_id}\u0000${e.relation}\u0000${e.target_id}`;
const { values } = parseArgs({ options: { n: { type: 'string', default: '49' }, seed: { type: 'string', default: '33' }, json: { type: 'boolean', default: false } } });
const python = await loadPythonAdapter();
await python.initPythonAdapter();
const all = [];
for (const input of INPUTS) {
  const files = read(input);
  const known = new Set(files.map((f) => f.path));
  const resolver = { hasFile: (p) => known.has(p), readText: () => null };
  const parsed = files.map((f) => ({ path: f.path, ...python.pythonAdapter.extract({ path: f.path, content: f.content, strategy: 'ast', logic: false }) }));
  const without = new Set(python.pythonAdapter.link(parsed.map((f) => ({ ...f, link_data: { ...f.link_data, assigns: undefined } })), resolver).edges.map(key));
  const lines = new Map(files.map((f) => [f.path, f.content.split('\n')]));
  for (const e of python.pythonAdapter.link(parsed, resolver).edges) {
    if (e.relation === 'calls' && !without.has(key(e))) all.push({ input: input.name, site: `${e.source_path}:${e.line}`, source_text: (lines.get(e.source_path)?.[e.line - 1] ?? '').trim(), source_id: e.source_id, target_id: e.target_id });
  }
}
all.sort((a, b) => (`${a.input}\u0000${key(a)}` < `${b.input}\u0000${key(b)}` ? -1 : 1));
const drawn = drawWithoutReplacement(all, Number(values.n), Number(values.seed)).map((e, index) => ({ index, ...e }));
const population = Object.fromEntries(INPUTS.map((i) => [i.name, all.filter((e) => e.input === i.name).length]));
if (values.json) console.log(JSON.stringify({ seed: Number(values.seed), n: Number(values.n), population, drawn }, null, 1));
else {
  console.log(`# ${drawn.length} of ${all.length} edges only the alias rule gives (seed ${values.seed}; ${JSON.stringify(population)})`);
  for (const e of drawn) console.log(`#${e.index} ${e.input} ${e.site}  ${e.source_text}\n    ${e.source_id} -> ${e.target_id}`);
}
