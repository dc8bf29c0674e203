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
        answers_to(&base, r.plural, r.kind, short_names(r.plural))
            && qualifies(qualifier.as_deref(), r.group, r.version)
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
    unserved!(
        "bindings",
        "Binding",
        "",
        "v1",
        [],
        true,
        true,
        "the scheduler binds each Pod through its pods/NAME/binding subresource"
    ),
    unserved!(
        "componentstatuses",
        "ComponentStatus",
        "",
        "v1",
        ["cs"],
        false,
        false,
        "deprecated since v1.19, read-only: the health of scheduler, controller-manager and etcd-0"
    ),
    unserved!(
        "mutatingadmissionpolicies",
        "MutatingAdmissionPolicy",
        "admissionregistration.k8s.io",
        "v1",
        [],
        false,
        false,
        "a kind cluster starts with none"
    ),
    unserved!(
        "mutatingadmissionpolicybindings",
        "MutatingAdmissionPolicyBinding",
        "admissionregistration.k8s.io",
        "v1",
        [],
        false,
        false,
        "a kind cluster starts with none"
    ),
    unserved!(
        "validatingadmissionpolicies",
        "ValidatingAdmissionPolicy",
        "admissionregistration.k8s.io",
        "v1",
        [],
        false,
        false,
        "a kind cluster starts with none"
    ),
    unserved!(
        "validatingadmissionpolicybindings",
        "ValidatingAdmissionPolicyBinding",
        "admissionregistration.k8s.io",
        "v1",
        [],
        false,
        false,
        "a kind cluster starts with none"
    ),
    unserved!(
        "apiservices",
        "APIService",
        "apiregistration.k8s.io",
        "v1",
        [],
        false,
        false,
        "one per served group version (v1., v1.apps, ...), kept by kube-apiserver"
    ),
    unserved!(
        "selfsubjectreviews",
        "SelfSubjectReview",
        "authentication.k8s.io",
        "v1",
        [],
        false,
        true,
        "kubectl auth whoami creates one"
    ),
    unserved!("tokenreviews", "TokenReview", "authentication.k8s.io", "v1", [], false, true, ""),
    unserved!(
        "localsubjectaccessreviews",
        "LocalSubjectAccessReview",
        "authorization.k8s.io",
        "v1",
        [],
        true,
        true,
        ""
    ),
    unserved!(
        "selfsubjectaccessreviews",
        "SelfSubjectAccessReview",
        "authorization.k8s.io",
        "v1",
        [],
        false,
        true,
        "kubectl auth can-i creates one"
    ),
    unserved!(
        "selfsubjectrulesreviews",
        "SelfSubjectRulesReview",
        "authorization.k8s.io",
        "v1",
        [],
        false,
        true,
        "kubectl auth can-i --list creates one"
    ),
    unserved!("subjectaccessreviews", "SubjectAccessReview", "authorization.k8s.io", "v1", [], false, true, ""),
    unserved!(
        "certificatesigningrequests",
        "CertificateSigningRequest",
        "certificates.k8s.io",
        "v1",
        ["csr"],
        false,
        false,
        "the kubelets' client certificate requests from joining the cluster"
    ),
    unserved!(
        "podcertificaterequests",
        "PodCertificateRequest",
        "certificates.k8s.io",
        "v1",
        [],
        true,
        false,
        "a kind cluster starts with none"
    ),
    unserved!(
        "flowschemas",
        "FlowSchema",
        "flowcontrol.apiserver.k8s.io",
        "v1",
        [],
        false,
        false,
        "API Priority and Fairness's built-in configuration, kept by kube-apiserver"
    ),
    unserved!(
        "prioritylevelconfigurations",
        "PriorityLevelConfiguration",
        "flowcontrol.apiserver.k8s.io",
        "v1",
        [],
        false,
        false,
        "API Priority and Fairness's built-in configuration, kept by kube-apiserver"
    ),
    unserved!(
        "ipaddresses",
        "IPAddress",
        "networking.k8s.io",
        "v1",
        ["ip"],
        false,
        false,
        "one per allocated Service ClusterIP"
    ),
    unserved!(
        "servicecidrs",
        "ServiceCIDR",
        "networking.k8s.io",
        "v1",
        [],
        false,
        false,
        "the default ServiceCIDR kubernetes, the Service IP range"
    ),
    unserved!(
        "deviceclasses",
        "DeviceClass",
        "resource.k8s.io",
        "v1",
        [],
        false,
        false,
        "a kind cluster starts with none"
    ),
    unserved!(
        "resourceclaims",
        "ResourceClaim",
        "resource.k8s.io",
        "v1",
        [],
        true,
        false,
        "a kind cluster starts with none"
    ),
    unserved!(
        "resourceclaimtemplates",
        "ResourceClaimTemplate",
        "resource.k8s.io",
        "v1",
        [],
        true,
        false,
        "a kind cluster starts with none"
    ),
    unserved!(
        "resourceslices",
        "ResourceSlice",
        "resource.k8s.io",
        "v1",
        [],
        false,
        false,
        "a kind cluster starts with none"
    ),
    unserved!("csinodes", "CSINode", "storage.k8s.io", "v1", [], false, false, "one per node, written by its kubelet"),
    unserved!(
        "csistoragecapacities",
        "CSIStorageCapacity",
        "storage.k8s.io",
        "v1",
        [],
        true,
        false,
        "a kind cluster starts with none"
    ),
    unserved!(
        "volumeattachments",
        "VolumeAttachment",
        "storage.k8s.io",
        "v1",
        [],
        false,
        false,
        "a kind cluster starts with none (its local-path volumes are not attached)"
    ),
    unserved!(
        "volumeattributesclasses",
        "VolumeAttributesClass",
        "storage.k8s.io",
        "v1",
        ["vac"],
        false,
        false,
        "a kind cluster starts with none"
    ),
    unserved!(
        "storageversionmigrations",
        "StorageVersionMigration",
        "storagemigration.k8s.io",
        "v1",
        [],
        false,
        false,
        "a kind cluster starts with none"
    ),
];

