//! Looking into a live cluster: `kubectl logs`, `kubectl exec`, `kubectl auth can-i` and
//! `kubectl api-resources`.
//!
//! - `logs` GETs the Pod (or the Deployment/ReplicaSet/... and its Pods, taking the first as
//!   kubectl ranks them), then `GET pods/NAME/log?container=C`: the API server reads the Pod and
//!   asks the kubelet of its node, which answers with what the lab's container behaviour model
//!   says that container instance printed ([`crate::kubelet::ContainerView`]);
//! - `exec` GETs the Pod, then `POST pods/NAME/exec` (RBAC: `create` on `pods/exec`); the
//!   kubelet runs the command in the container for the commands the model can answer (`cat`,
//!   `ls`, `env`/`printenv`, `hostname`, `echo`, `true`/`false`, `sh -c`), and the lab says
//!   plainly when it does not model a command's output;
//! - `auth can-i` POSTs a SelfSubjectAccessReview and prints `yes` (exit 0) or `no` (exit 1);
//! - `api-resources` reads discovery (`GET /api`, `GET /apis`) and prints the resources the
//!   lab's API server serves, sorted by group as kubectl sorts them.

use super::patch::join_valued;
use super::verbs::{server_error, unknown_flag};
use super::*;
use crate::kubelet::ContainerView;
use crate::object::{Object, RESOURCES};
use crate::trace::{Component, Detail, Phase, StepStatus};
use k8s_openapi::api::core::v1::Pod;
use serde_json::{json, Value};

/// `kubectl logs` with no Pod.
const LOGS_USAGE: &str = "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples";

/// The resources in the `all` category (`kubectl get all`).
const CATEGORY_ALL: &[&str] = &[
    "pods",
    "services",
    "replicationcontrollers",
    "deployments",
    "replicasets",
    "statefulsets",
    "daemonsets",
    "jobs",
    "cronjobs",
    "horizontalpodautoscalers",
];

/// The Pod's containers as kubectl names them for `Defaulted container "a" out of: a, b`.
fn container_names(pod: &Pod) -> Vec<String> {
    let spec = pod.spec.as_ref();
    let mut names: Vec<String> =
        spec.map(|s| s.containers.iter().map(|c| c.name.clone()).collect()).unwrap_or_default();
    names.extend(
        spec.and_then(|s| s.init_containers.as_ref()).into_iter().flatten().map(|c| format!("{} (init)", c.name)),
    );
    names
}

/// The container kubectl picks without `-c`: the `kubectl.kubernetes.io/default-container`
/// annotation's, else the first; and its note on standard error when there are several.
fn default_container(pod: &Pod) -> (String, String) {
    let first = pod.spec.as_ref().and_then(|s| s.containers.first()).map(|c| c.name.clone()).unwrap_or_default();
    let annotated = pod
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get("kubectl.kubernetes.io/default-container"))
        .filter(|n| pod.spec.as_ref().is_some_and(|s| s.containers.iter().any(|c| &c.name == *n)))
        .cloned();
    let names = container_names(pod);
    match annotated {
        Some(n) => (n, String::new()),
        None if names.len() > 1 => {
            let note = format!("Defaulted container \"{first}\" out of: {}\n", names.join(", "));
            (first, note)
        }
        None => (first, String::new()),
    }
}

/// The container's status in the Pod (regular or init).
fn container_status<'a>(pod: &'a Pod, name: &str) -> Option<&'a k8s_openapi::api::core::v1::ContainerStatus> {
    let st = pod.status.as_ref()?;
    st.container_statuses.iter().flatten().chain(st.init_container_statuses.iter().flatten()).find(|s| s.name == name)
}

fn has_container(pod: &Pod, name: &str) -> bool {
    pod.spec
        .as_ref()
        .is_some_and(|s| s.containers.iter().chain(s.init_containers.iter().flatten()).any(|c| c.name == name))
}

/// What the official nginx image's entrypoint prints at start (its `/docker-entrypoint.d`
/// scripts, then nginx's first notices), at the container's start time. From the image's
/// scripts as the lab knows them; nginx's later notices (its version, build, OS and worker
/// lines) are left out.
fn nginx_startup(started_ms: u64) -> Vec<String> {
    let stamp = crate::apiserver::timestamp(started_ms).0.strftime("%Y/%m/%d %H:%M:%S").to_string();
    let e = "/docker-entrypoint.sh";
    vec![
        format!("{e}: /docker-entrypoint.d/ is not empty, will attempt to perform configuration"),
        format!("{e}: Looking for shell scripts in /docker-entrypoint.d/"),
        format!("{e}: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh"),
        "10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf".to_string(),
        "10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf".to_string(),
        format!("{e}: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh"),
        format!("{e}: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh"),
        format!("{e}: Launching /docker-entrypoint.d/30-tune-worker-processes.sh"),
        format!("{e}: Configuration complete; ready for start up"),
        format!("{stamp} [notice] 1#1: using the \"epoll\" event method"),
        format!("{stamp} [notice] 1#1: start worker processes"),
    ]
}

/// Programs whose real images print nothing while they run as the lab models them.
fn silent_program(argv: &[String]) -> bool {
    let prog = argv.first().map(|a| a.rsplit('/').next().unwrap_or(a)).unwrap_or("");
    matches!(prog, "sleep" | "pause" | "true" | "false" | "sh" | "bash" | "ash" | "tail")
}

impl Session {
    /// A traced Pod GET.
    fn read_pod(&mut self, flags: &Flags, ns: &str, name: &str) -> Result<Pod, Output> {
        let res = resource_named("pods").expect("pods");
        let req = self.request_as(flags, Verb::Get, res, Some(ns), Some(name));
        let resp = apiserver::handle(&mut self.world, req);
        if let Some(status) = resp.error.clone() {
            return Err(server_error(status));
        }
        match resp.into_object() {
            Some(Object::Pod(p)) => Ok((*p).clone()),
            _ => Err(Output::error("error: the server returned no Pod")),
        }
    }

    /// The Pod `TYPE/NAME` names: itself, or the first of the workload's Pods as kubectl ranks
    /// them (`Found 2 pods, using pod/web-…` on standard error when there are several).
    fn attachable_pod(&mut self, flags: &Flags, arg: &str, ns: &str) -> Result<(Pod, String), Output> {
        let (type_, name) = match arg.split_once('/') {
            Some((t, n)) => (t, n),
            None => ("pods", arg),
        };
        let Some(res) = resource_named(type_) else { return Err(super::kinds::no_type(type_)) };
        if res.kind == "Pod" {
            return self.read_pod(flags, ns, name).map(|p| (p, String::new()));
        }
        let req = self.request_as(flags, Verb::Get, res, Some(ns), Some(name));
        let resp = apiserver::handle(&mut self.world, req);
        if let Some(status) = resp.error.clone() {
            return Err(server_error(status));
        }
        let obj = resp.into_object().map(|o| o.to_json()).unwrap_or_default();
        let Some(labels) = obj.pointer("/spec/selector/matchLabels").and_then(Value::as_object).cloned() else {
            return Err(Output::error(format!(
                "error: cannot attach to {}: selector for {} not implemented",
                res.kind, res.kind
            )));
        };
        let pods_res = resource_named("pods").expect("pods");
        let list = self.request_as(flags, Verb::List, pods_res, Some(ns), None);
        let resp = apiserver::handle(&mut self.world, list);
        if let Some(status) = resp.error.clone() {
            return Err(server_error(status));
        }
        let mut pods: Vec<Pod> = self
            .world
            .store
            .live(&pods_res.list_prefix(Some(ns)))
            .filter_map(|(_, o)| match o {
                Object::Pod(p) => Some((**p).clone()),
                _ => None,
            })
            .filter(|p| {
                let have = p.metadata.labels.clone().unwrap_or_default();
                labels.iter().all(|(k, v)| v.as_str() == have.get(k).map(String::as_str))
            })
            .collect();
        if pods.is_empty() {
            return Err(Output::error("error: timed out waiting for the condition".to_string()));
        }
        // kubectl's ranking (the reverse of the ReplicaSet's deletion order): bound, Running,
        // ready, fewer restarts, older.
        let rank = |p: &Pod| {
            let st = p.status.as_ref();
            let phase = match st.and_then(|s| s.phase.as_deref()) {
                Some("Running") => 2,
                Some("Pending") => 0,
                _ => 1,
            };
            let ready = st
                .and_then(|s| s.conditions.as_ref())
                .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"));
            let restarts: i32 = st
                .and_then(|s| s.container_statuses.as_ref())
                .map(|cs| cs.iter().map(|c| c.restart_count).sum())
                .unwrap_or(0);
            let bound = p.spec.as_ref().and_then(|s| s.node_name.as_ref()).is_some();
            (
                std::cmp::Reverse(bound),
                std::cmp::Reverse(phase),
                std::cmp::Reverse(ready),
                restarts,
                p.metadata.creation_timestamp.clone().map(|t| t.0),
                p.metadata.name.clone(),
            )
        };
        pods.sort_by_key(rank);
        let note = if pods.len() > 1 {
            format!("Found {} pods, using pod/{}\n", pods.len(), pods[0].metadata.name.clone().unwrap_or_default())
        } else {
            String::new()
        };
        Ok((pods.swap_remove(0), note))
    }

