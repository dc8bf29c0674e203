//! A full lifecycle through `lab::run`: `kubectl apply` of a 3-replica nginx Deployment on
//! the default 3-node kind cluster, from kubectl's first request until the cluster settles
//! (Deployment → ReplicaSet → 3 Pods scheduled, pulled, started, Ready; every step traced).
//! The workload is `podlab_engine::workloads::lifecycle`.
//!
//! Run: `cargo bench -p podlab-engine --bench lifecycle` (prints the mean wall time per run,
//! on a copy of the default cluster the process loaded once, as every run on it is; then the
//! same with the cluster loaded for each run, as a run on a cluster file is).
//! The same run compiled to wasm32 under Node.js, against native: `scripts/bench-ratio.sh`.

use podlab_engine::workloads;
use std::time::Instant;

/// mimalloc rather than the system allocator: glibc's malloc and free took about half of a
/// lifecycle's instructions (see docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let (steps, end_ms) = workloads::lifecycle().expect("the default cluster loads");
    println!(
        "3-replica Deployment lifecycle via lab::run: {:.3} ms per run ({steps} steps, settled at {:.1}s of cluster time, {RUNS} runs)",
        per_run(workloads::lifecycle) * 1000.0,
        end_ms as f64 / 1000.0
    );
    println!(
        "the same with the cluster loaded for each run (lab::Loaded::load): {:.3} ms per run ({RUNS} runs)",
        per_run(workloads::lifecycle_loading) * 1000.0
    );
}

const RUNS: u32 = 50;

/// Warms up, then times [`RUNS`] runs of `f`; seconds per run.
fn per_run(mut f: impl FnMut() -> Option<(usize, u64)>) -> f64 {
    for _ in 0..5 {
        std::hint::black_box(f().expect("runs"));
    }
    let start = Instant::now();
    for _ in 0..RUNS {
        std::hint::black_box(f().expect("runs"));
    }
    start.elapsed().as_secs_f64() / RUNS as f64
}
