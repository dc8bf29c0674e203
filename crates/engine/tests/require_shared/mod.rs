//! What a corpus test does when `../shared` is not beside the project: people who clone the
//! project alone get a skip with a message; CI (`PODLAB_REQUIRE_SHARED=1`, set by `.ci/run`)
//! gets a failure, so a corpus that went missing never passes as a skip.

use std::path::Path;

/// Whether `dir` is there; when it is not, panics under `PODLAB_REQUIRE_SHARED=1` and
/// otherwise prints that the test is skipped.
pub fn present(dir: &Path) -> bool {
    if dir.is_dir() {
        return true;
    }
    let required = std::env::var("PODLAB_REQUIRE_SHARED").is_ok_and(|v| v == "1");
    assert!(!required, "{} is absent and PODLAB_REQUIRE_SHARED=1: the corpus must be there", dir.display());
    eprintln!("skipped: {} is absent (the shared material sits beside the project)", dir.display());
    false
}
