//! Kubernetes Events from the kubelet, recorded as client-go's event recorder does: each
//! Event object is written through the API server (`events` in the involved object's
//! namespace, named `<object>.<unix nanoseconds in hex>`), a repeat of an identical event
//! (same source, object, field path, type, reason and message) bumps the existing object's
//! `count` and `lastTimestamp` instead, and a per-object spam filter (a token bucket of 25
//! that refills one token every 5 minutes) drops events beyond that rate.

use crate::apiserver::{self, ApiRequest, Body, Caller, Verb, EPOCH_UNIX_MS};
use crate::object::{resource_for, Object};
use crate::sim::{object_ref, StepBuilder};
use crate::trace::{Component, Detail, EventDetail, Phase, StepStatus};
use crate::world::World;
use k8s_openapi::api::core::v1::{Event, EventSource, ObjectReference};
use std::collections::BTreeMap;

/// The spam filter's burst (client-go `defaultSpamBurst`).
pub const SPAM_BURST: u64 = 25;
/// One token comes back every 5 minutes (`defaultSpamQPS` = 1/300).
pub const SPAM_REFILL_MS: u64 = 300_000;
/// What `kubectl describe` shows in the From column for the kubelet.
pub const KUBELET_COMPONENT: &str = "kubelet";
/// Similar events (same object, type and reason, different messages) beyond this many in
/// [`AGGREGATE_WINDOW_MS`] are combined into one (client-go `EventAggregator`).
pub const AGGREGATE_MAX_EVENTS: usize = 10;
/// The aggregation window (10 minutes).
pub const AGGREGATE_WINDOW_MS: u64 = 600_000;
/// The prefix of a combined event's message.
pub const COMBINED_PREFIX: &str = "(combined from similar events): ";

/// One event to record.
pub struct EventSpec<'a> {
    /// The Pod (or Node) the event is about.
    pub involved: &'a Object,
    /// `spec.containers{web}` for container events.
    pub field_path: Option<String>,
    /// `Normal` or `Warning`.
    pub type_: &'static str,
    pub reason: &'a str,
    pub message: String,
    /// The phase of the trace this event belongs to.
    pub phase: Phase,
}

#[derive(Clone, Debug, PartialEq)]
struct Seen {
    name: String,
    namespace: String,
    count: i32,
    event: Event,
}

/// The kubelet's event recorder (one per node).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventRecorder {
    host: String,
    seen: BTreeMap<String, Seen>,
    /// Per object: (tokens × SPAM_REFILL_MS, last refill time).
    buckets: BTreeMap<String, (u64, u64)>,
    /// Per (object, type, reason): the distinct messages seen and when the window started.
    similar: BTreeMap<String, (u64, Vec<String>)>,
    seq: u64,
}

impl EventRecorder {
    pub fn new(host: &str) -> EventRecorder {
        EventRecorder { host: host.to_string(), ..Default::default() }
    }

    fn allow(&mut self, object_key: &str, now: u64) -> bool {
        let full = SPAM_BURST * SPAM_REFILL_MS;
        let (tokens, last) = self.buckets.get(object_key).copied().unwrap_or((full, now));
        let tokens = (tokens + now.saturating_sub(last)).min(full);
        if tokens >= SPAM_REFILL_MS {
            self.buckets.insert(object_key.to_string(), (tokens - SPAM_REFILL_MS, now));
            true
        } else {
            self.buckets.insert(object_key.to_string(), (tokens, now));
            false
        }
    }

