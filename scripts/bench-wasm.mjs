// Times the lifecycle benchmark compiled to wasm32 under Node.js and prints ms per run.
// Build first: cargo build --release --target wasm32-unknown-unknown -p podlab-bench-wasm
// Usage: node scripts/bench-wasm.mjs [path/to/podlab_bench_wasm.wasm] [runs]
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const target = process.env.CARGO_TARGET_DIR ?? "target";
const path = process.argv[2] ?? `${target}/wasm32-unknown-unknown/release/podlab_bench_wasm.wasm`;
const runs = Number(process.argv[3] ?? 50);
const { instance } = await WebAssembly.instantiate(readFileSync(path), {});
const run = instance.exports.run;
const steps = run(5); // warm-up
const start = performance.now();
run(runs);
const perRun = (performance.now() - start) / runs;
console.log(`wasm32 under Node ${process.version}: ${perRun.toFixed(3)} ms per run (${steps} steps, ${runs} runs)`);