    /// The kubelet's view of a container of a bound Pod.
    fn container_view(&self, pod: &Pod, container: &str) -> Option<ContainerView> {
        let node = pod.spec.as_ref()?.node_name.as_deref()?;
        let key = format!(
            "{}/{}",
            pod.metadata.namespace.as_deref().unwrap_or("default"),
            pod.metadata.name.as_deref().unwrap_or("")
        );
        self.kubelets.iter().find(|k| k.node_name() == node)?.container_view(&self.world, &key, container)
    }

    /// A step of the API server asking a kubelet (its streaming endpoints on port 10250).
    fn kubelet_step(&mut self, pod: &Pod, text: String, ok: bool) {
        let node = pod.spec.as_ref().and_then(|s| s.node_name.clone()).unwrap_or_default();
        let mut b = crate::sim::StepBuilder::new(
            Phase::Request,
            Component::ApiServer,
            Component::Kubelet,
            text.clone(),
            Detail::Note { text },
        )
        .status(if ok { StepStatus::Ok } else { StepStatus::Failed });
        if !node.is_empty() {
            b = b.node(node);
        }
        self.world.record(b);
    }

    pub(super) fn logs(&mut self, words: &[String]) -> Output {
        let valued = ["-c", "--container", "--tail", "--as", "--as-group"];
        let flags = parse_flags(&join_valued(words, &valued));
        let known = ["-n", "--namespace", "-c", "--container", "-p", "--previous", "--tail", "--as", "--as-group"];
        if let Some(f) = flags.unknown(&known) {
            return unknown_flag("logs", f);
        }
        let tail = match flags.value(&["--tail"]) {
            None => None,
            Some(t) => match t.parse::<i64>() {
                Ok(n) if n < 0 => None,
                Ok(n) => Some(n as usize),
                Err(_) => {
                    return Output::error(format!(
                        "Error: invalid argument \"{t}\" for \"--tail\" flag: strconv.ParseInt: parsing \"{t}\": invalid syntax\nSee 'kubectl logs --help' for usage."
                    ))
                }
            },
        };
        let previous = flags
            .flags
            .iter()
            .rev()
            .find(|(n, _)| n == "-p" || n == "--previous")
            .is_some_and(|(_, v)| v.as_deref().is_none_or(|v| v == "true"));
        let Some(arg) = flags.args.first().cloned() else { return Output::error(LOGS_USAGE) };
        self.command = Some(KubectlCommand {
            name: "kubectl logs",
            field_manager: "",
            strict: false,
            merge_patch: false,
            dry_run: false,
        });
        let ns = self.namespace_of(&flags);
        let (pod, mut stderr) = match self.attachable_pod(&flags, &arg, &ns) {
            Ok(p) => p,
            Err(out) => return out,
        };
        let pod_name = pod.metadata.name.clone().unwrap_or_default();
        let container =
            match flags.value(&["-c", "--container"]).map(str::to_string).or_else(|| flags.args.get(1).cloned()) {
                Some(c) => c,
                None => {
                    let (c, note) = default_container(&pod);
                    stderr += &note;
                    c
                }
            };
        let pods_res = resource_named("pods").expect("pods");
        let mut req = self.request_as(&flags, Verb::Get, pods_res, Some(&ns), Some(&pod_name));
        req.subresource = Some("log".into());
        let resp = apiserver::handle(&mut self.world, req);
        let fail =
            |stderr: String, msg: String| Output { stdout: String::new(), stderr: stderr + &msg + "\n", exit: 1 };
        if let Some(status) = resp.error.clone() {
            return fail(stderr, kubectl_stderr(&[CommandError::Server(status)]).trim_end().to_string());
        }
        if !has_container(&pod, &container) {
            return fail(
                stderr,
                format!("Error from server (BadRequest): container {container} is not valid for pod {pod_name}"),
            );
        }
        let node = pod.spec.as_ref().and_then(|s| s.node_name.clone()).unwrap_or_default();
        let ask = format!(
            "GET https://{node}:10250/containerLogs/{ns}/{pod_name}/{container}{}",
            if previous { "?previous=true" } else { "" }
        );
        // The kubelet picks the instance from the Pod's status, as validateContainerLogStatus.
        let status = container_status(&pod, &container);
        let state = status.and_then(|s| s.state.as_ref());
        let last_terminated = status.and_then(|s| s.last_state.as_ref()).and_then(|s| s.terminated.as_ref()).is_some();
        let view = self.container_view(&pod, &container);
        let running = state.and_then(|s| s.running.as_ref()).is_some();
        let lines = if previous {
            if !last_terminated {
                let msg = format!("previous terminated container \"{container}\" in pod \"{pod_name}\" not found");
                self.kubelet_step(&pod, format!("kube-apiserver asks the kubelet on {node}: {ask}: 400 {msg}"), false);
                return fail(stderr, format!("Error from server (BadRequest): {msg}"));
            }
            view.as_ref().and_then(|v| if running { v.previous_output.clone() } else { v.output.clone() })
        } else {
            let waiting = state.and_then(|s| s.waiting.as_ref());
            if node.is_empty() {
                // Not scheduled: the API server has no kubelet to ask and streams nothing.
                return Output { stdout: String::new(), stderr, exit: 0 };
            }
            if state.is_none() {
                let msg = format!("container \"{container}\" in pod \"{pod_name}\" is not available");
                self.kubelet_step(&pod, format!("kube-apiserver asks the kubelet on {node}: {ask}: 400 {msg}"), false);
                return fail(stderr, format!("Error from server (BadRequest): {msg}"));
            }
            if waiting.is_some() && !last_terminated {
                let reason = waiting.and_then(|w| w.reason.clone()).unwrap_or_else(|| "ContainerCreating".to_string());
                let msg = format!("container \"{container}\" in pod \"{pod_name}\" is waiting to start: {reason}");
                if !node.is_empty() {
                    self.kubelet_step(
                        &pod,
                        format!("kube-apiserver asks the kubelet on {node}: {ask}: 400 {msg}"),
                        false,
                    );
                }
                return fail(stderr, format!("Error from server (BadRequest): {msg}"));
            }
            view.as_ref().and_then(|v| v.output.clone())
        };
        let Some(mut lines) = lines else {
            self.kubelet_step(
                &pod,
                format!(
                    "kube-apiserver asks the kubelet on {node}: {ask}: the kubelet no longer has that container's log"
                ),
                false,
            );
            return Output {
                stdout: String::new(),
                stderr: stderr + &format!("podlab: the kubelet on {node} keeps no log of that container instance in the lab (it started before the session's kubelet did); a real kubelet reads it from /var/log/pods\n"),
                exit: 0,
            };
        };
        if let Some((p, _, started)) = view.as_ref().and_then(|v| v.running.as_ref()) {
            if lines.is_empty()
                && !previous
                && p.argv.first().is_some_and(|a| a == "/docker-entrypoint.sh")
                && p.argv.iter().any(|a| a == "nginx")
            {
                lines = nginx_startup(*started);
            }
        }
        self.kubelet_step(
            &pod,
            format!("kube-apiserver asks the kubelet on {node}: {ask}: 200, {} line(s) of output", lines.len()),
            true,
        );
        if lines.is_empty() {
            let argv = view.as_ref().and_then(|v| v.running.as_ref()).map(|r| r.0.argv.clone());
            let spec_argv = pod
                .spec
                .as_ref()
                .and_then(|s| s.containers.iter().find(|c| c.name == container))
                .and_then(|c| c.command.clone())
                .unwrap_or_default();
            let argv = argv.unwrap_or(spec_argv);
            if !argv.is_empty() && !silent_program(&argv) {
                stderr += &format!(
                    "podlab: the lab does not model what {} prints; a real container's log would show its output here\n",
                    argv.join(" ")
                );
            }
        }
        if let Some(n) = tail {
            let skip = lines.len().saturating_sub(n);
            lines.drain(..skip);
        }
        let mut stdout = String::new();
        for l in &lines {
            stdout += l;
            stdout.push('\n');
        }
        Output { stdout, stderr, exit: 0 }
    }

