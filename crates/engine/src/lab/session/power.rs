//! A node's machine lost and booted again: `lab power-off NODE` and `lab power-on NODE`.
//!
//! Powered off, the node's kubelet takes no part in the cluster (as a stopped kubelet: no
//! node status, no Lease renewal, so the node-lifecycle controller and the taint eviction
//! controller do what they do for `lab stop kubelet`), and the machine's containers and
//! sandboxes are gone with it (`Kubelet::power_off`, in `kubelet/power.rs`). Powered on, the
//! kubelet boots with containerd's records and an empty memory (`Kubelet::power_on`).
//!
//! The session keeps `node/NODE` among its stopped components while the machine is off, and
//! `kubelet/NODE` with it (the kubelet does not run either), so [`Session::stopped`] tells
//! both and every reader of `kubelet/NODE` keeps its meaning.
//!
//! The control-plane node is refused: powering it off takes etcd and kube-apiserver with it,
//! and kubectl with them; the lab says so and points to `lab stop kube-apiserver`.

use super::*;

impl Session {
    /// The stopped-set marker of a powered-off node.
    pub(super) fn power_marker(node: &str) -> String {
        format!("node/{node}")
    }

    /// Whether `node`'s machine is powered off.
    pub(super) fn powered_off(&self, node: &str) -> bool {
        self.stopped.contains(&Self::power_marker(node))
    }

    /// `lab power-off NODE` / `lab power-on NODE`.
    pub(super) fn power(&mut self, action: &str, node: Option<&String>, usage: &str) -> Output {
        let Some(node) = node else { return Output::error(usage) };
        if !self.kubelets.iter().any(|k| k.node_name() == node) {
            return Output::error(format!("lab: no node named {node} in this cluster"));
        }
        if self.is_control_plane(node) {
            return Output::error(format!(
                "lab: {node} runs the control plane (etcd, kube-apiserver, kube-controller-manager and kube-scheduler as static Pods): powering it off stops the whole cluster, and kubectl could reach nothing until it boots again; the lab does not model that. `lab stop kube-apiserver` or `lab stop etcd` shows what clients see while the control plane is away; `lab power-off` a worker node shows a machine lost"
            ));
        }
        let kubelet = format!("kubelet/{node}");
        let marker = Self::power_marker(node);
        if action == "power-off" {
            if self.powered_off(node) {
                return Output { stdout: format!("{node} is already powered off\n"), ..Output::default() };
            }
            let text = format!(
                "{node} powered off: every container and pod sandbox on it died with the machine, and its kubelet stopped posting node status and renewing its Lease. Nobody tells the API server: after the node monitor grace period (50s) the node-lifecycle controller sets the node's conditions to Unknown and taints it {}, and the taint eviction controller deletes its Pods once their toleration runs out (300s by default); they stay Terminating, since no kubelet confirms the kill (as `docker stop {node}` does to kind's node container)",
                crate::controllers::nodelifecycle::TAINT_UNREACHABLE
            );
            self.lab_note(&text, true);
            self.stopped.insert(marker);
            // A kubelet stopped before (`lab stop kubelet`) left its containers running; they
            // die now all the same.
            self.stopped.insert(kubelet);
            if let Some(k) = self.kubelets.iter_mut().find(|k| k.node_name() == node) {
                k.power_off(&mut self.world);
            }
            return Output { stdout: format!("{text}\n"), ..Output::default() };
        }
        if !self.powered_off(node) {
            return Output { stdout: format!("{node} is already powered on\n"), ..Output::default() };
        }
        let mut text = format!(
            "{node} powered on: containerd finds its old sandboxes not ready and its containers exited (255, Unknown); the kubelet starts with an empty memory, posts its node status (Ready again, so the node-lifecycle controller lifts the {} taints), lists its Pods from the API server, re-creates the sandbox of each Pod still bound to it (SandboxChanged, a new IP, each container's restart count one higher) and completes the deletion of those deleted while it was off (as `docker start {node}` does)",
            crate::controllers::nodelifecycle::TAINT_UNREACHABLE
        );
        if self.api_down() {
            text.push_str(
                "; kube-apiserver is down, so the kubelet runs its Pods from what it last knew and its writes are refused until it is back",
            );
        }
        self.lab_note(&text, false);
        self.stopped.remove(&marker);
        self.stopped.remove(&kubelet);
        let events = self.world.store.relist("/registry/");
        if let Some(k) = self.kubelets.iter_mut().find(|k| k.node_name() == node) {
            k.power_on(&mut self.world);
            for ev in &events {
                k.observe(&mut self.world, ev);
            }
        }
        Output { stdout: format!("{text}\n"), ..Output::default() }
    }

    /// Whether the Node `node` carries kind's control-plane role label.
    fn is_control_plane(&self, node: &str) -> bool {
        match self.world.store.get(&format!("/registry/minions/{node}")) {
            Some((crate::object::Object::Node(n), _)) => {
                n.metadata.labels.as_ref().is_some_and(|l| l.contains_key("node-role.kubernetes.io/control-plane"))
            }
            _ => false,
        }
    }
}
