//! `kubectl get pods -w`: the list at the start of the watch (header and rows, if any), then
//! one row per watch event — ADDED, MODIFIED (even when nothing visible changed) and DELETED
//! (the last state) — each printed and flushed on its own through the same tab writer, so
//! columns only ever grow. The API server converts each event's object into a table row
//! when it sends the event, so a row's AGE is the age at that moment.

use super::format::Clock;
use super::pods::{pod_row, POD_COLUMNS};
use super::table::{GetOptions, Table};
use super::tabwriter::TabWriter;
use crate::object::Object;
use crate::store::Store;
use crate::trace::Step;

/// When each etcd revision was written, from the trace (a step records the revision the
/// store had when it happened).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RevisionClock {
    /// `(revision, time_ms)`, revisions increasing: the first time each revision was seen.
    points: Vec<(u64, u64)>,
}

impl RevisionClock {
    pub fn from_steps(steps: &[Step]) -> RevisionClock {
        let mut points: Vec<(u64, u64)> = Vec::new();
        for s in steps {
            if points.last().is_none_or(|(r, _)| s.revision > *r) {
                points.push((s.revision, s.time_ms));
            }
        }
        RevisionClock { points }
    }

    /// From explicit `(revision, time_ms)` pairs.
    pub fn from_points(mut points: Vec<(u64, u64)>) -> RevisionClock {
        crate::sort::sort(&mut points);
        points.dedup_by_key(|p| p.0);
        RevisionClock { points }
    }

    /// The logical time at which `revision` was written, if the trace reached it.
    pub fn time_of(&self, revision: u64) -> Option<u64> {
        let i = self.points.partition_point(|(r, _)| *r < revision);
        self.points.get(i).map(|(_, t)| *t)
    }
}

/// The terminal of `kubectl get pods -w -n <namespace>` started at `from_revision`, after
/// every event up to `to_revision`. Rows whose time the clock does not know use `now_ms`.
pub fn get_pods_watch(
    store: &Store<Object>,
    namespace: &str,
    from_revision: u64,
    to_revision: u64,
    clock: &RevisionClock,
    now_ms: u64,
) -> String {
    let prefix = format!("/registry/pods/{namespace}/");
    let opts = GetOptions::default();
    let at = |rev: u64| Clock::at(clock.time_of(rev).unwrap_or(now_ms).min(now_ms));
    let start = at(from_revision);
    let initial = Table {
        columns: POD_COLUMNS,
        rows: store
            .list_at(&prefix, from_revision)
            .into_iter()
            .filter_map(|(_, o, _)| o.as_pod())
            .map(|p| pod_row(p, start))
            .collect(),
    };
    let mut w = TabWriter::for_tables();
    let mut printed_header = false;
    if !initial.rows.is_empty() {
        w.write(&initial.header_line(opts, false));
        for row in &initial.rows {
            w.write(&initial.row_line(row, opts, false));
        }
        printed_header = true;
    }
    w.flush();
    for event in store.events_since(from_revision) {
        if event.revision > to_revision {
            break;
        }
        if !event.key.starts_with(&prefix) {
            continue;
        }
        let Some(pod) = event.object.as_pod() else { continue };
        let table = Table { columns: POD_COLUMNS, rows: vec![pod_row(pod, at(event.revision))] };
        if !printed_header {
            w.write(&table.header_line(opts, false));
            printed_header = true;
        }
        w.write(&table.row_line(&table.rows[0], opts, false));
        w.flush();
    }
    w.finish()
}

/// The kinds [`table_row`] prints with the printers of `printers.rs` and `pods.rs` (it
/// prints those of [`super::kinds::KINDS`] too: [`has_table_printer`]).
pub const TABLE_KINDS: &[&str] = &[
    "Pod",
    "Deployment",
    "ReplicaSet",
    "StatefulSet",
    "DaemonSet",
    "Job",
    "CronJob",
    "Service",
    "EndpointSlice",
    "Endpoints",
    "Node",
    "Event",
    "PersistentVolumeClaim",
    "PersistentVolume",
    "HorizontalPodAutoscaler",
    "PodDisruptionBudget",
];

