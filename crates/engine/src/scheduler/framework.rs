//! The scheduling framework: statuses, the extension-point traits every plugin
//! implements a subset of, the per-cycle state, and `Framework`, which runs the plugins
//! of a profile at each extension point in profile order (upstream
//! `pkg/scheduler/framework/runtime/framework.go`).

use std::any::Any;
use std::borrow::Cow;
use std::collections::BTreeSet;

use k8s_openapi::api::core::v1::Binding;

use super::profile::{Profile, Registry};
use super::queue::{ClusterEvent, QueueingHint};
use super::snapshot::{ClusterSnapshot, NodeInfo, PodInfo};
use crate::rng::Rng;

/// The highest score a plugin may give a node after normalization.
pub const MAX_NODE_SCORE: i64 = 100;

/// Upstream's status codes (the ones the default plugins use).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    Success,
    /// An internal error: the cycle is aborted (the pod condition reason would be
    /// `SchedulerError`).
    Error,
    /// The node (or pod) does not fit now; preemption may help.
    Unschedulable,
    /// The node does not fit and preemption cannot change that.
    UnschedulableAndUnresolvable,
    /// The plugin has nothing to do for this pod: its coupled Filter/Score is skipped.
    Skip,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Success => "Success",
            Code::Error => "Error",
            Code::Unschedulable => "Unschedulable",
            Code::UnschedulableAndUnresolvable => "UnschedulableAndUnresolvable",
            Code::Skip => "Skip",
        }
    }
}

/// A plugin's answer: a code and the reasons shown to users. A success carries no
/// reasons and allocates nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub code: Code,
    pub reasons: Vec<Cow<'static, str>>,
    /// The plugin that produced the status (set by the framework).
    pub plugin: &'static str,
}

impl Status {
    pub fn success() -> Status {
        Status { code: Code::Success, reasons: Vec::new(), plugin: "" }
    }

    pub fn skip() -> Status {
        Status { code: Code::Skip, reasons: Vec::new(), plugin: "" }
    }

    pub fn new(code: Code, reason: impl Into<Cow<'static, str>>) -> Status {
        Status { code, reasons: vec![reason.into()], plugin: "" }
    }

    pub fn unschedulable(reason: impl Into<Cow<'static, str>>) -> Status {
        Status::new(Code::Unschedulable, reason)
    }

    pub fn unresolvable(reason: impl Into<Cow<'static, str>>) -> Status {
        Status::new(Code::UnschedulableAndUnresolvable, reason)
    }

    pub fn error(msg: impl Into<Cow<'static, str>>) -> Status {
        Status::new(Code::Error, msg)
    }

    pub fn with_plugin(mut self, plugin: &'static str) -> Status {
        self.plugin = plugin;
        self
    }

    pub fn is_success(&self) -> bool {
        self.code == Code::Success
    }

    pub fn is_skip(&self) -> bool {
        self.code == Code::Skip
    }

    /// Unschedulable or UnschedulableAndUnresolvable.
    pub fn is_rejected(&self) -> bool {
        matches!(self.code, Code::Unschedulable | Code::UnschedulableAndUnresolvable)
    }

    /// The reasons joined with ", " (`Status.Message()`).
    pub fn message(&self) -> String {
        self.reasons.join(", ")
    }
}

