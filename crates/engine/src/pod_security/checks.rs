//! The Pod Security Standards checks, each registered at the policy versions upstream gives
//! it, and the evaluator that picks the checks of a level at a version.
//!
//! Order of evaluation (and of the reasons in a message): the baseline checks sorted by id,
//! then the restricted checks sorted by id (byte order). A restricted check may replace
//! ("override") a baseline check from the version it starts at: `restrictedVolumes`
//! replaces `hostPathVolumes`, `capabilities_restricted` replaces `capabilities_baseline`,
//! `seccompProfile_restricted` replaces `seccompProfile_baseline` and `procMount_restricted`
//! replaces `procMount`.

use std::collections::BTreeSet;

use k8s_openapi::api::core::v1::{
    Container, ContainerPort, EphemeralContainer, Lifecycle, LifecycleHandler, PodSpec, Probe, SELinuxOptions,
    SecurityContext,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::{Deserialize, Serialize};

use super::api::{go_quote, Level, LevelVersion, Version, LATEST_MINOR};

/// The result of one check on one pod.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckResult {
    /// Upstream's check id, e.g. `allowPrivilegeEscalation`.
    pub id: String,
    pub allowed: bool,
    /// Upstream's `forbiddenReason` (empty when allowed).
    pub reason: String,
    /// Upstream's `forbiddenDetail` (empty when allowed).
    pub detail: String,
}

/// What a failing check reports: the short reason and the detail.
pub(crate) struct Violation {
    reason: String,
    detail: String,
}

fn violation(reason: impl Into<String>, detail: impl Into<String>) -> Option<Violation> {
    Some(Violation { reason: reason.into(), detail: detail.into() })
}

type CheckFn = fn(&ObjectMeta, &PodSpec) -> Option<Violation>;

/// One revision of a check, used from `min_minor` (policy `v1.<min_minor>`) until the next.
pub struct CheckVersion {
    pub min_minor: u64,
    check: CheckFn,
    /// Baseline checks this (restricted) revision replaces.
    pub overrides: &'static [&'static str],
}

/// A registered check.
pub struct CheckDef {
    pub id: &'static str,
    pub level: Level,
    /// Revisions in increasing `min_minor`.
    pub versions: &'static [CheckVersion],
}

impl CheckDef {
    /// The revision in force at a policy minor version, if the check exists there.
    pub fn at(&self, minor: u64) -> Option<&'static CheckVersion> {
        self.versions.iter().rev().find(|v| v.min_minor <= minor)
    }

    /// The first policy version the check applies to.
    pub fn since(&self) -> Version {
        Version::Minor(self.versions.first().map(|v| v.min_minor).unwrap_or(0))
    }
}

const fn cv(min_minor: u64, check: CheckFn) -> CheckVersion {
    CheckVersion { min_minor, check, overrides: &[] }
}

const fn cvo(min_minor: u64, check: CheckFn, overrides: &'static [&'static str]) -> CheckVersion {
    CheckVersion { min_minor, check, overrides }
}

