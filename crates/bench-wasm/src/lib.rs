//! `run(n)`: the lifecycle benchmark's run (`crates/engine/benches/lifecycle.rs`: a 3-replica
//! Deployment on the default cluster through `lab::run`) `n` times; returns the number of
//! trace steps of the last run (so the work cannot be optimised away). Built for
//! `wasm32-unknown-unknown` and timed by `scripts/bench-wasm.mjs` under Node.js.

use podlab_engine::lab::{self, LabInput};

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

/// Runs the lab `n` times; the step count of the last run (0 when `n` is 0 or a run failed).
#[no_mangle]
pub extern "C" fn run(n: u32) -> u32 {
    let input = LabInput::new(DEPLOYMENT, "web.yaml");
    let mut steps = 0;
    for _ in 0..n {
        steps = lab::run(&input).map(|r| r.steps.len() as u32).unwrap_or(0);
    }
    steps
}
