//! One scheduling cycle (upstream `schedule_one.go`): PreEnqueue, PreFilter, Filter over
//! a share of the nodes, PreScore/Score/NormalizeScore on the feasible ones, the choice
//! of a node, PostFilter (preemption) when none fits, then Reserve and Bind.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use k8s_openapi::api::core::v1::Pod;

use super::framework::{
    Code, Ctx, CycleState, FilterBatch, FilterRecord, Framework, NodeToStatus, PostFilterCtx, PostFilterResult, Status,
};
use super::plugins::scheduling_gates;
use super::plugins::volume_binding::volume_actions;
use super::profile::{Profile, Registry, DEFAULT_SCHEDULER_NAME};
use super::snapshot::{ClusterSnapshot, PodInfo};
use super::{ScheduleOutcome, ScheduleResult};
use crate::rng::Rng;
use crate::trace::{
    FilterVerdict, NodeFilterRow, NodeScoreRow, PluginScore, PluginVerdict, SamplingDetail, ScheduleDetail,
};

/// `minFeasibleNodesToFind`: below this many nodes every node is checked.
pub const MIN_FEASIBLE_NODES_TO_FIND: usize = 100;
/// `minFeasibleNodesPercentageToFind`.
pub const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND: i32 = 5;

/// How many nodes one batch of the filter search checks at most.
const FILTER_CHUNK: usize = 256;

/// The error message when the cluster has no node at all (`ErrNoNodesAvailable`).
pub const NO_NODES_AVAILABLE: &str = "no nodes available to schedule pods";

/// `numFeasibleNodesToFind`: how many feasible nodes to find before scoring. Returns the
/// count and the percentage applied. `percentage` 0 means adaptive: 50% minus one point
/// per 125 nodes, at least 5%; never fewer than 100 nodes.
pub fn num_feasible_nodes_to_find(percentage: i32, num_all_nodes: usize) -> (usize, i32) {
    if num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND {
        return (num_all_nodes, 100);
    }
    let mut p = percentage;
    if p == 0 {
        p = (50 - (num_all_nodes / 125) as i64).max(i64::from(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND)) as i32;
    }
    let n = num_all_nodes * p.max(0) as usize / 100;
    (n.max(MIN_FEASIBLE_NODES_TO_FIND), p)
}

/// `FitError.Error()`: `0/N nodes are available: <reasons>. <postfilter>`. Reasons are
/// counted per node (a node may give several), printed `<count> <reason>`, sorted as
/// strings; a PreFilter rejection replaces them.
pub fn fit_error_message(
    num_all_nodes: usize,
    prefilter_msg: &str,
    statuses: &NodeToStatus,
    postfilter_msg: &str,
) -> String {
    let mut msg = format!("0/{num_all_nodes} nodes are available:");
    if !prefilter_msg.is_empty() {
        msg.push_str(&format!(" {prefilter_msg}."));
    } else {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, s) in &statuses.explicit {
            for r in &s.reasons {
                *counts.entry(r).or_insert(0) += 1;
            }
        }
        if statuses.explicit.len() < num_all_nodes {
            let absent = num_all_nodes - statuses.explicit.len();
            for r in &statuses.absent.reasons {
                *counts.entry(r).or_insert(0) += absent;
            }
        }
        let mut parts: Vec<String> = counts.iter().map(|(r, c)| format!("{c} {r}")).collect();
        crate::sort::sort(&mut parts);
        if !parts.is_empty() {
            msg.push_str(&format!(" {}.", parts.join(", ")));
        }
    }
    if !postfilter_msg.is_empty() {
        msg.push_str(&format!(" {postfilter_msg}"));
    }
    msg
}

/// `validation.NoteLengthLimit`: events longer than this are cut with " ...".
pub const NOTE_LENGTH_LIMIT: usize = 1024;

