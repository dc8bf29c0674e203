//! The simulation core: a discrete-event loop over a logical clock.
//!
//! Everything that happens is a [`Task`] queued for a logical time. Running a task lets one
//! actor (kubectl, a controller, the scheduler, a kubelet) read the store and write through
//! the API server (`apiserver::handle`); every write becomes a watch event, and after
//! each task the new watch events are offered to every actor, which may queue work of its own
//! (with a small watch latency). The loop ends when nothing but periodic work is left and the
//! cluster has been quiet for [`SETTLE_MS`], or at the time limit.
//!
//! Actors never call each other: like the real components, they only talk through the API
//! server and learn about changes through watches.

use crate::object::Object;
use crate::rng::Rng;
use crate::store::{Store, WatchEvent};
use crate::trace::{Component, Detail, ObjectRef, Phase, Step, StepStatus};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The cluster counts as settled after this long without a write, when only periodic work
/// (probes, heartbeats) is left.
pub const SETTLE_MS: u64 = 60_000;

/// Who runs a task.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    Kubectl,
    /// A controller of kube-controller-manager, by upstream name (`deployment-controller`).
    Controller(&'static str),
    Scheduler,
    /// The kubelet of a node (it also drives that node's runtime and CNI plugin).
    Kubelet(String),
}

/// A unit of work queued for a logical time.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Task {
    pub target: Target,
    /// What to work on: usually an object key (`default/web`), interpreted by the target.
    pub key: String,
    /// Periodic work (probes, resyncs) does not keep the simulation alive by itself.
    pub periodic: bool,
}

impl Task {
    pub fn new(target: Target, key: impl Into<String>) -> Task {
        Task { target, key: key.into(), periodic: false }
    }

    pub fn periodic(target: Target, key: impl Into<String>) -> Task {
        Task { target, key: key.into(), periodic: true }
    }
}

/// A step being recorded; [`Core::record`] fills in index, time and revision.
#[derive(Clone, Debug)]
pub struct StepBuilder {
    pub phase: Phase,
    pub from: Component,
    pub to: Component,
    pub node: Option<String>,
    pub object: Option<ObjectRef>,
    pub request_id: Option<u32>,
    pub summary: String,
    pub status: StepStatus,
    pub detail: Detail,
}

impl StepBuilder {
    pub fn new(phase: Phase, from: Component, to: Component, summary: impl Into<String>, detail: Detail) -> Self {
        StepBuilder {
            phase,
            from,
            to,
            node: None,
            object: None,
            request_id: None,
            summary: summary.into(),
            status: StepStatus::Ok,
            detail,
        }
    }

    pub fn node(mut self, node: impl Into<String>) -> Self {
        self.node = Some(node.into());
        self
    }

    pub fn object(mut self, object: Option<ObjectRef>) -> Self {
        self.object = object;
        self
    }

    pub fn request(mut self, id: Option<u32>) -> Self {
        self.request_id = id;
        self
    }

    pub fn status(mut self, status: StepStatus) -> Self {
        self.status = status;
        self
    }
}

/// A reference to an object for the trace.
pub fn object_ref(obj: &Object) -> ObjectRef {
    ObjectRef {
        kind: obj.kind().to_string(),
        namespace: obj.namespace().map(str::to_string),
        name: obj.name().to_string(),
    }
}

/// The state every actor shares: the clock, the store, the randomness and the trace. The
/// API server's own state lives beside it, in the lab's world (`world::World`): this module
/// knows nothing of the API server.
#[derive(Clone, Debug)]
pub struct Core {
    /// Logical time in milliseconds.
    pub now: u64,
    pub store: Store<Object>,
    pub rng: Rng,
    pub steps: Vec<Step>,
    queue: BinaryHeap<Reverse<(u64, u64, Task)>>,
    seq: u64,
    next_request: u32,
    last_write_ms: u64,
    /// Whether the writes being made are routine (see [`Core::routine`]).
    routine: bool,
}

