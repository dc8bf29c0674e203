//! Fuzzes a whole lab run: the learner's file goes through kubectl, authentication, RBAC,
//! every admission plugin (mutating and validating, webhooks, Pod Security, quota), validation
//! and the etcd write, then through the controllers, scheduler and kubelets until the cluster
//! settles. Or, with the mode bit set, the fuzzed text is the *cluster* file and a fixed Pod is
//! applied to it (cluster loading, LabSettings, webhooks and policies from untrusted text).
//! Run: `RUSTC_BOOTSTRAP=1 cargo fuzz run admit` from `crates/engine`.
//!
//! The first byte picks the setting: bits 0-1 the cluster preset, bit 2 `--as alice` or
//! `--user bob` where the preset has them, bit 3 the mode.

#![no_main]

use libfuzzer_sys::fuzz_target;
use podlab_engine::cluster::PRESETS;
use podlab_engine::lab::{self, Identity, LabInput};

const FIXED_POD: &str = "apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: dev
spec:
  containers:
  - name: web
    image: nginx:1.29
    resources:
      requests: {cpu: 100m, memory: 64Mi}
";

fuzz_target!(|data: &[u8]| {
    let Some((&setting, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest).into_owned();
    let (_, preset) = PRESETS[usize::from(setting & 3) % PRESETS.len()];
    let mut input = if setting & 8 == 0 {
        let mut input = LabInput::new(text, "f.yaml");
        input.cluster = Some(preset.to_string());
        input
    } else {
        let mut input = LabInput::new(FIXED_POD, "pod.yaml");
        input.cluster = Some(text);
        input
    };
    if setting & 4 != 0 {
        if setting & 16 == 0 {
            input.identity = Some(Identity { user: "alice".into(), groups: vec!["developers".into()] });
        } else {
            input.user = Some("bob".into());
        }
    }
    // A run either produces its trace or says why the lab could not start; never a panic.
    if let Ok(run) = lab::run(&input) {
        let _ = serde_json::to_string(&run.steps);
    }
});