pub fn truncate_message(msg: &str) -> String {
    if msg.len() <= NOTE_LENGTH_LIMIT {
        return msg.to_string();
    }
    let mut end = NOTE_LENGTH_LIMIT - 4;
    while !msg.is_char_boundary(end) {
        end -= 1;
    }
    format!("{} ...", &msg[..end])
}

/// How much of a cycle goes into the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DetailLevel {
    /// Every evaluated node's filter verdicts and every feasible node's scores.
    Full,
    /// Plugin-level results and the outcome only (for large clusters and benchmarks).
    Summary,
}

#[derive(Clone, Debug)]
pub struct SchedulerOptions {
    /// The scheduler-wide `percentageOfNodesToScore` (0 = adaptive, the default); a
    /// profile's own value takes precedence.
    pub percentage_of_nodes_to_score: i32,
    pub detail: DetailLevel,
}

impl Default for SchedulerOptions {
    fn default() -> Self {
        SchedulerOptions { percentage_of_nodes_to_score: 0, detail: DetailLevel::Full }
    }
}

/// A kube-scheduler with one profile. It keeps, across cycles, the index where the next
/// node search starts (so every node gets its turn when only a share is searched).
pub struct Scheduler {
    pub framework: Framework,
    pub options: SchedulerOptions,
    next_start_node_index: usize,
    feasible: Vec<usize>,
    batch: FilterBatch,
    chunk: Vec<usize>,
    raw: Vec<i64>,
    normalized: Vec<i64>,
    totals: Vec<i64>,
}

fn verdict(plugin: &str, s: &Status) -> PluginVerdict {
    PluginVerdict { plugin: plugin.to_string(), code: s.code.as_str().to_string(), message: s.message() }
}

impl Scheduler {
    pub fn new(profile: &Profile, options: SchedulerOptions) -> Result<Scheduler, String> {
        Ok(Scheduler {
            framework: Framework::new(profile, &Registry::in_tree())?,
            options,
            next_start_node_index: 0,
            feasible: Vec::new(),
            batch: FilterBatch::default(),
            chunk: Vec::new(),
            raw: Vec::new(),
            normalized: Vec::new(),
            totals: Vec::new(),
        })
    }

    /// The default profile with default options.
    pub fn default_scheduler() -> Scheduler {
        Scheduler::new(&Profile::default_profile(), SchedulerOptions::default())
            .unwrap_or_else(|e| unreachable!("the default profile is valid: {e}"))
    }

    /// Whether this scheduler handles the pod (`spec.schedulerName`, defaulted to
    /// `default-scheduler`).
    pub fn responsible_for(&self, pod: &Pod) -> bool {
        let name = pod.spec.as_ref().and_then(|s| s.scheduler_name.as_deref()).unwrap_or(DEFAULT_SCHEDULER_NAME);
        name == self.framework.profile_name
    }

    /// Where the next node search starts.
    pub fn next_start_node_index(&self) -> usize {
        self.next_start_node_index
    }

    /// Runs one scheduling cycle for `pod` against `snapshot`. Pure: the only state it
    /// changes is the next search start; random choices come from `rng`.
    pub fn schedule(&mut self, pod: &Pod, snapshot: &ClusterSnapshot, rng: &mut Rng) -> ScheduleOutcome {
        self.schedule_shared(Arc::new(pod.clone()), snapshot, rng)
    }