    pub(super) fn exec(&mut self, words: &[String]) -> Output {
        let (before, command) = match words.iter().position(|w| w == "--") {
            Some(i) => (&words[..i], words[i + 1..].to_vec()),
            None => (words, Vec::new()),
        };
        let valued = ["-c", "--container", "--as", "--as-group"];
        let flags = parse_flags(&join_valued(before, &valued));
        let known = [
            "-n",
            "--namespace",
            "-c",
            "--container",
            "-i",
            "--stdin",
            "-t",
            "--tty",
            "-it",
            "-ti",
            "--as",
            "--as-group",
        ];
        if let Some(f) = flags.unknown(&known) {
            return unknown_flag("exec", f);
        }
        let Some(arg) = flags.args.first().cloned() else {
            return Output::error("error: pod, type/name or --filename must be specified");
        };
        if flags.args.len() > 1 {
            return Output::error("error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\nSee 'kubectl exec -h' for help and examples");
        }
        if command.is_empty() {
            return Output::error("error: you must specify at least one command for the container");
        }
        if flags.has(&["-i", "--stdin", "-t", "--tty", "-it", "-ti"]) {
            return Output::error("podlab: kubectl exec -i/-t (an interactive shell) is not modelled by the lab's session; run one command at a time: kubectl exec POD -- COMMAND");
        }
        let ns = self.namespace_of(&flags);
        self.command = Some(KubectlCommand {
            name: "kubectl exec",
            field_manager: "",
            strict: false,
            merge_patch: false,
            dry_run: false,
        });
        let (pod, mut stderr) = match self.attachable_pod(&flags, &arg, &ns) {
            Ok(p) => p,
            Err(out) => return out,
        };
        let pod_name = pod.metadata.name.clone().unwrap_or_default();
        let phase = pod.status.as_ref().and_then(|s| s.phase.clone()).unwrap_or_default();
        if phase == "Succeeded" || phase == "Failed" {
            return Output::error(format!(
                "error: cannot exec into a container in a completed pod; current phase is {phase}"
            ));
        }
        let container = match flags.value(&["-c", "--container"]) {
            Some(c) => c.to_string(),
            None => {
                let (c, note) = default_container(&pod);
                stderr += &note;
                c
            }
        };
        self.command = Some(KubectlCommand {
            name: "kubectl exec",
            field_manager: "",
            strict: false,
            merge_patch: false,
            dry_run: false,
        });
        let pods_res = resource_named("pods").expect("pods");
        let mut req = self.request_as(&flags, Verb::Create, pods_res, Some(&ns), Some(&pod_name));
        req.subresource = Some("exec".into());
        let resp = apiserver::handle(&mut self.world, req);
        let fail = |stderr: String, msg: String, exit: i32| Output {
            stdout: String::new(),
            stderr: stderr + &msg + "\n",
            exit,
        };
        if let Some(status) = resp.error.clone() {
            return fail(stderr, kubectl_stderr(&[CommandError::Server(status)]).trim_end().to_string(), 1);
        }
        if !has_container(&pod, &container) {
            return fail(
                stderr,
                format!("Error from server (BadRequest): container {container} is not valid for pod {pod_name}"),
                1,
            );
        }
        let node = pod.spec.as_ref().and_then(|s| s.node_name.clone()).unwrap_or_default();
        if node.is_empty() {
            return fail(
                stderr,
                format!("Error from server (BadRequest): pod {pod_name} does not have a host assigned"),
                1,
            );
        }
        let view = self.container_view(&pod, &container);
        let Some((view, (process, image, started))) = view.and_then(|v| v.running.clone().map(|r| (v, r))) else {
            let msg = format!("error: unable to upgrade connection: container not found (\"{container}\")");
            self.kubelet_step(&pod, format!("kube-apiserver asks the kubelet on {node} to exec in {container}: it has no running container {container:?}"), false);
            return fail(stderr, msg, 1);
        };
        let shown = command.join(" ");
        let t_ms = self.world.now.saturating_sub(started);
        let prog = command[0].rsplit('/').next().unwrap_or(&command[0]).to_string();
        let args = &command[1..];
        let busybox = matches!(image.userland, crate::kubelet::images::Userland::Busybox);
        let no_such = |tool: &str, path: &str| {
            if busybox && tool == "cat" {
                format!("cat: can't open '{path}': No such file or directory")
            } else if busybox {
                format!("{tool}: {path}: No such file or directory")
            } else if tool == "ls" {
                format!("ls: cannot access '{path}': No such file or directory")
            } else {
                format!("{tool}: {path}: No such file or directory")
            }
        };
        let mut out = String::new();
        let mut err = String::new();
        let mut code = 0;
        let mut modelled = true;
        // Both userlands (busybox, GNU coreutils) have these.
        let common =
            matches!(prog.as_str(), "cat" | "ls" | "env" | "printenv" | "hostname" | "echo" | "true" | "false")
                && !matches!(image.userland, crate::kubelet::images::Userland::Scratch);
        if !common && !crate::kubelet::runtime::has_binary(&image, &command[0]) {
            err = format!(
                "error: Internal error occurred: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec: {}\n",
                crate::kubelet::runtime::exec_in_container_not_found(&command[0])
            );
            code = 1;
            self.kubelet_step(
                &pod,
                format!(
                    "kube-apiserver asks the kubelet on {node} to exec `{shown}` in {container}: the image has no {}",
                    command[0]
                ),
                false,
            );
            return Output { stdout: String::new(), stderr: stderr + &err, exit: code };
        }
        let exists = |path: &str| {
            view.texts.iter().any(|(p, _)| p == path)
                || process.file_exists(path, t_ms, &view.files)
                || view.texts.iter().any(|(p, _)| p.starts_with(&format!("{}/", path.trim_end_matches('/'))))
        };
        match prog.as_str() {
            "true" => {}
            "false" => code = 1,
            "echo" => out = format!("{}\n", args.join(" ")),
            "hostname" => {
                let host = pod.spec.as_ref().and_then(|s| s.hostname.clone()).unwrap_or_else(|| pod_name.clone());
                out = format!("{host}\n");
            }
            "env" | "printenv" if args.is_empty() || prog == "printenv" => {
                let mut vars: Vec<(String, String)> = vec![
                    ("PATH".into(), "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".into()),
                    ("HOSTNAME".into(), pod_name.clone()),
                ];
                vars.extend(view.env.iter().cloned());
                vars.push(("HOME".into(), "/root".into()));
                if args.is_empty() {
                    for (k, v) in &vars {
                        out += &format!("{k}={v}\n");
                    }
                } else {
                    for a in args {
                        match vars.iter().find(|(k, _)| k == a) {
                            Some((_, v)) => out += &format!("{v}\n"),
                            None => code = 1,
                        }
                    }
                }
                err += "podlab: the image's own ENV lines are not listed (the lab does not model them); the order of the variables is the lab's\n";
            }
            "cat" => {
                for path in args.iter().filter(|a| !a.starts_with('-')) {
                    match view.texts.iter().find(|(p, _)| p == path) {
                        Some((_, text)) => out += text,
                        None if exists(path) => {
                            err += &format!(
                                "podlab: {path} exists in the container, but the lab does not know its content\n"
                            );
                            modelled = false;
                        }
                        None => {
                            err += &no_such("cat", path);
                            err.push('\n');
                            code = 1;
                        }
                    }
                }
            }
            "ls" => {
                let dir = args.iter().find(|a| !a.starts_with('-')).cloned().unwrap_or_else(|| "/".to_string());
                let dir = dir.trim_end_matches('/').to_string();
                let prefix = format!("{dir}/");
                let mut names: Vec<String> = view
                    .texts
                    .iter()
                    .map(|(p, _)| p.clone())
                    .chain(view.files.iter().map(|f| f.trim_end_matches('/').to_string()))
                    .filter_map(|p| p.strip_prefix(&prefix).map(|r| r.split('/').next().unwrap_or("").to_string()))
                    .filter(|n| !n.is_empty())
                    .collect();
                names.sort();
                names.dedup();
                if !names.is_empty() {
                    for n in &names {
                        out += &format!("{n}\n");
                    }
                    if view.files.iter().any(|f| f == &prefix) {
                        err += &format!("podlab: {dir} may hold more than the lab knows of\n");
                    }
                } else if exists(&dir) || dir.is_empty() {
                    err += &format!(
                        "podlab: the lab does not model the content of {}; a real ls lists it\n",
                        if dir.is_empty() { "/" } else { &dir }
                    );
                    modelled = false;
                } else {
                    err += &no_such("ls", &dir);
                    err.push('\n');
                    code = if busybox { 1 } else { 2 };
                }
            }
            "sh" | "bash" | "ash" | "dash" if args.iter().any(|a| a == "-c") => {
                let (c, text) =
                    crate::kubelet::runtime::exec_in_container(&image, &process, &command, t_ms, &view.files);
                code = c;
                if !text.is_empty() {
                    out = format!("{text}\n");
                }
            }
            _ => {
                modelled = false;
                err += &format!(
                    "podlab: the lab does not model the output of `{shown}`; a real cluster would run it in container {container} of Pod {pod_name} and print what it prints\n"
                );
                code = 1;
            }
        }
        self.kubelet_step(
            &pod,
            format!(
                "kube-apiserver asks the kubelet on {node} to exec `{shown}` in {container}: {}",
                if modelled { format!("exit code {code}") } else { "not modelled by the lab".to_string() }
            ),
            code == 0,
        );
        if code != 0 && modelled {
            err += &format!("command terminated with exit code {code}\n");
        }
        Output { stdout: out, stderr: stderr + &err, exit: code.min(255) }
    }

