/**
 * What one language of the tree-sitter family supplies to the shared extractor, Logic builder,
 * lexical scanner and linker: its grammar, how it names definitions, imports, calls and local
 * bindings, its Logic statement types, and its import resolution.
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { CodeExtractInput, SourceIssue } from '@docforge/core';
import type { LanguageResolver, ResolveContext, TreeImport } from '@docforge/module-resolution';
import type { TreeRecv } from './link-data.js';
import type { ArgType } from './lang/arg-types.js';
import type { SyntaxArtefact } from './tree.js';

/** The import resolution shapes live in @docforge/module-resolution; re-exported for this lib's linker. */
export type { ImportTarget, LanguageResolver, ResolveContext } from '@docforge/module-resolution';

/** A definition a syntax node declares. */
export interface DefinitionMatch {
  /** Node kind: `struct`, `interface`, `class`, `enum`, `trait`, `type`, `function`, `method`. */
  kind: string;
  name: string;
  /**
   * Qualified name of the owner replacing the enclosing definition (a Go method's receiver type);
   * undefined: nested under the enclosing definition.
   */
  qualifier?: string;
  /** Signature shown as the summary (docs appended). */
  signature: string;
  capabilities: readonly string[];
  /** Whether the definition is exported/public. */
  exported: boolean;
  /** The node holding the body (Logic and nested definitions), or null. */
  body: SyntaxNode | null;
  /** The receiver variable in the body (Go `t`, Rust `self`, Java `this`), or null. */
  receiver: string | null;
  /** Names the parameters bind (Go: the function's and the receiver's type parameters too, which shadow package types). */
  params: readonly string[];
  /** What proves each parameter's type (Go `s *Server`; LanguageSpec.typedBinds for locals), by name. */
  paramProofs?: ReadonlyMap<string, TreeRecv>;
  /**
   * How many arguments a call may pass (a method or function of a language with {@link LanguageSpec.overloads}): `min`
   * without the defaulted parameters, `max` null with varargs (Java `...`, C# `params`, C/C++ `...`).
   */
  arity?: { min: number; max: number | null };
  /** Node whose preceding comments are the doc comment (default: the definition node). */
  docAnchor?: SyntaxNode;
  /** Declared result types of a function (Go), one type path per result, null where it names no plain type (TreeLinkData.results). */
  results?: (string[] | null)[];
  /** Each parameter's name and declared type text (Java, C#; arg-types.ts), in order; null where not a plain type (TreeLinkData.params). */
  paramTypes?: readonly { name: string; type: string | null }[];
  /** A method no subtype inherits (`private`) or only one of the same package (`package`; Java) (TreeLinkData.access). */
  access?: 'private' | 'package';
  /** Type parameter names the definition introduces (`<T>`): a type naming one in its scope proves nothing. */
  typeParams?: readonly string[];
  /**
   * Whether a second declaration of the same qualified name and kind in the file reopens the
   * first (a Ruby class or module reopened, a C++ namespace): no new node, members join the first.
   */
  reopen?: boolean;
  /**
   * Whether this is a declaration without a body (a C prototype, a C++ member declared in its
   * class): a later definition of the same qualified name and kind in the file takes its node
   * over, and a repeated declaration adds none.
   */
  declaration?: boolean;
}

/**
 * A node that scopes definitions without being one (Rust `impl T` / `impl Tr for T`): members
 * are qualified by `qualifier`; `implements` names the trait implemented, if any.
 */
export interface ScopeMatch {
  qualifier: string;
  /** The implemented trait's path (Rust), recorded as an `implements` base of `qualifier`. */
  implements: string[] | null;
}

/** Per-language control structures for Logic (node types). */
export interface LogicSpec {
  /** Statement containers whose named children are statements (`block`, `statement_list`). */
  blocks: ReadonlySet<string>;
  /** `if` nodes: fields `condition`, `consequence`, `alternative`. */
  ifs: ReadonlySet<string>;
  /** Types wrapping the else branch (`else_clause`): their first named child is the branch. */
  elses: ReadonlySet<string>;
  /** Loops: field `body`. */
  loops: ReadonlySet<string>;
  /** Switch/match statements and their case nodes. */
  switches: ReadonlySet<string>;
  cases: ReadonlySet<string>;
  returns: ReadonlySet<string>;
  throws: ReadonlySet<string>;
  breaks: ReadonlySet<string>;
  continues: ReadonlySet<string>;
  /** Wrappers whose only named child is the statement (`expression_statement`): unwrapped when that child is a control structure. */
  wrappers: ReadonlySet<string>;
  /** `try` statements (field `body`), their catch clauses (field `body`) and finally clauses (a block child). */
  tries: ReadonlySet<string>;
  catches: ReadonlySet<string>;
  finallys: ReadonlySet<string>;
  /** Whether a statement is a throw by its text (Go `panic(...)`, Rust `panic!(...)`). */
  isThrowCall(node: SyntaxNode): boolean;
  /** The statements of a case node (its body without the case labels or patterns). */
  caseBody(node: SyntaxNode): SyntaxNode[];
  /** Whether a case node is the default (`default:`, `_ =>`). */
  isDefault(node: SyntaxNode): boolean;
  /** Whether control falls from the end of one case into the next (Java, C#'s grammar aside). */
  fallthrough: boolean;
  /**
   * The parts of an `if` node when they are not its fields `condition`, `consequence` and
   * `alternative` (PHP: `body`, and `elseif`/`else` clauses as siblings).
   */
  ifParts?(node: SyntaxNode): { condition: SyntaxNode | null; consequence: SyntaxNode | null; alternative: SyntaxNode | null };
}

