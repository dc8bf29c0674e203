//! Control-plane outages in a session: `lab stop|start kube-apiserver` and `lab stop|start
//! etcd`.
//!
//! While the API server is down nothing can be read or written:
//! - kubectl's connection is refused. It prints what kubectl prints then: its discovery
//!   client's log lines (`E1207 … memcache.go:265] "Unhandled Error" err="couldn't get current
//!   server API group list: …"`, as many as the command makes discovery attempts), then `The
//!   connection to the server 127.0.0.1:6443 was refused - did you specify the right host or
//!   port?`; `apply|create|replace -f` fail earlier, downloading the OpenAPI schema for
//!   client-side validation. The texts and the number of log lines per command were read from
//!   a kubectl v1.32 client pointed at a closed port;
//! - the kubelets keep running their Pods (containers, restarts, probes are node-local); their
//!   status writes are refused (a failed step each) and their heartbeats too (not recorded,
//!   as successful heartbeats are not);
//! - kube-controller-manager and kube-scheduler get no watch event and cannot write; they lose
//!   their leader-election leases, and once the API server is back they list everything again
//!   and reconcile, as after a restart ([`Session::restart`]).
//!
//! etcd stopped has the same effect in the lab: kube-apiserver's `/livez` includes an etcd
//! check, so the kubelet on the control-plane node restarts it, and it exits at start while
//! etcd is away. Until that restart (up to about a minute and a half), a real cluster's
//! requests hang and time out rather than being refused: the lab shows the state after it.

use super::*;
use crate::apiserver::Unreachable;

/// The address kubectl's kubeconfig names. kind publishes the API server on a random port of
/// the host's 127.0.0.1; the lab names the API server's own port.
pub const KUBECONFIG_SERVER: &str = "127.0.0.1:6443";

/// The port kube-apiserver listens on.
const API_SERVER_PORT: u16 = 6443;

/// A fixed process id for the lab's kubectl log lines, moved on for each command (a real
/// shell starts a new process each time).
const KUBECTL_PID: u32 = 48_213;

/// The process id of the session's `n`th command's kubectl.
pub(super) fn kubectl_pid(n: usize) -> u32 {
    KUBECTL_PID + 9 * n as u32
}

/// The control-plane components whose absence cuts every client off.
pub(super) const API_PATH: [&str; 2] = ["kube-apiserver", "etcd"];

/// How a kubectl command fails before any answer when the server is down.
enum Refusal {
    /// `n` discovery attempts logged, then the connection refused line.
    Discovery(usize),
    /// `apply|create|replace -f`: the OpenAPI download for validation fails first.
    Validation,
    /// `delete -f`, `apply -f --validate=false`: one discovery attempt, then the file's
    /// objects cannot be mapped to resources.
    Recognize,
}

impl Session {
    /// Whether clients can reach the API server.
    pub(super) fn api_down(&self) -> bool {
        API_PATH.iter().any(|c| self.stopped.contains(*c))
    }

    /// What kubectl prints when the server is down, or `None` when it is up (or the command
    /// is one kubectl answers without the server).
    pub(super) fn refused(&mut self, verb: &str, flags: &Flags) -> Option<Output> {
        if !self.api_down() {
            return None;
        }
        let has_file = flags.has(&["-f", "--filename"]);
        let file = flags.value(&["-f", "--filename"]).map(|f| if f == "-" { "STDIN" } else { f }).unwrap_or("STDIN");
        let validate = flags.value(&["--validate"]).is_none_or(|v| v != "false" && v != "ignore");
        let refusal = match verb {
            "apply" | "create" | "replace" if has_file && validate => Refusal::Validation,
            "apply" | "create" | "replace" | "delete" if has_file => Refusal::Recognize,
            "get" | "describe" | "scale" | "label" | "annotate" | "patch" | "delete" => Refusal::Discovery(5),
            "cordon" | "uncordon" | "rollout" | "set" | "drain" | "logs" | "exec" => Refusal::Discovery(4),
            "taint" | "auth" => Refusal::Discovery(2),
            "api-resources" => Refusal::Discovery(1),
            _ => return None,
        };
        let discovery = format!("https://{KUBECONFIG_SERVER}/api?timeout=32s");
        let dial = format!("dial tcp {KUBECONFIG_SERVER}: connect: connection refused");
        let (attempts, last) = match refusal {
            Refusal::Discovery(n) => (
                n,
                format!(
                    "The connection to the server {KUBECONFIG_SERVER} was refused - did you specify the right host or port?"
                ),
            ),
            Refusal::Validation => (
                0,
                format!(
                    "error: error validating \"{file}\": error validating data: failed to download openapi: Get \"https://{KUBECONFIG_SERVER}/openapi/v2?timeout=32s\": {dial}; if you choose to ignore these errors, turn validation off with --validate=false"
                ),
            ),
            Refusal::Recognize => (1, format!("error: unable to recognize \"{file}\": Get \"{discovery}\": {dial}")),
        };
        let mut stderr = String::new();
        let stamp = crate::apiserver::timestamp(self.world.now);
        let header = stamp.0.strftime("%m%d %H:%M:%S").to_string();
        let pid = kubectl_pid(self.commands.len());
        for i in 0..attempts {
            // Each attempt about 1.5 ms after the last, as measured.
            let micros = (self.world.now % 1000) * 1000 + 1_500 * i as u64;
            let escaped = format!("Get \\\"{discovery}\\\": {dial}");
            stderr.push_str(&format!(
                "E{header}.{micros:06} {pid:>7} memcache.go:265] \"Unhandled Error\" err=\"couldn't get current server API group list: {escaped}\"\n"
            ));
        }
        if verb == "auth" {
            // `kubectl auth can-i` maps its resource with the discovery it could not read.
            let what = flags.args.get(2).map(|r| r.split('/').next().unwrap_or(r)).unwrap_or("");
            stderr.push_str(&format!("Warning: the server doesn't have a resource type '{what}'\n\n"));
        }
        stderr.push_str(&last);
        stderr.push('\n');
        // `kubectl api-resources` prints its table's header before the error.
        let stdout = if verb == "api-resources" {
            "NAME   SHORTNAMES   APIVERSION   NAMESPACED   KIND\n".to_string()
        } else {
            String::new()
        };
        let text = format!(
            "kubectl cannot connect: {dial} (kube-apiserver is down); nothing was sent, nothing changed in the cluster"
        );
        self.world.record(
            crate::sim::StepBuilder::new(
                crate::trace::Phase::Request,
                crate::trace::Component::Kubectl,
                crate::trace::Component::ApiServer,
                text.clone(),
                crate::trace::Detail::Note { text },
            )
            .status(crate::trace::StepStatus::Failed),
        );
        Some(Output { stdout, stderr, exit: 1 })
    }