    pub(super) fn auth(&mut self, words: &[String]) -> Output {
        let Some(sub) = words.first() else {
            return Output::error("error: the lab's session knows kubectl auth can-i VERB RESOURCE [NAME]");
        };
        if sub != "can-i" {
            if matches!(sub.as_str(), "whoami" | "reconcile") {
                return Output::error(format!(
                    "podlab: kubectl auth {sub} is not modelled by the lab's session yet; it knows kubectl auth can-i"
                ));
            }
            return Output::error(format!(
                "error: unknown command \"{sub}\"\nSee 'kubectl auth -h' for help and examples"
            ));
        }
        let valued = ["--as", "--as-group", "--subresource"];
        let flags = parse_flags(&join_valued(&words[1..], &valued));
        let known =
            ["-n", "--namespace", "-A", "--all-namespaces", "--as", "--as-group", "--subresource", "-q", "--quiet"];
        if let Some(f) = flags.unknown(&known) {
            return unknown_flag("auth can-i", f);
        }
        if flags.has(&["--list"]) {
            return Output::error("podlab: kubectl auth can-i --list is not modelled by the lab's session yet");
        }
        let (verb, what, name) = match flags.args.as_slice() {
            [v, r] => match r.split_once('/') {
                Some((r, n)) => (v.clone(), r.to_string(), n.to_string()),
                None => (v.clone(), r.clone(), String::new()),
            },
            [v, r, n] => (v.clone(), r.clone(), n.clone()),
            _ => {
                return Output::error("error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.")
            }
        };
        let mut stderr = String::new();
        let (group, resource, namespaced) = match (resource_named(&what), super::kinds::unserved_named(&what)) {
            (Some(r), _) => (r.group.to_string(), r.plural.to_string(), r.namespaced),
            // A type a real cluster serves: the authorizers answer for it as they would there.
            (None, Some(u)) => (u.group.to_string(), u.plural.to_string(), u.namespaced),
            (None, None) if what == "*" => (String::new(), what.clone(), true),
            (None, None) => {
                stderr += &format!("Warning: the server doesn't have a resource type '{what}'\n\n");
                let (r, g) = what.split_once('.').unwrap_or((what.as_str(), ""));
                (g.to_string(), r.to_string(), true)
            }
        };
        let all = flags.has(&["-A", "--all-namespaces"]);
        let ns = if all || !namespaced { String::new() } else { self.namespace_of(&flags) };
        if !namespaced && flags.has(&["-n", "--namespace"]) {
            stderr += &format!("Warning: resource '{resource}' is not namespace scoped\n\n");
        }
        self.command = Some(KubectlCommand {
            name: "kubectl auth can-i",
            field_manager: "",
            strict: false,
            merge_patch: false,
            dry_run: false,
        });
        let mut attrs = json!({"verb": verb, "resource": resource});
        if !group.is_empty() {
            attrs["group"] = json!(group);
        }
        if !ns.is_empty() {
            attrs["namespace"] = json!(ns);
        }
        if !name.is_empty() {
            attrs["name"] = json!(name);
        }
        if let Some(s) = flags.value(&["--subresource"]) {
            attrs["subresource"] = json!(s);
        }
        let review = json!({
            "apiVersion": "authorization.k8s.io/v1",
            "kind": "SelfSubjectAccessReview",
            "metadata": {"creationTimestamp": null},
            "spec": {"resourceAttributes": attrs},
            "status": {"allowed": false},
        });
        let mut req = self.request_as(&flags, Verb::Create, &crate::apiserver::SELF_SUBJECT_ACCESS_REVIEWS, None, None);
        req.body = Some(Body::Json(review));
        let resp = apiserver::handle(&mut self.world, req);
        if let Some(status) = resp.error.clone() {
            return Output {
                stdout: String::new(),
                stderr: stderr + &kubectl_stderr(&[CommandError::Server(status)]),
                exit: 1,
            };
        }
        let answer = resp.into_object().map(|o| o.to_json()).unwrap_or_default();
        let quiet = flags.has(&["-q", "--quiet"]);
        if answer.pointer("/status/allowed").and_then(Value::as_bool) == Some(true) {
            Output { stdout: if quiet { String::new() } else { "yes\n".into() }, stderr, exit: 0 }
        } else {
            let reason = answer.pointer("/status/reason").and_then(Value::as_str).filter(|r| !r.is_empty());
            let line = match reason {
                Some(r) => format!("no - {r}\n"),
                None => "no\n".to_string(),
            };
            Output { stdout: if quiet { String::new() } else { line }, stderr, exit: 1 }
        }
    }

