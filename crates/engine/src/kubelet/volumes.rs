//! Volumes: what the kubelet's volume manager (upstream's `pkg/kubelet/volumemanager`) sets
//! up before the sandbox is created (`Kubelet::volumes_ready`), and the texts it reports
//! when it cannot.
//!
//! Exact upstream texts: `MountVolume.SetUp failed for volume "<v>" : <err>` events (one per
//! failed attempt), `configmap "<n>" not found` / `secret "<n>" not found` (the kubelet's
//! watch-based managers report the singular resource), `configmap references non-existent
//! config key: <k>`, `references non-existent secret key: <k>`, the hostPath type checks
//! (`hostPath type check failed: <p> is not a directory`, ...). Retries follow the volume
//! operation back-off: 500 ms doubling up to 2m2s. Since v1.28 the kubelet no longer records
//! the `Unable to attach or mount volumes: ...` event when its 2m3s wait times out (the wait
//! error is a context deadline, which the kubelet treats as an interruption): it only logs it.

use super::{cgroups, volumes, Kubelet, PodWorker, PLEG_RELIST_MS};
use crate::object::Object;
use crate::store::Store;
use crate::trace::{Component, Phase, StepStatus, Table};
use crate::world::World;
use k8s_openapi::api::core::v1::{ConfigMap, PersistentVolume, PersistentVolumeClaim, Pod, Secret, Volume};
use std::collections::BTreeMap;

/// Where the kubelet keeps pod directories.
pub const KUBELET_PODS_DIR: &str = "/var/lib/kubelet/pods";
/// First retry delay of a failed volume operation.
pub const VOLUME_BACKOFF_INITIAL_MS: u64 = 500;
/// Largest retry delay of a failed volume operation (2m2s).
pub const VOLUME_BACKOFF_MAX_MS: u64 = 122_000;
/// The volume manager's reconciler loop period.
pub const VOLUME_RECONCILE_MS: u64 = 100;
/// How often the pod worker checks whether its volumes are mounted.
pub const VOLUME_POLL_MS: u64 = 300;
/// How long the pod worker waits for volumes before giving up on one sync (2m3s).
pub const VOLUME_WAIT_TIMEOUT_MS: u64 = 123_000;
/// Time a mount operation (SetUp) takes.
pub const VOLUME_MOUNT_MS: u64 = 20;
/// Lifetime the kubelet asks for projected service account tokens (1h + 7s).
pub const TOKEN_EXPIRATION_SECONDS: i64 = 3607;
/// Where projected service account credentials are mounted.
pub const SERVICE_ACCOUNT_MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

/// A mounted volume.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mounted {
    pub name: String,
    /// `emptyDir`, `configMap`, `secret`, `projected`, `hostPath`, `persistentVolumeClaim`, ...
    pub kind: String,
    /// The directory on the node that is bind-mounted into containers.
    pub host_path: String,
    /// `tmpfs (size 64Mi)`, `node disk`, ...
    pub medium: String,
    /// File names inside the volume.
    pub files: Vec<String>,
    pub detail: String,
}

/// The outcome of one mount attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MountResult {
    Mounted(Mounted),
    /// SetUp failed: the error text (an event is recorded and the operation retried).
    Failed(String),
    /// Not ready to mount yet and no event: an unbound PVC, a missing claim.
    Waiting(String),
}

fn plugin_dir(uid: &str, plugin: &str, name: &str) -> String {
    format!("{KUBELET_PODS_DIR}/{uid}/volumes/kubernetes.io~{plugin}/{name}")
}

fn get<'a, T>(store: &'a Store<Object>, key: &str, pick: fn(&Object) -> Option<&T>) -> Option<&'a T> {
    store.get(key).and_then(|(o, _)| pick(o))
}

