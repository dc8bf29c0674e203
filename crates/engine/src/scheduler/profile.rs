//! Scheduler profiles as plain data, and the registry that turns plugin names into
//! plugin instances (upstream `apis/config/v1/default_plugins.go` and
//! `framework/plugins/registry.go`).

use serde::{Deserialize, Serialize};

use super::framework::Plugin;
use super::plugins;

/// One entry of a profile's `multiPoint` list. `weight` 0 means "not set" (a score
/// plugin then gets weight 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginConfig {
    pub name: String,
    #[serde(default)]
    pub weight: i32,
}

/// A `KubeSchedulerProfile`: the scheduler name pods select with `spec.schedulerName`,
/// the plugins in order, and the profile's `percentageOfNodesToScore` (None = use the
/// scheduler-wide value, which defaults to 0 = adaptive).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    pub name: String,
    pub plugins: Vec<PluginConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percentage_of_nodes_to_score: Option<i32>,
}

/// The name pods get when they do not choose a scheduler.
pub const DEFAULT_SCHEDULER_NAME: &str = "default-scheduler";

fn pc(name: &str, weight: i32) -> PluginConfig {
    PluginConfig { name: name.to_string(), weight }
}

impl Profile {
    /// The default profile of kube-scheduler v1.37: upstream's `multiPoint` list, in its
    /// order, with `DynamicResources` inserted before `DefaultPreemption` because the
    /// DynamicResourceAllocation feature is GA and on. The volume plugins the lab does
    /// not model (VolumeRestrictions, NodeVolumeLimits, VolumeZone) and the queue-sort
    /// plugin are kept in the list so the profile reads like upstream's; the registry
    /// gives them no-op implementations.
    pub fn default_profile() -> Profile {
        Profile {
            name: DEFAULT_SCHEDULER_NAME.to_string(),
            plugins: vec![
                pc("SchedulingGates", 0),
                pc("PrioritySort", 0),
                pc("NodeUnschedulable", 0),
                pc("NodeName", 0),
                pc("TaintToleration", 3),
                pc("NodeAffinity", 2),
                pc("NodePorts", 0),
                pc("NodeResourcesFit", 1),
                pc("VolumeRestrictions", 0),
                pc("NodeVolumeLimits", 0),
                pc("VolumeBinding", 0),
                pc("VolumeZone", 0),
                pc("PodTopologySpread", 2),
                pc("InterPodAffinity", 2),
                pc("DynamicResources", 0),
                pc("DefaultPreemption", 0),
                pc("NodeResourcesBalancedAllocation", 1),
                pc("ImageLocality", 1),
                pc("DefaultBinder", 0),
            ],
            percentage_of_nodes_to_score: None,
        }
    }
}

type Factory = fn() -> Box<dyn Plugin>;

/// Maps plugin names to constructors (the in-tree registry).
pub struct Registry {
    entries: Vec<(&'static str, Factory)>,
}

impl Registry {
    pub fn in_tree() -> Registry {
        let entries: Vec<(&'static str, Factory)> = vec![
            ("SchedulingGates", || Box::new(plugins::scheduling_gates::SchedulingGates)),
            ("PrioritySort", || Box::new(plugins::priority_sort::PrioritySort)),
            ("NodeUnschedulable", || Box::new(plugins::node_unschedulable::NodeUnschedulable)),
            ("NodeName", || Box::new(plugins::node_name::NodeName)),
            ("TaintToleration", || Box::new(plugins::taint_toleration::TaintToleration)),
            ("NodeAffinity", || Box::new(plugins::node_affinity::NodeAffinity)),
            ("NodePorts", || Box::new(plugins::node_ports::NodePorts)),
            ("NodeResourcesFit", || Box::new(plugins::node_resources_fit::NodeResourcesFit)),
            ("VolumeRestrictions", || Box::new(plugins::unmodeled::Unmodeled("VolumeRestrictions"))),
            ("NodeVolumeLimits", || Box::new(plugins::unmodeled::Unmodeled("NodeVolumeLimits"))),
            ("VolumeBinding", || Box::new(plugins::volume_binding::VolumeBinding)),
            ("VolumeZone", || Box::new(plugins::unmodeled::Unmodeled("VolumeZone"))),
            ("PodTopologySpread", || Box::new(plugins::pod_topology_spread::PodTopologySpread::system_defaulted())),
            ("InterPodAffinity", || Box::new(plugins::inter_pod_affinity::InterPodAffinity)),
            ("DynamicResources", || Box::new(plugins::dynamic_resources::DynamicResources)),
            ("DefaultPreemption", || Box::new(plugins::default_preemption::DefaultPreemption)),
            ("NodeResourcesBalancedAllocation", || Box::new(plugins::balanced_allocation::BalancedAllocation)),
            ("ImageLocality", || Box::new(plugins::image_locality::ImageLocality)),
            ("DefaultBinder", || Box::new(plugins::default_binder::DefaultBinder)),
        ];
        Registry { entries }
    }

    pub fn create(&self, name: &str) -> Option<Box<dyn Plugin>> {
        self.entries.iter().find(|(n, _)| *n == name).map(|(_, f)| f())
    }

    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.entries.iter().map(|(n, _)| *n)
    }
}
