//! `PodSecurity`: Pod Security Admission (placeholder until the evaluator lands).

use crate::admission::{Attributes, Context, Decision, ValidatingPlugin};
use crate::object::Object;

pub(crate) struct PodSecurity;

impl ValidatingPlugin for PodSecurity {
    fn name(&self) -> &'static str {
        "PodSecurity"
    }

    fn handles(&self, _: &Attributes) -> bool {
        false
    }

    fn validate(&self, _: &Context, _: &Attributes, _: &Object) -> Decision {
        Decision::silent()
    }
}
