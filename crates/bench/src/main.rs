//! The native half of `scripts/bench-ratio.sh`: times the same calls, in the same order,
//! that `scripts/bench-ratio.mjs` makes on the wasm32 module, and prints one JSON line.
//! Usage: podlab-bench-native [lifecycle runs, default 50] [warm-up ms, default 5000]
//!
//! Warm-up: lifecycle runs until the warm-up time has passed (at least five), as the wasm
//! side does; Node.js compiles wasm with a baseline compiler first and optimises hot
//! functions while they run, so a short warm-up would time the baseline code.

use std::time::Instant;

use podlab_bench::{large_prepare, large_run, lifecycle};

/// mimalloc rather than the system allocator: glibc's malloc and free took about half of a
/// lifecycle's instructions (see docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let arg = |i: usize, default: u32| std::env::args().nth(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (runs, warmup_ms) = (arg(1, 50), arg(2, 5000));
    let warm = Instant::now();
    let mut steps = lifecycle(5);
    while warm.elapsed().as_secs_f64() * 1e3 < f64::from(warmup_ms) {
        steps = lifecycle(1);
    }
    let start = Instant::now();
    std::hint::black_box(lifecycle(runs));
    let lifecycle_ms = start.elapsed().as_secs_f64() * 1e3 / runs as f64;
    large_prepare();
    let start = Instant::now();
    let evaluated = large_run();
    let large_ms = start.elapsed().as_secs_f64() * 1e3;
    println!(
        "{{\"lifecycle_ms\":{lifecycle_ms:.4},\"steps\":{steps},\"runs\":{runs},\"large_ms\":{large_ms:.2},\"evaluated\":{evaluated}}}"
    );
}
