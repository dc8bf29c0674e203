fn main() {
    podlab::install_panic_hook();
    leptos::mount::mount_to_body(podlab::App);
}
