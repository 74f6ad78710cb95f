// The published tools module (issue 29 item 7): what `tools/list` publishes for each tool (description,
// annotations, input and output schema), computed at generate time by protocol/src/schemas.ts's
// loadToolSchema, so a docforge-mcp start reads it instead of bundling and outlining every schema
// (about 12% of a start's CPU). The schemas are a pure function of protocol/schemas: no mode,
// descriptor or environment enters them. protocol/src/schemas.ts is bundled with esbuild from its
// TypeScript source (no build of protocol needed) into a temp file and imported from there.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The TypeScript source of `generated/published-tools.ts`: one JSON string per tool, in tool-name
 * order, exactly `JSON.stringify(loadToolSchema(name))` (protocol/test/published-tools.test.ts
 * compares; one reader shared across tools, as loadToolSchemas does). `header` is the generated-file header line.
 */
export async function publishedToolsModule(protocolDir, header) {
  const schemaDir = path.join(protocolDir, 'schemas');
  const { build } = await import('esbuild');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'docforge-published-tools-'));
  try {
    const outfile = path.join(tmp, 'schemas.mjs');
    const entry = "export { loadToolSchema } from './schemas.js'; export { schemaFileReader } from './bundle.js';";
    const stdin = { contents: entry, resolveDir: path.join(protocolDir, 'src'), sourcefile: 'published-tools-entry.ts', loader: 'ts' };
    await build({ stdin, outfile, bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'error' });
    const { loadToolSchema, schemaFileReader } = await import(pathToFileURL(outfile).href);
    const read = schemaFileReader(schemaDir);
    const names = readdirSync(path.join(schemaDir, 'v1/tools')).filter((f) => f.endsWith('.tool.json')).map((f) => f.slice(0, -'.tool.json'.length)).sort();
    const lines = [
      header,
      '/* eslint-disable */',
      "/** What `tools/list` publishes for each tool (protocol/src/schemas.ts loadToolSchema at generate time), as JSON text by tool name. */",
      'export const PUBLISHED_TOOLS: Readonly<Record<string, string>> = {',
    ];
    for (const name of names) lines.push(`  ${name}: ${JSON.stringify(JSON.stringify(loadToolSchema(name, read)))},`);
    lines.push('};');
    return `${lines.join('\n')}\n`;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