    /// [`Scheduler::schedule`] of a pod held in an `Arc` (the store's own value): the cycle
    /// reads it without a copy.
    pub fn schedule_shared(&mut self, pod: Arc<Pod>, snapshot: &ClusterSnapshot, rng: &mut Rng) -> ScheduleOutcome {
        let fw = &self.framework;
        let info = PodInfo::new(pod, snapshot.priority_classes());
        let full = self.options.detail == DetailLevel::Full;
        let mut detail = ScheduleDetail {
            profile: fw.profile_name.clone(),
            prefilter: Vec::new(),
            filter: Vec::new(),
            scores: Vec::new(),
            chosen: None,
            tie_break: None,
            postfilter: None,
            message: None,
            prefilter_results: Vec::new(),
            sampling: None,
            prescore_results: Vec::new(),
            postfilter_results: Vec::new(),
            nominated_node: None,
            victims: Vec::new(),
            binding_results: Vec::new(),
        };

        // PreEnqueue: a gated pod never reaches the cycle.
        let gate = fw.run_pre_enqueue(&info);
        if !gate.is_success() {
            detail.prefilter.push(format!("{}: {}", gate.plugin, gate.message()));
            return ScheduleOutcome {
                detail,
                result: ScheduleResult::Gated { gates: scheduling_gates::gate_names(&info), message: gate.message() },
            };
        }

        if snapshot.num_nodes() == 0 {
            detail.message = Some(NO_NODES_AVAILABLE.to_string());
            return ScheduleOutcome {
                detail,
                result: ScheduleResult::Unschedulable {
                    message: NO_NODES_AVAILABLE.to_string(),
                    nominated_node: Some(String::new()),
                    victims: Vec::new(),
                    unschedulable_plugins: Vec::new(),
                },
            };
        }

        let ctx = Ctx { snapshot };
        let mut state = CycleState::new(fw.plugins().count());
        let mut unschedulable_plugins: BTreeSet<&'static str> = BTreeSet::new();

        // ---- PreFilter ----
        let mut prefilter_reject: Option<Status> = None;
        let mut narrowed: Option<(BTreeSet<String>, Vec<&'static str>)> = None;
        for &i in &fw.pre_filter {
            let name = fw.plugin_name(i);
            let Some(pf) = fw.plugin(i).as_pre_filter() else { continue };
            let out = pf.pre_filter(&ctx, &info);
            detail.prefilter_results.push(verdict(name, &out.status));
            fw.set_filter_state(&mut state, i, out.state);
            let status = out.status.with_plugin(name);
            if status.is_skip() {
                state.skip_filter[i] = true;
                continue;
            }
            match status.code {
                Code::Success => {}
                Code::UnschedulableAndUnresolvable => {
                    prefilter_reject = Some(status);
                    break;
                }
                Code::Unschedulable => {
                    prefilter_reject = Some(status);
                    continue;
                }
                _ => return self.error_outcome(detail, status),
            }
            if let Some(names) = out.node_names {
                let merged = match narrowed.take() {
                    None => (names, vec![name]),
                    Some((prev, mut plugins)) => {
                        plugins.push(name);
                        (prev.intersection(&names).cloned().collect(), plugins)
                    }
                };
                if merged.0.is_empty() {
                    let mut plugins = merged.1.clone();
                    crate::sort::sort(&mut plugins);
                    let msg = if plugins.len() == 1 {
                        format!("node(s) didn't satisfy plugin {}", plugins[0])
                    } else {
                        format!("node(s) didn't satisfy plugin(s) [{}] simultaneously", plugins.join(" "))
                    };
                    unschedulable_plugins.extend(plugins.iter().copied());
                    prefilter_reject = Some(Status::unresolvable(msg));
                    break;
                }
                narrowed = Some(merged);
            }
        }

        let mut statuses = NodeToStatus {
            explicit: Vec::new(),
            absent: Status { code: Code::UnschedulableAndUnresolvable, reasons: Vec::new(), plugin: "" },
        };
        let mut prefilter_msg = String::new();
        let mut feasible = std::mem::take(&mut self.feasible);
        feasible.clear();

        if let Some(s) = prefilter_reject {
            if !s.plugin.is_empty() {
                unschedulable_plugins.insert(s.plugin);
            }
            prefilter_msg = s.message();
            detail.prefilter.push(prefilter_msg.clone());
            statuses.absent = s;
        } else {
            // The nominated node (from an earlier preemption) is tried first.
            let mut done = false;
            if !info.nominated_node.is_empty() {
                if let Some(ni) = snapshot.node_index(&info.nominated_node) {
                    let mut record = Vec::new();
                    let s = fw.run_filters_with_nominated(
                        &state,
                        &ctx,
                        &info,
                        snapshot.node(ni),
                        full.then_some(&mut record),
                    );
                    if full {
                        detail.filter.push(self.filter_row(
                            &state.skip_filter,
                            snapshot.node(ni).name.clone(),
                            s.is_success(),
                            record,
                        ));
                    }
                    if s.is_success() {
                        feasible.push(ni);
                        done = true;
                    } else {
                        statuses.explicit.push((ni, s));
                    }
                }
            }
            if !done {
                statuses.explicit.clear();
                let order = snapshot.node_order();
                let nodes: std::borrow::Cow<[usize]> = match &narrowed {
                    Some((names, plugins)) => {
                        let mut ps = plugins.clone();
                        crate::sort::sort(&mut ps);
                        unschedulable_plugins.extend(ps.iter().copied());
                        let msg = format!("node(s) didn't satisfy plugin(s) [{}]", ps.join(" "));
                        detail.prefilter.push(format!(
                            "{}: only {} can fit",
                            ps.join(", "),
                            names.iter().cloned().collect::<Vec<_>>().join(", ")
                        ));
                        statuses.absent = Status::unresolvable(msg);
                        if full {
                            for &i in order {
                                if !names.contains(&snapshot.node(i).name) {
                                    detail.filter.push(NodeFilterRow {
                                        node: snapshot.node(i).name.clone(),
                                        feasible: false,
                                        verdicts: vec![FilterVerdict {
                                            plugin: ps.join(", "),
                                            passed: false,
                                            reasons: statuses.absent.reasons.iter().map(|r| r.to_string()).collect(),
                                            resolvable: false,
                                        }],
                                        not_run: Vec::new(),
                                    });
                                }
                            }
                        }
                        order.iter().copied().filter(|&i| names.contains(&snapshot.node(i).name)).collect()
                    }
                    None => std::borrow::Cow::Borrowed(order),
                };
                let percentage = fw.percentage_of_nodes_to_score.unwrap_or(self.options.percentage_of_nodes_to_score);
                let (to_find, applied) = num_feasible_nodes_to_find(percentage, nodes.len());
                let start = if nodes.is_empty() { 0 } else { self.next_start_node_index % nodes.len() };
                let mut evaluated = 0;
                let active = fw.active_filters(&state);
                let no_nominated = snapshot.nominated.is_empty();
                let mut batch = std::mem::take(&mut self.batch);
                let mut chunk = std::mem::take(&mut self.chunk);
                let mut error = None;
                let mut at = start;
                let mut remaining = nodes.len();
                // Without nominated pods the filters run plugin by plugin over a chunk of
                // nodes (each plugin on the nodes the earlier ones passed). A chunk never
                // holds more nodes than feasible ones are still wanted, so the search
                // stops exactly where a node-by-node search would.
                'search: while remaining > 0 && feasible.len() < to_find {
                    let take = if no_nominated { remaining.min(FILTER_CHUNK).min(to_find - feasible.len()) } else { 1 };
                    chunk.clear();
                    for _ in 0..take {
                        chunk.push(nodes[at]);
                        at += 1;
                        if at == nodes.len() {
                            at = 0;
                        }
                    }
                    remaining -= take;
                    if no_nominated {
                        fw.run_active_filters_batch(&active, &ctx, &info, &chunk, &mut batch);
                    }
                    let mut rejected = batch.rejected.drain(..).peekable();
                    for (k, &ni) in chunk.iter().enumerate() {
                        let node = snapshot.node(ni);
                        evaluated += 1;
                        let mut record = Vec::new();
                        // None: the node passed every filter.
                        let rejection = if no_nominated {
                            let rejection = rejected.next_if(|r| r.0 as usize == k);
                            if full {
                                fw.batch_record(&active, rejection.as_ref().map(|r| (r.1, &r.2)), &mut record);
                            }
                            rejection.map(|(_, j, raw)| fw.filter_failure(active[j].index, raw))
                        } else {
                            let s = fw.run_filters_with_nominated_prepared(
                                Some(&active),
                                &state,
                                &ctx,
                                &info,
                                node,
                                full.then_some(&mut record),
                            );
                            (!s.is_success()).then_some(s)
                        };
                        if full {
                            detail.filter.push(self.filter_row(
                                &state.skip_filter,
                                node.name.clone(),
                                rejection.is_none(),
                                record,
                            ));
                        }
                        match rejection {
                            None => {
                                feasible.push(ni);
                                if feasible.len() >= to_find {
                                    break 'search;
                                }
                            }
                            Some(s) if s.code == Code::Error => {
                                error = Some(s);
                                break 'search;
                            }
                            Some(s) => {
                                unschedulable_plugins.insert(s.plugin);
                                statuses.explicit.push((ni, s));
                            }
                        }
                    }
                }
                batch.rejected.clear();
                self.batch = batch;
                self.chunk = chunk;
                if let Some(s) = error {
                    feasible.clear();
                    self.feasible = feasible;
                    return self.error_outcome(detail, s);
                }
                let processed = feasible.len() + statuses.explicit.len();
                self.next_start_node_index = (self.next_start_node_index + processed) % snapshot.num_nodes();
                detail.sampling = Some(SamplingDetail {
                    nodes_total: nodes.len(),
                    percentage: applied,
                    adaptive: percentage == 0,
                    nodes_to_find: to_find,
                    start_index: start,
                    evaluated,
                    feasible: feasible.len(),
                });
            }
        }

        if feasible.is_empty() {
            self.feasible = feasible;
            return self.failure(detail, &state, &ctx, &info, statuses, &prefilter_msg, unschedulable_plugins, rng);
        }

        // ---- Score ----
        let chosen = if feasible.len() == 1 {
            detail.tie_break = Some("only one feasible node: scoring skipped".into());
            feasible[0]
        } else {
            match self.prioritize(&mut state, &ctx, &info, &feasible, &mut detail, rng) {
                Ok(i) => i,
                Err(s) => {
                    self.feasible = feasible;
                    return self.error_outcome(detail, s);
                }
            }
        };
        self.feasible = feasible;
        let fw = &self.framework;
        let node_name = snapshot.node(chosen).name.clone();
        detail.chosen = Some(node_name.clone());

        // ---- Reserve, Bind ----
        for &i in &fw.reserve {
            if let Some(r) = fw.plugin(i).as_reserve() {
                let s = r.reserve(&ctx, &info, &node_name);
                detail.binding_results.push(verdict(fw.plugin_name(i), &s));
            }
        }
        let volume_actions = volume_actions(snapshot, &info, &node_name);
        let Some(binder) = fw.bind.first().and_then(|&i| fw.plugin(i).as_bind().map(|b| (i, b))) else {
            return self.error_outcome(detail, Status::error("no bind plugin"));
        };
        let binding = Box::new(binder.1.bind(&info, &node_name));
        detail.binding_results.push(PluginVerdict {
            plugin: fw.plugin_name(binder.0).to_string(),
            code: "Success".into(),
            message: format!("Binding {} to node {}", info.key(), node_name),
        });
        ScheduleOutcome { detail, result: ScheduleResult::Scheduled { node: node_name, binding, volume_actions } }
    }