/// Per-cycle data a plugin computes at PreFilter/PreScore and reads later. It must be
/// cloneable because preemption evaluates each candidate node on a copy.
pub trait StateData: Any {
    fn clone_state(&self) -> Box<dyn StateData>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any + Clone> StateData for T {
    fn clone_state(&self) -> Box<dyn StateData> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// `CycleState`: one slot per plugin of the profile, plus the plugins whose Filter or
/// Score is skipped this cycle.
#[derive(Default)]
pub struct CycleState {
    filter_state: Vec<Option<Box<dyn StateData>>>,
    score_state: Vec<Option<Box<dyn StateData>>>,
    pub skip_filter: Vec<bool>,
    pub skip_score: Vec<bool>,
}

impl Clone for CycleState {
    fn clone(&self) -> Self {
        let dup =
            |v: &Vec<Option<Box<dyn StateData>>>| v.iter().map(|s| s.as_ref().map(|b| (**b).clone_state())).collect();
        CycleState {
            filter_state: dup(&self.filter_state),
            score_state: dup(&self.score_state),
            skip_filter: self.skip_filter.clone(),
            skip_score: self.skip_score.clone(),
        }
    }
}

impl CycleState {
    pub fn new(plugins: usize) -> CycleState {
        CycleState {
            filter_state: (0..plugins).map(|_| None).collect(),
            score_state: (0..plugins).map(|_| None).collect(),
            skip_filter: vec![false; plugins],
            skip_score: vec![false; plugins],
        }
    }

    pub fn filter_state(&self, plugin: usize) -> Option<&dyn Any> {
        self.filter_state.get(plugin).and_then(|s| s.as_deref()).map(|b| b.as_any())
    }

    pub fn score_state(&self, plugin: usize) -> Option<&dyn Any> {
        self.score_state.get(plugin).and_then(|s| s.as_deref()).map(|b| b.as_any())
    }
}

/// What every plugin can read during a cycle.
pub struct Ctx<'a> {
    pub snapshot: &'a ClusterSnapshot,
}

/// Result of a PreFilter: a status, optionally the only nodes worth checking, and the
/// plugin's state for Filter.
pub struct PreFilterOutput {
    pub status: Status,
    pub node_names: Option<BTreeSet<String>>,
    pub state: Option<Box<dyn StateData>>,
}

impl PreFilterOutput {
    pub fn ok(state: impl StateData) -> PreFilterOutput {
        PreFilterOutput { status: Status::success(), node_names: None, state: Some(Box::new(state)) }
    }

    pub fn status(status: Status) -> PreFilterOutput {
        PreFilterOutput { status, node_names: None, state: None }
    }

    pub fn skip() -> PreFilterOutput {
        PreFilterOutput::status(Status::skip())
    }
}

/// The PostFilter's result: a node to nominate (or "" to clear the nomination) and,
/// for preemption, the pods to evict.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PostFilterResult {
    pub nominated_node: Option<String>,
    pub victims: Vec<Victim>,
    /// Lower-priority pods nominated to the chosen node that lose their nomination.
    pub cleared_nominations: Vec<String>,
}

/// A pod chosen for eviction by preemption.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Victim {
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub node: String,
    pub priority: i32,
}

pub trait PreEnqueuePlugin {
    fn pre_enqueue(&self, pod: &PodInfo) -> Status;
}

pub trait PreFilterPlugin {
    fn pre_filter(&self, ctx: &Ctx, pod: &PodInfo) -> PreFilterOutput;
    /// Whether `add_pod`/`remove_pod` do anything (`PreFilterExtensions`).
    fn has_extensions(&self) -> bool {
        false
    }
    /// Updates the state as if `other` were running on `node` (nominated pods, preemption).
    fn add_pod(&self, _state: &mut dyn Any, _ctx: &Ctx, _pod: &PodInfo, _other: &PodInfo, _node: &NodeInfo) {}
    /// Updates the state as if `other` were gone from `node` (preemption victims).
    fn remove_pod(&self, _state: &mut dyn Any, _ctx: &Ctx, _pod: &PodInfo, _other: &PodInfo, _node: &NodeInfo) {}
}

pub trait FilterPlugin {
    /// `state` is what this plugin's PreFilter stored (None when it has no PreFilter).
    fn filter(&self, state: Option<&dyn Any>, ctx: &Ctx, pod: &PodInfo, node: &NodeInfo) -> Status;

    /// [`FilterPlugin::filter`] over many nodes at once: `nodes` are snapshot indexes,
    /// `alive` the positions in `nodes` still to check. Every position whose node this
    /// plugin rejects leaves `alive` and goes to `rejected` with its status. The result
    /// must be exactly what `filter` gives node by node; a plugin overrides this only to
    /// do per-cycle work (reading its state) once instead of once per node.
    fn filter_nodes(
        &self,
        state: Option<&dyn Any>,
        ctx: &Ctx,
        pod: &PodInfo,
        nodes: &[usize],
        alive: &mut Vec<u32>,
        rejected: &mut Vec<(u32, Status)>,
    ) {
        retain_passing(ctx, nodes, alive, rejected, |node| {
            let s = self.filter(state, ctx, pod, node);
            (!s.is_success()).then_some(s)
        });
    }
}

