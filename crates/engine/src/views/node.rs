//! `kubectl describe node`: conditions, addresses, capacity, system info, the non-terminated
//! pods and the "Allocated resources" block, with requests and limits summed the way
//! component-helpers' `PodRequests`/`PodLimits` do (sidecars, init containers, overhead).

use super::describe::{describe_events, print_annotations_multiline, print_labels_multiline, PrefixWriter};
use super::format::{rfc1123z, rfc1123z_opt, Clock};
use super::printers::node_roles;
use crate::quantity::Quantity;
use k8s_openapi::api::core::v1::{Event, Node, Pod};

pub use crate::resource::{pod_limits, pod_requests};
use crate::resource::{resource_list as parse_list, ResourceList, Totals};

/// `int64(float64(a)/float64(b)*100)`, 0 when the node reports no capacity.
fn percent(a: i128, b: i128) -> i64 {
    if b == 0 {
        return 0;
    }
    (a as f64 / b as f64 * 100.0) as i64
}

fn get(list: &ResourceList, name: &str) -> Quantity {
    list.get(name).copied().unwrap_or(Quantity::ZERO)
}

/// A node lease as the describer shows it.
pub struct LeaseInfo {
    pub holder_identity: Option<String>,
    pub acquire_time: Option<k8s_openapi::jiff::Timestamp>,
    pub renew_time: Option<k8s_openapi::jiff::Timestamp>,
}