/** One language of the family. */
export interface LanguageSpec {
  /** Adapter id and `GraphNode.language`. */
  id: string;
  /** Display name in messages. */
  display: string;
  /** Grammar file name inside @vscode/tree-sitter-wasm/wasm. */
  grammar: string;
  /**
   * A second grammar for some of the language's files, each loaded when a file needs it: `grammar` is the `.wasm` file's module
   * specifier (C: `tree-sitter-c/tree-sitter-c.wasm`), `applies` whether a project-relative path is parsed with it, given the
   * descriptor's adapter options (`CodeExtractInput.options`); `language` the `GraphNode.language` of those files (C: `c`).
   */
  dialect?: { grammar: string; language: string; applies(path: string, options: CodeExtractInput['options']): boolean };
  extensions: readonly string[];
  /**
   * Parse errors that are artefacts of unexpanded source, not the user's syntax errors (C/C++: macros and preprocessor
   * conditionals, cpp-preproc.ts): reported as `unexpanded_preprocessor` infos. Absent: every parse error is a `syntax_error`.
   */
  syntaxArtefact?: SyntaxArtefact;
  /** Reserved words never indexed as code text. */
  keywords: ReadonlySet<string>;
  /** Node types the walk must hand to {@link LanguageSpec.visit}; others are only descended. */
  interesting: ReadonlySet<string>;
  isTestPath(path: string): boolean;
  /**
   * The source files a test file tests by the language's naming convention (Go's `x_test.go` tests
   * `x.go` beside it; Java's `src/test/java/p/XTest.java` tests `src/main/java/p/X.java`), as
   * project-relative paths; the linker keeps those that exist and are no test files. Absent: none.
   */
  conventionTested?(testPath: string): readonly string[];
  isComment(type: string): boolean;
  /** Types between a doc comment and its definition (attributes, annotations). */
  skipBeforeDoc?(type: string): boolean;
  /** The package name and module doc of the file. */
  moduleFacts(root: SyntaxNode): { pkg: string | null; doc: string };
  /** Whether a module is an entry point given its package and top-level definition names. */
  moduleEntrypoint(path: string, pkg: string | null, names: ReadonlySet<string>): boolean;
  /**
   * The definition a node declares, or null. `parent`: the enclosing definition's kind, the
   * qualifier of nested names, whether functions here are methods (`inType`: inside a type or an
   * impl scope), whether the file is a test file, its package and path.
   */
  definition(node: SyntaxNode, parent: { kind: string; qname: string; inType: boolean; testFile: boolean; pkg: string | null; path: string }): DefinitionMatch | null;
  scope?(node: SyntaxNode): ScopeMatch | null;
  /** Import records of an import node (children skipped). */
  imports(node: SyntaxNode): TreeImport[] | null;
  /**
   * The callee path of a call node as written (`undefined`: not a call; null: no plain name
   * path); a head naming the method's receiver becomes `<self>` in the extractor.
   */
  callee(node: SyntaxNode): string[] | null | undefined;
  /** Names a node binds as locals of the enclosing function. */
  binds(node: SyntaxNode): readonly string[];
  /**
   * The names among {@link LanguageSpec.binds}'s whose declaration proves their type (TreeRecv); a local bound more than once
   * keeps a proof only when every binding (parameters included) gives the same one, and `x.m()` on it becomes `['<typed>', 'm']`.
   */
  typedBinds?(node: SyntaxNode): ReadonlyMap<string, TreeRecv>;
  /** The evident types of a call's arguments (`args`, comments aside; Java, C#: arg-types.ts), for choosing among same-arity overloads; null when not counted. */
  argTypes?(call: SyntaxNode, args: readonly SyntaxNode[]): ArgType[] | null;
  /** The declared type a binding node gives a name (a local, field or parameter; arg-types.ts), or null. */
  declaredType?(node: SyntaxNode): { name: string; type: string | null; field: boolean } | null;
  /**
   * Node types that bind names {@link LanguageSpec.binds} does not track (patterns, implicit lambda parameters, queries): a
   * function holding one never reads an argument name as a field of its type (it could be such a binding).
   */
  opaqueBinders?: ReadonlySet<string>;
  /** Kinds a proven local's type may have for its calls to resolve (Go: `struct` and `type`, never an `interface`, whose calls dispatch). */
  receiverKinds?: ReadonlySet<string>;
  /** Declared supertypes of a type definition node (`mixin`: how a Ruby module or PHP trait is taken in, see TreeBase). */
  bases?(node: SyntaxNode): { path: string[]; relation: 'inherits' | 'implements'; line: number; mixin?: 'include' | 'prepend' | 'extend' }[];
  logic: LogicSpec | null;
  /** Lexical strategy: imports and top-level definition names from comment- and string-free text. */
  lexical(text: string): { imports: TreeImport[]; defs: { name: string; kind: string }[]; pkg: string | null };
  /** Whether a `<self>` call that names no method of the enclosing type may name a statically imported function (Java's unqualified calls). */
  implicitSelf?: boolean;
  /** Whether a `<self>` call outside any type resolves as a plain name (Ruby and PHP top-level functions, C functions). */
  plainSelfAtTop?: boolean;
  /**
   * How calls respect the `static` capability: `side`, a call through a type's name reaches only
   * static members and a call on the receiver only members of the caller's side (Ruby singleton
   * methods); `named`, only the first rule (PHP, where `$this->` and `self::` reach both sides).
   */
  staticCalls?: 'side' | 'named';
  /** Whether a local variable can be called by name (C function pointers, C++ lambdas): a `<self>` call naming a local of its function is dropped. */
  callableLocals?: boolean;
  /**
   * Whether one class or module (same qualified name and kind) declared in several files is one
   * type (Ruby reopens them): a name reaching it in several files names the file named after it
   * (`thor/base.rb` for `Thor.Base`), else the first by path, instead of being unproven.
   */
  reopenAcrossFiles?: boolean;
  /**
   * Whether a receiver call follows the type's declared supertypes in method resolution order
   * (Ruby: `prepend`ed modules, the type, `include`d modules last first, then the superclass; PHP:
   * the class, its traits, then the superclass), stopping at an unresolved one; also enables
   * `parent::m()` (`<parent>`) through the one superclass.
   */
  mixins?: boolean;
  /**
   * Whether a `<self>` call naming no member of the caller's type follows its declared supertypes (Java, C#, C++): the own
   * member, the one superclass's answer, then the interfaces (or a C++ class's several bases) as a group whose one distinct
   * declaration counts; an unresolved superclass ends the walk with no answer, and the call falls back to the rules before
   * (static imports, a free function). `<super>` calls (`super.m()`, `base.M()`, `super(...)`) need it or `mixins`.
   */
  inherits?: boolean;
  /**
   * Whether a name declared more than once in a type (overloads, `m` and `m~2`) resolves by the call's argument count (Java,
   * C#, C++): the one declaration whose arity admits the count; none when several or none do, or one has no arity.
   */
  overloads?: boolean;
  /**
   * How a method name a type and its project ancestors declare chooses (link-overloads.ts): Java `merge`, one set of
   * overloads (JLS 15.12.2); C# `derived`, the derived type's applicable methods first. Otherwise the own declaration hides.
   */
  inheritedOverloads?: 'merge' | 'derived';
  /** The text to parse in place of the file's (same length and lines; C/C++ blanks macros that hide declarations). */
  parseText?(text: string): string;
  /** The members of an unresolved supertype `path` written in a file with `imports`, when all are known (Java's java.lang). */
  knownExternal?(imports: readonly TreeImport[], path: readonly string[]): ReadonlySet<string> | undefined;
  /**
   * Java and C#: an unqualified call (callee head `<bare>`, else read as `<self>`) that no member of the caller's type or its
   * ancestors answers reaches the method of an enclosing type (link-enclosing.ts); `rootMembers` are the names every object
   * has (Java's `Object`, C#'s `System.Object` methods), which never do.
   */
  enclosingCalls?: { rootMembers: ReadonlySet<string> };
  /** Whether a `<self>` call that names no member resolves as a plain name (C++: a free function called from a method). */
  selfThenName?: boolean;
  /**
   * Whether a path is looked up whole as a qualified name (`ns::A::f` as `ns.A.f`), prefixed by
   * each enclosing namespace or type of the caller, innermost first, then bare, in the file and
   * then in its scope's files (C++, whose namespaces are reopened across files).
   */
  dottedPaths?: boolean;
  /** Kinds besides the types whose members a path reaches (`Mod.f` through a Ruby module, `ns::f` through a C++ namespace). */
  pathKinds?: ReadonlySet<string>;
  /**
   * Whether a path's head is looked up first in the enclosing types and namespaces of the caller,
   * innermost first, in the file and then in its scope's files (Ruby constants, C++ names in namespaces); `types`: only the
   * types and namespaces found so (Java's and C#'s member types, JLS 6.3).
   */
  lexicalNesting?: boolean | 'types';
  /** Import resolution over the whole build. */
  resolver(context: ResolveContext): LanguageResolver;
  /** Public API names (`pkg.Name`) for doc mentions, from the linked files. */
  api?(context: ResolveContext): Record<string, string[]>;
  /** Project-level findings of the whole build (Go: no go.mod, so no import resolves), added to the link result's issues. */
  issues?(context: ResolveContext): SourceIssue[];
}