fn as_cm(o: &Object) -> Option<&ConfigMap> {
    match o {
        Object::ConfigMap(c) => Some(c),
        _ => None,
    }
}
fn as_secret(o: &Object) -> Option<&Secret> {
    match o {
        Object::Secret(s) => Some(s),
        _ => None,
    }
}
fn as_pvc(o: &Object) -> Option<&PersistentVolumeClaim> {
    match o {
        Object::PersistentVolumeClaim(p) => Some(p),
        _ => None,
    }
}
fn as_pv(o: &Object) -> Option<&PersistentVolume> {
    match o {
        Object::PersistentVolume(p) => Some(p),
        _ => None,
    }
}

/// A ConfigMap as the kubelet's manager sees it.
pub fn config_map<'a>(store: &'a Store<Object>, ns: &str, name: &str) -> Option<&'a ConfigMap> {
    get(store, &format!("/registry/configmaps/{ns}/{name}"), as_cm)
}

/// A Secret as the kubelet's manager sees it.
pub fn secret<'a>(store: &'a Store<Object>, ns: &str, name: &str) -> Option<&'a Secret> {
    get(store, &format!("/registry/secrets/{ns}/{name}"), as_secret)
}

fn cm_keys(cm: &ConfigMap) -> Vec<String> {
    cm.data
        .iter()
        .flatten()
        .map(|(k, _)| k.clone())
        .chain(cm.binary_data.iter().flatten().map(|(k, _)| k.clone()))
        .collect()
}

/// A Secret's keys, in order (its `data`: the API server stores no `stringData`).
fn secret_keys(s: &Secret) -> Vec<String> {
    s.data.iter().flatten().map(|(k, _)| k.clone()).collect()
}

/// A node path's type as the lab's node filesystem knows it.
fn host_path_type(path: &str) -> Option<&'static str> {
    const DIRS: &[&str] = &[
        "/",
        "/var",
        "/var/log",
        "/var/log/pods",
        "/var/log/containers",
        "/var/lib",
        "/var/lib/kubelet",
        "/var/lib/containerd",
        "/etc",
        "/tmp",
        "/proc",
        "/sys",
        "/dev",
        "/run",
        "/var/run",
        "/opt",
        "/usr",
        "/home",
        "/mnt",
        "/srv",
        "/data",
        "/etc/kubernetes",
        "/lib/modules",
        "/usr/share",
        "/var/local-path-provisioner",
    ];
    const FILES: &[&str] =
        &["/etc/hosts", "/etc/resolv.conf", "/etc/os-release", "/etc/localtime", "/etc/hostname", "/etc/passwd"];
    const SOCKETS: &[&str] = &["/run/containerd/containerd.sock", "/var/run/containerd/containerd.sock"];
    const CHARS: &[&str] = &["/dev/null", "/dev/zero", "/dev/kmsg", "/dev/fuse", "/dev/random", "/dev/urandom"];
    let p = path.trim_end_matches('/');
    let p = if p.is_empty() { "/" } else { p };
    if DIRS.contains(&p) {
        Some("Directory")
    } else if FILES.contains(&p) {
        Some("File")
    } else if SOCKETS.contains(&p) {
        Some("Socket")
    } else if CHARS.contains(&p) {
        Some("CharDevice")
    } else {
        None
    }
}

