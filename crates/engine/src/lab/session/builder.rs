//! kubectl's resource builder (cli-runtime's `resource.Builder`) for the session's `get`,
//! `delete` and `describe`: what the arguments name, then the requests that visit it.
//!
//! The arguments are read as `ResourceTypeOrNameArgs` reads them:
//! - `TYPE1,TYPE2 NAME...` becomes one `TYPE/NAME` per type and name, types first
//!   (`normalizeMultipleResourcesArgs`);
//! - `TYPE/NAME...` (every argument with a slash, or kubectl's error) are visited one GET
//!   each, in the order given;
//! - `TYPE NAME...` (one type) one GET per name;
//! - `TYPE1,TYPE2` alone, or with `-l` (or `delete --all`), one LIST per type, the same
//!   resource named twice listed once; `all` is the `all` category, expanded from discovery
//!   in discovery order (the core group's resources, then `apps`, `autoscaling`, `batch`,
//!   each group's resources in name order).
//!
//! Every visit goes on after an error (`ContinueOnError`): the errors are printed after the
//! output, in the order they happened. The printing rules of `get`'s human-readable path
//! (`get.go`): one table per run of objects of the same resource, each with its header, a
//! blank line between tables, names prefixed `kind.group/` once the objects read span more
//! than one kind (`multipleGVKsRequested`), and `No resources found` on standard error when
//! nothing was printed and nothing failed.

use super::dry_run::DryRun;
use super::*;
use crate::object::{Object, RESOURCES};
use crate::views::{Clock, Column, Row, TabWriter, Table};

/// The `all` category as discovery reports it (`(group, resource)`), in the order the
/// category expander returns it: the groups as the API server lists them (core first, then by
/// group priority: apps, autoscaling, batch), each group's resources sorted by name.
pub(super) const CATEGORY_ALL: &[(&str, &str)] = &[
    ("", "pods"),
    ("", "replicationcontrollers"),
    ("", "services"),
    ("apps", "daemonsets"),
    ("apps", "deployments"),
    ("apps", "replicasets"),
    ("apps", "statefulsets"),
    ("autoscaling", "horizontalpodautoscalers"),
    ("batch", "cronjobs"),
    ("batch", "jobs"),
];

/// `missingResourceError`.
pub(super) const MISSING_RESOURCE: &str = "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