    fn filter_row(&self, skip: &[bool], node: String, feasible: bool, record: Vec<FilterRecord>) -> NodeFilterRow {
        let fw = &self.framework;
        let failed_at = record.iter().position(|r| !r.status.is_success());
        let not_run = match failed_at {
            Some(k) => {
                let failing = record[k].plugin;
                let pos = fw.filter.iter().position(|&i| i == failing).unwrap_or(fw.filter.len());
                fw.filter
                    .get(pos + 1..)
                    .unwrap_or(&[])
                    .iter()
                    .filter(|&&i| !skip[i])
                    .map(|&i| fw.plugin_name(i).to_string())
                    .collect()
            }
            None => Vec::new(),
        };
        NodeFilterRow {
            node,
            feasible,
            verdicts: record
                .into_iter()
                .map(|r| FilterVerdict {
                    plugin: fw.plugin_name(r.plugin).to_string(),
                    passed: r.status.is_success(),
                    reasons: r.status.reasons.iter().map(|s| s.to_string()).collect(),
                    resolvable: r.status.code != Code::UnschedulableAndUnresolvable,
                })
                .collect(),
            not_run,
        }
    }

    /// PreScore, Score, NormalizeScore, weights, and the choice of the best node; ties
    /// are broken uniformly at random (reservoir sampling over the top scores).
    fn prioritize(
        &mut self,
        state: &mut CycleState,
        ctx: &Ctx,
        info: &PodInfo,
        feasible: &[usize],
        detail: &mut ScheduleDetail,
        rng: &mut Rng,
    ) -> Result<usize, Status> {
        let fw = &self.framework;
        let full = self.options.detail == DetailLevel::Full;
        for &i in &fw.pre_score {
            let Some(ps) = fw.plugin(i).as_pre_score() else { continue };
            let (s, data) = ps.pre_score(ctx, info, feasible);
            fw.set_score_state(state, i, data);
            if s.is_skip() {
                state.skip_score[i] = true;
                detail.prescore_results.push(verdict(fw.plugin_name(i), &s));
            } else if !s.is_success() {
                return Err(Status::error(format!("running PreScore plugin {:?}: {}", fw.plugin_name(i), s.message())));
            }
        }
        let plugins: Vec<usize> = fw.score.iter().copied().filter(|&i| !state.skip_score[i]).collect();
        let n = feasible.len();
        let (raw, normalized, totals) = (&mut self.raw, &mut self.normalized, &mut self.totals);
        // Every entry is written below, so the buffer is only grown, never cleared.
        if raw.len() < plugins.len() * n {
            raw.resize(plugins.len() * n, 0);
        }
        let scorers: Vec<_> = plugins.iter().map(|&i| (fw.plugin(i).as_score(), state.score_state(i))).collect();
        for (p, (sp, st)) in scorers.iter().enumerate() {
            if let Some(sp) = sp {
                sp.score_nodes(*st, ctx, info, feasible, &mut raw[p * n..(p + 1) * n]);
            }
        }
        // The trace wants raw and normalized scores; otherwise normalize in place.
        let len = plugins.len() * n;
        if full {
            normalized.clear();
            normalized.extend_from_slice(&raw[..len]);
        }
        {
            let norm: &mut [i64] = if full { &mut normalized[..len] } else { &mut raw[..len] };
            for (p, &i) in plugins.iter().enumerate() {
                if let Some(sp) = fw.plugin(i).as_score() {
                    sp.normalize(state.score_state(i), ctx, feasible, &mut norm[p * n..(p + 1) * n]);
                }
            }
            totals.clear();
            totals.resize(n, 0);
            for (p, &i) in plugins.iter().enumerate() {
                let w = fw.weight(i);
                for (t, v) in totals.iter_mut().zip(&norm[p * n..(p + 1) * n]) {
                    *t += v * w;
                }
            }
        }
        if full {
            for (k, &ni) in feasible.iter().enumerate() {
                detail.scores.push(NodeScoreRow {
                    node: ctx.snapshot.node(ni).name.clone(),
                    scores: plugins
                        .iter()
                        .enumerate()
                        .map(|(p, &i)| PluginScore {
                            plugin: fw.plugin_name(i).to_string(),
                            raw: raw[p * n + k],
                            normalized: normalized[p * n + k],
                            weight: fw.weight(i),
                            weighted: normalized[p * n + k] * fw.weight(i),
                        })
                        .collect(),
                    total: totals[k],
                });
            }
        }
        let mut best = 0;
        let mut ties = 1u64;
        for k in 1..n {
            if totals[k] > totals[best] {
                best = k;
                ties = 1;
            } else if totals[k] == totals[best] {
                ties += 1;
                if rng.below(ties) == 0 {
                    best = k;
                }
            }
        }
        if ties > 1 {
            detail.tie_break = Some(format!(
                "{ties} nodes share the top score {}; {} was picked at random",
                totals[best],
                ctx.snapshot.node(feasible[best]).name
            ));
        }
        Ok(feasible[best])
    }

