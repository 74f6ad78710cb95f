/**
 * Code node ids (DESIGN.md section 3): `code:<path>` for a module and `code:<path>#<qualified.name>`
 * for a class, function or method. The path part is percent-encoded for `%` and `#` only, so the
 * first `#` of an id always separates the path from the qualified name, whatever the file is called
 * (`src/a#b.ts` gives `code:src/a%23b.ts`). Every adapter builds code ids through {@link codeId}.
 */

/** The prefix of every code node id; content node ids may not start with it. */
export const CODE_ID_PREFIX = 'code:';

/**
 * The path part of a code id: `%` becomes `%25` and `#` becomes `%23`; every other character,
 * `/` and non-ASCII included, stays as it is (so ids of ordinary paths are the paths themselves).
 * @param path project-relative POSIX path of the file
 */
export function encodeCodePath(path: string): string {
  return path.replace(/%/g, '%25').replace(/#/g, '%23');
}

/** The inverse of {@link encodeCodePath}: `%23` becomes `#` and `%25` becomes `%`, read left to right. */
export function decodeCodePath(encoded: string): string {
  return encoded.replace(/%2[35]/gi, (match) => (match.toLowerCase() === '%25' ? '%' : '#'));
}

/**
 * The id segment of a member name (issue 31 item 5). A computed member keeps its source text in
 * brackets (`[Symbols.kConnected]`); inside the brackets only `%` becomes `%25` and `.` becomes
 * `%2E`, so a `.` of the key never reads as the qualified-name separator and every identifier of
 * the key stays verbatim in the id (`MockPool.[Symbols%2EkConnected]`: grep for `kConnected`, or
 * for the key with each `.` written `%2E`). Any other name is returned unchanged.
 * @param name a simple member name: an identifier, `#private`, a literal key, or `[expression]`
 */
export function encodeMemberName(name: string): string {
  if (name.length < 2 || !name.startsWith('[') || !name.endsWith(']')) return name;
  return `[${name.slice(1, -1).replace(/%/g, '%25').replace(/\./g, '%2E')}]`;
}

/** The inverse of {@link encodeMemberName} for one id segment: `%2E` becomes `.` and `%25` becomes `%` inside brackets. */
export function decodeMemberName(segment: string): string {
  if (segment.length < 2 || !segment.startsWith('[') || !segment.endsWith(']')) return segment;
  return `[${segment.slice(1, -1).replace(/%2E|%25/gi, (match) => (match.toLowerCase() === '%25' ? '%' : '.'))}]`;
}

/**
 * A code id as the index holds it when a client wrote a computed member's key as in the source
 * (`code:src/pool.js#Pool.[Symbols.kConnected]`): each `.` inside brackets of the qualified name
 * written `%2E` ({@link encodeMemberName}), so it is not read as the qualified-name separator. An
 * id already in that form, or any other id, is returned unchanged (`%` is left alone: `%2E` must
 * stay one escape).
 */
export function canonicalCodeId(id: string): string {
  const hash = id.indexOf('#');
  if (!id.startsWith(CODE_ID_PREFIX) || hash < 0 || !id.includes('[', hash)) return id;
  let depth = 0;
  let out = id.slice(0, hash + 1);
  for (const ch of id.slice(hash + 1)) {
    if (ch === '[') depth += 1;
    else if (ch === ']' && depth > 0) depth -= 1;
    out += ch === '.' && depth > 0 ? '%2E' : ch;
  }
  return out;
}

/**
 * The id of a code node.
 * @param path project-relative POSIX path of the file (not yet encoded)
 * @param qualifiedName dotted name inside the file (`Class.method`); omitted, null or empty for the module
 * @returns `code:<encoded path>` or `code:<encoded path>#<qualifiedName>`, the path in NFC
 */
export function codeId(path: string, qualifiedName?: string | null): string {
  // Ids compare in NFC (issue 30 item 3): a file named in NFD (as macOS writes names) has the id
  // an NFC link to it names; the node keeps the file's real name as its `source_path`.
  const module = `${CODE_ID_PREFIX}${encodeCodePath(path.normalize('NFC'))}`;
  return qualifiedName === undefined || qualifiedName === null || qualifiedName === '' ? module : `${module}#${qualifiedName}`;
}

/**
 * Splits a code id into its file path (decoded) and qualified name (null for a module).
 * @returns null when `id` does not start with {@link CODE_ID_PREFIX}
 */
export function parseCodeId(id: string): { path: string; qualifiedName: string | null } | null {
  if (!id.startsWith(CODE_ID_PREFIX)) return null;
  const rest = id.slice(CODE_ID_PREFIX.length);
  const hash = rest.indexOf('#');
  return hash < 0 ? { path: decodeCodePath(rest), qualifiedName: null } : { path: decodeCodePath(rest.slice(0, hash)), qualifiedName: rest.slice(hash + 1) };
}
