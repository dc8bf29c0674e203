//! `kubectl get TYPE [NAME] -w` (`--watch`, `--watch-only`, `--output-watch-events`), as
//! kubectl's `get.go` (`GetOptions.watch`) and cli-runtime's printers do it: the list (or the
//! object) as `get` prints it, unless `--watch-only`; then one printed object per watch event
//! on the watched objects, the same printer and tab writer throughout (a table's header once,
//! with its first row; `-o name` a name a line; `-o yaml` documents separated by `---`;
//! `-o json` an indented object each; with `--output-watch-events` an `EVENT` column, or each
//! object wrapped as `{"type": ..., "object": ...}`). A watch started on one object starts from
//! resourceVersion 0, whose synthetic ADDED event kubectl does not print; one started on a
//! list starts at the list's resourceVersion.
//!
//! While it watches, the cluster runs on as after the last command (`run_loop_from`): until it
//! is quiet ([`crate::sim::Core::is_settled`]) or the session's time limit. Each event is
//! printed as the object stood when it was written, its age at that time. With a label
//! selector the API server's watch filter applies: an object that stops matching arrives as
//! DELETED, one that starts matching as ADDED.
//!
//! A real `kubectl get -w` never ends by itself: a learner stops it with Ctrl-C, and kubectl's
//! interrupt handler (`pkg/util/interrupt`, no final handler) then exits with status 1. The lab
//! ends the watch when nothing is left to happen and says so on standard error; the command's
//! exit status is 0, since the watch printed all it would and nothing failed.

use super::{go_json_indent, go_yaml, kind_string, selector_matches, Flags, Output, SelectorOp, Session};
use crate::object::{Object, ResourceInfo};
use crate::sim::{run_loop_from, Actor, Target, Task};
use crate::store::{EventType, WatchEvent};
use crate::views::{Clock, GetOptions, WatchTable};
use crate::world::World;

/// `-w`/`--watch`, `--watch-only`, `--output-watch-events` (booleans: `--watch=false` is off).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct WatchFlags {
    pub watch: bool,
    pub only: bool,
    pub events: bool,
}

impl WatchFlags {
    pub(super) fn read(flags: &Flags) -> WatchFlags {
        let on = |names: &[&str]| {
            flags
                .flags
                .iter()
                .rev()
                .find(|(n, _)| names.contains(&n.as_str()))
                .is_some_and(|(_, v)| v.as_deref().is_none_or(|v| v != "false"))
        };
        WatchFlags {
            watch: on(&["-w", "--watch"]),
            only: on(&["--watch-only"]),
            events: on(&["--output-watch-events"]),
        }
    }

    pub(super) fn watching(&self) -> bool {
        self.watch || self.only
    }
}

/// What a watch is on: a kind, in a namespace (`None`: every namespace, or a cluster-scoped
/// kind), one object by name or those a label selector picks.
pub(super) struct Watched {
    pub res: &'static ResourceInfo,
    pub namespace: Option<String>,
    pub name: Option<String>,
    pub selector: Vec<(String, SelectorOp, String)>,
}

impl Watched {
    fn matches(&self, o: &Object) -> bool {
        o.kind() == self.res.kind
            && self.name.as_deref().is_none_or(|n| o.name() == n)
            && selector_matches(&self.selector, o.meta().labels.as_ref())
    }
}

/// One event the watch received: when, and the object as it was written.
struct Seen {
    revision: u64,
    time_ms: u64,
    event: &'static str,
    object: Object,
}

/// The watch as an actor of the loop: it runs no task and observes every event.
struct Watcher<'a> {
    target: &'a Watched,
    prefix: String,
    /// The revision the watch starts after (the list's).
    from: u64,
    seen: Vec<Seen>,
}

impl Actor<World> for Watcher<'_> {
    fn handles(&self, _: &Target) -> bool {
        false
    }

    fn observe(&mut self, world: &mut World, ev: &WatchEvent<Object>) {
        if ev.revision <= self.from || !ev.key.starts_with(&self.prefix) {
            return;
        }
        let now = self.target.matches(&ev.object);
        let event = match ev.kind {
            EventType::Added => now.then_some("ADDED"),
            EventType::Deleted => now.then_some("DELETED"),
            EventType::Modified => match (ev.prev.as_deref().is_some_and(|p| self.target.matches(p)), now) {
                (true, true) => Some("MODIFIED"),
                (false, true) => Some("ADDED"),
                (true, false) => Some("DELETED"),
                (false, false) => None,
            },
        };
        if let Some(event) = event {
            self.seen.push(Seen { revision: ev.revision, time_ms: world.now, event, object: (*ev.object).clone() });
        }
    }

    fn run(&mut self, _: &mut World, _: &Task) {}
}

