// Pins the error registry against docs/errors.md in both directions, and the wire shape of DocforgeError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocforgeError, ERROR_CODES, errors, toDocforgeError } from '../src/index.js';

const docs = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/errors.md'), 'utf8');

test('every registered code is documented with its remediation, and every documented code is registered', () => {
  const documented = new Map<string, string>();
  for (const match of docs.matchAll(/^\| `([a-z_]+)` \| `([a-z_]+)` \|/gm)) documented.set(match[1]!, match[2]!);
  assert.deepEqual([...documented.keys()].sort(), Object.keys(ERROR_CODES).sort());
  for (const [code, spec] of Object.entries(ERROR_CODES)) assert.equal(documented.get(code), spec.remediation, code);
});

test('DocforgeError carries code, registry remediation and details on the wire', () => {
  const error = new DocforgeError('stale_cursor', undefined, { expected_generation: 3 });
  assert.deepEqual(error.toWire(), { code: 'stale_cursor', message: ERROR_CODES.stale_cursor.message, remediation: 'restart_pagination', details: { expected_generation: 3 } });
});

test('foreign errors are wrapped as internal_error with the original as cause', () => {
  const original = new RangeError('boom');
  const wrapped = toDocforgeError(original);
  assert.equal(wrapped.code, 'internal_error');
  assert.equal(wrapped.cause, original);
  assert.match(wrapped.message, /boom/);
});

test('every code has one factory and one template, documented in docs/errors.md in both directions', () => {
  const rows = new Map<string, { factory: string; template: string }>();
  for (const match of docs.matchAll(/^\| `([a-z_]+)` \| `[a-z_]+` \| .* \| `errors\.([A-Za-z]+)` \| `([^`]+)` \|$/gm)) rows.set(match[1]!, { factory: match[2]!, template: match[3]! });
  assert.deepEqual([...rows.keys()].sort(), Object.keys(ERROR_CODES).sort());
  const camel = (code: string): string => code.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  assert.deepEqual(Object.keys(errors).sort(), Object.keys(ERROR_CODES).map(camel).sort(), 'one factory per code');
  for (const [code, spec] of Object.entries(ERROR_CODES)) {
    assert.equal(rows.get(code)!.factory, camel(code), code);
    assert.equal(rows.get(code)!.template, spec.template, code);
  }
});

test('factories fill their templates: ids as JSON, raw text verbatim, the default message without parameters', () => {
  const missing = errors.nodeNotFound('REQ "1"');
  assert.deepEqual(missing.toWire(), { code: 'node_not_found', message: 'No node with id "REQ \\"1\\"" exists.', remediation: 'search_for_node', details: { node_id: 'REQ "1"' } });
  assert.equal(errors.resultTooLarge(70_000, 60_000).message, 'The result needs 70000 characters; the limit is 60000.');
  assert.deepEqual(errors.resultTooLarge(70_000, 60_000).details, { max_output_chars: 60_000, needed_chars: 70_000 });
  assert.equal(errors.lockTimeout('index_publication').message, ERROR_CODES.lock_timeout.message, 'the template reproduces the registry sentence');
  assert.equal(errors.indexUnavailable().message, ERROR_CODES.index_unavailable.message);
  assert.equal(errors.invalidArguments('limit must be an integer of at least 1.', { argument: 'limit' }).message, 'limit must be an integer of at least 1.');
  assert.equal(errors.logicNotFound('code:a.ts#f', 'module', 'typescript').message, 'Node "code:a.ts#f" (kind module) has no stored Logic; Logic exists for functions and methods only.');
  // A Python function: its adapter builds no Logic (new-user trial u2), not "functions and methods only".
  const python = errors.logicNotFound('code:a.py#f', 'function', 'python');
  assert.equal(python.code, 'logic_not_found');
  assert.match(python.message, /^Node "code:a\.py#f" \(kind function\) has no stored Logic; the python language adapter builds no Logic \(Logic is built for functions and methods of typescript, .*ruby, php, cpp code\)\.$/);
  assert.doesNotMatch(python.message, /functions and methods only/);
  assert.match(errors.logicNotFound('code:a.go#f', 'function', 'go').message, /its adapter stored none for it/);
  const cause = new Error('EACCES');
  assert.equal(errors.lockTimeout('index_publication', { cause }).cause, cause);
});

test('fromWire rebuilds a wire error unchanged; projectRootInvalid names the root and the remediation', () => {
  const wire = errors.adapterRestartRequired('changed', { path: 'a.mjs' }).toWire();
  assert.deepEqual(DocforgeError.fromWire(wire).toWire(), wire);
  const root = errors.projectRootInvalid('/no/such', 'does not exist').toWire();
  assert.equal(root.message, 'Project root "/no/such" does not exist. Point --project-root (-C for docforge) at the absolute path of an existing project directory, the folder holding docforge.toml (a running docforge-mcp binds its root at start: restart that server after the fix).');
  assert.deepEqual({ remediation: root.remediation, details: root.details }, { remediation: 'fix_project_root', details: { root: '/no/such', argument: 'project_root' } });
});
