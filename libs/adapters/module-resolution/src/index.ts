/**
 * @docforge/module-resolution: imports resolved per language to project files (issue 33 item 2).
 * Each language's rules take a {@link ResolveContext} over one build (its files, their imports and
 * package names, their top-level definitions, the project's file reader) and answer which files an
 * import reaches and which names it binds ({@link LanguageResolver}); some also list the public API
 * names for doc mentions and project-level findings. The tree-sitter adapters
 * (@docforge/adapter-treesitter) call them; this lib depends only on @docforge/core.
 */
export type { TreeImport, ResolveFileData, ResolveContext, ImportTarget, LanguageResolver } from './types.js';
export { fileClosureResolver } from './file-closure.js';
export { goModulePath, goResolver, goModuleIssues, goApi } from './go-resolve.js';
export { cargoLibName, rustResolver, rustApi } from './rust-resolve.js';
export { javaResolver, javaApi } from './java-resolve.js';
export { JAVA_LANG_TYPES, javaLangType, javaLangMembers } from './java-lang.js';
export { csharpResolver, csharpApi } from './csharp-resolve.js';
export { phpResolver, phpApi } from './php-resolve.js';
export { rubyResolver } from './ruby-resolve.js';
export { cppResolver } from './cpp-resolve.js';
