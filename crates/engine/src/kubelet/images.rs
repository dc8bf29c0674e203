//! The kubelet's image manager (upstream's `pkg/kubelet/images`): `EnsureImageExists` with
//! the pull policy, the node's image cache, the (serial) image puller and the pull back-off
//! behind `ImagePullBackOff` (`Kubelet::ensure_image`); also the simulated registry and
//! reference normalisation it resolves against.
//!
//! What is exact upstream: the event texts of the kubelet's image manager
//! (`pkg/kubelet/images/image_manager.go`), the default-tag rule, the back-off parameters
//! (10 s doubling to 300 s, forgotten after 2 × max without an update) and the way containerd
//! words a failed resolution (`failed to pull and unpack image "<ref>": failed to resolve
//! reference "<ref>": ...`). What is a model: the registry contents (a curated list of public
//! images with approximate compressed sizes), digests (derived from the reference, not the
//! real ones) and the pull time (size over a fixed bandwidth plus a fixed resolve time).

use super::containers::{CState, Op};
use super::{images, Kubelet, PodWorker, POD_WORKER_BACKOFF_MS};
use crate::trace::{Component, Phase, StepStatus};
use crate::world::World;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, OnceLock};

/// The registry that short names resolve to.
pub const DEFAULT_DOMAIN: &str = "docker.io";
/// Docker Hub's official images live under this namespace.
pub const OFFICIAL_NAMESPACE: &str = "library";
/// Docker Hub's API endpoint (what containerd actually dials for `docker.io`).
pub const DOCKER_HUB_API_HOST: &str = "registry-1.docker.io";
/// The tag applied when a reference has neither tag nor digest.
pub const DEFAULT_TAG: &str = "latest";
/// The sandbox ("pause") image containerd is configured with (kind v0.27+, containerd 2.x).
pub const PAUSE_IMAGE: &str = "registry.k8s.io/pause:3.10";

/// Download bandwidth of a node towards any registry: 32 MiB/s.
pub const PULL_BANDWIDTH_BYTES_PER_SEC: u64 = 32 * 1024 * 1024;
/// Time to resolve the tag and fetch manifest and config before the layers stream.
pub const PULL_RESOLVE_MS: u64 = 190;
/// Time to check layers that are already on the node (a pull of a present image).
pub const PULL_PRESENT_CHECK_MS: u64 = 300;
/// Time for a failed resolution (the registry answers 404/401 quickly).
pub const PULL_FAIL_MS: u64 = 450;
/// Time until a dial to an unreachable registry gives up (connection refused is fast).
pub const PULL_DIAL_FAIL_MS: u64 = 30;

/// First image pull back-off (kubelet `backOffPeriod`).
pub const IMAGE_BACKOFF_INITIAL_MS: u64 = 10_000;
/// Cap of the image pull back-off (kubelet `MaxContainerBackOff`).
pub const IMAGE_BACKOFF_MAX_MS: u64 = 300_000;
/// `nodeStatusMaxImages`: how many images the kubelet reports in `node.status.images`.
pub const NODE_STATUS_MAX_IMAGES: usize = 50;

/// The userland an image ships: decides which executables exist inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Userland {
    /// BusyBox applets (`busybox`, `alpine` and everything built on Alpine).
    Busybox,
    /// GNU coreutils and bash (Debian, Ubuntu and images built on them).
    Gnu,
    /// A distroless or scratch image: only the image's own binaries, no shell.
    Scratch,
}

/// What an image does when it runs with its own entrypoint and command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ImageKind {
    /// A shell or interpreter image whose default command exits at once without a TTY.
    Shell,
    /// nginx: HTTP on 80, `/` and `/index.html` answer 200.
    Nginx,
    /// Apache httpd: HTTP on 80, `/` answers 200.
    Httpd,
    /// Redis: TCP on 6379.
    Redis,
    /// PostgreSQL: TCP on 5432, refuses to start without `POSTGRES_PASSWORD`.
    Postgres,
    /// MySQL: TCP on 3306/33060, refuses to start without a root password setting.
    Mysql,
    /// MongoDB: TCP on 27017.
    Mongo,
    /// RabbitMQ: TCP on 5672 and 15672.
    Rabbitmq,
    /// The pause container: sleeps forever.
    Pause,
    /// echoserver: HTTP on 8080, every path answers 200.
    Echoserver,
    /// hashicorp/http-echo: HTTP on 5678, every path answers 200.
    HttpEcho,
    /// Small sample web apps (hello-app, node-hello, gb-frontend): HTTP on 8080.
    HelloApp,
    /// agnhost: behaviour chosen by its first argument (`liveness`, `netexec`, ...).
    Agnhost,
    /// The old `liveness` test server: `/healthz` answers 200 for 10 s, then 500.
    Liveness,
    /// goproxy: TCP (an HTTP proxy) on 8080.
    Goproxy,
    /// etcd: gRPC with the health service on 2379 (when told to listen there).
    Etcd,
    /// curl image: entrypoint `curl`, which exits 2 without a URL.
    Curl,
    /// stress: needs arguments.
    Stress,
    /// fluentd: runs forever.
    Daemon,
}

/// One image as the registry holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageInfo {
    /// Compressed size of the layers, as containerd reports it (`Image size: ... bytes`).
    pub size_bytes: u64,
    /// The `sha256:<hex>` manifest digest (a stable stand-in, not the real one).
    pub digest: String,
    pub entrypoint: Vec<String>,
    pub cmd: Vec<String>,
    pub userland: Userland,
    pub kind: ImageKind,
    /// Executables beyond the userland's basic set (`nginx`, `redis-cli`, ...).
    pub extra_binaries: Vec<String>,
}

/// One repository: its tags.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Repository {
    pub tags: BTreeMap<String, ImageInfo>,
}

/// The image registries the nodes pull from: repositories keyed by their normalised name
/// (`docker.io/library/nginx`). `Registry::default()` holds well-known public images.
/// Copies share the tables until one of them adds an image (every kubelet of a run starts
/// from the same built-in registry).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Registry {
    repositories: Arc<BTreeMap<String, Repository>>,
    /// Registry hosts that exist (a reference to any other host fails DNS resolution).
    hosts: Arc<BTreeSet<String>>,
}

/// A parsed image reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageRef {
    /// As written in the Pod (`nginx:1.29`).
    pub original: String,
    /// `docker.io`, `registry.k8s.io`, ...
    pub domain: String,
    /// The path inside the registry (`library/nginx`).
    pub path: String,
    pub tag: Option<String>,
    pub digest: Option<String>,
}

