//! Security contexts: the container's (`ValidateSecurityContext`, seccomp and AppArmor
//! profiles) and the pod's (`ValidatePodSecurityContext`).

use super::*;

/// The container security context checks of `ValidateSecurityContext`.
pub(super) fn security_context(sc: &SecurityContext, p: &str, errs: &mut Errs) {
    if let Some(u) = sc.run_as_user.filter(|u| !(0..=i32::MAX as i64).contains(u)) {
        errs.push(FieldError::invalid(format!("{p}.runAsUser"), u, names::inclusive_range_error(0, i32::MAX as i64)));
    }
    if let Some(g) = sc.run_as_group.filter(|g| !(0..=i32::MAX as i64).contains(g)) {
        errs.push(FieldError::invalid(format!("{p}.runAsGroup"), g, names::inclusive_range_error(0, i32::MAX as i64)));
    }
    if let Some(pm) = sc.proc_mount.as_deref() {
        if !matches!(pm, "Default" | "Unmasked") {
            errs.push(FieldError::not_supported(format!("{p}.procMount"), pm, &["Default", "Unmasked"]));
        }
    }
    if let Some(sp) = &sc.seccomp_profile {
        seccomp_profile(&sp.type_, sp.localhost_profile.as_deref(), &format!("{p}.seccompProfile"), errs);
    }
    if sc.allow_privilege_escalation == Some(false) {
        let sc_value = internal_security_context(sc);
        if sc.privileged == Some(true) {
            errs.push(FieldError::invalid(
                p,
                sc_value.clone(),
                "cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
            ));
        }
        if sc.capabilities.as_ref().and_then(|c| c.add.as_ref()).is_some_and(|a| a.iter().any(|c| c == "CAP_SYS_ADMIN"))
        {
            errs.push(FieldError::invalid(
                p,
                sc_value,
                "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
            ));
        }
    }
    if let Some(ap) = &sc.app_armor_profile {
        app_armor_profile(&ap.type_, ap.localhost_profile.as_deref(), &format!("{p}.appArmorProfile"), errs);
    }
}

/// The internal `core.SecurityContext` as Go's `json.Marshal` writes it (no JSON tags, so Go's
/// field names); nested structs are shown with their versioned field names.
pub(super) fn internal_security_context(sc: &SecurityContext) -> serde_json::Value {
    fn v<T: serde::Serialize>(x: &Option<T>) -> serde_json::Value {
        x.as_ref().map(|x| serde_json::to_value(x).unwrap_or_default()).unwrap_or_default()
    }
    json!({
        "Capabilities": sc.capabilities.as_ref().map(|c| json!({"Add": c.add, "Drop": c.drop})),
        "Privileged": sc.privileged,
        "SELinuxOptions": v(&sc.se_linux_options),
        "WindowsOptions": v(&sc.windows_options),
        "RunAsUser": sc.run_as_user,
        "RunAsGroup": sc.run_as_group,
        "RunAsNonRoot": sc.run_as_non_root,
        "ReadOnlyRootFilesystem": sc.read_only_root_filesystem,
        "AllowPrivilegeEscalation": sc.allow_privilege_escalation,
        "ProcMount": sc.proc_mount,
        "SeccompProfile": v(&sc.seccomp_profile),
        "AppArmorProfile": v(&sc.app_armor_profile),
    })
}

pub(super) fn seccomp_profile(t: &str, localhost: Option<&str>, p: &str, errs: &mut Errs) {
    match t {
        "Localhost" | "RuntimeDefault" | "Unconfined" => {}
        "" => errs.push(FieldError::required(format!("{p}.type"), "type is required when seccompProfile is set")),
        other => errs.push(FieldError::not_supported(
            format!("{p}.type"),
            other,
            &["Localhost", "RuntimeDefault", "Unconfined"],
        )),
    }
    if t == "Localhost" {
        match localhost {
            None => errs.push(FieldError::required(
                format!("{p}.localhostProfile"),
                "must be set when seccomp type is Localhost",
            )),
            Some(lp) => local_descending_path(lp, &format!("{p}.localhostProfile"), errs),
        }
    } else if localhost.is_some() {
        errs.push(FieldError::invalid(
            format!("{p}.localhostProfile"),
            json!({"type": t, "localhostProfile": localhost}),
            "can only be set when seccomp type is Localhost",
        ));
    }
}