/// Every check, baseline ids sorted then restricted ids sorted (the evaluation order).
pub static CHECKS: &[CheckDef] = &[
    CheckDef { id: "appArmorProfile", level: Level::Baseline, versions: &[cv(0, app_armor_profile)] },
    CheckDef { id: "capabilities_baseline", level: Level::Baseline, versions: &[cv(0, capabilities_baseline)] },
    CheckDef { id: "hostNamespaces", level: Level::Baseline, versions: &[cv(0, host_namespaces)] },
    CheckDef { id: "hostPathVolumes", level: Level::Baseline, versions: &[cv(0, host_path_volumes)] },
    CheckDef { id: "hostPorts", level: Level::Baseline, versions: &[cv(0, host_ports)] },
    CheckDef {
        id: "hostProbesAndHostLifecycle",
        level: Level::Baseline,
        versions: &[cv(34, host_probes_and_host_lifecycle)],
    },
    CheckDef { id: "privileged", level: Level::Baseline, versions: &[cv(0, privileged)] },
    CheckDef { id: "procMount", level: Level::Baseline, versions: &[cv(0, proc_mount), cv(35, proc_mount_1_35)] },
    CheckDef {
        id: "seLinuxOptions",
        level: Level::Baseline,
        versions: &[cv(0, se_linux_options_1_0), cv(31, se_linux_options_1_31)],
    },
    CheckDef {
        id: "seccompProfile_baseline",
        level: Level::Baseline,
        versions: &[cv(0, seccomp_profile_baseline_1_0), cv(19, seccomp_profile_baseline_1_19)],
    },
    CheckDef {
        id: "sysctls",
        level: Level::Baseline,
        versions: &[
            cv(0, sysctls_1_0),
            cv(27, sysctls_1_27),
            cv(29, sysctls_1_29),
            cv(32, sysctls_1_32),
            cv(37, sysctls_1_37),
        ],
    },
    CheckDef { id: "windowsHostProcess", level: Level::Baseline, versions: &[cv(0, windows_host_process)] },
    CheckDef {
        id: "allowPrivilegeEscalation",
        level: Level::Restricted,
        versions: &[cv(8, allow_privilege_escalation), cv(25, allow_privilege_escalation_1_25)],
    },
    CheckDef {
        id: "capabilities_restricted",
        level: Level::Restricted,
        versions: &[
            cvo(22, capabilities_restricted, &["capabilities_baseline"]),
            cvo(25, capabilities_restricted_1_25, &["capabilities_baseline"]),
        ],
    },
    CheckDef { id: "procMount_restricted", level: Level::Restricted, versions: &[cvo(35, proc_mount, &["procMount"])] },
    CheckDef {
        id: "restrictedVolumes",
        level: Level::Restricted,
        versions: &[cvo(0, restricted_volumes, &["hostPathVolumes"])],
    },
    CheckDef {
        id: "runAsNonRoot",
        level: Level::Restricted,
        versions: &[cv(0, run_as_non_root), cv(35, run_as_non_root_1_35)],
    },
    CheckDef { id: "runAsUser", level: Level::Restricted, versions: &[cv(23, run_as_user), cv(35, run_as_user_1_35)] },
    CheckDef {
        id: "seccompProfile_restricted",
        level: Level::Restricted,
        versions: &[
            cvo(19, seccomp_profile_restricted, &["seccompProfile_baseline"]),
            cvo(25, seccomp_profile_restricted_1_25, &["seccompProfile_baseline"]),
        ],
    },
];

/// Finds a check by id.
pub fn check_def(id: &str) -> Option<&'static CheckDef> {
    CHECKS.iter().find(|c| c.id == id)
}

/// The checks (and their revisions) a level runs at a version, in evaluation order.
/// `privileged` runs none. Versions newer than the registry, and `latest`, use the newest.
pub fn checks_for(lv: LevelVersion) -> Vec<(&'static CheckDef, &'static CheckVersion)> {
    if lv.level == Level::Privileged {
        return Vec::new();
    }
    let minor = lv.version.effective_minor();
    let active =
        |level: Level| CHECKS.iter().filter(move |c| c.level == level).filter_map(move |c| c.at(minor).map(|v| (c, v)));
    let baseline = active(Level::Baseline);
    if lv.level == Level::Baseline {
        return baseline.collect();
    }
    let restricted: Vec<_> = active(Level::Restricted).collect();
    let overridden: BTreeSet<&str> = restricted.iter().flat_map(|(_, v)| v.overrides.iter().copied()).collect();
    baseline.filter(|(c, _)| !overridden.contains(c.id)).chain(restricted).collect()
}

/// Runs every check of the level at the version on a pod (or pod template), in upstream's
/// order. `privileged` returns no results.
pub fn evaluate(lv: LevelVersion, meta: &ObjectMeta, spec: &PodSpec) -> Vec<CheckResult> {
    checks_for(lv)
        .into_iter()
        .map(|(def, version)| match (version.check)(meta, spec) {
            None => CheckResult { id: def.id.to_string(), allowed: true, reason: String::new(), detail: String::new() },
            Some(v) => CheckResult {
                id: def.id.to_string(),
                allowed: false,
                // Upstream substitutes a placeholder for a check that fails without a reason.
                reason: if v.reason.is_empty() { "unknown forbidden reason".to_string() } else { v.reason },
                detail: v.detail,
            },
        })
        .collect()
}

/// `evaluate` with the level and version apart.
pub fn evaluate_pod(level: Level, version: Version, meta: &ObjectMeta, spec: &PodSpec) -> Vec<CheckResult> {
    evaluate(LevelVersion::new(level, version), meta, spec)
}

/// The failed checks only.
pub fn violations(results: &[CheckResult]) -> Vec<&CheckResult> {
    results.iter().filter(|r| !r.allowed).collect()
}

