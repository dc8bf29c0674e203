//! The node's machine loses power and boots again (a live session's `lab power-off NODE` and
//! `lab power-on NODE`).
//!
//! Powering off kills every process of the machine at once: the containers, the pause
//! processes of the sandboxes, the kubelet with everything it kept in memory (its pod workers'
//! timers, the crash-loop and image back-offs, the event aggregation, pulls under way). What
//! is on disk survives: the images, host-local's address reservations
//! (`/var/lib/cni/networks`), the kubelet's pod logs, and containerd's records of the
//! sandboxes and containers (its metadata database). When containerd starts again it finds
//! a container that was running without its task and records it as exited with code 255,
//! reason `Unknown` (containerd's CRI plugin, `unknownExitCode` and `unknownExitReason` in its
//! restart recovery); the sandboxes are NOTREADY.
//!
//! On boot the kubelet lists its Pods from the API server and syncs each one
//! (`computePodActions` in upstream's `kuberuntime_manager.go`):
//! - a Pod not being deleted has a sandbox record that is not ready, so the sandbox has
//!   changed: the kubelet records the Normal event `SandboxChanged` ("Pod sandbox changed, it
//!   will be killed and re-created." — only when a sandbox record exists), stops the old
//!   sandbox (CNI DEL releases its address), purges the init containers so they run again,
//!   creates a new sandbox (a new address) and starts the containers again without back-off
//!   (the back-off was in memory): each restart count goes up by one and the last state is
//!   the container lost with the machine (255, `Unknown`). A Pod with `restartPolicy: Never`
//!   gets no new sandbox: its containers stay exited and it fails;
//! - a Pod deleted while the node was off has nothing left to stop: the kubelet removes the
//!   sandbox, writes the terminal status and completes the deletion (grace period 0).
//!
//! kind's nodes are containers on one host: `docker stop` and `docker start` of a node keep
//! the host kernel's boot ID, so no `Rebooted` event is recorded, as on kind (a real machine
//! would record the Warning `Rebooted` with its new boot ID).

use super::containers::{CState, Term};
use super::images::Backoff;
use super::sandbox::Sandbox;
use super::{cni, events::EventRecorder, Kubelet, PodWorker, CRASH_BACKOFF_INITIAL_MS, CRASH_BACKOFF_MAX_MS};
use crate::object::Object;
use crate::sim::Task;
use crate::trace::{Component, Phase, StepStatus, Table};
use crate::world::World;

/// The exit code containerd reports for a container whose task vanished (its process died
/// with the machine): `unknownExitCode` in containerd's CRI plugin.
pub const LOST_EXIT_CODE: i32 = 255;
/// The reason containerd reports for it (`unknownExitReason`).
pub const LOST_EXIT_REASON: &str = "Unknown";

impl Kubelet {
    /// The machine loses power at `core.now`: every container and sandbox dies, the
    /// kubelet's memory is gone; containerd's records, images and IP reservations stay on
    /// disk. The kubelet takes no part in the cluster until [`Kubelet::power_on`].
    pub fn power_off(&mut self, core: &mut World) {
        let now = core.now;
        let mut rows = Vec::new();
        for w in self.pods.values_mut() {
            let mut lost = Vec::new();
            w.op = None;
            w.wakes.clear();
            w.in_pass = false;
            w.in_sync_kill = None;
            for c in w.ctrs.iter_mut() {
                // A container being created or started never ran; its record is dropped.
                c.container_id = c.current_id.clone();
                c.stopping = None;
                c.probes.clear();
                c.process = None;
                c.next_try = 0;
                if let CState::Running { started_ms } = c.state {
                    lost.push(c.name.clone());
                    c.state = CState::Terminated(Term {
                        exit_code: LOST_EXIT_CODE,
                        reason: LOST_EXIT_REASON.into(),
                        message: None,
                        started_ms: Some(started_ms),
                        finished_ms: now,
                        container_id: c.current_id.clone().unwrap_or_default(),
                        signal: None,
                    });
                }
            }
            let ip = w.pod_ip();
            w.sandbox = match std::mem::replace(&mut w.sandbox, Sandbox::None) {
                Sandbox::Ready { id, ip, .. } => Sandbox::Lost { id, ip: Some(ip) },
                Sandbox::Creating { id, ip, .. } => Sandbox::Lost { id, ip },
                Sandbox::Failed { .. } | Sandbox::None => Sandbox::None,
                other => other,
            };
            if matches!(w.sandbox, Sandbox::Lost { .. }) || !lost.is_empty() {
                rows.push(vec![
                    w.key.clone(),
                    if lost.is_empty() { "-".into() } else { lost.join(", ") },
                    ip.map(cni::ip_to_string).unwrap_or_else(|| "-".into()),
                ]);
            }
        }
        // What the kubelet process kept in memory.
        self.seen.clear();
        self.crash_backoff = Backoff::new(CRASH_BACKOFF_INITIAL_MS, CRASH_BACKOFF_MAX_MS);
        self.image_backoff = Backoff::new(super::images::IMAGE_BACKOFF_INITIAL_MS, super::images::IMAGE_BACKOFF_MAX_MS);
        self.recorder = EventRecorder::new(&self.node);
        self.pulls_in_flight.clear();
        self.last_pull_error.clear();
        self.puller_free_at = 0;
        let node = self.node_obj(core).map(Object::Node);
        let tables = if rows.is_empty() {
            vec![]
        } else {
            vec![Table {
                title: "lost with the machine".into(),
                columns: vec!["pod".into(), "containers killed".into(), "pod IP".into()],
                rows,
            }]
        };
        self.work(
            core,
            Phase::Kubelet,
            Component::Kubelet,
            Component::Kubelet,
            node.as_ref(),
            format!("{} loses power: its containers, sandboxes and kubelet stop at once", self.node),
            "node-heartbeat",
            vec![
                ("node".into(), self.node.clone()),
                ("kubelet".into(), "gone: no node status, Lease renewals, pod syncs or probes".into()),
                ("containers".into(), format!("killed with the machine; containerd will report them exited with {LOST_EXIT_CODE} ({LOST_EXIT_REASON})")),
                ("on disk".into(), "images, containerd's records of sandboxes and containers, host-local's IP reservations, pod logs".into()),
            ],
            tables,
            "Nobody tells the API server: the Pods stay Running in their stored status until the node-lifecycle controller, missing the kubelet's heartbeats for its grace period, sets the node's conditions to Unknown, marks the Pods not ready and taints the node node.kubernetes.io/unreachable.".into(),
            StepStatus::Failed,
        );
    }

