//! kube-controller-manager: the control loops that turn what you asked for into what runs.
//!
//! # Reconciliation, for a developer new to Kubernetes internals
//!
//! A controller never receives commands. It *watches* objects through the API server and,
//! whenever something it cares about changes, puts the key of the object it manages
//! (`default/web`) on its work queue. A worker later takes the key, reads the **current**
//! state from its informer cache (here: the store), compares it with the **desired** state
//! written in the object's spec, and issues the writes that close the gap — then forgets
//! about it until the next change. That loop is *reconciliation*:
//!
//! ```text
//!   watch event ──► queue key ──► sync(key): observe ─► diff with desired ─► act via API
//!        ▲                                                                     │
//!        └──────────────────── the writes are watch events again ◄─────────────┘
//! ```
//!
//! Three properties follow, and the lab shows each of them:
//! - **Level-triggered.** A sync looks at the whole current state, not at the event that
//!   woke it up; ten events for the same key collapse into one sync (a queue holds a key
//!   once). So a Deployment scaled twice quickly is reconciled once, to the final size.
//! - **Chains of owners.** Controllers only talk through objects. The deployment
//!   controller creates a ReplicaSet; the ReplicaSet controller sees it and creates Pods;
//!   the scheduler sees unbound Pods; the kubelet sees bound ones. Each writes the `status`
//!   of what it owns, which wakes the level above.
//! - **Failure is a state.** When a write is refused (a quota, a Pod Security denial), the
//!   controller records a Warning Event and a condition, and retries later with a growing
//!   delay. The object you applied was accepted; the Pods just never appear.
//!
//! # In this module
//!
//! [`ControllerManager`] is one [`Actor`] that holds every controller and dispatches tasks
//! `Target::Controller("<name>")` to them by upstream name. Each controller lives in its
//! own file and implements [`Controller`]: `observe` decides whether a watch event matters
//! and queues a key (with a small, named watch latency), `sync` reconciles that key by
//! reading the store and writing through the API server as its own service account
//! (`Caller::controller("replicaset-controller")`; kubeadm runs the controller manager with
//! `--use-service-account-credentials`). Controllers record:
//! - a [`Detail::Watch`] step when an event makes them queue work,
//! - a [`Detail::Controller`] step for each reconcile decision that leads to writes
//!   (what they observed, what they want, what they do),
//! - a [`Detail::Event`] step and an `Event` object for each Kubernetes Event upstream
//!   records (see [`events`]).
//!
//! What the controllers expect from the API server (implemented by the full pipeline):
//! `generateName` is completed with 5 random characters; `metadata.generation` starts at
//! 1 and grows on spec changes; updates to the `status` subresource change only status
//! (and, for Deployments, annotations); deletes honour `propagationPolicy` and finalizers
//! (`foregroundDeletion`, `orphan`) by setting `deletionTimestamp` and leaving the object
//! until its finalizers are gone; a bound Pod is deleted gracefully (the kubelet finishes
//! it); a Job without a selector gets the generated `batch.kubernetes.io/controller-uid`
//! selector and labels; deleting a Namespace moves it to `Terminating`.
//! Missing spec fields are read with the API defaults (replicas 1, RollingUpdate 25%/25%,
//! backoffLimit 6, ...), as if the server had defaulted them.

pub mod cronjob;
pub mod daemonset;
pub mod deployment;
pub mod disruption;
pub mod endpoints;
pub mod endpointslice;
pub mod events;
pub mod garbagecollector;
pub mod history;
pub mod job;
pub mod localpath;
pub mod namespace;
pub mod nodelifecycle;
pub mod persistentvolume;
pub mod podautoscaler;
pub mod replicaset;
pub mod rootcacert;
pub mod serviceaccount;
pub mod statefulset;
pub mod tainteviction;
pub mod util;

#[cfg(test)]
mod testkit;
#[cfg(test)]
mod tests;

pub use events::{ApiFn, EventRecorder, EventSourceInfo};

use crate::apiserver::{ApiRequest, ApiResponse, Body, Caller, Verb};
use crate::object::Object;
use crate::sim::{object_ref, Actor, StepBuilder, Target, Task};
use crate::store::WatchEvent;
use crate::trace::{Component, ControllerDetail, Detail, Phase, StepStatus, WatchDetail};
use crate::world::World;
use std::collections::BTreeMap;