/// The printer kubectl picks for `-o`, kept for the whole watch.
enum Printer {
    Table(WatchTable),
    Name(String),
    Yaml { out: String, count: usize },
    Json(String),
}

impl Printer {
    fn print(&mut self, res: &ResourceInfo, events: bool, event: &str, obj: &Object, revision: u64, clock: Clock) {
        let value = || {
            let mut v = obj.to_json();
            v["metadata"]["resourceVersion"] = serde_json::json!(revision.to_string());
            if events {
                v = serde_json::json!({"object": v, "type": event});
            }
            crate::kubectl::apply::sort_keys(&mut v);
            v
        };
        match self {
            Printer::Table(t) => {
                t.print(event, obj, clock);
            }
            Printer::Name(out) => *out += &format!("{}/{}\n", kind_string(res), obj.name()),
            Printer::Yaml { out, count } => {
                *count += 1;
                if *count > 1 {
                    *out += "---\n";
                }
                *out += &go_yaml(&value());
            }
            Printer::Json(out) => {
                if events {
                    // `json.Marshal` of the WatchEvent: compact, `type` before `object`.
                    let mut object = value()["object"].take();
                    crate::kubectl::apply::sort_keys(&mut object);
                    let text = serde_json::to_string(&object).unwrap_or_default();
                    let text = text.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026");
                    *out += &format!("{{\"type\":\"{event}\",\"object\":{text}}}\n");
                } else {
                    *out += &go_json_indent(&value());
                }
            }
        }
    }

    fn finish(self) -> String {
        match self {
            Printer::Table(t) => t.finish(),
            Printer::Name(out) | Printer::Yaml { out, .. } | Printer::Json(out) => out,
        }
    }
}

