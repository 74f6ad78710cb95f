/**
 * The part of the TypeScript compiler's API this adapter calls at run time (issue 14): the roots
 * from which parser-build.cts keeps the declarations of `typescript.js` a syntax pass reaches.
 * Every value this adapter reads from `ts` belongs here (functions and the enums read at run time;
 * types cost nothing). A name missing here still works, through the parser module's fallback to
 * the whole compiler (slower, and counted: test/parser-build.test.ts fails on any fallback while
 * extracting its corpus).
 */
export const PARSER_API: readonly string[] = [
  'JSDocParsingMode', 'NodeFlags', 'ScriptKind', 'ScriptTarget', 'SyntaxKind',
  'canHaveModifiers', 'createSourceFile', 'flattenDiagnosticMessageText', 'forEachChild', 'getLeadingCommentRanges',
  'getModifiers', 'parseConfigFileTextToJson', 'version',
  'isArrowFunction', 'isAsExpression', 'isAwaitExpression', 'isBinaryExpression', 'isBindingElement', 'isBlock',
  'isCallExpression', 'isCaseClause', 'isClassExpression', 'isClassStaticBlockDeclaration', 'isComputedPropertyName',
  'isConstructorDeclaration', 'isDoStatement', 'isElementAccessExpression', 'isExternalModuleReference',
  'isFunctionDeclaration', 'isFunctionExpression', 'isGetAccessor', 'isGetAccessorDeclaration', 'isIdentifier',
  'isIterationStatement', 'isLabeledStatement', 'isLiteralTypeNode', 'isMetaProperty', 'isMethodDeclaration',
  'isMethodSignature', 'isNamespaceExport', 'isNamespaceImport', 'isNewExpression', 'isNoSubstitutionTemplateLiteral',
  'isNonNullExpression', 'isNumericLiteral', 'isObjectBindingPattern', 'isObjectLiteralExpression',
  'isParameterPropertyDeclaration', 'isParenthesizedExpression', 'isParenthesizedTypeNode', 'isPrivateIdentifier',
  'isPropertyAccessExpression', 'isPropertyAssignment', 'isPropertyDeclaration', 'isPropertySignature',
  'isSatisfiesExpression', 'isSetAccessor', 'isSetAccessorDeclaration', 'isShorthandPropertyAssignment',
  'isSpreadAssignment', 'isStringLiteral', 'isSwitchStatement', 'isTypeAssertionExpression', 'isTypeReferenceNode',
  'isUnionTypeNode', 'isVariableStatement',
];