    /// Records an event; returns the index of its trace step (`None` when the spam filter
    /// dropped it).
    pub fn record(&mut self, core: &mut World, spec: EventSpec) -> Option<usize> {
        let obj = spec.involved;
        let meta = obj.meta();
        let ns = meta.namespace.clone().unwrap_or_else(|| "default".to_string());
        let object_key = [obj.kind(), &ns, obj.name(), meta.uid.as_deref().unwrap_or("")].join("/");
        if !self.allow(&object_key, core.now) {
            return None;
        }
        // The aggregator: many different messages for one object and reason become one
        // combined event.
        let aggregate_key = [&object_key, spec.type_, spec.reason].join("|");
        let entry = self.similar.entry(aggregate_key.clone()).or_insert((core.now, vec![]));
        if core.now.saturating_sub(entry.0) > AGGREGATE_WINDOW_MS {
            *entry = (core.now, vec![]);
        }
        if !entry.1.contains(&spec.message) {
            entry.1.push(spec.message.clone());
        }
        let combined = entry.1.len() >= AGGREGATE_MAX_EVENTS;
        let mut spec = spec;
        let key = if combined {
            spec.message = format!("{COMBINED_PREFIX}{}", spec.message);
            format!("{aggregate_key}|combined")
        } else {
            [&object_key, spec.field_path.as_deref().unwrap_or(""), spec.type_, spec.reason, &spec.message].join("|")
        };
        let now_ts = apiserver::timestamp(core.now);
        let caller = Caller::kubelet(&self.host);
        let resource = resource_for("v1", "Event")?;
        let (count, request) = match self.seen.get_mut(&key) {
            Some(seen) => {
                seen.count += 1;
                seen.event.count = Some(seen.count);
                seen.event.last_timestamp = Some(now_ts.clone());
                seen.event.message = Some(spec.message.clone());
                let body = Body::Object(Object::from(seen.event.clone()));
                (
                    seen.count,
                    ApiRequest {
                        caller,
                        verb: Verb::Update,
                        resource,
                        namespace: Some(seen.namespace.clone()),
                        name: Some(seen.name.clone()),
                        subresource: None,
                        body: Some(body),
                        verbose: false,
                        file: None,
                    },
                )
            }
            None => {
                self.seq += 1;
                let nanos = (EPOCH_UNIX_MS as u64 + core.now) * 1_000_000 + self.seq;
                let name = format!("{}.{nanos:x}", obj.name());
                let mut ev = Event {
                    involved_object: ObjectReference {
                        api_version: Some(obj.api_version()),
                        kind: Some(obj.kind().to_string()),
                        name: Some(obj.name().to_string()),
                        namespace: meta.namespace.clone(),
                        uid: meta.uid.clone(),
                        resource_version: meta.resource_version.clone(),
                        field_path: spec.field_path.clone(),
                    },
                    reason: Some(spec.reason.to_string()),
                    message: Some(spec.message.clone()),
                    source: Some(EventSource {
                        component: Some(KUBELET_COMPONENT.to_string()),
                        host: Some(self.host.clone()),
                    }),
                    first_timestamp: Some(now_ts.clone()),
                    last_timestamp: Some(now_ts.clone()),
                    count: Some(1),
                    type_: Some(spec.type_.to_string()),
                    reporting_component: Some(KUBELET_COMPONENT.to_string()),
                    reporting_instance: Some(self.host.clone()),
                    ..Default::default()
                };
                ev.metadata.name = Some(name.clone());
                ev.metadata.namespace = Some(ns.clone());
                self.seen.insert(
                    key.clone(),
                    Seen { name: name.clone(), namespace: ns.clone(), count: 1, event: ev.clone() },
                );
                let body = Body::Object(Object::from(ev));
                (
                    1,
                    ApiRequest {
                        caller,
                        verb: Verb::Create,
                        resource,
                        namespace: Some(ns.clone()),
                        name: None,
                        subresource: None,
                        body: Some(body),
                        verbose: false,
                        file: None,
                    },
                )
            }
        };
        let status = if spec.type_ == "Warning" { StepStatus::Warning } else { StepStatus::Ok };
        let times = if count > 1 { format!(" (x{count})") } else { String::new() };
        let step = core.record(
            StepBuilder::new(
                spec.phase,
                Component::Kubelet,
                Component::ApiServer,
                format!("kubelet records {} {}{times}: {}", spec.type_, spec.reason, spec.message),
                Detail::Event(EventDetail {
                    event_type: spec.type_.to_string(),
                    reason: spec.reason.to_string(),
                    from: KUBELET_COMPONENT.to_string(),
                    message: spec.message,
                }),
            )
            .node(self.host.clone())
            .object(Some(object_ref(obj)))
            .status(status),
        );
        let resp = apiserver::handle(core, request);
        let resource_version = resp.resource_version();
        if let (Some(Object::Event(stored)), Some(seen)) = (resp.object_identity(), self.seen.get_mut(&key)) {
            seen.event.metadata.resource_version = resource_version;
            seen.event.metadata.uid = stored.metadata.uid.clone();
            seen.event.metadata.creation_timestamp = stored.metadata.creation_timestamp.clone();
        }
        Some(step)
    }
}
