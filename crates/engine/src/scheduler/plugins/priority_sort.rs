//! PrioritySort: orders the active queue by priority, then by arrival (QueueSort). The
//! ordering itself is `queue::queue_less`; the plugin has no other extension point.

use crate::scheduler::framework::Plugin;

pub struct PrioritySort;

impl Plugin for PrioritySort {
    fn name(&self) -> &'static str {
        "PrioritySort"
    }
}