impl ImageRef {
    /// `docker.io/library/nginx`.
    pub fn repository(&self) -> String {
        [self.domain.as_str(), "/", self.path.as_str()].concat()
    }

    /// The fully qualified reference containerd works with (`docker.io/library/nginx:1.29`).
    pub fn normalized(&self) -> String {
        let (sep, rest) = match (&self.tag, &self.digest) {
            (_, Some(d)) => ("@", d.as_str()),
            (Some(t), None) => (":", t.as_str()),
            (None, None) => (":", DEFAULT_TAG),
        };
        [self.domain.as_str(), "/", self.path.as_str(), sep, rest].concat()
    }

    /// The tag (or `latest`).
    pub fn tag_or_default(&self) -> &str {
        self.tag.as_deref().unwrap_or(DEFAULT_TAG)
    }
}

/// Parses a reference the way the kubelet (`parsers.ParseImageName`) and containerd do:
/// a first component with a `.` or `:` (or `localhost`) is a registry host, otherwise the
/// reference is on Docker Hub, and single names are official images under `library/`.
pub fn parse_image_ref(image: &str) -> Result<ImageRef, String> {
    let invalid = |why: &str| format!("couldn't parse image name {image:?}: invalid reference format{why}");
    let s = image.trim();
    if s.is_empty() || s != image || s.contains(char::is_whitespace) {
        return Err(invalid(""));
    }
    let (rest, digest) = match s.split_once('@') {
        Some((r, d)) => {
            let ok =
                d.strip_prefix("sha256:").is_some_and(|h| h.len() == 64 && h.chars().all(|c| c.is_ascii_hexdigit()));
            if !ok {
                return Err(invalid(""));
            }
            (r, Some(d.to_string()))
        }
        None => (s, None),
    };
    // A tag is a ':' after the last '/'.
    let last_slash = rest.rfind('/').map(|i| i + 1).unwrap_or(0);
    let (name, tag) = match rest[last_slash..].rfind(':') {
        Some(i) => (&rest[..last_slash + i], Some(rest[last_slash + i + 1..].to_string())),
        None => (rest, None),
    };
    if let Some(t) = &tag {
        let valid = !t.is_empty()
            && t.len() <= 128
            && t.chars().next().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            && t.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
        if !valid {
            return Err(invalid(""));
        }
    }
    // distribution/reference's splitDockerDomain: the first component is a registry when it
    // looks like a host; `index.docker.io` is the old name of `docker.io`; a one-component
    // path on Docker Hub is an official image under `library/`, even with the host written
    // out (`docker.io/redis` is `docker.io/library/redis`).
    let (mut domain, mut path) = match name.split_once('/') {
        Some((first, rest))
            if first.contains('.')
                || first.contains(':')
                || first == "localhost"
                || first.chars().any(|c| c.is_ascii_uppercase()) =>
        {
            (first.to_string(), rest.to_string())
        }
        _ => (DEFAULT_DOMAIN.to_string(), name.to_string()),
    };
    if domain == "index.docker.io" {
        domain = DEFAULT_DOMAIN.to_string();
    }
    if domain == DEFAULT_DOMAIN && !path.contains('/') {
        path = format!("{OFFICIAL_NAMESPACE}/{path}");
    }
    if path.chars().any(|c| c.is_ascii_uppercase()) {
        return Err(invalid(&format!(": repository name ({path}) must be lowercase")));
    }
    let component_ok = |c: &str| {
        !c.is_empty()
            && c.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || matches!(ch, '.' | '_' | '-'))
            && c.chars().next().is_some_and(|ch| ch.is_ascii_alphanumeric())
            && c.chars().last().is_some_and(|ch| ch.is_ascii_alphanumeric())
    };
    if path.is_empty() || !path.split('/').all(component_ok) {
        return Err(invalid(""));
    }
    Ok(ImageRef { original: image.to_string(), domain, path, tag, digest })
}

/// FNV-1a over `s` with a seed: the engine's stable hash for made-up digests and sizes.
pub fn stable_hash(seed: u64, s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    // Final avalanche (splitmix64 finaliser).
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// 64 hex characters derived from `s` (a stand-in for a sha256).
pub fn stable_hex64(s: &str) -> String {
    let mut out = String::with_capacity(64);
    for i in 0..4 {
        // `{:016x}`, without the formatter.
        for b in stable_hash(i, s).to_be_bytes() {
            crate::text::push_hex_byte(&mut out, b);
        }
    }
    out
}

/// The gRPC status prefix a NotFound answer from containerd keeps in the kubelet's texts.
/// (The kubelet's CRI client strips the prefix of `Unknown` errors — access denied, dial
/// errors — because it adds nothing, but keeps other codes.)
pub const NOT_FOUND_STATUS: &str = "rpc error: code = NotFound desc = ";

/// How a pull went wrong, with containerd's words (as the kubelet prints them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PullError {
    /// The repository exists but not the tag (HTTP 404 on the manifest).
    NotFound(String),
    /// Docker Hub answers 401 for a repository that does not exist (or is private).
    AccessDenied(String),
    /// The registry host does not resolve or refuses the connection.
    Unreachable(String),
}

impl PullError {
    /// The error text as the kubelet prints it after `Failed to pull image "<img>": `.
    pub fn message(&self) -> &str {
        match self {
            PullError::NotFound(m) | PullError::AccessDenied(m) | PullError::Unreachable(m) => m,
        }
    }
}

/// Deterministic IPv4 address for a registry host (what its DNS name "resolves" to).
fn host_address(host: &str) -> String {
    let h = stable_hash(7, host);
    format!("{}.{}.{}.{}", 34 + (h % 20), (h >> 8) % 256, (h >> 16) % 256, 1 + (h >> 24) % 253)
}

/// The DNS server a kind node's containerd resolves registry names with.
pub const NODE_DNS_SERVER: &str = "172.18.0.1:53";

impl Registry {
    /// An empty registry (no images, no hosts).
    pub fn empty() -> Registry {
        Registry { repositories: Arc::new(BTreeMap::new()), hosts: Arc::new(BTreeSet::new()) }
    }

    /// Adds (or replaces) one image.
    pub fn insert(&mut self, repository: &str, tag: &str, info: ImageInfo) {
        if let Some((host, _)) = repository.split_once('/') {
            if !self.hosts.contains(host) {
                Arc::make_mut(&mut self.hosts).insert(host.to_string());
            }
        }
        Arc::make_mut(&mut self.repositories)
            .entry(repository.to_string())
            .or_default()
            .tags
            .insert(tag.to_string(), info);
    }