impl Core {
    pub fn new(seed: u64) -> Core {
        Core {
            now: 0,
            store: Store::new(),
            rng: Rng::new(seed),
            steps: Vec::new(),
            queue: BinaryHeap::new(),
            seq: 0,
            next_request: 1,
            last_write_ms: 0,
            routine: false,
        }
    }

    /// Records a step at the current time and revision; returns its index.
    pub fn record(&mut self, b: StepBuilder) -> usize {
        let index = self.steps.len();
        self.steps.push(Step {
            index,
            time_ms: self.now,
            phase: b.phase,
            from: b.from,
            to: b.to,
            node: b.node,
            object: b.object,
            request_id: b.request_id,
            summary: b.summary,
            status: b.status,
            revision: self.store.revision(),
            detail: b.detail,
        });
        index
    }

    /// A fresh id that groups the steps of one API request.
    pub fn new_request_id(&mut self) -> u32 {
        let id = self.next_request;
        self.next_request += 1;
        id
    }

    /// Queues `task` to run `delay_ms` from now. Tasks at the same time run in the order
    /// they were queued.
    pub fn after(&mut self, delay_ms: u64, task: Task) {
        self.seq += 1;
        self.queue.push(Reverse((self.now + delay_ms, self.seq, task)));
    }

    /// Whether a task for `target` and `key` is already queued (to avoid queueing twice).
    pub fn is_queued(&self, target: &Target, key: &str) -> bool {
        self.queue.iter().any(|Reverse((_, _, t))| &t.target == target && t.key == key)
    }

    /// Whether the writes being made are routine ([`Core::routine`]): the API server records
    /// no step for one that succeeds.
    pub fn is_routine(&self) -> bool {
        self.routine
    }

    /// Tells the core that the store changed (the API server calls this after a write).
    /// Writes made inside [`Core::routine`] do not count.
    pub fn note_write(&mut self) {
        if !self.routine {
            self.last_write_ms = self.now;
        }
    }

    /// Turns routine mode on or off (see [`Core::routine`]) and returns what it was, for a
    /// component whose routine writes go through helpers that hold more than the core.
    pub fn set_routine(&mut self, on: bool) -> bool {
        std::mem::replace(&mut self.routine, on)
    }

    /// Runs `f` making routine writes (heartbeats, lease renewals): they are stored and
    /// watched like any other, but do not keep the cluster from settling.
    pub fn routine<R>(&mut self, f: impl FnOnce(&mut Core) -> R) -> R {
        routine(self, f)
    }

    /// Drops the queued tasks for `target` and `key` (a timer that is no longer needed, such
    /// as a Deployment's progress check once it completed).
    pub fn cancel(&mut self, target: &Target, key: &str) {
        self.queue.retain(|Reverse((_, _, t))| !(&t.target == target && t.key == key));
    }

    fn pop(&mut self) -> Option<(u64, Task)> {
        self.queue.pop().map(|Reverse((t, _, task))| (t, task))
    }

    fn only_periodic_left(&self) -> bool {
        self.queue.iter().all(|Reverse((_, _, t))| t.periodic)
    }

    /// Whether the cluster has settled as [`run_loop_from`] decides it: nothing but periodic
    /// work queued, and no write for [`SETTLE_MS`] (or nothing queued at all).
    pub fn is_settled(&self) -> bool {
        self.only_periodic_left() && (self.queue.is_empty() || self.now >= self.last_write_ms + SETTLE_MS)
    }
}

impl AsMut<Core> for Core {
    fn as_mut(&mut self) -> &mut Core {
        self
    }
}

/// [`Core::routine`] for whatever holds the core (`W` is [`Core`] or a world around it): `f`
/// gets `world` back, its writes routine.
pub fn routine<W: AsMut<Core>, R>(world: &mut W, f: impl FnOnce(&mut W) -> R) -> R {
    let previous = std::mem::replace(&mut world.as_mut().routine, true);
    let out = f(world);
    world.as_mut().routine = previous;
    out
}

