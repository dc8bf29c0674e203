//! `podlab`: the native command line of the podlab engine.

/// mimalloc rather than the system allocator: glibc's malloc and free took about half of a
/// lifecycle's instructions (see docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(podlab_cli::run(&args, &mut std::io::stdout()));
}