/// Mounts one volume of a pod (one SetUp attempt).
pub fn mount(store: &Store<Object>, pod: &Pod, vol: &Volume, memory_limit: Option<String>) -> MountResult {
    let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
    let uid = pod.metadata.uid.as_deref().unwrap_or("");
    let name = vol.name.clone();
    if let Some(ed) = &vol.empty_dir {
        let memory = ed.medium.as_deref() == Some("Memory");
        let size = ed.size_limit.as_ref().map(|q| q.0.clone());
        let medium = if memory {
            let size = size.or(memory_limit).unwrap_or_else(|| "the node's allocatable memory".to_string());
            format!("tmpfs (size {size}, counts against the container's memory)")
        } else {
            match size {
                Some(s) => format!("node disk (sizeLimit {s}: the pod is evicted if it writes more)"),
                None => "node disk (no size limit)".to_string(),
            }
        };
        return MountResult::Mounted(Mounted {
            name: name.clone(),
            kind: "emptyDir".into(),
            host_path: plugin_dir(uid, "empty-dir", &name),
            medium,
            files: vec![],
            detail: "an empty directory that lives as long as the pod".into(),
        });
    }
    if let Some(src) = &vol.config_map {
        let cm_name = src.name.clone();
        let optional = src.optional == Some(true);
        let Some(cm) = config_map(store, ns, &cm_name) else {
            if optional {
                return MountResult::Mounted(Mounted {
                    name: name.clone(),
                    kind: "configMap".into(),
                    host_path: plugin_dir(uid, "configmap", &name),
                    medium: "node disk".into(),
                    files: vec![],
                    detail: format!("configmap {cm_name:?} does not exist; optional, so the volume is empty"),
                });
            }
            return MountResult::Failed(format!("configmap {cm_name:?} not found"));
        };
        let keys = cm_keys(cm);
        let files = match &src.items {
            Some(items) if !items.is_empty() => {
                let mut files = vec![];
                for it in items {
                    if !keys.contains(&it.key) {
                        if optional {
                            continue;
                        }
                        return MountResult::Failed(format!(
                            "configmap references non-existent config key: {}",
                            it.key
                        ));
                    }
                    files.push(it.path.clone());
                }
                files
            }
            _ => keys,
        };
        return MountResult::Mounted(Mounted {
            name: name.clone(),
            kind: "configMap".into(),
            host_path: plugin_dir(uid, "configmap", &name),
            medium: "node disk (written atomically through a ..data symlink)".into(),
            files,
            detail: format!("files from configmap {cm_name:?}"),
        });
    }
    if let Some(src) = &vol.secret {
        let s_name = src.secret_name.clone().unwrap_or_default();
        let optional = src.optional == Some(true);
        let Some(sec) = secret(store, ns, &s_name) else {
            if optional {
                return MountResult::Mounted(Mounted {
                    name: name.clone(),
                    kind: "secret".into(),
                    host_path: plugin_dir(uid, "secret", &name),
                    medium: "tmpfs".into(),
                    files: vec![],
                    detail: format!("secret {s_name:?} does not exist; optional, so the volume is empty"),
                });
            }
            return MountResult::Failed(format!("secret {s_name:?} not found"));
        };
        let keys = secret_keys(sec);
        let files = match &src.items {
            Some(items) if !items.is_empty() => {
                let mut files = vec![];
                for it in items {
                    if !keys.contains(&it.key) {
                        if optional {
                            continue;
                        }
                        return MountResult::Failed(format!("references non-existent secret key: {}", it.key));
                    }
                    files.push(it.path.clone());
                }
                files
            }
            _ => keys,
        };
        return MountResult::Mounted(Mounted {
            name: name.clone(),
            kind: "secret".into(),
            host_path: plugin_dir(uid, "secret", &name),
            medium: "tmpfs (secrets never touch the node's disk)".into(),
            files,
            detail: format!("files from secret {s_name:?}"),
        });
    }
    if let Some(src) = &vol.projected {
        let mut files = vec![];
        let mut parts = vec![];
        for s in src.sources.iter().flatten() {
            if let Some(t) = &s.service_account_token {
                files.push(t.path.clone());
                let sa =
                    pod.spec.as_ref().and_then(|s| s.service_account_name.clone()).unwrap_or_else(|| "default".into());
                let exp = t.expiration_seconds.unwrap_or(TOKEN_EXPIRATION_SECONDS);
                parts.push(format!(
                    "a token for serviceaccount {ns}/{sa} (TokenRequest, expires in {exp}s, refreshed by the kubelet)"
                ));
            }
            if let Some(c) = &s.config_map {
                let optional = c.optional == Some(true);
                match config_map(store, ns, &c.name) {
                    Some(cm) => {
                        let keys = cm_keys(cm);
                        match &c.items {
                            Some(items) if !items.is_empty() => {
                                for it in items {
                                    if !keys.contains(&it.key) && !optional {
                                        return MountResult::Failed(format!(
                                            "configmap references non-existent config key: {}",
                                            it.key
                                        ));
                                    }
                                    files.push(it.path.clone());
                                }
                            }
                            _ => files.extend(keys),
                        }
                        parts.push(format!("configmap {:?}", c.name));
                    }
                    None if optional => {}
                    None => return MountResult::Failed(format!("configmap {:?} not found", c.name)),
                }
            }
            if let Some(sec) = &s.secret {
                let optional = sec.optional == Some(true);
                match secret(store, ns, &sec.name) {
                    Some(obj) => {
                        files.extend(secret_keys(obj));
                        parts.push(format!("secret {:?}", sec.name));
                    }
                    None if optional => {}
                    None => return MountResult::Failed(format!("secret {:?} not found", sec.name)),
                }
            }
            if let Some(d) = &s.downward_api {
                for it in d.items.iter().flatten() {
                    files.push(it.path.clone());
                }
                parts.push("downward API fields".into());
            }
        }
        return MountResult::Mounted(Mounted {
            name: name.clone(),
            kind: "projected".into(),
            host_path: plugin_dir(uid, "projected", &name),
            medium: "tmpfs".into(),
            files,
            detail: parts.join(", "),
        });
    }
    if let Some(src) = &vol.downward_api {
        return MountResult::Mounted(Mounted {
            name: name.clone(),
            kind: "downwardAPI".into(),
            host_path: plugin_dir(uid, "downward-api", &name),
            medium: "node disk".into(),
            files: src.items.iter().flatten().map(|i| i.path.clone()).collect(),
            detail: "fields of the pod written to files".into(),
        });
    }
    if let Some(src) = &vol.host_path {
        let path = src.path.clone();
        let want = src.type_.clone().unwrap_or_default();
        let actual = host_path_type(&path);
        let fail = |what: &str| MountResult::Failed(format!("hostPath type check failed: {path} is not a {what}"));
        let medium = match (want.as_str(), actual) {
            ("", _) => "the node's own path (no type check)".to_string(),
            ("DirectoryOrCreate", None) => "the node's own path (created as an empty directory, mode 0755)".to_string(),
            ("DirectoryOrCreate", Some("Directory")) | ("Directory", Some("Directory")) => {
                "an existing directory on the node".into()
            }
            ("DirectoryOrCreate", _) | ("Directory", _) => return fail("directory"),
            ("FileOrCreate", None) => "the node's own path (created as an empty file, mode 0644)".to_string(),
            ("FileOrCreate", Some("File")) | ("File", Some("File")) => "an existing file on the node".into(),
            ("FileOrCreate", _) | ("File", _) => return fail("file"),
            ("Socket", Some("Socket")) => "a UNIX socket on the node".into(),
            ("Socket", _) => return fail("socket file"),
            ("CharDevice", Some("CharDevice")) => "a character device on the node".into(),
            ("CharDevice", _) => return fail("character device"),
            ("BlockDevice", _) => return fail("block device"),
            (other, _) => return MountResult::Failed(format!("{other} is an invalid volume type")),
        };
        return MountResult::Mounted(Mounted {
            name: name.clone(),
            kind: "hostPath".into(),
            host_path: path.clone(),
            medium,
            files: vec![],
            detail: "a path of the node itself: the pod sees (and can change) the node's files".into(),
        });
    }
    if let Some(src) = &vol.persistent_volume_claim {
        let claim = src.claim_name.clone();
        let Some(pvc) = get(store, &format!("/registry/persistentvolumeclaims/{ns}/{claim}"), as_pvc) else {
            return MountResult::Waiting(format!("persistentvolumeclaim {claim:?} not found"));
        };
        let phase = pvc.status.as_ref().and_then(|s| s.phase.clone()).unwrap_or_else(|| "Pending".into());
        let volume_name = pvc.spec.as_ref().and_then(|s| s.volume_name.clone()).unwrap_or_default();
        if phase != "Bound" || volume_name.is_empty() {
            return MountResult::Waiting(format!(
                "PVC {ns}/{claim} has non-bound phase ({phase:?}) or empty pvc.Spec.VolumeName ({volume_name:?})"
            ));
        }
        let pv = get(store, &format!("/registry/persistentvolumes/{volume_name}"), as_pv);
        let (host_path, medium) = match pv.and_then(|p| p.spec.as_ref()) {
            Some(spec) if spec.host_path.is_some() => {
                let p = spec.host_path.as_ref().map(|h| h.path.clone()).unwrap_or_default();
                (p, "hostPath PersistentVolume: a directory of this node".to_string())
            }
            Some(spec) if spec.local.is_some() => (
                plugin_dir(uid, "local-volume", &volume_name),
                "local PersistentVolume (a disk of this node)".to_string(),
            ),
            Some(spec) if spec.csi.is_some() => {
                let driver = spec.csi.as_ref().map(|c| c.driver.clone()).unwrap_or_default();
                (
                    format!("{}/mount", plugin_dir(uid, "csi", &volume_name)),
                    format!("CSI driver {driver} (NodeStageVolume, NodePublishVolume)"),
                )
            }
            Some(spec) if spec.nfs.is_some() => (plugin_dir(uid, "nfs", &volume_name), "NFS mount".to_string()),
            _ => (plugin_dir(uid, "csi", &volume_name), "the PersistentVolume's storage".to_string()),
        };
        return MountResult::Mounted(Mounted {
            name: name.clone(),
            kind: "persistentVolumeClaim".into(),
            host_path,
            medium,
            files: vec![],
            detail: format!("claim {claim:?} bound to PersistentVolume {volume_name:?}"),
        });
    }
    MountResult::Mounted(Mounted {
        name: name.clone(),
        kind: "other".into(),
        host_path: plugin_dir(uid, "other", &name),
        medium: "set up by its volume plugin".into(),
        files: vec![],
        detail: "a volume type the lab does not model in detail".into(),
    })
}