    /// No node fits: run PostFilter (DynamicResources, then preemption) and build the
    /// FailedScheduling message.
    #[allow(clippy::too_many_arguments)]
    fn failure(
        &self,
        mut detail: ScheduleDetail,
        state: &CycleState,
        ctx: &Ctx,
        info: &PodInfo,
        statuses: NodeToStatus,
        prefilter_msg: &str,
        unschedulable_plugins: BTreeSet<&'static str>,
        rng: &mut Rng,
    ) -> ScheduleOutcome {
        let fw = &self.framework;
        let mut postfilter_msg = String::new();
        let mut result: Option<PostFilterResult> = None;
        if fw.post_filter.is_empty() {
            result = Some(PostFilterResult { nominated_node: Some(String::new()), ..Default::default() });
        } else {
            let mut pfx = PostFilterCtx { fw, state, ctx, rng };
            let mut reasons: Vec<String> = Vec::new();
            let mut finished = false;
            for &i in &fw.post_filter {
                let Some(pf) = fw.plugin(i).as_post_filter() else { continue };
                let (s, r) = pf.post_filter(&mut pfx, state.filter_state(i), info, &statuses);
                detail.postfilter_results.push(verdict(fw.plugin_name(i), &s));
                match s.code {
                    Code::Success => {
                        result = r;
                        finished = true;
                        break;
                    }
                    Code::Unschedulable => {
                        if r.as_ref().is_some_and(|r| r.nominated_node.is_some()) {
                            result = r;
                        }
                        reasons.extend(s.reasons.iter().map(|r| r.to_string()));
                    }
                    _ => {
                        // UnschedulableAndUnresolvable stops with its result; an error
                        // stops with no result.
                        if s.code == Code::UnschedulableAndUnresolvable {
                            result = r;
                        }
                        postfilter_msg = s.message();
                        finished = true;
                        break;
                    }
                }
            }
            if !finished {
                postfilter_msg = reasons.join(", ");
            }
        }
        let message = fit_error_message(ctx.snapshot.num_nodes(), prefilter_msg, &statuses, &postfilter_msg);
        if !postfilter_msg.is_empty() {
            detail.postfilter = Some(postfilter_msg);
        }
        let result = result.unwrap_or_default();
        detail.nominated_node = result.nominated_node.clone();
        detail.victims = result.victims.iter().map(|v| format!("{}/{}", v.namespace, v.name)).collect();
        detail.message = Some(message.clone());
        ScheduleOutcome {
            detail,
            result: ScheduleResult::Unschedulable {
                message,
                nominated_node: result.nominated_node,
                victims: result.victims,
                unschedulable_plugins: unschedulable_plugins.iter().map(|s| s.to_string()).collect(),
            },
        }
    }

    fn error_outcome(&self, mut detail: ScheduleDetail, s: Status) -> ScheduleOutcome {
        let message = s.message();
        detail.message = Some(message.clone());
        ScheduleOutcome { detail, result: ScheduleResult::Error { message } }
    }
}
