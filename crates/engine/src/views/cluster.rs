//! The cluster panel's node summary at one revision: each Node as etcd holds it then
//! (capacity, allocatable, labels, taints) and the Pods still on it ([`Snapshot::pods_on_node`],
//! as `kubectl describe node` lists them), with their requests summed as `describe node` sums
//! them ([`pod_requests`]).

use super::{node_roles, pod_requests, Snapshot};
use crate::object::Object;
use crate::quantity::Quantity;
use crate::store::Store;

/// One node at one revision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeSummary {
    pub name: String,
    pub roles: Vec<String>,
    /// The Ready condition's status (`True`, `False`, `Unknown`).
    pub ready: String,
    /// `cpu`, `memory`, `pods` capacity as the Node states them.
    pub capacity: Vec<(String, String)>,
    pub labels: Vec<(String, String)>,
    /// `key=value:Effect`.
    pub taints: Vec<String>,
    /// Pods bound to the node and not finished.
    pub pods: Vec<String>,
    pub cpu: Usage,
    pub memory: Usage,
    pub pod_count: Usage,
}

/// Requested against allocatable, as numbers for a bar and as text.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Usage {
    pub used: i128,
    pub allocatable: i128,
    pub used_text: String,
    pub allocatable_text: String,
}

impl Usage {
    /// Percentage of allocatable that is requested, 0..=100 (more is shown as 100).
    pub fn percent(&self) -> u32 {
        if self.allocatable <= 0 {
            return 0;
        }
        ((self.used * 100) / self.allocatable).clamp(0, 100) as u32
    }
}

fn quantity(text: Option<&str>) -> Option<Quantity> {
    Quantity::parse(text?).ok()
}

fn cpu_text(milli: i128) -> String {
    if milli % 1000 == 0 {
        format!("{}", milli / 1000)
    } else {
        format!("{milli}m")
    }
}

fn memory_text(bytes: i128) -> String {
    const MI: i128 = 1024 * 1024;
    if bytes >= 1024 * MI {
        format!("{:.1}Gi", bytes as f64 / (1024 * MI) as f64)
    } else {
        format!("{}Mi", bytes / MI)
    }
}

/// Every node at `revision`, in etcd order.
pub fn nodes_at(store: &Store<Object>, revision: u64) -> Vec<NodeSummary> {
    let snap = Snapshot::new(store, revision, 0);
    snap.nodes()
        .into_iter()
        .map(|node| {
            let name = node.metadata.name.clone().unwrap_or_default();
            let status = node.status.as_ref();
            let alloc =
                |r: &str| status.and_then(|s| s.allocatable.as_ref()).and_then(|m| m.get(r)).map(|q| q.0.as_str());
            let cap = |r: &str| status.and_then(|s| s.capacity.as_ref()).and_then(|m| m.get(r)).map(|q| q.0.clone());
            let on_node = snap.pods_on_node(&name);
            let mut cpu = 0i128;
            let mut mem = 0i128;
            for p in &on_node {
                let req = pod_requests(p);
                cpu += req.get("cpu").map(|q| q.milli()).unwrap_or(0);
                mem += req.get("memory").map(|q| q.value()).unwrap_or(0);
            }
            let cpu_alloc = quantity(alloc("cpu")).map(|q| q.milli()).unwrap_or(0);
            let mem_alloc = quantity(alloc("memory")).map(|q| q.value()).unwrap_or(0);
            let pods_alloc = quantity(alloc("pods")).map(|q| q.value()).unwrap_or(0);
            let ready = status
                .and_then(|s| s.conditions.as_ref())
                .and_then(|c| c.iter().find(|c| c.type_ == "Ready"))
                .map(|c| c.status.clone())
                .unwrap_or_else(|| "Unknown".into());
            NodeSummary {
                roles: node_roles(node),
                ready,
                capacity: ["cpu", "memory", "pods"]
                    .into_iter()
                    .filter_map(|r| cap(r).map(|v| (r.to_string(), v)))
                    .collect(),
                labels: node.metadata.labels.iter().flatten().map(|(k, v)| (k.clone(), v.clone())).collect(),
                taints: node
                    .spec
                    .as_ref()
                    .and_then(|s| s.taints.as_ref())
                    .into_iter()
                    .flatten()
                    .map(|t| match &t.value {
                        Some(v) if !v.is_empty() => format!("{}={v}:{}", t.key, t.effect),
                        _ => format!("{}:{}", t.key, t.effect),
                    })
                    .collect(),
                pods: on_node
                    .iter()
                    .map(|p| {
                        let ns = p.metadata.namespace.as_deref().unwrap_or("");
                        format!("{ns}/{}", p.metadata.name.as_deref().unwrap_or(""))
                    })
                    .collect(),
                cpu: Usage {
                    used: cpu,
                    allocatable: cpu_alloc,
                    used_text: cpu_text(cpu),
                    allocatable_text: cpu_text(cpu_alloc),
                },
                memory: Usage {
                    used: mem,
                    allocatable: mem_alloc,
                    used_text: memory_text(mem),
                    allocatable_text: memory_text(mem_alloc),
                },
                pod_count: Usage {
                    used: on_node.len() as i128,
                    allocatable: pods_alloc,
                    used_text: on_node.len().to_string(),
                    allocatable_text: pods_alloc.to_string(),
                },
                name,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::{run, LabInput};

    #[test]
    fn the_default_cluster_has_three_nodes() {
        let r = run(&LabInput::new("", "x.yaml")).unwrap();
        let nodes = nodes_at(r.store(), r.final_revision);
        let names: Vec<_> = nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["kind-control-plane", "kind-worker", "kind-worker2"]);
        let cp = &nodes[0];
        assert_eq!(cp.roles, ["control-plane"]);
        assert_eq!(cp.taints, ["node-role.kubernetes.io/control-plane:NoSchedule"]);
        assert_eq!(cp.ready, "True");
        assert_eq!(cp.cpu.allocatable_text, "4");
        assert_eq!(cp.memory.allocatable_text, "7.8Gi");
        assert_eq!(cp.pod_count.allocatable, 110);
        assert_eq!(cp.cpu.percent(), 0);
    }

    #[test]
    fn usage_percent_is_clamped() {
        let u = Usage { used: 3, allocatable: 2, ..Usage::default() };
        assert_eq!(u.percent(), 100);
        assert_eq!(Usage::default().percent(), 0);
    }
}
