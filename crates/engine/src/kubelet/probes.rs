//! Probes: startup, liveness and readiness, with exec/httpGet/tcpSocket/grpc handlers,
//! evaluated against the behaviour model of the container's process.
//!
//! Exact upstream behaviour (`pkg/kubelet/prober`): defaults (initialDelaySeconds 0,
//! periodSeconds 10, timeoutSeconds 1, successThreshold 1, failureThreshold 3); a worker per
//! probe ticks every period from the moment the pod is synced and skips ticks before
//! `initialDelaySeconds` after the container started; liveness and readiness wait for the
//! startup probe; readiness starts as failure, liveness as success; a result is only
//! published after threshold consecutive equal results; a liveness or startup failure puts
//! the worker on hold until a new container starts; every failed probe records an
//! `Unhealthy` event `<Kind> probe failed: <output>`; the kill reads `Container <c> failed
//! <kind> probe, will be restarted`. HTTP: 200–399 succeed, anything else
//! `HTTP probe failed with statuscode: <code>`; refused connections read like Go's net/http.

use super::images::ImageInfo;
use super::runtime::{exec_in_container, http_status, Process, Routes};
use k8s_openapi::api::core::v1::{Container, Probe};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

/// `periodSeconds` default.
pub const DEFAULT_PERIOD_S: i32 = 10;
/// `timeoutSeconds` default.
pub const DEFAULT_TIMEOUT_S: i32 = 1;
/// `successThreshold` default.
pub const DEFAULT_SUCCESS_THRESHOLD: i32 = 1;
/// `failureThreshold` default.
pub const DEFAULT_FAILURE_THRESHOLD: i32 = 3;
/// Time a probe takes when it succeeds or is refused at once.
pub const PROBE_MS: u64 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProbeKind {
    Startup,
    Liveness,
    Readiness,
}

impl ProbeKind {
    pub const ALL: [ProbeKind; 3] = [ProbeKind::Startup, ProbeKind::Liveness, ProbeKind::Readiness];

    /// `Liveness`, as in the event text.
    pub fn title(self) -> &'static str {
        match self {
            ProbeKind::Startup => "Startup",
            ProbeKind::Liveness => "Liveness",
            ProbeKind::Readiness => "Readiness",
        }
    }

    /// `liveness`, as in the kill message and task keys.
    pub fn word(self) -> &'static str {
        match self {
            ProbeKind::Startup => "startup",
            ProbeKind::Liveness => "liveness",
            ProbeKind::Readiness => "readiness",
        }
    }

    pub fn from_word(w: &str) -> Option<ProbeKind> {
        ProbeKind::ALL.into_iter().find(|k| k.word() == w)
    }

    pub fn of(self, c: &Container) -> Option<&Probe> {
        match self {
            ProbeKind::Startup => c.startup_probe.as_ref(),
            ProbeKind::Liveness => c.liveness_probe.as_ref(),
            ProbeKind::Readiness => c.readiness_probe.as_ref(),
        }
    }
}

/// A probe's timing parameters with defaults applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    pub initial_delay_s: i32,
    pub period_s: i32,
    pub timeout_s: i32,
    pub success_threshold: i32,
    pub failure_threshold: i32,
}

pub fn timing(p: &Probe) -> Timing {
    Timing {
        initial_delay_s: p.initial_delay_seconds.unwrap_or(0).max(0),
        period_s: p.period_seconds.unwrap_or(DEFAULT_PERIOD_S).max(1),
        timeout_s: p.timeout_seconds.unwrap_or(DEFAULT_TIMEOUT_S).max(1),
        success_threshold: p.success_threshold.unwrap_or(DEFAULT_SUCCESS_THRESHOLD).max(1),
        failure_threshold: p.failure_threshold.unwrap_or(DEFAULT_FAILURE_THRESHOLD).max(1),
    }
}

/// How `kubectl describe` prints a probe (`http-get http://:8080/healthz delay=0s ...`).
pub fn describe(p: &Probe) -> String {
    let t = timing(p);
    let handler = if let Some(h) = &p.http_get {
        let port = match &h.port {
            IntOrString::Int(i) => i.to_string(),
            IntOrString::String(s) => s.clone(),
        };
        format!(
            "http-get {}://{}:{port}{}",
            h.scheme.as_deref().unwrap_or("HTTP").to_ascii_lowercase(),
            h.host.as_deref().unwrap_or(""),
            h.path.as_deref().unwrap_or("")
        )
    } else if let Some(tcp) = &p.tcp_socket {
        let port = match &tcp.port {
            IntOrString::Int(i) => i.to_string(),
            IntOrString::String(s) => s.clone(),
        };
        format!("tcp-socket :{port}")
    } else if let Some(g) = &p.grpc {
        format!("grpc <pod>:{} {}", g.port, g.service.as_deref().unwrap_or(""))
    } else if let Some(e) = &p.exec {
        format!("exec [{}]", e.command.iter().flatten().cloned().collect::<Vec<_>>().join(" "))
    } else {
        "unknown".to_string()
    };
    format!(
        "{handler} delay={}s timeout={}s period={}s #success={} #failure={}",
        t.initial_delay_s, t.timeout_s, t.period_s, t.success_threshold, t.failure_threshold
    )
}