/// First retry delay of the controllers' rate-limited work queues (client-go's
/// `DefaultControllerRateLimiter`: 5 ms, doubling per failure).
pub const RETRY_BASE_MS: u64 = 5;
/// The longest retry delay of that rate limiter (1000 s).
pub const RETRY_MAX_MS: u64 = 1_000_000;

/// One control loop of kube-controller-manager.
pub trait Controller {
    /// Upstream's controller name (`deployment-controller`), also the task target.
    fn name(&self) -> &'static str;
    /// A watch event arrived: queue keys with [`Cx::watch`] if it matters.
    fn observe(&mut self, cx: &mut Cx, event: &WatchEvent<Object>);
    /// Reconcile one queued key.
    fn sync(&mut self, cx: &mut Cx, key: &str);
}

/// The work queues: for each controller and key, the earliest time a sync is queued for.
/// Like client-go's queue, a key queued twice is synced once.
#[derive(Clone, Debug, Default)]
struct Queues {
    pending: BTreeMap<(&'static str, String), u64>,
    failures: BTreeMap<(&'static str, String), u32>,
}

/// What a controller gets while it observes or syncs: the shared core, the API server, its
/// work queue and the event recorder.
pub struct Cx<'a> {
    pub core: &'a mut World,
    api: ApiFn,
    queues: &'a mut Queues,
    events: &'a mut EventRecorder,
}

impl Cx<'_> {
    /// Queues `key` for `controller` after `delay_ms`, unless it is already queued for that
    /// time or earlier. Returns whether a new sync was queued.
    pub fn enqueue(&mut self, controller: &'static str, key: &str, delay_ms: u64) -> bool {
        let due = self.core.now + delay_ms;
        let k = (controller, key.to_string());
        if let Some(&d) = self.queues.pending.get(&k) {
            if d >= self.core.now && d <= due {
                return false;
            }
        }
        self.queues.pending.insert(k, due);
        self.core.after(delay_ms, Task::new(Target::Controller(controller), key));
        true
    }

    /// Drops what is queued for `controller` and `key` (see [`Core::cancel`]).
    pub fn cancel(&mut self, controller: &'static str, key: &str) {
        self.queues.pending.remove(&(controller, key.to_string()));
        self.core.cancel(&Target::Controller(controller), key);
    }

    /// Queues periodic work (a resync or a monitor loop) that does not keep the
    /// simulation alive on its own.
    pub fn enqueue_periodic(&mut self, controller: &'static str, key: &str, delay_ms: u64) {
        self.core.after(delay_ms, Task::periodic(Target::Controller(controller), key));
    }

    /// A sync failed: retry with the rate limiter's growing delay (5 ms, 10 ms, ... 1000 s).
    /// Retries are periodic work: a controller that keeps failing does not keep the
    /// simulation running once everything else is quiet.
    pub fn requeue_rate_limited(&mut self, controller: &'static str, key: &str) -> u64 {
        self.requeue_with_backoff(controller, key, RETRY_BASE_MS, RETRY_MAX_MS)
    }

    /// Like [`Cx::requeue_rate_limited`] with a controller's own back-off (the EndpointSlice
    /// controller starts at 1 s, the Job controller caps at 1 minute).
    pub fn requeue_with_backoff(&mut self, controller: &'static str, key: &str, base_ms: u64, max_ms: u64) -> u64 {
        let n = self.queues.failures.entry((controller, key.to_string())).or_insert(0);
        let delay = base_ms.saturating_mul(1u64 << (*n).min(40)).min(max_ms);
        *n += 1;
        self.core.after(delay, Task::periodic(Target::Controller(controller), key));
        delay
    }

    /// A sync succeeded: reset the key's retry delay.
    pub fn forget(&mut self, controller: &'static str, key: &str) {
        self.queues.failures.remove(&(controller, key.to_string()));
    }

    /// Reacts to a watch event: queues `key` after `delay_ms` and, when that queued a new
    /// sync, records a watch step saying why.
    pub fn watch(
        &mut self,
        controller: &'static str,
        phase: Phase,
        event: &WatchEvent<Object>,
        key: &str,
        delay_ms: u64,
        reason: &str,
    ) {
        if !self.enqueue(controller, key, delay_ms) {
            return;
        }
        let obj = &*event.object;
        let summary = format!(
            "{controller} sees {} {} {}",
            event.kind.as_str(),
            obj.kind(),
            match obj.namespace() {
                Some(ns) => format!("{ns}/{}", obj.name()),
                None => obj.name().to_string(),
            }
        );
        self.core.record(
            StepBuilder::new(
                phase,
                Component::ApiServer,
                Component::ControllerManager,
                summary,
                Detail::Watch(WatchDetail {
                    watcher: format!("kube-controller-manager ({controller})"),
                    event: event.kind.as_str().to_string(),
                    key: event.key.clone(),
                    revision: event.revision,
                    reason: reason.to_string(),
                }),
            )
            .object(Some(object_ref(obj))),
        );
    }