/// Paths (absolute in the container) a container sees through its volume mounts, as
/// `runtime::mounted` reads them: each mount point, and the files of a volume whose source
/// names them (configMap, secret, projected, downwardAPI); a mount of any other volume ends
/// in `/`, its contents unknown to the lab.
pub fn container_files(mounts: &BTreeMap<String, Mounted>, c: &k8s_openapi::api::core::v1::Container) -> Vec<String> {
    let mut out = vec![];
    for vm in c.volume_mounts.iter().flatten() {
        let base = vm.mount_path.trim_end_matches('/').to_string();
        let Some(m) = mounts.get(&vm.name) else {
            out.push(base);
            continue;
        };
        let listed = matches!(m.kind.as_str(), "configMap" | "secret" | "projected" | "downwardAPI");
        let sub_path = vm.sub_path.as_deref().is_some_and(|sp| !sp.is_empty());
        if !listed {
            out.push(format!("{base}/"));
        } else if sub_path {
            out.push(base);
        } else {
            out.extend(m.files.iter().map(|f| format!("{base}/{f}")));
            out.push(base);
        }
    }
    out
}

/// The text of each file a container's configMap, secret and projected volumes hold, by
/// absolute path in the container (what `cat` prints and what `sh FILE` runs). Binary
/// values are left out; secret values are shown as their bytes read as UTF-8.
pub fn container_texts(
    store: &Store<Object>,
    pod: &Pod,
    c: &k8s_openapi::api::core::v1::Container,
) -> Vec<(String, String)> {
    let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
    let volumes = pod.spec.as_ref().and_then(|s| s.volumes.as_ref());
    let mut out = vec![];
    for vm in c.volume_mounts.iter().flatten() {
        let Some(vol) = volumes.and_then(|vs| vs.iter().find(|v| v.name == vm.name)) else { continue };
        let mut files: Vec<(String, String)> = vec![];
        let mut add_config_map = |name: &str, items: Option<&Vec<k8s_openapi::api::core::v1::KeyToPath>>| {
            if let Some(cm) = config_map(store, ns, name) {
                let data: Vec<(String, String)> =
                    cm.data.iter().flatten().map(|(k, v)| (k.clone(), v.clone())).collect();
                files.extend(project(data, items));
            }
        };
        if let Some(src) = &vol.config_map {
            add_config_map(&src.name, src.items.as_ref());
        }
        if let Some(src) = &vol.projected {
            for source in src.sources.iter().flatten() {
                if let Some(c) = &source.config_map {
                    add_config_map(&c.name, c.items.as_ref());
                }
            }
        }
        let secret_sources = vol
            .secret
            .iter()
            .map(|s| (s.secret_name.clone().unwrap_or_default(), s.items.as_ref()))
            .chain(vol.projected.iter().flat_map(|p| {
                p.sources.iter().flatten().filter_map(|s| s.secret.as_ref()).map(|s| (s.name.clone(), s.items.as_ref()))
            }));
        for (name, items) in secret_sources {
            if let Some(sec) = secret(store, ns, &name) {
                let data: Vec<(String, String)> = sec
                    .data
                    .iter()
                    .flatten()
                    .map(|(k, v)| (k.clone(), String::from_utf8_lossy(&v.0).into_owned()))
                    .collect();
                files.extend(project(data, items));
            }
        }
        let base = vm.mount_path.trim_end_matches('/');
        match vm.sub_path.as_deref().filter(|sp| !sp.is_empty()) {
            Some(sp) => out.extend(files.into_iter().filter(|(f, _)| f == sp).map(|(_, t)| (base.to_string(), t))),
            None => out.extend(files.into_iter().map(|(f, t)| (format!("{base}/{f}"), t))),
        }
    }
    out
}

