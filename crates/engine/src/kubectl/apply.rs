//! `kubectl apply -f FILE` (client-side apply), per document of the file, in order:
//!
//! 1. The object's namespace is the file's `metadata.namespace`, or kubectl's context namespace
//!    for namespaced kinds (the object sent carries it); cluster-scoped objects have none.
//! 2. kubectl adds the `kubectl.kubernetes.io/last-applied-configuration` annotation: the
//!    object as in the file (with the namespace kubectl set, and an empty `annotations` map
//!    where the file had none), as compact JSON with keys sorted and a final newline, as Go's
//!    `json.Marshal` of an unstructured object writes it. The request body is the object with
//!    that annotation, keys sorted the same way.
//! 3. `GET <object path>`: a 404 means "create": `POST <collection path>
//!    ?fieldManager=kubectl-client-side-apply&fieldValidation=Strict`, printing
//!    `<kind>[.<group>]/<name> created`. Any other failure of the GET is reported as `error when
//!    retrieving current configuration of: ...` (a user without `get` is stopped here, before
//!    the create).
//! 4. When the object exists, kubectl computes a three-way patch between the last applied
//!    configuration (from the live object's annotation), the file and the live object
//!    ([`crate::apiserver::strategic::three_way`], a simplified strategic merge): nothing to do
//!    prints `<kind>/<name> unchanged` without a request; otherwise `PATCH` with
//!    `application/strategic-merge-patch+json` prints `<kind>/<name> configured`. A live object
//!    without the annotation gets kubectl's warning that it will be patched in.
//!
//! Responses' `Warning:` headers are printed on standard error as they arrive (`Warning:
//! <text>`). Errors are collected and printed at the end, client-side errors (unreadable
//! documents, unknown kinds) first, then the server's in document order; kubectl goes on after
//! an error and exits 1 at the end. A 401 is different: kubectl would already have failed at
//! API discovery, before sending any object, so the lab stops at the first 401 and prints only
//! `error: You must be logged in to the server (Unauthorized)` (the trace shows the refused
//! request as the object's GET, since discovery is not modelled).
//!
//! kubectl's round trips take [`ROUND_TRIP_MS`] of logical time; documents are processed one
//! after the other.

use super::client::{read_file, ClientDocument, ClientObject};
use crate::apiserver::{self, kind_for_output, strategic, ApiRequest, ApiResponse, Caller, Verb};
use crate::errors::{apply_get_verb, kubectl_stderr, CommandError, Status, StatusReason};
use crate::object::Object;
use crate::sim::{Actor, Core, Target, Task};
use crate::store::WatchEvent;
use crate::trace::{Detail, ObjectRef, Phase, StepStatus};
use crate::world::World;
use serde::Serialize;
use serde_json::{Map, Value};

/// The annotation client-side apply keeps the last applied configuration in.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// Logical time between a response and kubectl's next request.
pub const ROUND_TRIP_MS: u64 = 4;

/// What happened to one document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Operation {
    Created,
    Configured,
    Unchanged,
    /// Refused by the server or by kubectl itself.
    Failed,
    /// Never sent (kubectl stopped before it).
    Skipped,
}

/// One document of the file and its outcome.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DocumentResult {
    /// Position among the file's documents, from 0.
    pub index: usize,
    /// 1-based line where the document starts.
    pub line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<ObjectRef>,
    pub operation: Operation,
    /// What kubectl prints for this document (`pod/web created`, or its error text).
    pub outcome: String,
    pub accepted: bool,
    /// The HTTP status of the last request for this document (0 when none was sent).
    pub code: u16,
    /// The ids of the requests sent for this document (steps carry them).
    pub request_ids: Vec<u32>,
    /// The Status reason when the server refused it (`Forbidden`, `Invalid`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The step where kubectl refused the document itself (before sending it), if it did.
    #[serde(skip)]
    pub refused_at_step: Option<usize>,
}

