//! Recording Kubernetes Events the way client-go's event recorder does for the controllers.
//!
//! Every controller has an event recorder with a source component (`deployment-controller`,
//! `replicaset-controller`, ...). Recording an Event does two things: it adds a
//! [`Detail::Event`] step to the trace, and it writes a core/v1 `Event` object through the
//! API server (as the controller's service account), in the involved object's namespace
//! (`default` for cluster-scoped objects such as Nodes), named `<object>.<16 hex digits>`
//! (the event time in Unix nanoseconds, as `fmt.Sprintf("%v.%x", name, t.UnixNano())`).
//!
//! The recorder also does what client-go's event correlator does before writing:
//! - an identical event (same source, object, type, reason and message) is not written
//!   again: the existing Event gets `count + 1` and a new `lastTimestamp`
//!   (what `kubectl describe` shows as `(x3 over 20s)`);
//! - after 10 events with the same source, object, type and reason but different messages
//!   within 10 minutes, further ones are combined into one Event whose message starts with
//!   `(combined from similar events): `;
//! - a spam filter allows a burst of 25 events per source and object, then one every
//!   5 minutes; events over the limit are dropped (and recorded nowhere).

use super::util::{now, revision_of};
use crate::apiserver::{ApiRequest, ApiResponse, Body, Caller, Verb, EPOCH_UNIX_MS};
use crate::object::Object;
use crate::sim::{object_ref, StepBuilder};
use crate::trace::{Component, Detail, EventDetail, Phase, StepStatus};
use crate::world::World;
use k8s_openapi::api::core::v1::{Event, EventSource, ObjectReference};
use std::collections::{BTreeMap, BTreeSet};

/// The API entry point the controllers write through (normally [`crate::apiserver::handle`]).
pub type ApiFn = fn(&mut World, ApiRequest) -> ApiResponse;

/// Similar events (same reason, different messages) before they are combined.
const MAX_SIMILAR_EVENTS: usize = 10;
/// The window in which similar events are counted.
const SIMILAR_WINDOW_MS: u64 = 600_000;
/// Spam filter: burst per source and object, then one token per refill period.
const SPAM_BURST: u64 = 25;
const SPAM_REFILL_MS: u64 = 300_000;

/// Who records an event: the component name shown by `kubectl describe` (`From`), and the
/// service account the Event object is written with.
#[derive(Clone, Copy, Debug)]
pub struct EventSourceInfo {
    pub component: &'static str,
    pub service_account: &'static str,
    pub phase: Phase,
}

#[derive(Clone, Debug)]
struct Written {
    namespace: String,
    name: String,
    count: i32,
    event: Event,
}

#[derive(Clone, Debug, Default)]
struct Similar {
    messages: BTreeSet<String>,
    last_ms: u64,
}

#[derive(Clone, Debug)]
struct Bucket {
    tokens: u64,
    last_refill_ms: u64,
}

/// The event correlator and writer shared by the controllers.
#[derive(Clone, Debug, Default)]
pub struct EventRecorder {
    /// Orders events recorded within the same millisecond (their names carry the time).
    seq: u64,
    written: BTreeMap<String, Written>,
    similar: BTreeMap<String, Similar>,
    spam: BTreeMap<String, Bucket>,
}