pub(super) fn app_armor_profile(t: &str, localhost: Option<&str>, p: &str, errs: &mut Errs) {
    match t {
        "Localhost" => match localhost {
            None => errs.push(FieldError::required(
                format!("{p}.localhostProfile"),
                "must be set when AppArmor type is Localhost",
            )),
            Some(lp) => {
                if lp.trim() != lp {
                    errs.push(FieldError::invalid(
                        format!("{p}.localhostProfile"),
                        lp,
                        "must not be padded with whitespace",
                    ));
                } else if lp.is_empty() {
                    errs.push(FieldError::required(
                        format!("{p}.localhostProfile"),
                        "must be set when AppArmor type is Localhost",
                    ));
                }
                if lp.len() > 4095 {
                    errs.push(FieldError::too_long(format!("{p}.localhostProfile"), 4095));
                }
            }
        },
        "RuntimeDefault" | "Unconfined" => {
            if let Some(lp) = localhost {
                errs.push(FieldError::invalid(
                    format!("{p}.localhostProfile"),
                    lp,
                    "can only be set when AppArmor type is Localhost",
                ));
            }
        }
        "" => errs.push(FieldError::required(format!("{p}.type"), "type is required when appArmorProfile is set")),
        other => errs.push(FieldError::not_supported(
            format!("{p}.type"),
            other,
            &["Localhost", "RuntimeDefault", "Unconfined"],
        )),
    }
}

pub(super) fn pod_security_context(spec: &PodSpec, p: &str, errs: &mut Errs) {
    let Some(sc) = &spec.security_context else { return };
    let sp = format!("{p}.securityContext");
    let max = i32::MAX as i64;
    if let Some(g) = sc.fs_group.filter(|g| !(0..=max).contains(g)) {
        errs.push(FieldError::invalid(format!("{sp}.fsGroup"), g, names::inclusive_range_error(0, max)));
    }
    if let Some(u) = sc.run_as_user.filter(|u| !(0..=max).contains(u)) {
        errs.push(FieldError::invalid(format!("{sp}.runAsUser"), u, names::inclusive_range_error(0, max)));
    }
    if let Some(g) = sc.run_as_group.filter(|g| !(0..=max).contains(g)) {
        errs.push(FieldError::invalid(format!("{sp}.runAsGroup"), g, names::inclusive_range_error(0, max)));
    }
    for (i, g) in sc.supplemental_groups.iter().flatten().enumerate() {
        if !(0..=max).contains(g) {
            errs.push(FieldError::invalid(
                format!("{sp}.supplementalGroups[{i}]"),
                *g,
                names::inclusive_range_error(0, max),
            ));
        }
    }
    if spec.share_process_namespace == Some(true) && spec.host_pid == Some(true) {
        errs.push(FieldError::invalid(
            format!("{sp}.shareProcessNamespace"),
            true,
            "ShareProcessNamespace and HostPID cannot both be enabled",
        ));
    }
    if let Some(policy) = sc.fs_group_change_policy.as_deref() {
        if !matches!(policy, "Always" | "OnRootMismatch") {
            errs.push(FieldError::not_supported(
                format!("{sp}.fsGroupChangePolicy"),
                policy,
                &["Always", "OnRootMismatch"],
            ));
        }
    }
    if let Some(s) = &sc.seccomp_profile {
        seccomp_profile(&s.type_, s.localhost_profile.as_deref(), &format!("{sp}.seccompProfile"), errs);
    }
    if let Some(a) = &sc.app_armor_profile {
        app_armor_profile(&a.type_, a.localhost_profile.as_deref(), &format!("{sp}.appArmorProfile"), errs);
    }
}
