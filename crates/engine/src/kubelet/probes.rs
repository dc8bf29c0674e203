//! Probes: startup, liveness and readiness, with exec/httpGet/tcpSocket/grpc handlers,
//! evaluated against the behaviour model of the container's process, and the prober
//! manager's workers that tick them (`Kubelet::probe`).
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

use super::containers::InSyncKill;
use super::images::ImageInfo;
use super::runtime::{exec_in_container, http_status, Process, Routes};
use super::{cni, probes, volumes, Kubelet, PodWorker};
use crate::sim::Task;
use crate::trace::{Component, Phase, StepStatus};
use crate::world::World;
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

impl Kubelet {
    /// A probe tick.
    pub(super) fn on_probe(
        &mut self,
        core: &mut World,
        key: &str,
        name: &str,
        kind: ProbeKind,
        instance: u32,
        task: &Task,
    ) {
        let Some(mut w) = self.pods.remove(key) else { return };
        self.probe(core, &mut w, name, kind, instance, task);
        self.pods.insert(key.to_string(), w);
    }

    fn probe(&mut self, core: &mut World, w: &mut PodWorker, name: &str, kind: ProbeKind, instance: u32, task: &Task) {
        let Some(i) = w.ctrs.iter().position(|c| c.name == name) else { return };
        if w.ctrs[i].instance != instance || !w.ctrs[i].running() || w.terminal.is_some() || w.deleting {
            return;
        }
        let spec = w.ctrs[i].spec.clone();
        let Some(probe) = kind.of(&spec).cloned() else { return };
        let t = probes::timing(&probe);
        if kind == ProbeKind::Startup && w.ctrs[i].started {
            return;
        }
        // The worker's ticker keeps its phase (counted from the pod's first sync), even
        // after a manual trigger.
        let period = t.period_s as u64 * 1000;
        let next = w.probe_epoch + ((core.now + 1).saturating_sub(w.probe_epoch)).div_ceil(period) * period;
        core.after(next - core.now, task.clone());
        if w.ctrs[i].stopping.is_some() || w.ctrs[i].probes.get(&kind).is_some_and(|s| s.on_hold) {
            return;
        }
        if kind != ProbeKind::Startup && spec.startup_probe.is_some() && !w.ctrs[i].started {
            return;
        }
        let started_ms = w.ctrs[i].started_ms().unwrap_or(core.now);
        if core.now < started_ms + t.initial_delay_s as u64 * 1000 {
            return;
        }
        let (Some(process), Some(img)) = (w.ctrs[i].process.clone(), w.ctrs[i].image.clone()) else { return };
        let pod_ip = w.pod_ip().map(cni::ip_to_string).unwrap_or_default();
        let static_files = volumes::container_files(&w.mounts, &spec);
        let outcome = probes::run(&probe, &spec, &img.info, &process, &pod_ip, core.now - started_ms, &static_files);
        if !outcome.success {
            self.event(
                core,
                w,
                Some(i),
                "Warning",
                "Unhealthy",
                format!("{} probe failed: {}", kind.title(), outcome.output),
                Phase::Status,
            );
        }
        let state = w.ctrs[i].probes.entry(kind).or_default();
        let run_before = state.run;
        let changed = state.observe(outcome.success, &t);
        let run = if state.last == Some(outcome.success) { state.run } else { run_before };
        let Some(result) = changed else { return };
        let obj = w.reference();
        self.work(
            core,
            Phase::Status,
            Component::Kubelet,
            Component::Kubelet,
            Some(&obj),
            format!("{} probe of {name:?} {}", kind.word(), if result { "succeeds" } else { "fails" }),
            "probe",
            vec![
                ("probe".into(), probes::describe(&probe)),
                ("result".into(), if result { "Success".into() } else { format!("Failure: {}", outcome.output) }),
                ("consecutive".into(), format!("{run} (threshold {})", if result { t.success_threshold } else { t.failure_threshold })),
            ],
            vec![],
            match (kind, result) {
                (ProbeKind::Readiness, true) => "The container is ready: once all are, the pod is Ready and Services send it traffic.".into(),
                (ProbeKind::Readiness, false) => "The container is not ready: the pod is taken out of Service endpoints, but it is not restarted.".into(),
                (ProbeKind::Liveness, _) => "The liveness probe failed failureThreshold times in a row: the kubelet kills the container and the restart policy starts it again.".into(),
                (ProbeKind::Startup, true) => "The startup probe succeeded: liveness and readiness probes start now.".into(),
                (ProbeKind::Startup, false) => "The container did not start in time: the kubelet kills it and restarts it.".into(),
            },
            if result { StepStatus::Ok } else { StepStatus::Failed },
        );
        match (kind, result) {
            (ProbeKind::Startup, true) => {
                w.ctrs[i].started = true;
                // Liveness and readiness workers begin at their next ticks.
            }
            (ProbeKind::Liveness, false) | (ProbeKind::Startup, false) => {
                if let Some(s) = w.ctrs[i].probes.get_mut(&kind) {
                    s.on_hold = true;
                    s.run = 0;
                }
                let grace = probe.termination_grace_period_seconds.unwrap_or_else(|| w.grace_seconds());
                // computePodActions: the container is restarted unless the pod's restart
                // policy is Never (shouldRestartOnFailure), and the message says so.
                let restart = w.restart_policy() != "Never";
                let mut message = format!("Container {name} failed {} probe", kind.word());
                if restart {
                    message.push_str(", will be restarted");
                }
                let previous = w.ctrs[i].last.clone();
                self.stop_container(core, w, i, message, grace, Some(InSyncKill { restart, previous }));
            }
            _ => {}
        }
        self.wake(core, w, core.now, false);
    }
}
