//! Plain-language explanations of PodSecurity's decisions, for learners: which level
//! applied and where it came from, which checks ran, what failed and how to fix it.

use super::admission::{AdmissionRequest, ModeEvaluation, PodSecurityConfig, PsaOutcome};
use super::api::{go_quote, Level, LevelVersion, Mode, NamespacePolicy};
use super::checks::{allowed_sysctls, checks_for};

/// Where a mode's level came from.
fn source(ns: &NamespacePolicy, mode: Mode) -> &'static str {
    let labelled = ns.has_label(mode.level_label()) || ns.has_label(mode.version_label());
    if mode == Mode::Warn && ns.warn_follows_enforce {
        "follows enforce"
    } else if labelled {
        "from label"
    } else {
        "cluster default"
    }
}

/// One line naming the namespace's three modes and where each came from, plus a line per
/// invalid label.
pub fn policy_summary(namespace: &str, ns: &NamespacePolicy, _config: &PodSecurityConfig) -> String {
    let p = &ns.policy;
    let mut s = format!(
        "Namespace {} asks for enforce={} ({}), audit={} ({}), warn={} ({}).",
        go_quote(namespace),
        p.enforce,
        source(ns, Mode::Enforce),
        p.audit,
        source(ns, Mode::Audit),
        p.warn,
        source(ns, Mode::Warn),
    );
    for e in &ns.errors {
        let fallback = if e.label.ends_with("-version") {
            "so that mode uses version latest"
        } else if e.label.ends_with("/enforce") {
            "so enforce uses restricted (an unreadable enforce level fails closed)"
        } else {
            "so that mode uses privileged (an unreadable audit or warn level fails open)"
        };
        s.push_str(&format!(
            "\nThe label {} has the invalid value {} ({}), {fallback}.",
            e.label,
            go_quote(&e.value),
            e.detail
        ));
    }
    s
}

/// How to satisfy a check, in a sentence.
pub fn fix_hint(id: &str, lv: LevelVersion) -> String {
    let minor = lv.version.effective_minor();
    match id {
        "hostNamespaces" => "remove hostNetwork, hostPID and hostIPC from the pod spec (or set them to false).".into(),
        "privileged" => "remove securityContext.privileged: true from the listed containers.".into(),
        "capabilities_baseline" => "add only capabilities from the default set (AUDIT_WRITE, CHOWN, DAC_OVERRIDE, \
            FOWNER, FSETID, KILL, MKNOD, NET_BIND_SERVICE, SETFCAP, SETGID, SETPCAP, SETUID, SYS_CHROOT) in \
            securityContext.capabilities.add."
            .into(),
        "hostPathVolumes" => "replace the hostPath volumes with emptyDir, configMap, secret or a \
            PersistentVolumeClaim."
            .into(),
        "hostPorts" => "remove hostPort from the container ports (reach the pod through a Service instead).".into(),
        "hostProbesAndHostLifecycle" => "remove the host field from the httpGet/tcpSocket probes and lifecycle \
            handlers; without it they target the pod's own IP."
            .into(),
        "appArmorProfile" => "leave the AppArmor profile unset or use type RuntimeDefault or Localhost (annotations: \
            runtime/default or localhost/<profile>)."
            .into(),
        "seLinuxOptions" => {
            let types = if minor >= 31 {
                "container_t, container_init_t, container_kvm_t or container_engine_t"
            } else {
                "container_t, container_init_t or container_kvm_t"
            };
            format!("leave seLinuxOptions.user and .role empty and use no type or one of {types}.")
        }
        "procMount" => {
            if minor >= 35 {
                "leave securityContext.procMount unset or Default, or run the pod in its own user namespace \
                 (spec.hostUsers: false)."
                    .into()
            } else {
                "leave securityContext.procMount unset or Default.".into()
            }
        }
        "procMount_restricted" => "leave securityContext.procMount unset or Default (at restricted a user namespace \
            does not make Unmasked acceptable)."
            .into(),
        "seccompProfile_baseline" => {
            if minor >= 19 {
                "leave the seccomp profile unset or use type RuntimeDefault or Localhost (not Unconfined).".into()
            } else {
                "use the seccomp annotations only with runtime/default, docker/default or localhost/<profile>.".into()
            }
        }
        "sysctls" => {
            format!("set only the safe sysctls of this policy version: {}.", allowed_sysctls(minor).join(", "))
        }
        "windowsHostProcess" => "remove windowsOptions.hostProcess: true from the pod and its containers.".into(),
        "allowPrivilegeEscalation" => {
            "set securityContext.allowPrivilegeEscalation: false on every listed container.".into()
        }
        "capabilities_restricted" => "set securityContext.capabilities.drop: [\"ALL\"] on every listed container and \
            add nothing except NET_BIND_SERVICE."
            .into(),
        "restrictedVolumes" => "use only configMap, csi, downwardAPI, emptyDir, ephemeral, image, \
            persistentVolumeClaim, projected or secret volumes."
            .into(),
        "runAsNonRoot" => "set securityContext.runAsNonRoot: true in the pod spec (it covers every container) and \
            never false on a container; the image must then run as a non-zero UID."
            .into(),
        "runAsUser" => "do not set runAsUser: 0; choose a non-zero UID or leave it unset.".into(),
        "seccompProfile_restricted" => "set securityContext.seccompProfile.type: RuntimeDefault (or Localhost) in \
            the pod spec, or on every container."
            .into(),
        _ => "change the fields named in the detail.".into(),
    }
}

