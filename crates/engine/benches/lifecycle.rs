//! A full lifecycle through `lab::run`: `kubectl apply` of a 3-replica nginx Deployment on
//! the default 3-node kind cluster, from kubectl's first request until the cluster settles
//! (Deployment → ReplicaSet → 3 Pods scheduled, pulled, started, Ready; every step traced).
//!
//! Run: `cargo bench -p podlab-engine --bench lifecycle` (prints the mean wall time per run).
//! The same run compiled to wasm32 and timed under Node.js: `scripts/bench-wasm.sh`.

use podlab_engine::lab::{self, LabInput};
use std::time::Instant;

const DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.29
        ports:
        - containerPort: 80
";

fn main() {
    let input = LabInput::new(DEPLOYMENT, "web.yaml");
    let first = lab::run(&input).expect("the default cluster loads");
    let steps = first.steps.len();
    // Warm up, then time enough runs for a stable mean.
    for _ in 0..5 {
        std::hint::black_box(lab::run(&input).expect("runs"));
    }
    let runs = 50;
    let start = Instant::now();
    for _ in 0..runs {
        std::hint::black_box(lab::run(&input).expect("runs"));
    }
    let per_run = start.elapsed().as_secs_f64() / runs as f64;
    println!(
        "3-replica Deployment lifecycle via lab::run: {:.3} ms per run ({steps} steps, settled at {:.1}s of cluster time, {runs} runs)",
        per_run * 1000.0,
        first.end_ms as f64 / 1000.0
    );
}