/// The API server's table row for one object of any kind the lab prints (`kubectl get`'s
/// columns), with its columns; `None` for a kind without a table printer in the lab.
pub fn table_row(obj: &Object, clock: Clock, wide: bool) -> Option<(&'static [super::Column], super::Row)> {
    use super::printers::{self as p};
    Some(match obj {
        Object::Pod(o) => (POD_COLUMNS, pod_row(o, clock)),
        Object::Deployment(o) => (p::DEPLOYMENT_COLUMNS, p::deployment_row(o, clock)),
        Object::ReplicaSet(o) => (p::REPLICASET_COLUMNS, p::replicaset_row(o, clock)),
        Object::StatefulSet(o) => (p::STATEFULSET_COLUMNS, p::statefulset_row(o, clock)),
        Object::DaemonSet(o) => (p::DAEMONSET_COLUMNS, p::daemonset_row(o, clock)),
        Object::Job(o) => (p::JOB_COLUMNS, p::job_row(o, clock)),
        Object::CronJob(o) => (p::CRONJOB_COLUMNS, p::cronjob_row(o, clock)),
        Object::Service(o) => (p::SERVICE_COLUMNS, p::service_row(o, clock, wide)),
        Object::EndpointSlice(o) => (p::ENDPOINT_SLICE_COLUMNS, p::endpoint_slice_row(o, clock)),
        Object::Node(o) => (p::NODE_COLUMNS, p::node_row(o, clock)),
        Object::Event(o) => (p::EVENT_COLUMNS, p::event_row(o, clock)),
        Object::PersistentVolumeClaim(o) => {
            (p::PERSISTENT_VOLUME_CLAIM_COLUMNS, p::persistent_volume_claim_row(o, clock))
        }
        Object::PersistentVolume(o) => (p::PERSISTENT_VOLUME_COLUMNS, p::persistent_volume_row(o, clock)),
        Object::Other(u) if u.kind == "HorizontalPodAutoscaler" => (p::HPA_COLUMNS, p::hpa_row(u, clock)),
        Object::Other(u) if u.kind == "PodDisruptionBudget" => (p::PDB_COLUMNS, p::pdb_row(u, clock)),
        o if o.kind() == "Endpoints" => {
            let e = crate::decode::from_value::<k8s_openapi::api::core::v1::Endpoints>(&o.to_json()).ok()?;
            (p::ENDPOINTS_COLUMNS, p::endpoints_row(&e, clock))
        }
        o => return super::kinds::kind_row(o, clock),
    })
}

/// Whether `kubectl get` of `kind` has a table printer in the lab.
pub fn has_table_printer(kind: &str) -> bool {
    TABLE_KINDS.contains(&kind) || super::kinds::KINDS.contains(&kind)
}

/// `kubectl get -w`'s human-readable printer: one tab writer for the whole watch, flushed
/// after each object, so columns only grow; the header once, with the first row printed
/// (cli-runtime's `HumanReadablePrinter` keeps the last columns and prints no header for a
/// table with the same ones); with `--output-watch-events` an `EVENT` column first, its cells
/// `ADDED   `, `MODIFIED`, `DELETED ` (padded to eight, as `formatEventType` writes them).
pub struct WatchTable {
    writer: TabWriter,
    opts: GetOptions,
    with_namespace: bool,
    events: bool,
    printed_header: bool,
}

impl WatchTable {
    pub fn new(opts: GetOptions, namespaced: bool, events: bool) -> WatchTable {
        WatchTable {
            writer: TabWriter::for_tables(),
            opts,
            with_namespace: namespaced && opts.all_namespaces,
            events,
            printed_header: false,
        }
    }

    /// Prints one object's row (`event`: `ADDED`, `MODIFIED` or `DELETED`) as it stood at
    /// `clock`; `false` when the lab has no table printer for its kind.
    pub fn print(&mut self, event: &str, obj: &Object, clock: Clock) -> bool {
        let Some((columns, row)) = table_row(obj, clock, self.opts.wide) else { return false };
        let table = Table { columns, rows: vec![row] };
        let prefix = |text: &str| if self.events { format!("{text}\t") } else { String::new() };
        if !self.printed_header {
            let header = prefix("EVENT") + &table.header_line(self.opts, self.with_namespace);
            self.writer.write(&header);
            self.printed_header = true;
        }
        let cell = match event {
            "ADDED" => "ADDED   ",
            "DELETED" => "DELETED ",
            other => other,
        };
        let line = prefix(cell) + &table.row_line(&table.rows[0], self.opts, self.with_namespace);
        self.writer.write(&line);
        self.writer.flush();
        true
    }

    /// Everything printed.
    pub fn finish(self) -> String {
        self.writer.finish()
    }
}