    /// Adds an image of the lab's own (say `registry.example.com/shop/api:1.4`): a process
    /// that runs until stopped, with a shell-less userland, unless `entrypoint` names a
    /// program the behaviour model knows.
    pub fn add(&mut self, reference: &str, size_bytes: u64, entrypoint: &[&str], cmd: &[&str]) -> Result<(), String> {
        let r = parse_image_ref(reference)?;
        let digest = format!("sha256:{}", stable_hex64(&r.normalized()));
        let mut extra: Vec<String> = entrypoint.iter().chain(cmd.iter()).take(1).map(|s| s.to_string()).collect();
        if extra.is_empty() {
            extra.push("/app".into());
        }
        let info = ImageInfo {
            size_bytes,
            digest,
            entrypoint: entrypoint.iter().map(|s| s.to_string()).collect(),
            cmd: if entrypoint.is_empty() && cmd.is_empty() {
                vec!["/app".into()]
            } else {
                cmd.iter().map(|s| s.to_string()).collect()
            },
            userland: Userland::Scratch,
            kind: ImageKind::Daemon,
            extra_binaries: extra,
        };
        self.insert(&r.repository(), r.tag_or_default(), info);
        Ok(())
    }

    /// Looks an image up as containerd would resolve it. `registry_down` makes every
    /// registry refuse connections (a node fault).
    pub fn resolve(&self, r: &ImageRef, registry_down: bool) -> Result<&ImageInfo, PullError> {
        let reference = r.normalized();
        let head = format!("failed to pull and unpack image {reference:?}: failed to resolve reference {reference:?}");
        let api_host = if r.domain == DEFAULT_DOMAIN { DOCKER_HUB_API_HOST.to_string() } else { r.domain.clone() };
        let manifest_ref = r.digest.clone().unwrap_or_else(|| r.tag_or_default().to_string());
        let manifest_url = format!("https://{api_host}/v2/{}/manifests/{manifest_ref}", r.path);
        if !self.hosts.contains(&r.domain) {
            return Err(PullError::Unreachable(format!(
                "{head}: failed to do request: Head {manifest_url:?}: dial tcp: lookup {api_host} on {NODE_DNS_SERVER}: no such host"
            )));
        }
        if registry_down {
            return Err(PullError::Unreachable(format!(
                "{head}: failed to do request: Head {manifest_url:?}: dial tcp {}:443: connect: connection refused",
                host_address(&api_host)
            )));
        }
        let Some(repo) = self.repositories.get(&r.repository()) else {
            if r.domain == DEFAULT_DOMAIN {
                return Err(PullError::AccessDenied(format!(
                    "{head}: pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed"
                )));
            }
            return Err(PullError::NotFound(format!("{NOT_FOUND_STATUS}{head}: {reference}: not found")));
        };
        let found = match &r.digest {
            Some(d) => repo.tags.values().find(|i| &i.digest == d),
            None => repo.tags.get(r.tag_or_default()),
        };
        found.ok_or_else(|| PullError::NotFound(format!("{NOT_FOUND_STATUS}{head}: {reference}: not found")))
    }
}

/// `docker.io/library/nginx@sha256:...`: the imageID a container status reports.
pub fn image_id(repository: &str, info: &ImageInfo) -> String {
    format!("{repository}@{}", info.digest)
}

/// How long pulling an image of `size` bytes takes on the node.
pub fn pull_duration_ms(size_bytes: u64) -> u64 {
    PULL_RESOLVE_MS + size_bytes.saturating_mul(1000) / PULL_BANDWIDTH_BYTES_PER_SEC
}

/// A Go `time.Duration` as `%v` prints it, for whole milliseconds (`10s`, `1m20s`,
/// `2.345s`, `490ms`, `5m0s`).
pub fn go_duration(ms: u64) -> String {
    if ms == 0 {
        return "0s".to_string();
    }
    if ms < 1000 {
        return format!("{ms}ms");
    }
    let h = ms / 3_600_000;
    let m = (ms / 60_000) % 60;
    let s = (ms / 1000) % 60;
    let frac = ms % 1000;
    let secs = if frac == 0 {
        format!("{s}s")
    } else {
        let f = format!("{frac:03}");
        format!("{s}.{}s", f.trim_end_matches('0'))
    };
    if h > 0 {
        format!("{h}h{m}m{secs}")
    } else if m > 0 {
        format!("{m}m{secs}")
    } else {
        secs
    }
}

/// The kubelet's exponential back-off (client-go `flowcontrol.Backoff`): per key, the
/// delay starts at `initial`, doubles at every `next` up to `max`, and an entry not
/// updated for more than 2 × `max` is forgotten (which resets the delay).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backoff {
    pub initial_ms: u64,
    pub max_ms: u64,
    entries: BTreeMap<String, BackoffEntry>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BackoffEntry {
    backoff_ms: u64,
    last_update_ms: u64,
}

impl Backoff {
    pub fn new(initial_ms: u64, max_ms: u64) -> Backoff {
        Backoff { initial_ms, max_ms, entries: BTreeMap::new() }
    }

    fn expired(&self, event_ms: u64, last_update_ms: u64) -> bool {
        event_ms.saturating_sub(last_update_ms) > 2 * self.max_ms
    }

    /// Records a failure at `now`: the next delay.
    pub fn next(&mut self, key: &str, now: u64) -> u64 {
        let fresh = match self.entries.get(key) {
            Some(e) => self.expired(now, e.last_update_ms),
            None => true,
        };
        let backoff_ms = if fresh {
            self.initial_ms
        } else {
            let e = self.entries[key];
            (e.backoff_ms * 2).min(self.max_ms)
        };
        self.entries.insert(key.to_string(), BackoffEntry { backoff_ms, last_update_ms: now });
        backoff_ms
    }

    /// The current delay for `key` (0 when none).
    pub fn get(&self, key: &str) -> u64 {
        self.entries.get(key).map(|e| e.backoff_ms).unwrap_or(0)
    }

    /// Whether `now` is still within the delay counted from `event_ms` (crash loop: the
    /// container's finish time).
    pub fn in_backoff_since(&self, key: &str, event_ms: u64, now: u64) -> bool {
        match self.entries.get(key) {
            Some(e) if !self.expired(event_ms, e.last_update_ms) => now.saturating_sub(event_ms) < e.backoff_ms,
            _ => false,
        }
    }

    /// Whether `now` is still within the delay counted from the last failure (image pulls).
    pub fn in_backoff_since_update(&self, key: &str, now: u64) -> bool {
        match self.entries.get(key) {
            Some(e) if !self.expired(now, e.last_update_ms) => now.saturating_sub(e.last_update_ms) < e.backoff_ms,
            _ => false,
        }
    }

