//! `ServiceAccount` (`plugin/pkg/admission/serviceaccount`).
//!
//! On pod create: `serviceAccountName` defaults to `default`; the account must exist; unless
//! automounting is off (the pod's `automountServiceAccountToken` wins over the account's), a
//! projected volume `kube-api-access-<5 random chars>` (a bound token that expires after 3607 s,
//! the cluster CA from the `kube-root-ca.crt` ConfigMap, the namespace from the downward API)
//! is added and mounted read-only at `/var/run/secrets/kubernetes.io/serviceaccount` in every
//! init and app container that does not already mount something there; the account's
//! `imagePullSecrets` are copied when the pod has none. Mirror pods are never changed and may
//! not reference service accounts, secrets or token projections.

use super::{all_containers, is_mirror_pod, pod_mut, pod_secret_names};
use crate::admission::{Attributes, Context, Decision, MutatingPlugin, Operation, Rejection, ValidatingPlugin};
use crate::object::Object;
use k8s_openapi::api::core::v1::{
    ConfigMapProjection, DownwardAPIProjection, DownwardAPIVolumeFile, KeyToPath, LocalObjectReference,
    ObjectFieldSelector, Pod, ProjectedVolumeSource, ServiceAccount as Sa, ServiceAccountTokenProjection, Volume,
    VolumeMount, VolumeProjection,
};

pub(crate) struct ServiceAccount;

const DEFAULT_NAME: &str = "default";
const VOLUME_PREFIX: &str = "kube-api-access-";
const MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
/// `serviceaccount.WarnOnlyBoundTokenExpirationSeconds`: one hour and seven seconds.
const TOKEN_EXPIRATION_SECONDS: i64 = 3607;
/// `corev1.ProjectedVolumeSourceDefaultMode` (0644).
const DEFAULT_MODE: i32 = 420;
const ENFORCE_MOUNTABLE_SECRETS: &str = "kubernetes.io/enforce-mountable-secrets";

fn ignored(attrs: &Attributes) -> bool {
    !attrs.is_core("pods") || !(attrs.subresource.is_empty() || attrs.subresource == "ephemeralcontainers")
}

fn lookup(ctx: &Context, attrs: &Attributes, obj: &Object, name: &str) -> Result<Sa, Rejection> {
    match ctx.get("ServiceAccount", Some(&attrs.namespace), name) {
        Some(Object::ServiceAccount(sa)) => Ok((**sa).clone()),
        _ => Err(attrs.forbidden(
            Some(obj),
            format!("error looking up service account {}/{name}: serviceaccount \"{name}\" not found", attrs.namespace),
        )),
    }
}

/// The name the pod asks for: `serviceAccountName`, or the deprecated `serviceAccount`.
fn requested(pod: &Pod) -> String {
    let spec = pod.spec.as_ref();
    let name = spec.and_then(|s| s.service_account_name.clone()).unwrap_or_default();
    if name.is_empty() {
        spec.and_then(|s| s.service_account.clone()).unwrap_or_default()
    } else {
        name
    }
}

impl MutatingPlugin for ServiceAccount {
    fn name(&self) -> &'static str {
        "ServiceAccount"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        !ignored(attrs) && attrs.operation == Operation::Create
    }

    fn admit(&self, ctx: &Context, attrs: &Attributes, obj: &mut Object) -> Decision {
        let snapshot = obj.clone();
        let Some(pod) = pod_mut(obj) else { return Decision::silent() };
        if is_mirror_pod(pod) {
            return match validate_mirror(attrs, &snapshot, pod) {
                Some(r) => Decision::deny(r, "Mirror pods (static pods) may not use the API's credentials."),
                None => Decision::allow("Mirror pods are left exactly as the kubelet wrote them."),
            };
        }
        let mut notes = Vec::new();
        let mut name = requested(pod);
        if name.is_empty() {
            name = DEFAULT_NAME.to_string();
            notes.push("The pod names no service account, so it runs as \"default\".".to_string());
        }
        let spec = pod.spec.get_or_insert_with(Default::default);
        spec.service_account_name = Some(name.clone());
        let sa = match lookup(ctx, attrs, &snapshot, &name) {
            Ok(sa) => sa,
            Err(r) => {
                return Decision::deny(
                    r,
                    format!(
                        "The ServiceAccount {name:?} does not exist in namespace {}. (The \"default\" account \
                         is created by the service-account controller right after the namespace.)",
                        attrs.namespace
                    ),
                )
            }
        };
        // The v1 API still carries the deprecated field, always equal to serviceAccountName.
        spec.service_account = Some(name.clone());
        let automount = spec.automount_service_account_token.or(sa.automount_service_account_token).unwrap_or(true);
        if automount {
            let (volume, mounted) = mount_token(ctx, pod);
            if mounted.is_empty() {
                notes.push("Every container already mounts something at the token path; nothing to add.".into());
            } else {
                notes.push(format!(
                    "Token volume {volume} (a bound token valid for 3607 s, the cluster CA and the namespace) is mounted \
                     read-only at {MOUNT_PATH} in {}.",
                    mounted.join(", ")
                ));
            }
        } else {
            let who = if pod.spec.as_ref().and_then(|s| s.automount_service_account_token).is_some() {
                "the pod"
            } else {
                "the service account"
            };
            notes.push(format!("automountServiceAccountToken is false on {who}: no API token is mounted."));
        }
        let spec = pod.spec.get_or_insert_with(Default::default);
        if spec.image_pull_secrets.as_ref().is_none_or(|v| v.is_empty()) {
            let secrets: Vec<LocalObjectReference> =
                sa.image_pull_secrets.iter().flatten().map(|s| LocalObjectReference { name: s.name.clone() }).collect();
            if !secrets.is_empty() {
                notes.push(format!(
                    "The account's imagePullSecrets ({}) are copied into the pod.",
                    secrets.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", ")
                ));
                spec.image_pull_secrets = Some(secrets);
            }
        }
        if let Some(r) = enforce_mountable_secrets(attrs, &snapshot, &sa, pod) {
            return Decision::deny(r, "The account only allows the secrets it lists.");
        }
        Decision::allow(notes.join(" "))
    }
}

