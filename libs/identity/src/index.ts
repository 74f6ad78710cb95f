/** @docforge/identity: what a build's result depends on (source identity, adapter manifests and registry, build dependencies) and the pure decision whether a publication is current. Light: the CLI's no-change path loads it. */
export { BUILTIN_ADAPTER_MANIFESTS, adapterVersionCurrent, builtinAdapterManifest, codeExtensionsOf } from './adapter-manifests.js';
export { adapterFor, adapterVersionOf, adaptersFor, adaptersSettled, codeLinker, ensureAdapters, ensureLinkers, loadedParsers, registerCodeAdapter, setAdapterLoader } from './adapter-registry.js';
export type { BuildDependencies } from './build-dependencies.js';
export { DEPENDENCIES_META_KEY, DependencyRecorder, dependencyIdentities, dependencyWatch, encodeDependencies } from './build-dependencies.js';
export type { IdentityWalk } from './identity.js';
export { dependenciesOfMeta, identityExtra, identityWalk, walkIdentity, walkIssueIdentities } from './identity.js';
export { MAX_PROJECT_ROOT_CHARS, resolveProjectRoot } from './project-root.js';
export { publishedDependencies } from './published-dependencies.js';
export type { CurrentExpectation, PublicationMismatch } from './current.js';
export { aliasedIdentity, publicationMismatch } from './current.js';
