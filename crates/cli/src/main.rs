//! `podlab`: the native command line of the podlab engine.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(podlab_cli::run(&args, &mut std::io::stdout()));
}