/// `reason (detail), reason (detail), ...` over the failed checks (a reason without detail
/// stands alone), as upstream prints it after `violates PodSecurity "<level>:<version>": `.
pub fn forbidden_detail(results: &[CheckResult]) -> String {
    violations(results)
        .iter()
        .map(|r| if r.detail.is_empty() { r.reason.clone() } else { format!("{} ({})", r.reason, r.detail) })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The reasons of the failed checks joined with `, ` (no details), as used when a whole
/// namespace's pods are checked.
pub fn forbidden_reason(results: &[CheckResult]) -> String {
    violations(results).iter().map(|r| r.reason.as_str()).collect::<Vec<_>>().join(", ")
}

// ---------------------------------------------------------------------------------------
// Helpers

/// The parts of a container (init, regular or ephemeral) the checks look at.
struct ContainerRef<'a> {
    name: &'a str,
    security_context: Option<&'a SecurityContext>,
    ports: &'a [ContainerPort],
    liveness_probe: Option<&'a Probe>,
    readiness_probe: Option<&'a Probe>,
    startup_probe: Option<&'a Probe>,
    lifecycle: Option<&'a Lifecycle>,
}

impl<'a> ContainerRef<'a> {
    fn of(c: &'a Container) -> Self {
        ContainerRef {
            name: &c.name,
            security_context: c.security_context.as_ref(),
            ports: c.ports.as_deref().unwrap_or(&[]),
            liveness_probe: c.liveness_probe.as_ref(),
            readiness_probe: c.readiness_probe.as_ref(),
            startup_probe: c.startup_probe.as_ref(),
            lifecycle: c.lifecycle.as_ref(),
        }
    }

    fn of_ephemeral(c: &'a EphemeralContainer) -> Self {
        ContainerRef {
            name: &c.name,
            security_context: c.security_context.as_ref(),
            ports: c.ports.as_deref().unwrap_or(&[]),
            liveness_probe: c.liveness_probe.as_ref(),
            readiness_probe: c.readiness_probe.as_ref(),
            startup_probe: c.startup_probe.as_ref(),
            lifecycle: c.lifecycle.as_ref(),
        }
    }
}

/// Init containers, then containers, then ephemeral containers.
fn containers(spec: &PodSpec) -> impl Iterator<Item = ContainerRef<'_>> {
    spec.init_containers
        .iter()
        .flatten()
        .map(ContainerRef::of)
        .chain(spec.containers.iter().map(ContainerRef::of))
        .chain(spec.ephemeral_containers.iter().flatten().map(ContainerRef::of_ephemeral))
}

/// `"a", "b"` (no escaping, as upstream).
fn join_quote<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let inner: Vec<&str> = items.iter().map(|s| s.as_ref()).collect();
    format!("\"{}\"", inner.join("\", \""))
}

fn pluralize<'a>(singular: &'a str, plural: &'a str, count: usize) -> &'a str {
    if count == 1 {
        singular
    } else {
        plural
    }
}

/// `container "a"` / `containers "a", "b"`.
fn containers_phrase<S: AsRef<str>>(names: &[S]) -> String {
    format!("{} {}", pluralize("container", "containers", names.len()), join_quote(names))
}

fn sorted(set: &BTreeSet<String>) -> Vec<String> {
    set.iter().cloned().collect()
}

fn is_windows(spec: &PodSpec) -> bool {
    spec.os.as_ref().is_some_and(|os| os.name == "windows")
}

/// From policy v1.35, some checks relax for pods in a user namespace (`hostUsers: false`).
fn user_namespaced(spec: &PodSpec) -> bool {
    spec.host_users == Some(false)
}

// ---------------------------------------------------------------------------------------
// Baseline checks

const APPARMOR_ANNOTATION_PREFIX: &str = "container.apparmor.security.beta.kubernetes.io/";

fn app_armor_profile(meta: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let allowed_type = |t: &str| t == "RuntimeDefault" || t == "Localhost";
    let mut setters: Vec<String> = Vec::new();
    let mut bad_values: BTreeSet<String> = BTreeSet::new();
    if let Some(p) = spec.security_context.as_ref().and_then(|sc| sc.app_armor_profile.as_ref()) {
        if !allowed_type(&p.type_) {
            setters.push("pod".into());
            bad_values.insert(p.type_.clone());
        }
    }
    let mut bad_containers = Vec::new();
    for c in containers(spec) {
        if let Some(p) = c.security_context.and_then(|sc| sc.app_armor_profile.as_ref()) {
            if !allowed_type(&p.type_) {
                bad_containers.push(c.name);
                bad_values.insert(p.type_.clone());
            }
        }
    }
    if !bad_containers.is_empty() {
        setters.push(containers_phrase(&bad_containers));
    }
    let mut annotations: Vec<String> = meta
        .annotations
        .iter()
        .flatten()
        .filter(|(k, v)| {
            k.starts_with(APPARMOR_ANNOTATION_PREFIX)
                && !(v.is_empty() || v.as_str() == "runtime/default" || v.starts_with("localhost/"))
        })
        .map(|(k, v)| format!("{k}={}", go_quote(v)))
        .collect();
    let mut values = sorted(&bad_values);
    if !annotations.is_empty() {
        crate::sort::sort(&mut annotations);
        setters.push(pluralize("annotation", "annotations", annotations.len()).into());
        values.extend(annotations);
    }
    if setters.is_empty() {
        return None;
    }
    violation(
        pluralize("forbidden AppArmor profile", "forbidden AppArmor profiles", values.len()),
        format!("{} must not set AppArmor profile type to {}", setters.join(" and "), join_quote(&values)),
    )
}