    /// When the delay of `key` runs out, counted from `event_ms`.
    pub fn expires_at(&self, key: &str, event_ms: u64) -> u64 {
        event_ms + self.get(key)
    }

    /// When the delay counted from the last update runs out.
    pub fn expires_at_since_update(&self, key: &str) -> u64 {
        self.entries.get(key).map(|e| e.last_update_ms + e.backoff_ms).unwrap_or(0)
    }
}

/// The node's local image store (what `crictl images` lists): normalised references.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImageCache {
    /// Normalised reference → (size, imageID repo digest).
    pub images: BTreeMap<String, CachedImage>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CachedImage {
    pub size_bytes: u64,
    pub image_id: String,
}

impl ImageCache {
    /// Whether the reference (as written in a Pod) is present.
    pub fn get(&self, r: &ImageRef) -> Option<&CachedImage> {
        self.images.get(&r.normalized())
    }

    /// The list the kubelet reports in `node.status.images`: biggest first, at most
    /// [`NODE_STATUS_MAX_IMAGES`], each with its digest name and tag name.
    pub fn node_status_images(&self) -> Vec<(Vec<String>, u64)> {
        let mut by_id: BTreeMap<String, (Vec<String>, u64)> = BTreeMap::new();
        for (name, img) in &self.images {
            let entry =
                by_id.entry(img.image_id.clone()).or_insert_with(|| (vec![img.image_id.clone()], img.size_bytes));
            entry.0.push(name.clone());
        }
        let mut out: Vec<(Vec<String>, u64)> = by_id.into_values().collect();
        crate::sort::sort_by(&mut out, |a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        out.truncate(NODE_STATUS_MAX_IMAGES);
        out
    }
}

/// One row of the default registry: a repository, its tags and what its images do.
struct Row {
    repo: &'static str,
    tags: &'static [&'static str],
    size: u64,
    userland: Userland,
    kind: ImageKind,
    entrypoint: &'static [&'static str],
    cmd: &'static [&'static str],
    extra: &'static [&'static str],
}

#[allow(clippy::too_many_arguments)]
const fn row(
    repo: &'static str,
    tags: &'static [&'static str],
    size: u64,
    userland: Userland,
    kind: ImageKind,
    entrypoint: &'static [&'static str],
    cmd: &'static [&'static str],
    extra: &'static [&'static str],
) -> Row {
    Row { repo, tags, size, userland, kind, entrypoint, cmd, extra }
}

use ImageKind as K;
use Userland::{Busybox as BB, Gnu, Scratch};

const NGINX_EP: &[&str] = &["/docker-entrypoint.sh"];
const NGINX_CMD: &[&str] = &["nginx", "-g", "daemon off;"];
const NGINX_BIN: &[&str] = &["nginx", "curl", "/docker-entrypoint.sh", "envsubst"];
const PG_EP: &[&str] = &["docker-entrypoint.sh"];

