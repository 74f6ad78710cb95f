/**
 * Primes the TypeScript compiler of this thread (compiler.cts `primeCompiler`) with the start-up
 * accelerators of this thread's config, before ts.cts `require`s it. Every module of this adapter
 * that imports the compiler (compiler-api.ts, or ts.cts directly) imports this module first, so
 * ES module evaluation order runs it before ts.cts. The config is read here because the compiler
 * loads at import time in whatever thread imports the adapter (a build or parse worker, a test),
 * before any caller could pass options; worker threads inherit the environment.
 */
import { Accelerators } from '@docforge/accelerate';
import { readDocforgeConfig } from '@docforge/core';
import { primeCompiler } from './compiler.cjs';

primeCompiler(Accelerators.from(readDocforgeConfig()));
