//! `kubectl describe pod` (`pkg/describe/describe.go`): the prefix writer (two spaces per
//! level) over the describe tab writer, and every section of a pod's description.

use super::format::{escape_terminal, rfc1123z_opt, Clock};
use super::printers::format_label_selector;
use super::tabwriter::TabWriter;
use crate::quantity::Quantity;
use k8s_openapi::api::core::v1::{
    Container, ContainerState, ContainerStatus, Event, HostPathVolumeSource, NFSVolumeSource, Pod, PodTemplateSpec,
    Probe, ResourceRequirements, Toleration, TopologySpreadConstraint, Volume,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity as ApiQuantity;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use std::collections::BTreeMap;

/// describe.go's `PrefixWriter`: each level indents two spaces; everything is escaped for
/// the terminal and aligned by the describe tab writer.
pub(crate) struct PrefixWriter {
    tw: TabWriter,
}

impl PrefixWriter {
    pub(crate) fn new() -> PrefixWriter {
        PrefixWriter { tw: TabWriter::for_describe() }
    }

    pub(crate) fn write(&mut self, level: usize, text: &str) {
        let mut s = "  ".repeat(level);
        s.push_str(text);
        self.tw.write(&escape_terminal(&s));
    }

    /// `WriteLine`: the text and a newline, without indentation.
    pub(crate) fn line(&mut self, text: &str) {
        self.tw.write(&escape_terminal(&format!("{text}\n")));
    }

    pub(crate) fn flush(&mut self) {
        self.tw.flush();
    }

    pub(crate) fn finish(self) -> String {
        self.tw.finish()
    }
}

fn go_bool(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

/// `printBool`: `True`/`False`.
pub(crate) fn print_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

fn string_or_none(s: &str) -> &str {
    if s.is_empty() {
        "<none>"
    } else {
        s
    }
}

pub(crate) fn canonical_quantity(q: &ApiQuantity) -> String {
    Quantity::parse(&q.0).map(|q| q.to_string()).unwrap_or_else(|_| q.0.clone())
}

/// `printLabelsMultiline` (also used for node selectors): sorted `k=v` lines.
pub(crate) fn print_labels_multiline(w: &mut PrefixWriter, title: &str, labels: Option<&BTreeMap<String, String>>) {
    print_labels_multiline_with_indent(w, "", title, labels);
}

/// `printLabelsMultilineWithIndent`: `indent` starts the title's line and every further
/// `k=v` line (the claim templates of `describe statefulset` indent theirs).
pub(crate) fn print_labels_multiline_with_indent(
    w: &mut PrefixWriter,
    indent: &str,
    title: &str,
    labels: Option<&BTreeMap<String, String>>,
) {
    w.write(0, &format!("{indent}{title}:\t"));
    let labels = match labels {
        Some(l) if !l.is_empty() => l,
        _ => {
            w.line("<none>");
            return;
        }
    };
    for (i, (k, v)) in labels.iter().enumerate() {
        if i != 0 {
            w.write(0, &format!("{indent}\t"));
        }
        w.write(0, &format!("{k}={v}\n"));
    }
}

/// kubectl does not show the annotation `kubectl apply` keeps.
const LAST_APPLIED_CONFIG: &str = "kubectl.kubernetes.io/last-applied-configuration";
const MAX_ANNOTATION_LEN: usize = 140;

fn shorten(s: &str, max: usize) -> String {
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &s[..end])
    } else {
        s.to_string()
    }
}

/// `printAnnotationsMultiline`: `key: value`, long or multi-line values on their own lines.
pub(crate) fn print_annotations_multiline(
    w: &mut PrefixWriter,
    title: &str,
    annotations: Option<&BTreeMap<String, String>>,
) {
    w.write(0, &format!("{title}:\t"));
    let keys: Vec<&String> = annotations.iter().flat_map(|a| a.keys()).filter(|k| *k != LAST_APPLIED_CONFIG).collect();
    if keys.is_empty() {
        w.line("<none>");
        return;
    }
    let annotations = annotations.expect("keys came from it");
    for (i, key) in keys.into_iter().enumerate() {
        if i != 0 {
            w.write(0, "\t");
        }
        let value = annotations[key].strip_suffix('\n').unwrap_or(&annotations[key]);
        if value.len() + key.len() + 2 > MAX_ANNOTATION_LEN || value.contains('\n') {
            w.write(0, &format!("{key}:\n"));
            for s in value.split('\n') {
                w.write(0, &format!("\t  {}\n", shorten(s, MAX_ANNOTATION_LEN - 2)));
            }
        } else {
            w.write(0, &format!("{key}: {value}\n"));
        }
    }
}

/// `printTolerationsMultilineWithIndent`: sorted by key (stable), `key[=value][:effect][
/// op=Exists][ for Ns]`.
pub(crate) fn print_tolerations_multiline(w: &mut PrefixWriter, title: &str, tolerations: &[Toleration]) {
    w.write(0, &format!("{title}:\t"));
    if tolerations.is_empty() {
        w.line("<none>");
        return;
    }
    let mut sorted: Vec<&Toleration> = tolerations.iter().collect();
    crate::sort::sort_by(&mut sorted, |a, b| a.key.as_deref().unwrap_or("").cmp(b.key.as_deref().unwrap_or("")));
    for (i, t) in sorted.into_iter().enumerate() {
        if i != 0 {
            w.write(0, "\t");
        }
        let key = t.key.as_deref().unwrap_or("");
        let value = t.value.as_deref().unwrap_or("");
        let effect = t.effect.as_deref().unwrap_or("");
        let mut s = key.to_string();
        if !value.is_empty() {
            s.push_str(&format!("={value}"));
        }
        if !effect.is_empty() {
            s.push_str(&format!(":{effect}"));
        }
        if t.operator.as_deref() == Some("Exists") && value.is_empty() {
            if !key.is_empty() || !effect.is_empty() {
                s.push_str(" op=Exists");
            } else {
                s.push_str("op=Exists");
            }
        }
        if let Some(secs) = t.toleration_seconds {
            s.push_str(&format!(" for {secs}s"));
        }
        s.push('\n');
        w.write(0, &s);
    }
}

