//! Scheduler throughput: (a) 1,000 pods onto 5,000 nodes with every node filtered and
//! scored (percentageOfNodesToScore = 100), reported as pod-node filter+score
//! evaluations per second; (b) one pod on a 3-node kind-like cluster with the full trace.
//! The workloads are `podlab_engine::workloads::{LargeSchedule, SmallSchedule}`.
//!
//! Run: `cargo bench -p podlab-engine --bench scheduler`

use std::time::Instant;

use podlab_engine::workloads::{LargeSchedule, SmallSchedule};

/// mimalloc rather than the system allocator: glibc's malloc and free took about half of a
/// lifecycle's instructions (see docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// CPU time this process has used, in seconds (Linux `/proc/self/schedstat`), so the
/// figures do not depend on how busy the shared machine is. None elsewhere.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

#[inline(never)] // its own entry in profiles
fn large() {
    let work = LargeSchedule::new();
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let done = work.run();
    let secs = start.elapsed().as_secs_f64();
    let evaluated = done.evaluated;
    if let (Some(a), Some(b)) = (cpu_start, cpu_seconds()) {
        println!(
            "large (CPU time): {evaluated} evaluations in {:.3} CPU s = {:.1} million evaluations per CPU second",
            b - a,
            evaluated as f64 / (b - a) / 1e6
        );
    }
    println!(
        "large: {} pods onto {} nodes (percentageOfNodesToScore=100): {} scheduled, \
         {evaluated} pod-node filter+score evaluations in {:.3} s = {:.1} million evaluations/s, {:.3} ms per pod",
        LargeSchedule::PODS,
        LargeSchedule::NODES,
        done.scheduled,
        secs,
        evaluated as f64 / secs / 1e6,
        secs * 1e3 / LargeSchedule::PODS as f64
    );
}

#[inline(never)] // its own entry in profiles
fn small() {
    let mut work = SmallSchedule::new();
    const N: usize = 20_000;
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let chosen = work.run(N);
    let secs = start.elapsed().as_secs_f64();
    if let (Some(a), Some(b)) = (cpu_start, cpu_seconds()) {
        println!("small (CPU time): {:.1} us per schedule", (b - a) * 1e6 / N as f64);
    }
    println!(
        "small: one pod on a 3-node cluster with the full trace: {:.1} us per schedule ({N} runs, checksum {chosen})",
        secs * 1e6 / N as f64
    );
}

fn main() {
    small();
    large();
}
