//! Plugins of the default set that handle nothing the lab creates. They are in the chain so
//! that its order and contents are upstream's; each says what it would act on.

use super::Built;
use crate::admission::{Attributes, Context, Decision, MutatingPlugin, ValidatingPlugin};
use crate::object::Object;

/// A plugin of the ordered list without a model in the lab.
pub(crate) struct Inert {
    name: &'static str,
}

impl MutatingPlugin for Inert {
    fn name(&self) -> &'static str {
        self.name
    }
    fn handles(&self, _: &Attributes) -> bool {
        false
    }
    fn admit(&self, _: &Context, _: &Attributes, _: &mut Object) -> Decision {
        Decision::silent()
    }
}

impl ValidatingPlugin for Inert {
    fn name(&self) -> &'static str {
        self.name
    }
    fn handles(&self, _: &Attributes) -> bool {
        false
    }
    fn validate(&self, _: &Context, _: &Attributes, _: &Object) -> Decision {
        Decision::silent()
    }
}

/// Which passes a plugin without a model takes part in upstream (mutating, validating).
fn passes(name: &str) -> (bool, bool) {
    match name {
        // Mutating (Admit) hooks.
        "AlwaysAdmit"
        | "NamespaceAutoProvision"
        | "NamespaceExists"
        | "AlwaysPullImages"
        | "PodNodeSelector"
        | "PodTolerationRestriction"
        | "ExtendedResourceToleration"
        | "PodTopologyLabels" => {
            (true, name == "AlwaysPullImages" || name == "PodNodeSelector" || name == "PodTolerationRestriction")
        }
        "MutatingAdmissionPolicy" | "AlwaysDeny" => (true, name == "AlwaysDeny"),
        // Validating hooks.
        _ => (false, true),
    }
}

pub(crate) fn build(name: &'static str) -> Built {
    let (m, v) = passes(name);
    let mutating: Option<Box<dyn MutatingPlugin>> = if m { Some(Box::new(Inert { name })) } else { None };
    let validating: Option<Box<dyn ValidatingPlugin>> = if v { Some(Box::new(Inert { name })) } else { None };
    (mutating, validating)
}
