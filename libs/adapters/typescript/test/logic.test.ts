// Pins the exact Logic steps and flows the adapter builds for small functions of every control-flow shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractTypeScript } from '../src/adapter.js';
import { extractWithLogic, renderFlows, renderSteps } from './helpers.js';

test('if / else-if / else chain nests branches and early return flows to exit', () => {
  const r = extractWithLogic('a.ts', [
    'function f(x) {',
    '  if (x > 1) {',
    '    a();',
    '  } else if (x < 0) {',
    '    return b();',
    '  } else {',
    '    c();',
    '  }',
    '  d();',
    '}',
  ].join('\n'));
  assert.deepEqual(renderSteps(r, 'code:a.ts#f'), [
    '0 entry "function f(x)" 1-10',
    '1 branch "if (x > 1)" 2-8',
    '2 statement "a();" 3-3',
    '3 branch "if (x < 0)" 4-8',
    '4 return "return b();" 5-5',
    '5 statement "c();" 7-7',
    '6 statement "d();" 9-9',
    '7 exit "exit" 10-10',
  ]);
  assert.deepEqual(renderFlows(r, 'code:a.ts#f'), [
    '0>1 sequence', '1>2 branch_true', '1>3 branch_false', '2>6 sequence', '3>4 branch_true',
    '3>5 branch_false', '4>7 return', '5>6 sequence', '6>7 sequence',
  ]);
});

test('nested loops with labeled break, break and continue; while and do-while', () => {
  const r = extractWithLogic('a.ts', [
    'function g(rows) {',
    '  outer: for (const r of rows) {',
    '    for (let i = 0; i < r.length; i++) {',
    '      if (r[i] === 0) continue;',
    '      if (r[i] < 0) break outer;',
    '      if (r[i] > 9) break;',
    '      use(r[i]);',
    '    }',
    '  }',
    '  while (more()) step();',
    '  do { once(); } while (again());',
    '}',
  ].join('\n'));
  assert.deepEqual(renderSteps(r, 'code:a.ts#g'), [
    '0 entry "function g(rows)" 1-12',
    '1 loop "for (const r of rows)" 2-9',
    '2 loop "for (let i = 0; i < r.length; i++)" 3-8',
    '3 branch "if (r[i] === 0)" 4-4',
    '4 continue "continue;" 4-4',
    '5 branch "if (r[i] < 0)" 5-5',
    '6 break "break outer;" 5-5',
    '7 branch "if (r[i] > 9)" 6-6',
    '8 break "break;" 6-6',
    '9 statement "use(r[i]);" 7-7',
    '10 loop "while (more())" 10-10',
    '11 statement "step();" 10-10',
    '12 loop "do … while (again())" 11-11',
    '13 statement "once();" 11-11',
    '14 exit "exit" 12-12',
  ]);
  assert.deepEqual(renderFlows(r, 'code:a.ts#g'), [
    '0>1 sequence', '1>2 loop_body', '1>10 loop_exit',
    // the inner loop's exit ends the outer body and returns to the outer loop
    '2>1 loop_exit', '2>3 loop_body',
    '3>4 branch_true', '3>5 branch_false', '4>2 continue',
    '5>6 branch_true', '5>7 branch_false', '6>10 break',
    '7>8 branch_true', '7>9 branch_false', '8>1 break', '9>2 loop_back',
    '10>11 loop_body', '10>12 loop_exit', '11>10 loop_back',
    '12>13 loop_body', '12>14 loop_exit', '13>12 loop_back',
  ]);
});