/// `DescribeEvents`: `<none>`, or a table sorted by last timestamp (stable: events of the
/// same second keep the order the API listed them in).
pub(crate) fn describe_events(w: &mut PrefixWriter, events: &[&Event], clock: Clock) {
    if events.is_empty() {
        w.write(0, "Events:\t<none>\n");
        return;
    }
    w.flush();
    let mut sorted: Vec<&Event> = events.to_vec();
    crate::sort::sort_by_key(&mut sorted, |e| {
        e.last_timestamp.as_ref().map(|t| t.0.as_millisecond()).unwrap_or(i64::MIN)
    });
    w.write(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n");
    w.write(1, "----\t------\t----\t----\t-------\n");
    for e in sorted {
        let first = match &e.event_time {
            Some(t) => clock.since_micro(Some(t)),
            None => clock.since(e.first_timestamp.as_ref()),
        };
        let interval = if let Some(series) = &e.series {
            format!(
                "{} (x{} over {first})",
                clock.since_micro(series.last_observed_time.as_ref()),
                series.count.unwrap_or(0)
            )
        } else if e.count.unwrap_or(0) > 1 {
            format!("{} (x{} over {first})", clock.since(e.last_timestamp.as_ref()), e.count.unwrap_or(0))
        } else {
            first
        };
        let source = e
            .source
            .as_ref()
            .and_then(|s| s.component.clone())
            .filter(|s| !s.is_empty())
            .or_else(|| e.reporting_component.clone())
            .unwrap_or_default();
        let mut message = e.message.as_deref().unwrap_or("").trim().to_string();
        if let Some(fp) = e.involved_object.field_path.as_deref().filter(|f| !f.is_empty()) {
            message = format!("{fp}: {message}");
        }
        w.write(
            1,
            &format!(
                "{}\t{}\t{interval}\t{source}\t{message}\n",
                e.type_.as_deref().unwrap_or(""),
                e.reason.as_deref().unwrap_or("")
            ),
        );
    }
}

/// `describeResources`: limits then requests, each sorted by resource name.
pub(crate) fn describe_resources(w: &mut PrefixWriter, resources: Option<&ResourceRequirements>, level: usize) {
    let Some(r) = resources else { return };
    if let Some(limits) = r.limits.as_ref().filter(|l| !l.is_empty()) {
        w.write(level, "Limits:\n");
        for (name, q) in limits {
            w.write(level + 1, &format!("{name}:\t{}\n", canonical_quantity(q)));
        }
    }
    if let Some(requests) = r.requests.as_ref().filter(|l| !l.is_empty()) {
        w.write(level, "Requests:\n");
        for (name, q) in requests {
            w.write(level + 1, &format!("{name}:\t{}\n", canonical_quantity(q)));
        }
    }
}

fn int_or_string(v: &IntOrString) -> String {
    match v {
        IntOrString::Int(i) => i.to_string(),
        IntOrString::String(s) => s.clone(),
    }
}

/// Go's `url.URL.String()` for the pieces a probe has: `scheme://host/path`.
fn probe_url(scheme: &str, host: &str, path: &str) -> String {
    let mut s = String::new();
    if !scheme.is_empty() {
        s.push_str(scheme);
        s.push(':');
    }
    if !scheme.is_empty() || !host.is_empty() {
        s.push_str("//");
        s.push_str(host);
    }
    if !path.is_empty() && !path.starts_with('/') && !host.is_empty() {
        s.push('/');
    }
    s.push_str(path);
    s
}

/// `DescribeProbe` (v1.37 spells the thresholds out: `successThreshold=1 failureThreshold=3`).
pub fn describe_probe(p: &Probe) -> String {
    let attrs = format!(
        "delay={}s timeout={}s period={}s successThreshold={} failureThreshold={}",
        p.initial_delay_seconds.unwrap_or(0),
        p.timeout_seconds.unwrap_or(0),
        p.period_seconds.unwrap_or(0),
        p.success_threshold.unwrap_or(0),
        p.failure_threshold.unwrap_or(0)
    );
    if let Some(exec) = &p.exec {
        return format!("exec [{}] {attrs}", exec.command.clone().unwrap_or_default().join(" "));
    }
    if let Some(h) = &p.http_get {
        let scheme = h.scheme.as_deref().unwrap_or("").to_lowercase();
        let host_name = h.host.as_deref().unwrap_or("");
        let port = int_or_string(&h.port);
        let host = if port.is_empty() {
            host_name.to_string()
        } else if host_name.contains(':') {
            format!("[{host_name}]:{port}")
        } else {
            format!("{host_name}:{port}")
        };
        return format!("http-get {} {attrs}", probe_url(&scheme, &host, h.path.as_deref().unwrap_or("")));
    }
    if let Some(t) = &p.tcp_socket {
        return format!("tcp-socket {}:{} {attrs}", t.host.as_deref().unwrap_or(""), int_or_string(&t.port));
    }
    if let Some(g) = &p.grpc {
        return format!("grpc <pod>:{} {} {attrs}", g.port, g.service.as_deref().unwrap_or(""));
    }
    format!("unknown {attrs}")
}

fn describe_state(w: &mut PrefixWriter, name: &str, state: Option<&ContainerState>) {
    let state = state.cloned().unwrap_or_default();
    if let Some(r) = &state.running {
        w.write(2, &format!("{name}:\tRunning\n"));
        w.write(3, &format!("Started:\t{}\n", rfc1123z_opt(r.started_at.as_ref())));
    } else if let Some(wt) = &state.waiting {
        w.write(2, &format!("{name}:\tWaiting\n"));
        if let Some(reason) = wt.reason.as_deref().filter(|r| !r.is_empty()) {
            w.write(3, &format!("Reason:\t{reason}\n"));
        }
    } else if let Some(t) = &state.terminated {
        w.write(2, &format!("{name}:\tTerminated\n"));
        if let Some(reason) = t.reason.as_deref().filter(|r| !r.is_empty()) {
            w.write(3, &format!("Reason:\t{reason}\n"));
        }
        if let Some(message) = t.message.as_deref().filter(|r| !r.is_empty()) {
            w.write(3, &format!("Message:\t{message}\n"));
        }
        w.write(3, &format!("Exit Code:\t{}\n", t.exit_code));
        if let Some(sig) = t.signal.filter(|s| *s > 0) {
            w.write(3, &format!("Signal:\t{sig}\n"));
        }
        w.write(3, &format!("Started:\t{}\n", rfc1123z_opt(t.started_at.as_ref())));
        w.write(3, &format!("Finished:\t{}\n", rfc1123z_opt(t.finished_at.as_ref())));
    } else {
        w.write(2, &format!("{name}:\tWaiting\n"));
    }
}

/// The value kubectl shows for a `fieldRef` env var: only metadata fields resolve.
fn field_ref_value(pod: &Pod, path: &str) -> String {
    let meta = &pod.metadata;
    let format_map = |m: Option<&BTreeMap<String, String>>| {
        m.map(|m| m.iter().map(|(k, v)| format!("{k}={v:?}")).collect::<Vec<_>>().join("\n")).unwrap_or_default()
    };
    if let Some(rest) = path.strip_suffix("']") {
        if let Some((base, key)) = rest.split_once("['") {
            return match base {
                "metadata.annotations" => {
                    meta.annotations.as_ref().and_then(|a| a.get(key)).cloned().unwrap_or_default()
                }
                "metadata.labels" => meta.labels.as_ref().and_then(|a| a.get(key)).cloned().unwrap_or_default(),
                _ => String::new(),
            };
        }
    }
    match path {
        "metadata.annotations" => format_map(meta.annotations.as_ref()),
        "metadata.labels" => format_map(meta.labels.as_ref()),
        "metadata.name" => meta.name.clone().unwrap_or_default(),
        "metadata.namespace" => meta.namespace.clone().unwrap_or_default(),
        "metadata.uid" => meta.uid.clone().unwrap_or_default(),
        _ => String::new(),
    }
}

/// `ExtractContainerResourceValue` for a `resourceFieldRef` env var.
fn resource_field_value(c: &Container, resource: &str, divisor: Option<&ApiQuantity>) -> String {
    let res = c.resources.as_ref();
    let (map, name) = match resource.split_once('.') {
        Some(("limits", n)) => (res.and_then(|r| r.limits.as_ref()), n),
        Some(("requests", n)) => (res.and_then(|r| r.requests.as_ref()), n),
        _ => return String::new(),
    };
    let q = map.and_then(|m| m.get(name)).and_then(|q| Quantity::parse(&q.0).ok()).unwrap_or(Quantity::ZERO);
    let divisor = divisor.and_then(|d| Quantity::parse(&d.0).ok()).filter(|d| !d.is_zero());
    match name {
        "cpu" => {
            let d = divisor.map(|d| d.milli()).unwrap_or(1000);
            ((q.milli() + d - 1).div_euclid(d)).to_string()
        }
        "memory" | "ephemeral-storage" => {
            let d = divisor.map(|d| d.value()).unwrap_or(1).max(1);
            ((q.value() + d - 1).div_euclid(d)).to_string()
        }
        _ => String::new(),
    }
}

fn describe_env(w: &mut PrefixWriter, pod: Option<&Pod>, c: &Container) {
    if let Some(env_from) = c.env_from.as_ref().filter(|e| !e.is_empty()) {
        w.write(2, "Environment Variables from:\n");
        for e in env_from {
            let (from, name, optional) = if let Some(cm) = &e.config_map_ref {
                ("ConfigMap", cm.name.clone(), cm.optional.unwrap_or(false))
            } else if let Some(s) = &e.secret_ref {
                ("Secret", s.name.clone(), s.optional.unwrap_or(false))
            } else {
                ("", String::new(), false)
            };
            match e.prefix.as_deref().filter(|p| !p.is_empty()) {
                None => w.write(3, &format!("{name}\t{from}\tOptional: {}\n", go_bool(optional))),
                Some(p) => w.write(3, &format!("{name}\t{from} with prefix '{p}'\tOptional: {}\n", go_bool(optional))),
            }
        }
    }
    let env = c.env.as_deref().unwrap_or(&[]);
    w.write(2, if env.is_empty() { "Environment:\t<none>\n" } else { "Environment:\n" });
    for e in env {
        let Some(from) = &e.value_from else {
            for (i, s) in e.value.as_deref().unwrap_or("").split('\n').enumerate() {
                if i == 0 {
                    w.write(3, &format!("{}:\t{s}\n", e.name));
                } else {
                    w.write(3, &format!("\t{s}\n"));
                }
            }
            continue;
        };
        if let Some(f) = &from.field_ref {
            let api_version = f.api_version.as_deref().unwrap_or("");
            let value = pod.map(|p| field_ref_value(p, &f.field_path)).unwrap_or_default();
            w.write(3, &format!("{}:\t{value} ({api_version}:{})\n", e.name, f.field_path));
        } else if let Some(r) = &from.resource_field_ref {
            let mut value = resource_field_value(c, &r.resource, r.divisor.as_ref());
            if value == "0" && (r.resource == "limits.cpu" || r.resource == "limits.memory") {
                value = "node allocatable".to_string();
            }
            w.write(3, &format!("{}:\t{value} ({})\n", e.name, r.resource));
        } else if let Some(s) = &from.secret_key_ref {
            w.write(
                3,
                &format!(
                    "{}:\t<set to the key '{}' in secret '{}'>\tOptional: {}\n",
                    e.name,
                    s.key,
                    s.name,
                    go_bool(s.optional.unwrap_or(false))
                ),
            );
        } else if let Some(cm) = &from.config_map_key_ref {
            w.write(
                3,
                &format!(
                    "{}:\t<set to the key '{}' of config map '{}'>\tOptional: {}\n",
                    e.name,
                    cm.key,
                    cm.name,
                    go_bool(cm.optional.unwrap_or(false))
                ),
            );
        }
    }
}

fn describe_container(
    w: &mut PrefixWriter,
    pod: Option<&Pod>,
    c: &Container,
    status: Option<&ContainerStatus>,
    space: &str,
) {
    let name_indent = if space.is_empty() { "" } else { " " };
    w.write(1, &format!("{name_indent}{}:\n", c.name));
    if let Some(s) = status {
        w.write(2, &format!("Container ID:\t{}\n", s.container_id.as_deref().unwrap_or("")));
    }
    w.write(2, &format!("Image:\t{}\n", c.image.as_deref().unwrap_or("")));
    if let Some(s) = status {
        w.write(2, &format!("Image ID:\t{}\n", s.image_id));
    }
    let ports = c.ports.as_deref().unwrap_or(&[]);
    let port_text = |port: i32, p: &k8s_openapi::api::core::v1::ContainerPort| {
        let mut s = format!("{port}/{}", p.protocol.as_deref().unwrap_or(""));
        if let Some(n) = p.name.as_deref().filter(|n| !n.is_empty()) {
            s = format!("{s} ({n})");
        }
        s
    };
    let container_ports = ports.iter().map(|p| port_text(p.container_port, p)).collect::<Vec<_>>().join(", ");
    if container_ports.contains(',') {
        w.write(2, &format!("Ports:\t{container_ports}\n"));
    } else {
        w.write(2, &format!("Port:\t{}\n", string_or_none(&container_ports)));
    }
    let host_ports = ports.iter().map(|p| port_text(p.host_port.unwrap_or(0), p)).collect::<Vec<_>>().join(", ");
    if host_ports.contains(',') {
        w.write(2, &format!("Host Ports:\t{host_ports}\n"));
    } else {
        w.write(2, &format!("Host Port:\t{}\n", string_or_none(&host_ports)));
    }
    if let Some(sp) = c.security_context.as_ref().and_then(|s| s.seccomp_profile.as_ref()) {
        w.write(2, &format!("SeccompProfile:\t{}\n", sp.type_));
        if sp.type_ == "Localhost" {
            w.write(3, &format!("LocalhostProfile:\t{}\n", sp.localhost_profile.as_deref().unwrap_or("")));
        }
    }
    for (title, items) in [("Command", &c.command), ("Args", &c.args)] {
        if let Some(items) = items.as_ref().filter(|i| !i.is_empty()) {
            w.write(2, &format!("{title}:\n"));
            for item in items {
                for s in item.split('\n') {
                    w.write(3, &format!("{s}\n"));
                }
            }
        }
    }
    if let Some(s) = status {
        describe_state(w, "State", s.state.as_ref());
        if let Some(last) = s.last_state.as_ref().filter(|l| l.terminated.is_some()) {
            describe_state(w, "Last State", Some(last));
        }
        w.write(2, &format!("Ready:\t{}\n", print_bool(s.ready)));
        w.write(2, &format!("Restart Count:\t{}\n", s.restart_count));
    }
    describe_resources(w, c.resources.as_ref(), 2);
    for (title, probe) in
        [("Liveness", &c.liveness_probe), ("Readiness", &c.readiness_probe), ("Startup", &c.startup_probe)]
    {
        if let Some(p) = probe {
            w.write(2, &format!("{title}:\t{}\n", describe_probe(p)));
        }
    }
    describe_env(w, pod, c);
    let mut mounts: Vec<_> = c.volume_mounts.as_deref().unwrap_or(&[]).iter().collect();
    w.write(2, if mounts.is_empty() { "Mounts:\t<none>\n" } else { "Mounts:\n" });
    crate::sort::sort_by(&mut mounts, |a, b| a.mount_path.cmp(&b.mount_path));
    for m in mounts {
        let mut flags = vec![if m.read_only.unwrap_or(false) { "ro".to_string() } else { "rw".to_string() }];
        if let Some(sub) = m.sub_path.as_deref().filter(|s| !s.is_empty()) {
            flags.push(format!("path={sub:?}"));
        }
        w.write(3, &format!("{} from {} ({})\n", m.mount_path, m.name, flags.join(",")));
    }
    if let Some(devices) = c.volume_devices.as_ref().filter(|d| !d.is_empty()) {
        w.write(2, "Devices:\n");
        let mut devices: Vec<_> = devices.iter().collect();
        crate::sort::sort_by(&mut devices, |a, b| a.device_path.cmp(&b.device_path));
        for d in devices {
            w.write(3, &format!("{} from {}\n", d.device_path, d.name));
        }
    }
}

/// `describeContainers`; `space` is the extra indentation of a pod template ("  ").
fn describe_containers(
    w: &mut PrefixWriter,
    pod: Option<&Pod>,
    label: &str,
    containers: &[Container],
    statuses: &[ContainerStatus],
    space: &str,
) {
    w.write(0, &format!("{space}{label}:{}\n", if containers.is_empty() { " <none>" } else { "" }));
    for c in containers {
        // describe.go indexes statuses by name (the last one of a name wins).
        let status = statuses.iter().rev().find(|s| s.name == c.name);
        describe_container(w, pod, c, status, space);
    }
}

/// `printHostPathVolumeSource`, for a pod's volume and a PersistentVolume's source.
pub(crate) fn print_host_path_volume_source(w: &mut PrefixWriter, h: &HostPathVolumeSource) {
    let t = h.type_.clone().unwrap_or_else(|| "<none>".to_string());
    w.write(
        2,
        &format!("Type:\tHostPath (bare host directory volume)\n    Path:\t{}\n    HostPathType:\t{t}\n", h.path),
    );
}

/// `printNFSVolumeSource`, for a pod's volume and a PersistentVolume's source.
pub(crate) fn print_nfs_volume_source(w: &mut PrefixWriter, nfs: &NFSVolumeSource) {
    w.write(
        2,
        &format!(
            "Type:\tNFS (an NFS mount that lasts the lifetime of a pod)\n    Server:\t{}\n    Path:\t{}\n    ReadOnly:\t{}\n",
            nfs.server,
            nfs.path,
            go_bool(nfs.read_only.unwrap_or(false))
        ),
    );
}

/// `printCSIPersistentVolumeAttributesMultiline`, for a pod's CSI volume and a CSI
/// PersistentVolume: sorted `k=v` lines cut at 140 bytes. Upstream indents every piece it
/// writes (two pieces before each further attribute), so its lines carry four spaces more
/// than the title's column.
pub(crate) fn print_csi_volume_attributes(w: &mut PrefixWriter, attributes: Option<&BTreeMap<String, String>>) {
    w.write(2, "VolumeAttributes:\t");
    let Some(attributes) = attributes.filter(|a| !a.is_empty()) else {
        w.line("<none>");
        return;
    };
    for (i, (k, v)) in attributes.iter().enumerate() {
        if i != 0 {
            w.write(2, "");
            w.write(2, "\t");
        }
        w.write(2, &format!("{}\n", shorten(&format!("{k}={v}"), MAX_ANNOTATION_LEN)));
    }
}

fn describe_volume(w: &mut PrefixWriter, v: &Volume, space: &str) {
    let name_indent = if space.is_empty() { "" } else { " " };
    w.write(1, &format!("{name_indent}{}:\n", v.name));
    let optional = |o: Option<bool>| go_bool(o.unwrap_or(false));
    if let Some(h) = &v.host_path {
        print_host_path_volume_source(w, h);
    } else if let Some(e) = &v.empty_dir {
        let size = e
            .size_limit
            .as_ref()
            .and_then(|q| Quantity::parse(&q.0).ok())
            .filter(|q| q.milli() > 0)
            .map(|q| q.to_string())
            .unwrap_or_else(|| "<unset>".to_string());
        w.write(
            2,
            &format!(
                "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t{}\n    SizeLimit:\t{size}\n",
                e.medium.as_deref().unwrap_or("")
            ),
        );
    } else if let Some(s) = &v.secret {
        w.write(
            2,
            &format!(
                "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t{}\n    Optional:\t{}\n",
                s.secret_name.as_deref().unwrap_or(""),
                optional(s.optional)
            ),
        );
    } else if let Some(cm) = &v.config_map {
        w.write(
            2,
            &format!(
                "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t{}\n    Optional:\t{}\n",
                cm.name,
                optional(cm.optional)
            ),
        );
    } else if let Some(pvc) = &v.persistent_volume_claim {
        w.write(
            2,
            &format!(
                "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t{}\n    ReadOnly:\t{}\n",
                pvc.claim_name,
                go_bool(pvc.read_only.unwrap_or(false))
            ),
        );
    } else if v.ephemeral.is_some() {
        w.write(
            2,
            "Type:\tEphemeralVolume (an inline specification for a volume that gets created and deleted with the pod)\n",
        );
    } else if let Some(d) = &v.downward_api {
        w.write(2, "Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n");
        for item in d.items.as_deref().unwrap_or(&[]) {
            if let Some(f) = &item.field_ref {
                w.write(3, &format!("{} -> {}\n", f.field_path, item.path));
            }
            if let Some(r) = &item.resource_field_ref {
                w.write(3, &format!("{} -> {}\n", r.resource, item.path));
            }
        }
    } else if let Some(p) = &v.projected {
        w.write(2, "Type:\tProjected (a volume that contains injected data from multiple sources)\n");
        for source in p.sources.as_deref().unwrap_or(&[]) {
            if let Some(s) = &source.secret {
                w.write(2, &format!("SecretName:\t{}\n    Optional:\t{}\n", s.name, optional(s.optional)));
            } else if source.downward_api.is_some() {
                w.write(2, "DownwardAPI:\ttrue\n");
            } else if let Some(cm) = &source.config_map {
                w.write(2, &format!("ConfigMapName:\t{}\n    Optional:\t{}\n", cm.name, optional(cm.optional)));
            } else if let Some(t) = &source.service_account_token {
                // The API server defaults expirationSeconds to 3600.
                w.write(2, &format!("TokenExpirationSeconds:\t{}\n", t.expiration_seconds.unwrap_or(3600)));
            }
        }
    } else if let Some(csi) = &v.csi {
        w.write(
            2,
            &format!(
                "Type:\tCSI (a Container Storage Interface (CSI) volume source)\n    Driver:\t{}\n    FSType:\t{}\n    ReadOnly:\t{}\n",
                csi.driver,
                csi.fs_type.as_deref().unwrap_or(""),
                go_bool(csi.read_only.unwrap_or(false))
            ),
        );
        print_csi_volume_attributes(w, csi.volume_attributes.as_ref());
    } else if let Some(img) = &v.image {
        w.write(
            2,
            &format!(
                "Type:\tImage (a container image or OCI artifact)\n    Reference:\t{}\n    PullPolicy:\t{}\n",
                img.reference.as_deref().unwrap_or(""),
                img.pull_policy.as_deref().unwrap_or("")
            ),
        );
    } else if let Some(nfs) = &v.nfs {
        print_nfs_volume_source(w, nfs);
    } else {
        // Cloud and legacy in-tree volume types are not modelled by the lab.
        w.write(1, "<unknown>\n");
    }
}

fn describe_volumes(w: &mut PrefixWriter, volumes: &[Volume], space: &str) {
    if volumes.is_empty() {
        w.write(0, &format!("{space}Volumes:\t<none>\n"));
        return;
    }
    w.write(0, &format!("{space}Volumes:\n"));
    for v in volumes {
        describe_volume(w, v, space);
    }
}

/// `describeTopologySpreadConstraints`, sorted by topology key.
fn describe_topology_spread(w: &mut PrefixWriter, tscs: &[TopologySpreadConstraint], space: &str) {
    if tscs.is_empty() {
        return;
    }
    let mut tscs: Vec<_> = tscs.iter().collect();
    crate::sort::sort_by(&mut tscs, |a, b| a.topology_key.cmp(&b.topology_key));
    w.write(0, &format!("{space}Topology Spread Constraints:\t"));
    for (i, t) in tscs.into_iter().enumerate() {
        if i != 0 {
            w.write(0, &format!("{space}\t"));
        }
        let mut s = format!("{}:{} when max skew {} is exceeded", t.topology_key, t.when_unsatisfiable, t.max_skew);
        if let Some(sel) = &t.label_selector {
            s.push_str(&format!(" for selector {}", format_label_selector(Some(sel))));
        }
        s.push('\n');
        w.write(0, &s);
    }
}

/// `DescribePodTemplate`, as the workload describers print it.
pub(crate) fn describe_pod_template(w: &mut PrefixWriter, template: Option<&PodTemplateSpec>) {
    w.write(0, "Pod Template:\n");
    let Some(t) = template else {
        w.write(1, "<unset>");
        return;
    };
    let meta = t.metadata.clone().unwrap_or_default();
    let spec = t.spec.clone().unwrap_or_default();
    print_labels_multiline(w, "  Labels", meta.labels.as_ref());
    if meta.annotations.as_ref().is_some_and(|a| !a.is_empty()) {
        print_annotations_multiline(w, "  Annotations", meta.annotations.as_ref());
    }
    if let Some(sa) = spec.service_account_name.as_deref().filter(|s| !s.is_empty()) {
        w.write(1, &format!("Service Account:\t{sa}\n"));
    }
    if let Some(init) = spec.init_containers.as_ref().filter(|i| !i.is_empty()) {
        describe_containers(w, None, "Init Containers", init, &[], "  ");
    }
    describe_containers(w, None, "Containers", &spec.containers, &[], "  ");
    describe_volumes(w, spec.volumes.as_deref().unwrap_or(&[]), "  ");
    describe_topology_spread(w, spec.topology_spread_constraints.as_deref().unwrap_or(&[]), "  ");
    if let Some(pc) = spec.priority_class_name.as_deref().filter(|s| !s.is_empty()) {
        w.write(1, &format!("Priority Class Name:\t{pc}\n"));
    }
    print_labels_multiline(w, "  Node-Selectors", spec.node_selector.as_ref());
    print_tolerations_multiline(w, "  Tolerations", spec.tolerations.as_deref().unwrap_or(&[]));
    if let Some(g) = &spec.scheduling_group {
        w.write(0, "  SchedulingGroup:\n");
        w.write(1, &format!("PodGroupName:\t{}\n", g.pod_group_name.as_deref().unwrap_or("")));
    }
}

/// The QoS class kubectl shows: `status.qosClass`, or computed as upstream's `ComputePodQOS`.
pub fn pod_qos(pod: &Pod) -> String {
    if let Some(q) = pod.status.as_ref().and_then(|s| s.qos_class.as_deref()).filter(|q| !q.is_empty()) {
        return q.to_string();
    }
    compute_pod_qos(pod).to_string()
}

fn requirements_qos(r: Option<&ResourceRequirements>) -> &'static str {
    let requests = r.and_then(|r| r.requests.as_ref());
    let limits = r.and_then(|r| r.limits.as_ref());
    if requests.is_none_or(|m| m.is_empty()) && limits.is_none_or(|m| m.is_empty()) {
        return "BestEffort";
    }
    let get = |m: Option<&BTreeMap<String, ApiQuantity>>, name: &str| {
        m.and_then(|m| m.get(name)).and_then(|q| Quantity::parse(&q.0).ok()).unwrap_or(Quantity::ZERO)
    };
    let mut qos: Option<&'static str> = None;
    for res in ["cpu", "memory"] {
        let (req, lim) = (get(requests, res), get(limits, res));
        let this = if req != lim {
            "Burstable"
        } else if req.is_zero() {
            "BestEffort"
        } else {
            "Guaranteed"
        };
        if this == "Burstable" {
            return this;
        }
        match qos {
            None => qos = Some(this),
            Some(q) if q != this => return "Burstable",
            _ => {}
        }
    }
    qos.unwrap_or("BestEffort")
}