/// Adds the token volume (reusing an existing `kube-api-access-*` volume's name) and the
/// mounts; returns the volume name and the containers that got the mount.
fn mount_token(ctx: &Context, pod: &mut Pod) -> (String, Vec<String>) {
    let spec = pod.spec.get_or_insert_with(Default::default);
    let existing = spec.volumes.iter().flatten().find(|v| v.name.starts_with(VOLUME_PREFIX)).map(|v| v.name.clone());
    let has_volume = existing.is_some();
    let volume = existing.unwrap_or_else(|| format!("{VOLUME_PREFIX}{}", ctx.random_suffix(5)));
    let mount = VolumeMount {
        name: volume.clone(),
        read_only: Some(true),
        mount_path: MOUNT_PATH.into(),
        ..VolumeMount::default()
    };
    let mut mounted = Vec::new();
    for (kind, list) in [("init container", spec.init_containers.as_mut()), ("container", Some(&mut spec.containers))] {
        for c in list.into_iter().flatten() {
            let has = c.volume_mounts.iter().flatten().any(|m| m.mount_path == MOUNT_PATH);
            if !has {
                c.volume_mounts.get_or_insert_with(Vec::new).push(mount.clone());
                mounted.push(format!("{kind} {}", c.name));
            }
        }
    }
    if !has_volume && !mounted.is_empty() {
        spec.volumes.get_or_insert_with(Vec::new).push(Volume {
            name: volume.clone(),
            projected: Some(token_volume_source()),
            ..Volume::default()
        });
    }
    (volume, mounted)
}

/// The projected source of the token volume, exactly as upstream builds it.
fn token_volume_source() -> ProjectedVolumeSource {
    ProjectedVolumeSource {
        default_mode: Some(DEFAULT_MODE),
        sources: Some(vec![
            VolumeProjection {
                service_account_token: Some(ServiceAccountTokenProjection {
                    path: "token".into(),
                    expiration_seconds: Some(TOKEN_EXPIRATION_SECONDS),
                    ..ServiceAccountTokenProjection::default()
                }),
                ..VolumeProjection::default()
            },
            VolumeProjection {
                config_map: Some(ConfigMapProjection {
                    name: "kube-root-ca.crt".into(),
                    items: Some(vec![KeyToPath {
                        key: "ca.crt".into(),
                        path: "ca.crt".into(),
                        ..KeyToPath::default()
                    }]),
                    optional: None,
                }),
                ..VolumeProjection::default()
            },
            VolumeProjection {
                downward_api: Some(DownwardAPIProjection {
                    items: Some(vec![DownwardAPIVolumeFile {
                        path: "namespace".into(),
                        field_ref: Some(ObjectFieldSelector {
                            api_version: Some("v1".into()),
                            field_path: "metadata.namespace".into(),
                        }),
                        ..DownwardAPIVolumeFile::default()
                    }]),
                }),
                ..VolumeProjection::default()
            },
        ]),
        ..ProjectedVolumeSource::default()
    }
}

fn validate_mirror(attrs: &Attributes, obj: &Object, pod: &Pod) -> Option<Rejection> {
    let spec = pod.spec.as_ref()?;
    if spec.service_account_name.as_deref().is_some_and(|s| !s.is_empty()) {
        return Some(attrs.forbidden(Some(obj), "a mirror pod may not reference service accounts"));
    }
    if !pod_secret_names(spec).is_empty() {
        return Some(attrs.forbidden(Some(obj), "a mirror pod may not reference secrets"));
    }
    let projects_token = spec
        .volumes
        .iter()
        .flatten()
        .filter_map(|v| v.projected.as_ref())
        .flat_map(|p| p.sources.iter().flatten())
        .any(|s| s.service_account_token.is_some());
    if projects_token {
        return Some(attrs.forbidden(Some(obj), "a mirror pod may not use ServiceAccountToken volume projections"));
    }
    None
}