/// The default registry contents. Sizes are approximate compressed linux/amd64 sizes.
const DEFAULT_IMAGES: &[Row] = &[
    row(
        "docker.io/library/nginx",
        &["1.29", "1.29.1", "mainline", "latest"],
        72_361_947,
        Gnu,
        K::Nginx,
        NGINX_EP,
        NGINX_CMD,
        NGINX_BIN,
    ),
    row(
        "docker.io/library/nginx",
        &["1.28", "1.28.0", "stable"],
        71_882_654,
        Gnu,
        K::Nginx,
        NGINX_EP,
        NGINX_CMD,
        NGINX_BIN,
    ),
    row("docker.io/library/nginx", &["1.27", "1.27.5"], 71_031_226, Gnu, K::Nginx, NGINX_EP, NGINX_CMD, NGINX_BIN),
    row("docker.io/library/nginx", &["1.25", "1.25.5"], 70_988_412, Gnu, K::Nginx, NGINX_EP, NGINX_CMD, NGINX_BIN),
    row("docker.io/library/nginx", &["1.16.1"], 51_030_575, Gnu, K::Nginx, &[], NGINX_CMD, &["nginx"]),
    row("docker.io/library/nginx", &["1.14.2"], 44_712_118, Gnu, K::Nginx, &[], NGINX_CMD, &["nginx"]),
    row(
        "docker.io/library/nginx",
        &["alpine", "1.29-alpine", "mainline-alpine"],
        21_453_873,
        BB,
        K::Nginx,
        NGINX_EP,
        NGINX_CMD,
        NGINX_BIN,
    ),
    row(
        "docker.io/library/nginx",
        &["1.28-alpine", "stable-alpine"],
        21_210_442,
        BB,
        K::Nginx,
        NGINX_EP,
        NGINX_CMD,
        NGINX_BIN,
    ),
    row("docker.io/library/nginx", &["1.27-alpine"], 20_994_013, BB, K::Nginx, NGINX_EP, NGINX_CMD, NGINX_BIN),
    row(
        "docker.io/library/busybox",
        &["1.37", "1.37.0", "latest", "stable"],
        2_166_802,
        BB,
        K::Shell,
        &[],
        &["sh"],
        &[],
    ),
    row("docker.io/library/busybox", &["1.36", "1.36.1"], 2_158_472, BB, K::Shell, &[], &["sh"], &[]),
    row("docker.io/library/busybox", &["1.35", "1.34", "1.28"], 2_145_221, BB, K::Shell, &[], &["sh"], &[]),
    row(
        "docker.io/library/alpine",
        &["3.22", "3.22.1", "latest"],
        3_799_641,
        BB,
        K::Shell,
        &[],
        &["/bin/sh"],
        &["apk"],
    ),
    row("docker.io/library/alpine", &["3.21", "3.20", "3.19"], 3_642_912, BB, K::Shell, &[], &["/bin/sh"], &["apk"]),
    row(
        "docker.io/library/ubuntu",
        &["24.04", "noble", "latest"],
        29_723_147,
        Gnu,
        K::Shell,
        &[],
        &["/bin/bash"],
        &["apt-get"],
    ),
    row("docker.io/library/ubuntu", &["22.04", "jammy"], 29_535_874, Gnu, K::Shell, &[], &["/bin/bash"], &["apt-get"]),
    row(
        "docker.io/library/debian",
        &["13", "trixie", "stable", "latest"],
        49_283_401,
        Gnu,
        K::Shell,
        &[],
        &["bash"],
        &["apt-get"],
    ),
    row("docker.io/library/debian", &["12", "bookworm"], 48_489_127, Gnu, K::Shell, &[], &["bash"], &["apt-get"]),
    row(
        "docker.io/library/debian",
        &["bookworm-slim", "12-slim"],
        28_227_259,
        Gnu,
        K::Shell,
        &[],
        &["bash"],
        &["apt-get"],
    ),
    row("docker.io/library/fedora", &["42", "latest"], 61_544_201, Gnu, K::Shell, &[], &["/bin/bash"], &["dnf"]),
    row(
        "docker.io/library/bash",
        &["5", "5.2", "latest"],
        6_112_430,
        BB,
        K::Shell,
        &["docker-entrypoint.sh"],
        &["bash"],
        &["bash"],
    ),
    row(
        "docker.io/library/httpd",
        &["2.4", "2.4.65", "latest"],
        58_412_339,
        Gnu,
        K::Httpd,
        &[],
        &["httpd-foreground"],
        &["httpd", "httpd-foreground", "apachectl"],
    ),
    row(
        "docker.io/library/httpd",
        &["alpine", "2.4-alpine"],
        21_998_115,
        BB,
        K::Httpd,
        &[],
        &["httpd-foreground"],
        &["httpd", "httpd-foreground", "apachectl"],
    ),
    row(
        "docker.io/library/redis",
        &["8", "8.2", "latest"],
        51_235_402,
        Gnu,
        K::Redis,
        PG_EP,
        &["redis-server"],
        &["redis-server", "redis-cli", "docker-entrypoint.sh"],
    ),
    row(
        "docker.io/library/redis",
        &["7", "7.4", "6.0.5", "5.0.4"],
        45_912_083,
        Gnu,
        K::Redis,
        PG_EP,
        &["redis-server"],
        &["redis-server", "redis-cli", "docker-entrypoint.sh"],
    ),
    row(
        "docker.io/library/redis",
        &["alpine", "7-alpine", "8-alpine"],
        17_433_208,
        BB,
        K::Redis,
        PG_EP,
        &["redis-server"],
        &["redis-server", "redis-cli", "docker-entrypoint.sh"],
    ),
    row(
        "docker.io/library/postgres",
        &["17", "17.6", "latest"],
        162_881_905,
        Gnu,
        K::Postgres,
        PG_EP,
        &["postgres"],
        &["postgres", "psql", "pg_isready", "docker-entrypoint.sh"],
    ),
    row(
        "docker.io/library/postgres",
        &["16", "16.10", "15"],
        158_014_327,
        Gnu,
        K::Postgres,
        PG_EP,
        &["postgres"],
        &["postgres", "psql", "pg_isready", "docker-entrypoint.sh"],
    ),
    row(
        "docker.io/library/postgres",
        &["17-alpine", "16-alpine", "alpine"],
        104_113_552,
        BB,
        K::Postgres,
        PG_EP,
        &["postgres"],
        &["postgres", "psql", "pg_isready", "docker-entrypoint.sh"],
    ),
    row(
        "docker.io/library/mysql",
        &["9", "9.4", "latest"],
        185_903_322,
        Gnu,
        K::Mysql,
        PG_EP,
        &["mysqld"],
        &["mysqld", "mysql", "mysqladmin", "docker-entrypoint.sh"],
    ),
    row(
        "docker.io/library/mysql",
        &["8.4", "lts"],
        179_822_445,
        Gnu,
        K::Mysql,
        PG_EP,
        &["mysqld"],
        &["mysqld", "mysql", "mysqladmin", "docker-entrypoint.sh"],
    ),
    row(
        "docker.io/library/mysql",
        &["8", "8.0", "5.7"],
        172_345_119,
        Gnu,
        K::Mysql,
        PG_EP,
        &["mysqld"],
        &["mysqld", "mysql", "mysqladmin", "docker-entrypoint.sh"],
    ),
    row(
        "docker.io/library/mongo",
        &["8", "7", "4.2", "latest"],
        268_114_790,
        Gnu,
        K::Mongo,
        PG_EP,
        &["mongod"],
        &["mongod", "mongosh", "docker-entrypoint.sh"],
    ),
    row(
        "docker.io/library/rabbitmq",
        &["4", "3", "latest"],
        109_772_541,
        Gnu,
        K::Rabbitmq,
        PG_EP,
        &["rabbitmq-server"],
        &["rabbitmq-server", "rabbitmqctl", "docker-entrypoint.sh"],
    ),
    row(
        "docker.io/library/python",
        &["3.13", "3", "latest"],
        382_114_986,
        Gnu,
        K::Shell,
        &[],
        &["python3"],
        &["python", "python3", "pip"],
    ),
    row(
        "docker.io/library/python",
        &["3.12", "3.11"],
        379_502_110,
        Gnu,
        K::Shell,
        &[],
        &["python3"],
        &["python", "python3", "pip"],
    ),
    row(
        "docker.io/library/python",
        &["3.13-slim", "3.12-slim", "slim"],
        45_210_337,
        Gnu,
        K::Shell,
        &[],
        &["python3"],
        &["python", "python3", "pip"],
    ),
    row(
        "docker.io/library/python",
        &["3.13-alpine", "3.12-alpine", "alpine"],
        19_871_002,
        BB,
        K::Shell,
        &[],
        &["python3"],
        &["python", "python3", "pip"],
    ),
    row(
        "docker.io/library/node",
        &["24", "latest", "lts"],
        410_225_983,
        Gnu,
        K::Shell,
        &["docker-entrypoint.sh"],
        &["node"],
        &["node", "npm", "npx", "docker-entrypoint.sh"],
    ),
    row(
        "docker.io/library/node",
        &["22", "20"],
        398_112_904,
        Gnu,
        K::Shell,
        &["docker-entrypoint.sh"],
        &["node"],
        &["node", "npm", "npx", "docker-entrypoint.sh"],
    ),
    row(
        "docker.io/library/node",
        &["24-alpine", "22-alpine", "20-alpine", "alpine"],
        55_604_118,
        BB,
        K::Shell,
        &["docker-entrypoint.sh"],
        &["node"],
        &["node", "npm", "npx", "docker-entrypoint.sh"],
    ),
    row(
        "docker.io/library/perl",
        &["5.34.0", "5", "latest"],
        332_870_101,
        Gnu,
        K::Shell,
        &[],
        &["perl", "-de0"],
        &["perl"],
    ),
    row(
        "docker.io/curlimages/curl",
        &["8.15.0", "latest"],
        10_511_240,
        BB,
        K::Curl,
        &["/entrypoint.sh"],
        &["curl"],
        &["curl", "/entrypoint.sh"],
    ),
    row("docker.io/polinux/stress", &["1.0.4", "latest"], 4_126_345, BB, K::Stress, &[], &["stress"], &["stress"]),
    row(
        "docker.io/vish/stress",
        &["latest"],
        3_152_011,
        Scratch,
        K::Stress,
        &["/stress"],
        &["-logtostderr"],
        &["/stress", "stress"],
    ),
    row(
        "docker.io/hashicorp/http-echo",
        &["1.0", "1.0.0", "latest"],
        3_998_108,
        Scratch,
        K::HttpEcho,
        &["/http-echo"],
        &[],
        &["/http-echo"],
    ),
    row(
        "docker.io/hashicorp/http-echo",
        &["0.2.3"],
        3_470_212,
        Scratch,
        K::HttpEcho,
        &["/http-echo"],
        &[],
        &["/http-echo"],
    ),
    row("registry.k8s.io/pause", &["3.10", "3.10.1"], 320_368, Scratch, K::Pause, &["/pause"], &[], &["/pause"]),
    row(
        "registry.k8s.io/pause",
        &["3.9", "3.8", "3.6", "3.1", "2.0", "latest"],
        321_520,
        Scratch,
        K::Pause,
        &["/pause"],
        &[],
        &["/pause"],
    ),
    row("k8s.gcr.io/pause", &["3.2", "3.1", "2.0"], 299_513, Scratch, K::Pause, &["/pause"], &[], &["/pause"]),
    row("registry.k8s.io/busybox", &["1.27.2", "1.24", "latest"], 1_113_554, BB, K::Shell, &[], &["sh"], &[]),
    row("k8s.gcr.io/busybox", &["1.27.2", "1.24", "latest"], 1_113_554, BB, K::Shell, &[], &["sh"], &[]),
    row(
        "registry.k8s.io/echoserver",
        &["1.10", "1.4"],
        46_229_011,
        Gnu,
        K::Echoserver,
        &[],
        &["/usr/local/bin/run.sh"],
        &["/usr/local/bin/run.sh", "nginx"],
    ),
    row("registry.k8s.io/liveness", &["latest"], 2_412_604, Scratch, K::Liveness, &[], &["/server"], &["/server"]),
    row("k8s.gcr.io/liveness", &["latest"], 2_412_604, Scratch, K::Liveness, &[], &["/server"], &["/server"]),
    row("registry.k8s.io/goproxy", &["0.1"], 2_654_907, Scratch, K::Goproxy, &["/goproxy"], &[], &["/goproxy"]),
    row(
        "registry.k8s.io/etcd",
        &["3.6.4-0", "3.5.21-0", "3.5.1-0"],
        23_640_891,
        Scratch,
        K::Etcd,
        &[],
        &["/usr/local/bin/etcd"],
        &["etcd", "/usr/local/bin/etcd", "etcdctl"],
    ),
    row(
        "registry.k8s.io/e2e-test-images/agnhost",
        &["2.56", "2.53", "2.47", "2.45", "2.40", "2.39"],
        55_134_761,
        BB,
        K::Agnhost,
        &["/agnhost"],
        &[],
        &["/agnhost", "agnhost"],
    ),
    row(
        "registry.k8s.io/nginx-slim",
        &["0.8", "0.24", "0.27"],
        52_390_544,
        Gnu,
        K::Nginx,
        &[],
        &["nginx", "-g", "daemon off;"],
        &["nginx"],
    ),
    row(
        "registry.k8s.io/hpa-example",
        &["latest"],
        178_220_471,
        Gnu,
        K::HelloApp,
        &[],
        &["apache2-foreground"],
        &["apache2-foreground", "php"],
    ),
    // The guestbook tutorial's images: the PHP front end (php:apache underneath, Apache on
    // port 80) and a Redis follower whose /run.sh starts `redis-server --replicaof`.
    row(
        "gcr.io/google_samples/gb-frontend",
        &["v6", "v5", "v4", "v3"],
        147_265_112,
        Gnu,
        K::Httpd,
        &[],
        &["apache2-foreground"],
        &["apache2-foreground", "php"],
    ),
    row(
        "gcr.io/google_samples/gb-redis-follower",
        &["v2", "v1"],
        42_331_904,
        Gnu,
        K::Redis,
        &[],
        &["/run.sh"],
        &["/run.sh", "redis-server", "redis-cli", "docker-entrypoint.sh"],
    ),
    row(
        "gcr.io/google-samples/hello-app",
        &["1.0", "2.0"],
        21_911_337,
        Scratch,
        K::HelloApp,
        &["/hello-app"],
        &[],
        &["/hello-app"],
    ),
    row(
        "gcr.io/google-samples/node-hello",
        &["1.0"],
        244_310_011,
        Gnu,
        K::HelloApp,
        &[],
        &["node", "server.js"],
        &["node"],
    ),
    row(
        "us-docker.pkg.dev/google-samples/containers/gke/hello-app",
        &["1.0", "2.0"],
        21_911_337,
        Scratch,
        K::HelloApp,
        &["/hello-app"],
        &[],
        &["/hello-app"],
    ),
    row(
        "quay.io/fluentd_elasticsearch/fluentd",
        &["v2.5.2", "v4.7.2"],
        139_401_556,
        Gnu,
        K::Daemon,
        &[],
        &["/run.sh"],
        &["/run.sh", "fluentd"],
    ),
    row("docker.io/alpine/socat", &["1.8.0.3", "latest"], 4_508_002, BB, K::Shell, &["socat"], &[], &["socat"]),
];

