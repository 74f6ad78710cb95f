/**
 * Statically evident types for choosing among same-arity overloads in Java and C# (LanguageSpec.argTypes, declaredType,
 * DefinitionMatch.paramTypes): a parameter's declared type, a local's or field's declared type (`var` only with a literal or
 * `new T(...)`), and an argument's type when the expression shows it (a literal, `new T(...)`, a cast, a name). Types are the
 * source text without blanks (C#'s `String`, `System.Int32` as their keywords); anything else is null (unknown).
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import { named } from '../tree.js';

/** An argument's type as the call shows it: a type text, a name whose declaration the extractor looks up, or null. */
export type ArgType = string | { name: string } | null;

/** C#'s predefined types by their .NET names (`String`, `System.String`) → the keyword. */
const CS_ALIASES: Record<string, string> = {
  String: 'string', Object: 'object', Boolean: 'bool', Byte: 'byte', SByte: 'sbyte', Char: 'char', Decimal: 'decimal', Double: 'double',
  Single: 'float', Int16: 'short', UInt16: 'ushort', Int32: 'int', UInt32: 'uint', Int64: 'long', UInt64: 'ulong',
};

/** A type node's text as compared (blanks dropped; C# predefined names as keywords); null for annotated or nullable-reference oddities. */
export function typeText(node: SyntaxNode | null, java: boolean): string | null {
  if (node === null) return null;
  const text = node.text.replace(/\s+/g, '');
  if (text === '' || text.includes('@') || text.includes('/')) return null;
  if (java) return text === 'var' ? null : text;
  if (node.type === 'implicit_type') return null;
  return text.replace(/(?<![\w.])(?:System\.)?(String|Object|Boolean|S?Byte|Char|Decimal|Double|Single|U?Int(?:16|32|64))(?![\w.])/g, (_, name: string) => CS_ALIASES[name] ?? name);
}

/** The type of a literal node (Java or C#), or null (`null`, unknown literal kinds, a C# integer too large for `int` without suffix). */
function literalType(node: SyntaxNode, type: string, java: boolean): string | null {
  const text = node.text;
  switch (type) {
    case 'decimal_integer_literal': case 'hex_integer_literal': case 'octal_integer_literal': case 'binary_integer_literal':
      return /[lL]$/.test(text) ? 'long' : 'int';
    case 'decimal_floating_point_literal': case 'hex_floating_point_literal':
      return /[fF]$/.test(text) ? 'float' : 'double';
    case 'string_literal': case 'text_block': case 'verbatim_string_literal': case 'raw_string_literal': case 'interpolated_string_expression':
      return java ? 'String' : 'string';
    case 'character_literal':
      return 'char';
    case 'true': case 'false':
      return 'boolean';
    case 'boolean_literal':
      return 'bool';
    case 'integer_literal': {
      if (/[lLuU]$/.test(text)) return /[uU][lL]?$|[lL][uU]$/.test(text) ? (/[lL]/.test(text) ? 'ulong' : 'uint') : 'long';
      const value = Number(text.replace(/_/g, ''));
      return Number.isSafeInteger(value) && value <= 2147483647 ? 'int' : null;
    }
    case 'real_literal':
      return /[fF]$/.test(text) ? 'float' : /[mM]$/.test(text) ? 'decimal' : 'double';
    default:
      return null;
  }
}

/** The evident type of an expression: a literal's, `new T(...)`'s T (no anonymous body, no target-typed `new()`), a cast's, a name; else null. */
export function evidentType(node: SyntaxNode | null, java: boolean): ArgType {
  if (node === null) return null;
  // One read of the type: each is a call into the parser's WASM.
  const type = node.type;
  if (type === 'parenthesized_expression') return evidentType(named(node)[0] ?? null, java);
  if (type === 'identifier') return { name: node.text };
  if (type === 'cast_expression') return typeText(node.childForFieldName('type'), java);
  if (type === 'object_creation_expression') {
    if (named(node).some((c) => c.type === 'class_body' || c.type === 'initializer_expression')) return null;
    return typeText(node.childForFieldName('type'), java);
  }
  return literalType(node, type, java);
}

