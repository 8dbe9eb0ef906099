import fs from 'node:fs';
import { createRequire } from 'node:module';
import v8 from 'node:v8';

/**
 * Has V8 compile WebAssembly optimised when a module loads, instead of running each function first
 * in its baseline tier and optimising only the ones it finds busy ("dynamic tiering"). For RDKit in
 * the structure workers this made every structure search at L 20–27 % faster (selective
 * substructure p50 1,564 → 1,229 ms, similarity 0.7 p50 58 → 46 ms, benzene's full count 64 → 46 s)
 * for a longer start-up (the index alone 2.6 s more, the server's restart 70.5 → 77 s) and ≈ 200 MB
 * more resident (docs/benchmarks.md "Issue 18 at L, eighth step"): with both cores busy in the
 * workers, the optimising compiles of dynamic tiering wait and searches run longer in the baseline
 * code. Searches are what chemists wait for; a start-up is once.
 *
 * V8's flags belong to the process and apply to modules compiled after they are set: the server
 * (main.ts) calls this after the database opened — embedded PGlite keeps its lazy compile and its
 * quick start — and before the first RDKit worker starts. Tests do not call it (many short-lived
 * engines and databases would pay the eager compile each time).
 */
export function compileWebAssemblyEagerly(): void {
  v8.setFlagsFromString('--no-wasm-dynamic-tiering');
}

/** A compiled WebAssembly module, opaque here (the server's TypeScript has no DOM library, where its type lives). */
export type CompiledWasm = object;
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasm> } }).WebAssembly;

let rdkitModule: Promise<CompiledWasm | null> | null = null;

/**
 * RDKit's WebAssembly compiled once per process, for every structure worker to instantiate
 * (worker_threads pass a compiled module between threads without copying its code): the
 * workers no longer compile it one each — on two cores the eager compile above cost the start-up
 * 6.5 s and ≈ 200 MB resident with two workers compiling at once — and a replaced worker starts
 * without compiling again. Answers null when it cannot be compiled here; each worker then compiles
 * its own, as before.
 */
export function compiledRdkit(): Promise<CompiledWasm | null> {
  rdkitModule ??= fs.promises
    .readFile(createRequire(import.meta.url).resolve('@rdkit/rdkit/RDKit_minimal.wasm'))
    .then((bytes) => wasm.compile(bytes))
    .catch(() => null);
  return rdkitModule;
}