fn compute_pod_qos(pod: &Pod) -> &'static str {
    let Some(spec) = pod.spec.as_ref() else { return "BestEffort" };
    let pod_level = spec.resources.as_ref().filter(|r| {
        let has = |m: &Option<BTreeMap<String, ApiQuantity>>| {
            m.as_ref().is_some_and(|m| m.keys().any(|k| k == "cpu" || k == "memory" || k.starts_with("hugepages-")))
        };
        has(&r.requests) || has(&r.limits)
    });
    if let Some(r) = pod_level {
        return requirements_qos(Some(r));
    }
    let mut pod_qos: Option<&'static str> = None;
    for c in spec.init_containers.iter().flatten().chain(spec.containers.iter()) {
        let q = requirements_qos(c.resources.as_ref());
        if q == "Burstable" {
            return q;
        }
        match pod_qos {
            None => pod_qos = Some(q),
            Some(p) if p != q => return "Burstable",
            _ => {}
        }
    }
    pod_qos.unwrap_or("BestEffort")
}

/// `kubectl describe pod`, with the events the describer finds for it.
pub fn describe_pod(pod: &Pod, events: &[&Event], clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    let meta = &pod.metadata;
    let spec = pod.spec.clone().unwrap_or_default();
    let status = pod.status.clone().unwrap_or_default();
    w.write(0, &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")));
    w.write(0, &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")));
    if let Some(p) = spec.priority {
        w.write(0, &format!("Priority:\t{p}\n"));
    }
    if let Some(pc) = spec.priority_class_name.as_deref().filter(|s| !s.is_empty()) {
        w.write(0, &format!("Priority Class Name:\t{pc}\n"));
    }
    if let Some(rc) = spec.runtime_class_name.as_deref().filter(|s| !s.is_empty()) {
        w.write(0, &format!("Runtime Class Name:\t{rc}\n"));
    }
    if let Some(sa) = spec.service_account_name.as_deref().filter(|s| !s.is_empty()) {
        w.write(0, &format!("Service Account:\t{sa}\n"));
    }
    match spec.node_name.as_deref().filter(|s| !s.is_empty()) {
        None => w.write(0, "Node:\t<none>\n"),
        Some(node) => w.write(0, &format!("Node:\t{node}/{}\n", status.host_ip.as_deref().unwrap_or(""))),
    }
    if let Some(t) = &status.start_time {
        w.write(0, &format!("Start Time:\t{}\n", rfc1123z_opt(Some(t))));
    }
    print_labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    let phase = status.phase.clone().unwrap_or_default();
    if meta.deletion_timestamp.is_some() && phase != "Failed" && phase != "Succeeded" {
        w.write(0, &format!("Status:\tTerminating (lasts {})\n", clock.since(meta.deletion_timestamp.as_ref())));
        w.write(0, &format!("Termination Grace Period:\t{}s\n", meta.deletion_grace_period_seconds.unwrap_or(0)));
    } else {
        w.write(0, &format!("Status:\t{phase}\n"));
    }
    if let Some(r) = status.reason.as_deref().filter(|s| !s.is_empty()) {
        w.write(0, &format!("Reason:\t{r}\n"));
    }
    if let Some(m) = status.message.as_deref().filter(|s| !s.is_empty()) {
        w.write(0, &format!("Message:\t{m}\n"));
    }
    if let Some(sp) = spec.security_context.as_ref().and_then(|s| s.seccomp_profile.as_ref()) {
        w.write(0, &format!("SeccompProfile:\t{}\n", sp.type_));
        if sp.type_ == "Localhost" {
            w.write(0, &format!("LocalhostProfile:\t{}\n", sp.localhost_profile.as_deref().unwrap_or("")));
        }
    }
    w.write(0, &format!("IP:\t{}\n", status.pod_ip.as_deref().unwrap_or("")));
    match status.pod_ips.as_deref().filter(|ips| !ips.is_empty()) {
        None => w.write(0, "IPs:\t<none>\n"),
        Some(ips) => {
            w.write(0, "IPs:\n");
            for ip in ips {
                w.write(1, &format!("IP:\t{}\n", ip.ip));
            }
        }
    }
    if let Some(owner) = meta.owner_references.iter().flatten().find(|o| o.controller == Some(true)) {
        w.write(0, &format!("Controlled By:\t{}/{}\n", owner.kind, owner.name));
    }
    if let Some(n) = status.nominated_node_name.as_deref().filter(|s| !s.is_empty()) {
        w.write(0, &format!("NominatedNodeName:\t{n}\n"));
    }
    if let Some(r) = &spec.resources {
        w.write(0, "Resources:\n");
        describe_resources(&mut w, Some(r), 1);
    }
    let init = spec.init_containers.clone().unwrap_or_default();
    if !init.is_empty() {
        describe_containers(
            &mut w,
            Some(pod),
            "Init Containers",
            &init,
            status.init_container_statuses.as_deref().unwrap_or(&[]),
            "",
        );
    }
    describe_containers(
        &mut w,
        Some(pod),
        "Containers",
        &spec.containers,
        status.container_statuses.as_deref().unwrap_or(&[]),
        "",
    );
    if let Some(eph) = spec.ephemeral_containers.as_ref().filter(|e| !e.is_empty()) {
        let as_containers: Vec<Container> = eph
            .iter()
            .map(|e| Container {
                name: e.name.clone(),
                image: e.image.clone(),
                command: e.command.clone(),
                args: e.args.clone(),
                env: e.env.clone(),
                env_from: e.env_from.clone(),
                ports: e.ports.clone(),
                resources: e.resources.clone(),
                volume_mounts: e.volume_mounts.clone(),
                volume_devices: e.volume_devices.clone(),
                security_context: e.security_context.clone(),
                ..Default::default()
            })
            .collect();
        describe_containers(
            &mut w,
            Some(pod),
            "Ephemeral Containers",
            &as_containers,
            status.ephemeral_container_statuses.as_deref().unwrap_or(&[]),
            "",
        );
    }
    let conditions = status.conditions.clone().unwrap_or_default();
    if let Some(gates) = spec.readiness_gates.as_ref().filter(|g| !g.is_empty()) {
        w.write(0, "Readiness Gates:\n  Type\tStatus\n");
        for g in gates {
            let s = conditions
                .iter()
                .find(|c| c.type_ == g.condition_type)
                .map(|c| c.status.clone())
                .unwrap_or_else(|| "<none>".to_string());
            w.write(1, &format!("{} \t{s} \n", g.condition_type));
        }
    }
    if !conditions.is_empty() {
        w.write(0, "Conditions:\n  Type\tStatus\n");
        for c in &conditions {
            w.write(1, &format!("{} \t{} \n", c.type_, c.status));
        }
    }
    describe_volumes(&mut w, spec.volumes.as_deref().unwrap_or(&[]), "");
    w.write(0, &format!("QoS Class:\t{}\n", pod_qos(pod)));
    print_labels_multiline(&mut w, "Node-Selectors", spec.node_selector.as_ref());
    print_tolerations_multiline(&mut w, "Tolerations", spec.tolerations.as_deref().unwrap_or(&[]));
    describe_topology_spread(&mut w, spec.topology_spread_constraints.as_deref().unwrap_or(&[]), "");
    if let Some(g) = &spec.scheduling_group {
        w.write(0, "SchedulingGroup:\n");
        w.write(1, &format!("PodGroupName:\t{}\n", g.pod_group_name.as_deref().unwrap_or("")));
    }
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `kubectl describe service` (upstream's `describeService`): the endpoints of each port are
/// read from the Service's EndpointSlices (`formatEndpointSlices`: three at most, then
/// `+ N more...`).
pub fn describe_service(
    svc: &k8s_openapi::api::core::v1::Service,
    slices: &[serde_json::Value],
    events: &[&Event],
    clock: Clock,
) -> String {
    let mut w = PrefixWriter::new();
    let meta = &svc.metadata;
    let spec = svc.spec.clone().unwrap_or_default();
    w.write(0, &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")));
    w.write(0, &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")));
    print_labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.write(0, &format!("Selector:\t{}\n", super::format::format_labels(spec.selector.as_ref())));
    w.write(0, &format!("Type:\t{}\n", spec.type_.as_deref().unwrap_or("")));
    if let Some(policy) = &spec.ip_family_policy {
        w.write(0, &format!("IP Family Policy:\t{policy}\n"));
    }
    match spec.ip_families.as_ref().filter(|f| !f.is_empty()) {
        Some(f) => w.write(0, &format!("IP Families:\t{}\n", f.join(","))),
        None => w.write(0, "IP Families:\t<none>\n"),
    }
    w.write(0, &format!("IP:\t{}\n", spec.cluster_ip.as_deref().unwrap_or("")));
    match spec.cluster_ips.as_ref().filter(|f| !f.is_empty()) {
        Some(ips) => w.write(0, &format!("IPs:\t{}\n", ips.join(","))),
        None => w.write(0, "IPs:\t<none>\n"),
    }
    if let Some(ips) = spec.external_ips.as_ref().filter(|f| !f.is_empty()) {
        w.write(0, &format!("External IPs:\t{}\n", ips.join(",")));
    }
    if let Some(name) = &spec.external_name {
        w.write(0, &format!("External Name:\t{name}\n"));
    }
    for p in spec.ports.iter().flatten() {
        let name = p.name.as_deref().filter(|n| !n.is_empty()).unwrap_or("<unset>");
        let protocol = p.protocol.as_deref().unwrap_or("TCP");
        w.write(0, &format!("Port:\t{name}\t{}/{protocol}\n", p.port));
        match &p.target_port {
            Some(IntOrString::Int(i)) => w.write(0, &format!("TargetPort:\t{i}/{protocol}\n")),
            Some(IntOrString::String(s)) => w.write(0, &format!("TargetPort:\t{s}/{protocol}\n")),
            None => w.write(0, &format!("TargetPort:\t{}/{protocol}\n", p.port)),
        }
        if let Some(node_port) = p.node_port.filter(|n| *n != 0) {
            w.write(0, &format!("NodePort:\t{name}\t{node_port}/{protocol}\n"));
        }
        w.write(
            0,
            &format!(
                "Endpoints:\t{}\n",
                super::describers::format_endpoint_slices(slices, p.name.as_deref().unwrap_or(""))
            ),
        );
    }
    w.write(0, &format!("Session Affinity:\t{}\n", spec.session_affinity.as_deref().unwrap_or("None")));
    if let Some(policy) = &spec.external_traffic_policy {
        w.write(0, &format!("External Traffic Policy:\t{policy}\n"));
    }
    if let Some(policy) = &spec.internal_traffic_policy {
        w.write(0, &format!("Internal Traffic Policy:\t{policy}\n"));
    }
    describe_events(&mut w, events, clock);
    w.finish()
}