/// A volume source's key/value pairs as files: every key under its own name, or only the
/// listed `items`, each at its `path`.
fn project(
    data: Vec<(String, String)>,
    items: Option<&Vec<k8s_openapi::api::core::v1::KeyToPath>>,
) -> Vec<(String, String)> {
    match items.filter(|items| !items.is_empty()) {
        None => data,
        Some(items) => items
            .iter()
            .filter_map(|it| data.iter().find(|(k, _)| *k == it.key).map(|(_, v)| (it.path.clone(), v.clone())))
            .collect(),
    }
}

/// A failing volume.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct VolFail {
    pub(super) backoff_ms: u64,
    pub(super) next_at: u64,
    pub(super) last: String,
}

impl Kubelet {
    /// Volumes: one SetUp attempt per due volume; `true` when all are mounted.
    pub(super) fn volumes_ready(&mut self, core: &mut World, w: &mut PodWorker) -> bool {
        if w.volumes_done {
            return true;
        }
        if core.now < w.vol_check_at {
            self.wake(core, w, w.vol_check_at, false);
            return false;
        }
        let vols = w.pod.spec.as_ref().and_then(|s| s.volumes.clone()).unwrap_or_default();
        let memory_limit = cgroups::pod_cgroup(&w.pod, w.qos, 0).memory_max;
        let memory_limit = (memory_limit != "max").then(|| {
            let b: u64 = memory_limit.parse().unwrap_or(0);
            crate::quantity::Quantity::from_milli(b as i128 * 1000, crate::quantity::Format::BinarySI).to_string()
        });
        let mut pending = false;
        let mut next: Option<u64> = None;
        let obj = w.reference();
        for v in vols {
            if w.mounts.contains_key(&v.name) {
                continue;
            }
            if let Some(f) = w.vol_fail.get(&v.name) {
                if core.now < f.next_at {
                    pending = true;
                    next = Some(next.map_or(f.next_at, |n: u64| n.min(f.next_at)));
                    continue;
                }
            }
            match volumes::mount(&core.store, &w.pod, &v, memory_limit.clone()) {
                volumes::MountResult::Mounted(m) => {
                    let users: Vec<Vec<String>> = w
                        .ctrs
                        .iter()
                        .flat_map(|c| {
                            c.spec.volume_mounts.iter().flatten().filter(|vm| vm.name == v.name).map(|vm| {
                                vec![
                                    c.name.clone(),
                                    vm.mount_path.clone(),
                                    if vm.read_only == Some(true) { "ro".into() } else { "rw".into() },
                                ]
                            })
                        })
                        .collect();
                    let mut facts = vec![
                        ("type".into(), m.kind.clone()),
                        ("on the node".into(), m.host_path.clone()),
                        ("backed by".into(), m.medium.clone()),
                    ];
                    if !m.files.is_empty() {
                        facts.push(("files".into(), m.files.join(", ")));
                    }
                    self.work(
                        core,
                        Phase::Kubelet,
                        Component::Kubelet,
                        Component::Kubelet,
                        Some(&obj),
                        format!("kubelet mounts volume {:?} ({})", m.name, m.kind),
                        "volume",
                        facts,
                        vec![Table {
                            title: "Mounted into".into(),
                            columns: vec!["container".into(), "path".into(), "mode".into()],
                            rows: users,
                        }],
                        m.detail.clone(),
                        StepStatus::Ok,
                    );
                    w.vol_fail.remove(&v.name);
                    w.mounts.insert(v.name.clone(), m);
                }
                volumes::MountResult::Failed(err) => {
                    let f = w.vol_fail.entry(v.name.clone()).or_insert(VolFail {
                        backoff_ms: 0,
                        next_at: 0,
                        last: String::new(),
                    });
                    f.backoff_ms = if f.backoff_ms == 0 {
                        volumes::VOLUME_BACKOFF_INITIAL_MS
                    } else {
                        (f.backoff_ms * 2).min(volumes::VOLUME_BACKOFF_MAX_MS)
                    };
                    f.next_at = core.now + f.backoff_ms;
                    f.last = err.clone();
                    let at = f.next_at;
                    pending = true;
                    next = Some(next.map_or(at, |n: u64| n.min(at)));
                    self.event(
                        core,
                        w,
                        None,
                        "Warning",
                        "FailedMount",
                        format!("MountVolume.SetUp failed for volume {:?} : {err}", v.name),
                        Phase::Kubelet,
                    );
                }
                volumes::MountResult::Waiting(msg) => {
                    let f = w.vol_fail.entry(v.name.clone()).or_insert(VolFail {
                        backoff_ms: 0,
                        next_at: 0,
                        last: String::new(),
                    });
                    let changed = f.last != msg;
                    f.last = msg.clone();
                    f.next_at = core.now + PLEG_RELIST_MS;
                    let at = f.next_at;
                    pending = true;
                    next = Some(next.map_or(at, |n: u64| n.min(at)));
                    if changed {
                        self.work(
                            core,
                            Phase::Kubelet,
                            Component::Kubelet,
                            Component::Kubelet,
                            Some(&obj),
                            format!("kubelet waits for volume {:?}: {msg}", v.name),
                            "volume",
                            vec![("volume".into(), v.name.clone()), ("waiting for".into(), msg)],
                            vec![],
                            "The volume manager cannot add this volume yet. It records no event for this; the pod stays ContainerCreating until the claim is bound.".into(),
                            StepStatus::Warning,
                        );
                    }
                }
            }
        }
        if pending {
            let since = *w.vol_wait_since.get_or_insert(core.now);
            if core.now >= since + volumes::VOLUME_WAIT_TIMEOUT_MS {
                w.vol_wait_since = Some(core.now);
                let names: Vec<String> = w.vol_fail.keys().cloned().collect();
                self.work(
                    core,
                    Phase::Kubelet,
                    Component::Kubelet,
                    Component::Kubelet,
                    Some(&obj),
                    format!("kubelet gives up this sync of {} after 2m3s waiting for volumes (log only)", w.key),
                    "volume",
                    vec![(
                        "kubelet log".into(),
                        format!(
                            "\"Error syncing pod, skipping\" err=\"unmounted volumes=[{}], unattached volumes=[], failed to process volumes=[]: context deadline exceeded\"",
                            names.join(" ")
                        ),
                    )],
                    vec![],
                    "Kubelets before v1.28 also recorded this as a FailedMount event (\"Unable to attach or mount volumes: ... timed out waiting for the condition\"); current ones only log it and keep retrying.".into(),
                    StepStatus::Warning,
                );
            }
            if let Some(at) = next {
                self.wake(core, w, at, true);
            }
            let timeout_at = w.vol_wait_since.unwrap_or(core.now) + volumes::VOLUME_WAIT_TIMEOUT_MS;
            self.wake(core, w, timeout_at, true);
            return false;
        }
        w.volumes_done = true;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod_with(volumes: &str) -> Pod {
        serde_yaml::from_str(&format!("metadata: {{name: p, namespace: default, uid: u-1}}\nspec:\n  containers: [{{name: a, image: x}}]\n  volumes: {volumes}")).unwrap()
    }

    fn try_mount(volumes: &str, store: &Store<Object>) -> String {
        let pod = pod_with(volumes);
        let vol = &pod.spec.as_ref().unwrap().volumes.as_ref().unwrap()[0];
        match mount(store, &pod, vol, None) {
            MountResult::Mounted(m) => {
                format!("mounted {} at {} ({}) files={:?}", m.kind, m.host_path, m.medium, m.files)
            }
            MountResult::Failed(e) => format!("failed: {e}"),
            MountResult::Waiting(w) => format!("waiting: {w}"),
        }
    }

    #[test]
    fn mounts_and_their_errors() {
        let mut store: Store<Object> = Store::new();
        let cm: ConfigMap = serde_yaml::from_str(
            "metadata: {name: app-config, namespace: default}\ndata: {app.properties: x, mode: y}",
        )
        .unwrap();
        store.create("/registry/configmaps/default/app-config", cm.into()).unwrap();
        let out = [
            try_mount("[{name: config, configMap: {name: app-config}}]", &store),
            try_mount("[{name: config, configMap: {name: missing}}]", &store),
            try_mount("[{name: config, configMap: {name: app-config, items: [{key: nope, path: n}]}}]", &store),
            try_mount("[{name: s, secret: {secretName: db}}]", &store),
            try_mount("[{name: cache, emptyDir: {medium: Memory, sizeLimit: 64Mi}}]", &store),
            try_mount("[{name: h, hostPath: {path: /data/x, type: Directory}}]", &store),
            try_mount("[{name: h, hostPath: {path: /etc/hosts, type: Directory}}]", &store),
            try_mount("[{name: d, persistentVolumeClaim: {claimName: data}}]", &store),
        ];
        expect_test::expect![[r#"
            mounted configMap at /var/lib/kubelet/pods/u-1/volumes/kubernetes.io~configmap/config (node disk (written atomically through a ..data symlink)) files=["app.properties", "mode"]
            failed: configmap "missing" not found
            failed: configmap references non-existent config key: nope
            failed: secret "db" not found
            mounted emptyDir at /var/lib/kubelet/pods/u-1/volumes/kubernetes.io~empty-dir/cache (tmpfs (size 64Mi, counts against the container's memory)) files=[]
            failed: hostPath type check failed: /data/x is not a directory
            failed: hostPath type check failed: /etc/hosts is not a directory
            waiting: persistentvolumeclaim "data" not found"#]]
        .assert_eq(&out.join("\n"));
    }
}