impl Default for Registry {
    /// The built-in registry: the same constant tables in every run, so they are built once
    /// per process (a read-only static, never written after) and shared.
    fn default() -> Registry {
        static BUILT_IN: OnceLock<Registry> = OnceLock::new();
        BUILT_IN.get_or_init(Registry::built_in).clone()
    }
}

impl Registry {
    fn built_in() -> Registry {
        let mut reg = Registry::empty();
        // Hosts that exist even where the lab has no images in them.
        for host in ["docker.io", "registry.k8s.io", "k8s.gcr.io", "gcr.io", "quay.io", "ghcr.io", "us-docker.pkg.dev"]
        {
            Arc::make_mut(&mut reg.hosts).insert(host.to_string());
        }
        for r in DEFAULT_IMAGES {
            for (i, tag) in r.tags.iter().enumerate() {
                // Tags of one row are one image (aliases) only for the first few; every
                // tag gets its own digest unless it is an alias of the row's first tag.
                let canonical = if is_alias(r.tags, i) { r.tags[0] } else { tag };
                let digest = format!("sha256:{}", stable_hex64(&format!("{}:{canonical}", r.repo)));
                let size = if canonical == r.tags[0] {
                    r.size
                } else {
                    // A sibling version: within a few percent of the row's size.
                    let h = stable_hash(3, &format!("{}:{canonical}", r.repo));
                    r.size - r.size / 100 * (h % 5)
                };
                reg.insert(
                    r.repo,
                    tag,
                    ImageInfo {
                        size_bytes: size,
                        digest,
                        entrypoint: r.entrypoint.iter().map(|s| s.to_string()).collect(),
                        cmd: r.cmd.iter().map(|s| s.to_string()).collect(),
                        userland: r.userland,
                        kind: r.kind,
                        extra_binaries: r.extra.iter().map(|s| s.to_string()).collect(),
                    },
                );
            }
        }
        reg
    }
}