impl EventRecorder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records an event about `involved` (type `Normal` or `Warning`). Returns false when the
    /// spam filter dropped it.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        core: &mut World,
        api: ApiFn,
        source: EventSourceInfo,
        involved: &Object,
        event_type: &str,
        reason: &str,
        message: &str,
    ) -> bool {
        let meta = involved.meta();
        let object_id = format!(
            "{}|{}|{}|{}|{}",
            involved.api_version(),
            involved.kind(),
            meta.namespace.as_deref().unwrap_or(""),
            meta.name.as_deref().unwrap_or(""),
            meta.uid.as_deref().unwrap_or("")
        );

        // Spam filter (per source and object).
        let spam_key = format!("{}|{object_id}", source.component);
        let bucket = self.spam.entry(spam_key).or_insert(Bucket { tokens: SPAM_BURST, last_refill_ms: core.now });
        let refills = (core.now - bucket.last_refill_ms) / SPAM_REFILL_MS;
        if refills > 0 {
            bucket.tokens = (bucket.tokens + refills).min(SPAM_BURST);
            bucket.last_refill_ms += refills * SPAM_REFILL_MS;
        }
        if bucket.tokens == 0 {
            return false;
        }
        bucket.tokens -= 1;

        // Aggregation of similar events.
        let aggregate_key = format!("{}|{object_id}|{event_type}|{reason}", source.component);
        let similar = self.similar.entry(aggregate_key.clone()).or_default();
        if core.now.saturating_sub(similar.last_ms) > SIMILAR_WINDOW_MS {
            similar.messages.clear();
        }
        similar.last_ms = core.now;
        similar.messages.insert(message.to_string());
        let (message, dedup_key) = if similar.messages.len() >= MAX_SIMILAR_EVENTS {
            (format!("(combined from similar events): {message}"), aggregate_key)
        } else {
            (message.to_string(), format!("{aggregate_key}|{message}"))
        };

        let detail = Detail::Event(EventDetail {
            event_type: event_type.to_string(),
            reason: reason.to_string(),
            from: source.component.to_string(),
            message: message.clone(),
        });
        let status = if event_type == "Warning" { StepStatus::Warning } else { StepStatus::Ok };
        core.record(
            StepBuilder::new(
                source.phase,
                Component::ControllerManager,
                Component::ApiServer,
                format!("{} records {event_type} {reason}: {message}", source.component),
                detail,
            )
            .object(Some(object_ref(involved)))
            .status(status),
        );

        let caller = Caller::controller(source.service_account);
        if let Some(w) = self.written.get_mut(&dedup_key) {
            w.count += 1;
            w.event.count = Some(w.count);
            w.event.message = Some(message);
            w.event.last_timestamp = Some(now(core));
            let body = Body::Object(Object::from(w.event.clone()));
            let (ns, name) = (w.namespace.clone(), w.name.clone());
            let _ = api(core, request(caller, Verb::Update, ns, Some(name), body));
            return true;
        }

        let namespace = meta.namespace.clone().unwrap_or_else(|| "default".to_string());
        self.seq += 1;
        let sub_ms = (self.seq % 1000) * 1000 + core.rng.below(1000);
        let nanos = (EPOCH_UNIX_MS + core.now as i64) as i128 * 1_000_000 + sub_ms as i128;
        let name = format!("{}.{:x}", meta.name.as_deref().unwrap_or(""), nanos);
        let event = Event {
            metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta {
                name: Some(name.clone()),
                namespace: Some(namespace.clone()),
                ..Default::default()
            },
            involved_object: ObjectReference {
                api_version: Some(involved.api_version()),
                kind: Some(involved.kind().to_string()),
                name: meta.name.clone(),
                namespace: meta.namespace.clone(),
                uid: meta.uid.clone(),
                resource_version: revision_of(core, involved).map(|r| r.to_string()),
                field_path: None,
            },
            reason: Some(reason.to_string()),
            message: Some(message),
            source: Some(EventSource { component: Some(source.component.to_string()), host: None }),
            first_timestamp: Some(now(core)),
            last_timestamp: Some(now(core)),
            count: Some(1),
            type_: Some(event_type.to_string()),
            reporting_component: Some(source.component.to_string()),
            reporting_instance: Some(String::new()),
            ..Default::default()
        };
        let body = Body::Object(Object::from(event.clone()));
        let resp = api(core, request(caller, Verb::Create, namespace.clone(), None, body));
        if resp.ok() {
            self.written.insert(dedup_key, Written { namespace, name, count: 1, event });
        }
        true
    }
}

fn request(caller: Caller, verb: Verb, namespace: String, name: Option<String>, body: Body) -> ApiRequest {
    ApiRequest {
        caller,
        verb,
        resource: super::util::res("Event"),
        namespace: Some(namespace),
        name,
        subresource: None,
        body: Some(body),
        verbose: false,
        file: None,
    }
}