/// The unserved resource type a type argument names.
pub(crate) fn unserved_named(name: &str) -> Option<&'static Unserved> {
    let (base, qualifier) = split_type(name);
    UNSERVED
        .iter()
        .find(|u| answers_to(&base, u.plural, u.kind, u.shorts) && qualifies(qualifier.as_deref(), u.group, u.version))
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
            error: the server doesn't have a resource type "deployments"
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

    /// One object of most kinds the earlier session commands had no table or describer
    /// for, next to a Deployment with its Service and HorizontalPodAutoscaler.
    const KINDS_YAML: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.29
        ports:
        - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - name: http
    port: 80
    targetPort: 80
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
  annotations:
    ingressclass.kubernetes.io/is-default-class: "true"
spec:
  controller: k8s.io/ingress-nginx
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  ingressClassName: nginx
  tls:
  - hosts:
    - web.example.com
    secretName: web-tls
  rules:
  - host: web.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              number: 80
      - path: /api
        pathType: Prefix
        backend:
          service:
            name: api
            port:
              name: http
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: web-from-frontend
spec:
  podSelector:
    matchLabels:
      app: web
  ingress:
  - from:
    - podSelector:
        matchLabels:
          role: frontend
    - namespaceSelector:
        matchLabels:
          kubernetes.io/metadata.name: monitoring
    ports:
    - protocol: TCP
      port: 80
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: default-deny
spec:
  podSelector: {}
  policyTypes:
  - Ingress
  - Egress
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata:
  name: gvisor
handler: runsc
---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata:
  name: hostpath.csi.k8s.io
spec:
  attachRequired: false
  podInfoOnMount: true
  volumeLifecycleModes:
  - Persistent
  - Ephemeral
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: hostpath.csi.k8s.io
reclaimPolicy: Retain
allowVolumeExpansion: true
mountOptions:
- noatime
parameters:
  type: ssd
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: high
value: 1000000
description: For the web tier.
---
apiVersion: v1
kind: PodTemplate
metadata:
  name: batch-template
template:
  metadata:
    labels:
      app: batch
  spec:
    containers:
    - name: worker
      image: busybox:1.37
---
apiVersion: v1
kind: ReplicationController
metadata:
  name: legacy
spec:
  replicas: 1
  selector:
    app: legacy
  template:
    metadata:
      labels:
        app: legacy
    spec:
      containers:
      - name: app
        image: nginx:1.29
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
    plural: widgets
    singular: widget
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
---
apiVersion: snapshot.storage.k8s.io/v1
kind: VolumeSnapshotClass
metadata:
  name: csi-snapclass
driver: hostpath.csi.k8s.io
deletionPolicy: Delete
---
apiVersion: snapshot.storage.k8s.io/v1
kind: VolumeSnapshot
metadata:
  name: data-snap
spec:
  volumeSnapshotClassName: csi-snapclass
  source:
    persistentVolumeClaimName: data
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  minReplicas: 2
  maxReplicas: 4
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 80
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 300
      policies:
      - type: Pods
        value: 1
        periodSeconds: 60