/// Whether tag `i` of a row names the same image as tag 0: `latest`/`stable`/`mainline`/
/// `lts`/`alpine` style aliases and patch versions of the first tag (`1.29.1` of `1.29`).
fn is_alias(tags: &[&str], i: usize) -> bool {
    if i == 0 {
        return true;
    }
    let t = tags[i];
    let first = tags[0];
    !t.chars().next().is_some_and(|c| c.is_ascii_digit())
        || t.starts_with(&format!("{first}."))
        || first.starts_with(&format!("{t}."))
        || t.ends_with("-alpine") && first.ends_with("alpine")
}

/// An image resolved for a container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ResolvedImage {
    pub(super) info: ImageInfo,
    /// `docker.io/library/nginx:1.29`.
    pub(super) normalized: String,
    /// `docker.io/library/nginx@sha256:...`.
    pub(super) image_id: String,
}

impl Kubelet {
    /// The image manager: pull policy, cache, back-off, pull.
    pub(super) fn ensure_image(&mut self, core: &mut World, w: &mut PodWorker, i: usize) {
        let image = w.ctrs[i].spec.image.clone().unwrap_or_default();
        let r = match images::parse_image_ref(&image) {
            Ok(r) => r,
            Err(e) => {
                self.event(
                    core,
                    w,
                    Some(i),
                    "Warning",
                    "InspectFailed",
                    format!("Failed to apply default image tag {image:?}: {e}"),
                    Phase::Runtime,
                );
                self.event(core, w, Some(i), "Warning", "Failed", "Error: InvalidImageName".into(), Phase::Runtime);
                let c = &mut w.ctrs[i];
                c.state = CState::Waiting {
                    reason: "InvalidImageName".into(),
                    message: Some(format!("Failed to apply default image tag {image:?}: {e}")),
                };
                c.next_try = core.now + POD_WORKER_BACKOFF_MS;
                let at = c.next_try;
                self.wake(core, w, at, true);
                return;
            }
        };
        let policy = w.ctrs[i].spec.image_pull_policy.clone().unwrap_or_else(|| {
            if r.digest.is_none() && r.tag_or_default() == images::DEFAULT_TAG {
                "Always".into()
            } else {
                "IfNotPresent".into()
            }
        });
        let cached = self.images.get(&r).cloned();
        if policy != "Always" {
            if let Some(cached) = cached.clone() {
                self.event(
                    core,
                    w,
                    Some(i),
                    "Normal",
                    "Pulled",
                    format!("Container image {image:?} already present on machine and can be accessed by the pod"),
                    Phase::Runtime,
                );
                w.ctrs[i].image = Some(self.resolved_from_cache(&r, &cached));
                self.begin_create(core, w, i);
                return;
            }
            if policy == "Never" {
                let msg = format!("Container image {image:?} is not present with pull policy of Never");
                self.event(core, w, Some(i), "Warning", "ErrImageNeverPull", msg.clone(), Phase::Runtime);
                self.event(core, w, Some(i), "Warning", "Failed", "Error: ErrImageNeverPull".into(), Phase::Runtime);
                let c = &mut w.ctrs[i];
                c.state = CState::Waiting { reason: "ErrImageNeverPull".into(), message: Some(msg) };
                c.next_try = core.now + POD_WORKER_BACKOFF_MS;
                let at = c.next_try;
                self.wake(core, w, at, true);
                return;
            }
        }
        let bkey = format!("{}_{image}", w.uid);
        if self.image_backoff.in_backoff_since_update(&bkey, core.now) {
            self.event(
                core,
                w,
                Some(i),
                "Normal",
                "BackOff",
                format!("Back-off pulling image {image:?}"),
                Phase::Runtime,
            );
            self.event(core, w, Some(i), "Warning", "Failed", "Error: ImagePullBackOff".into(), Phase::Runtime);
            let prev = self.last_pull_error.get(&bkey).cloned().unwrap_or_default();
            let at = self.image_backoff.expires_at_since_update(&bkey);
            let c = &mut w.ctrs[i];
            c.state = CState::Waiting {
                reason: "ImagePullBackOff".into(),
                message: Some(format!("Back-off pulling image {image:?}: ErrImagePull: {prev}")),
            };
            c.next_try = at;
            self.wake(core, w, at, true);
            return;
        }
        self.event(core, w, Some(i), "Normal", "Pulling", format!("Pulling image {image:?}"), Phase::Runtime);
        let resolved = self.config.registry.resolve(&r, self.config.faults.registry_down).cloned();
        let layers_coming = self.pulls_in_flight.get(&r.normalized()).copied().filter(|t| *t > core.now);
        let (pull_ms, result) = match resolved {
            Ok(info) => {
                // Layers already on the node (or being fetched by another pull) are not
                // downloaded again: the pull only resolves the tag and checks them.
                let ms = if cached.is_some() || layers_coming.is_some() {
                    images::PULL_RESOLVE_MS + images::PULL_PRESENT_CHECK_MS
                } else {
                    images::pull_duration_ms(info.size_bytes)
                };
                let image_id = images::image_id(&r.repository(), &info);
                (ms, Ok(ResolvedImage { normalized: r.normalized(), image_id, info }))
            }
            Err(e) => {
                let ms = match e {
                    images::PullError::Unreachable(_) => images::PULL_DIAL_FAIL_MS,
                    _ => images::PULL_FAIL_MS,
                };
                (ms, Err(e.message().to_string()))
            }
        };
        let begin = if self.config.serialize_image_pulls { self.puller_free_at.max(core.now) } else { core.now };
        let mut done_at = begin + pull_ms;
        if let (Some(t), Ok(_)) = (layers_coming, &result) {
            done_at = done_at.max(t);
        }
        if result.is_ok() && cached.is_none() {
            self.pulls_in_flight.insert(r.normalized(), done_at);
        }
        if self.config.serialize_image_pulls {
            self.puller_free_at = done_at;
        }
        let waited = begin - core.now;
        let obj = w.reference();
        let mut facts = vec![
            ("image".into(), image.clone()),
            ("reference".into(), r.normalized()),
            ("imagePullPolicy".into(), policy.clone()),
        ];
        match &result {
            Ok(img) => {
                facts.push(("size".into(), format!("{} bytes", img.info.size_bytes)));
                facts.push((
                    "time".into(),
                    format!(
                        "{} at {} MiB/s plus {} ms to resolve",
                        go_duration(pull_ms),
                        images::PULL_BANDWIDTH_BYTES_PER_SEC / (1024 * 1024),
                        images::PULL_RESOLVE_MS
                    ),
                ));
            }
            Err(e) => facts.push(("registry answer".into(), e.clone())),
        }
        if waited > 0 {
            facts.push((
                "queued behind".into(),
                format!("{} of other pulls (serializeImagePulls: true)", go_duration(waited)),
            ));
        }
        let (summary, status) = match &result {
            Ok(img) => (
                format!(
                    "containerd pulls {image:?} ({:.1} MB, {})",
                    img.info.size_bytes as f64 / 1e6,
                    go_duration(pull_ms)
                ),
                StepStatus::Ok,
            ),
            Err(_) => (format!("containerd cannot pull {image:?}"), StepStatus::Failed),
        };
        self.work(
            core,
            Phase::Runtime,
            Component::Kubelet,
            Component::Runtime,
            Some(&obj),
            summary,
            "image-pull",
            facts,
            vec![],
            match policy.as_str() {
                "Always" => "imagePullPolicy Always (the default for :latest or no tag): the runtime asks the registry every time; unchanged layers are not downloaded again.".into(),
                _ => "imagePullPolicy IfNotPresent: the image is not on the node yet, so the runtime resolves the tag and downloads the layers.".into(),
            },
            status,
        );
        w.op = Some(Op::Pull { ctr: i, done_at, pull_ms, total_ms: done_at - core.now, result });
        self.wake(core, w, done_at, false);
    }