const CAPABILITIES_DEFAULT_SET: &[&str] = &[
    "AUDIT_WRITE",
    "CHOWN",
    "DAC_OVERRIDE",
    "FOWNER",
    "FSETID",
    "KILL",
    "MKNOD",
    "NET_BIND_SERVICE",
    "SETFCAP",
    "SETGID",
    "SETPCAP",
    "SETUID",
    "SYS_CHROOT",
];

fn capabilities_baseline(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let mut bad_containers = Vec::new();
    let mut non_default: BTreeSet<String> = BTreeSet::new();
    for c in containers(spec) {
        let Some(caps) = c.security_context.and_then(|sc| sc.capabilities.as_ref()) else { continue };
        let mut valid = true;
        for cap in caps.add.iter().flatten() {
            if !CAPABILITIES_DEFAULT_SET.contains(&cap.as_str()) {
                valid = false;
                non_default.insert(cap.clone());
            }
        }
        if !valid {
            bad_containers.push(c.name);
        }
    }
    if bad_containers.is_empty() {
        return None;
    }
    violation(
        "non-default capabilities",
        format!(
            "{} must not include {} in securityContext.capabilities.add",
            containers_phrase(&bad_containers),
            join_quote(&sorted(&non_default))
        ),
    )
}

fn host_namespaces(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let mut found = Vec::new();
    if spec.host_network == Some(true) {
        found.push("hostNetwork=true");
    }
    if spec.host_pid == Some(true) {
        found.push("hostPID=true");
    }
    if spec.host_ipc == Some(true) {
        found.push("hostIPC=true");
    }
    if found.is_empty() {
        return None;
    }
    violation("host namespaces", found.join(", "))
}

fn host_path_volumes(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let names: Vec<&str> =
        spec.volumes.iter().flatten().filter(|v| v.host_path.is_some()).map(|v| v.name.as_str()).collect();
    if names.is_empty() {
        return None;
    }
    violation("hostPath volumes", format!("{} {}", pluralize("volume", "volumes", names.len()), join_quote(&names)))
}

fn host_ports(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let mut bad_containers = Vec::new();
    // Upstream keeps the ports as strings in a sorted set, so they sort as text.
    let mut ports: BTreeSet<String> = BTreeSet::new();
    for c in containers(spec) {
        let mut valid = true;
        for p in c.ports {
            let hp = p.host_port.unwrap_or(0);
            if hp != 0 {
                valid = false;
                ports.insert(hp.to_string());
            }
        }
        if !valid {
            bad_containers.push(c.name);
        }
    }
    if bad_containers.is_empty() {
        return None;
    }
    violation(
        "hostPort",
        format!(
            "{} {} {} {}",
            containers_phrase(&bad_containers),
            pluralize("uses", "use", bad_containers.len()),
            pluralize("hostPort", "hostPorts", ports.len()),
            sorted(&ports).join(", ")
        ),
    )
}

fn probe_hosts(p: Option<&Probe>) -> Vec<String> {
    let Some(p) = p else { return Vec::new() };
    let http = p.http_get.as_ref().and_then(|h| h.host.clone());
    let tcp = p.tcp_socket.as_ref().and_then(|t| t.host.clone());
    http.into_iter().chain(tcp).filter(|h| !h.is_empty()).collect()
}

fn handler_hosts(h: Option<&LifecycleHandler>) -> Vec<String> {
    let Some(h) = h else { return Vec::new() };
    let http = h.http_get.as_ref().and_then(|h| h.host.clone());
    let tcp = h.tcp_socket.as_ref().and_then(|t| t.host.clone());
    http.into_iter().chain(tcp).filter(|h| !h.is_empty()).collect()
}

