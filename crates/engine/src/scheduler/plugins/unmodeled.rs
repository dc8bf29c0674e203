//! Default-profile plugins whose checks the lab does not model (in-tree volume
//! conflicts, CSI attach limits, volume zones). They keep their place in the profile
//! and always let the pod through.

use crate::scheduler::framework::Plugin;

pub struct Unmodeled(pub &'static str);

impl Plugin for Unmodeled {
    fn name(&self) -> &'static str {
        self.0
    }
}
