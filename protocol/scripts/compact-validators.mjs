// Compacts the code ajv writes in allErrors mode (used by generate.mjs only). ajv spells each
// recorded error as eight lines (a const, an if/else on `vErrors === null`, `errors++`) and each
// error list taken from a called validator as four; 2,600 of them were half the generated
// validators. compactValidatorCode() rewrites exactly these idioms into one-line statements that
// do the same thing in the same order, joins `}` and `else` as any formatter would, and writes an
// `if` whose whole body is one such statement without braces. Nothing else is touched: the error
// objects, their order, every condition and every other statement stay as ajv wrote them.
// protocol/test/generated-equivalence.test.ts compares the generated validators with ajv's own
// code on every fixture and on mutations of them (same verdict, same errors).

/** `const errN = {...};` then ajv's addError(): append to vErrors (null until the first error). */
const RECORD_ERROR = /^const (err\d+) = (\{[\s\S]*?\});\nif\(vErrors === null\)\{\nvErrors = \[\1\];\n\}\nelse \{\nvErrors\.push\(\1\);\n\}\nerrors\+\+;$/gm;

/** ajv's addErrorsFrom(): the errors of a called validator (a $ref) appended to vErrors. */
const TAKE_ERRORS = /^(vErrors = vErrors === null \? ([\w$.]+?)\.errors : vErrors\.concat\(\2\.errors\));\nerrors = vErrors\.length;$/gm;

/** The one-line statements above: an `if` whose body is only one of them loses its braces. */
const ONE_LINE_STATEMENTS = [
  /^\(vErrors \?\?= \[\]\)\.push\(.*\), errors\+\+;$/,
  /^vErrors = vErrors === null \? ([\w$.]+?)\.errors : vErrors\.concat\(\1\.errors\), errors = vErrors\.length;$/,
];

/**
 * The same validator code with ajv's error-recording idioms on one line each (see the file header).
 * `(vErrors ??= []).push(e)` leaves vErrors exactly as ajv's `vErrors === null ? [e] : push(e)`
 * does (vErrors is never undefined), and evaluates `e` once, as the const did.
 * @param {string} code ajv generated code (`code.lines: true`): one function or a standalone module
 * @returns {string}
 * @throws Error when an error is recorded in a form this rewrite does not know (an ajv upgrade
 *   changed its code generation: update the patterns rather than keep half the code verbose)
 */
export function compactValidatorCode(code) {
  let out = code.replace(RECORD_ERROR, (_m, _name, error) => `(vErrors ??= []).push(${error}), errors++;`);
  out = out.replace(TAKE_ERRORS, '$1, errors = vErrors.length;');
  for (const leftover of [/^if\(vErrors === null\)\{$/m, /^errors = vErrors\.length;$/m]) {
    const at = out.search(leftover);
    if (at >= 0) throw new Error(`compactValidatorCode: unknown error idiom near:\n${out.slice(Math.max(0, at - 300), at + 300)}`);
  }
  out = out.replace(/\n\}\nelse /g, '\n} else ');
  return unbraceOneLineIfs(out);
}

/** `if(c){` + one statement of ONE_LINE_STATEMENTS + `}` (no else) -> `if(c) statement`. */
function unbraceOneLineIfs(code) {
  const lines = code.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const body = lines[i + 1] ?? '';
    if (/^if\(.*\)\{$/.test(line) && lines[i + 2] === '}' && ONE_LINE_STATEMENTS.some((p) => p.test(body))) {
      out.push(`${line.slice(0, -1)} ${body}`);
      i += 2;
    } else {
      out.push(line);
    }
  }
  return out.join('\n');
}