test('try / catch / finally: throw goes to catch, return inside try flows through finally', () => {
  const r = extractWithLogic('a.ts', [
    'async function h(db) {',
    '  try {',
    '    const row = await db.get();',
    '    if (!row) throw new Error("none");',
    '    return row;',
    '  } catch (err) {',
    '    log(err);',
    '  } finally {',
    '    await db.close();',
    '  }',
    '  return null;',
    '}',
  ].join('\n'));
  assert.deepEqual(renderSteps(r, 'code:a.ts#h'), [
    '0 entry "async function h(db)" 1-12',
    '1 try "try" 2-10',
    '2 statement "const row = await db.get();" 3-3',
    '3 branch "if (!row)" 4-4',
    '4 throw "throw new Error(\\"none\\");" 4-4',
    '5 return "return row;" 5-5',
    '6 catch "catch (err)" 6-8',
    '7 statement "log(err);" 7-7',
    '8 finally "finally" 8-10',
    '9 statement "await db.close();" 9-9',
    '10 return "return null;" 11-11',
    '11 exit "exit" 12-12',
  ]);
  assert.deepEqual(renderFlows(r, 'code:a.ts#h'), [
    '0>1 sequence', '1>2 sequence', '1>6 catch', '2>3 sequence', '3>4 branch_true', '3>5 branch_false',
    '4>6 throw', '5>8 finally[return]', '6>7 sequence', '7>8 finally', '8>9 sequence',
    '9>10 sequence', '9>11 return', '10>11 return',
  ]);
  const entry = r.nodes.find((n) => n.id === 'code:a.ts#h');
  assert.deepEqual(entry?.capabilities, ['async']);
});

test('try / finally without catch: exceptions and returns run the finally block, then leave', () => {
  const r = extractWithLogic('a.ts', [
    'function k() {',
    '  try {',
    '    return 1;',
    '  } finally {',
    '    done();',
    '  }',
    '}',
  ].join('\n'));
  assert.deepEqual(renderSteps(r, 'code:a.ts#k'), [
    '0 entry "function k()" 1-7',
    '1 try "try" 2-6',
    '2 return "return 1;" 3-3',
    '3 finally "finally" 4-6',
    '4 statement "done();" 5-5',
    '5 exit "exit" 7-7',
  ]);
  assert.deepEqual(renderFlows(r, 'code:a.ts#k'), [
    '0>1 sequence', '1>2 sequence', '1>3 finally[exception]', '2>3 finally[return]', '3>4 sequence',
    '4>5 return', '4>5 throw',
  ]);
});

test('break and continue inside try/finally inside a loop pass through finally', () => {
  const r = extractWithLogic('a.js', [
    'function m(xs) {',
    '  for (const x of xs) {',
    '    try {',
    '      if (x) continue;',
    '      break;',
    '    } finally {',
    '      tidy();',
    '    }',
    '  }',
    '}',
  ].join('\n'));
  assert.deepEqual(renderFlows(r, 'code:a.js#m'), [
    '0>1 sequence', '1>2 loop_body', '1>8 loop_exit', '2>3 sequence', '2>6 finally[exception]',
    '3>4 branch_true', '3>5 branch_false', '4>6 finally[continue]', '5>6 finally[break]', '6>7 sequence',
    '7>1 continue', '7>8 break', '7>8 throw',
  ]);
});

test('switch: case flows labelled with the case text, fallthrough as sequence, break leaves', () => {
  const r = extractWithLogic('a.ts', [
    'function s(kind) {',
    '  switch (kind) {',
    '    case "a":',
    '    case "b":',
    '      one();',
    '    case "c":',
    '      two();',
    '      break;',
    '    default:',
    '      return 3;',
    '  }',
    '  end();',
    '}',
    'function t(x) { switch (x) { case 1: return 1; } }',
  ].join('\n'));
  assert.deepEqual(renderSteps(r, 'code:a.ts#s'), [
    '0 entry "function s(kind)" 1-13',
    '1 switch "switch (kind)" 2-11',
    '2 case "case \\"a\\":" 3-3',
    '3 case "case \\"b\\":" 4-5',
    '4 statement "one();" 5-5',
    '5 case "case \\"c\\":" 6-8',
    '6 statement "two();" 7-7',
    '7 break "break;" 8-8',
    '8 case "default:" 9-10',
    '9 return "return 3;" 10-10',
    '10 statement "end();" 12-12',
    '11 exit "exit" 13-13',
  ]);
  assert.deepEqual(renderFlows(r, 'code:a.ts#s'), [
    '0>1 sequence', '1>2 case[case "a"]', '1>3 case[case "b"]', '1>5 case[case "c"]', '1>8 case[default]',
    '2>3 sequence', '3>4 sequence', '4>5 sequence', '5>6 sequence', '6>7 sequence', '7>10 break',
    '8>9 sequence', '9>11 return', '10>11 sequence',
  ]);
  assert.deepEqual(renderFlows(r, 'code:a.ts#t'), [
    '0>1 sequence', '1>2 case[case 1]', '1>4 case[no match]', '2>3 sequence', '3>4 return',
  ]);
});

