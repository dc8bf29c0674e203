//! The etcd model: a multi-version key-value store with one cluster-global revision.
//!
//! Like etcd, every write bumps the revision, and every key keeps its history, so any
//! earlier state can be read back (`get_at`, `list_at`): the lab uses that to show exactly
//! what the cluster held at any step of the trace. Watchers read the ordered event log.
//! The store is generic over the value so it has no opinion on Kubernetes types.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// One version of a key.
#[derive(Clone, Debug)]
struct Version<V> {
    mod_revision: u64,
    /// `None` marks a deletion (a tombstone). Shared with the watch log's events.
    value: Option<Arc<V>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum EventType {
    Added,
    Modified,
    Deleted,
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Added => "ADDED",
            EventType::Modified => "MODIFIED",
            EventType::Deleted => "DELETED",
        }
    }
}

/// A watch event, as a watcher of the store receives it.
#[derive(Clone, Debug)]
pub struct WatchEvent<V> {
    pub revision: u64,
    pub kind: EventType,
    pub key: String,
    /// The new value (for a deletion: the last value before it). The store's history and
    /// its watch log share one copy of each value.
    pub object: Arc<V>,
    pub prev: Option<Arc<V>>,
}

/// What a write can fail with, in etcd's terms (the API server turns these into Status errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// Create found the key present (the "create only if absent" transaction failed).
    AlreadyExists,
    /// Update or delete of a key that does not exist.
    NotFound,
    /// Update with a precondition revision that is not the key's current one.
    Conflict { current: u64 },
}

#[derive(Clone, Debug)]
pub struct Store<V> {
    revision: u64,
    keys: BTreeMap<String, Vec<Version<V>>>,
    log: Vec<WatchEvent<V>>,
}

impl<V> Default for Store<V> {
    fn default() -> Self {
        Store { revision: 1, keys: BTreeMap::new(), log: Vec::new() }
    }
}

impl<V: Clone> Store<V> {
    /// A fresh store. etcd starts at revision 1 with nothing stored.
    pub fn new() -> Self {
        Self::default()
    }