fn mode_effect(mode: Mode) -> &'static str {
    match mode {
        Mode::Enforce => "the request is rejected with 403 Forbidden and nothing is stored",
        Mode::Audit => {
            "the violations go to the audit log (annotation pod-security.kubernetes.io/audit-violations); the \
             request itself is not affected"
        }
        Mode::Warn => {
            "the violations come back to the client as a warning (kubectl prints `Warning: would violate \
             PodSecurity ...`); the request itself is not affected"
        }
    }
}

fn describe_mode(eval: &ModeEvaluation, earlier: &[ModeEvaluation]) -> String {
    let lv = eval.policy;
    let head = format!("{} {}", eval.mode.as_str(), lv);
    if lv.level == Level::Privileged {
        return format!("{head}: privileged allows everything, so no checks run.");
    }
    let failed: Vec<_> = eval.results.iter().filter(|r| !r.allowed).collect();
    if let Some(prev) = earlier.iter().find(|e| e.policy == lv) {
        return if failed.is_empty() {
            format!("{head}: same level and version as {}, so the same result: all checks pass.", prev.mode.as_str())
        } else {
            format!(
                "{head}: same level and version as {}, so the same {} violation(s); {}.",
                prev.mode.as_str(),
                failed.len(),
                mode_effect(eval.mode)
            )
        };
    }
    let minor = lv.version.effective_minor();
    let ids: Vec<&str> = checks_for(lv).into_iter().map(|(c, _)| c.id).collect();
    let level_scope = match lv.level {
        Level::Restricted => {
            "the baseline checks, where a stricter restricted check does not replace them, and the restricted checks"
        }
        _ => "the baseline checks",
    };
    let mut s = format!(
        "{head}: {} checks ran ({level_scope}, as defined at policy v1.{minor}): {}.",
        ids.len(),
        ids.join(", ")
    );
    if failed.is_empty() {
        s.push_str(" All passed.");
        return s;
    }
    s.push_str(&format!(" {} failed, so {}:", failed.len(), mode_effect(eval.mode)));
    for r in failed {
        s.push_str(&format!("\n  - {}: {}", r.id, r.reason));
        if !r.detail.is_empty() {
            s.push_str(&format!(" ({})", r.detail));
        }
        s.push_str(&format!(". To pass: {}", fix_hint(&r.id, lv)));
    }
    s
}

/// The explanation of an evaluated pod or workload request.
pub fn evaluation(
    config: &PodSecurityConfig,
    ns: &NamespacePolicy,
    req: &AdmissionRequest,
    out: &PsaOutcome,
    enforce: bool,
) -> String {
    let mut lines = vec![policy_summary(req.namespace, ns, config)];
    if !enforce {
        let kind = req.object.resource().map(|r| r.qualified_kind()).unwrap_or_else(|| req.object.kind().to_string());
        lines.push(format!(
            "A {kind} is not a Pod: PodSecurity checks its pod template in the warn and audit modes only and never \
             rejects it. Enforce applies later, to each Pod its controller creates; if the template breaks the \
             enforce level those Pods are rejected and the error shows up on the {kind}'s status and events."
        ));
    }
    for (i, e) in out.evaluations.iter().enumerate() {
        lines.push(describe_mode(e, &out.evaluations[..i]));
    }
    if out.denied.is_some() {
        lines.push("Warn is not evaluated: the request is already rejected, so no warning is added.".into());
    } else if enforce {
        lines.push("The Pod is admitted by PodSecurity.".into());
    }
    lines.join("\n")
}