fn host_probes_and_host_lifecycle(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    // Both sets are sorted (unlike most checks, which keep the container order).
    let mut bad_containers: BTreeSet<String> = BTreeSet::new();
    let mut hosts: BTreeSet<String> = BTreeSet::new();
    for c in containers(spec) {
        let mut found = probe_hosts(c.liveness_probe);
        found.extend(probe_hosts(c.readiness_probe));
        found.extend(probe_hosts(c.startup_probe));
        if let Some(l) = c.lifecycle {
            found.extend(handler_hosts(l.post_start.as_ref()));
            found.extend(handler_hosts(l.pre_stop.as_ref()));
        }
        if !found.is_empty() {
            bad_containers.insert(c.name.to_string());
            hosts.extend(found);
        }
    }
    if bad_containers.is_empty() {
        return None;
    }
    let names = sorted(&bad_containers);
    violation(
        "probe or lifecycle host",
        format!(
            "{} {} {} {}",
            containers_phrase(&names),
            pluralize("uses", "use", names.len()),
            pluralize("probe or lifecycle host", "probe or lifecycle hosts", hosts.len()),
            join_quote(&sorted(&hosts))
        ),
    )
}

fn privileged(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let bad: Vec<&str> = containers(spec)
        .filter(|c| c.security_context.and_then(|sc| sc.privileged) == Some(true))
        .map(|c| c.name)
        .collect();
    if bad.is_empty() {
        return None;
    }
    violation("privileged", format!("{} must not set securityContext.privileged=true", containers_phrase(&bad)))
}

fn proc_mount(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let mut bad = Vec::new();
    let mut types: BTreeSet<String> = BTreeSet::new();
    for c in containers(spec) {
        if let Some(pm) = c.security_context.and_then(|sc| sc.proc_mount.as_ref()) {
            if pm != "Default" {
                bad.push(c.name);
                types.insert(pm.clone());
            }
        }
    }
    if bad.is_empty() {
        return None;
    }
    violation(
        "procMount",
        format!(
            "{} must not set securityContext.procMount to {}",
            containers_phrase(&bad),
            join_quote(&sorted(&types))
        ),
    )
}

fn proc_mount_1_35(meta: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    if user_namespaced(spec) {
        return None;
    }
    proc_mount(meta, spec)
}

const SELINUX_TYPES_1_0: &[&str] = &["", "container_t", "container_init_t", "container_kvm_t"];
const SELINUX_TYPES_1_31: &[&str] = &["", "container_t", "container_init_t", "container_kvm_t", "container_engine_t"];

fn se_linux_options_1_0(meta: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    se_linux_options(meta, spec, SELINUX_TYPES_1_0)
}

fn se_linux_options_1_31(meta: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    se_linux_options(meta, spec, SELINUX_TYPES_1_31)
}

fn se_linux_options(_: &ObjectMeta, spec: &PodSpec, allowed: &[&str]) -> Option<Violation> {
    let mut bad_types: BTreeSet<String> = BTreeSet::new();
    let mut set_user = false;
    let mut set_role = false;
    let mut valid = |o: &SELinuxOptions| {
        let mut ok = true;
        let t = o.type_.as_deref().unwrap_or("");
        if !allowed.contains(&t) {
            ok = false;
            bad_types.insert(t.to_string());
        }
        if !o.user.as_deref().unwrap_or("").is_empty() {
            ok = false;
            set_user = true;
        }
        if !o.role.as_deref().unwrap_or("").is_empty() {
            ok = false;
            set_role = true;
        }
        ok
    };
    let mut setters: Vec<String> = Vec::new();
    if let Some(o) = spec.security_context.as_ref().and_then(|sc| sc.se_linux_options.as_ref()) {
        if !valid(o) {
            setters.push("pod".into());
        }
    }
    let mut bad_containers = Vec::new();
    for c in containers(spec) {
        if let Some(o) = c.security_context.and_then(|sc| sc.se_linux_options.as_ref()) {
            if !valid(o) {
                bad_containers.push(c.name);
            }
        }
    }
    if !bad_containers.is_empty() {
        setters.push(containers_phrase(&bad_containers));
    }
    if setters.is_empty() {
        return None;
    }
    let mut data = Vec::new();
    if !bad_types.is_empty() {
        data.push(format!("{} {}", pluralize("type", "types", bad_types.len()), join_quote(&sorted(&bad_types))));
    }
    if set_user {
        data.push("user may not be set".to_string());
    }
    if set_role {
        data.push("role may not be set".to_string());
    }
    violation(
        "seLinuxOptions",
        format!("{} set forbidden securityContext.seLinuxOptions: {}", setters.join(" and "), data.join("; ")),
    )
}

