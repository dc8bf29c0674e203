//! Pod Security Admission: the Pod Security Standards (`privileged`, `baseline`,
//! `restricted`) at policy versions `v1.0` .. `v1.37` and `latest`, the namespace labels
//! that select them, and the `PodSecurity` validating admission plugin built on them.
//!
//! Behaviour and messages follow upstream's `k8s.io/pod-security-admission` (`api/`,
//! `policy/check_*.go`, `policy/registry.go`, `admission/admission.go`) as shipped with
//! Kubernetes v1.37.
//!
//! * [`policy_for_namespace`] reads the labels of a namespace into a [`NamespacePolicy`].
//! * [`evaluate_pod`] runs the checks of a level at a version on a pod spec.
//! * [`admit`] is the whole plugin for one request.
//!
//! ```
//! use podlab_engine::pod_security::{evaluate_pod, forbidden_detail, Level, Version};
//! let pod: k8s_openapi::api::core::v1::Pod = serde_yaml::from_str(
//!     "metadata: {name: web}\nspec: {containers: [{name: web, image: nginx}]}").unwrap();
//! let results = evaluate_pod(Level::Baseline, Version::Latest, &pod.metadata, pod.spec.as_ref().unwrap());
//! assert!(results.iter().all(|r| r.allowed));
//! ```

mod admission;
mod api;
mod checks;
mod explain;

#[cfg(test)]
mod tests;

pub use admission::{
    admit, check_ids, evaluate_pods_in_namespace, exempt_namespace_warning, extract_pod_template,
    significant_pod_update, AdmissionRequest, Exemptions, ModeEvaluation, Operation, PodSecurityConfig, PsaOutcome,
    IGNORED_POD_SUBRESOURCES, NAMESPACE_MAX_PODS_TO_CHECK, PLUGIN_NAME, POD_TEMPLATE_RESOURCES,
};
pub use api::{
    aggregate_errors, go_quote, policy_for_namespace, policy_with_defaults, LabelError, Level, LevelVersion, Mode,
    NamespacePolicy, Policy, Version, AUDIT_LEVEL_LABEL, AUDIT_VERSION_LABEL, AUDIT_VIOLATIONS_ANNOTATION,
    ENFORCED_POLICY_ANNOTATION, ENFORCE_LEVEL_LABEL, ENFORCE_VERSION_LABEL, ERROR_ANNOTATION, EXEMPT_ANNOTATION,
    LABEL_PREFIX, LATEST_MINOR, WARN_LEVEL_LABEL, WARN_VERSION_LABEL,
};
pub use checks::{
    allowed_sysctls, check_def, checks_for, evaluate, evaluate_pod, forbidden_detail, forbidden_reason,
    newest_registered_minor, violations, CheckDef, CheckResult, CheckVersion, CHECKS,
};
pub use explain::fix_hint;
