//! The resource names kubectl resolves against the lab's API server, and the resource types a
//! real v1.37 cluster serves that the lab's does not.
//!
//! kubectl maps a type argument (`pods`, `pod`, `po`, `Pod`, `deployments.apps`,
//! `hpa.v2.autoscaling`) through discovery: each served resource answers to its plural, its
//! singular (the kind in lower case) and its short names, case-insensitively, optionally
//! qualified by `GROUP` or `VERSION.GROUP`. The session derives that table from
//! [`crate::object::RESOURCES`], so every kind the API server stores is known under the names
//! `kubectl api-resources` prints.
//!
//! A type a real cluster serves but the lab's API server does not (`csr`, `tokenreviews`,
//! `csinodes`, ...; [`UNSERVED`], from the GA resources of a v1.37 API server's discovery,
//! upstream's `api/discovery/`) gets a `podlab:` line saying so and what a real cluster would
//! answer; any other type keeps kubectl's `the server doesn't have a resource type` error.

use super::Output;
use crate::object::{ResourceInfo, RESOURCES};

/// The short names discovery reports for the resources the lab serves (by plural).
const SHORT_NAMES: &[(&str, &[&str])] = &[
    ("pods", &["po"]),
    ("namespaces", &["ns"]),
    ("nodes", &["no"]),
    ("services", &["svc"]),
    ("configmaps", &["cm"]),
    ("serviceaccounts", &["sa"]),
    ("limitranges", &["limits"]),
    ("resourcequotas", &["quota"]),
    ("persistentvolumeclaims", &["pvc"]),
    ("persistentvolumes", &["pv"]),
    ("events", &["ev"]),
    ("replicationcontrollers", &["rc"]),
    ("endpoints", &["ep"]),
    ("deployments", &["deploy"]),
    ("replicasets", &["rs"]),
    ("statefulsets", &["sts"]),
    ("daemonsets", &["ds"]),
    ("cronjobs", &["cj"]),
    ("horizontalpodautoscalers", &["hpa"]),
    ("poddisruptionbudgets", &["pdb"]),
    ("ingresses", &["ing"]),
    ("networkpolicies", &["netpol"]),
    ("priorityclasses", &["pc"]),
    ("storageclasses", &["sc"]),
    ("customresourcedefinitions", &["crd", "crds"]),
    ("volumesnapshots", &["vs"]),
    ("volumesnapshotclasses", &["vsclass", "vsclasses"]),
];

/// The short names of a served resource (`crd`, `crds` for customresourcedefinitions).
pub(crate) fn short_names(plural: &str) -> &'static [&'static str] {
    SHORT_NAMES.iter().find(|(p, _)| *p == plural).map(|(_, s)| *s).unwrap_or(&[])
}

/// Whether `base` (lower case) is the plural, the singular (the kind in lower case) or a
/// short name of a resource.
fn answers_to(base: &str, plural: &str, kind: &str, shorts: &[&str]) -> bool {
    base == plural || base.eq_ignore_ascii_case(kind) || shorts.contains(&base)
}

/// Whether the qualifier after the first dot (`apps`, `v1.apps`) names the resource's group.
fn qualifies(qualifier: Option<&str>, group: &str, version: &str) -> bool {
    match qualifier {
        None => true,
        Some(q) => {
            !group.is_empty()
                && (q == group || q.strip_suffix(group).and_then(|v| v.strip_suffix('.')) == Some(version))
        }
    }
}

/// `NAME` or `NAME.QUALIFIER`, lower-cased.
fn split_type(name: &str) -> (String, Option<String>) {
    let lower = name.to_ascii_lowercase();
    match lower.split_once('.') {
        Some((base, q)) => (base.to_string(), Some(q.to_string())),
        None => (lower, None),
    }
}

/// The served resource a type argument names, as kubectl's discovery maps it.
pub(crate) fn resource_named(name: &str) -> Option<&'static ResourceInfo> {
    let (base, qualifier) = split_type(name);
    RESOURCES.iter().find(|r| {
        answers_to(&base, r.plural, r.kind, short_names(r.plural)) && qualifies(qualifier.as_deref(), r.group, r.version)
    })
}