/// `kubectl describe node`: `pods` are the node's non-terminated pods, `events` the events
/// about the node, `lease` its lease in `kube-node-lease` (if any).
pub fn describe_node(node: &Node, pods: &[&Pod], events: &[&Event], lease: Option<&LeaseInfo>, clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    let name = node.metadata.name.clone().unwrap_or_default();
    w.write(0, &format!("Name:\t{name}\n"));
    let roles = node_roles(node);
    w.write(0, &format!("Roles:\t{}\n", if roles.is_empty() { "<none>".to_string() } else { roles.join(",") }));
    print_labels_multiline(&mut w, "Labels", node.metadata.labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", node.metadata.annotations.as_ref());
    w.write(0, &format!("CreationTimestamp:\t{}\n", rfc1123z_opt(node.metadata.creation_timestamp.as_ref())));
    let spec = node.spec.clone().unwrap_or_default();
    let mut taints = spec.taints.clone().unwrap_or_default();
    w.write(0, "Taints:\t");
    if taints.is_empty() {
        w.line("<none>");
    } else {
        crate::sort::sort_by(&mut taints, |a, b| {
            format!("{},{}", a.effect, a.key).cmp(&format!("{},{}", b.effect, b.key))
        });
        for (i, t) in taints.iter().enumerate() {
            if i != 0 {
                w.write(0, "\t");
            }
            let value = t.value.as_deref().unwrap_or("");
            let text = match (t.effect.is_empty(), value.is_empty()) {
                (true, true) => t.key.clone(),
                (true, false) => format!("{}={value}", t.key),
                (false, true) => format!("{}:{}", t.key, t.effect),
                (false, false) => format!("{}={value}:{}", t.key, t.effect),
            };
            w.write(0, &format!("{text}\n"));
        }
    }
    w.write(0, &format!("Unschedulable:\t{}\n", spec.unschedulable.unwrap_or(false)));
    match lease {
        Some(l) => {
            w.write(0, "Lease:\n");
            w.write(1, &format!("HolderIdentity:\t{}\n", l.holder_identity.as_deref().unwrap_or("<unset>")));
            let time = |t: &Option<k8s_openapi::jiff::Timestamp>| t.as_ref().map(rfc1123z).unwrap_or("<unset>".into());
            w.write(1, &format!("AcquireTime:\t{}\n", time(&l.acquire_time)));
            w.write(1, &format!("RenewTime:\t{}\n", time(&l.renew_time)));
        }
        None => w.write(0, &format!("Lease:\tFailed to get lease: leases.coordination.k8s.io \"{name}\" not found\n")),
    }
    let status = node.status.clone().unwrap_or_default();
    if let Some(conditions) = status.conditions.as_ref().filter(|c| !c.is_empty()) {
        w.write(0, "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n");
        w.write(1, "----\t------\t-----------------\t------------------\t------\t-------\n");
        for c in conditions {
            w.write(
                1,
                &format!(
                    "{} \t{} \t{} \t{} \t{} \t{}\n",
                    c.type_,
                    c.status,
                    rfc1123z_opt(c.last_heartbeat_time.as_ref()),
                    rfc1123z_opt(c.last_transition_time.as_ref()),
                    c.reason.as_deref().unwrap_or(""),
                    c.message.as_deref().unwrap_or("")
                ),
            );
        }
    }
    w.write(0, "Addresses:\n");
    for a in status.addresses.iter().flatten() {
        w.write(1, &format!("{}:\t{}\n", a.type_, a.address));
    }
    let capacity = parse_list(status.capacity.as_ref());
    let allocatable_list = parse_list(status.allocatable.as_ref());
    for (title, list) in [("Capacity", &capacity), ("Allocatable", &allocatable_list)] {
        if !list.is_empty() {
            w.write(0, &format!("{title}:\n"));
            for (k, v) in list {
                w.write(0, &format!("  {k}:\t{v}\n"));
            }
        }
    }
    let info = status.node_info.clone().unwrap_or_default();
    w.write(0, "System Info:\n");
    for (k, v) in [
        ("Machine ID", &info.machine_id),
        ("System UUID", &info.system_uuid),
        ("Boot ID", &info.boot_id),
        ("Kernel Version", &info.kernel_version),
        ("OS Image", &info.os_image),
        ("Operating System", &info.operating_system),
        ("Architecture", &info.architecture),
        ("Container Runtime Version", &info.container_runtime_version),
        ("Kubelet Version", &info.kubelet_version),
    ] {
        w.write(0, &format!("  {k}:\t{v}\n"));
    }
    if let Some(cidr) = spec.pod_cidr.as_deref().filter(|s| !s.is_empty()) {
        w.write(0, &format!("PodCIDR:\t{cidr}\n"));
    }
    if let Some(cidrs) = spec.pod_cidrs.as_ref().filter(|c| !c.is_empty()) {
        w.write(0, &format!("PodCIDRs:\t{}\n", cidrs.join(",")));
    }
    if let Some(p) = spec.provider_id.as_deref().filter(|s| !s.is_empty()) {
        w.write(0, &format!("ProviderID:\t{p}\n"));
    }

    let allocatable = if allocatable_list.is_empty() { &capacity } else { &allocatable_list };
    let alloc_cpu = get(allocatable, "cpu").milli();
    let alloc_mem = get(allocatable, "memory").value();
    w.write(0, &format!("Non-terminated Pods:\t({} in total)\n", pods.len()));
    w.write(1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n");
    w.write(1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n");
    let mut total_req = ResourceList::new();
    let mut total_lim = ResourceList::new();
    for pod in pods {
        let req = pod_requests(pod);
        let lim = pod_limits(pod);
        let (cr, cl, mr, ml) = (get(&req, "cpu"), get(&lim, "cpu"), get(&req, "memory"), get(&lim, "memory"));
        w.write(
            1,
            &format!(
                "{}\t{}\t\t{cr} ({}%)\t{cl} ({}%)\t{mr} ({}%)\t{ml} ({}%)\t{}\n",
                pod.metadata.namespace.as_deref().unwrap_or(""),
                pod.metadata.name.as_deref().unwrap_or(""),
                percent(cr.milli(), alloc_cpu),
                percent(cl.milli(), alloc_cpu),
                percent(mr.value(), alloc_mem),
                percent(ml.value(), alloc_mem),
                clock.since(pod.metadata.creation_timestamp.as_ref())
            ),
        );
        total_req.add(&req);
        total_lim.add(&lim);
    }
    w.write(0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n");
    w.write(1, "Resource\tRequests\tLimits\n");
    w.write(1, "--------\t--------\t------\n");
    let row = |w: &mut PrefixWriter, name: &str, by_milli: bool| {
        let (r, l) = (get(&total_req, name), get(&total_lim, name));
        let a = get(allocatable, name);
        let (pr, pl) = if by_milli {
            (percent(r.milli(), a.milli()), percent(l.milli(), a.milli()))
        } else {
            (percent(r.value(), a.value()), percent(l.value(), a.value()))
        };
        w.write(1, &format!("{name}\t{r} ({pr}%)\t{l} ({pl}%)\n"));
    };
    row(&mut w, "cpu", true);
    row(&mut w, "memory", false);
    row(&mut w, "ephemeral-storage", false);
    for name in allocatable.keys().filter(|k| k.starts_with("hugepages-")) {
        row(&mut w, name, false);
    }
    let standard = |k: &str| {
        matches!(k, "cpu" | "memory" | "ephemeral-storage" | "pods" | "storage")
            || k.starts_with("hugepages-")
            || k.starts_with("requests.")
            || k.starts_with("limits.")
    };
    for name in allocatable.keys().filter(|k| !standard(k)) {
        w.write(1, &format!("{name}\t{}\t{}\n", get(&total_req, name), get(&total_lim, name)));
    }
    describe_events(&mut w, events, clock);
    w.finish()
}
