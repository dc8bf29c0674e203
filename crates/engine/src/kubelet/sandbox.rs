//! The pod sandbox (upstream's `pkg/kubelet/kuberuntime/kuberuntime_sandbox.go`): CRI
//! RunPodSandbox with the CNI ADD that gives the pod its network, and StopPodSandbox with
//! the CNI DEL that releases its address.

use super::{cgroups, cni, images, runtime, Kubelet, PodWorker, POD_WORKER_BACKOFF_MS};
use crate::trace::{Component, Phase, StepStatus};
use crate::world::World;

/// When the sandbox network is set up, counted from RunPodSandbox.
pub const CNI_AT_MS: u64 = 150;
/// The DNS service IP kind clusters use (`clusterDNS`).
pub const CLUSTER_DNS: &str = "10.96.0.10";

/// The sandbox (pause container + network namespace).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Sandbox {
    None,
    /// RunPodSandbox in progress: the network is set up at `cni_at`, the sandbox is ready
    /// at `ready_at`.
    Creating {
        id: String,
        netns: String,
        cni_at: u64,
        ready_at: u64,
        ip: Option<u32>,
        veth: String,
    },
    Ready {
        id: String,
        netns: String,
        ip: u32,
        veth: String,
    },
    /// Creation failed; a new attempt at `retry_at`.
    Failed {
        retry_at: u64,
    },
    Stopped {
        ip: Option<u32>,
    },
    /// The machine lost power while the sandbox existed: the pause process and the network
    /// namespace are gone, but containerd's record of the sandbox (NOTREADY) survives on disk,
    /// and so does host-local's reservation of its address (released by the CNI DEL of the
    /// StopPodSandbox the kubelet sends after the reboot).
    Lost {
        id: String,
        ip: Option<u32>,
    },
}