/// With the `kubernetes.io/enforce-mountable-secrets: "true"` annotation on the account, the pod
/// may only use the secrets the account lists.
fn enforce_mountable_secrets(attrs: &Attributes, obj: &Object, sa: &Sa, pod: &Pod) -> Option<Rejection> {
    let enforced = sa
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(ENFORCE_MOUNTABLE_SECRETS))
        .is_some_and(|v| matches!(v.as_str(), "1" | "t" | "T" | "true" | "TRUE" | "True"));
    if !enforced {
        return None;
    }
    let sa_name = sa.metadata.name.clone().unwrap_or_default();
    let mountable: Vec<String> = sa.secrets.iter().flatten().filter_map(|s| s.name.clone()).collect();
    let spec = pod.spec.as_ref()?;
    let deny = |msg: String| Some(attrs.forbidden(Some(obj), msg));
    for v in spec.volumes.iter().flatten() {
        if let Some(s) = &v.secret {
            let name = s.secret_name.clone().unwrap_or_default();
            if !mountable.contains(&name) {
                return deny(format!(
                    "volume with secret.secretName=\"{name}\" is not allowed because service account {sa_name} does not reference that secret"
                ));
            }
        }
    }
    for (what, list) in
        [("init container", spec.init_containers.as_deref().unwrap_or(&[])), ("container", &spec.containers)]
    {
        for c in list {
            for e in c.env.iter().flatten() {
                if let Some(r) = e.value_from.as_ref().and_then(|v| v.secret_key_ref.as_ref()) {
                    if !mountable.contains(&r.name) {
                        return deny(format!(
                            "{what} {} with envVar {} referencing secret.secretName=\"{}\" is not allowed because service account {sa_name} does not reference that secret",
                            c.name, e.name, r.name
                        ));
                    }
                }
            }
            for e in c.env_from.iter().flatten() {
                if let Some(r) = &e.secret_ref {
                    if !mountable.contains(&r.name) {
                        return deny(format!(
                            "{what} {} with envFrom referencing secret.secretName=\"{}\" is not allowed because service account {sa_name} does not reference that secret",
                            c.name, r.name
                        ));
                    }
                }
            }
        }
    }
    let pull: Vec<String> = sa.image_pull_secrets.iter().flatten().map(|s| s.name.clone()).collect();
    for (i, s) in spec.image_pull_secrets.iter().flatten().enumerate() {
        if !pull.contains(&s.name) {
            return deny(format!(
                "imagePullSecrets[{i}].name=\"{}\" is not allowed because service account {sa_name} does not reference that imagePullSecret",
                s.name
            ));
        }
    }
    None
}

impl ValidatingPlugin for ServiceAccount {
    fn name(&self) -> &'static str {
        "ServiceAccount"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        !ignored(attrs)
            && (attrs.operation == Operation::Create
                || (attrs.operation == Operation::Update && attrs.subresource == "ephemeralcontainers"))
    }

    fn validate(&self, ctx: &Context, attrs: &Attributes, obj: &Object) -> Decision {
        let Object::Pod(pod) = obj else { return Decision::silent() };
        if attrs.operation == Operation::Create && is_mirror_pod(pod) {
            return match validate_mirror(attrs, obj, pod) {
                Some(r) => Decision::deny(r, "Mirror pods (static pods) may not use the API's credentials."),
                None => Decision::allow("A mirror pod without API credentials."),
            };
        }
        let name = pod.spec.as_ref().and_then(|s| s.service_account_name.clone()).unwrap_or_default();
        if name.is_empty() {
            return Decision::deny(
                attrs.forbidden(
                    Some(obj),
                    format!(
                        "no service account specified for pod {}/{}",
                        attrs.namespace,
                        pod.metadata.name.as_deref().unwrap_or("")
                    ),
                ),
                "Every pod must run as a service account.",
            );
        }
        let sa = match lookup(ctx, attrs, obj, &name) {
            Ok(sa) => sa,
            Err(r) => return Decision::deny(r, format!("The ServiceAccount {name:?} does not exist.")),
        };
        if attrs.operation == Operation::Create {
            if let Some(r) = enforce_mountable_secrets(attrs, obj, &sa, pod) {
                return Decision::deny(r, "The account only allows the secrets it lists.");
            }
        }
        let containers = pod.spec.as_ref().map(|s| all_containers(s).count()).unwrap_or(0);
        Decision::allow(ctx.explain(|| {
            format!("The ServiceAccount {name} exists; the pod's {containers} container(s) may use its token.")
        }))
    }
}