/// The loop of [`FilterPlugin::filter_nodes`]: keeps in `alive` the positions whose node
/// `rejection` lets through (None) and moves the others, with their status, to `rejected`.
pub fn retain_passing(
    ctx: &Ctx,
    nodes: &[usize],
    alive: &mut Vec<u32>,
    rejected: &mut Vec<(u32, Status)>,
    mut rejection: impl FnMut(&NodeInfo) -> Option<Status>,
) {
    // `retain` by hand: the kept positions move down in place.
    let mut kept = 0;
    for r in 0..alive.len() {
        let k = alive[r];
        match rejection(ctx.snapshot.node(nodes[k as usize])) {
            None => {
                alive[kept] = k;
                kept += 1;
            }
            Some(s) => rejected.push((k, s)),
        }
    }
    alive.truncate(kept);
}

/// What a PostFilter plugin may use: the framework (to rerun filters on what-if nodes),
/// the cycle state and the seeded generator.
pub struct PostFilterCtx<'a, 'b> {
    pub fw: &'a Framework,
    pub state: &'a CycleState,
    pub ctx: &'a Ctx<'a>,
    pub rng: &'b mut Rng,
}

pub trait PostFilterPlugin {
    fn post_filter(
        &self,
        pfx: &mut PostFilterCtx,
        own_state: Option<&dyn Any>,
        pod: &PodInfo,
        statuses: &NodeToStatus,
    ) -> (Status, Option<PostFilterResult>);
}

pub trait PreScorePlugin {
    /// `nodes` are the feasible node indexes.
    fn pre_score(&self, ctx: &Ctx, pod: &PodInfo, nodes: &[usize]) -> (Status, Option<Box<dyn StateData>>);
}

pub trait ScorePlugin {
    fn score(&self, state: Option<&dyn Any>, ctx: &Ctx, pod: &PodInfo, node: &NodeInfo) -> i64;
    /// [`ScorePlugin::score`] for every node of `nodes` (snapshot indexes) into `out`, in
    /// the same order; exactly what `score` gives node by node.
    fn score_nodes(&self, state: Option<&dyn Any>, ctx: &Ctx, pod: &PodInfo, nodes: &[usize], out: &mut [i64]) {
        for (o, &ni) in out.iter_mut().zip(nodes) {
            *o = self.score(state, ctx, pod, ctx.snapshot.node(ni));
        }
    }
    /// `NormalizeScore`; returns false when the plugin has none (scores kept as they are).
    fn normalize(&self, _state: Option<&dyn Any>, _ctx: &Ctx, _nodes: &[usize], _scores: &mut [i64]) -> bool {
        false
    }
}

pub trait ReservePlugin {
    fn reserve(&self, ctx: &Ctx, pod: &PodInfo, node: &str) -> Status;
}

pub trait BindPlugin {
    fn bind(&self, pod: &PodInfo, node: &str) -> Binding;
}

/// A scheduler plugin: a name and the extension points it implements.
pub trait Plugin {
    fn name(&self) -> &'static str;
    fn as_pre_enqueue(&self) -> Option<&dyn PreEnqueuePlugin> {
        None
    }
    fn as_pre_filter(&self) -> Option<&dyn PreFilterPlugin> {
        None
    }
    fn as_filter(&self) -> Option<&dyn FilterPlugin> {
        None
    }
    fn as_post_filter(&self) -> Option<&dyn PostFilterPlugin> {
        None
    }
    fn as_pre_score(&self) -> Option<&dyn PreScorePlugin> {
        None
    }
    fn as_score(&self) -> Option<&dyn ScorePlugin> {
        None
    }
    fn as_reserve(&self) -> Option<&dyn ReservePlugin> {
        None
    }
    fn as_bind(&self) -> Option<&dyn BindPlugin> {
        None
    }
    /// `EnqueueExtensions`: whether `event` may make `pod` schedulable after this plugin
    /// rejected it. `None` means the plugin does not watch this kind of event.
    fn queueing_hint(&self, _pod: &PodInfo, _event: &ClusterEvent) -> Option<QueueingHint> {
        None
    }
}