impl Kubelet {
    /// The sandbox: RunPodSandbox, CNI ADD; `true` once ready.
    pub(super) fn sandbox_ready(&mut self, core: &mut World, w: &mut PodWorker) -> bool {
        let obj = w.reference();
        loop {
            match w.sandbox.clone() {
                Sandbox::Ready { .. } => return true,
                Sandbox::Stopped { .. } => return false,
                Sandbox::Lost { .. } => {
                    if !self.sandbox_changed(core, w) {
                        return false;
                    }
                }
                Sandbox::Failed { retry_at } if core.now < retry_at => {
                    self.wake(core, w, retry_at, true);
                    return false;
                }
                Sandbox::Failed { .. } => w.sandbox = Sandbox::None,
                Sandbox::None => {
                    let id = runtime::new_container_id(&mut core.rng);
                    let netns = format!("{}/cni-{}", runtime::NETNS_DIR, core.rng.uuid());
                    let cni_at = core.now + CNI_AT_MS;
                    let ready_at = core.now + runtime::SANDBOX_CREATE_MS;
                    let hostname =
                        w.pod.spec.as_ref().and_then(|s| s.hostname.clone()).unwrap_or_else(|| w.name().to_string());
                    let cgroup = cgroups::pod_cgroup_path(w.qos, &w.uid);
                    self.work(
                        core,
                        Phase::Runtime,
                        Component::Kubelet,
                        Component::Runtime,
                        Some(&obj),
                        format!("kubelet → containerd: RunPodSandbox for {}", w.key),
                        "sandbox",
                        vec![
                            ("CRI call".into(), "RunPodSandbox".into()),
                            ("sandbox ID".into(), id.clone()),
                            ("pause image".into(), format!("{} (already present: the runtime's pinned sandbox image)", images::PAUSE_IMAGE)),
                            ("network namespace".into(), netns.clone()),
                            ("hostname".into(), hostname),
                            ("cgroup parent".into(), format!("{}/{cgroup}", cgroups::CGROUP_ROOT)),
                            ("DNS".into(), format!("nameserver {CLUSTER_DNS}, search {}.svc.cluster.local svc.cluster.local cluster.local, options ndots:5", w.ns())),
                        ],
                        vec![],
                        "The sandbox is the pod's shared environment: a network namespace (and IPC/UTS namespaces) held open by the tiny pause process. Every container of the pod joins it, which is why they share one IP and can talk over localhost.".into(),
                        StepStatus::Ok,
                    );
                    w.sandbox = Sandbox::Creating { id, netns, cni_at, ready_at, ip: None, veth: String::new() };
                    self.wake(core, w, cni_at, false);
                    return false;
                }
                Sandbox::Creating { id, netns, cni_at, ready_at, ip: None, .. } => {
                    if core.now < cni_at {
                        self.wake(core, w, cni_at, false);
                        return false;
                    }
                    let ipam = self
                        .ipam
                        .get_or_insert_with(|| cni::HostLocal::new(cni::Ipv4Net { addr: 0x0af4_0100, prefix: 24 }));
                    match cni::add(ipam, self.config.faults.cni.as_ref(), &id, &mut core.rng) {
                        Ok(res) => {
                            let ip = cni::ip_to_string(res.ip);
                            let gw = cni::ip_to_string(res.gateway);
                            let range = ipam.range_set();
                            let in_use = ipam.allocated.len();
                            self.work(
                                core,
                                Phase::Cni,
                                Component::Runtime,
                                Component::Cni,
                                Some(&obj),
                                format!("CNI ADD ({}): {} gets {ip}", cni::CNI_PLUGIN_TYPE, w.key),
                                "cni",
                                vec![
                                    ("network".into(), format!("{} (plugin type {:?}, IPAM host-local)", cni::CNI_NETWORK_NAME, cni::CNI_PLUGIN_TYPE)),
                                    ("container ID".into(), id.clone()),
                                    ("netns".into(), netns.clone()),
                                    ("host side".into(), format!("{} ({}) with {gw}/32", res.host_veth, res.host_mac)),
                                    ("pod side".into(), format!("{} ({}) with {ip}/{}", cni::POD_INTERFACE, res.pod_mac, res.prefix)),
                                    ("routes in the pod".into(), format!("default via {gw} dev {}", cni::POD_INTERFACE)),
                                    ("route on the node".into(), format!("{ip} dev {} scope host", res.host_veth)),
                                    ("IPAM range".into(), format!("{range} ({in_use} in use, gateway {gw} never handed out)")),
                                    ("MTU".into(), cni::POD_MTU.to_string()),
                                ],
                                vec![],
                                "containerd runs the CNI plugins of /etc/cni/net.d with the sandbox's network namespace. ptp creates a veth pair, moves one end into the pod as eth0, and host-local picks the next free address of the node's podCIDR.".into(),
                                StepStatus::Ok,
                            );
                            w.sandbox = Sandbox::Creating {
                                id,
                                netns,
                                cni_at,
                                ready_at,
                                ip: Some(res.ip),
                                veth: res.host_veth,
                            };
                        }
                        Err(e) => {
                            let msg = cni::sandbox_failure_message(&id, &e);
                            self.work(
                                core,
                                Phase::Cni,
                                Component::Runtime,
                                Component::Cni,
                                Some(&obj),
                                format!("CNI ADD ({}) fails for {}", cni::CNI_PLUGIN_TYPE, w.key),
                                "cni",
                                vec![("plugin error".into(), e.clone())],
                                vec![],
                                "Without a network the sandbox cannot be created: containerd tears it down and the kubelet retries the whole sandbox later. The pod stays ContainerCreating.".into(),
                                StepStatus::Failed,
                            );
                            self.event(core, w, None, "Warning", "FailedCreatePodSandBox", msg, Phase::Cni);
                            let retry_at = core.now + POD_WORKER_BACKOFF_MS;
                            w.sandbox = Sandbox::Failed { retry_at };
                            self.wake(core, w, retry_at, true);
                            return false;
                        }
                    }
                }
                Sandbox::Creating { id, netns, ready_at, ip: Some(ip), veth, .. } => {
                    if core.now < ready_at {
                        self.wake(core, w, ready_at, false);
                        return false;
                    }
                    self.work(
                        core,
                        Phase::Runtime,
                        Component::Runtime,
                        Component::Kubelet,
                        Some(&obj),
                        format!("sandbox of {} is ready ({})", w.key, cni::ip_to_string(ip)),
                        "sandbox",
                        vec![
                            ("sandbox ID".into(), id.clone()),
                            ("pause container".into(), "running".into()),
                            ("pod IP".into(), cni::ip_to_string(ip)),
                        ],
                        vec![],
                        "The pod's network is up, so the kubelet sets PodReadyToStartContainers=True and moves on to the containers.".into(),
                        StepStatus::Ok,
                    );
                    w.sandbox = Sandbox::Ready { id, netns, ip, veth };
                    return true;
                }
            }
        }
    }

    pub(super) fn stop_sandbox(&mut self, core: &mut World, w: &mut PodWorker) {
        if let Sandbox::Lost { id, ip } = w.sandbox.clone() {
            self.stop_lost_sandbox(core, w, &id, ip);
            return;
        }
        let Sandbox::Ready { id, netns, ip, veth } = w.sandbox.clone() else {
            if !matches!(w.sandbox, Sandbox::Stopped { .. }) {
                w.sandbox = Sandbox::Stopped { ip: None };
            }
            return;
        };
        let obj = w.reference();
        if let Some(ipam) = self.ipam.as_mut() {
            ipam.release(&id);
        }
        self.work(
            core,
            Phase::Cni,
            Component::Runtime,
            Component::Cni,
            Some(&obj),
            format!("CNI DEL: {} releases {}", w.key, cni::ip_to_string(ip)),
            "cni",
            vec![("netns".into(), netns), ("veth removed".into(), veth), ("address released".into(), cni::ip_to_string(ip))],
            vec![],
            "StopPodSandbox tears the network down: the veth pair goes and host-local frees the address (it is handed out again only after the rest of the range).".into(),
            StepStatus::Ok,
        );
        w.sandbox = Sandbox::Stopped { ip: Some(ip) };
    }
}
