//! The API server as a value: what kube-apiserver holds across requests (its admission chain,
//! and answers it keeps while the store says they still hold). The store, the clock and the
//! trace are the simulation's ([`Core`]); a request borrows both ([`super::handle`]).
//!
//! Every answer kept here is keyed on what it read: it is kept with the store revision it
//! holds at, and dropped when a write since that revision touched what it was read from
//! ([`Store::touched_since`]), so a request sees what reading the store again would give.

use super::authz::RbacCache;
use super::{ApiRequest, ApiResponse};
use crate::admission::{self, SimulatedWebhook};
use crate::cluster::{self, LabSettings, SETTINGS_KEY};
use crate::object::Object;
use crate::sim::Core;
use crate::store::Store;
use std::sync::Arc;

/// kube-apiserver's own state.
#[derive(Clone, Debug)]
pub struct ApiServer {
    /// The admission chain, built once (it is plain data: the enabled plugins).
    pub(super) admission: Arc<admission::Chain>,
    /// Whether any webhook configuration was stored, as of a store revision (admission asks
    /// on every request; the answer only changes with a write).
    webhooks_at: Option<(u64, bool)>,
    /// RBAC's answers while no RBAC object changes.
    pub(super) rbac_cache: RbacCache,
    /// The lab settings the server reads (users and tokens, anonymous requests, the
    /// simulated webhook servers).
    pub(super) settings: Settings,
    /// Set while no client can reach the server (the session's `lab stop kube-apiserver`,
    /// or `lab stop etcd`, after which kind's kube-apiserver fails its liveness probe and
    /// exits): every request is refused at the TCP level, before authentication.
    pub unreachable: Option<Unreachable>,
}

/// Where the cluster's own components dial the API server, for their connection errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreachable {
    /// The host in their kubeconfig (`kind-control-plane:6443`).
    pub host: String,
    /// What it resolves to (`172.18.0.4:6443`).
    pub address: String,
}

impl Default for ApiServer {
    fn default() -> Self {
        Self::new()
    }
}

impl ApiServer {
    /// The lab's API server ([`admission::Chain::lab`]), with nothing kept yet.
    pub fn new() -> ApiServer {
        ApiServer {
            admission: Arc::new(admission::Chain::lab()),
            webhooks_at: None,
            rbac_cache: RbacCache::default(),
            settings: Settings::default(),
            unreachable: None,
        }
    }

    /// Handles one request against `core`'s store, recording its steps in `core`'s trace.
    pub fn handle(&mut self, core: &mut Core, req: ApiRequest) -> ApiResponse {
        super::serve(core, self, req)
    }

    /// Whether the cluster has any webhook configuration (then the simulated servers are
    /// read). The answer is kept with the revision it was true at, and holds while no write
    /// since then touched a webhook configuration.
    fn has_webhooks(&mut self, store: &Store<Object>) -> bool {
        const PREFIXES: [&str; 2] =
            ["/registry/mutatingwebhookconfigurations/", "/registry/validatingwebhookconfigurations/"];
        let revision = store.revision();
        if let Some((at, has)) = self.webhooks_at {
            // Still true unless a write since then touched a webhook configuration.
            if !store.touched_since(at, &PREFIXES) {
                self.webhooks_at = Some((revision, has));
                return has;
            }
        }
        let has = PREFIXES.iter().any(|p| store.has_any(p));
        self.webhooks_at = Some((revision, has));
        has
    }

    /// The simulated webhook servers of the lab settings, or `None` when no webhook
    /// configuration exists (nothing would call them).
    pub(super) fn webhook_servers(&mut self, store: &Store<Object>) -> Option<&[SimulatedWebhook]> {
        if !self.has_webhooks(store) {
            return None;
        }
        Some(&self.settings.read(store).webhook_servers)
    }
}

/// Whatever holds a [`Core`] and an [`ApiServer`] side by side (the lab's `world::World`):
/// a request needs both at once.
pub trait Parts {
    fn parts(&mut self) -> (&mut Core, &mut ApiServer);
}

/// The lab settings as stored at [`SETTINGS_KEY`] ([`cluster::settings`]), read again after a
/// write to that key.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The revision the settings hold at, and what was read.
    read: Option<(u64, Arc<ReadSettings>)>,
}

/// The settings, and the simulated webhook servers they list (those that parse).
#[derive(Debug)]
pub(super) struct ReadSettings {
    pub(super) settings: LabSettings,
    pub(super) webhook_servers: Vec<SimulatedWebhook>,
}

impl ReadSettings {
    fn from_store(store: &Store<Object>) -> ReadSettings {
        let settings = cluster::settings(store);
        let webhook_servers = settings.webhooks.iter().filter_map(|w| SimulatedWebhook::from_value(w).ok()).collect();
        ReadSettings { settings, webhook_servers }
    }
}

impl Settings {
    /// The settings `store` holds now.
    pub fn get(&mut self, store: &Store<Object>) -> &LabSettings {
        &self.read(store).settings
    }

    fn read(&mut self, store: &Store<Object>) -> &ReadSettings {
        if self.read.as_ref().is_some_and(|(at, _)| store.touched_since(*at, &[SETTINGS_KEY])) {
            self.read = None;
        }
        let revision = store.revision();
        let (at, read) = self.read.get_or_insert_with(|| (revision, Arc::new(ReadSettings::from_store(store))));
        *at = revision;
        read
    }
}