impl Session {
    /// `kubectl get ... -w` once the list (or the object) is read: `listed` as `get` printed
    /// it, then the events while the cluster runs until it is quiet.
    pub(super) fn watch(
        &mut self,
        target: &Watched,
        listed: &[Object],
        flags: WatchFlags,
        output: Option<&str>,
        all: bool,
    ) -> Output {
        let res = target.res;
        let mut printer = match output {
            Some("name") => Printer::Name(String::new()),
            Some("yaml") => Printer::Yaml { out: String::new(), count: 0 },
            Some("json") => Printer::Json(String::new()),
            _ if !crate::views::has_table_printer(res.kind) => {
                return Output::error(format!(
                    "podlab: the lab has no table printer for {} yet; a real kubectl would print its NAME and AGE columns (kubectl get {} -w -o yaml shows the objects)",
                    res.kind, res.plural
                ))
            }
            _ => Printer::Table(WatchTable::new(
                GetOptions { wide: output == Some("wide"), all_namespaces: all },
                res.namespaced,
                flags.events,
            )),
        };
        let mut stderr = String::new();
        if res.kind == "Endpoints" {
            // The API server's warning on the list and the watch; kubectl prints it once.
            stderr += "Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n";
        }
        let clock = Clock::at(self.world.now);
        if !flags.only {
            for o in listed {
                let key = res.etcd_key(o.namespace(), o.name());
                let revision = self.world.store.get(&key).map(|(_, r)| r).unwrap_or(self.world.store.revision());
                printer.print(res, flags.events, "ADDED", o, revision, clock);
            }
        }
        let mut watcher = Watcher {
            target,
            prefix: res.list_prefix(target.namespace.as_deref()),
            from: self.world.store.revision(),
            seen: Vec::new(),
        };
        {
            let mut actors: Vec<&mut dyn Actor<World>> = vec![&mut watcher];
            Self::running(&self.stopped, &mut self.controllers, &mut self.scheduler, &mut self.kubelets, &mut actors);
            actors.push(&mut self.announcer);
            run_loop_from(&mut self.world, &mut actors, &mut self.delivered, self.limit_ms);
        }
        for s in &watcher.seen {
            printer.print(res, flags.events, s.event, &s.object, s.revision, Clock::at(s.time_ms));
        }
        let why = if self.world.is_settled() {
            format!(
                "the cluster is quiet (nothing written for {} and only periodic work left)",
                crate::controllers::util::go_duration(crate::sim::SETTLE_MS as i64)
            )
        } else {
            format!(
                "the session reached its time limit ({} of cluster time)",
                crate::controllers::util::go_duration(self.limit_ms as i64)
            )
        };
        stderr += &format!(
            "podlab: {why}, so the lab ends the watch here; a real kubectl get -w keeps waiting for changes until you press Ctrl-C (and then exits with status 1)\n"
        );
        Output { stdout: printer.finish(), stderr, exit: 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_script, Session};
    use crate::lab::Loaded;
    use expect_test::expect;

    const WEB: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.29\n";

    fn transcript(script: &str) -> String {
        let loaded = Loaded::load(None).unwrap();
        let mut session = Session::new(&loaded, 1, None, None, crate::lab::DEFAULT_LIMIT_MS).unwrap();
        let mut out = String::new();
        for c in parse_script(script, &|_| None).unwrap() {
            let r = session.run(&c).clone();
            out += &format!(
                "[{}ms-{}ms] $ {}\n{}{}(exit status {})\n",
                r.start_ms, r.end_ms, r.line, r.stdout, r.stderr, r.exit_code
            );
        }
        out
    }

    /// The brief's scene: one Pod of a Deployment deleted without waiting, then watched: the
    /// old one Terminating until it is gone, its replacement Pending, ContainerCreating,
    /// Running, each row with its age at the event.
    #[test]
    fn get_pods_watch_after_a_pod_delete() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{WEB}EOF\nsleep 20s\nkubectl get pods\nkubectl delete pod web-7c64c74567-pgw5x --wait=false\nkubectl get pods -w\n"
        );
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms] $ kubectl get pods
            NAME                   READY   STATUS    RESTARTS   AGE
            web-7c64c74567-9vtnp   1/1     Running   0          20s
            web-7c64c74567-pgw5x   1/1     Running   0          20s
            (exit status 0)
            [20004ms-20004ms] $ kubectl delete pod web-7c64c74567-pgw5x --wait=false
            pod "web-7c64c74567-pgw5x" deleted from default namespace
            (exit status 0)
            [20004ms-85004ms] $ kubectl get pods -w
            NAME                   READY   STATUS    RESTARTS   AGE
            web-7c64c74567-9vtnp   1/1     Running   0          20s
            web-7c64c74567-pgw5x   1/1     Terminating   0          20s
            web-7c64c74567-5blzt   0/1     Pending       0          0s
            web-7c64c74567-5blzt   0/1     Pending       0          0s
            web-7c64c74567-5blzt   0/1     ContainerCreating   0          0s
            web-7c64c74567-pgw5x   0/1     Completed           0          20s
            web-7c64c74567-pgw5x   0/1     Completed           0          20s
            web-7c64c74567-5blzt   1/1     Running             0          1s
            podlab: the cluster is quiet (nothing written for 1m0s and only periodic work left), so the lab ends the watch here; a real kubectl get -w keeps waiting for changes until you press Ctrl-C (and then exits with status 1)
            (exit status 0)
        "#]].assert_eq(&transcript(&script));
    }

    /// `--output-watch-events` with a selector, `-A --watch-only`, `-o name`, one object by
    /// name (its synthetic ADDED event not printed).
    #[test]
    fn watch_flags_and_printers() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{WEB}EOF\nsleep 20s\nkubectl scale deployment web --replicas=3\nkubectl get pods -l app=web -w --output-watch-events\nkubectl scale deployment web --replicas=1\nkubectl get deploy -A --watch-only\nkubectl label pod web-7c64c74567-9vtnp app=other --overwrite\nkubectl get pods -l app=web -w -o name\nkubectl rollout restart deployment/web\nkubectl get deployment web -w\n"
        );
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms] $ kubectl scale deployment web --replicas=3
            deployment.apps/web scaled
            (exit status 0)
            [20004ms-85004ms] $ kubectl get pods -l app=web -w --output-watch-events
            EVENT      NAME                   READY   STATUS    RESTARTS   AGE
            ADDED      web-7c64c74567-9vtnp   1/1     Running   0          20s
            ADDED      web-7c64c74567-pgw5x   1/1     Running   0          20s
            ADDED      web-7c64c74567-ztwrq   0/1     Pending   0          0s
            MODIFIED   web-7c64c74567-ztwrq   0/1     Pending   0          0s
            MODIFIED   web-7c64c74567-ztwrq   0/1     ContainerCreating   0          0s
            MODIFIED   web-7c64c74567-ztwrq   1/1     Running             0          1s
            podlab: the cluster is quiet (nothing written for 1m0s and only periodic work left), so the lab ends the watch here; a real kubectl get -w keeps waiting for changes until you press Ctrl-C (and then exits with status 1)
            (exit status 0)
            [85004ms-85004ms] $ kubectl scale deployment web --replicas=1
            deployment.apps/web scaled
            (exit status 0)
            [85004ms-150000ms] $ kubectl get deploy -A --watch-only
            NAMESPACE   NAME   READY   UP-TO-DATE   AVAILABLE   AGE
            default     web    3/1     3            3           85s
            default     web    1/1     1            1           85s
            default     web    1/1     1            1           85s
            podlab: the cluster is quiet (nothing written for 1m0s and only periodic work left), so the lab ends the watch here; a real kubectl get -w keeps waiting for changes until you press Ctrl-C (and then exits with status 1)
            (exit status 0)
            [150000ms-150000ms] $ kubectl label pod web-7c64c74567-9vtnp app=other --overwrite
            pod/web-7c64c74567-9vtnp labeled
            (exit status 0)
            [150000ms-215004ms] $ kubectl get pods -l app=web -w -o name
            pod/web-7c64c74567-jrh4j
            pod/web-7c64c74567-jrh4j
            pod/web-7c64c74567-jrh4j
            pod/web-7c64c74567-jrh4j
            podlab: the cluster is quiet (nothing written for 1m0s and only periodic work left), so the lab ends the watch here; a real kubectl get -w keeps waiting for changes until you press Ctrl-C (and then exits with status 1)
            (exit status 0)
            [215004ms-215004ms] $ kubectl rollout restart deployment/web
            deployment.apps/web restarted
            (exit status 0)
            [215004ms-280000ms] $ kubectl get deployment web -w
            NAME   READY   UP-TO-DATE   AVAILABLE   AGE
            web    1/1     1            1           3m35s
            web    1/1     1            1           3m35s
            web    1/1     0            1           3m35s
            web    1/1     1            1           3m35s
            web    2/1     1            2           3m36s
            web    1/1     1            1           3m36s
            web    1/1     1            1           3m36s
            podlab: the cluster is quiet (nothing written for 1m0s and only periodic work left), so the lab ends the watch here; a real kubectl get -w keeps waiting for changes until you press Ctrl-C (and then exits with status 1)
            (exit status 0)
        "#]].assert_eq(&transcript(&script));
    }

    #[test]
    fn watch_yaml_and_json_events() {
        let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: one\nspec:\n  containers:\n  - name: app\n    image: busybox:1.37\n    command: [sleep, \"3600\"]\n";
        let script = format!(
            "kubectl apply -f - <<EOF\n{pod}EOF\nkubectl get pod one -w -o json --output-watch-events\nkubectl delete pod one --wait=false\nkubectl get pods -w -o yaml\n"
        );
        let out = transcript(&script);
        // The JSON events one a line, type first: the object as read, wrapped as ADDED, then
        // each change (its synthetic ADDED event not printed).
        let events: Vec<&str> = out.lines().filter(|l| l.starts_with("{\"type\":")).collect();
        assert!(events.len() > 2, "{out}");
        assert!(events[0].starts_with("{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\""), "{out}");
        assert!(
            events[1..].iter().all(|l| l.starts_with("{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"v1\"")),
            "{out}"
        );
        // The YAML documents separated by `---`, the last one the Pod as it was deleted.
        let yaml = out.split("$ kubectl get pods -w -o yaml\n").nth(1).unwrap();
        assert!(yaml.starts_with("apiVersion: v1\nkind: Pod\n"), "{yaml}");
        assert!(yaml.matches("\n---\n").count() >= 2, "{yaml}");
        assert!(yaml.contains("deletionTimestamp"), "{yaml}");
    }

    #[test]
    fn watch_refusals() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{WEB}EOF\nkubectl get pods --output-watch-events\nkubectl get pods a b -w\nkubectl get deploy web web -w\nkubectl get pods nope -w\nkubectl get -w\nkubectl get configmaps -w\n"
        );
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
            deployment.apps/web created
            (exit status 0)
            [4ms-4ms] $ kubectl get pods --output-watch-events
            error: --output-watch-events option can only be used with --watch or --watch-only
            (exit status 1)
            [4ms-4ms] $ kubectl get pods a b -w
            Error from server (NotFound): pods "a" not found
            (exit status 1)
            [4ms-4ms] $ kubectl get deploy web web -w
            error: watch is only supported on individual resources and resource collections - 2 resources were found
            (exit status 1)
            [4ms-4ms] $ kubectl get pods nope -w
            Error from server (NotFound): pods "nope" not found
            (exit status 1)
            [4ms-4ms] $ kubectl get -w
            error: You must provide one or more resources by argument or filename.
            Example resource specifications include:
               '-f rsrc.yaml'
               '--filename=rsrc.json'
               '<resource> <name>'
               '<resource>'
            (exit status 1)
            [4ms-65004ms] $ kubectl get configmaps -w
            NAME               DATA   AGE
            kube-root-ca.crt   1      0s
            podlab: the cluster is quiet (nothing written for 1m0s and only periodic work left), so the lab ends the watch here; a real kubectl get -w keeps waiting for changes until you press Ctrl-C (and then exits with status 1)
            (exit status 0)
        "#]].assert_eq(&transcript(&script));
    }
}