test('arrow functions, class methods and arrow-valued class fields each get Logic', () => {
  const r = extractWithLogic('a.ts', [
    'const add = (a, b) => a + b;',
    'export class Box extends Base {',
    '  private items: number[] = [];',
    '  async load(): Promise<void> { for await (const x of src()) { this.items.push(x); } }',
    '  sum = () => { return this.items.length; };',
    '}',
  ].join('\n'));
  assert.deepEqual(renderSteps(r, 'code:a.ts#add'), ['0 entry "function add(a, b)" 1-1', '1 return "a + b" 1-1', '2 exit "exit" 1-1']);
  assert.deepEqual(renderFlows(r, 'code:a.ts#add'), ['0>1 sequence', '1>2 return']);
  assert.deepEqual(renderSteps(r, 'code:a.ts#Box.load'), [
    '0 entry "async Box.load(): Promise<void>" 4-4',
    '1 loop "for await (const x of src())" 4-4',
    '2 statement "this.items.push(x);" 4-4',
    '3 exit "exit" 4-4',
  ]);
  assert.deepEqual(renderFlows(r, 'code:a.ts#Box.load'), ['0>1 sequence', '1>2 loop_body', '1>3 loop_exit', '2>1 loop_back']);
  assert.deepEqual(renderFlows(r, 'code:a.ts#Box.sum'), ['0>1 sequence', '1>2 return']);
  assert.equal(renderSteps(r, 'code:a.ts#Box').length, 0, 'classes own no Logic');
});

test('early returns with await: each return flows to the single exit; dead code has no incoming flow', () => {
  const r = extractWithLogic('a.mjs', [
    'export async function load(id) {',
    '  if (!id) return null;',
    '  const value = await fetchIt(id);',
    '  return value;',
    '  unreachable();',
    '}',
  ].join('\n'));
  assert.deepEqual(renderSteps(r, 'code:a.mjs#load'), [
    '0 entry "async function load(id)" 1-6',
    '1 branch "if (!id)" 2-2',
    '2 return "return null;" 2-2',
    '3 statement "const value = await fetchIt(id);" 3-3',
    '4 return "return value;" 4-4',
    '5 statement "unreachable();" 5-5',
    '6 exit "exit" 6-6',
  ]);
  assert.deepEqual(renderFlows(r, 'code:a.mjs#load'), [
    '0>1 sequence', '1>2 branch_true', '1>3 branch_false', '2>6 return', '3>4 sequence', '4>6 return', '5>6 sequence',
  ]);
});

test('labels are single-line and at most 120 characters; nested functions own their own Logic', () => {
  const long = `call(${'x, '.repeat(80)}y);`;
  const r = extractWithLogic('a.js', `function outer() {\n  ${long}\n  function inner() {\n    return 1;\n  }\n  return inner();\n}\n`);
  const steps = r.logic_steps.filter((s) => s.owner_id === 'code:a.js#outer');
  assert.equal(steps[1]!.label.length, 120);
  assert.ok(steps[1]!.label.endsWith('…'));
  assert.deepEqual(steps.map((s) => s.kind), ['entry', 'statement', 'return', 'exit']);
  assert.deepEqual(renderFlows(r, 'code:a.js#outer.inner'), ['0>1 sequence', '1>2 return']);
});

test('no Logic when logic is false, under the lexical strategy, or for declaration files', () => {
  const source = 'export function f(x: number): number { if (x) { return 1; } return 2; }';
  assert.equal(extractTypeScript({ path: 'a.ts', content: source, strategy: 'ast', logic: false }).logic_steps.length, 0);
  assert.equal(extractTypeScript({ path: 'a.ts', content: source, strategy: 'lexical', logic: true }).logic_steps.length, 0);
  const dts = extractTypeScript({ path: 'a.d.ts', content: 'export declare function f(x: number): number;', strategy: 'ast', logic: true });
  assert.equal(dts.logic_steps.length, 0);
  assert.ok(dts.nodes.some((n) => n.id === 'code:a.d.ts#f'));
  const on = extractTypeScript({ path: 'a.ts', content: source, strategy: 'ast', logic: true });
  assert.ok(on.logic_steps.length > 0);
  assert.ok(on.logic_flows.every((f) => f.owner_id === 'code:a.ts#f'));
});