    /// The machine boots: containerd starts with its records (every sandbox NOTREADY), the
    /// kubelet starts with an empty memory, posts its node status, lists its Pods from the
    /// API server and syncs each (and each Pod it still has records of, in case it is gone).
    pub fn power_on(&mut self, core: &mut World) {
        self.restart(core);
        let keys: Vec<String> = self.pods.keys().cloned().collect();
        for k in keys {
            core.after(super::WATCH_LATENCY_MS, Task::new(self.target(), format!("sync|{k}")));
        }
    }

    /// The first sync of a Pod whose sandbox was lost with the machine (`computePodActions`:
    /// the sandbox is not ready, so it is killed and, unless the Pod never restarts,
    /// re-created). Returns `true` when a new sandbox is to be created.
    pub(super) fn sandbox_changed(&mut self, core: &mut World, w: &mut PodWorker) -> bool {
        let recreate = w.restart_policy() != "Never";
        if recreate {
            self.event(
                core,
                w,
                None,
                "Normal",
                "SandboxChanged",
                "Pod sandbox changed, it will be killed and re-created.".into(),
                Phase::Runtime,
            );
        }
        self.stop_sandbox(core, w);
        if !recreate {
            self.check_terminal(core, w);
            return false;
        }
        // purgeInitContainers: the init containers run again in the new sandbox.
        for c in w.ctrs[..w.n_init].iter_mut() {
            if let CState::Terminated(t) = &c.state {
                c.last = Some(t.clone());
                c.state = CState::Waiting { reason: String::new(), message: None };
            }
        }
        w.sandbox = Sandbox::None;
        true
    }

    /// StopPodSandbox for a sandbox lost with the machine: nothing runs any more; the CNI DEL
    /// releases the address host-local still holds for it.
    pub(super) fn stop_lost_sandbox(&mut self, core: &mut World, w: &mut PodWorker, id: &str, ip: Option<u32>) {
        let released = self.ipam.as_mut().and_then(|ipam| ipam.release(id)).or(ip);
        let obj = w.reference();
        let address = released.map(cni::ip_to_string).unwrap_or_else(|| "none".into());
        self.work(
            core,
            Phase::Cni,
            Component::Runtime,
            Component::Cni,
            Some(&obj),
            format!("CNI DEL: {} releases {address} (sandbox lost with the machine)", w.key),
            "cni",
            vec![
                ("sandbox ID".into(), id.to_string()),
                ("sandbox state".into(), "NOTREADY: its pause process and network namespace died with the machine".into()),
                ("address released".into(), address),
            ],
            vec![],
            "StopPodSandbox on a sandbox whose network namespace is gone: the CNI plugin has nothing left to tear down, but host-local's reservation survived the reboot on disk and is released now.".into(),
            StepStatus::Ok,
        );
        w.sandbox = Sandbox::Stopped { ip };
    }
}