    pub(super) fn api_resources(&mut self, words: &[String]) -> Output {
        let valued = ["-o", "--output", "--api-group", "--namespaced", "--sort-by"];
        let flags = parse_flags(&join_valued(words, &valued));
        let known = ["-o", "--output", "--api-group", "--namespaced", "--no-headers", "--sort-by", "--cached"];
        if let Some(f) = flags.unknown(&known) {
            return unknown_flag("api-resources", f);
        }
        let namespaced = match flags.value(&["--namespaced"]) {
            None if flags.has(&["--namespaced"]) => Some(true),
            None => None,
            Some(v) => match v {
                "true" | "1" | "t" | "T" | "TRUE" | "True" => Some(true),
                "false" | "0" | "f" | "F" | "FALSE" | "False" => Some(false),
                other => {
                    return Output::error(format!(
                        "Error: invalid argument \"{other}\" for \"--namespaced\" flag: strconv.ParseBool: parsing \"{other}\": invalid syntax\nSee 'kubectl api-resources --help' for usage."
                    ))
                }
            },
        };
        let output = flags.value(&["-o", "--output"]).unwrap_or("");
        if !matches!(output, "" | "wide" | "name") {
            return Output::error(format!("error: --output {output} is not available"));
        }
        let sort_by = flags.value(&["--sort-by"]).unwrap_or("");
        if !matches!(sort_by, "" | "name" | "kind") {
            return Output::error("error: --sort-by accepts only name or kind".to_string());
        }
        for path in ["/api", "/apis"] {
            let text = format!("GET {path}: kubectl reads the API server's discovery documents (the groups, versions and resources it serves)");
            self.world.record(crate::sim::StepBuilder::new(
                Phase::Request,
                Component::Kubectl,
                Component::ApiServer,
                format!("GET {path}"),
                Detail::Note { text },
            ));
        }
        // One version per group: the preferred one (the first listed).
        let mut seen: Vec<(&str, &str)> = Vec::new();
        let mut rows: Vec<&ResourceInfo> = Vec::new();
        for r in RESOURCES {
            if seen.contains(&(r.group, r.plural)) {
                continue;
            }
            seen.push((r.group, r.plural));
            rows.push(r);
        }
        let group_filter = flags.value(&["--api-group"]);
        rows.retain(|r| namespaced.is_none_or(|n| r.namespaced == n) && group_filter.is_none_or(|g| r.group == g));
        match sort_by {
            "name" => rows.sort_by_key(|r| r.plural),
            "kind" => rows.sort_by_key(|r| r.kind),
            _ => rows.sort_by_key(|r| (r.group, r.plural)),
        }
        let short = |r: &ResourceInfo| super::kinds::short_names(r.plural).join(",");
        if output == "name" {
            let mut stdout = String::new();
            for r in &rows {
                stdout += r.plural;
                if !r.group.is_empty() {
                    stdout += &format!(".{}", r.group);
                }
                stdout.push('\n');
            }
            return Output { stdout, stderr: String::new(), exit: 0 };
        }
        let wide = output == "wide";
        let mut table: Vec<Vec<String>> = Vec::new();
        if !flags.has(&["--no-headers"]) {
            let mut h: Vec<String> =
                ["NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND"].map(String::from).to_vec();
            if wide {
                h.push("VERBS".into());
                h.push("CATEGORIES".into());
            }
            table.push(h);
        }
        for r in &rows {
            let mut row =
                vec![r.plural.to_string(), short(r), r.api_version(), r.namespaced.to_string(), r.kind.to_string()];
            if wide {
                let verbs = "create,delete,deletecollection,get,list,patch,update,watch";
                row.push(verbs.to_string());
                row.push(if CATEGORY_ALL.contains(&r.plural) { "all".into() } else { String::new() });
            }
            table.push(row);
        }
        let mut widths = vec![0usize; table.first().map(Vec::len).unwrap_or(0)];
        for row in &table {
            for (i, c) in row.iter().enumerate() {
                widths[i] = widths[i].max(c.len());
            }
        }
        let mut stdout = String::new();
        for row in &table {
            let mut line = String::new();
            for (i, c) in row.iter().enumerate() {
                if i + 1 == row.len() {
                    line += c;
                } else {
                    line += &format!("{c:<w$}   ", w = widths[i]);
                }
            }
            stdout += line.trim_end();
            stdout.push('\n');
        }
        let stderr = "podlab: the lab's API server serves these resources; a real v1.37 cluster lists more (bindings, componentstatuses, tokenreviews, subjectaccessreviews, csinodes, volumeattachments, ...)\n".to_string();
        Output { stdout, stderr, exit: 0 }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use expect_test::expect;

    /// Each command's line, the requests kubectl sent (and what the API server asked a
    /// kubelet), its output and exit status; at the end the Pods.
    pub(in crate::lab::session) fn transcript(cluster: Option<&str>, script: &str) -> String {
        transcript_as(cluster, None, script)
    }

    /// [`transcript`] with kubectl acting as `user`.
    pub(in crate::lab::session) fn transcript_as(cluster: Option<&str>, user: Option<&str>, script: &str) -> String {
        let loaded = Loaded::load(cluster.map(|c| crate::cluster::preset(c).unwrap())).unwrap();
        let mut session = Session::new(&loaded, 1, user, None, crate::lab::DEFAULT_LIMIT_MS).unwrap();
        let read = |_: &str| None;
        let mut out = String::new();
        for c in parse_script(script, &read).unwrap() {
            let r = session.run(&c).clone();
            out += &format!("[{}ms-{}ms] $ {}\n", r.start_ms, r.end_ms, r.line);
            for s in &session.world().steps[r.first_step..r.end_step] {
                let kubectl = s.phase == Phase::Request && s.from == Component::Kubectl;
                let kubelet = s.phase == Phase::Request && s.to == Component::Kubelet && s.from == Component::ApiServer;
                if kubectl || kubelet {
                    out += &format!("  > {}\n", s.summary);
                }
            }
            out += &format!("{}{}(exit status {})\n", r.stdout, r.stderr, r.exit_code);
        }
        out
    }

    const CRASHER: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: crasher\nspec:\n  containers:\n  - name: app\n    image: busybox:1.37\n    command: [\"sh\", \"-c\", \"echo starting; echo config missing >&2; exit 1\"]\n";
    const WEB: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: nginx\n    image: nginx:1.29\n  - name: sidecar\n    image: busybox:1.37\n    command: [\"sh\", \"-c\", \"echo sidecar up; sleep 3600\"]\n";

    #[test]
    fn logs_of_containers() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{CRASHER}EOF\nkubectl logs crasher\nsleep 15s\nkubectl logs crasher\nkubectl logs crasher --previous\nsleep 20s\nkubectl get pods\nkubectl logs crasher -p\nkubectl logs crasher -c nope\nkubectl logs nope\nkubectl logs\nkubectl logs crasher --bogus\nkubectl logs crasher --tail=x\nkubectl apply -f - <<EOF\n{WEB}EOF\nsleep 20s\nkubectl logs web\nkubectl logs web -c sidecar --tail=1\nkubectl logs web -c nginx --tail=2\nkubectl logs web --as alice\n"
        );
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
              > kubectl sends GET /api/v1/namespaces/default/pods/crasher
              > kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            pod/crasher created
            (exit status 0)
            [4ms-4ms] $ kubectl logs crasher
              > kubectl sends GET /api/v1/namespaces/default/pods/crasher
              > kubectl sends GET /api/v1/namespaces/default/pods/crasher/log
            (exit status 0)
            [4ms-15004ms] $ sleep 15s
            (exit status 0)
            [15004ms-15004ms] $ kubectl logs crasher
              > kubectl sends GET /api/v1/namespaces/default/pods/crasher
              > kubectl sends GET /api/v1/namespaces/default/pods/crasher/log
              > kube-apiserver asks the kubelet on kind-worker: GET https://kind-worker:10250/containerLogs/default/crasher/app: 200, 2 line(s) of output
            starting
            config missing
            (exit status 0)
            [15004ms-15004ms] $ kubectl logs crasher --previous
              > kubectl sends GET /api/v1/namespaces/default/pods/crasher
              > kubectl sends GET /api/v1/namespaces/default/pods/crasher/log
              > kube-apiserver asks the kubelet on kind-worker: GET https://kind-worker:10250/containerLogs/default/crasher/app?previous=true: 200, 2 line(s) of output
            starting
            config missing
            (exit status 0)
            [15004ms-35004ms] $ sleep 20s
            (exit status 0)
            [35004ms-35004ms] $ kubectl get pods
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            NAME      READY   STATUS             RESTARTS     AGE
            crasher   0/1     CrashLoopBackOff   3 (4s ago)   35s
            (exit status 0)
            [35004ms-35004ms] $ kubectl logs crasher -p
              > kubectl sends GET /api/v1/namespaces/default/pods/crasher
              > kubectl sends GET /api/v1/namespaces/default/pods/crasher/log
              > kube-apiserver asks the kubelet on kind-worker: GET https://kind-worker:10250/containerLogs/default/crasher/app?previous=true: 200, 2 line(s) of output
            starting
            config missing
            (exit status 0)
            [35004ms-35004ms] $ kubectl logs crasher -c nope
              > kubectl sends GET /api/v1/namespaces/default/pods/crasher
              > kubectl sends GET /api/v1/namespaces/default/pods/crasher/log
            Error from server (BadRequest): container nope is not valid for pod crasher
            (exit status 1)
            [35004ms-35004ms] $ kubectl logs nope
              > kubectl sends GET /api/v1/namespaces/default/pods/nope
            Error from server (NotFound): pods "nope" not found
            (exit status 1)
            [35004ms-35004ms] $ kubectl logs
            error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.
            POD or TYPE/NAME is a required argument for the logs command
            See 'kubectl logs -h' for help and examples
            (exit status 1)
            [35004ms-35004ms] $ kubectl logs crasher --bogus
            Error: unknown flag: --bogus
            See 'kubectl logs --help' for usage.
            (exit status 1)
            [35004ms-35004ms] $ kubectl logs crasher --tail=x
            Error: invalid argument "x" for "--tail" flag: strconv.ParseInt: parsing "x": invalid syntax
            See 'kubectl logs --help' for usage.
            (exit status 1)
            [35004ms-35008ms] $ kubectl apply -f -
              > kubectl sends GET /api/v1/namespaces/default/pods/web
              > kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            pod/web created
            (exit status 0)
            [35008ms-55008ms] $ sleep 20s
            (exit status 0)
            [55008ms-55008ms] $ kubectl logs web
              > kubectl sends GET /api/v1/namespaces/default/pods/web
              > kubectl sends GET /api/v1/namespaces/default/pods/web/log
              > kube-apiserver asks the kubelet on kind-worker2: GET https://kind-worker2:10250/containerLogs/default/web/nginx: 200, 11 line(s) of output
            /docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration
            /docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/
            /docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh
            10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf
            10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf
            /docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh
            /docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh
            /docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh
            /docker-entrypoint.sh: Configuration complete; ready for start up
            2026/01/01 00:00:37 [notice] 1#1: using the "epoll" event method
            2026/01/01 00:00:37 [notice] 1#1: start worker processes
            Defaulted container "nginx" out of: nginx, sidecar
            (exit status 0)
            [55008ms-55008ms] $ kubectl logs web -c sidecar --tail=1
              > kubectl sends GET /api/v1/namespaces/default/pods/web
              > kubectl sends GET /api/v1/namespaces/default/pods/web/log
              > kube-apiserver asks the kubelet on kind-worker2: GET https://kind-worker2:10250/containerLogs/default/web/sidecar: 200, 1 line(s) of output
            sidecar up
            (exit status 0)
            [55008ms-55008ms] $ kubectl logs web -c nginx --tail=2
              > kubectl sends GET /api/v1/namespaces/default/pods/web
              > kubectl sends GET /api/v1/namespaces/default/pods/web/log
              > kube-apiserver asks the kubelet on kind-worker2: GET https://kind-worker2:10250/containerLogs/default/web/nginx: 200, 11 line(s) of output
            2026/01/01 00:00:37 [notice] 1#1: using the "epoll" event method
            2026/01/01 00:00:37 [notice] 1#1: start worker processes
            (exit status 0)
            [55008ms-55008ms] $ kubectl logs web --as alice
              > kubectl sends GET /api/v1/namespaces/default/pods/web
            Error from server (Forbidden): pods "web" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "default"
            (exit status 1)
        "#]].assert_eq(&transcript(None, &script));
    }
}

#[cfg(test)]
mod more_tests {
    use super::tests::{transcript, transcript_as};
    use expect_test::expect;