    /// Sends a request to the API server as `service_account` of kube-system.
    #[allow(clippy::too_many_arguments)]
    pub fn request(
        &mut self,
        service_account: &str,
        verb: Verb,
        kind: &str,
        namespace: Option<&str>,
        name: Option<&str>,
        subresource: Option<&str>,
        body: Option<Body>,
    ) -> ApiResponse {
        let req = ApiRequest {
            caller: Caller::controller(service_account),
            verb,
            resource: util::res(kind),
            namespace: namespace.map(str::to_string),
            name: name.map(str::to_string),
            subresource: subresource.map(str::to_string),
            body,
            verbose: false,
            file: None,
        };
        (self.api)(self.core, req)
    }

    pub fn create(&mut self, service_account: &str, obj: Object) -> ApiResponse {
        self.send(service_account, Verb::Create, obj, None)
    }

    pub fn update(&mut self, service_account: &str, obj: Object) -> ApiResponse {
        self.send(service_account, Verb::Update, obj, None)
    }

    /// An update of the `status` subresource.
    pub fn update_status(&mut self, service_account: &str, obj: Object) -> ApiResponse {
        self.send(service_account, Verb::Update, obj, Some("status"))
    }

    /// A strategic merge patch of the object `kind` `namespace`/`name`.
    pub fn patch(
        &mut self,
        service_account: &str,
        kind: &str,
        namespace: Option<&str>,
        name: &str,
        patch: serde_json::Value,
    ) -> ApiResponse {
        self.request(service_account, Verb::Patch, kind, namespace, Some(name), None, Some(Body::Json(patch)))
    }

    /// Upstream's `RecheckDeletionTimestamp`, which a controller runs once per sync before its
    /// first adoption: it reads its own object live (a GET, not the informer's copy) and adopts
    /// nothing if that object is gone, replaced by another with the same name, or being deleted.
    /// The error is upstream's message.
    pub fn recheck_before_adopting(
        &mut self,
        service_account: &str,
        kind: &str,
        owner: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    ) -> Result<(), String> {
        let ns = owner.namespace.as_deref();
        let name = owner.name.as_deref().unwrap_or("");
        let resp = self.request(service_account, Verb::Get, kind, ns, Some(name), None, None);
        let Some(fresh) = resp.stored_object().filter(|_| resp.ok()) else {
            return Err(format!("can't recheck DeletionTimestamp: {}", resp.message()));
        };
        let fresh = fresh.meta();
        if fresh.uid != owner.uid {
            return Err(format!(
                "can't recheck DeletionTimestamp: original {kind} {}/{name} is gone: got uid {}, wanted {}",
                ns.unwrap_or(""),
                fresh.uid.as_deref().unwrap_or(""),
                owner.uid.as_deref().unwrap_or("")
            ));
        }
        match &fresh.deletion_timestamp {
            Some(t) => Err(format!(
                "{}/{name} has just been deleted at {} +0000 UTC",
                ns.unwrap_or(""),
                t.0.strftime("%Y-%m-%d %H:%M:%S")
            )),
            None => Ok(()),
        }
    }

    /// A request with `obj` as its body, named in the path unless it is a create. The body is
    /// moved into the request, so the API server decodes it without copying the object.
    fn send(&mut self, service_account: &str, verb: Verb, obj: Object, subresource: Option<&str>) -> ApiResponse {
        let ns = obj.namespace().map(str::to_string);
        let name = (verb != Verb::Create).then(|| obj.name().to_string());
        let kind = obj.kind().to_string();
        self.request(service_account, verb, &kind, ns.as_deref(), name.as_deref(), subresource, Some(Body::Object(obj)))
    }

    /// A DELETE, with `DeleteOptions` carrying the propagation policy when one is given.
    pub fn delete(
        &mut self,
        service_account: &str,
        kind: &str,
        namespace: Option<&str>,
        name: &str,
        propagation: Option<&str>,
    ) -> ApiResponse {
        let body = propagation.map(|p| {
            Body::Json(serde_json::json!({"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": p}))
        });
        self.request(service_account, Verb::Delete, kind, namespace, Some(name), None, body)
    }