/// Every served resource once (its preferred version), in the table's order.
pub(crate) fn served() -> impl Iterator<Item = &'static ResourceInfo> {
    RESOURCES.iter().enumerate().filter(|(i, r)| !RESOURCES[..*i].iter().any(|o| o.plural == r.plural)).map(|(_, r)| r)
}

/// A resource type a real v1.37 API server serves and the lab's does not.
pub(crate) struct Unserved {
    pub plural: &'static str,
    pub kind: &'static str,
    pub group: &'static str,
    pub version: &'static str,
    pub shorts: &'static [&'static str],
    pub namespaced: bool,
    /// Served for `create` only (reviews, bindings): every other verb is refused.
    pub create_only: bool,
    /// What a kind cluster holds of it, when that is known.
    pub on_kind: &'static str,
}

macro_rules! unserved {
    ($plural:literal, $kind:literal, $group:literal, $version:literal, [$($s:literal),*], $ns:literal, $create:literal, $kind_note:literal) => {
        Unserved {
            plural: $plural,
            kind: $kind,
            group: $group,
            version: $version,
            shorts: &[$($s),*],
            namespaced: $ns,
            create_only: $create,
            on_kind: $kind_note,
        }
    };
}

/// The GA resources of a v1.37 API server's discovery that the lab's API server does not
/// serve (upstream `api/discovery/*__v1.json`; `events.k8s.io/v1` events are left out: kubectl
/// resolves `events` to the core resource the lab serves).
pub(crate) const UNSERVED: &[Unserved] = &[
    unserved!("bindings", "Binding", "", "v1", [], true, true, "the scheduler binds each Pod through its pods/NAME/binding subresource"),
    unserved!("componentstatuses", "ComponentStatus", "", "v1", ["cs"], false, false, "deprecated since v1.19, read-only: the health of scheduler, controller-manager and etcd-0"),
    unserved!("mutatingadmissionpolicies", "MutatingAdmissionPolicy", "admissionregistration.k8s.io", "v1", [], false, false, "a kind cluster starts with none"),
    unserved!("mutatingadmissionpolicybindings", "MutatingAdmissionPolicyBinding", "admissionregistration.k8s.io", "v1", [], false, false, "a kind cluster starts with none"),
    unserved!("validatingadmissionpolicies", "ValidatingAdmissionPolicy", "admissionregistration.k8s.io", "v1", [], false, false, "a kind cluster starts with none"),
    unserved!("validatingadmissionpolicybindings", "ValidatingAdmissionPolicyBinding", "admissionregistration.k8s.io", "v1", [], false, false, "a kind cluster starts with none"),
    unserved!("apiservices", "APIService", "apiregistration.k8s.io", "v1", [], false, false, "one per served group version (v1., v1.apps, ...), kept by kube-apiserver"),
    unserved!("selfsubjectreviews", "SelfSubjectReview", "authentication.k8s.io", "v1", [], false, true, "kubectl auth whoami creates one"),
    unserved!("tokenreviews", "TokenReview", "authentication.k8s.io", "v1", [], false, true, ""),
    unserved!("localsubjectaccessreviews", "LocalSubjectAccessReview", "authorization.k8s.io", "v1", [], true, true, ""),
    unserved!("selfsubjectaccessreviews", "SelfSubjectAccessReview", "authorization.k8s.io", "v1", [], false, true, "kubectl auth can-i creates one"),
    unserved!("selfsubjectrulesreviews", "SelfSubjectRulesReview", "authorization.k8s.io", "v1", [], false, true, "kubectl auth can-i --list creates one"),
    unserved!("subjectaccessreviews", "SubjectAccessReview", "authorization.k8s.io", "v1", [], false, true, ""),
    unserved!("certificatesigningrequests", "CertificateSigningRequest", "certificates.k8s.io", "v1", ["csr"], false, false, "the kubelets' client certificate requests from joining the cluster"),
    unserved!("podcertificaterequests", "PodCertificateRequest", "certificates.k8s.io", "v1", [], true, false, "a kind cluster starts with none"),
    unserved!("flowschemas", "FlowSchema", "flowcontrol.apiserver.k8s.io", "v1", [], false, false, "API Priority and Fairness's built-in configuration, kept by kube-apiserver"),
    unserved!("prioritylevelconfigurations", "PriorityLevelConfiguration", "flowcontrol.apiserver.k8s.io", "v1", [], false, false, "API Priority and Fairness's built-in configuration, kept by kube-apiserver"),
    unserved!("ipaddresses", "IPAddress", "networking.k8s.io", "v1", ["ip"], false, false, "one per allocated Service ClusterIP"),
    unserved!("servicecidrs", "ServiceCIDR", "networking.k8s.io", "v1", [], false, false, "the default ServiceCIDR kubernetes, the Service IP range"),
    unserved!("deviceclasses", "DeviceClass", "resource.k8s.io", "v1", [], false, false, "a kind cluster starts with none"),
    unserved!("resourceclaims", "ResourceClaim", "resource.k8s.io", "v1", [], true, false, "a kind cluster starts with none"),
    unserved!("resourceclaimtemplates", "ResourceClaimTemplate", "resource.k8s.io", "v1", [], true, false, "a kind cluster starts with none"),
    unserved!("resourceslices", "ResourceSlice", "resource.k8s.io", "v1", [], false, false, "a kind cluster starts with none"),
    unserved!("csinodes", "CSINode", "storage.k8s.io", "v1", [], false, false, "one per node, written by its kubelet"),
    unserved!("csistoragecapacities", "CSIStorageCapacity", "storage.k8s.io", "v1", [], true, false, "a kind cluster starts with none"),
    unserved!("volumeattachments", "VolumeAttachment", "storage.k8s.io", "v1", [], false, false, "a kind cluster starts with none (its local-path volumes are not attached)"),
    unserved!("volumeattributesclasses", "VolumeAttributesClass", "storage.k8s.io", "v1", ["vac"], false, false, "a kind cluster starts with none"),
    unserved!("storageversionmigrations", "StorageVersionMigration", "storagemigration.k8s.io", "v1", [], false, false, "a kind cluster starts with none"),
];

