//! A full lifecycle through `lab::run`: `kubectl apply` of a 3-replica nginx Deployment on
//! the default 3-node kind cluster, from kubectl's first request until the cluster settles
//! (Deployment → ReplicaSet → 3 Pods scheduled, pulled, started, Ready; every step traced).
//! The workload is `podlab_engine::workloads::lifecycle`.
//!
//! Run: `cargo bench -p podlab-engine --bench lifecycle` (prints the mean wall time per run).
//! The same run compiled to wasm32 under Node.js, against native: `scripts/bench-ratio.sh`.

use podlab_engine::workloads;
use std::time::Instant;

fn main() {
    let (steps, end_ms) = workloads::lifecycle().expect("the default cluster loads");
    // Warm up, then time enough runs for a stable mean.
    for _ in 0..5 {
        std::hint::black_box(workloads::lifecycle().expect("runs"));
    }
    let runs = 50;
    let start = Instant::now();
    for _ in 0..runs {
        std::hint::black_box(workloads::lifecycle().expect("runs"));
    }
    let per_run = start.elapsed().as_secs_f64() / runs as f64;
    println!(
        "3-replica Deployment lifecycle via lab::run: {:.3} ms per run ({steps} steps, settled at {:.1}s of cluster time, {runs} runs)",
        per_run * 1000.0,
        end_ms as f64 / 1000.0
    );
}