    /// Records a Kubernetes Event (trace step + Event object).
    pub fn event(&mut self, source: EventSourceInfo, involved: &Object, event_type: &str, reason: &str, message: &str) {
        self.events.record(self.core, self.api, source, involved, event_type, reason, message);
    }

    /// Records a reconcile decision.
    #[allow(clippy::too_many_arguments)]
    pub fn decide(
        &mut self,
        phase: Phase,
        controller: &str,
        object: Option<&Object>,
        summary: String,
        observed: String,
        desired: String,
        actions: Vec<String>,
        status: StepStatus,
    ) {
        self.core.record(
            StepBuilder::new(
                phase,
                Component::ControllerManager,
                Component::ApiServer,
                summary,
                Detail::Controller(ControllerDetail { controller: controller.to_string(), observed, desired, actions }),
            )
            .object(object.map(object_ref))
            .status(status),
        );
    }
}

/// kube-controller-manager as one actor: every controller, their queues and the event
/// recorder.
pub struct ControllerManager {
    controllers: Vec<Box<dyn Controller>>,
    queues: Queues,
    events: EventRecorder,
    api: ApiFn,
}

impl Default for ControllerManager {
    fn default() -> Self {
        Self::new()
    }
}

impl ControllerManager {
    /// Every controller of the lab, writing through [`crate::apiserver::handle`].
    pub fn new() -> Self {
        Self::with_api(crate::apiserver::handle)
    }

    /// Every controller, writing through `api` (tests use a stand-in API server).
    pub fn with_api(api: ApiFn) -> Self {
        let controllers: Vec<Box<dyn Controller>> = vec![
            Box::new(deployment::DeploymentController),
            Box::new(replicaset::ReplicaSetController),
            Box::new(statefulset::StatefulSetController::default()),
            Box::new(job::JobController::default()),
            Box::new(cronjob::CronJobController::default()),
            Box::new(podautoscaler::HorizontalController::default()),
            Box::new(persistentvolume::PersistentVolumeController::default()),
            Box::new(localpath::LocalPathProvisioner::default()),
            Box::new(daemonset::DaemonSetsController::default()),
            Box::new(endpointslice::EndpointSliceController::default()),
            Box::new(endpoints::EndpointsController::default()),
            Box::new(garbagecollector::GarbageCollector),
            Box::new(namespace::NamespaceController),
            Box::new(serviceaccount::ServiceAccountController),
            Box::new(rootcacert::RootCaCertPublisher),
            Box::new(nodelifecycle::NodeLifecycleController::default()),
            Box::new(tainteviction::TaintEvictionController::default()),
            Box::new(disruption::DisruptionController),
        ];
        ControllerManager { controllers, queues: Queues::default(), events: EventRecorder::new(), api }
    }

    /// Turns a controller off (like `--controllers=-name`), e.g. node lifecycle in a lab
    /// whose kubelets do not heartbeat.
    pub fn without(mut self, name: &str) -> Self {
        self.controllers.retain(|c| c.name() != name);
        self
    }

    /// The names of the running controllers.
    pub fn controller_names(&self) -> Vec<&'static str> {
        self.controllers.iter().map(|c| c.name()).collect()
    }
}

impl Actor<World> for ControllerManager {
    fn handles(&self, target: &Target) -> bool {
        matches!(target, Target::Controller(n) if self.controllers.iter().any(|c| c.name() == *n))
    }

    fn observe(&mut self, core: &mut World, event: &WatchEvent<Object>) {
        let mut cx = Cx { core, api: self.api, queues: &mut self.queues, events: &mut self.events };
        for c in self.controllers.iter_mut() {
            c.observe(&mut cx, event);
        }
    }

    fn run(&mut self, core: &mut World, task: &Task) {
        let Target::Controller(name) = &task.target else { return };
        let k = (*name, task.key.clone());
        if self.queues.pending.get(&k) == Some(&core.now) {
            self.queues.pending.remove(&k);
        }
        let mut cx = Cx { core, api: self.api, queues: &mut self.queues, events: &mut self.events };
        if let Some(c) = self.controllers.iter_mut().find(|c| c.name() == *name) {
            c.sync(&mut cx, &task.key);
        }
    }
}