const SECCOMP_POD_ANNOTATION: &str = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_CONTAINER_ANNOTATION_PREFIX: &str = "container.seccomp.security.alpha.kubernetes.io/";

fn valid_seccomp_type(t: &str) -> bool {
    t == "Localhost" || t == "RuntimeDefault"
}

/// Policy versions before 1.19 look at the old seccomp annotations instead of the fields.
fn seccomp_profile_baseline_1_0(meta: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let valid = |v: &str| v == "runtime/default" || v == "docker/default" || v.starts_with("localhost/");
    let annotations = meta.annotations.as_ref();
    let mut forbidden: BTreeSet<String> = BTreeSet::new();
    if let Some(v) = annotations.and_then(|a| a.get(SECCOMP_POD_ANNOTATION)) {
        if !valid(v) {
            forbidden.insert(format!("{SECCOMP_POD_ANNOTATION}={}", go_quote(v)));
        }
    }
    for c in containers(spec) {
        let key = format!("{SECCOMP_CONTAINER_ANNOTATION_PREFIX}{}", c.name);
        if let Some(v) = annotations.and_then(|a| a.get(&key)) {
            if !valid(v) {
                forbidden.insert(format!("{key}={}", go_quote(v)));
            }
        }
    }
    if forbidden.is_empty() {
        return None;
    }
    violation(
        "seccompProfile",
        format!(
            "forbidden {} {}",
            pluralize("annotation", "annotations", forbidden.len()),
            sorted(&forbidden).join(", ")
        ),
    )
}

/// The seccomp check of both levels: explicit bad values first; with `require`, then
/// containers that set nothing while the pod sets nothing valid either.
fn seccomp_profile(spec: &PodSpec, require: bool) -> Option<Violation> {
    let mut setters: Vec<String> = Vec::new();
    let mut bad_values: BTreeSet<String> = BTreeSet::new();
    let mut pod_set = false;
    if let Some(p) = spec.security_context.as_ref().and_then(|sc| sc.seccomp_profile.as_ref()) {
        if valid_seccomp_type(&p.type_) {
            pod_set = true;
        } else {
            setters.push("pod".into());
            bad_values.insert(p.type_.clone());
        }
    }
    let mut explicit = Vec::new();
    let mut implicit = Vec::new();
    for c in containers(spec) {
        match c.security_context.and_then(|sc| sc.seccomp_profile.as_ref()) {
            Some(p) => {
                if !valid_seccomp_type(&p.type_) {
                    explicit.push(c.name);
                    bad_values.insert(p.type_.clone());
                }
            }
            None => {
                if !pod_set {
                    implicit.push(c.name);
                }
            }
        }
    }
    if !explicit.is_empty() {
        setters.push(containers_phrase(&explicit));
    }
    if !setters.is_empty() {
        return violation(
            "seccompProfile",
            format!(
                "{} must not set securityContext.seccompProfile.type to {}",
                setters.join(" and "),
                join_quote(&sorted(&bad_values))
            ),
        );
    }
    if require && !implicit.is_empty() {
        return violation(
            "seccompProfile",
            format!(
                "pod or {} must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\"",
                containers_phrase(&implicit)
            ),
        );
    }
    None
}

fn seccomp_profile_baseline_1_19(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    seccomp_profile(spec, false)
}

const SYSCTLS_1_0: &[&str] = &[
    "kernel.shm_rmid_forced",
    "net.ipv4.ip_local_port_range",
    "net.ipv4.tcp_syncookies",
    "net.ipv4.ping_group_range",
    "net.ipv4.ip_unprivileged_port_start",
];
const SYSCTLS_ADDED_1_27: &[&str] = &["net.ipv4.ip_local_reserved_ports"];
const SYSCTLS_ADDED_1_29: &[&str] = &[
    "net.ipv4.tcp_keepalive_time",
    "net.ipv4.tcp_fin_timeout",
    "net.ipv4.tcp_keepalive_intvl",
    "net.ipv4.tcp_keepalive_probes",
];
const SYSCTLS_ADDED_1_32: &[&str] = &["net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem"];
const SYSCTLS_ADDED_1_37: &[&str] = &["net.ipv4.tcp_slow_start_after_idle", "net.ipv4.tcp_notsent_lowat"];

/// The safe sysctls at a policy minor version.
pub fn allowed_sysctls(minor: u64) -> Vec<&'static str> {
    let steps: [(u64, &[&str]); 5] = [
        (0, SYSCTLS_1_0),
        (27, SYSCTLS_ADDED_1_27),
        (29, SYSCTLS_ADDED_1_29),
        (32, SYSCTLS_ADDED_1_32),
        (37, SYSCTLS_ADDED_1_37),
    ];
    steps.iter().filter(|(since, _)| *since <= minor).flat_map(|(_, names)| names.iter().copied()).collect()
}