    fn resolved_from_cache(&self, r: &ImageRef, cached: &CachedImage) -> ResolvedImage {
        let info = self.config.registry.resolve(r, false).cloned().unwrap_or(ImageInfo {
            size_bytes: cached.size_bytes,
            digest: cached.image_id.rsplit('@').next().unwrap_or("").to_string(),
            entrypoint: vec![],
            cmd: vec!["/app".into()],
            userland: images::Userland::Scratch,
            kind: images::ImageKind::Daemon,
            extra_binaries: vec!["/app".into()],
        });
        ResolvedImage { normalized: r.normalized(), image_id: cached.image_id.clone(), info }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_hex64_is_four_hashes_in_hex() {
        for s in ["", "nginx:1.29", "registry.k8s.io/pause:3.10.1"] {
            let want: String = (0..4).map(|i| format!("{:016x}", stable_hash(i, s))).collect();
            assert_eq!(stable_hex64(s), want);
        }
    }

    fn norm(s: &str) -> String {
        match parse_image_ref(s) {
            Ok(r) => r.normalized(),
            Err(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn references_normalise_like_containerd() {
        assert_eq!(norm("nginx"), "docker.io/library/nginx:latest");
        assert_eq!(norm("nginx:1.29"), "docker.io/library/nginx:1.29");
        assert_eq!(norm("bitnami/nginx:1.2"), "docker.io/bitnami/nginx:1.2");
        assert_eq!(norm("registry.k8s.io/pause:3.10"), "registry.k8s.io/pause:3.10");
        assert_eq!(norm("localhost:5000/app"), "localhost:5000/app:latest");
        assert_eq!(norm("docker.io/redis:6.0.5"), "docker.io/library/redis:6.0.5");
        assert_eq!(norm("index.docker.io/library/busybox"), "docker.io/library/busybox:latest");
        assert_eq!(norm("index.docker.io/bitnami/nginx"), "docker.io/bitnami/nginx:latest");
        assert_eq!(
            norm("Nginx"),
            "error: couldn't parse image name \"Nginx\": invalid reference format: repository name (library/Nginx) must be lowercase"
        );
        assert_eq!(norm("nginx:"), "error: couldn't parse image name \"nginx:\": invalid reference format");
    }

    #[test]
    fn registry_errors_use_containerd_text() {
        let reg = Registry::default();
        let err = |s: &str| reg.resolve(&parse_image_ref(s).unwrap(), false).unwrap_err().message().to_string();
        assert_eq!(
            err("nginx:1.99"),
            "rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/library/nginx:1.99\": failed to resolve reference \"docker.io/library/nginx:1.99\": docker.io/library/nginx:1.99: not found"
        );
        assert_eq!(
            err("nginxx"),
            "failed to pull and unpack image \"docker.io/library/nginxx:latest\": failed to resolve reference \"docker.io/library/nginxx:latest\": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed"
        );
        assert!(
            err("myregistry.local/app:1").ends_with("dial tcp: lookup myregistry.local on 172.18.0.1:53: no such host")
        );
        let down = reg.resolve(&parse_image_ref("nginx:1.29").unwrap(), true).unwrap_err();
        assert!(down
            .message()
            .contains("Head \"https://registry-1.docker.io/v2/library/nginx/manifests/1.29\": dial tcp "));
        assert!(down.message().ends_with(":443: connect: connection refused"));
        let ok = reg.resolve(&parse_image_ref("nginx:1.29").unwrap(), false).unwrap();
        assert_eq!(ok.size_bytes, 72_361_947);
        assert_eq!(reg.resolve(&parse_image_ref("nginx").unwrap(), false).unwrap().digest, ok.digest);
    }

    #[test]
    fn durations_print_like_go() {
        assert_eq!(go_duration(10_000), "10s");
        assert_eq!(go_duration(80_000), "1m20s");
        assert_eq!(go_duration(300_000), "5m0s");
        assert_eq!(go_duration(2_345), "2.345s");
        assert_eq!(go_duration(2_340), "2.34s");
        assert_eq!(go_duration(490), "490ms");
        assert_eq!(go_duration(123_000), "2m3s");
        assert_eq!(pull_duration_ms(72_361_947), 2_346);
    }

    #[test]
    fn backoff_doubles_caps_and_forgets() {
        let mut b = Backoff::new(10_000, 300_000);
        assert!(!b.in_backoff_since("k", 0, 0));
        assert_eq!(b.next("k", 0), 10_000);
        assert!(b.in_backoff_since("k", 1_000, 5_000));
        assert!(!b.in_backoff_since("k", 1_000, 11_000));
        let delays: Vec<u64> = (1..8).map(|i| b.next("k", i * 1_000)).collect();
        assert_eq!(delays, vec![20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
        // Not touched for more than 10 minutes: starts over.
        assert_eq!(b.next("k", 7_000 + 600_001), 10_000);
    }
}