/// What the arguments name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Selection {
    /// A LIST of each resource (the label selector picks among the items).
    Lists(Vec<&'static ResourceInfo>),
    /// A GET (or for delete, a DELETE) of each object, in order.
    Objects(Vec<(&'static ResourceInfo, String)>),
}

/// How a command sets up its builder.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BuildOptions {
    /// One type alone lists everything (`get`, `describe`: `ResourceTypeOrNameArgs(true, ...)`).
    pub allow_empty_selector: bool,
    /// `-l` was given.
    pub selector: bool,
    /// `delete --all`.
    pub select_all: bool,
    /// `-A`.
    pub all_namespaces: bool,
    /// `SingleResourceType()` (`get -w`).
    pub single_type: bool,
}

/// `SplitResourceArgument`: the comma-separated types, each once.
fn split_resource_argument(arg: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in arg.split(',') {
        if !out.iter().any(|o| o == s) {
            out.push(s.to_string());
        }
    }
    out
}

/// `normalizeMultipleResourcesArgs`: `[t1,t2 n1 n2]` → `[t1/n1 t1/n2 t2/n1 t2/n2]`.
fn normalize(args: &[String]) -> Vec<String> {
    if args.len() >= 2 {
        let types = split_resource_argument(&args[0]);
        if types.len() > 1 {
            return types.iter().flat_map(|t| args[1..].iter().map(move |n| format!("{t}/{n}"))).collect();
        }
    }
    args.to_vec()
}

/// `ReplaceAliases`: a category among the comma-separated types is replaced by its resources
/// (`resource.group`, or `resource` for the core group).
fn replace_aliases(arg: &str) -> String {
    arg.split(',')
        .map(|a| {
            if a == "all" {
                CATEGORY_ALL
                    .iter()
                    .map(|(g, r)| if g.is_empty() { r.to_string() } else { format!("{r}.{g}") })
                    .collect::<Vec<_>>()
                    .join(",")
            } else {
                a.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The resource a type names (`mappingFor`), or kubectl's error, which names the resource
/// part of the argument (`deployments` of `deployments.apps`).
pub(super) fn mapping(arg: &str) -> Result<&'static ResourceInfo, String> {
    if let Some((resource, group)) = arg.split_once('.') {
        // The `all` category's own spelling of its members (`deployments.apps`); the lab
        // serves one version of each.
        if let Some(r) = CATEGORY_ALL
            .iter()
            .find(|(g, r)| *g == group && *r == resource)
            .and_then(|(g, r)| RESOURCES.iter().find(|x| x.group == *g && x.plural == *r))
        {
            return Ok(r);
        }
    } else if let Some(r) = CATEGORY_ALL
        .iter()
        .find(|(_, r)| *r == arg)
        .and_then(|(g, r)| RESOURCES.iter().find(|x| x.group == *g && x.plural == *r))
    {
        return Ok(r);
    }
    resource_named(arg).ok_or_else(|| {
        let resource = arg.split('.').next().unwrap_or(arg);
        // A type only a real cluster serves says so (session/kinds.rs).
        match super::kinds::unserved_named(arg) {
            Some(u) => u.note().trim_end().to_string(),
            None => format!("error: the server doesn't have a resource type \"{resource}\""),
        }
    })
}

/// What `args` name, or kubectl's error (the whole text it prints).
pub(super) fn select(args: &[String], o: BuildOptions) -> Result<Selection, String> {
    let args = normalize(args);
    let slashes = args.iter().filter(|a| a.contains('/')).count();
    let mut tuples: Vec<(String, String)> = Vec::new();
    let mut types: Vec<String> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut selector = o.selector;
    if slashes > 0 {
        if slashes != args.len() {
            return Err("error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'".into());
        }
        for a in &args {
            let seg: Vec<&str> = a.split('/').collect();
            if seg.len() != 2 {
                return Err("error: arguments in resource/name form may not have more than one slash".into());
            }
            if seg[0].is_empty() || seg[1].is_empty() || split_resource_argument(seg[0]).len() != 1 {
                return Err("error: arguments in resource/name form must have a single resource and name".into());
            }
            tuples.push((seg[0].to_string(), seg[1].to_string()));
        }
    } else if let Some(first) = args.first() {
        types = split_resource_argument(&replace_aliases(first));
        names = args[1..].to_vec();
        if args.len() == 1 && o.allow_empty_selector {
            selector = true;
        }
    }
    if o.select_all {
        selector = true;
    }
    if selector {
        if !names.is_empty() {
            return Err("error: name cannot be provided when a selector is specified".into());
        }
        if !tuples.is_empty() {
            return Err("error: selectors and the all flag cannot be used when passing resource/name arguments".into());
        }
        if types.is_empty() {
            return Err("error: at least one resource must be specified to use a selector".into());
        }
        if types.len() > 1 && o.single_type {
            return Err("error: you may only specify a single resource type".into());
        }
        let mut mapped: Vec<&'static ResourceInfo> = Vec::new();
        for t in &types {
            let r = mapping(t)?;
            if !mapped.iter().any(|m| std::ptr::eq(*m, r)) {
                mapped.push(r);
            }
        }
        return Ok(Selection::Lists(mapped));
    }
    let check_scope = |r: &ResourceInfo| {
        if r.namespaced && o.all_namespaces {
            Err("error: a resource cannot be retrieved by name across all namespaces".to_string())
        } else {
            Ok(())
        }
    };
    if !tuples.is_empty() {
        let mut mapped: Vec<(&str, &'static ResourceInfo)> = Vec::new();
        for (t, _) in &tuples {
            if !mapped.iter().any(|(m, _)| m == t) {
                mapped.push((t.as_str(), mapping(t)?));
            }
        }
        let mut kinds: Vec<&'static ResourceInfo> = Vec::new();
        for (_, r) in &mapped {
            if !kinds.iter().any(|k| std::ptr::eq(*k, *r)) {
                kinds.push(r);
            }
        }
        if kinds.len() > 1 && o.single_type {
            return Err("error: you may only specify a single resource type".into());
        }
        let mut out = Vec::new();
        for (t, n) in &tuples {
            let r = mapped.iter().find(|(m, _)| m == t).map(|(_, r)| *r).expect("mapped above");
            check_scope(r)?;
            out.push((r, n.clone()));
        }
        return Ok(Selection::Objects(out));
    }
    if !names.is_empty() {
        if types.len() > 1 {
            return Err("error: you must specify only one resource".into());
        }
        let r = mapping(&types[0])?;
        check_scope(r)?;
        return Ok(Selection::Objects(names.into_iter().map(|n| (r, n)).collect()));
    }
    if !types.is_empty() {
        for t in &types {
            mapping(t)?;
        }
        return Err("error: resource(s) were provided, but no name was specified".into());
    }
    Err(MISSING_RESOURCE.into())
}

/// What one visit read: the objects of one LIST, or the one object of a GET.
pub(super) struct Info {
    pub res: &'static ResourceInfo,
    pub objects: Vec<Object>,
}

/// Whether two resources are the same (one mapping).
fn same(a: &ResourceInfo, b: &ResourceInfo) -> bool {
    a.group == b.group && a.kind == b.kind
}

/// The objects of `infos` in order, each with its resource.
pub(super) fn flatten(infos: &[Info]) -> Vec<(&'static ResourceInfo, &Object)> {
    infos.iter().flat_map(|i| i.objects.iter().map(move |o| (i.res, o))).collect()
}

/// What `kubectl get` of Pods (their workloads, Services) in kind's system namespaces adds.
const SYSTEM_PODS_NOTE: &str = "podlab: the lab's cluster runs no system Pods: a real kind cluster lists the Pods of coredns (a Deployment), kindnet and kube-proxy (DaemonSets), the static Pods of etcd, kube-apiserver, kube-controller-manager and kube-scheduler in kube-system (and coredns's Service kube-dns), and local-path-provisioner in local-path-storage; the lab plays the control plane's components as its own actors, not as Pods\n";

/// `multipleGVKsRequested`: the visits that read something span more than one kind.
fn several_kinds(infos: &[Info]) -> bool {
    infos.len() >= 2 && infos.iter().any(|i| !same(i.res, infos[0].res))
}

/// The table of a run of objects of one resource, as `kubectl get` prints it (header once,
/// rows in the order read, names prefixed with `kind.group/` when `with_kind`); `None` when
/// the lab has no table printer for the kind.
fn render_table(
    res: &'static ResourceInfo,
    objects: &[&Object],
    clock: Clock,
    opts: GetOptions,
    with_kind: bool,
    default_class: Option<&str>,
) -> Option<String> {
    let mut columns: &'static [Column] = &[];
    let mut rows: Vec<Row> = Vec::new();
    for o in objects {
        let (c, mut row) = crate::views::table_row(o, clock, opts.wide)?;
        columns = c;
        row.namespace = o.namespace().unwrap_or("").to_string();
        if res.kind == "StorageClass" {
            row.cells[0] = o.name().to_string();
            if default_class == Some(o.name()) {
                row.cells[0] += " (default)";
            }
        }
        if with_kind {
            if let Some(i) = columns.iter().position(|c| c.name == "Name") {
                row.cells[i] = format!("{}/{}", kind_string(res), row.cells[i]);
            }
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Some(String::new());
    }
    let table = Table { columns, rows };
    let with_namespace = res.namespaced && opts.all_namespaces;
    let mut w = TabWriter::for_tables();
    w.write(&table.header_line(opts, with_namespace));
    for row in &table.rows {
        w.write(&table.row_line(row, opts, with_namespace));
    }
    Some(w.finish())
}

impl Session {
    /// Visits a selection through the API server: one LIST per resource (its objects the
    /// selector `wanted` picks, in etcd key order), or one GET per object. Errors are kept
    /// in order and the visit goes on.
    pub(super) fn visit(
        &mut self,
        selection: &Selection,
        ns: &str,
        all_namespaces: bool,
        wanted: &[(String, SelectorOp, String)],
        continue_on_error: bool,
    ) -> (Vec<Info>, Vec<CommandError>) {
        let mut infos = Vec::new();
        let mut errors = Vec::new();
        match selection {
            Selection::Lists(resources) => {
                for &res in resources {
                    let mut req = self.request(Verb::List, res, Some(ns), None);
                    if all_namespaces {
                        req.namespace = None;
                    }
                    let resp = apiserver::handle(&mut self.world, req);
                    if let Some(status) = resp.error.clone() {
                        errors.push(CommandError::Server(status));
                        if !continue_on_error {
                            break;
                        }
                        continue;
                    }
                    let prefix = res.list_prefix(if res.namespaced && !all_namespaces { Some(ns) } else { None });
                    let objects = self
                        .world
                        .store
                        .live(&prefix)
                        .map(|(_, o)| o)
                        .filter(|o| o.kind() == res.kind)
                        .filter(|o| selector_matches(wanted, o.meta().labels.as_ref()))
                        .cloned()
                        .collect();
                    infos.push(Info { res, objects });
                }
            }
            Selection::Objects(objects) => {
                for (res, name) in objects {
                    let req = self.request(Verb::Get, res, Some(ns), Some(name));
                    let resp = apiserver::handle(&mut self.world, req);
                    match resp.error.clone() {
                        Some(status) => {
                            errors.push(CommandError::Server(status));
                            if !continue_on_error {
                                break;
                            }
                        }
                        None => infos.push(Info { res, objects: resp.into_object().into_iter().collect() }),
                    }
                }
            }
        }
        (infos, errors)
    }

    /// `kubectl get TYPE[,TYPE...] [NAME...] | TYPE/NAME... | all` with `-l`, `-A`, `-n`,
    /// `-o wide|name|yaml|json`; `-w` for one resource (`session/watch.rs`).
    pub(super) fn get(&mut self, flags: &Flags) -> Output {
        if let Some(f) = flags.unknown(&[
            "-n",
            "--namespace",
            "-o",
            "--output",
            "-A",
            "--all-namespaces",
            "-l",
            "--selector",
            "-w",
            "--watch",
            "--watch-only",
            "--output-watch-events",
        ]) {
            return Output::error(format!("Error: unknown flag: {f}\nSee 'kubectl get --help' for usage."));
        }
        let watch = watch::WatchFlags::read(flags);
        if watch.events && !watch.watching() {
            return Output::error("error: --output-watch-events option can only be used with --watch or --watch-only");
        }
        if flags.args.is_empty() {
            if watch.watching() {
                return Output::error(MISSING_RESOURCE);
            }
            return Output::error("You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples");
        }
        let output = flags.value(&["-o", "--output"]);
        match output {
            None | Some("wide" | "name" | "yaml" | "json") => {}
            Some(o) if ["jsonpath", "custom-columns", "go-template", "template", "templatefile", "kyaml"]
                .iter()
                .any(|p| o.starts_with(p)) =>
            {
                return Output::error(format!(
                    "podlab: kubectl get -o {o} is not modelled by the lab's session yet (it prints the table, -o wide, name, yaml and json)"
                ))
            }
            Some(o) => return Output::error(format!(
                "error: unable to match a printer suitable for the output format \"{o}\", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,wide,yaml"
            )),
        }
        let all = flags.has(&["-A", "--all-namespaces"]);
        let ns = self.namespace_of(flags);
        let selector_text = flags.value(&["-l", "--selector"]);
        let wanted = match selector_text.map(parse_selector).transpose() {
            Ok(s) => s.unwrap_or_default(),
            Err(e) => return Output::error(format!("error: {e}")),
        };
        let opts = BuildOptions {
            allow_empty_selector: true,
            selector: selector_text.is_some(),
            all_namespaces: all,
            single_type: watch.watching(),
            ..BuildOptions::default()
        };
        let selection = match select(&flags.args, opts) {
            Ok(s) => s,
            Err(e) => return Output::error(e),
        };
        let (infos, mut errors) = self.visit(&selection, &ns, all, &wanted, !watch.watching());
        if watch.watching() {
            // kubectl's watch builder does not continue on errors: the first one ends it.
            if !errors.is_empty() {
                errors.truncate(1);
                return Output::error(kubectl_stderr(&errors));
            }
            let Some(first) = infos.first() else { return Output::error(kubectl_stderr(&errors)) };
            if several_kinds(&infos) {
                return Output::error("error: watch is only supported on individual resources and resource collections, but a list of resources is found");
            }
            if infos.len() != 1 {
                return Output::error(format!(
                    "error: watch is only supported on individual resources and resource collections - {} resources were found",
                    infos.len()
                ));
            }
            let res = first.res;
            let name = match &selection {
                Selection::Objects(o) => o.first().map(|(_, n)| n.clone()),
                Selection::Lists(_) => None,
            };
            let target = watch::Watched {
                res,
                namespace: (res.namespaced && !all).then(|| ns.clone()),
                name,
                selector: wanted.clone(),
            };
            let listed = first.objects.clone();
            return self.watch(&target, &listed, watch, output, all);
        }
        let mut out = Output::default();
        if infos.iter().any(|i| i.res.kind == "Endpoints") {
            // The API server's warning on every read of v1 Endpoints; kubectl prints it once.
            out.stderr += "Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n";
        }
        match output {
            Some("name") => {
                for (res, o) in flatten(&infos) {
                    out.stdout += &format!("{}/{}\n", kind_string(res), o.name());
                }
            }
            Some(format @ ("yaml" | "json")) => {
                // `printGeneric`: one object alone when the arguments named one, a `List` of
                // everything read otherwise (keys sorted, as kubectl prints unstructured
                // objects); when the one object named failed, only its error.
                let single = matches!(&selection, Selection::Objects(o) if o.len() == 1);
                if !single || errors.is_empty() {
                    out.stdout = self.print_objects(&infos, single, format);
                }
            }
            _ => {
                let opts = GetOptions { wide: output == Some("wide"), all_namespaces: all };
                let with_kind = several_kinds(&infos);
                let clock = Clock::at(self.world.now);
                let mut tables: Vec<String> = Vec::new();
                let mut notes: Vec<String> = Vec::new();
                let mut i = 0;
                while i < infos.len() {
                    // A run of visits of one resource shares one printer: one table.
                    let res = infos[i].res;
                    let mut run: Vec<&Object> = Vec::new();
                    while i < infos.len() && same(infos[i].res, res) {
                        run.extend(infos[i].objects.iter());
                        i += 1;
                    }
                    // The API server's StorageClass table marks only the effective default.
                    let default_class = (res.kind == "StorageClass")
                        .then(|| {
                            Snapshot::new(&self.world.store, self.world.store.revision(), self.world.now)
                                .effective_default_class()
                        })
                        .flatten();
                    match render_table(res, &run, clock, opts, with_kind, default_class.as_deref()) {
                        Some(t) if t.is_empty() => {}
                        Some(t) => tables.push(t),
                        None => notes.push(format!(
                            "podlab: the lab has no table printer for {} yet; a real kubectl would print its NAME and AGE columns (kubectl get {} -o yaml shows the objects)\n",
                            res.kind, res.plural
                        )),
                    }
                }
                out.stdout = tables.join("\n");
                if out.stdout.is_empty() && notes.is_empty() && errors.is_empty() {
                    let namespaced = !all && infos.iter().all(|i| i.res.namespaced);
                    out.stderr += &crate::views::no_resources(namespaced, &ns);
                }
                if !notes.is_empty() {
                    out.stderr += &notes.concat();
                    out.exit = 1;
                }
            }
        }
        if !errors.is_empty() {
            out.stderr += &kubectl_stderr(&errors);
            out.exit = 1;
        }
        // The system Pods a real kind cluster lists here are not in the lab's cluster: say so,
        // rather than let a list without them pass for Kubernetes.
        let system_ns = all || ns == "kube-system" || ns == "local-path-storage";
        let workloads = ["Pod", "Deployment", "ReplicaSet", "DaemonSet", "Service"];
        if system_ns && infos.iter().any(|i| workloads.contains(&i.res.kind)) {
            out.stderr += SYSTEM_PODS_NOTE;
        }
        out
    }

    /// `-o yaml|json` of the objects read: the one object, or a `List` of them all, each
    /// with its `resourceVersion` (as the API server returns it).
    fn print_objects(&self, infos: &[Info], single: bool, format: &str) -> String {
        let rev = self.world.store.revision();
        let items: Vec<serde_json::Value> = flatten(infos)
            .into_iter()
            .map(|(res, o)| {
                let mut v = o.to_json();
                if v["metadata"].get("resourceVersion").is_none() {
                    let key = res.etcd_key(o.namespace(), o.name());
                    let r = self.world.store.get(&key).map(|(_, r)| r).unwrap_or(rev);
                    v["metadata"]["resourceVersion"] = serde_json::json!(r.to_string());
                }
                v
            })
            .collect();
        let mut value = if single {
            items.into_iter().next().unwrap_or_default()
        } else {
            serde_json::json!({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}})
        };
        crate::kubectl::apply::sort_keys(&mut value);
        if format == "json" {
            go_json_indent(&value)
        } else {
            go_yaml(&value)
        }
    }
}

impl Session {
    /// `kubectl delete TYPE[,TYPE...] NAME... | TYPE/NAME... | TYPE[,TYPE...] -l SELECTOR |
    /// TYPE --all` (`delete.go`'s `DeleteResult`): a DELETE per object (propagation
    /// `Background`, kubectl's default cascade; kubectl does not read the objects first), then,
    /// when every DELETE succeeded, it waits (`--wait=true`) until every deleted object is gone,
    /// while cluster time passes and the kubelet stops the Pods and the controllers react. With
    /// a selector (or `--all`) the objects are those one LIST of each type returns, and none
    /// is `No resources found`. `--dry-run=client` sends no DELETE; `--dry-run=server` sends
    /// them with `dryRun: [All]`; neither waits.
    pub(super) fn delete(&mut self, flags: &Flags) -> Output {
        if let Some(f) = flags.unknown(&[
            "-n",
            "--namespace",
            "--wait",
            "--now",
            "--cascade",
            "--all",
            "-l",
            "--selector",
            "--dry-run",
        ]) {
            return Output::error(format!("Error: unknown flag: {f}\nSee 'kubectl delete --help' for usage."));
        }
        // --cascade: background (the default, or `true`), foreground, orphan (or `false`).
        let policy = match flags.value(&["--cascade"]).unwrap_or("background") {
            "background" | "true" => "Background",
            "foreground" => "Foreground",
            "orphan" | "false" => "Orphan",
            other => {
                return Output::error(format!(
                    "error: invalid cascade value ({other}). Must be \"background\", \"foreground\", or \"orphan\""
                ))
            }
        };
        let mut out = Output::default();
        let dry_run = match self.dry_run_flag(flags) {
            Ok(d) => d,
            Err(e) => return e,
        };
        let ns = self.namespace_of(flags);
        let selector = flags.value(&["-l", "--selector"]);
        let wanted = match selector.map(parse_selector).transpose() {
            Ok(w) => w.unwrap_or_default(),
            Err(e) => return Output::error(format!("error: {e}")),
        };
        let opts =
            BuildOptions { selector: selector.is_some(), select_all: flags.has(&["--all"]), ..Default::default() };
        let selection = match select(&flags.args, opts) {
            Ok(s) => s,
            Err(e) => return Output::error(e),
        };
        if dry_run == DryRun::Server {
            self.server_dry_run();
        }
        // The objects: listed (a selector), or named (no request before the DELETE).
        let mut errors = Vec::new();
        let targets: Vec<(&'static ResourceInfo, String)> = match &selection {
            Selection::Objects(o) => o.clone(),
            Selection::Lists(_) => {
                let (infos, errs) = self.visit(&selection, &ns, false, &wanted, true);
                errors = errs;
                flatten(&infos).into_iter().map(|(r, o)| (r, o.name().to_string())).collect()
            }
        };
        // `WarnClusterScope`: a namespace given with -n, and an object that has none.
        let mut warn_cluster_scope = flags.has(&["-n", "--namespace"]);
        let mut deleted: Vec<String> = Vec::new();
        let mut found = 0;
        for (res, name) in &targets {
            found += 1;
            if warn_cluster_scope && !res.namespaced {
                out.stderr += "Warning: deleting cluster-scoped resources, not scoped to the provided namespace\n";
                warn_cluster_scope = false;
            }
            let place = if res.namespaced { format!(" from {ns} namespace") } else { String::new() };
            let line = format!("{} \"{name}\" deleted{place}{}\n", kind_string(res), dry_run.suffix());
            if dry_run == DryRun::Client {
                out.stdout += &line;
                continue;
            }
            let mut req = self.request(Verb::Delete, res, Some(&ns), Some(name));
            let mut body =
                serde_json::json!({"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": policy});
            if dry_run == DryRun::Server {
                body["dryRun"] = serde_json::json!(["All"]);
            }
            req.body = Some(Body::Json(body));
            let resp = apiserver::handle(&mut self.world, req);
            match resp.error.clone() {
                None => {
                    out.stdout += &line;
                    deleted.push(res.etcd_key(if res.namespaced { Some(&ns) } else { None }, name));
                    if res.kind == "Service" && ns == "default" && name == "kubernetes" && dry_run == DryRun::None {
                        out.stderr += "podlab: a real kube-apiserver creates the default/kubernetes Service again (its kubernetes-service controller keeps it, with the API server's address); the lab does not model that controller, so the Service stays deleted\n";
                    }
                }
                Some(status) => errors.push(CommandError::Server(status)),
            }
        }
        if !errors.is_empty() {
            // kubectl returns the errors without waiting.
            out.stderr += &kubectl_stderr(&errors);
            out.exit = 1;
            return out;
        }
        if found == 0 {
            out.stdout += "No resources found\n";
            return out;
        }
        let wait = flags.value(&["--wait"]).is_none_or(|v| v != "false");
        if wait && dry_run == DryRun::None && !deleted.is_empty() {
            // kubectl waits until every deleted object is gone (with --cascade=foreground,
            // that is once its dependents are deleted).
            let until = self.world.now + DELETE_POLL_LIMIT_MS;
            self.advance(None, until, |w| deleted.iter().all(|k| w.store.get(k).is_none()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::inspect::tests::transcript;
    use super::*;
    use expect_test::expect;

    const APP: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.29\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n  selector:\n    app: web\n  ports:\n  - port: 80\n";

    #[test]
    fn arguments_as_the_resource_builder_reads_them() {
        let o = BuildOptions { allow_empty_selector: true, ..Default::default() };
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let show = |r: Result<Selection, String>| match r {
            Ok(Selection::Lists(l)) => format!("lists {}", l.iter().map(|r| r.plural).collect::<Vec<_>>().join(",")),
            Ok(Selection::Objects(o)) => {
                format!("objects {}", o.iter().map(|(r, n)| format!("{}/{n}", r.plural)).collect::<Vec<_>>().join(" "))
            }
            Err(e) => e,
        };
        let cases = [
            show(select(&args(&["deploy,svc"]), o)),
            show(select(&args(&["deploy,svc", "a", "b"]), o)),
            show(select(&args(&["deploy/a", "svc/b", "deploy/c"]), o)),
            show(select(&args(&["pods,po,pod"]), o)),
            show(select(&args(&["all"]), o)),
            show(select(&args(&["all,nodes"]), o)),
            show(select(&args(&["all", "web"]), o)),
            show(select(&args(&["all/web"]), o)),
            show(select(&args(&["pods", "a"]), BuildOptions { selector: true, ..o })),
            show(select(&args(&["pods/a"]), BuildOptions { selector: true, ..o })),
            show(select(&args(&["pods,svc"]), BuildOptions { single_type: true, ..o })),
            show(select(&args(&["pods/a", "svc/b"]), BuildOptions { single_type: true, ..o })),
            show(select(&args(&["pods", "a"]), BuildOptions { all_namespaces: true, ..o })),
            show(select(&args(&["nodes", "a"]), BuildOptions { all_namespaces: true, ..o })),
            show(select(&args(&["pods"]), BuildOptions::default())),
            show(select(&args(&[]), BuildOptions::default())),
            show(select(&args(&[]), BuildOptions { select_all: true, ..Default::default() })),
            show(select(&args(&["deploy,widgets"]), o)),
            show(select(&args(&["deployments.apps,services"]), o)),
        ];
        expect![[r#"
            lists deployments,services
            objects deployments/a deployments/b services/a services/b
            objects deployments/a services/b deployments/c
            lists pods,pods
            lists pods,replicationcontrollers,services,daemonsets,deployments,replicasets,statefulsets,horizontalpodautoscalers,cronjobs,jobs
            lists pods,replicationcontrollers,services,daemonsets,deployments,replicasets,statefulsets,horizontalpodautoscalers,cronjobs,jobs,nodes
            error: you must specify only one resource
            error: the server doesn't have a resource type "all"
            error: name cannot be provided when a selector is specified
            error: selectors and the all flag cannot be used when passing resource/name arguments
            error: you may only specify a single resource type
            error: you may only specify a single resource type
            error: a resource cannot be retrieved by name across all namespaces
            objects nodes/a
            error: resource(s) were provided, but no name was specified
            error: You must provide one or more resources by argument or filename.
            Example resource specifications include:
               '-f rsrc.yaml'
               '--filename=rsrc.json'
               '<resource> <name>'
               '<resource>'
            error: at least one resource must be specified to use a selector
            error: the server doesn't have a resource type "widgets"
            lists deployments,services"#]]
        .assert_eq(&cases.join("\n"));
    }

    /// Pods listed where a real kind cluster has its system Pods: the lab says it has none.
    #[test]
    fn system_namespaces_say_the_lab_has_no_system_pods() {
        let script = "kubectl get pods -A\nkubectl get ds -n kube-system\nkubectl get svc -A\nkubectl get pods\n";
        expect![[r#"
            [0ms-0ms] $ kubectl get pods -A
              > kubectl sends GET /api/v1/pods?limit=500
            No resources found
            podlab: the lab's cluster runs no system Pods: a real kind cluster lists the Pods of coredns (a Deployment), kindnet and kube-proxy (DaemonSets), the static Pods of etcd, kube-apiserver, kube-controller-manager and kube-scheduler in kube-system (and coredns's Service kube-dns), and local-path-provisioner in local-path-storage; the lab plays the control plane's components as its own actors, not as Pods
            (exit status 0)
            [0ms-0ms] $ kubectl get ds -n kube-system
              > kubectl sends GET /apis/apps/v1/namespaces/kube-system/daemonsets?limit=500
            No resources found in kube-system namespace.
            podlab: the lab's cluster runs no system Pods: a real kind cluster lists the Pods of coredns (a Deployment), kindnet and kube-proxy (DaemonSets), the static Pods of etcd, kube-apiserver, kube-controller-manager and kube-scheduler in kube-system (and coredns's Service kube-dns), and local-path-provisioner in local-path-storage; the lab plays the control plane's components as its own actors, not as Pods
            (exit status 0)
            [0ms-0ms] $ kubectl get svc -A
              > kubectl sends GET /api/v1/services?limit=500
            NAMESPACE   NAME         TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE
            default     kubernetes   ClusterIP   10.96.0.1    <none>        443/TCP   0s
            podlab: the lab's cluster runs no system Pods: a real kind cluster lists the Pods of coredns (a Deployment), kindnet and kube-proxy (DaemonSets), the static Pods of etcd, kube-apiserver, kube-controller-manager and kube-scheduler in kube-system (and coredns's Service kube-dns), and local-path-provisioner in local-path-storage; the lab plays the control plane's components as its own actors, not as Pods
            (exit status 0)
            [0ms-0ms] $ kubectl get pods
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            No resources found in default namespace.
            (exit status 0)
        "#]]
        .assert_eq(&transcript(None, script));
    }

    /// `get` of several types: one table per type, `kind.group/` names once the objects
    /// read span two kinds, blank lines between tables, the NotFound errors in order, the
    /// `all` category, `-o name|yaml`, selectors over several types.
    #[test]
    fn get_several_types() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{APP}EOF\nsleep 20s\nkubectl get deployment,service\nkubectl get deploy/web svc/web\nkubectl get deploy/web svc/nope pods/nope\nkubectl get svc kubernetes web nope\nkubectl get all\nkubectl get all -o name\nkubectl get pods,svc -l app=web -o wide\nkubectl get rs,cronjobs,jobs\nkubectl get cronjobs,jobs\nkubectl get pv,nodes -A\nkubectl get pv,pvc\nkubectl get endpoints,svc\nkubectl get svc/web deploy/web svc/kubernetes\nkubectl get svc,deploy nope -o json\nkubectl get pod/nope -o yaml\nkubectl get svc/nope svc/web -o name\n"
        );
        expect![[r#"
            [0ms-12ms] $ kubectl apply -f -
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends POST /apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /api/v1/namespaces/default/services/web
              > kubectl sends POST /api/v1/namespaces/default/services?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            deployment.apps/web created
            service/web created
            (exit status 0)
            [12ms-20012ms] $ sleep 20s
            (exit status 0)
            [20012ms-20012ms] $ kubectl get deployment,service
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments?limit=500
              > kubectl sends GET /api/v1/namespaces/default/services?limit=500
            NAME                  READY   UP-TO-DATE   AVAILABLE   AGE
            deployment.apps/web   2/2     2            2           20s

            NAME                 TYPE        CLUSTER-IP      EXTERNAL-IP   PORT(S)   AGE
            service/kubernetes   ClusterIP   10.96.0.1       <none>        443/TCP   20s
            service/web          ClusterIP   10.96.222.144   <none>        80/TCP    20s
            (exit status 0)
            [20012ms-20012ms] $ kubectl get deploy/web svc/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends GET /api/v1/namespaces/default/services/web
            NAME                  READY   UP-TO-DATE   AVAILABLE   AGE
            deployment.apps/web   2/2     2            2           20s

            NAME          TYPE        CLUSTER-IP      EXTERNAL-IP   PORT(S)   AGE
            service/web   ClusterIP   10.96.222.144   <none>        80/TCP    20s
            (exit status 0)
            [20012ms-20012ms] $ kubectl get deploy/web svc/nope pods/nope
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends GET /api/v1/namespaces/default/services/nope
              > kubectl sends GET /api/v1/namespaces/default/pods/nope
            NAME   READY   UP-TO-DATE   AVAILABLE   AGE
            web    2/2     2            2           20s
            Error from server (NotFound): services "nope" not found
            Error from server (NotFound): pods "nope" not found
            (exit status 1)
            [20012ms-20012ms] $ kubectl get svc kubernetes web nope
              > kubectl sends GET /api/v1/namespaces/default/services/kubernetes
              > kubectl sends GET /api/v1/namespaces/default/services/web
              > kubectl sends GET /api/v1/namespaces/default/services/nope
            NAME         TYPE        CLUSTER-IP      EXTERNAL-IP   PORT(S)   AGE
            kubernetes   ClusterIP   10.96.0.1       <none>        443/TCP   20s
            web          ClusterIP   10.96.222.144   <none>        80/TCP    20s
            Error from server (NotFound): services "nope" not found
            (exit status 1)
            [20012ms-20012ms] $ kubectl get all
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
              > kubectl sends GET /api/v1/namespaces/default/replicationcontrollers?limit=500
              > kubectl sends GET /api/v1/namespaces/default/services?limit=500
              > kubectl sends GET /apis/apps/v1/namespaces/default/daemonsets?limit=500
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments?limit=500
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets?limit=500
              > kubectl sends GET /apis/apps/v1/namespaces/default/statefulsets?limit=500
              > kubectl sends GET /apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers?limit=500
              > kubectl sends GET /apis/batch/v1/namespaces/default/cronjobs?limit=500
              > kubectl sends GET /apis/batch/v1/namespaces/default/jobs?limit=500
            NAME                       READY   STATUS    RESTARTS   AGE
            pod/web-7c64c74567-9vtnp   1/1     Running   0          20s
            pod/web-7c64c74567-pgw5x   1/1     Running   0          20s

            NAME                 TYPE        CLUSTER-IP      EXTERNAL-IP   PORT(S)   AGE
            service/kubernetes   ClusterIP   10.96.0.1       <none>        443/TCP   20s
            service/web          ClusterIP   10.96.222.144   <none>        80/TCP    20s

            NAME                  READY   UP-TO-DATE   AVAILABLE   AGE
            deployment.apps/web   2/2     2            2           20s

            NAME                             DESIRED   CURRENT   READY   AGE
            replicaset.apps/web-7c64c74567   2         2         2       20s
            (exit status 0)
            [20012ms-20012ms] $ kubectl get all -o name
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
              > kubectl sends GET /api/v1/namespaces/default/replicationcontrollers?limit=500
              > kubectl sends GET /api/v1/namespaces/default/services?limit=500
              > kubectl sends GET /apis/apps/v1/namespaces/default/daemonsets?limit=500
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments?limit=500
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets?limit=500
              > kubectl sends GET /apis/apps/v1/namespaces/default/statefulsets?limit=500
              > kubectl sends GET /apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers?limit=500
              > kubectl sends GET /apis/batch/v1/namespaces/default/cronjobs?limit=500
              > kubectl sends GET /apis/batch/v1/namespaces/default/jobs?limit=500
            pod/web-7c64c74567-9vtnp
            pod/web-7c64c74567-pgw5x
            service/kubernetes
            service/web
            deployment.apps/web
            replicaset.apps/web-7c64c74567
            (exit status 0)
            [20012ms-20012ms] $ kubectl get pods,svc -l app=web -o wide
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
              > kubectl sends GET /api/v1/namespaces/default/services?limit=500
            NAME                       READY   STATUS    RESTARTS   AGE   IP           NODE           NOMINATED NODE   READINESS GATES
            pod/web-7c64c74567-9vtnp   1/1     Running   0          20s   10.244.2.2   kind-worker2   <none>           <none>
            pod/web-7c64c74567-pgw5x   1/1     Running   0          20s   10.244.1.2   kind-worker    <none>           <none>

            NAME          TYPE        CLUSTER-IP      EXTERNAL-IP   PORT(S)   AGE   SELECTOR
            service/web   ClusterIP   10.96.222.144   <none>        80/TCP    20s   app=web
            (exit status 0)
            [20012ms-20012ms] $ kubectl get rs,cronjobs,jobs
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets?limit=500
              > kubectl sends GET /apis/batch/v1/namespaces/default/cronjobs?limit=500
              > kubectl sends GET /apis/batch/v1/namespaces/default/jobs?limit=500
            NAME                             DESIRED   CURRENT   READY   AGE
            replicaset.apps/web-7c64c74567   2         2         2       20s
            (exit status 0)
            [20012ms-20012ms] $ kubectl get cronjobs,jobs
              > kubectl sends GET /apis/batch/v1/namespaces/default/cronjobs?limit=500
              > kubectl sends GET /apis/batch/v1/namespaces/default/jobs?limit=500
            No resources found in default namespace.
            (exit status 0)
            [20012ms-20012ms] $ kubectl get pv,nodes -A
              > kubectl sends GET /api/v1/persistentvolumes?limit=500
              > kubectl sends GET /api/v1/nodes?limit=500
            NAME                      STATUS   ROLES           AGE   VERSION
            node/kind-control-plane   Ready    control-plane   20s   v1.37.0
            node/kind-worker          Ready    <none>          20s   v1.37.0
            node/kind-worker2         Ready    <none>          20s   v1.37.0
            (exit status 0)
            [20012ms-20012ms] $ kubectl get pv,pvc
              > kubectl sends GET /api/v1/persistentvolumes?limit=500
              > kubectl sends GET /api/v1/namespaces/default/persistentvolumeclaims?limit=500
            No resources found
            (exit status 0)
            [20012ms-20012ms] $ kubectl get endpoints,svc
              > kubectl sends GET /api/v1/namespaces/default/endpoints?limit=500
              > kubectl sends GET /api/v1/namespaces/default/services?limit=500
            NAME            ENDPOINTS                     AGE
            endpoints/web   10.244.1.2:80,10.244.2.2:80   20s

            NAME                 TYPE        CLUSTER-IP      EXTERNAL-IP   PORT(S)   AGE
            service/kubernetes   ClusterIP   10.96.0.1       <none>        443/TCP   20s
            service/web          ClusterIP   10.96.222.144   <none>        80/TCP    20s
            Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice
            (exit status 0)
            [20012ms-20012ms] $ kubectl get svc/web deploy/web svc/kubernetes
              > kubectl sends GET /api/v1/namespaces/default/services/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends GET /api/v1/namespaces/default/services/kubernetes
            NAME          TYPE        CLUSTER-IP      EXTERNAL-IP   PORT(S)   AGE
            service/web   ClusterIP   10.96.222.144   <none>        80/TCP    20s

            NAME                  READY   UP-TO-DATE   AVAILABLE   AGE
            deployment.apps/web   2/2     2            2           20s

            NAME                 TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE
            service/kubernetes   ClusterIP   10.96.0.1    <none>        443/TCP   20s
            (exit status 0)
            [20012ms-20012ms] $ kubectl get svc,deploy nope -o json
              > kubectl sends GET /api/v1/namespaces/default/services/nope
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/nope
            {
                "apiVersion": "v1",
                "items": [],
                "kind": "List",
                "metadata": {
                    "resourceVersion": ""
                }
            }
            Error from server (NotFound): services "nope" not found
            Error from server (NotFound): deployments.apps "nope" not found
            (exit status 1)
            [20012ms-20012ms] $ kubectl get pod/nope -o yaml
              > kubectl sends GET /api/v1/namespaces/default/pods/nope
            Error from server (NotFound): pods "nope" not found
            (exit status 1)
            [20012ms-20012ms] $ kubectl get svc/nope svc/web -o name
              > kubectl sends GET /api/v1/namespaces/default/services/nope
              > kubectl sends GET /api/v1/namespaces/default/services/web
            service/web
            Error from server (NotFound): services "nope" not found
            (exit status 1)
        "#]]
        .assert_eq(&transcript(None, &script));
    }

    /// `delete` and `describe` of several types; kubectl's builder errors.
    #[test]
    fn delete_and_describe_several_types() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{APP}EOF\nsleep 20s\nkubectl describe deploy,svc web\nkubectl describe svc,deploy kubernetes\nkubectl describe svc web --show-events=false\nkubectl describe deploy,svc nope\nkubectl get deploy/web,svc/web\nkubectl get all web\nkubectl get pods,svc -w\nkubectl get deploy,svc web -l app=web\nkubectl get deploy,widgets\nkubectl get deploy svc/web\nkubectl get pods web -A\nkubectl delete pods,svc -l app=nothing\nkubectl delete svc,nodes nope -n default\nkubectl delete deployment,service web\nkubectl get deployment,service\nkubectl delete rs,pods --all --wait=false\nkubectl delete svc kubernetes\n"
        );
        expect![[r#"
            [0ms-12ms] $ kubectl apply -f -
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends POST /apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /api/v1/namespaces/default/services/web
              > kubectl sends POST /api/v1/namespaces/default/services?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            deployment.apps/web created
            service/web created
            (exit status 0)
            [12ms-20012ms] $ sleep 20s
            (exit status 0)
            [20012ms-20012ms] $ kubectl describe deploy,svc web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends GET /api/v1/namespaces/default/services/web
            Name:                   web
            Namespace:              default
            CreationTimestamp:      Thu, 01 Jan 2026 00:00:00 +0000
            Labels:                 <none>
            Annotations:            deployment.kubernetes.io/revision: 1
            Selector:               app=web
            Replicas:               2 desired | 2 updated | 2 total | 2 available | 0 unavailable
            StrategyType:           RollingUpdate
            MinReadySeconds:        0
            RollingUpdateStrategy:  25% max unavailable, 25% max surge
            Pod Template:
              Labels:  app=web
              Containers:
               nginx:
                Image:         nginx:1.29
                Port:          <none>
                Host Port:     <none>
                Environment:   <none>
                Mounts:        <none>
              Volumes:         <none>
              Node-Selectors:  <none>
              Tolerations:     <none>
            Conditions:
              Type           Status  Reason
              ----           ------  ------
              Available      True    MinimumReplicasAvailable
              Progressing    True    NewReplicaSetAvailable
            OldReplicaSets:  <none>
            NewReplicaSet:   web-7c64c74567 (2/2 replicas created)


            Name:                     web
            Namespace:                default
            Labels:                   app=web
            Annotations:              <none>
            Selector:                 app=web
            Type:                     ClusterIP
            IP Family Policy:         SingleStack
            IP Families:              IPv4
            IP:                       10.96.222.144
            IPs:                      10.96.222.144
            Port:                     <unset>  80/TCP
            TargetPort:               80/TCP
            Endpoints:                10.244.2.2:80,10.244.1.2:80
            Session Affinity:         None
            Internal Traffic Policy:  Cluster
            (exit status 0)
            [20012ms-20012ms] $ kubectl describe svc,deploy kubernetes
              > kubectl sends GET /api/v1/namespaces/default/services/kubernetes
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/kubernetes
            error: you may only specify a single resource type
            (exit status 1)
            [20012ms-20012ms] $ kubectl describe svc web --show-events=false
              > kubectl sends GET /api/v1/namespaces/default/services/web
            Name:                     web
            Namespace:                default
            Labels:                   app=web
            Annotations:              <none>
            Selector:                 app=web
            Type:                     ClusterIP
            IP Family Policy:         SingleStack
            IP Families:              IPv4
            IP:                       10.96.222.144
            IPs:                      10.96.222.144
            Port:                     <unset>  80/TCP
            TargetPort:               80/TCP
            Endpoints:                10.244.2.2:80,10.244.1.2:80
            Session Affinity:         None
            Internal Traffic Policy:  Cluster
            (exit status 0)
            [20012ms-20012ms] $ kubectl describe deploy,svc nope
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/nope
              > kubectl sends GET /api/v1/namespaces/default/services/nope
            Error from server (NotFound): deployments.apps "nope" not found
            Error from server (NotFound): services "nope" not found
            (exit status 1)
            [20012ms-20012ms] $ kubectl get deploy/web,svc/web
            error: arguments in resource/name form may not have more than one slash
            (exit status 1)
            [20012ms-20012ms] $ kubectl get all web
            error: you must specify only one resource
            (exit status 1)
            [20012ms-20012ms] $ kubectl get pods,svc -w
            error: you may only specify a single resource type
            (exit status 1)
            [20012ms-20012ms] $ kubectl get deploy,svc web -l app=web
            error: selectors and the all flag cannot be used when passing resource/name arguments
            (exit status 1)
            [20012ms-20012ms] $ kubectl get deploy,widgets
            error: the server doesn't have a resource type "widgets"
            (exit status 1)
            [20012ms-20012ms] $ kubectl get deploy svc/web
            error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'
            (exit status 1)
            [20012ms-20012ms] $ kubectl get pods web -A
            error: a resource cannot be retrieved by name across all namespaces
            (exit status 1)
            [20012ms-20012ms] $ kubectl delete pods,svc -l app=nothing
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
              > kubectl sends GET /api/v1/namespaces/default/services?limit=500
            No resources found
            (exit status 0)
            [20012ms-20012ms] $ kubectl delete svc,nodes nope -n default
              > kubectl sends DELETE /api/v1/namespaces/default/services/nope
              > kubectl sends DELETE /api/v1/nodes/nope
            Warning: deleting cluster-scoped resources, not scoped to the provided namespace
            Error from server (NotFound): services "nope" not found
            Error from server (NotFound): nodes "nope" not found
            (exit status 1)
            [20012ms-20012ms] $ kubectl delete deployment,service web
              > kubectl sends DELETE /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends DELETE /api/v1/namespaces/default/services/web
            deployment.apps "web" deleted from default namespace
            service "web" deleted from default namespace
            (exit status 0)
            [20012ms-20012ms] $ kubectl get deployment,service
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments?limit=500
              > kubectl sends GET /api/v1/namespaces/default/services?limit=500
            NAME                 TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE
            service/kubernetes   ClusterIP   10.96.0.1    <none>        443/TCP   20s
            (exit status 0)
            [20012ms-20012ms] $ kubectl delete rs,pods --all --wait=false
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets?limit=500
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
              > kubectl sends DELETE /apis/apps/v1/namespaces/default/replicasets/web-7c64c74567
              > kubectl sends DELETE /api/v1/namespaces/default/pods/web-7c64c74567-9vtnp
              > kubectl sends DELETE /api/v1/namespaces/default/pods/web-7c64c74567-pgw5x
            replicaset.apps "web-7c64c74567" deleted from default namespace
            pod "web-7c64c74567-9vtnp" deleted from default namespace
            pod "web-7c64c74567-pgw5x" deleted from default namespace
            (exit status 0)
            [20012ms-20012ms] $ kubectl delete svc kubernetes
              > kubectl sends DELETE /api/v1/namespaces/default/services/kubernetes
            service "kubernetes" deleted from default namespace
            podlab: a real kube-apiserver creates the default/kubernetes Service again (its kubernetes-service controller keeps it, with the API server's address); the lab does not model that controller, so the Service stays deleted
            (exit status 0)
        "#]].assert_eq(&transcript(None, &script));
    }
}
