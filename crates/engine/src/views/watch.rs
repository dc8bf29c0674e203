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
