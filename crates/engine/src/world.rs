//! The lab's world: the simulation [`Core`] every actor shares (clock, store, randomness,
//! trace, queue) and the [`ApiServer`] they all write through, side by side.
//!
//! The actors run on a `World` ([`crate::sim::Actor<World>`]) and read it as a `Core`
//! (`Deref`): `core.now`, `core.store`, `core.after(..)`. A request
//! ([`crate::apiserver::handle`]) borrows both halves at once, the core for the store and the
//! trace, the API server for its admission chain and the answers it keeps across requests.

use crate::apiserver::{ApiServer, Parts};
use crate::sim::{self, Core, StepBuilder, Task};
use std::ops::{Deref, DerefMut};

/// The simulation core and the API server.
#[derive(Clone, Debug)]
pub struct World {
    pub core: Core,
    pub api: ApiServer,
}

impl World {
    /// A world with an empty store, seeded with `seed`.
    pub fn new(seed: u64) -> World {
        World { core: Core::new(seed), api: ApiServer::new() }
    }

    /// [`Core::routine`], with `f` getting the world (its requests go through the API server).
    pub fn routine<R>(&mut self, f: impl FnOnce(&mut World) -> R) -> R {
        sim::routine(self, f)
    }

    // `Core`'s methods whose arguments often read the core (`core.after(t - core.now, ..)`):
    // called on the world itself, such a call borrows it the way it borrows a `Core`
    // (two-phase borrows do not reach through `DerefMut`).

    /// [`Core::after`].
    pub fn after(&mut self, delay_ms: u64, task: Task) {
        self.core.after(delay_ms, task);
    }

    /// [`Core::record`].
    pub fn record(&mut self, b: StepBuilder) -> usize {
        self.core.record(b)
    }
}

impl AsMut<Core> for World {
    fn as_mut(&mut self) -> &mut Core {
        &mut self.core
    }
}

impl Deref for World {
    type Target = Core;

    fn deref(&self) -> &Core {
        &self.core
    }
}

impl DerefMut for World {
    fn deref_mut(&mut self) -> &mut Core {
        &mut self.core
    }
}

impl Parts for World {
    fn parts(&mut self) -> (&mut Core, &mut ApiServer) {
        (&mut self.core, &mut self.api)
    }
}