/// One component of the cluster, driven by watch events and its own queued tasks. `W` is
/// what the actors share: the [`Core`], or a world that holds it (`AsMut<Core>`; the lab's
/// holds the API server beside it).
pub trait Actor<W> {
    /// Which tasks this actor runs.
    fn handles(&self, target: &Target) -> bool;
    /// A watch event arrived: decide whether it matters and queue work (`core.after`).
    fn observe(&mut self, core: &mut W, event: &WatchEvent<Object>);
    /// Run a queued task.
    fn run(&mut self, core: &mut W, task: &Task);
}

/// Runs the actors until the cluster settles or `limit_ms` passes. The actors are offered
/// every watch event written since `from_revision`.
pub fn run_loop<W: AsMut<Core>>(world: &mut W, actors: &mut [&mut dyn Actor<W>], limit_ms: u64) {
    let mut delivered = world.as_mut().store.revision();
    run_loop_from(world, actors, &mut delivered, limit_ms);
}

/// Runs the actors from now on, for a live session: every watch event written after
/// revision `delivered` is offered first (writes made between two calls, a command's own
/// requests, are delivered too). Stops as soon as `done` holds after a delivery (`true`), or
/// when the next task is due after `until_ms`: the clock then moves to `until_ms` (`false`).
/// Unlike [`run_loop`], a quiet cluster does not end it: time passes only as the caller
/// asks (a `sleep`, kubectl waiting for a deletion).
pub fn run_until<W: AsMut<Core>>(
    world: &mut W,
    actors: &mut [&mut dyn Actor<W>],
    delivered: &mut u64,
    until_ms: u64,
    mut done: impl FnMut(&mut W) -> bool,
) -> bool {
    loop {
        deliver(world, actors, delivered);
        if done(world) {
            return true;
        }
        let core = world.as_mut();
        let due = core.queue.peek().map(|Reverse((t, _, _))| *t);
        match due {
            Some(t) if t <= until_ms => {
                let Some((time, task)) = core.pop() else { return false };
                core.now = core.now.max(time);
                for actor in actors.iter_mut() {
                    if actor.handles(&task.target) {
                        actor.run(world, &task);
                        break;
                    }
                }
            }
            _ => {
                core.now = core.now.max(until_ms);
                return false;
            }
        }
    }
}

/// [`run_loop`] continuing a live session: events after `delivered` are offered first.
pub fn run_loop_from<W: AsMut<Core>>(
    world: &mut W,
    actors: &mut [&mut dyn Actor<W>],
    delivered: &mut u64,
    limit_ms: u64,
) {
    run_loop_slice(world, actors, delivered, limit_ms, usize::MAX);
}

/// [`run_loop_from`] for at most `max_tasks` tasks: `true` when the cluster settled or the
/// limit came (the run is over), `false` when the budget ran out first. Calling it again with
/// the same `delivered` goes on exactly where it stopped, so a run cut into slices (the page
/// runs a long one between its frames) makes the same steps as one call.
pub fn run_loop_slice<W: AsMut<Core>>(
    world: &mut W,
    actors: &mut [&mut dyn Actor<W>],
    delivered: &mut u64,
    limit_ms: u64,
    max_tasks: usize,
) -> bool {
    let mut ran = 0usize;
    loop {
        deliver(world, actors, delivered);
        let core = world.as_mut();
        if core.only_periodic_left() && core.now >= core.last_write_ms + SETTLE_MS {
            return true;
        }
        // A task due after the limit stays queued: a live session may go on later.
        match core.queue.peek() {
            Some(Reverse((t, _, _))) if *t <= limit_ms => {}
            _ => return true,
        }
        if ran == max_tasks {
            return false;
        }
        ran += 1;
        let Some((time, task)) = core.pop() else { return true };
        core.now = time;
        for actor in actors.iter_mut() {
            if actor.handles(&task.target) {
                actor.run(world, &task);
                break;
            }
        }
    }
}

/// Whether a task for `target` is queued.
pub fn has_task_for<W: AsMut<Core>>(world: &mut W, target: &Target) -> bool {
    world.as_mut().queue.iter().any(|Reverse((_, _, t))| &t.target == target)
}

