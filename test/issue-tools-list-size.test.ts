// Issue 30 item 13: the size of tools/list, measured as JSON.stringify(tools) over stdio through the
// MCP SDK client on a real docforge-mcp per capability mode. Two figures per mode are pinned: what a
// client puts in the model's context (name + description + input schema of every tool) and the whole
// list. The output schemas still declare every field the tool returns: each listed output schema is
// the outline of its source schema bundled (third pass: property names, types, structure and `const`
// values; no annotation and no validation-only keyword) and declares exactly its property paths.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { publishedSchema } from '@docforge/protocol';
import { sharedExampleProject } from './helpers/projects.js';
import { useServer, type ServerOptions } from './helpers/server.js';

/** The issue's targets, in characters, for every mode (issue 30 item 13). */
const TARGET = { context: 25_000, whole: 60_000 };

/**
 * Modes whose whole list is above `TARGET.whole`. Since the output schemas declare every field the
 * tools return (2026-12-07, sixth pass: node, item, policy, capability, plan, receipt and diff
 * fields, the envelope's `project.sync_error` and `diagnostics`; test/every-tool-schemas.test.ts
 * checks each returned field), the outlined output schemas of the proposal and application modes
 * take about 90,000 characters: their whole lists measure 115,703 / 119,021. Earlier passes showed
 * they cannot come under 60,000 with every returned field typed (docs/architecture.md, issue 30
 * item 13, fifth and sixth passes). Read mode stays within the target (58,630). A mode that gets
 * under the target leaves this set, so it cannot grow back.
 */
const WHOLE_ABOVE_TARGET: ReadonlySet<string> = new Set(['proposal', 'application']);

/**
 * Ceilings per mode, in characters, just above the figures measured on 2026-12-07 (sixth pass:
 * output schemas declaring every returned field): read 8,778 / 58,630, proposal 24,129 / 115,703,
 * application 24,684 / 119,021 (context / whole). Before that pass the whole lists measured 38,869 /
 * 80,376 / 82,753 with many returned fields undeclared. They keep later changes from growing the list.
 * Raised on 2026-12-08 (changed on purpose) for two fields of docforge_dependencies and
 * docforge_impact: `partially_expanded` (the nodes whose neighbours a fair cut left out; new-user
 * trial 50, where impact hid a whole caller branch) and `omitted_total` (the distinct nodes left
 * out), declared in both output schemas as every returned field is: whole lists 59,018 / 116,091 /
 * 119,409; read mode stays under the 60,000 target.
 */
const CEILINGS: Record<string, { context: number; whole: number }> = {
  read: { context: 8_800, whole: 59_100 },
  proposal: { context: 24_150, whole: 116_200 },
  application: { context: 24_700, whole: 119_500 },
};

const MODES: { mode: string; options: ServerOptions }[] = [
  { mode: 'read', options: { mode: 'read' } },
  { mode: 'proposal', options: { mode: 'proposal', proposalWriter: 'agent-1' } },
  { mode: 'application', options: { mode: 'application', canonicalApplier: 'owner-1' } },
];

/** Every property path a schema declares (`/result/items/*`), following local `$ref`s once per path. */
function propertyPaths(schema: Record<string, unknown>): Set<string> {
  const defs = (schema.$defs ?? {}) as Record<string, unknown>;
  const out = new Set<string>();
  const walk = (node: unknown, at: string, seen: ReadonlySet<string>): void => {
    if (Array.isArray(node)) return node.forEach((v) => walk(v, at, seen));
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === 'string') {
      const name = record.$ref.replace('#/$defs/', '');
      if (!seen.has(name)) walk(defs[name], at, new Set([...seen, name]));
    }
    for (const [k, v] of Object.entries(record)) {
      if (k === 'properties' && v !== null && typeof v === 'object') {
        for (const [p, sub] of Object.entries(v)) (out.add(`${at}/${p}`), walk(sub, `${at}/${p}`, seen));
      } else if (k === 'items') walk(v, `${at}/*`, seen);
      else if (k !== '$defs' && k !== '$ref') walk(v, at, seen);
    }
  };
  walk(schema, '', new Set());
  return out;
}

describe('tools/list size per capability mode', () => {
  const root = sharedExampleProject();
  for (const { mode, options } of MODES) {
    test(`${mode}: name + description + input schema and the whole list stay within their ceilings`, async () => {
      const server = await useServer(root, options);
      const { tools } = await server.client.listTools();
      const context = JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))).length;
      const whole = JSON.stringify(tools).length;
      process.stderr.write(`tools/list ${mode}: ${tools.length} tools, context ${context}, whole ${whole}\n`);
      assert.ok(context <= TARGET.context, `${mode}: context ${context} > the issue's ${TARGET.context}`);
      if (!WHOLE_ABOVE_TARGET.has(mode)) assert.ok(whole <= TARGET.whole, `${mode}: whole ${whole} > the issue's ${TARGET.whole}`);
      else assert.ok(whole > TARGET.whole, `${mode}: whole ${whole} is within ${TARGET.whole}: take ${mode} out of WHOLE_ABOVE_TARGET`);
      assert.ok(context <= CEILINGS[mode]!.context, `${mode}: context ${context} > ${CEILINGS[mode]!.context}`);
      assert.ok(whole <= CEILINGS[mode]!.whole, `${mode}: whole ${whole} > ${CEILINGS[mode]!.whole}`);
      for (const tool of tools) {
        const source = publishedSchema(`v1/tools/${tool.name}.output.schema.json`);
        assert.deepEqual([...propertyPaths(tool.outputSchema as Record<string, unknown>)].sort(), [...propertyPaths(source)].sort(), `${tool.name}: every returned field is declared`);
        assert.ok(!JSON.stringify(tool.outputSchema).includes('"description"'), `${tool.name}: no annotation in the listed output schema`);
        assert.ok(!JSON.stringify(tool.outputSchema).includes('"required"'), `${tool.name}: no validation-only keyword in the listed output schema`);
      }
    });
  }
});