/// Which of kubectl's file commands runs: `apply` (GET, then create or patch), `create`
/// (POST only, no last-applied annotation: an existing object is AlreadyExists) or `replace`
/// (PUT of the object as in the file: a missing object is NotFound).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FileVerb {
    #[default]
    Apply,
    Create,
    Replace,
}

/// kubectl's `--dry-run` strategy (`cmdutil.DryRunStrategy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DryRun {
    #[default]
    None,
    /// `--dry-run=client`: kubectl prints what it would do and sends no write (apply still
    /// reads the live object to know whether it would create or patch it).
    Client,
    /// `--dry-run=server`: every write carries `dryRun=All` (the caller's
    /// [`crate::apiserver::KubectlCommand::dry_run`]); the server answers and stores nothing.
    Server,
}

impl DryRun {
    /// What kubectl appends to a success line (`PrintFlagsWithDryRunStrategy`).
    pub fn suffix(self) -> &'static str {
        match self {
            DryRun::None => "",
            DryRun::Client => " (dry run)",
            DryRun::Server => " (server dry run)",
        }
    }
}

/// What kubectl prints for each object it handled (`-o`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Printing {
    /// `kind/name created` (the default).
    #[default]
    Operation,
    /// `-o name`: `kind/name`.
    Name,
    /// `-o yaml|json`: no line; the objects are kept in [`KubectlApply::printed`].
    Objects,
}

/// How kubectl is invoked.
#[derive(Clone, Debug, PartialEq)]
pub struct ApplyOptions {
    /// The file name as given to `-f`.
    pub file: String,
    pub manifest: String,
    /// kubectl's credentials and `--as`/`--as-group`.
    pub caller: Caller,
    /// The context namespace.
    pub namespace: String,
}

/// One line of kubectl's output, with when it was printed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutputLine {
    pub time_ms: u64,
    /// The index of the last step recorded when the line was printed (the response it
    /// reports); `None` when it was printed before any step.
    pub after_step: Option<usize>,
    pub stderr: bool,
    pub text: String,
}

enum Pending {
    Client(String),
    Ready(ClientObject),
}

/// The `kubectl apply` actor.
pub struct KubectlApply {
    opts: ApplyOptions,
    docs: Vec<(ClientDocument, Pending)>,
    stream_error: Option<String>,
    pub results: Vec<DocumentResult>,
    /// Lines printed as they happened (successes on stdout, warnings on stderr).
    pub lines: Vec<OutputLine>,
    /// Errors in the order kubectl prints them at the end.
    client_errors: Vec<(usize, CommandError)>,
    server_errors: Vec<(usize, CommandError)>,
    unauthorized: bool,
    /// The modified configuration (body) of the document being applied.
    current_body: Option<Value>,
    verb: FileVerb,
    dry_run: DryRun,
    printing: Printing,
    /// The object kubectl holds for each document it handled, in order (the server's answer,
    /// or with `--dry-run=client` the object as kubectl would send it), for `-o yaml|json`.
    pub printed: Vec<Value>,
}