/// `NodeToStatus`: the statuses of the nodes that were rejected, and one status for
/// every node not listed (nodes a PreFilter excluded, or all of them when PreFilter
/// rejected the pod).
#[derive(Clone, Debug)]
pub struct NodeToStatus {
    pub explicit: Vec<(usize, Status)>,
    pub absent: Status,
}

impl Default for NodeToStatus {
    fn default() -> Self {
        NodeToStatus { explicit: Vec::new(), absent: Status::unresolvable("") }
    }
}

impl NodeToStatus {
    pub fn get(&self, node: usize) -> &Status {
        self.explicit.iter().find(|(i, _)| *i == node).map(|(_, s)| s).unwrap_or(&self.absent)
    }

    /// `NodesForStatusCode`: the nodes whose status has this code, in listing order.
    pub fn nodes_with_code(&self, order: &[usize], code: Code) -> Vec<usize> {
        order.iter().copied().filter(|&i| self.get(i).code == code).collect()
    }
}

/// A filter plugin that runs this cycle, with its PreFilter state.
pub struct ActiveFilter<'s> {
    pub index: usize,
    pub plugin: &'s dyn FilterPlugin,
    pub state: Option<&'s dyn Any>,
}

/// Reusable buffers of [`Framework::run_active_filters_batch`].
#[derive(Default)]
pub struct FilterBatch {
    alive: Vec<u32>,
    plugin_rejected: Vec<(u32, Status)>,
    pub rejected: Vec<(u32, usize, Status)>,
}

/// One filter plugin's verdict on one node, as recorded for the trace.
#[derive(Clone, Debug)]
pub struct FilterRecord {
    pub plugin: usize,
    pub status: Status,
}

/// The plugins of one profile, instantiated, with the indexes of the plugins at each
/// extension point (in profile order) and the score weights.
pub struct Framework {
    pub profile_name: String,
    pub percentage_of_nodes_to_score: Option<i32>,
    plugins: Vec<Box<dyn Plugin>>,
    weights: Vec<i64>,
    pub pre_enqueue: Vec<usize>,
    pub pre_filter: Vec<usize>,
    pub filter: Vec<usize>,
    pub post_filter: Vec<usize>,
    pub pre_score: Vec<usize>,
    pub score: Vec<usize>,
    pub reserve: Vec<usize>,
    pub bind: Vec<usize>,
}

impl Framework {
    /// Instantiates the profile's plugins from the registry (`NewFramework`). A score
    /// plugin configured without a weight gets weight 1, as upstream.
    pub fn new(profile: &Profile, registry: &Registry) -> Result<Framework, String> {
        let mut fw = Framework {
            profile_name: profile.name.clone(),
            percentage_of_nodes_to_score: profile.percentage_of_nodes_to_score,
            plugins: Vec::new(),
            weights: Vec::new(),
            pre_enqueue: Vec::new(),
            pre_filter: Vec::new(),
            filter: Vec::new(),
            post_filter: Vec::new(),
            pre_score: Vec::new(),
            score: Vec::new(),
            reserve: Vec::new(),
            bind: Vec::new(),
        };
        for pc in &profile.plugins {
            if fw.plugins.iter().any(|p| p.name() == pc.name) {
                return Err(format!("plugin {:?} already registered", pc.name));
            }
            let plugin = registry.create(&pc.name).ok_or_else(|| format!("plugin {:?} does not exist", pc.name))?;
            let i = fw.plugins.len();
            let p = plugin.as_ref();
            let push = |v: &mut Vec<usize>, has: bool| {
                if has {
                    v.push(i)
                }
            };
            push(&mut fw.pre_enqueue, p.as_pre_enqueue().is_some());
            push(&mut fw.pre_filter, p.as_pre_filter().is_some());
            push(&mut fw.filter, p.as_filter().is_some());
            push(&mut fw.post_filter, p.as_post_filter().is_some());
            push(&mut fw.pre_score, p.as_pre_score().is_some());
            push(&mut fw.score, p.as_score().is_some());
            push(&mut fw.reserve, p.as_reserve().is_some());
            push(&mut fw.bind, p.as_bind().is_some());
            let weight = if p.as_score().is_some() { i64::from(pc.weight.max(1)) } else { 0 };
            fw.weights.push(weight);
            fw.plugins.push(plugin);
        }
        if fw.bind.is_empty() {
            return Err(format!(
                "at least one bind plugin is needed for profile with scheduler name {:?}",
                profile.name
            ));
        }
        Ok(fw)
    }

