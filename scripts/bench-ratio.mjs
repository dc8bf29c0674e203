// Times the benchmark workloads natively and as wasm32 under Node.js, alternately, and
// prints the wasm/native ratio of each. Build them first (scripts/bench-ratio.sh does).
// Usage: node scripts/bench-ratio.mjs [--rounds N] [--runs N] [--warmup-ms N] NATIVE_BINARY NAME=WASM_MODULE...
// Each round starts a fresh native process, then instantiates each wasm module, and all make
// the same calls: lifecycle runs for the warm-up time (default 5 s; Node.js first runs wasm
// compiled by a baseline compiler and optimises hot functions in the background as they run,
// which on two cores takes seconds for the large opt-level 3 module), `runs` timed lifecycle
// runs (default 50), then the large scheduling workload (built untimed, then timed).
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : Number(args.splice(i, 2)[1]);
};
const rounds = option("--rounds", 3);
const runs = option("--runs", 50);
const warmupMs = option("--warmup-ms", 5000);
const [native, ...named] = args;
const modules = named.map((arg) => {
  const [name, path] = arg.split("=");
  return { name, bytes: path && readFileSync(path) };
});
if (!native || modules.length === 0 || modules.some((m) => !m.bytes)) {
  console.error("usage: node scripts/bench-ratio.mjs [--rounds N] [--runs N] [--warmup-ms N] NATIVE_BINARY NAME=WASM_MODULE...");
  process.exit(2);
}

async function wasmRound(bytes) {
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const { lifecycle, large_prepare, large_run } = instance.exports;
  const warm = performance.now();
  let steps = lifecycle(5);
  while (performance.now() - warm < warmupMs) steps = lifecycle(1);
  let start = performance.now();
  lifecycle(runs);
  const lifecycle_ms = (performance.now() - start) / runs;
  large_prepare();
  start = performance.now();
  const evaluated = large_run();
  const large_ms = performance.now() - start;
  return { lifecycle_ms, steps, large_ms, evaluated };
}

const nativeRound = () => JSON.parse(execFileSync(native, [String(runs), String(warmupMs)], { encoding: "utf8" }));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (evaluated, ms) => `${(evaluated / ms / 1e3).toFixed(1)} M/s`;
for (const m of modules) m.ratios = { lifecycle: [], large: [] };

for (let round = 1; round <= rounds; round++) {
  const n = nativeRound();
  const line = [
    `round ${round}: native: lifecycle ${n.lifecycle_ms.toFixed(2)} ms (${n.steps} steps),` +
      ` scheduler ${n.large_ms.toFixed(0)} ms (${rate(n.evaluated, n.large_ms)})`,
  ];
  for (const m of modules) {
    const w = await wasmRound(m.bytes);
    if (n.steps !== w.steps || n.evaluated !== w.evaluated) {
      console.error(`round ${round}: native and wasm32 (${m.name}) did different work`, n, w);
      process.exit(1);
    }
    m.ratios.lifecycle.push(w.lifecycle_ms / n.lifecycle_ms);
    m.ratios.large.push(w.large_ms / n.large_ms);
    line.push(
      `  wasm32 ${m.name}: lifecycle ${w.lifecycle_ms.toFixed(2)} ms = ${m.ratios.lifecycle.at(-1).toFixed(2)}x,` +
        ` scheduler ${w.large_ms.toFixed(0)} ms (${rate(w.evaluated, w.large_ms)}) = ${m.ratios.large.at(-1).toFixed(2)}x`,
    );
  }
  console.log(line.join("\n"));
}
console.log(`wasm32 under Node ${process.version} against native, median of ${rounds} rounds (target: at most 2x):`);
for (const m of modules) {
  console.log(
    `  ${m.name}: lifecycle ${median(m.ratios.lifecycle).toFixed(2)}x, scheduler ${median(m.ratios.large).toFixed(2)}x`,
  );
}
