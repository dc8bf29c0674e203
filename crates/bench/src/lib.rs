//! The engine's benchmark workloads (`podlab_engine::workloads`) behind a C ABI with no
//! bindings, so the same code runs as a bare wasm32 module under Node.js and natively
//! (`src/main.rs`); `scripts/bench-ratio.sh` times both and prints the wasm/native ratio.
//!
//! - `lifecycle(n)`: runs the 3-replica Deployment lifecycle `n` times; returns the trace
//!   length of the last run (0 when `n` is 0 or the default cluster failed to load).
//! - `large_prepare()` then `large_run()`: builds the 5,000-node, 1,000-pod scheduling
//!   workload (untimed), then schedules it; returns the pod-node evaluations made.

use std::cell::RefCell;

use podlab_engine::workloads::{self, LargeSchedule};

/// The lab page's allocator (`src/lib.rs`), so the module runs the engine as the page does.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: podlab_alloc::SizeClasses<std::alloc::System> = podlab_alloc::SizeClasses::new(std::alloc::System);

thread_local! {
    static LARGE: RefCell<Option<LargeSchedule>> = const { RefCell::new(None) };
}

/// Runs the lifecycle workload `n` times; the step count of the last run.
#[no_mangle]
pub extern "C" fn lifecycle(n: u32) -> u32 {
    let mut steps = 0;
    for _ in 0..n {
        steps = workloads::lifecycle().map(|(steps, _)| steps as u32).unwrap_or(0);
    }
    steps
}

/// Builds the large scheduling workload for the next [`large_run`].
#[no_mangle]
pub extern "C" fn large_prepare() {
    LARGE.with(|l| *l.borrow_mut() = Some(LargeSchedule::new()));
}

/// Schedules the workload [`large_prepare`] built; the number of pod-node filter+score
/// evaluations (0 when nothing was prepared).
#[no_mangle]
pub extern "C" fn large_run() -> u32 {
    LARGE.with(|l| l.borrow_mut().take()).map(|w| w.run().evaluated as u32).unwrap_or(0)
}