    pub fn plugin(&self, i: usize) -> &dyn Plugin {
        self.plugins[i].as_ref()
    }

    pub fn plugin_name(&self, i: usize) -> &'static str {
        self.plugins[i].name()
    }

    pub fn plugin_index(&self, name: &str) -> Option<usize> {
        self.plugins.iter().position(|p| p.name() == name)
    }

    pub fn weight(&self, i: usize) -> i64 {
        self.weights[i]
    }

    pub fn plugins(&self) -> impl Iterator<Item = &dyn Plugin> {
        self.plugins.iter().map(|p| p.as_ref())
    }

    /// The filter plugins that run this cycle, resolved once (the per-node loop then
    /// makes one call per plugin and nothing else).
    pub fn active_filters<'s>(&'s self, state: &'s CycleState) -> Vec<ActiveFilter<'s>> {
        self.filter
            .iter()
            .filter(|&&i| !state.skip_filter[i])
            .filter_map(|&i| {
                self.plugins[i].as_filter().map(|f| ActiveFilter { index: i, plugin: f, state: state.filter_state(i) })
            })
            .collect()
    }

    /// `RunFilterPlugins` over plugins resolved by [`Framework::active_filters`].
    pub fn run_active_filters(
        &self,
        active: &[ActiveFilter],
        ctx: &Ctx,
        pod: &PodInfo,
        node: &NodeInfo,
        mut record: Option<&mut Vec<FilterRecord>>,
    ) -> Status {
        for a in active {
            let status = a.plugin.filter(a.state, ctx, pod, node);
            if let Some(r) = record.as_deref_mut() {
                r.push(FilterRecord { plugin: a.index, status: status.clone().with_plugin(self.plugin_name(a.index)) });
            }
            if !status.is_success() {
                return self.filter_failure(a.index, status);
            }
        }
        Status::success()
    }

    /// What `RunFilterPlugins` returns when plugin `index` did not pass a node: its
    /// rejection, or, for any other code, an error naming the plugin.
    pub fn filter_failure(&self, index: usize, status: Status) -> Status {
        let name = self.plugin_name(index);
        let status = if status.is_rejected() {
            status
        } else {
            Status::error(format!("running {name:?} filter plugin: {}", status.message()))
        };
        status.with_plugin(name)
    }

    /// The trace record of one node filtered by [`Framework::run_active_filters_batch`]:
    /// what [`Framework::run_active_filters`] records for it (every plugin that ran, in
    /// order, with its status). `rejection` is the rejecting plugin's position in `active`
    /// and its status.
    pub fn batch_record(
        &self,
        active: &[ActiveFilter],
        rejection: Option<(usize, &Status)>,
        record: &mut Vec<FilterRecord>,
    ) {
        let ran = rejection.map_or(active.len(), |r| r.0);
        for a in &active[..ran] {
            record.push(FilterRecord {
                plugin: a.index,
                status: Status::success().with_plugin(self.plugin_name(a.index)),
            });
        }
        if let Some((j, s)) = rejection {
            let i = active[j].index;
            record.push(FilterRecord { plugin: i, status: s.clone().with_plugin(self.plugin_name(i)) });
        }
    }

    /// [`Framework::run_active_filters`] for many nodes, plugin by plugin: each plugin
    /// sees only the nodes every earlier plugin passed, so every node gets the status
    /// the node-by-node run gives it. `batch.rejected` ends up holding, sorted by
    /// position in `nodes`, each rejected node's position, the position in `active` of
    /// the plugin that rejected it and that plugin's own status.
    pub fn run_active_filters_batch(
        &self,
        active: &[ActiveFilter],
        ctx: &Ctx,
        pod: &PodInfo,
        nodes: &[usize],
        batch: &mut FilterBatch,
    ) {
        batch.alive.clear();
        batch.alive.extend(0..nodes.len() as u32);
        batch.rejected.clear();
        for (j, a) in active.iter().enumerate() {
            if batch.alive.is_empty() {
                break;
            }
            a.plugin.filter_nodes(a.state, ctx, pod, nodes, &mut batch.alive, &mut batch.plugin_rejected);
            batch.rejected.extend(batch.plugin_rejected.drain(..).map(|(k, s)| (k, j, s)));
        }
        batch.rejected.sort_unstable_by_key(|r| r.0);
    }

    /// `RunFilterPlugins`: stops at the first plugin that rejects the node. When
    /// `record` is given, every plugin that ran is recorded with its status.
    pub fn run_filters(
        &self,
        state: &CycleState,
        ctx: &Ctx,
        pod: &PodInfo,
        node: &NodeInfo,
        record: Option<&mut Vec<FilterRecord>>,
    ) -> Status {
        self.run_active_filters(&self.active_filters(state), ctx, pod, node, record)
    }

    /// Calls the PreFilter extensions (`AddPod`/`RemovePod`) of every plugin whose
    /// Filter is not skipped.
    pub fn run_extensions(
        &self,
        state: &mut CycleState,
        ctx: &Ctx,
        pod: &PodInfo,
        other: &PodInfo,
        node: &NodeInfo,
        add: bool,
    ) {
        for &i in &self.pre_filter {
            if state.skip_filter[i] {
                continue;
            }
            let Some(pf) = self.plugins[i].as_pre_filter() else { continue };
            if !pf.has_extensions() {
                continue;
            }
            if let Some(slot) = state.filter_state[i].as_deref_mut() {
                let s = slot.as_any_mut();
                if add {
                    pf.add_pod(s, ctx, pod, other, node);
                } else {
                    pf.remove_pod(s, ctx, pod, other, node);
                }
            }
        }
    }

    /// `RunFilterPluginsWithNominatedPods`: when pods of equal or higher priority are
    /// nominated to this node, the pod must fit both with them counted and without them.
    pub fn run_filters_with_nominated(
        &self,
        state: &CycleState,
        ctx: &Ctx,
        pod: &PodInfo,
        node: &NodeInfo,
        record: Option<&mut Vec<FilterRecord>>,
    ) -> Status {
        self.run_filters_with_nominated_prepared(None, state, ctx, pod, node, record)
    }

    /// As [`Framework::run_filters_with_nominated`], with the active filters of `state`
    /// already resolved (the common case: no pod nominated to this node).
    pub fn run_filters_with_nominated_prepared(
        &self,
        active: Option<&[ActiveFilter]>,
        state: &CycleState,
        ctx: &Ctx,
        pod: &PodInfo,
        node: &NodeInfo,
        record: Option<&mut Vec<FilterRecord>>,
    ) -> Status {
        let nominated: Vec<_> = if ctx.snapshot.nominated.is_empty() {
            Vec::new()
        } else {
            ctx.snapshot
                .nominated
                .iter()
                .filter(|p| p.nominated_node == node.name && p.priority >= pod.priority && p.uid != pod.uid)
                .filter(|p| !(p.namespace == pod.namespace && p.name == pod.name))
                .collect()
        };
        if nominated.is_empty() {
            return match active {
                Some(a) => self.run_active_filters(a, ctx, pod, node, record),
                None => self.run_filters(state, ctx, pod, node, record),
            };
        }
        let mut state_with = state.clone();
        let mut node_with = node.clone();
        for p in &nominated {
            node_with.add_pod((*p).clone());
            self.run_extensions(&mut state_with, ctx, pod, p, &node_with, true);
        }
        let status = self.run_filters(&state_with, ctx, pod, &node_with, record);
        if !status.is_success() {
            return status;
        }
        self.run_filters(state, ctx, pod, node, None)
    }

    /// `RunPreEnqueuePlugins`: the first rejection keeps the pod out of the active queue.
    pub fn run_pre_enqueue(&self, pod: &PodInfo) -> Status {
        for &i in &self.pre_enqueue {
            if let Some(p) = self.plugins[i].as_pre_enqueue() {
                let s = p.pre_enqueue(pod);
                if !s.is_success() {
                    return s.with_plugin(self.plugin_name(i));
                }
            }
        }
        Status::success()
    }

    pub fn set_filter_state(&self, state: &mut CycleState, plugin: usize, data: Option<Box<dyn StateData>>) {
        state.filter_state[plugin] = data;
    }

    pub fn set_score_state(&self, state: &mut CycleState, plugin: usize, data: Option<Box<dyn StateData>>) {
        state.score_state[plugin] = data;
    }
}