/// Resolves a port (number or container port name).
pub fn resolve_port(port: &IntOrString, c: &Container) -> Result<i32, String> {
    match port {
        IntOrString::Int(i) => Ok(*i),
        IntOrString::String(name) => {
            if let Ok(n) = name.parse::<i32>() {
                return Ok(n);
            }
            c.ports
                .iter()
                .flatten()
                .find(|p| p.name.as_deref() == Some(name.as_str()))
                .map(|p| p.container_port)
                .ok_or_else(|| format!("couldn't find port: {name} in {}", c.name))
        }
    }
}

/// The result of running one probe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub success: bool,
    /// The prober's output (the event text after `<Kind> probe failed: `).
    pub output: String,
}

/// Runs a probe against a process `t_ms` after it started.
pub fn run(
    p: &Probe,
    c: &Container,
    image: &ImageInfo,
    process: &Process,
    pod_ip: &str,
    t_ms: u64,
    static_files: &[String],
) -> Outcome {
    let listening_on = |port: i32| {
        process.listeners.iter().find(|l| l.port == port && !l.localhost_only && t_ms >= process.listen_after_ms)
    };
    let fail = |output: String| Outcome { success: false, output };
    let ok = || Outcome { success: true, output: String::new() };
    if let Some(h) = &p.http_get {
        let port = match resolve_port(&h.port, c) {
            Ok(p) => p,
            Err(e) => return fail(e),
        };
        let scheme = h.scheme.as_deref().unwrap_or("HTTP").to_ascii_lowercase();
        let host = h.host.clone().unwrap_or_else(|| pod_ip.to_string());
        let mut path = h.path.clone().unwrap_or_else(|| "/".to_string());
        if !path.starts_with('/') {
            path.insert(0, '/');
        }
        let url = format!("{scheme}://{host}:{port}{path}");
        return match listening_on(port) {
            None => fail(format!("Get {url:?}: dial tcp {host}:{port}: connect: connection refused")),
            Some(l) if l.routes == Routes::NotHttp => fail(format!("Get {url:?}: EOF")),
            Some(l) if scheme == "https" => {
                let _ = l;
                fail(format!("Get {url:?}: http: server gave HTTP response to HTTPS client"))
            }
            Some(l) => {
                let code = http_status(&l.routes, &path, t_ms);
                if (200..400).contains(&code) {
                    ok()
                } else {
                    fail(format!("HTTP probe failed with statuscode: {code}"))
                }
            }
        };
    }
    if let Some(tcp) = &p.tcp_socket {
        let port = match resolve_port(&tcp.port, c) {
            Ok(p) => p,
            Err(e) => return fail(e),
        };
        let host = tcp.host.clone().unwrap_or_else(|| pod_ip.to_string());
        return match listening_on(port) {
            Some(_) => ok(),
            None => fail(format!("dial tcp {host}:{port}: connect: connection refused")),
        };
    }
    if let Some(g) = &p.grpc {
        let t = timing(p);
        return match listening_on(g.port) {
            Some(l) if l.grpc_health => ok(),
            _ => fail(format!(
                "timeout: failed to connect service {:?} within {}s: context deadline exceeded",
                format!("{pod_ip}:{}", g.port),
                t.timeout_s
            )),
        };
    }
    if let Some(e) = &p.exec {
        let cmd: Vec<String> = e.command.clone().unwrap_or_default();
        let (code, output) = exec_in_container(image, process, &cmd, t_ms, static_files);
        return if code == 0 { ok() } else { fail(output) };
    }
    fail("missing probe handler".to_string())
}

/// A probe worker's running state for one container instance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkerState {
    /// The last raw result and how many times in a row it came.
    pub last: Option<bool>,
    pub run: i32,
    /// The published result (what readiness/liveness decisions use).
    pub published: Option<bool>,
    /// Liveness/startup failed: stop probing until a new container starts.
    pub on_hold: bool,
}

impl WorkerState {
    /// Feeds one raw result; returns the newly published result if it changed.
    pub fn observe(&mut self, success: bool, t: &Timing) -> Option<bool> {
        if self.last == Some(success) {
            self.run += 1;
        } else {
            self.last = Some(success);
            self.run = 1;
        }
        let threshold = if success { t.success_threshold } else { t.failure_threshold };
        if self.run < threshold {
            return None;
        }
        let changed = self.published != Some(success);
        self.published = Some(success);
        changed.then_some(success)
    }
}