    const CONFIGURED: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: dev\ndata:\n  mode: fast\n  level: \"3\"\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: app\n  namespace: dev\nspec:\n  containers:\n  - name: app\n    image: busybox:1.37\n    command: [\"sleep\", \"3600\"]\n    env:\n    - name: MODE\n      valueFrom:\n        configMapKeyRef: {name: settings, key: mode}\n    volumeMounts:\n    - name: cfg\n      mountPath: /etc/cfg\n  volumes:\n  - name: cfg\n    configMap: {name: settings}\n";

    #[test]
    fn exec_in_containers() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{CONFIGURED}EOF\nkubectl exec app -n dev -- true\nsleep 20s\nkubectl exec app -n dev -- cat /etc/cfg/mode\nkubectl exec app -n dev -- ls /etc/cfg\nkubectl exec app -n dev -- cat /etc/nope\nkubectl exec app -n dev -- hostname\nkubectl exec app -n dev -- echo hello there\nkubectl exec app -n dev -- false\nkubectl exec app -n dev -- printenv MODE\nkubectl exec app -n dev -- env\nkubectl exec app -n dev -- sh -c 'echo done; exit 3'\nkubectl exec app -n dev -- top\nkubectl exec app -n dev -- curl localhost\nkubectl exec app -n dev -- ls /var/run/secrets/kubernetes.io/serviceaccount\nkubectl exec app -n dev -c nope -- true\nkubectl exec nope -n dev -- true\nkubectl exec app -n dev --as alice -- true\nkubectl exec app -n dev\nkubectl exec app -n dev --bogus -- true\nkubectl exec -it app -n dev -- sh\n"
        );
        expect![[r#"
            [0ms-12ms] $ kubectl apply -f -
              > kubectl sends GET /api/v1/namespaces/dev/configmaps/settings
              > kubectl sends POST /api/v1/namespaces/dev/configmaps?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            configmap/settings created
            pod/app created
            (exit status 0)
            [12ms-12ms] $ kubectl exec app -n dev -- true
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
            Error from server (BadRequest): pod app does not have a host assigned
            (exit status 1)
            [12ms-20012ms] $ sleep 20s
            (exit status 0)
            [20012ms-20012ms] $ kubectl exec app -n dev -- cat /etc/cfg/mode
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
              > kube-apiserver asks the kubelet on kind-worker to exec `cat /etc/cfg/mode` in app: exit code 0
            fast(exit status 0)
            [20012ms-20012ms] $ kubectl exec app -n dev -- ls /etc/cfg
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
              > kube-apiserver asks the kubelet on kind-worker to exec `ls /etc/cfg` in app: exit code 0
            level
            mode
            (exit status 0)
            [20012ms-20012ms] $ kubectl exec app -n dev -- cat /etc/nope
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
              > kube-apiserver asks the kubelet on kind-worker to exec `cat /etc/nope` in app: exit code 1
            cat: can't open '/etc/nope': No such file or directory
            command terminated with exit code 1
            (exit status 1)
            [20012ms-20012ms] $ kubectl exec app -n dev -- hostname
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
              > kube-apiserver asks the kubelet on kind-worker to exec `hostname` in app: exit code 0
            app
            (exit status 0)
            [20012ms-20012ms] $ kubectl exec app -n dev -- echo hello there
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
              > kube-apiserver asks the kubelet on kind-worker to exec `echo hello there` in app: exit code 0
            hello there
            (exit status 0)
            [20012ms-20012ms] $ kubectl exec app -n dev -- false
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
              > kube-apiserver asks the kubelet on kind-worker to exec `false` in app: exit code 1
            command terminated with exit code 1
            (exit status 1)
            [20012ms-20012ms] $ kubectl exec app -n dev -- printenv MODE
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
              > kube-apiserver asks the kubelet on kind-worker to exec `printenv MODE` in app: exit code 0
            fast
            podlab: the image's own ENV lines are not listed (the lab does not model them); the order of the variables is the lab's
            (exit status 0)
            [20012ms-20012ms] $ kubectl exec app -n dev -- env
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
              > kube-apiserver asks the kubelet on kind-worker to exec `env` in app: exit code 0
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
            HOSTNAME=app
            KUBERNETES_SERVICE_HOST=10.96.0.1
            KUBERNETES_SERVICE_PORT=443
            KUBERNETES_SERVICE_PORT_HTTPS=443
            KUBERNETES_PORT=tcp://10.96.0.1:443
            KUBERNETES_PORT_443_TCP=tcp://10.96.0.1:443
            KUBERNETES_PORT_443_TCP_PROTO=tcp
            KUBERNETES_PORT_443_TCP_PORT=443
            KUBERNETES_PORT_443_TCP_ADDR=10.96.0.1
            MODE=fast
            HOME=/root
            podlab: the image's own ENV lines are not listed (the lab does not model them); the order of the variables is the lab's
            (exit status 0)
            [20012ms-20012ms] $ kubectl exec app -n dev -- sh -c 'echo done; exit 3'
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
              > kube-apiserver asks the kubelet on kind-worker to exec `sh -c echo done; exit 3` in app: exit code 3
            done
            command terminated with exit code 3
            (exit status 3)
            [20012ms-20012ms] $ kubectl exec app -n dev -- top
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
              > kube-apiserver asks the kubelet on kind-worker to exec `top` in app: not modelled by the lab
            podlab: the lab does not model the output of `top`; a real cluster would run it in container app of Pod app and print what it prints
            (exit status 1)
            [20012ms-20012ms] $ kubectl exec app -n dev -- curl localhost
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
              > kube-apiserver asks the kubelet on kind-worker to exec `curl localhost` in app: the image has no curl
            error: Internal error occurred: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec: OCI runtime exec failed: exec failed: unable to start container process: exec: "curl": executable file not found in $PATH: unknown
            (exit status 1)
            [20012ms-20012ms] $ kubectl exec app -n dev -- ls /var/run/secrets/kubernetes.io/serviceaccount
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
              > kube-apiserver asks the kubelet on kind-worker to exec `ls /var/run/secrets/kubernetes.io/serviceaccount` in app: exit code 0
            ca.crt
            namespace
            token
            (exit status 0)
            [20012ms-20012ms] $ kubectl exec app -n dev -c nope -- true
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
            Error from server (BadRequest): container nope is not valid for pod app
            (exit status 1)
            [20012ms-20012ms] $ kubectl exec nope -n dev -- true
              > kubectl sends GET /api/v1/namespaces/dev/pods/nope
            Error from server (NotFound): pods "nope" not found
            (exit status 1)
            [20012ms-20012ms] $ kubectl exec app -n dev --as alice -- true
              > kubectl sends GET /api/v1/namespaces/dev/pods/app
              > kubectl sends POST /api/v1/namespaces/dev/pods/app/exec
            Error from server (Forbidden): pods "app" is forbidden: User "alice" cannot create resource "pods/exec" in API group "" in the namespace "dev"
            (exit status 1)
            [20012ms-20012ms] $ kubectl exec app -n dev
            error: you must specify at least one command for the container
            (exit status 1)
            [20012ms-20012ms] $ kubectl exec app -n dev --bogus -- true
            Error: unknown flag: --bogus
            See 'kubectl exec --help' for usage.
            (exit status 1)
            [20012ms-20012ms] $ kubectl exec -it app -n dev -- sh
            podlab: kubectl exec -i/-t (an interactive shell) is not modelled by the lab's session; run one command at a time: kubectl exec POD -- COMMAND
            (exit status 1)
        "#]].assert_eq(&transcript_as(Some("rbac-alice"), Some("kubernetes-admin"), &script));
    }

    #[test]
    fn auth_can_i_and_api_resources() {
        let script = "kubectl auth can-i create deployments\nkubectl auth can-i get pods\nkubectl auth can-i get pods/log\nkubectl auth can-i get pods --subresource=log\nkubectl auth can-i create pods --subresource=exec\nkubectl auth can-i delete pods\nkubectl auth can-i list pods -A\nkubectl auth can-i list nodes\nkubectl auth can-i create pods --as bob\nkubectl auth can-i get pods -n default\nkubectl auth can-i get widgets\nkubectl auth can-i get\nkubectl auth can-i get pods --bogus\nkubectl auth whoami\nkubectl api-resources --api-group=apps\nkubectl api-resources --namespaced=false -o name\nkubectl api-resources --api-group=batch -o wide\nkubectl api-resources --namespaced=maybe\nkubectl api-resources -o foo\nkubectl api-resources --bogus\nlab stop kube-apiserver\nkubectl auth can-i get pods\nkubectl api-resources\nkubectl patch deployment web -p '{}'\nkubectl logs web\n";
        expect![[r#"
            [0ms-0ms] $ kubectl auth can-i create deployments
              > kubectl sends POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
            no
            (exit status 1)
            [0ms-0ms] $ kubectl auth can-i get pods
              > kubectl sends POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
            yes
            (exit status 0)
            [0ms-0ms] $ kubectl auth can-i get pods/log
              > kubectl sends POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
            yes
            (exit status 0)
            [0ms-0ms] $ kubectl auth can-i get pods --subresource=log
              > kubectl sends POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
            yes
            (exit status 0)
            [0ms-0ms] $ kubectl auth can-i create pods --subresource=exec
              > kubectl sends POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
            no
            (exit status 1)
            [0ms-0ms] $ kubectl auth can-i delete pods
              > kubectl sends POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
            no
            (exit status 1)
            [0ms-0ms] $ kubectl auth can-i list pods -A
              > kubectl sends POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
            no
            (exit status 1)
            [0ms-0ms] $ kubectl auth can-i list nodes
              > kubectl sends POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
            no
            (exit status 1)
            [0ms-0ms] $ kubectl auth can-i create pods --as bob
              > kubectl sends POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
            Error from server (Forbidden): users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope
            (exit status 1)
            [0ms-0ms] $ kubectl auth can-i get pods -n default
              > kubectl sends POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
            no
            (exit status 1)
            [0ms-0ms] $ kubectl auth can-i get widgets
              > kubectl sends POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
            no
            Warning: the server doesn't have a resource type 'widgets'

            (exit status 1)
            [0ms-0ms] $ kubectl auth can-i get
            error: you must specify two arguments: verb resource or verb resource/resourceName.
            See 'kubectl auth can-i -h' for help and examples.
            (exit status 1)
            [0ms-0ms] $ kubectl auth can-i get pods --bogus
            Error: unknown flag: --bogus
            See 'kubectl auth can-i --help' for usage.
            (exit status 1)
            [0ms-0ms] $ kubectl auth whoami
            podlab: kubectl auth whoami is not modelled by the lab's session yet; it knows kubectl auth can-i
            (exit status 1)
            [0ms-0ms] $ kubectl api-resources --api-group=apps
              > GET /api
              > GET /apis
            NAME                  SHORTNAMES   APIVERSION   NAMESPACED   KIND
            controllerrevisions                apps/v1      true         ControllerRevision
            daemonsets            ds           apps/v1      true         DaemonSet
            deployments           deploy       apps/v1      true         Deployment
            replicasets           rs           apps/v1      true         ReplicaSet
            statefulsets          sts          apps/v1      true         StatefulSet
            podlab: the lab's API server serves these resources; a real v1.37 cluster lists more (bindings, componentstatuses, tokenreviews, subjectaccessreviews, csinodes, volumeattachments, ...)
            (exit status 0)
            [0ms-0ms] $ kubectl api-resources --namespaced=false -o name
              > GET /api
              > GET /apis
            namespaces
            nodes
            persistentvolumes
            mutatingwebhookconfigurations.admissionregistration.k8s.io
            validatingwebhookconfigurations.admissionregistration.k8s.io
            customresourcedefinitions.apiextensions.k8s.io
            ingressclasses.networking.k8s.io
            runtimeclasses.node.k8s.io
            clusterrolebindings.rbac.authorization.k8s.io
            clusterroles.rbac.authorization.k8s.io
            priorityclasses.scheduling.k8s.io
            volumesnapshotclasses.snapshot.storage.k8s.io
            csidrivers.storage.k8s.io
            storageclasses.storage.k8s.io
            (exit status 0)
            [0ms-0ms] $ kubectl api-resources --api-group=batch -o wide
              > GET /api
              > GET /apis
            NAME       SHORTNAMES   APIVERSION   NAMESPACED   KIND      VERBS                                                        CATEGORIES
            cronjobs   cj           batch/v1     true         CronJob   create,delete,deletecollection,get,list,patch,update,watch   all
            jobs                    batch/v1     true         Job       create,delete,deletecollection,get,list,patch,update,watch   all
            podlab: the lab's API server serves these resources; a real v1.37 cluster lists more (bindings, componentstatuses, tokenreviews, subjectaccessreviews, csinodes, volumeattachments, ...)
            (exit status 0)
            [0ms-0ms] $ kubectl api-resources --namespaced=maybe
            Error: invalid argument "maybe" for "--namespaced" flag: strconv.ParseBool: parsing "maybe": invalid syntax
            See 'kubectl api-resources --help' for usage.
            (exit status 1)
            [0ms-0ms] $ kubectl api-resources -o foo
            error: --output foo is not available
            (exit status 1)
            [0ms-0ms] $ kubectl api-resources --bogus
            Error: unknown flag: --bogus
            See 'kubectl api-resources --help' for usage.
            (exit status 1)
            [0ms-0ms] $ lab stop kube-apiserver
              > lab: kube-apiserver stopped: every client's connection is refused: kubectl's, the controllers' and the scheduler's (they see no watch event and can write nothing), the kubelets' (they keep running their Pods' containers and retry their status writes) (as when /etc/kubernetes/manifests/kube-apiserver.yaml is moved away on kind-control-plane and the kubelet stops the static Pod)
            kube-apiserver stopped: every client's connection is refused: kubectl's, the controllers' and the scheduler's (they see no watch event and can write nothing), the kubelets' (they keep running their Pods' containers and retry their status writes) (as when /etc/kubernetes/manifests/kube-apiserver.yaml is moved away on kind-control-plane and the kubelet stops the static Pod)
            (exit status 0)
            [0ms-0ms] $ kubectl auth can-i get pods
              > kubectl cannot connect: dial tcp 127.0.0.1:6443: connect: connection refused (kube-apiserver is down); nothing was sent, nothing changed in the cluster
            E0101 00:00:00.000000   48402 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:00.001500   48402 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            Warning: the server doesn't have a resource type 'pods'

            The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?
            (exit status 1)
            [0ms-0ms] $ kubectl api-resources
              > kubectl cannot connect: dial tcp 127.0.0.1:6443: connect: connection refused (kube-apiserver is down); nothing was sent, nothing changed in the cluster
            NAME   SHORTNAMES   APIVERSION   NAMESPACED   KIND
            E0101 00:00:00.000000   48411 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?
            (exit status 1)
            [0ms-0ms] $ kubectl patch deployment web -p '{}'
              > kubectl cannot connect: dial tcp 127.0.0.1:6443: connect: connection refused (kube-apiserver is down); nothing was sent, nothing changed in the cluster
            E0101 00:00:00.000000   48420 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:00.001500   48420 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:00.003000   48420 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:00.004500   48420 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:00.006000   48420 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?
            (exit status 1)
            [0ms-0ms] $ kubectl logs web
              > kubectl cannot connect: dial tcp 127.0.0.1:6443: connect: connection refused (kube-apiserver is down); nothing was sent, nothing changed in the cluster
            E0101 00:00:00.000000   48429 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:00.001500   48429 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:00.003000   48429 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:00.004500   48429 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?
            (exit status 1)
        "#]].assert_eq(&transcript(Some("rbac-alice"), script));
    }

    #[test]
    fn full_api_resources_table() {
        expect![[r#"
            [0ms-0ms] $ kubectl api-resources
              > GET /api
              > GET /apis
            NAME                              SHORTNAMES          APIVERSION                        NAMESPACED   KIND
            configmaps                        cm                  v1                                true         ConfigMap
            endpoints                         ep                  v1                                true         Endpoints
            events                            ev                  v1                                true         Event
            limitranges                       limits              v1                                true         LimitRange
            namespaces                        ns                  v1                                false        Namespace
            nodes                             no                  v1                                false        Node
            persistentvolumeclaims            pvc                 v1                                true         PersistentVolumeClaim
            persistentvolumes                 pv                  v1                                false        PersistentVolume
            pods                              po                  v1                                true         Pod
            podtemplates                                          v1                                true         PodTemplate
            replicationcontrollers            rc                  v1                                true         ReplicationController
            resourcequotas                    quota               v1                                true         ResourceQuota
            secrets                                               v1                                true         Secret
            serviceaccounts                   sa                  v1                                true         ServiceAccount
            services                          svc                 v1                                true         Service
            mutatingwebhookconfigurations                         admissionregistration.k8s.io/v1   false        MutatingWebhookConfiguration
            validatingwebhookconfigurations                       admissionregistration.k8s.io/v1   false        ValidatingWebhookConfiguration
            customresourcedefinitions         crd,crds            apiextensions.k8s.io/v1           false        CustomResourceDefinition
            controllerrevisions                                   apps/v1                           true         ControllerRevision
            daemonsets                        ds                  apps/v1                           true         DaemonSet
            deployments                       deploy              apps/v1                           true         Deployment
            replicasets                       rs                  apps/v1                           true         ReplicaSet
            statefulsets                      sts                 apps/v1                           true         StatefulSet
            horizontalpodautoscalers          hpa                 autoscaling/v2                    true         HorizontalPodAutoscaler
            cronjobs                          cj                  batch/v1                          true         CronJob
            jobs                                                  batch/v1                          true         Job
            leases                                                coordination.k8s.io/v1            true         Lease
            endpointslices                                        discovery.k8s.io/v1               true         EndpointSlice
            ingressclasses                                        networking.k8s.io/v1              false        IngressClass
            ingresses                         ing                 networking.k8s.io/v1              true         Ingress
            networkpolicies                   netpol              networking.k8s.io/v1              true         NetworkPolicy
            runtimeclasses                                        node.k8s.io/v1                    false        RuntimeClass
            poddisruptionbudgets              pdb                 policy/v1                         true         PodDisruptionBudget
            clusterrolebindings                                   rbac.authorization.k8s.io/v1      false        ClusterRoleBinding
            clusterroles                                          rbac.authorization.k8s.io/v1      false        ClusterRole
            rolebindings                                          rbac.authorization.k8s.io/v1      true         RoleBinding
            roles                                                 rbac.authorization.k8s.io/v1      true         Role
            priorityclasses                   pc                  scheduling.k8s.io/v1              false        PriorityClass
            volumesnapshotclasses             vsclass,vsclasses   snapshot.storage.k8s.io/v1        false        VolumeSnapshotClass
            volumesnapshots                   vs                  snapshot.storage.k8s.io/v1        true         VolumeSnapshot
            csidrivers                                            storage.k8s.io/v1                 false        CSIDriver
            storageclasses                    sc                  storage.k8s.io/v1                 false        StorageClass
            podlab: the lab's API server serves these resources; a real v1.37 cluster lists more (bindings, componentstatuses, tokenreviews, subjectaccessreviews, csinodes, volumeattachments, ...)
            (exit status 0)
        "#]].assert_eq(&transcript(None, "kubectl api-resources\n"));
    }
}