fn sysctls(spec: &PodSpec, minor: u64) -> Option<Violation> {
    let allowed = allowed_sysctls(minor);
    // Not deduplicated, in the pod's order.
    let bad: Vec<&str> = spec
        .security_context
        .iter()
        .flat_map(|sc| sc.sysctls.iter().flatten())
        .map(|s| s.name.as_str())
        .filter(|n| !allowed.contains(n))
        .collect();
    if bad.is_empty() {
        return None;
    }
    violation("forbidden sysctls", bad.join(", "))
}

fn sysctls_1_0(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    sysctls(spec, 0)
}
fn sysctls_1_27(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    sysctls(spec, 27)
}
fn sysctls_1_29(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    sysctls(spec, 29)
}
fn sysctls_1_32(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    sysctls(spec, 32)
}
fn sysctls_1_37(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    sysctls(spec, 37)
}

fn windows_host_process(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let bad: Vec<&str> = containers(spec)
        .filter(|c| {
            c.security_context.and_then(|sc| sc.windows_options.as_ref()).and_then(|w| w.host_process) == Some(true)
        })
        .map(|c| c.name)
        .collect();
    let pod = spec.security_context.as_ref().and_then(|sc| sc.windows_options.as_ref()).and_then(|w| w.host_process)
        == Some(true);
    let mut setters: Vec<String> = Vec::new();
    if pod {
        setters.push("pod".into());
    }
    if !bad.is_empty() {
        setters.push(containers_phrase(&bad));
    }
    if setters.is_empty() {
        return None;
    }
    violation(
        "hostProcess",
        format!("{} must not set securityContext.windowsOptions.hostProcess=true", setters.join(" and ")),
    )
}

// ---------------------------------------------------------------------------------------
// Restricted checks

fn allow_privilege_escalation(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let bad: Vec<&str> = containers(spec)
        .filter(|c| c.security_context.and_then(|sc| sc.allow_privilege_escalation) != Some(false))
        .map(|c| c.name)
        .collect();
    if bad.is_empty() {
        return None;
    }
    violation(
        "allowPrivilegeEscalation != false",
        format!("{} must set securityContext.allowPrivilegeEscalation=false", containers_phrase(&bad)),
    )
}

fn allow_privilege_escalation_1_25(meta: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    if is_windows(spec) {
        return None;
    }
    allow_privilege_escalation(meta, spec)
}

fn capabilities_restricted(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let mut missing_drop_all = Vec::new();
    let mut adding = Vec::new();
    let mut forbidden: BTreeSet<String> = BTreeSet::new();
    for c in containers(spec) {
        let Some(caps) = c.security_context.and_then(|sc| sc.capabilities.as_ref()) else {
            missing_drop_all.push(c.name);
            continue;
        };
        if !caps.drop.iter().flatten().any(|d| d == "ALL") {
            missing_drop_all.push(c.name);
        }
        let mut added_forbidden = false;
        for a in caps.add.iter().flatten() {
            if a != "NET_BIND_SERVICE" {
                added_forbidden = true;
                forbidden.insert(a.clone());
            }
        }
        if added_forbidden {
            adding.push(c.name);
        }
    }
    let mut details = Vec::new();
    if !missing_drop_all.is_empty() {
        details.push(format!(
            "{} must set securityContext.capabilities.drop=[\"ALL\"]",
            containers_phrase(&missing_drop_all)
        ));
    }
    if !adding.is_empty() {
        details.push(format!(
            "{} must not include {} in securityContext.capabilities.add",
            containers_phrase(&adding),
            join_quote(&sorted(&forbidden))
        ));
    }
    if details.is_empty() {
        return None;
    }
    violation("unrestricted capabilities", details.join("; "))
}

fn capabilities_restricted_1_25(meta: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    if is_windows(spec) {
        return None;
    }
    capabilities_restricted(meta, spec)
}