    /// Where the cluster's components dial the API server: the control-plane node's name and
    /// InternalIP (kind's kubeconfig for them names the node).
    fn api_endpoint(&self) -> Unreachable {
        let nodes = self.world.store.list("/registry/minions/");
        let node = nodes
            .iter()
            .find_map(|(_, o, _)| match o {
                crate::object::Object::Node(n)
                    if n.metadata
                        .labels
                        .as_ref()
                        .is_some_and(|l| l.contains_key("node-role.kubernetes.io/control-plane")) =>
                {
                    Some(n.clone())
                }
                _ => None,
            })
            .or_else(|| {
                nodes.iter().find_map(|(_, o, _)| match o {
                    crate::object::Object::Node(n) => Some(n.clone()),
                    _ => None,
                })
            });
        let name = node.as_ref().and_then(|n| n.metadata.name.clone()).unwrap_or_else(|| "kind-control-plane".into());
        let ip = node
            .as_ref()
            .and_then(|n| n.status.as_ref())
            .and_then(|s| s.addresses.as_ref())
            .and_then(|a| a.iter().find(|a| a.type_ == "InternalIP"))
            .map(|a| a.address.clone())
            .unwrap_or_else(|| "172.18.0.2".into());
        Unreachable { host: format!("{name}:{API_SERVER_PORT}"), address: format!("{ip}:{API_SERVER_PORT}") }
    }

    /// `lab stop kube-apiserver|etcd` took effect: clients are refused from now on.
    pub(super) fn api_stopped(&mut self) {
        self.world.api.unreachable = Some(self.api_endpoint());
    }

    /// `lab start kube-apiserver|etcd` took effect: when both are up again, the server
    /// answers, and every component that was cut off lists everything again (the controllers
    /// and the scheduler as after a restart; each kubelet resyncs its Pods and sends the
    /// status writes it could not).
    pub(super) fn api_started(&mut self) {
        if self.api_down() {
            return;
        }
        self.world.api.unreachable = None;
        for component in ["kube-controller-manager", "kube-scheduler"] {
            if !self.stopped.contains(component) {
                self.restart(component);
            }
        }
        for k in self.kubelets.iter_mut() {
            if !self.stopped.contains(&format!("kubelet/{}", k.node_name())) {
                k.reconnect(&mut self.world);
            }
        }
    }

    /// `lab stop control-plane-component`: kube-scheduler or kube-controller-manager, picked
    /// with the session's seeded randomness, is stopped without saying which (an exercise's
    /// "find the stopped component from its symptoms").
    pub(super) fn stop_unnamed(&mut self) -> Output {
        let running: Vec<&str> =
            ["kube-scheduler", "kube-controller-manager"].into_iter().filter(|c| !self.stopped.contains(*c)).collect();
        if running.is_empty() {
            return Output {
                stdout: "kube-scheduler and kube-controller-manager are both stopped already\n".into(),
                ..Output::default()
            };
        }
        let pick = running[self.world.rng.below(running.len() as u64) as usize];
        self.stopped.insert(pick.to_string());
        let text = "a control-plane component stopped: kube-scheduler or kube-controller-manager; which one is for you to find from what the cluster does, or does not do".to_string();
        self.lab_note(&text, true);
        Output { stdout: format!("{text}\n"), ..Output::default() }
    }
}