/** The types of the arguments of a Java `method_invocation` or a C# `invocation_expression` (named, `ref`/`out`/`in` arguments: null). */
export function argTypes(args: readonly SyntaxNode[], java: boolean): ArgType[] {
  return args.map((arg) => {
    if (java) return evidentType(arg, true);
    if (arg.type !== 'argument' || arg.childForFieldName('name') !== null || arg.children.some((c) => c !== null && /^(ref|out|in)$/.test(c.type))) return null;
    const parts = named(arg);
    return parts.length === 1 ? evidentType(parts[0] ?? null, false) : null;
  });
}

/**
 * The declared types a binding node gives its names (a local or field declarator, a C# parameter): `T x`, or `var x = <literal
 * or new T()>`; null for a declarator with array brackets of its own (Java `int x[]`); `field` when it declares a field of
 * the type whose body holds it. Null for nodes that declare no typed name.
 */
export function declaredType(node: SyntaxNode, java: boolean): { name: string; type: string | null; field: boolean } | null {
  const kind = node.type;
  if (!java && kind === 'parameter') {
    const name = node.childForFieldName('name');
    const plain = !node.children.some((c) => c !== null && /^(ref|out|in|this|params|parameter_modifier|modifier)$/.test(c.type));
    return name === null ? null : { name: name.text, type: plain ? typeText(node.childForFieldName('type'), false) : null, field: false };
  }
  if (kind !== 'variable_declarator') return null;
  const name = node.childForFieldName('name');
  const declaration = node.parent;
  if (name?.type !== 'identifier' || declaration === null) return null;
  const holder = java ? declaration : declaration.parent;
  const field = holder?.type === 'field_declaration';
  if (!field && holder?.type !== (java ? 'local_variable_declaration' : 'local_declaration_statement')) return { name: name.text, type: null, field: false };
  if (java && node.childForFieldName('dimensions') !== null) return { name: name.text, type: null, field };
  const typeNode = declaration.childForFieldName('type');
  const isVar = java ? typeNode?.text === 'var' : typeNode?.type === 'implicit_type';
  if (!isVar) return { name: name.text, type: typeText(typeNode, java), field };
  const value = java ? node.childForFieldName('value') : (named(node).filter((c) => c.type !== 'identifier' && c.type !== 'bracketed_argument_list').pop() ?? null);
  const evident = evidentType(value, java);
  return { name: name.text, type: typeof evident === 'string' ? evident : null, field };
}

/** The parameters of a Java `formal_parameters` list with their types (a varargs or bracketed parameter: null). */
export function javaParamTypes(list: SyntaxNode | null): { name: string; type: string | null }[] {
  return (list === null ? [] : named(list)).filter((p) => p.type === 'formal_parameter' || p.type === 'spread_parameter').map((p) => {
    const name = p.type === 'formal_parameter' ? p.childForFieldName('name')?.text : undefined;
    const plain = p.type === 'formal_parameter' && p.childForFieldName('dimensions') === null;
    return { name: name ?? '', type: plain ? typeText(p.childForFieldName('type'), true) : null };
  });
}

/** The parameters of a C# `parameter_list` with their types (a modified, `params` or untyped parameter: null). */
export function csharpParamTypes(list: SyntaxNode | null): { name: string; type: string | null }[] {
  return (list === null ? [] : named(list)).filter((p) => p.type === 'parameter').map((p) => declaredType(p, false) ?? { name: '', type: null });
}

/** The type parameter names a Java or C# declaration introduces (`<T, U extends X>`). */
export function typeParameters(node: SyntaxNode): string[] {
  const list = named(node).find((c) => c.type === 'type_parameters' || c.type === 'type_parameter_list');
  return list === undefined ? [] : named(list).map((p) => (named(p).find((c) => c.type === 'identifier' || c.type === 'type_identifier') ?? p).text);
}