"#;

    #[test]
    fn tables_of_every_kind() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{KINDS_YAML}EOF\nsleep 30s\nkubectl get leases -n kube-node-lease\nkubectl get sc\nkubectl get pc -o wide\nkubectl get ing\nkubectl get ingressclasses\nkubectl get netpol\nkubectl get runtimeclasses\nkubectl get csidrivers\nkubectl get podtemplates\nkubectl get rc -o wide\nkubectl get crd\nkubectl get vs\nkubectl get vsclass\nkubectl get ns\nkubectl get cm -A\nkubectl get rolebindings -A -o wide\nkubectl get roles -n kube-system\nkubectl get ep\nkubectl get sc standard\n"
        );
        expect![[r#"
            [0ms-124ms] $ kubectl apply -f -
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends POST /apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /api/v1/namespaces/default/services/web
              > kubectl sends POST /api/v1/namespaces/default/services?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/networking.k8s.io/v1/ingressclasses/nginx
              > kubectl sends POST /apis/networking.k8s.io/v1/ingressclasses?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/networking.k8s.io/v1/namespaces/default/ingresses/web
              > kubectl sends POST /apis/networking.k8s.io/v1/namespaces/default/ingresses?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/networking.k8s.io/v1/namespaces/default/networkpolicies/web-from-frontend
              > kubectl sends POST /apis/networking.k8s.io/v1/namespaces/default/networkpolicies?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/networking.k8s.io/v1/namespaces/default/networkpolicies/default-deny
              > kubectl sends POST /apis/networking.k8s.io/v1/namespaces/default/networkpolicies?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/node.k8s.io/v1/runtimeclasses/gvisor
              > kubectl sends POST /apis/node.k8s.io/v1/runtimeclasses?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/storage.k8s.io/v1/csidrivers/hostpath.csi.k8s.io
              > kubectl sends POST /apis/storage.k8s.io/v1/csidrivers?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/storage.k8s.io/v1/storageclasses/fast
              > kubectl sends POST /apis/storage.k8s.io/v1/storageclasses?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/scheduling.k8s.io/v1/priorityclasses/high
              > kubectl sends POST /apis/scheduling.k8s.io/v1/priorityclasses?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /api/v1/namespaces/default/podtemplates/batch-template
              > kubectl sends POST /api/v1/namespaces/default/podtemplates?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /api/v1/namespaces/default/replicationcontrollers/legacy
              > kubectl sends POST /api/v1/namespaces/default/replicationcontrollers?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com
              > kubectl sends POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/snapshot.storage.k8s.io/v1/volumesnapshotclasses/csi-snapclass
              > kubectl sends POST /apis/snapshot.storage.k8s.io/v1/volumesnapshotclasses?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/snapshot.storage.k8s.io/v1/namespaces/default/volumesnapshots/data-snap
              > kubectl sends POST /apis/snapshot.storage.k8s.io/v1/namespaces/default/volumesnapshots?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web
              > kubectl sends POST /apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            deployment.apps/web created
            service/web created
            ingressclass.networking.k8s.io/nginx created
            ingress.networking.k8s.io/web created
            networkpolicy.networking.k8s.io/web-from-frontend created
            networkpolicy.networking.k8s.io/default-deny created
            runtimeclass.node.k8s.io/gvisor created
            csidriver.storage.k8s.io/hostpath.csi.k8s.io created
            storageclass.storage.k8s.io/fast created
            priorityclass.scheduling.k8s.io/high created
            podtemplate/batch-template created
            replicationcontroller/legacy created
            customresourcedefinition.apiextensions.k8s.io/widgets.example.com created
            volumesnapshotclass.snapshot.storage.k8s.io/csi-snapclass created
            volumesnapshot.snapshot.storage.k8s.io/data-snap created
            horizontalpodautoscaler.autoscaling/web created
            (exit status 0)
            [124ms-30124ms] $ sleep 30s
            (exit status 0)
            [30124ms-30124ms] $ kubectl get leases -n kube-node-lease
              > kubectl sends GET /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases?limit=500
            NAME                 HOLDER               AGE
            kind-control-plane   kind-control-plane   20s
            kind-worker          kind-worker          20s
            kind-worker2         kind-worker2         20s
            (exit status 0)
            [30124ms-30124ms] $ kubectl get sc
              > kubectl sends GET /apis/storage.k8s.io/v1/storageclasses?limit=500
            NAME             PROVISIONER             RECLAIMPOLICY   VOLUMEBINDINGMODE      ALLOWVOLUMEEXPANSION   AGE
            fast (default)   hostpath.csi.k8s.io     Retain          Immediate              true                   30s
            standard         rancher.io/local-path   Delete          WaitForFirstConsumer   false                  30s
            (exit status 0)
            [30124ms-30124ms] $ kubectl get pc -o wide
              > kubectl sends GET /apis/scheduling.k8s.io/v1/priorityclasses?limit=500
            NAME                      VALUE        GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY
            high                      1000000      false            30s   
            system-cluster-critical   2000000000   false            30s   PreemptLowerPriority
            system-node-critical      2000001000   false            30s   PreemptLowerPriority
            (exit status 0)
            [30124ms-30124ms] $ kubectl get ing
              > kubectl sends GET /apis/networking.k8s.io/v1/namespaces/default/ingresses?limit=500
            NAME   CLASS   HOSTS             ADDRESS   PORTS     AGE
            web    nginx   web.example.com             80, 443   30s
            (exit status 0)
            [30124ms-30124ms] $ kubectl get ingressclasses
              > kubectl sends GET /apis/networking.k8s.io/v1/ingressclasses?limit=500
            NAME    CONTROLLER             PARAMETERS   AGE
            nginx   k8s.io/ingress-nginx   <none>       30s
            (exit status 0)
            [30124ms-30124ms] $ kubectl get netpol
              > kubectl sends GET /apis/networking.k8s.io/v1/namespaces/default/networkpolicies?limit=500
            NAME                POD-SELECTOR   AGE
            default-deny        <none>         30s
            web-from-frontend   app=web        30s
            (exit status 0)
            [30124ms-30124ms] $ kubectl get runtimeclasses
              > kubectl sends GET /apis/node.k8s.io/v1/runtimeclasses?limit=500
            NAME     HANDLER   AGE
            gvisor   runsc     30s
            (exit status 0)
            [30124ms-30124ms] $ kubectl get csidrivers
              > kubectl sends GET /apis/storage.k8s.io/v1/csidrivers?limit=500
            NAME                  ATTACHREQUIRED   PODINFOONMOUNT   STORAGECAPACITY   TOKENREQUESTS   REQUIRESREPUBLISH   MODES                  AGE
            hostpath.csi.k8s.io   false            true             false             <unset>         false               Persistent,Ephemeral   30s
            (exit status 0)
            [30124ms-30124ms] $ kubectl get podtemplates
              > kubectl sends GET /api/v1/namespaces/default/podtemplates?limit=500
            NAME             CONTAINERS   IMAGES         POD LABELS
            batch-template   worker       busybox:1.37   app=batch
            (exit status 0)
            [30124ms-30124ms] $ kubectl get rc -o wide
              > kubectl sends GET /api/v1/namespaces/default/replicationcontrollers?limit=500
            NAME     DESIRED   CURRENT   READY   AGE   CONTAINERS   IMAGES       SELECTOR
            legacy   1         0         0       30s   app          nginx:1.29   app=legacy
            (exit status 0)
            [30124ms-30124ms] $ kubectl get crd
              > kubectl sends GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions?limit=500
            NAME                  CREATED AT
            widgets.example.com   2026-01-01T00:00:00Z
            (exit status 0)
            [30124ms-30124ms] $ kubectl get vs
              > kubectl sends GET /apis/snapshot.storage.k8s.io/v1/namespaces/default/volumesnapshots?limit=500
            NAME        READYTOUSE   SOURCEPVC   SOURCESNAPSHOTCONTENT   RESTORESIZE   SNAPSHOTCLASS   SNAPSHOTCONTENT   CREATIONTIME   AGE
            data-snap                data                                              csi-snapclass                                    30s
            (exit status 0)
            [30124ms-30124ms] $ kubectl get vsclass
              > kubectl sends GET /apis/snapshot.storage.k8s.io/v1/volumesnapshotclasses?limit=500
            NAME            DRIVER                DELETIONPOLICY   AGE
            csi-snapclass   hostpath.csi.k8s.io   Delete           30s
            (exit status 0)
            [30124ms-30124ms] $ kubectl get ns
              > kubectl sends GET /api/v1/namespaces?limit=500
            NAME                 STATUS   AGE
            default              Active   30s
            kube-node-lease      Active   30s
            kube-public          Active   30s
            kube-system          Active   30s
            local-path-storage   Active   30s
            (exit status 0)
            [30124ms-30124ms] $ kubectl get cm -A
              > kubectl sends GET /api/v1/configmaps?limit=500
            NAMESPACE            NAME               DATA   AGE
            default              kube-root-ca.crt   1      30s
            kube-node-lease      kube-root-ca.crt   1      30s
            kube-public          kube-root-ca.crt   1      30s
            kube-system          kube-root-ca.crt   1      30s
            local-path-storage   kube-root-ca.crt   1      30s
            (exit status 0)
            [30124ms-30124ms] $ kubectl get rolebindings -A -o wide
              > kubectl sends GET /apis/rbac.authorization.k8s.io/v1/rolebindings?limit=500
            NAMESPACE     NAME                                                ROLE                                                  AGE   USERS                                                   GROUPS   SERVICEACCOUNTS
            kube-system   system::extension-apiserver-authentication-reader   Role/extension-apiserver-authentication-reader        30s   system:kube-controller-manager, system:kube-scheduler            
            kube-system   system::leader-locking-kube-controller-manager      Role/system::leader-locking-kube-controller-manager   30s   system:kube-controller-manager                                   kube-system/kube-controller-manager
            kube-system   system::leader-locking-kube-scheduler               Role/system::leader-locking-kube-scheduler            30s   system:kube-scheduler                                            kube-system/kube-scheduler
            (exit status 0)
            [30124ms-30124ms] $ kubectl get roles -n kube-system
              > kubectl sends GET /apis/rbac.authorization.k8s.io/v1/namespaces/kube-system/roles?limit=500
            NAME                                             CREATED AT
            extension-apiserver-authentication-reader        2026-01-01T00:00:00Z
            system::leader-locking-kube-controller-manager   2026-01-01T00:00:00Z
            system::leader-locking-kube-scheduler            2026-01-01T00:00:00Z
            (exit status 0)
            [30124ms-30124ms] $ kubectl get ep
              > kubectl sends GET /api/v1/namespaces/default/endpoints?limit=500
            NAME   ENDPOINTS                     AGE
            web    10.244.1.2:80,10.244.2.2:80   30s
            Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice
            (exit status 0)
            [30124ms-30124ms] $ kubectl get sc standard
              > kubectl sends GET /apis/storage.k8s.io/v1/storageclasses/standard
            NAME       PROVISIONER             RECLAIMPOLICY   VOLUMEBINDINGMODE      ALLOWVOLUMEEXPANSION   AGE
            standard   rancher.io/local-path   Delete          WaitForFirstConsumer   false                  30s
            (exit status 0)
        "#]].assert_eq(&transcript(None, &script));
    }

    #[test]
    fn describers_of_every_kind() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{KINDS_YAML}EOF\nsleep 30s\nkubectl describe ep web\nkubectl describe endpointslices web\nkubectl describe hpa web\nkubectl describe lease -n kube-node-lease kind-worker\nkubectl describe ing web\nkubectl describe ingressclass nginx\nkubectl describe netpol\nkubectl describe sc\nkubectl describe pc high\nkubectl describe rc legacy\nkubectl describe runtimeclass gvisor\nkubectl describe crd widgets.example.com\nkubectl describe vs data-snap\nkubectl describe csidriver\n"
        );
        expect![[r#"
            [0ms-124ms] $ kubectl apply -f -
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends POST /apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /api/v1/namespaces/default/services/web
              > kubectl sends POST /api/v1/namespaces/default/services?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/networking.k8s.io/v1/ingressclasses/nginx
              > kubectl sends POST /apis/networking.k8s.io/v1/ingressclasses?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/networking.k8s.io/v1/namespaces/default/ingresses/web
              > kubectl sends POST /apis/networking.k8s.io/v1/namespaces/default/ingresses?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/networking.k8s.io/v1/namespaces/default/networkpolicies/web-from-frontend
              > kubectl sends POST /apis/networking.k8s.io/v1/namespaces/default/networkpolicies?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/networking.k8s.io/v1/namespaces/default/networkpolicies/default-deny
              > kubectl sends POST /apis/networking.k8s.io/v1/namespaces/default/networkpolicies?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/node.k8s.io/v1/runtimeclasses/gvisor
              > kubectl sends POST /apis/node.k8s.io/v1/runtimeclasses?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/storage.k8s.io/v1/csidrivers/hostpath.csi.k8s.io
              > kubectl sends POST /apis/storage.k8s.io/v1/csidrivers?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/storage.k8s.io/v1/storageclasses/fast
              > kubectl sends POST /apis/storage.k8s.io/v1/storageclasses?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/scheduling.k8s.io/v1/priorityclasses/high
              > kubectl sends POST /apis/scheduling.k8s.io/v1/priorityclasses?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /api/v1/namespaces/default/podtemplates/batch-template
              > kubectl sends POST /api/v1/namespaces/default/podtemplates?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /api/v1/namespaces/default/replicationcontrollers/legacy
              > kubectl sends POST /api/v1/namespaces/default/replicationcontrollers?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com
              > kubectl sends POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/snapshot.storage.k8s.io/v1/volumesnapshotclasses/csi-snapclass
              > kubectl sends POST /apis/snapshot.storage.k8s.io/v1/volumesnapshotclasses?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/snapshot.storage.k8s.io/v1/namespaces/default/volumesnapshots/data-snap
              > kubectl sends POST /apis/snapshot.storage.k8s.io/v1/namespaces/default/volumesnapshots?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              > kubectl sends GET /apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web
              > kubectl sends POST /apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            deployment.apps/web created
            service/web created
            ingressclass.networking.k8s.io/nginx created
            ingress.networking.k8s.io/web created
            networkpolicy.networking.k8s.io/web-from-frontend created
            networkpolicy.networking.k8s.io/default-deny created
            runtimeclass.node.k8s.io/gvisor created
            csidriver.storage.k8s.io/hostpath.csi.k8s.io created
            storageclass.storage.k8s.io/fast created
            priorityclass.scheduling.k8s.io/high created
            podtemplate/batch-template created
            replicationcontroller/legacy created
            customresourcedefinition.apiextensions.k8s.io/widgets.example.com created
            volumesnapshotclass.snapshot.storage.k8s.io/csi-snapclass created
            volumesnapshot.snapshot.storage.k8s.io/data-snap created
            horizontalpodautoscaler.autoscaling/web created
            (exit status 0)
            [124ms-30124ms] $ sleep 30s
            (exit status 0)
            [30124ms-30124ms] $ kubectl describe ep web
              > kubectl sends GET /api/v1/namespaces/default/endpoints/web
            Name:         web
            Namespace:    default
            Labels:       endpoints.kubernetes.io/managed-by=endpoint-controller
            Annotations:  endpoints.kubernetes.io/last-change-trigger-time: 2026-01-01T00:00:03Z
            Subsets:
              Addresses:          10.244.1.2,10.244.2.2
              NotReadyAddresses:  <none>
              Ports:
                Name  Port  Protocol
                ----  ----  --------
                http  80    TCP

            Events:  <none>
            Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice
            (exit status 0)
            [30124ms-30124ms] $ kubectl describe endpointslices web
              > kubectl sends GET /apis/discovery.k8s.io/v1/namespaces/default/endpointslices/web
              > kubectl sends GET /apis/discovery.k8s.io/v1/namespaces/default/endpointslices?limit=500
            Name:         web-g77lf
            Namespace:    default
            Labels:       endpointslice.kubernetes.io/managed-by=endpointslice-controller.k8s.io
                          kubernetes.io/service-name=web
            Annotations:  endpoints.kubernetes.io/last-change-trigger-time: 2026-01-01T00:00:03Z
            AddressType:  IPv4
            Ports:
              Name  Port  Protocol
              ----  ----  --------
              http  80    TCP
            Endpoints:
              - Addresses:  10.244.2.2
                Conditions:
                  Ready:    true
                Hostname:   <unset>
                TargetRef:  Pod/web-75f95d59fb-9vtnp
                NodeName:   kind-worker2
                Zone:       <unset>
              - Addresses:  10.244.1.2
                Conditions:
                  Ready:    true
                Hostname:   <unset>
                TargetRef:  Pod/web-75f95d59fb-pgw5x
                NodeName:   kind-worker
                Zone:       <unset>

            (exit status 0)
            [30124ms-30124ms] $ kubectl describe hpa web
              > kubectl sends GET /apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web
            Name:                                                  web
            Namespace:                                             default
            Labels:                                                <none>
            Annotations:                                           <none>
            CreationTimestamp:                                     Thu, 01 Jan 2026 00:00:00 +0000
            Reference:                                             Deployment/web
            Metrics:                                               ( current / target )
              resource cpu on pods  (as a percentage of request):  <unknown> / 80%
            Min replicas:                                          2
            Max replicas:                                          4
            Behavior:
              Scale Up:
                Stabilization Window: 0 seconds
                Select Policy: Max
                Policies:
                  - Type: Pods     Value: 4    Period: 15 seconds
                  - Type: Percent  Value: 100  Period: 15 seconds
              Scale Down:
                Stabilization Window: 300 seconds
                Select Policy: Max
                Policies:
                  - Type: Pods  Value: 1  Period: 60 seconds
            Deployment pods:    2 current / 0 desired
            Conditions:
              Type           Status  Reason                   Message
              ----           ------  ------                   -------
              AbleToScale    True    SucceededGetScale        the HPA controller was able to get the target's current scale
              ScalingActive  False   FailedGetResourceMetric  the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
            Events:
              Type     Reason                        Age               From                       Message
              ----     ------                        ----              ----                       -------
              Warning  FailedGetResourceMetric       0s (x2 over 15s)  horizontal-pod-autoscaler  failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
              Warning  FailedComputeMetricsReplicas  0s (x2 over 15s)  horizontal-pod-autoscaler  invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
            (exit status 0)
            [30124ms-30124ms] $ kubectl describe lease -n kube-node-lease kind-worker
              > kubectl sends GET /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/kind-worker
            Name:         kind-worker
            Namespace:    kube-node-lease
            Labels:       <none>
            Annotations:  <none>
            API Version:  coordination.k8s.io/v1
            Kind:         Lease
            Metadata:
              Creation Timestamp:  2026-01-01T00:00:10Z
              Owner References:
                API Version:     v1
                Kind:            Node
                Name:            kind-worker
                UID:             6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6
              Resource Version:  217
              UID:               1805127c-c0db-4d9d-a524-e51ffe73cb44
            Spec:
              Holder Identity:         kind-worker
              Lease Duration Seconds:  40
              Renew Time:              2026-01-01T00:00:30.000000Z
            Events:                    <none>
            (exit status 0)
            [30124ms-30124ms] $ kubectl describe ing web
              > kubectl sends GET /apis/networking.k8s.io/v1/namespaces/default/ingresses/web
            Name:             web
            Labels:           <none>
            Namespace:        default
            Address:          
            Ingress Class:    nginx
            Default backend:  <default>
            TLS:
              web-tls terminates web.example.com
            Rules:
              Host             Path  Backends
              ----             ----  --------
              web.example.com  
                               /      web:80 (10.244.2.2:80,10.244.1.2:80)
                               /api   api:http (<error: services "api" not found>)
            Annotations:       <none>
            Events:            <none>
            (exit status 0)
            [30124ms-30124ms] $ kubectl describe ingressclass nginx
              > kubectl sends GET /apis/networking.k8s.io/v1/ingressclasses/nginx
            Name:         nginx
            Labels:       <none>
            Annotations:  ingressclass.kubernetes.io/is-default-class: true
            Controller:   k8s.io/ingress-nginx
            Events:       <none>
            (exit status 0)
            [30124ms-30124ms] $ kubectl describe netpol
              > kubectl sends GET /apis/networking.k8s.io/v1/namespaces/default/networkpolicies?limit=500
            Name:         default-deny
            Namespace:    default
            Created on:   2026-01-01 00:00:00 +0000 UTC
            Labels:       <none>
            Annotations:  <none>
            Spec:
              PodSelector:     <none> (Allowing the specific traffic to all pods in this namespace)
              Allowing ingress traffic:
                <none> (Selected pods are isolated for ingress connectivity)
              Allowing egress traffic:
                <none> (Selected pods are isolated for egress connectivity)
              Policy Types: Ingress, Egress


            Name:         web-from-frontend
            Namespace:    default
            Created on:   2026-01-01 00:00:00 +0000 UTC
            Labels:       <none>
            Annotations:  <none>
            Spec:
              PodSelector:     app=web
              Allowing ingress traffic:
                To Port: 80/TCP
                From:
                  PodSelector: role=frontend
                From:
                  NamespaceSelector: kubernetes.io/metadata.name=monitoring
              Not affecting egress traffic
              Policy Types: Ingress
            (exit status 0)
            [30124ms-30124ms] $ kubectl describe sc
              > kubectl sends GET /apis/storage.k8s.io/v1/storageclasses?limit=500
            Name:            fast
            IsDefaultClass:  Yes
            Annotations:     kubectl.kubernetes.io/last-applied-configuration={"allowVolumeExpansion":true,"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"annotations":{"storageclass.kubernetes.io/is-default-class":"true"},"name":"fast"},"mountOptions":["noatime"],"parameters":{"type":"ssd"},"provisioner":"hostpath.csi.k8s.io","reclaimPolicy":"Retain"}
            ,storageclass.kubernetes.io/is-default-class=true
            Provisioner:           hostpath.csi.k8s.io
            Parameters:            type=ssd
            AllowVolumeExpansion:  True
            MountOptions:
              noatime
            ReclaimPolicy:      Retain
            VolumeBindingMode:  Immediate


            Name:                  standard
            IsDefaultClass:        Yes
            Annotations:           storageclass.kubernetes.io/is-default-class=true
            Provisioner:           rancher.io/local-path
            Parameters:            <none>
            AllowVolumeExpansion:  <unset>
            MountOptions:          <none>
            ReclaimPolicy:         Delete
            VolumeBindingMode:     WaitForFirstConsumer
            (exit status 0)
            [30124ms-30124ms] $ kubectl describe pc high
              > kubectl sends GET /apis/scheduling.k8s.io/v1/priorityclasses/high
            Name:              high
            Value:             1000000
            GlobalDefault:     false
            PreemptionPolicy:  PreemptLowerPriority
            Description:       For the web tier.
            Annotations:       kubectl.kubernetes.io/last-applied-configuration={"apiVersion":"scheduling.k8s.io/v1","description":"For the web tier.","kind":"PriorityClass","metadata":{"annotations":{},"name":"high"},"value":1000000}

            Events:  <none>
            (exit status 0)
            [30124ms-30124ms] $ kubectl describe rc legacy
              > kubectl sends GET /api/v1/namespaces/default/replicationcontrollers/legacy
            Name:         legacy
            Namespace:    default
            Selector:     app=legacy
            Labels:       <none>
            Annotations:  <none>
            Replicas:     0 current / 1 desired
            Pods Status:  0 Running / 0 Waiting / 0 Succeeded / 0 Failed
            Pod Template:
              Labels:  app=legacy
              Containers:
               app:
                Image:         nginx:1.29
                Port:          <none>
                Host Port:     <none>
                Environment:   <none>
                Mounts:        <none>
              Volumes:         <none>
              Node-Selectors:  <none>
              Tolerations:     <none>
            Events:            <none>
            (exit status 0)
            [30124ms-30124ms] $ kubectl describe runtimeclass gvisor
              > kubectl sends GET /apis/node.k8s.io/v1/runtimeclasses/gvisor
            Name:         gvisor
            Namespace:    
            Labels:       <none>
            Annotations:  <none>
            API Version:  node.k8s.io/v1
            Handler:      runsc
            Kind:         RuntimeClass
            Metadata:
              Creation Timestamp:  2026-01-01T00:00:00Z
              Resource Version:    181
              UID:                 c09a1a81-7914-4fbc-88b8-94e1401ed25b
            Events:                <none>
            (exit status 0)
            [30124ms-30124ms] $ kubectl describe crd widgets.example.com
              > kubectl sends GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com
            Name:         widgets.example.com
            Namespace:    
            Labels:       <none>
            Annotations:  <none>
            API Version:  apiextensions.k8s.io/v1
            Kind:         CustomResourceDefinition
            Metadata:
              Creation Timestamp:  2026-01-01T00:00:00Z
              Generation:          1
              Resource Version:    187
              UID:                 90ccb6a0-6cd2-430e-b878-834768668743
            Spec:
              Group:  example.com
              Names:
                Kind:      Widget
                Plural:    widgets
                Singular:  widget
              Scope:       Namespaced
              Versions:
                Name:  v1
                Schema:
                  openAPIV3Schema:
                    Type:  object
                Served:    true
                Storage:   true
            Events:        <none>
            (exit status 0)
            [30124ms-30124ms] $ kubectl describe vs data-snap
              > kubectl sends GET /apis/snapshot.storage.k8s.io/v1/namespaces/default/volumesnapshots/data-snap
            Name:         data-snap
            Namespace:    default
            Labels:       <none>
            Annotations:  <none>
            API Version:  snapshot.storage.k8s.io/v1
            Kind:         VolumeSnapshot
            Metadata:
              Creation Timestamp:  2026-01-01T00:00:00Z
              Resource Version:    189
              UID:                 ce45a342-c10f-4b55-9bea-994d2e7d779d
            Spec:
              Source:
                Persistent Volume Claim Name:  data
              Volume Snapshot Class Name:      csi-snapclass
            Events:                            <none>
            (exit status 0)
            [30124ms-30124ms] $ kubectl describe csidriver
              > kubectl sends GET /apis/storage.k8s.io/v1/csidrivers?limit=500
            Name:         hostpath.csi.k8s.io
            Namespace:    
            Labels:       <none>
            Annotations:  <none>
            API Version:  storage.k8s.io/v1
            Kind:         CSIDriver
            Metadata:
              Creation Timestamp:  2026-01-01T00:00:00Z
              Resource Version:    182
              UID:                 b86c9a98-359e-4b62-87a9-dc6739325fac
            Spec:
              Attach Required:    false
              Pod Info On Mount:  true
              Volume Lifecycle Modes:
                Persistent
                Ephemeral
            Events:  <none>
            (exit status 0)
        "#]].assert_eq(&transcript(None, &script));
    }
}