/// Sorts the keys of every object in `v`, at every level, in place (the order in which Go's
/// encoding/json writes a map).
pub(crate) fn sort_keys(v: &mut Value) {
    match v {
        Value::Object(m) => {
            let mut entries: Vec<(String, Value)> = std::mem::take(m).into_iter().collect();
            crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
            for (k, mut value) in entries {
                sort_keys(&mut value);
                m.insert(k, value);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(sort_keys),
        _ => {}
    }
}

/// The object kubectl sends for `obj` in `namespace`: namespace set, last-applied annotation
/// added, keys sorted.
pub fn modified_configuration(obj: &ClientObject, namespace: Option<&str>) -> Value {
    let mut v = obj.body.clone();
    if let (Some(ns), Some(m)) = (namespace, v.get_mut("metadata").and_then(Value::as_object_mut)) {
        m.insert("namespace".into(), Value::String(ns.to_string()));
    }
    // The annotation's value is the object without the annotation itself.
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        let ann = m.entry("annotations").or_insert_with(|| Value::Object(Map::new()));
        if let Some(a) = ann.as_object_mut() {
            a.remove(LAST_APPLIED);
        } else {
            *ann = Value::Object(Map::new());
        }
    }
    sort_keys(&mut v);
    let text = format!("{}\n", crate::errors::go_json(&v));
    if let Some(a) = v.pointer_mut("/metadata/annotations") {
        if let Some(m) = a.as_object_mut() {
            m.insert(LAST_APPLIED.into(), Value::String(text));
        }
        sort_keys(a);
    }
    v
}

impl KubectlApply {
    pub fn new(opts: ApplyOptions) -> KubectlApply {
        let file = read_file(&opts.manifest, &opts.file);
        let docs = file
            .documents
            .into_iter()
            .map(|d| {
                let pending = match &d.object {
                    Ok(o) => Pending::Ready(o.clone()),
                    Err(e) => Pending::Client(e.clone()),
                };
                (d, pending)
            })
            .collect();
        KubectlApply {
            opts,
            docs,
            stream_error: file.stream_error,
            results: vec![],
            lines: vec![],
            client_errors: vec![],
            server_errors: vec![],
            unauthorized: false,
            current_body: None,
            verb: FileVerb::Apply,
            dry_run: DryRun::None,
            printing: Printing::Operation,
            printed: vec![],
        }
    }

    /// The same client with `--dry-run` (a server dry run also needs the caller's command
    /// marked, see [`DryRun::Server`]).
    pub fn with_dry_run(mut self, dry_run: DryRun) -> KubectlApply {
        self.dry_run = dry_run;
        self
    }

    /// The same client printing as `-o` asks.
    pub fn with_printing(mut self, printing: Printing) -> KubectlApply {
        self.printing = printing;
        self
    }

    /// A document handled: the line kubectl prints (`deployment.apps/web created`, with the
    /// dry run's suffix; `-o name` prints the name alone, `-o yaml|json` nothing), kept as the
    /// response's annotation; `object` is what `-o yaml|json` prints.
    fn success(&mut self, core: &mut World, rid: u32, name: &str, operation: &str, object: Option<Value>) -> String {
        let text = format!("{name} {operation}{}", self.dry_run.suffix());
        if rid != 0 {
            Self::annotate_response(core, rid, &text);
        }
        match self.printing {
            Printing::Operation => self.print(core, false, text.clone()),
            Printing::Name => self.print(core, false, name.to_string()),
            Printing::Objects => {}
        }
        if let Some(o) = object {
            self.printed.push(o);
        }
        text
    }

    /// A step for what kubectl does not send with `--dry-run=client`.
    fn client_dry_run_step(&self, core: &mut World, obj: &ClientObject, what: &str) {
        let text = format!(
            "--dry-run=client: kubectl prints what it would do and does not send the {what} of {}/{}",
            kind_for_output(obj.resource),
            obj.name
        );
        core.record(
            crate::sim::StepBuilder::new(
                Phase::Request,
                crate::trace::Component::Kubectl,
                crate::trace::Component::Kubectl,
                text.clone(),
                Detail::Note { text },
            )
            .object(Some(self.object_ref(obj))),
        );
    }

    /// The same client running `kubectl create -f` or `kubectl replace -f` instead.
    pub fn with_verb(mut self, verb: FileVerb) -> KubectlApply {
        self.verb = verb;
        self
    }

    /// Reads the file (kubectl maps every document before it sends anything: documents it
    /// cannot read or map become client-side errors right away) and queues the first request.
    pub fn start(&mut self, core: &mut World) {
        for i in 0..self.docs.len() {
            if let Pending::Client(e) = &self.docs[i].1 {
                let e = e.clone();
                self.client_error(core, i, e, false);
            }
        }
        if let Some(e) = self.stream_error.clone() {
            core.record(
                crate::sim::StepBuilder::new(
                    Phase::Request,
                    crate::trace::Component::Kubectl,
                    crate::trace::Component::Kubectl,
                    format!("kubectl stops reading {}: {}", self.opts.file, first_line(&e)),
                    Detail::Note { text: e },
                )
                .status(StepStatus::Failed),
            );
        }
        self.next(core, 0, 0);
    }

    /// The number of documents kubectl read.
    pub fn document_count(&self) -> usize {
        self.docs.len()
    }

    fn wants_objects(&self) -> bool {
        self.printing == Printing::Objects
    }

    fn print(&mut self, core: &Core, stderr: bool, text: String) {
        self.lines.push(OutputLine { time_ms: core.now, after_step: core.steps.len().checked_sub(1), stderr, text });
    }

    fn namespace_for(&self, obj: &ClientObject) -> Option<String> {
        if obj.resource.namespaced {
            Some(obj.namespace.clone().filter(|n| !n.is_empty()).unwrap_or_else(|| self.opts.namespace.clone()))
        } else {
            None
        }
    }

    fn object_ref(&self, obj: &ClientObject) -> ObjectRef {
        ObjectRef { kind: obj.resource.kind.to_string(), namespace: self.namespace_for(obj), name: obj.name.clone() }
    }

    fn request(&self, verb: Verb, obj: &ClientObject, body: Option<Value>) -> ApiRequest {
        ApiRequest {
            caller: self.opts.caller.clone(),
            verb,
            resource: obj.resource,
            namespace: self.namespace_for(obj),
            name: Some(obj.name.clone()),
            subresource: None,
            body: body.map(apiserver::Body::Json),
            verbose: true,
            file: Some(self.opts.file.clone()),
        }
    }

    /// Queues the next document kubectl can send, from `index` on.
    fn next(&self, core: &mut World, index: usize, delay: u64) {
        if self.unauthorized {
            return;
        }
        if let Some(i) = (index..self.docs.len()).find(|&i| matches!(self.docs[i].1, Pending::Ready(_))) {
            core.after(delay, Task::new(Target::Kubectl, format!("doc/{i}/get")));
        }
    }

    /// The id of the request `handle` just served (its steps are the last ones recorded).
    fn last_request_id(core: &Core) -> u32 {
        core.steps.iter().rev().find_map(|s| s.request_id).unwrap_or(0)
    }

    /// Sets what kubectl prints on the response step of a request.
    fn annotate_response(core: &mut World, request_id: u32, text: &str) {
        if let Some(step) = core.steps.iter_mut().rev().find(|s| s.request_id == Some(request_id)) {
            if let Detail::Response(r) = &mut step.detail {
                r.kubectl = text.to_string();
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn result(
        &mut self,
        index: usize,
        object: Option<ObjectRef>,
        operation: Operation,
        outcome: String,
        code: u16,
        ids: Vec<u32>,
        reason: Option<StatusReason>,
    ) {
        let line = self.docs.get(index).map(|(d, _)| d.line).unwrap_or(1);
        let accepted = matches!(operation, Operation::Created | Operation::Configured | Operation::Unchanged);
        self.results.push(DocumentResult {
            index,
            line,
            object,
            operation,
            outcome,
            accepted,
            code,
            request_ids: ids,
            reason: reason.map(|r| r.as_str().to_string()).filter(|r| !r.is_empty()),
            refused_at_step: None,
        });
    }

    fn server_error(
        &mut self,
        core: &mut World,
        index: usize,
        obj: &ClientObject,
        verb_text: &str,
        resp: &ApiResponse,
        ids: Vec<u32>,
    ) {
        let Some(status) = resp.error.clone() else { return };
        let rid = ids.last().copied().unwrap_or(0);
        if status.reason == StatusReason::Unauthorized {
            self.unauthorized = true;
            let text = "error: You must be logged in to the server (Unauthorized)".to_string();
            Self::annotate_response(core, rid, &text);
            self.result(
                index,
                Some(self.object_ref(obj)),
                Operation::Failed,
                text,
                resp.code,
                ids,
                Some(status.reason),
            );
            return;
        }
        let wrapped: Status = status.with_source(verb_text, &self.opts.file);
        let single = kubectl_stderr(&[CommandError::Server(wrapped.clone())]);
        Self::annotate_response(core, rid, single.trim_end());
        self.server_errors.push((index, CommandError::Server(wrapped)));
        self.result(
            index,
            Some(self.object_ref(obj)),
            Operation::Failed,
            String::new(),
            resp.code,
            ids,
            Some(status.reason),
        );
    }

    fn warnings(&mut self, core: &Core, resp: &ApiResponse) {
        for w in &resp.warnings {
            self.lines.push(OutputLine {
                time_ms: core.now,
                after_step: core.steps.len().checked_sub(1),
                stderr: true,
                text: format!("Warning: {w}"),
            });
        }
    }

    /// A document kubectl refuses itself: while reading the file (`in_loop == false`; these
    /// errors are printed first) or in the apply loop (printed in document order with the
    /// server's).
    fn client_error(&mut self, core: &mut World, index: usize, text: String, in_loop: bool) {
        let (doc, _) = &self.docs[index];
        let summary = format!("kubectl cannot use document {} (line {}): {}", index + 1, doc.line, first_line(&text));
        let object = doc.name.clone().map(|name| ObjectRef { kind: doc.kind.clone(), namespace: None, name });
        let step = core.record(
            crate::sim::StepBuilder::new(
                Phase::Request,
                crate::trace::Component::Kubectl,
                crate::trace::Component::Kubectl,
                summary,
                Detail::Note { text: text.clone() },
            )
            .object(object.clone())
            .status(StepStatus::Failed),
        );
        if in_loop {
            self.server_errors.push((index, CommandError::Client(text)));
        } else {
            self.client_errors.push((index, CommandError::Client(text)));
        }
        self.result(index, object, Operation::Failed, String::new(), 0, vec![], None);
        if let Some(r) = self.results.last_mut() {
            r.refused_at_step = Some(step);
        }
    }

    fn run_get(&mut self, core: &mut World, index: usize) {
        let obj = match &self.docs[index].1 {
            Pending::Client(_) => return,
            Pending::Ready(o) => o.clone(),
        };
        let ns = self.namespace_for(&obj);
        if self.verb != FileVerb::Apply {
            // create and replace send the object as the file has it, with the namespace kubectl
            // chose, and no GET first.
            let mut body = obj.body.clone();
            if let (Some(n), Some(m)) = (&ns, body.get_mut("metadata").and_then(Value::as_object_mut)) {
                m.insert("namespace".into(), Value::String(n.clone()));
            }
            sort_keys(&mut body);
            self.current_body = Some(body);
            if self.dry_run == DryRun::Client {
                let (what, operation, result) = match self.verb {
                    FileVerb::Create => ("POST", "created", Operation::Created),
                    _ => ("PUT", "replaced", Operation::Configured),
                };
                self.client_dry_run_step(core, &obj, what);
                let name = format!("{}/{}", kind_for_output(obj.resource), obj.name);
                let text = self.success(core, 0, &name, operation, self.current_body.clone());
                self.result(index, Some(self.object_ref(&obj)), result, text, 0, vec![], None);
                self.next(core, index + 1, 0);
                return;
            }
            if self.verb == FileVerb::Create {
                self.run_create(core, index, 0);
            } else {
                self.run_replace(core, index);
            }
            return;
        }
        if obj.name.is_empty() {
            // kubectl apply's own refusal (generateName, or no name at all), in the apply loop.
            let mut body = obj.body.clone();
            if let (Some(n), Some(b)) = (&ns, body.as_object_mut()) {
                let meta = b.entry("metadata").or_insert_with(|| Value::Object(Map::new()));
                if let Some(m) = meta.as_object_mut() {
                    m.insert("namespace".into(), Value::String(n.clone()));
                }
            }
            let api_version = obj.resource.api_version();
            let text = Object::from_json(&api_version, obj.resource.kind, body)
                .ok()
                .and_then(|o| crate::decode::apply_client_check(&o, &self.opts.file))
                .unwrap_or_else(|| "resource name may not be empty".to_string());
            self.client_error(core, index, text, true);
            self.next(core, index + 1, 0);
            return;
        }
        self.current_body = Some(modified_configuration(&obj, ns.as_deref()));
        let resp = apiserver::handle(core, self.request(Verb::Get, &obj, None));
        let rid = Self::last_request_id(core);
        let ids = vec![rid];
        if resp.ok() {
            self.patch_or_unchanged(core, index, &obj, resp, ids);
        } else if resp.is_not_found() {
            Self::annotate_response(core, rid, "");
            core.after(ROUND_TRIP_MS, Task::new(Target::Kubectl, format!("doc/{index}/create/{}", rid)));
        } else {
            let verb = apply_get_verb(obj.resource, &obj.name, ns.as_deref().unwrap_or(""));
            self.server_error(core, index, &obj, &verb, &resp, ids);
            self.next(core, index + 1, ROUND_TRIP_MS);
        }
    }

    fn run_create(&mut self, core: &mut World, index: usize, get_id: u32) {
        let Pending::Ready(obj) = &self.docs[index].1 else { return };
        let obj = obj.clone();
        let body = self.current_body.clone();
        if self.dry_run == DryRun::Client {
            // apply's create half with --dry-run=client: the GET was sent, the POST is not.
            self.client_dry_run_step(core, &obj, "POST");
            let name = format!("{}/{}", kind_for_output(obj.resource), obj.name);
            let text = self.success(core, 0, &name, "created", body);
            self.result(index, Some(self.object_ref(&obj)), Operation::Created, text, 0, vec![get_id], None);
            self.next(core, index + 1, 0);
            return;
        }
        let resp = apiserver::handle(core, self.request(Verb::Create, &obj, body));
        let rid = Self::last_request_id(core);
        let ids = if get_id == 0 { vec![rid] } else { vec![get_id, rid] };
        self.warnings(core, &resp);
        if resp.ok() {
            let name = format!(
                "{}/{}",
                kind_for_output(obj.resource),
                resp.object_identity().map(Object::name).unwrap_or(&obj.name)
            );
            let returned = self.wants_objects().then(|| resp.clone().into_object().map(|o| o.to_json())).flatten();
            let text = self.success(core, rid, &name, "created", returned);
            let oref = resp.object_identity().map(crate::sim::object_ref).unwrap_or_else(|| self.object_ref(&obj));
            self.result(index, Some(oref), Operation::Created, text, resp.code, ids, None);
        } else {
            self.server_error(core, index, &obj, "creating", &resp, ids);
        }
        self.next(core, index + 1, ROUND_TRIP_MS);
    }

    /// `kubectl replace -f`: a PUT of the object as the file has it.
    fn run_replace(&mut self, core: &mut World, index: usize) {
        let Pending::Ready(obj) = &self.docs[index].1 else { return };
        let obj = obj.clone();
        let body = self.current_body.clone();
        let resp = apiserver::handle(core, self.request(Verb::Update, &obj, body));
        let rid = Self::last_request_id(core);
        self.warnings(core, &resp);
        if resp.ok() {
            let name = format!("{}/{}", kind_for_output(obj.resource), obj.name);
            let returned = self.wants_objects().then(|| resp.clone().into_object().map(|o| o.to_json())).flatten();
            let text = self.success(core, rid, &name, "replaced", returned);
            let oref = resp.object_identity().map(crate::sim::object_ref).unwrap_or_else(|| self.object_ref(&obj));
            self.result(index, Some(oref), Operation::Configured, text, resp.code, vec![rid], None);
        } else {
            self.server_error(core, index, &obj, "replacing", &resp, vec![rid]);
        }
        self.next(core, index + 1, ROUND_TRIP_MS);
    }

    fn patch_or_unchanged(
        &mut self,
        core: &mut World,
        index: usize,
        obj: &ClientObject,
        live: ApiResponse,
        ids: Vec<u32>,
    ) {
        let code = live.code;
        let Some(live_obj) = live.into_object() else { return };
        let rid = ids.last().copied().unwrap_or(0);
        let current = live_obj.to_json();
        let original: Option<Value> = current
            .pointer(&format!("/metadata/annotations/{}", LAST_APPLIED.replace('/', "~1")))
            .and_then(Value::as_str)
            .and_then(|s| serde_json::from_str(s).ok());
        let modified = self.current_body.clone().unwrap_or(Value::Null);
        let name = format!("{}/{}", kind_for_output(obj.resource), obj.name);
        if original.is_none() {
            let text = format!(
                "Warning: resource {}/{} is missing the {LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.",
                obj.resource.plural, obj.name
            );
            self.print(core, true, text);
        }
        let patch = strategic::three_way(original.as_ref(), &modified, &current);
        if patch.as_object().is_some_and(Map::is_empty) {
            let text = self.success(core, rid, &name, "unchanged", Some(current));
            self.result(index, Some(crate::sim::object_ref(&live_obj)), Operation::Unchanged, text, code, ids, None);
            self.next(core, index + 1, ROUND_TRIP_MS);
            return;
        }
        let mut patch = patch;
        sort_keys(&mut patch);
        if self.dry_run == DryRun::Client {
            // `PatchLocal`: the patch applied to the live object by kubectl itself.
            Self::annotate_response(core, rid, "");
            self.client_dry_run_step(core, obj, "PATCH");
            let mut patched = current;
            strategic::merge(&mut patched, &patch);
            let text = self.success(core, 0, &name, "configured", Some(patched));
            self.result(index, Some(crate::sim::object_ref(&live_obj)), Operation::Configured, text, code, ids, None);
            self.next(core, index + 1, 0);
            return;
        }
        Self::annotate_response(core, rid, "");
        let _ = self.current_body.replace(patch);
        core.after(ROUND_TRIP_MS, Task::new(Target::Kubectl, format!("doc/{index}/patch/{}", rid)));
    }

    fn run_patch(&mut self, core: &mut World, index: usize, get_id: u32) {
        let Pending::Ready(obj) = &self.docs[index].1 else { return };
        let obj = obj.clone();
        let patch = self.current_body.clone();
        let resp = apiserver::handle(core, self.request(Verb::Patch, &obj, patch.clone()));
        let rid = Self::last_request_id(core);
        let ids = vec![get_id, rid];
        self.warnings(core, &resp);
        if resp.ok() {
            let name = format!("{}/{}", kind_for_output(obj.resource), obj.name);
            let returned = self.wants_objects().then(|| resp.clone().into_object().map(|o| o.to_json())).flatten();
            let text = self.success(core, rid, &name, "configured", returned);
            let oref = resp.object_identity().map(crate::sim::object_ref).unwrap_or_else(|| self.object_ref(&obj));
            self.result(index, Some(oref), Operation::Configured, text, resp.code, ids, None);
        } else {
            let ns = self.namespace_for(&obj);
            let get_verb = apply_get_verb(obj.resource, &obj.name, ns.as_deref().unwrap_or(""));
            let info = get_verb
                .strip_prefix("retrieving current configuration of:\n")
                .and_then(|s| s.strip_suffix("\nfrom server for:"))
                .unwrap_or("")
                .to_string();
            let patch_text = patch.as_ref().map(crate::errors::go_json).unwrap_or_default();
            let verb = format!("applying patch:\n{patch_text}\nto:\n{info}\nfor:");
            self.server_error(core, index, &obj, &verb, &resp, ids);
        }
        self.next(core, index + 1, ROUND_TRIP_MS);
    }

    /// Everything kubectl printed, and its exit code. Call after the run.
    pub fn finish(&mut self) -> (String, String, String, i32) {
        // Documents never reached (after a 401) are skipped.
        let done: Vec<usize> = self.results.iter().map(|r| r.index).collect();
        for i in 0..self.docs.len() {
            if !done.contains(&i) {
                let object = self.docs[i].0.name.clone().map(|name| ObjectRef {
                    kind: self.docs[i].0.kind.clone(),
                    namespace: None,
                    name,
                });
                self.result(i, object, Operation::Skipped, String::new(), 0, vec![], None);
            }
        }
        crate::sort::sort_by_key(&mut self.results, |r| r.index);
        let mut errors: Vec<(usize, CommandError)> = Vec::new();
        errors.extend(self.client_errors.iter().cloned());
        if let Some(e) = &self.stream_error {
            errors.push((usize::MAX, CommandError::Client(e.clone())));
        }
        errors.extend(self.server_errors.iter().cloned());
        let mut stdout = String::new();
        let mut stderr = String::new();
        let mut merged = String::new();
        for l in &self.lines {
            let s = format!("{}\n", l.text);
            if l.stderr {
                stderr.push_str(&s);
            } else {
                stdout.push_str(&s);
            }
            merged.push_str(&s);
        }
        let mut exit = 0;
        if self.unauthorized {
            let s = "error: You must be logged in to the server (Unauthorized)\n";
            stderr.push_str(s);
            merged.push_str(s);
            exit = 1;
        } else if !errors.is_empty() {
            let list: Vec<CommandError> = errors.iter().map(|(_, e)| e.clone()).collect();
            let text = kubectl_stderr(&list);
            stderr.push_str(&text);
            merged.push_str(&text);
            exit = 1;
            // Each failed document's outcome is its line(s) of that output.
            for (i, e) in &errors {
                let own = if list.len() == 1 { text.trim_end().to_string() } else { standard_line(e) };
                if let Some(r) = self.results.iter_mut().find(|r| r.index == *i && r.outcome.is_empty()) {
                    r.outcome = own;
                }
            }
        } else if self.docs.is_empty() {
            let verb = match self.verb {
                FileVerb::Apply => "apply",
                FileVerb::Create => "create",
                FileVerb::Replace => "replace",
            };
            let s = format!("error: no objects passed to {verb}\n");
            stderr.push_str(&s);
            merged.push_str(&s);
            exit = 1;
        }
        if self.results.iter().any(|r| !r.accepted) {
            exit = 1;
        }
        (stdout, stderr, merged, exit)
    }
}

/// How kubectl prints one error among several (one line each, `StandardErrorMessage`).
fn standard_line(e: &CommandError) -> String {
    // kubectl_stderr renders a list of two or more errors one per line, in that form.
    let pair = [e.clone(), CommandError::Client(String::new())];
    let text = kubectl_stderr(&pair);
    let n = text.lines().count().saturating_sub(1);
    text.lines().take(n).collect::<Vec<_>>().join("\n")
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

impl Actor<World> for KubectlApply {
    fn handles(&self, target: &Target) -> bool {
        *target == Target::Kubectl
    }

    fn observe(&mut self, _core: &mut World, _event: &WatchEvent<Object>) {}

    fn run(&mut self, core: &mut World, task: &Task) {
        let parts: Vec<&str> = task.key.split('/').collect();
        let index = parts.get(1).and_then(|s| s.parse::<usize>().ok()).unwrap_or(usize::MAX);
        if index >= self.docs.len() || self.unauthorized {
            return;
        }
        let prior = parts.get(3).and_then(|s| s.parse::<u32>().ok()).unwrap_or(0);
        match parts.get(2).copied() {
            Some("get") => self.run_get(core, index),
            Some("create") => self.run_create(core, index, prior),
            Some("patch") => self.run_patch(core, index, prior),
            _ => {}
        }
    }
}