fn deliver<W: AsMut<Core>>(world: &mut W, actors: &mut [&mut dyn Actor<W>], delivered: &mut u64) {
    loop {
        // The log is lent out while the actors observe it (instead of copying every event
        // and its objects): writes they make meanwhile go to a fresh log, appended after.
        let log = world.as_mut().store.take_log();
        let start = log.partition_point(|e| e.revision <= *delivered);
        let Some(last) = log.last().filter(|_| start < log.len()) else {
            world.as_mut().store.restore_log(log);
            return;
        };
        *delivered = last.revision;
        for event in &log[start..] {
            for actor in actors.iter_mut() {
                actor.observe(world, event);
            }
        }
        world.as_mut().store.restore_log(log);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::Object;
    use k8s_openapi::api::core::v1::ConfigMap;

    fn config_map(name: &str) -> Object {
        let mut cm = ConfigMap::default();
        cm.metadata.name = Some(name.into());
        cm.metadata.namespace = Some("default".into());
        cm.into()
    }

    /// Creates ConfigMap `a` when started, and copies it to `b` when it sees `a` appear.
    struct Copier {
        runs: Vec<(u64, String)>,
    }

    impl Actor<Core> for Copier {
        fn handles(&self, target: &Target) -> bool {
            *target == Target::Controller("copier")
        }
        fn observe(&mut self, core: &mut Core, event: &WatchEvent<Object>) {
            if event.object.name() == "a" {
                core.after(5, Task::new(Target::Controller("copier"), "copy"));
            }
        }
        fn run(&mut self, core: &mut Core, task: &Task) {
            self.runs.push((core.now, task.key.clone()));
            let name = if task.key == "start" { "a" } else { "b" };
            core.store.create(&format!("/registry/configmaps/default/{name}"), config_map(name)).ok();
            core.note_write();
        }
    }

    #[test]
    fn loop_delivers_watch_events_and_settles() {
        let mut core = Core::new(1);
        let mut copier = Copier { runs: vec![] };
        core.after(10, Task::new(Target::Controller("copier"), "start"));
        run_loop(&mut core, &mut [&mut copier], 1_000_000);
        assert_eq!(copier.runs, vec![(10, "start".to_string()), (15, "copy".to_string())]);
        assert!(core.store.get("/registry/configmaps/default/b").is_some());
    }

    #[test]
    fn periodic_work_alone_does_not_keep_the_loop_alive() {
        struct Ticker(u32);
        impl Actor<Core> for Ticker {
            fn handles(&self, _: &Target) -> bool {
                true
            }
            fn observe(&mut self, _: &mut Core, _: &WatchEvent<Object>) {}
            fn run(&mut self, core: &mut Core, task: &Task) {
                self.0 += 1;
                core.after(10_000, task.clone());
            }
        }
        let mut core = Core::new(1);
        let mut t = Ticker(0);
        core.after(0, Task::periodic(Target::Scheduler, "tick"));
        run_loop(&mut core, &mut [&mut t], 10_000_000);
        // Ticks at 0, 10s, ..., 60s; then the cluster has been quiet for SETTLE_MS.
        assert_eq!(t.0, 7);
    }

    #[test]
    fn routine_writes_of_periodic_work_do_not_keep_the_loop_alive() {
        /// Renews a "lease" every 10 s, like a kubelet's heartbeat.
        struct Heart(u32);
        impl Actor<Core> for Heart {
            fn handles(&self, _: &Target) -> bool {
                true
            }
            fn observe(&mut self, _: &mut Core, _: &WatchEvent<Object>) {}
            fn run(&mut self, core: &mut Core, task: &Task) {
                self.0 += 1;
                core.routine(|core| {
                    let key = "/registry/configmaps/kube-node-lease/node";
                    if core.store.create(key, config_map("node")).is_err() {
                        let v = core.store.get(key).map(|(v, _)| v.clone()).unwrap();
                        core.store.update(key, v, None).unwrap();
                    }
                    core.note_write();
                });
                core.after(10_000, task.clone());
            }
        }
        let mut core = Core::new(1);
        let mut h = Heart(0);
        core.after(0, Task::periodic(Target::Kubelet("node".into()), "heartbeat"));
        run_loop(&mut core, &mut [&mut h], 10_000_000);
        assert_eq!(h.0, 7);
    }
}
