/**
 * Names a document binds in its own code blocks (issue 31 item 3): `const pino = require('pino')`,
 * `import fastify from 'fastify'`, `const logger = pino()`. A mention (`logger.child()`,
 * `pino.transport()`) whose first segment such a binding names is resolved through it, never
 * through the spelling of the name. Pure: a few line patterns over the block's text, no parser;
 * a line no pattern reads binds nothing, and a name rebound by a line no pattern reads is dropped.
 */
import { firstBraced } from '@docforge/core';

/**
 * What a document-local name stands for: a module (`module`: a specifier as written in
 * `require`/`import`) or another name the document does not bind (`name`: a package's import
 * binding, `pino`), then member names (`path`), and whether its value is the result of calling
 * that (`call`: `const logger = pino()`), or of constructing it (`construct`: `new X()`).
 */
export interface DocBinding {
  module?: string;
  name?: string;
  path: string[];
  call?: true;
  construct?: true;
}

/** Fence languages whose blocks are read for bindings (JavaScript and TypeScript spellings). */
const SCRIPT_LANGUAGES = new Set(['js', 'javascript', 'jsx', 'mjs', 'cjs', 'ts', 'typescript', 'tsx', 'mts', 'cts', 'node']);

const IDENT = '[A-Za-z_$][\\w$]*';
const DOTTED = `${IDENT}(?:\\.${IDENT})*`;
const QUOTED = `(['"])([^'"\\s]+)\\2`;
const REQUIRE_LINE = new RegExp(`^(?:export\\s+)?(?:const|let|var)\\s+(${IDENT})\\s*=\\s*require\\(\\s*${QUOTED}\\s*\\)\\s*(\\.\\s*${DOTTED})?\\s*(\\()?`);
const DESTRUCTURE_LINE = new RegExp(`^(?:const|let|var)\\s*\\{([^}]*)\\}\\s*=\\s*require\\(\\s*${QUOTED}\\s*\\)\\s*;?\\s*$`);
const IMPORT_LINE = new RegExp(`^import\\s+(?!type\\b)(.+?)\\s+from\\s+${QUOTED}`);
const VALUE_LINE = new RegExp(`^(?:export\\s+)?(?:const|let|var)\\s+(${IDENT})\\s*=\\s*(await\\s+)?(new\\s+)?(${DOTTED})\\s*(\\()?`);
const ASSIGNED = new RegExp(`^(?:(?:export\\s+)?(?:const|let|var)\\s+)?(${IDENT})\\s*=[^=]`);

/** Whether a fence's info string names a language whose blocks are read for bindings. */
export function isScriptFence(info: string): boolean {
  return SCRIPT_LANGUAGES.has(info.trim().split(/\s+/)[0]!.toLowerCase());
}

/**
 * Reads one code block's bindings into `bindings` (in place, in line order): a later binding of a
 * name replaces an earlier one, and a line assigning a name in a form not read drops it.
 */
export function readBindings(code: string, bindings: Map<string, DocBinding>): void {
  for (const raw of code.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('//')) continue;
    if (readImport(line, bindings) || readRequire(line, bindings) || readValue(line, bindings)) continue;
    const assigned = ASSIGNED.exec(line);
    if (assigned !== null) bindings.delete(assigned[1]!);
  }
}

function readImport(line: string, bindings: Map<string, DocBinding>): boolean {
  const match = IMPORT_LINE.exec(line);
  if (match === null) return false;
  const clause = match[1]!.trim();
  const module = match[3]!;
  const namespace = new RegExp(`^\\*\\s+as\\s+(${IDENT})$`).exec(clause);
  if (namespace !== null) {
    bindings.set(namespace[1]!, { module, path: [] });
    return true;
  }
  const named = firstBraced(clause), head = (named?.without ?? clause).replace(/,\s*$/, '').trim(); // was /\{([^}]*)\}/ (issue 30)
  if (new RegExp(`^${IDENT}$`).test(head)) bindings.set(head, { module, path: [] });
  if (named !== null) {
    for (const part of named.inner.split(',')) {
      const spec = new RegExp(`^(?:type\\s+)?(${IDENT})(?:\\s+as\\s+(${IDENT}))?$`).exec(part.trim());
      if (spec !== null && !part.trim().startsWith('type ')) bindings.set(spec[2] ?? spec[1]!, { module, path: spec[1] === 'default' ? [] : [spec[1]!] });
    }
  }
  return true;
}

function readRequire(line: string, bindings: Map<string, DocBinding>): boolean {
  const destructure = DESTRUCTURE_LINE.exec(line);
  if (destructure !== null) {
    for (const part of destructure[1]!.split(',')) {
      const spec = new RegExp(`^(${IDENT})(?:\\s*:\\s*(${IDENT}))?$`).exec(part.trim());
      if (spec !== null) bindings.set(spec[2] ?? spec[1]!, { module: destructure[3]!, path: [spec[1]!] });
    }
    return true;
  }
  const match = REQUIRE_LINE.exec(line);
  if (match === null) return false;
  const path = match[4] === undefined ? [] : match[4].replace(/^\.\s*/, '').split('.');
  bindings.set(match[1]!, { module: match[3]!, path, ...(match[5] !== undefined ? { call: true as const } : {}) });
  return true;
}

function readValue(line: string, bindings: Map<string, DocBinding>): boolean {
  const match = VALUE_LINE.exec(line);
  if (match === null) return false;
  const local = match[1]!;
  const construct = match[3] !== undefined;
  const call = match[5] !== undefined;
  const [root, ...rest] = match[4]!.split('.');
  const rootBinding = bindings.get(root!);
  // `await f()` of a value whose promise is not followed, or a plain alias of a value: not read.
  if (match[2] !== undefined || (!call && !construct) || root === 'require') {
    bindings.delete(local);
    return true;
  }
  let base: DocBinding;
  if (rootBinding === undefined) base = { name: root!, path: rest };
  else if (rootBinding.call !== undefined || rootBinding.construct !== undefined) {
    bindings.delete(local);
    return true;
  } else base = { ...(rootBinding.module !== undefined ? { module: rootBinding.module } : { name: rootBinding.name! }), path: [...rootBinding.path, ...rest] };
  bindings.set(local, { ...base, ...(construct ? { construct: true as const } : { call: true as const }) });
  return true;
}
