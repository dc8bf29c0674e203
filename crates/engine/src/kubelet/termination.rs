//! Pod termination (upstream's `SyncTerminatingPod` and `SyncTerminatedPod` in
//! `pkg/kubelet/kubelet.go`, driven by the pod workers of `pod_workers.go`): a pod whose
//! containers will not run again, graceful deletion, and a pod gone from the API.

use super::containers::{should_restart, CState, Term};
use super::sandbox::Sandbox;
use super::{runtime, status, Kubelet, PodWorker};
use crate::apiserver::{self, ApiRequest, Body, Caller, Verb};
use crate::object::resource_for;
use crate::sim::{object_ref, StepBuilder};
use crate::trace::{Component, Detail, Phase, StepStatus, WatchDetail};
use crate::world::World;

impl Kubelet {
    /// Ends the pod when nothing will run again.
    pub(super) fn check_terminal(&mut self, core: &mut World, w: &mut PodWorker) {
        if w.terminal.is_some() || w.op.is_some() {
            return;
        }
        let policy = w.restart_policy();
        let init_failed = w.ctrs[..w.n_init]
            .iter()
            .any(|c| !c.sidecar && matches!(&c.state, CState::Terminated(t) if t.exit_code != 0) && policy == "Never");
        let apps_done = w.ctrs[w.n_init..]
            .iter()
            .all(|c| matches!(&c.state, CState::Terminated(t) if !should_restart(&policy, t.exit_code)));
        if !(init_failed || (apps_done && w.ctrs.len() > w.n_init)) {
            return;
        }
        // Sidecars are stopped once the app containers are done.
        let mut waiting = false;
        for i in 0..w.n_init {
            if w.ctrs[i].sidecar && w.ctrs[i].running() {
                waiting = true;
                let name = w.ctrs[i].name.clone();
                self.kill(core, w, i, format!("Stopping container {name}"), w.grace_seconds());
            }
        }
        if waiting {
            return;
        }
        let phase = status::phase(w);
        if phase != "Succeeded" && phase != "Failed" {
            return;
        }
        w.terminal = Some(phase.clone());
        let obj = w.reference();
        self.work(
            core,
            Phase::Containers,
            Component::Kubelet,
            Component::Kubelet,
            Some(&obj),
            format!("pod {} is finished: {phase}", w.key),
            "container",
            vec![("phase".into(), phase.clone()), ("restartPolicy".into(), policy)],
            vec![],
            "No container will run again, so the pod is in a terminal phase: the kubelet removes the sandbox and releases the pod's IP. The Pod object stays (kubectl shows Completed or Error) until someone deletes it.".into(),
            if phase == "Succeeded" { StepStatus::Ok } else { StepStatus::Failed },
        );
        self.stop_sandbox(core, w);
    }

    /// Graceful deletion (upstream's SyncTerminatingPod, then the status manager's delete):
    /// write the status as it is now, stop every container and wait for all of them (the pod
    /// worker is blocked in killPod, so nothing is written meanwhile), remove the sandbox,
    /// write the terminal status, then delete the object.
    pub(super) fn terminate(&mut self, core: &mut World, w: &mut PodWorker) {
        if !w.deleting {
            w.deleting = true;
            w.op = None;
            let obj = w.reference();
            core.record(
                StepBuilder::new(
                    Phase::Kubelet,
                    Component::ApiServer,
                    Component::Kubelet,
                    format!("kubelet sees pod {} marked for deletion (grace {}s)", w.key, w.grace_seconds()),
                    Detail::Watch(WatchDetail {
                        watcher: format!("kubelet ({})", self.node),
                        event: "MODIFIED".into(),
                        key: format!("/registry/pods/{}", w.key),
                        revision: core.store.revision(),
                        reason: "metadata.deletionTimestamp is set: the kubelet stops the pod's containers".into(),
                    }),
                )
                .node(self.node.clone())
                .object(Some(object_ref(&obj))),
            );
            // Usually unchanged (and then not written): the containers still run and keep
            // their readiness until they exit.
            self.update_status(core, w);
            let grace = w.grace_seconds();
            for i in (0..w.ctrs.len()).rev() {
                if w.ctrs[i].running() {
                    let name = w.ctrs[i].name.clone();
                    self.kill_terminating(core, w, i, format!("Stopping container {name}"), grace);
                }
            }
        }
        if w.ctrs.iter().any(|c| c.running()) {
            return;
        }
        self.stop_sandbox(core, w);
        if w.terminal.is_none() {
            let all_ok =
                w.ctrs[w.n_init..].iter().all(|c| matches!(&c.state, CState::Terminated(t) if t.exit_code == 0));
            w.terminal = Some(if all_ok { "Succeeded".into() } else { "Failed".into() });
        }
        self.update_status(core, w);
        let obj = w.reference();
        let Some(resource) = resource_for("v1", "Pod") else { return };
        self.work(
            core,
            Phase::Status,
            Component::Kubelet,
            Component::ApiServer,
            Some(&obj),
            format!("kubelet deletes pod {} (grace period 0): its containers are gone", w.key),
            "status",
            vec![],
            vec![],
            "Graceful deletion ends with the kubelet: once the containers have stopped it deletes the object for good, with the pod's UID as a precondition.".into(),
            StepStatus::Ok,
        );
        apiserver::handle(
            core,
            ApiRequest {
                caller: Caller::kubelet(&self.node),
                verb: Verb::Delete,
                resource,
                namespace: Some(w.ns().to_string()),
                name: Some(w.name().to_string()),
                subresource: None,
                body: Some(Body::Json(
                    serde_json::json!({"kind": "DeleteOptions", "apiVersion": "v1", "gracePeriodSeconds": 0, "preconditions": {"uid": w.uid}}),
                )),
                verbose: false,
                file: None,
            },
        );
        w.deleted = true;
    }

    /// The pod vanished from the API (deleted without a grace period): kill what still runs
    /// and remove the sandbox.
    pub(super) fn forget(&mut self, core: &mut World, w: &mut PodWorker) {
        if w.deleted || w.admitted != Some(true) {
            if let Sandbox::Ready { id, .. } | Sandbox::Lost { id, .. } = &w.sandbox {
                if let Some(ipam) = self.ipam.as_mut() {
                    ipam.release(id);
                }
            }
            return;
        }
        let obj = w.reference();
        self.work(
            core,
            Phase::Kubelet,
            Component::ApiServer,
            Component::Kubelet,
            Some(&obj),
            format!("kubelet sees pod {} deleted: it removes what is left on the node", w.key),
            "container",
            vec![],
            vec![],
            "The pod object is gone without a graceful deletion (grace period 0): the kubelet kills the containers at once, removes the sandbox and releases the IP.".into(),
            StepStatus::Ok,
        );
        for i in (0..w.ctrs.len()).rev() {
            if w.ctrs[i].running() {
                let name = w.ctrs[i].name.clone();
                self.event(
                    core,
                    w,
                    Some(i),
                    "Normal",
                    "Killing",
                    format!("Stopping container {name}"),
                    Phase::Containers,
                );
                w.ctrs[i].state = CState::Terminated(Term {
                    exit_code: runtime::EXIT_SIGKILL,
                    reason: "Error".into(),
                    message: None,
                    started_ms: w.ctrs[i].started_ms(),
                    finished_ms: core.now,
                    container_id: w.ctrs[i].current_id.clone().unwrap_or_default(),
                    signal: None,
                });
            }
        }
        self.stop_sandbox(core, w);
    }
}