/// The unserved resource type a type argument names.
pub(crate) fn unserved_named(name: &str) -> Option<&'static Unserved> {
    let (base, qualifier) = split_type(name);
    UNSERVED.iter().find(|u| {
        answers_to(&base, u.plural, u.kind, u.shorts) && qualifies(qualifier.as_deref(), u.group, u.version)
    })
}

impl Unserved {
    fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_string()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// The `podlab:` line for a command on this type.
    pub(crate) fn note(&self) -> String {
        let what = format!(
            "podlab: the lab's API server does not serve {} ({} {}, {})",
            self.plural,
            self.api_version(),
            self.kind,
            if self.namespaced { "namespaced" } else { "cluster-scoped" }
        );
        let on_kind = if self.on_kind.is_empty() { String::new() } else { format!(" ({})", self.on_kind) };
        if self.create_only {
            format!(
                "{what}; a real v1.37 cluster serves them for create only{on_kind}, so it would refuse this command with 405 MethodNotAllowed"
            )
        } else {
            format!("{what}; a real v1.37 cluster serves them and would run this command against them{on_kind}")
        }
    }
}

/// What kubectl prints for a type argument the lab's API server does not serve: the
/// `podlab:` line for a type a real cluster serves, kubectl's own error otherwise.
pub(super) fn no_type(type_: &str) -> Output {
    match unserved_named(type_) {
        Some(u) => Output::error(u.note()),
        None => Output::error(format!("error: the server doesn't have a resource type \"{type_}\"")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::inspect::tests::transcript;
    use super::*;
    use expect_test::expect;

    #[test]
    fn every_served_kind_answers_to_its_names() {
        for r in RESOURCES {
            let found = resource_named(r.plural).expect(r.plural);
            assert_eq!(found.plural, r.plural);
            assert_eq!(resource_named(&r.kind.to_ascii_lowercase()).map(|f| f.plural), Some(r.plural));
            assert_eq!(resource_named(r.kind).map(|f| f.plural), Some(r.plural));
            for s in short_names(r.plural) {
                assert_eq!(resource_named(s).map(|f| f.plural), Some(r.plural), "{s}");
            }
            if !r.group.is_empty() {
                assert_eq!(resource_named(&format!("{}.{}", r.plural, r.group)).map(|f| f.plural), Some(r.plural));
            }
            // No served name is also an unserved one.
            assert!(unserved_named(r.plural).is_none(), "{}", r.plural);
        }
        assert_eq!(resource_named("hpa.v1.autoscaling").map(|r| r.version), Some("v1"));
        assert_eq!(resource_named("hpa.autoscaling").map(|r| r.version), Some("v2"));
        assert_eq!(resource_named("deployments.v1.apps").map(|r| r.kind), Some("Deployment"));
        assert!(resource_named("deployments.extensions").is_none());
        assert!(resource_named("pods.apps").is_none());
        assert_eq!(resource_named("CRDS").map(|r| r.kind), Some("CustomResourceDefinition"));
        assert_eq!(unserved_named("csr.certificates.k8s.io").map(|u| u.kind), Some("CertificateSigningRequest"));
        assert_eq!(unserved_named("cs").map(|u| u.kind), Some("ComponentStatus"));
        assert!(unserved_named("widgets").is_none());
        let plurals: Vec<&str> = served().map(|r| r.plural).collect();
        assert_eq!(plurals.iter().filter(|p| **p == "horizontalpodautoscalers").count(), 1);
        assert_eq!(plurals.len(), RESOURCES.len() - 1);
    }

    #[test]
    fn unserved_and_unknown_types() {
        let script = "kubectl get csr\nkubectl get tokenreviews\nkubectl describe csinodes kind-worker\nkubectl delete cs scheduler\nkubectl label servicecidrs kubernetes a=b\nkubectl get widgets\nkubectl get deployments.extensions\nkubectl auth can-i list csr\nkubectl auth can-i create tokenreviews\nkubectl auth can-i get widgets\n";
        expect![[r#"
            [0ms-0ms] $ kubectl get csr
            podlab: the lab's API server does not serve certificatesigningrequests (certificates.k8s.io/v1 CertificateSigningRequest, cluster-scoped); a real v1.37 cluster serves them and would run this command against them (the kubelets' client certificate requests from joining the cluster)
            (exit status 1)
            [0ms-0ms] $ kubectl get tokenreviews
            podlab: the lab's API server does not serve tokenreviews (authentication.k8s.io/v1 TokenReview, cluster-scoped); a real v1.37 cluster serves them for create only, so it would refuse this command with 405 MethodNotAllowed
            (exit status 1)
            [0ms-0ms] $ kubectl describe csinodes kind-worker
            podlab: the lab's API server does not serve csinodes (storage.k8s.io/v1 CSINode, cluster-scoped); a real v1.37 cluster serves them and would run this command against them (one per node, written by its kubelet)
            (exit status 1)
            [0ms-0ms] $ kubectl delete cs scheduler
            podlab: the lab's API server does not serve componentstatuses (v1 ComponentStatus, cluster-scoped); a real v1.37 cluster serves them and would run this command against them (deprecated since v1.19, read-only: the health of scheduler, controller-manager and etcd-0)
            (exit status 1)
            [0ms-0ms] $ kubectl label servicecidrs kubernetes a=b
            podlab: the lab's API server does not serve servicecidrs (networking.k8s.io/v1 ServiceCIDR, cluster-scoped); a real v1.37 cluster serves them and would run this command against them (the default ServiceCIDR kubernetes, the Service IP range)
            (exit status 1)
            [0ms-0ms] $ kubectl get widgets
            error: the server doesn't have a resource type "widgets"
            (exit status 1)
            [0ms-0ms] $ kubectl get deployments.extensions
            error: the server doesn't have a resource type "deployments.extensions"
            (exit status 1)
            [0ms-0ms] $ kubectl auth can-i list csr
              > kubectl sends POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
            yes
            (exit status 0)
            [0ms-0ms] $ kubectl auth can-i create tokenreviews
              > kubectl sends POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
            yes
            (exit status 0)
            [0ms-0ms] $ kubectl auth can-i get widgets
              > kubectl sends POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews
            yes
            Warning: the server doesn't have a resource type 'widgets'

            (exit status 0)
        "#]]
        .assert_eq(&transcript(None, script));
    }
}