fn restricted_volumes(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let mut bad = Vec::new();
    let mut types: BTreeSet<String> = BTreeSet::new();
    for v in spec.volumes.iter().flatten() {
        let allowed = v.config_map.is_some()
            || v.csi.is_some()
            || v.downward_api.is_some()
            || v.empty_dir.is_some()
            || v.ephemeral.is_some()
            || v.image.is_some()
            || v.persistent_volume_claim.is_some()
            || v.projected.is_some()
            || v.secret.is_some();
        if allowed {
            continue;
        }
        bad.push(v.name.as_str());
        let kind = if v.host_path.is_some() {
            "hostPath"
        } else if v.gce_persistent_disk.is_some() {
            "gcePersistentDisk"
        } else if v.aws_elastic_block_store.is_some() {
            "awsElasticBlockStore"
        } else if v.git_repo.is_some() {
            "gitRepo"
        } else if v.nfs.is_some() {
            "nfs"
        } else if v.iscsi.is_some() {
            "iscsi"
        } else if v.glusterfs.is_some() {
            "glusterfs"
        } else if v.rbd.is_some() {
            "rbd"
        } else if v.flex_volume.is_some() {
            "flexVolume"
        } else if v.cinder.is_some() {
            "cinder"
        } else if v.cephfs.is_some() {
            "cephfs"
        } else if v.flocker.is_some() {
            "flocker"
        } else if v.fc.is_some() {
            "fc"
        } else if v.azure_file.is_some() {
            "azureFile"
        } else if v.vsphere_volume.is_some() {
            "vsphereVolume"
        } else if v.quobyte.is_some() {
            "quobyte"
        } else if v.azure_disk.is_some() {
            "azureDisk"
        } else if v.photon_persistent_disk.is_some() {
            "photonPersistentDisk"
        } else if v.portworx_volume.is_some() {
            "portworxVolume"
        } else if v.scale_io.is_some() {
            "scaleIO"
        } else if v.storageos.is_some() {
            "storageos"
        } else {
            "unknown"
        };
        types.insert(kind.to_string());
    }
    if bad.is_empty() {
        return None;
    }
    violation(
        "restricted volume types",
        format!(
            "{} {} {} {} {}",
            pluralize("volume", "volumes", bad.len()),
            join_quote(&bad),
            pluralize("uses", "use", bad.len()),
            pluralize("restricted volume type", "restricted volume types", types.len()),
            join_quote(&sorted(&types))
        ),
    )
}

fn run_as_non_root(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let mut setters: Vec<String> = Vec::new();
    let mut pod_non_root = false;
    match spec.security_context.as_ref().and_then(|sc| sc.run_as_non_root) {
        Some(false) => setters.push("pod".into()),
        Some(true) => pod_non_root = true,
        None => {}
    }
    let mut explicit = Vec::new();
    let mut implicit = Vec::new();
    for c in containers(spec) {
        match c.security_context.and_then(|sc| sc.run_as_non_root) {
            Some(false) => explicit.push(c.name),
            Some(true) => {}
            None => {
                if !pod_non_root {
                    implicit.push(c.name);
                }
            }
        }
    }
    if !explicit.is_empty() {
        setters.push(containers_phrase(&explicit));
    }
    if !setters.is_empty() {
        return violation(
            "runAsNonRoot != true",
            format!("{} must not set securityContext.runAsNonRoot=false", setters.join(" and ")),
        );
    }
    if !implicit.is_empty() {
        return violation(
            "runAsNonRoot != true",
            format!("pod or {} must set securityContext.runAsNonRoot=true", containers_phrase(&implicit)),
        );
    }
    None
}

fn run_as_non_root_1_35(meta: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    if user_namespaced(spec) {
        return None;
    }
    run_as_non_root(meta, spec)
}

fn run_as_user(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let mut setters: Vec<String> = Vec::new();
    if spec.security_context.as_ref().and_then(|sc| sc.run_as_user) == Some(0) {
        setters.push("pod".into());
    }
    let bad: Vec<&str> = containers(spec)
        .filter(|c| c.security_context.and_then(|sc| sc.run_as_user) == Some(0))
        .map(|c| c.name)
        .collect();
    if !bad.is_empty() {
        setters.push(containers_phrase(&bad));
    }
    if setters.is_empty() {
        return None;
    }
    violation("runAsUser=0", format!("{} must not set runAsUser=0", setters.join(" and ")))
}

fn run_as_user_1_35(meta: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    if user_namespaced(spec) {
        return None;
    }
    run_as_user(meta, spec)
}

fn seccomp_profile_restricted(_: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    seccomp_profile(spec, true)
}

fn seccomp_profile_restricted_1_25(meta: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    if is_windows(spec) {
        return None;
    }
    seccomp_profile_restricted(meta, spec)
}

/// The newest policy version any check has a revision for (what `latest` evaluates as).
pub fn newest_registered_minor() -> u64 {
    CHECKS.iter().filter_map(|c| c.versions.last()).map(|v| v.min_minor).max().unwrap_or(LATEST_MINOR)
}