    /// The current (latest) revision.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    fn current(&self, key: &str) -> Option<&Version<V>> {
        self.keys.get(key).and_then(|h| h.last()).filter(|v| v.value.is_some())
    }

    /// The current value and its mod revision.
    pub fn get(&self, key: &str) -> Option<(&V, u64)> {
        self.current(key).map(|v| (&**v.value.as_ref().expect("filtered"), v.mod_revision))
    }

    /// The current value as a shared handle (no copy of the value).
    pub fn get_shared(&self, key: &str) -> Option<(Arc<V>, u64)> {
        self.current(key).map(|v| (Arc::clone(v.value.as_ref().expect("filtered")), v.mod_revision))
    }

    /// The value a key had at `revision` (inclusive).
    pub fn get_at(&self, key: &str, revision: u64) -> Option<(&V, u64)> {
        Self::version_at(self.keys.get(key)?, revision)
    }

    /// The value a key's history held at `revision`, with its mod revision.
    fn version_at(history: &[Version<V>], revision: u64) -> Option<(&V, u64)> {
        let v = history.iter().rev().find(|v| v.mod_revision <= revision)?;
        v.value.as_deref().map(|value| (value, v.mod_revision))
    }

    /// The entries whose key starts with `prefix`, in key order.
    fn under<'s, 'p>(
        &'s self,
        prefix: &'p str,
    ) -> impl Iterator<Item = (&'s String, &'s Vec<Version<V>>)> + use<'s, 'p, V> {
        self.keys
            .range::<str, _>((std::ops::Bound::Included(prefix), std::ops::Bound::Unbounded))
            .take_while(move |(k, _)| k.starts_with(prefix))
    }

    /// Every live key under `prefix`, in key order, with its value and mod revision.
    pub fn list(&self, prefix: &str) -> Vec<(&str, &V, u64)> {
        self.list_at(prefix, self.revision)
    }

    /// Every key under `prefix` as it stood at `revision`.
    pub fn list_at(&self, prefix: &str, revision: u64) -> Vec<(&str, &V, u64)> {
        self.under(prefix).filter_map(|(k, h)| Self::version_at(h, revision).map(|(v, r)| (k.as_str(), v, r))).collect()
    }

    /// The live keys under `prefix` with their values, in key order, without collecting them.
    pub fn live<'s, 'p>(&'s self, prefix: &'p str) -> impl Iterator<Item = (&'s str, &'s V)> + use<'s, 'p, V> {
        self.under(prefix).filter_map(|(k, h)| h.last().and_then(|v| v.value.as_deref()).map(|v| (k.as_str(), v)))
    }

    /// Whether any live key starts with `prefix`.
    pub fn has_any(&self, prefix: &str) -> bool {
        self.live(prefix).next().is_some()
    }

    /// The live values under `prefix`, in key order, as shared handles (no copies).
    pub fn list_shared(&self, prefix: &str) -> Vec<Arc<V>> {
        self.under(prefix).filter_map(|(_, h)| h.last().and_then(|v| v.value.clone())).collect()
    }

    /// The live keys under `prefix` as `ADDED` watch events at their last revision: what an
    /// informer's initial LIST hands its handlers (a component that starts again relists).
    pub fn relist(&self, prefix: &str) -> Vec<WatchEvent<V>> {
        self.under(prefix)
            .filter_map(|(k, h)| {
                let v = h.last()?;
                let object = v.value.clone()?;
                Some(WatchEvent {
                    revision: v.mod_revision,
                    kind: EventType::Added,
                    key: k.clone(),
                    object,
                    prev: None,
                })
            })
            .collect()
    }

    fn push(&mut self, key: &str, value: Option<Arc<V>>, kind: EventType, object: Arc<V>, prev: Option<Arc<V>>) -> u64 {
        self.revision += 1;
        let revision = self.revision;
        self.keys.entry(key.to_string()).or_default().push(Version { mod_revision: revision, value });
        self.log.push(WatchEvent { revision, kind, key: key.to_string(), object, prev });
        revision
    }

    /// Put only if absent (the transaction the API server uses for create).
    pub fn create(&mut self, key: &str, value: V) -> Result<u64, StoreError> {
        if self.current(key).is_some() {
            return Err(StoreError::AlreadyExists);
        }
        let value = Arc::new(value);
        Ok(self.push(key, Some(Arc::clone(&value)), EventType::Added, value, None))
    }

    /// Replace the value of an existing key. With `expected`, the key's current mod revision
    /// must equal it (optimistic concurrency, as resourceVersion preconditions do).
    pub fn update(&mut self, key: &str, value: V, expected: Option<u64>) -> Result<u64, StoreError> {
        let (prev, current) = match self.get_shared(key) {
            Some(found) => found,
            None => return Err(StoreError::NotFound),
        };
        if let Some(e) = expected {
            if e != current {
                return Err(StoreError::Conflict { current });
            }
        }
        let value = Arc::new(value);
        Ok(self.push(key, Some(Arc::clone(&value)), EventType::Modified, value, Some(prev)))
    }

    /// Delete a key; returns the revision of the deletion and the last value.
    pub fn delete(&mut self, key: &str) -> Result<(u64, V), StoreError> {
        let prev = match self.get_shared(key) {
            Some((v, _)) => v,
            None => return Err(StoreError::NotFound),
        };
        let rev = self.push(key, None, EventType::Deleted, Arc::clone(&prev), Some(Arc::clone(&prev)));
        Ok((rev, (*prev).clone()))
    }

    /// Takes the watch log out of the store (the simulation lends it to the watchers); writes
    /// made until [`Store::restore_log`] start a new log.
    pub(crate) fn take_log(&mut self) -> Vec<WatchEvent<V>> {
        std::mem::take(&mut self.log)
    }

    /// Puts back a log taken by [`Store::take_log`], followed by the events written meanwhile.
    pub(crate) fn restore_log(&mut self, log: Vec<WatchEvent<V>>) {
        let newer = std::mem::replace(&mut self.log, log);
        self.log.extend(newer);
    }

    /// Watch events with a revision greater than `after`, oldest first.
    pub fn events_since(&self, after: u64) -> &[WatchEvent<V>] {
        let start = self.log.partition_point(|e| e.revision <= after);
        &self.log[start..]
    }

    /// Every write after revision `after`, or `None` when the log at hand may not hold them
    /// all (while the simulation has lent it out, the store keeps only the newer writes).
    pub fn writes_since(&self, after: u64) -> Option<&[WatchEvent<V>]> {
        let events = self.events_since(after);
        // Each write bumps the revision by one: the log is complete when it counts them all.
        (events.len() as u64 == self.revision.saturating_sub(after)).then_some(events)
    }

    /// Whether a write after revision `after` may have touched a key under one of `prefixes`:
    /// true when one did, or when the log at hand cannot tell (see [`Store::writes_since`]),
    /// or when `after` is not a revision of this store's past. For answers kept with the
    /// revision they were true at.
    pub fn touched_since(&self, after: u64, prefixes: &[&str]) -> bool {
        if after > self.revision {
            return true;
        }
        match self.writes_since(after) {
            Some(writes) => writes.iter().any(|e| prefixes.iter().any(|p| e.key.starts_with(p))),
            None => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revisions_are_global_and_history_is_kept() {
        let mut s: Store<&str> = Store::new();
        let r1 = s.create("/registry/pods/default/a", "a1").unwrap();
        let r2 = s.create("/registry/pods/default/b", "b1").unwrap();
        assert!(r2 > r1);
        assert_eq!(s.create("/registry/pods/default/a", "again"), Err(StoreError::AlreadyExists));
        let r3 = s.update("/registry/pods/default/a", "a2", Some(r1)).unwrap();
        assert_eq!(s.update("/registry/pods/default/a", "a3", Some(r1)), Err(StoreError::Conflict { current: r3 }));
        assert_eq!(s.get_at("/registry/pods/default/a", r2).map(|(v, _)| *v), Some("a1"));
        assert_eq!(s.get("/registry/pods/default/a").map(|(v, _)| *v), Some("a2"));
        let (r4, last) = s.delete("/registry/pods/default/b").unwrap();
        assert_eq!(last, "b1");
        assert_eq!(s.list("/registry/pods/").len(), 1);
        assert_eq!(s.list_at("/registry/pods/", r3).len(), 2);
        let kinds: Vec<_> = s.events_since(r2).iter().map(|e| e.kind).collect();
        assert_eq!(kinds, vec![EventType::Modified, EventType::Deleted]);
        assert_eq!(s.events_since(r4).len(), 0);
        // A deleted key leaves its history but is not live; a prefix is not a key's middle.
        assert!(s.has_any("/registry/pods/default/"));
        s.delete("/registry/pods/default/a").unwrap();
        assert!(!s.has_any("/registry/pods/"));
        assert_eq!(s.list("/registry/pods/").len(), 0);
        s.create("/registry/podsx/a", "x").unwrap();
        assert!(!s.has_any("/registry/pods/"));
        assert!(s.has_any("/registry/pods"));
    }

    #[test]
    fn live_walks_what_list_returns() {
        let mut s: Store<&str> = Store::new();
        s.create("/registry/pods/default/a", "a1").unwrap();
        s.create("/registry/pods/default/b", "b1").unwrap();
        s.create("/registry/pods/kube-system/c", "c1").unwrap();
        s.create("/registry/podsx/d", "d1").unwrap();
        s.update("/registry/pods/default/a", "a2", None).unwrap();
        s.delete("/registry/pods/default/b").unwrap();
        for prefix in ["/registry/pods/", "/registry/pods/default/", "/registry/pods", "/registry/none/"] {
            let listed: Vec<(&str, &str)> = s.list(prefix).into_iter().map(|(k, v, _)| (k, *v)).collect();
            let live: Vec<(&str, &str)> = s.live(prefix).map(|(k, v)| (k, *v)).collect();
            assert_eq!(live, listed, "{prefix}");
        }
        let all: Vec<&str> = s.live("/registry/pods").map(|(_, v)| *v).collect();
        assert_eq!(all, ["a2", "c1", "d1"]);
    }

    #[test]
    fn touched_since_reads_the_writes_after_a_revision() {
        let mut s: Store<&str> = Store::new();
        let r1 = s.create("/registry/roles/a", "a").unwrap();
        let r2 = s.create("/registry/pods/p", "p").unwrap();
        assert!(s.touched_since(0, &["/registry/roles/"]));
        assert!(!s.touched_since(r1, &["/registry/roles/"]));
        assert!(s.touched_since(r1, &["/registry/roles/", "/registry/pods/"]));
        assert!(!s.touched_since(r2, &["/registry/pods/"]));
        // A revision the store has not reached is no past it can vouch for.
        assert!(s.touched_since(r2 + 1, &["/registry/pods/"]));
        // Nor can a log lent out.
        let lent = s.take_log();
        s.create("/registry/pods/q", "q").unwrap();
        assert!(s.touched_since(r1, &["/registry/roles/"]));
        s.restore_log(lent);
        assert!(!s.touched_since(r1, &["/registry/roles/"]));
    }

    #[test]
    fn writes_since_knows_when_the_log_is_lent_out() {
        let mut s: Store<&str> = Store::new();
        let r1 = s.create("/a", "a").unwrap();
        let r2 = s.create("/b", "b").unwrap();
        assert_eq!(s.writes_since(r1).map(<[_]>::len), Some(1));
        assert_eq!(s.writes_since(r2).map(<[_]>::len), Some(0));
        let lent = s.take_log();
        let r3 = s.create("/c", "c").unwrap();
        // Writes after r1 include r2, which is in the lent log.
        assert!(s.writes_since(r1).is_none());
        assert_eq!(s.writes_since(r2).map(|e| e[0].key.as_str()), Some("/c"));
        s.restore_log(lent);
        assert_eq!(s.writes_since(r1).map(<[_]>::len), Some(2));
        assert_eq!(s.writes_since(r3).map(<[_]>::len), Some(0));
    }
}
