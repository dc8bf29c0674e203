//! Snapshot tests of the chain: `check(cluster, request, expect)` builds a store from the
//! cluster YAML (plus an optional `webhookServers:` document of simulated webhook servers),
//! runs the mutating pass and, if it allowed the request, the validating pass on the result,
//! and renders every plugin's detail and the outcome.
//!
//! A request is the object's YAML, optionally preceded by a header document without `kind`
//! (`operation`, `user`, `groups`, `subresource`, `dryRun`, `name`, `namespace`, `review`).
//! For UPDATE and DELETE the stored object of the same name is the old object.

use super::*;
use crate::object::resource_for;
use crate::trace::{AdmissionVerdict, Change};
use expect_test::{expect, Expect};
use serde::Deserialize;

/// The namespace every test has, with its default ServiceAccount.
const BASE: &str = "
apiVersion: v1
kind: Namespace
metadata: {name: default}
status: {phase: Active}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: default, namespace: default}
";

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Header {
    operation: Option<String>,
    user: Option<String>,
    #[serde(default)]
    groups: Vec<String>,
    subresource: Option<String>,
    #[serde(default)]
    dry_run: bool,
    name: Option<String>,
    namespace: Option<String>,
    /// Render the AdmissionReview documents of webhook calls in full.
    #[serde(default)]
    review: bool,
    /// Render only these plugins' details (the outcome is always rendered).
    show: Option<Vec<String>>,
}

fn docs(text: &str) -> Vec<serde_json::Value> {
    serde_yaml::Deserializer::from_str(text)
        .filter_map(|d| serde_yaml::Value::deserialize(d).ok())
        .filter(|v| !v.is_null())
        .map(|v| serde_json::to_value(v).expect("yaml to json"))
        .collect()
}

fn object(v: serde_json::Value) -> Object {
    let api_version = v.get("apiVersion").and_then(|x| x.as_str()).unwrap_or("").to_string();
    let kind = v.get("kind").and_then(|x| x.as_str()).unwrap_or("").to_string();
    Object::from_json(&api_version, &kind, v).expect("test object decodes")
}

fn store_of(cluster: &str) -> (Store<Object>, Vec<SimulatedWebhook>) {
    let mut store = Store::new();
    let mut servers = Vec::new();
    for v in docs(&format!("{BASE}\n---\n{cluster}")) {
        if let Some(list) = v.get("webhookServers").and_then(|l| l.as_array()) {
            servers.extend(list.iter().map(|w| SimulatedWebhook::from_value(w).expect("webhook server")));
            continue;
        }
        let mut o = object(v);
        let info = resource_for(&o.api_version(), o.kind()).expect("known kind");
        if info.namespaced && o.namespace().is_none() {
            o.meta_mut().namespace = Some("default".into());
        }
        if o.meta().uid.is_none() {
            o.meta_mut().uid = Some(format!("uid-{}", o.name()));
        }
        let key = info.etcd_key(o.namespace(), o.name());
        store.create(&key, o).expect("unique test objects");
    }
    (store, servers)
}

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| format!("{by}{l}")).collect::<Vec<_>>().join("\n")
}

fn render_change(c: &Change) -> String {
    let side = |v: &Option<String>| match v {
        None => "(none)".to_string(),
        Some(s) if s.contains('\n') => format!("\n{}", indent(s, "        ")),
        Some(s) => s.clone(),
    };
    format!("    {}: {} -> {}", c.path, side(&c.before), side(&c.after))
}

fn render_pass(title: &str, out: &PassOutcome, header: &Header, text: &mut String) {
    let review = header.review;
    text.push_str(&format!("{title}:\n"));
    for d in &out.details {
        if header.show.as_ref().is_some_and(|s| !s.contains(&d.plugin)) {
            continue;
        }
        let verdict = match d.verdict {
            AdmissionVerdict::NotApplicable => "not applicable",
            AdmissionVerdict::Allowed => "allowed",
            AdmissionVerdict::Mutated => "mutated",
            AdmissionVerdict::Denied => "denied",
        };
        text.push_str(&format!("  {}: {verdict}\n", d.plugin));
        if !d.explanation.is_empty() {
            text.push_str(&format!("    {}\n", d.explanation));
        }
        for c in &d.changes {
            text.push_str(&render_change(c));
            text.push('\n');
        }
        for (k, v) in &d.annotations {
            text.push_str(&format!("    annotation {k}: {v}\n"));
        }
        for w in &d.warnings {
            text.push_str(&format!("    warning: {w}\n"));
        }
        for call in &d.webhook_calls {
            let round = if call.round > 0 { format!(" (round {})", call.round) } else { String::new() };
            text.push_str(&format!(
                "    call {} ({}){round}: POST {} [{} ms]: {}\n",
                call.webhook, call.configuration, call.url, call.latency_ms, call.outcome
            ));
            if let Some(p) = &call.patch {
                let compact: serde_json::Value = serde_json::from_str(p).unwrap_or_default();
                text.push_str(&format!("      patch: {compact}\n"));
            }
            if review {
                text.push_str(&format!("      request:\n{}\n", indent(&call.request, "        ")));
                if let Some(r) = &call.response {
                    text.push_str(&format!("      response:\n{}\n", indent(r, "        ")));
                }
            }
        }
    }
}

fn run(cluster: &str, request: &str) -> String {
    let (store, servers) = store_of(cluster);
    let mut request_docs = docs(request);
    let header: Header = if request_docs.first().is_some_and(|d| d.get("kind").is_none()) {
        serde_json::from_value(request_docs.remove(0)).expect("header")
    } else {
        Header::default()
    };
    let operation = match header.operation.as_deref().unwrap_or("CREATE") {
        "CREATE" => Operation::Create,
        "UPDATE" => Operation::Update,
        "DELETE" => Operation::Delete,
        other => panic!("operation {other}"),
    };
    let user = UserInfo {
        username: header.user.clone().unwrap_or_else(|| "kubernetes-admin".into()),
        groups: if header.groups.is_empty() {
            vec!["kubeadm:cluster-admins".into(), "system:authenticated".into()]
        } else {
            header.groups.clone()
        },
    };
    let mut obj = match request_docs.pop() {
        Some(v) => object(v),
        None => {
            // DELETE by name: the stored object.
            let ns = header.namespace.clone();
            let name = header.name.clone().expect("a name to delete");
            let (o, _) = store
                .list("/registry/")
                .into_iter()
                .find(|(_, o, _)| o.name() == name && o.namespace().map(str::to_string) == ns)
                .map(|(_, o, r)| (o.clone(), r))
                .expect("stored object to delete");
            o
        }
    };
    let info = resource_for(&obj.api_version(), obj.kind()).expect("known kind");
    if info.namespaced && obj.namespace().is_none() {
        obj.meta_mut().namespace = Some(header.namespace.clone().unwrap_or_else(|| "default".into()));
    }
    // As in the API server: the decoded body is defaulted before mutating admission.
    if operation != Operation::Delete {
        crate::defaults::apply_defaults(&mut obj);
    }
    let mut attrs = Attributes::for_object(operation, &obj, &user).expect("attributes");
    if let Some(s) = &header.subresource {
        attrs = attrs.with_subresource(s);
    }
    attrs = attrs.with_dry_run(header.dry_run);
    if let Some(n) = &header.name {
        attrs.name = n.clone();
    }
    if operation != Operation::Create {
        let key = info.etcd_key(obj.namespace(), if attrs.name.is_empty() { obj.name() } else { &attrs.name });
        if let Some((old, _)) = store.get(&key) {
            attrs = attrs.with_old(old);
        }
    }
    // After a webhook's patch the API server defaults the object again.
    let redefault = |o: &mut Object| {
        crate::defaults::apply_defaults(o);
    };
    // The pass a summarised request runs (changes unlisted) decides and mutates the same.
    {
        let mut rng = Rng::new(42);
        let ctx = Context::new(&store, 10_000, &mut rng)
            .with_webhook_servers(&servers)
            .with_defaulter(&redefault)
            .summarised();
        let (mut listed_obj, mut unlisted_obj) = (obj.clone(), obj.clone());
        let unlisted = Chain::lab().run_mutating(&ctx, &attrs, &mut unlisted_obj);
        let mut rng = Rng::new(42);
        let ctx = Context::new(&store, 10_000, &mut rng).with_webhook_servers(&servers).with_defaulter(&redefault);
        let listed = Chain::lab().run_mutating(&ctx, &attrs, &mut listed_obj);
        assert_eq!(unlisted_obj, listed_obj, "the same object either way");
        assert_eq!(unlisted.rejection, listed.rejection);
        assert_eq!((&unlisted.warnings, &unlisted.quota_updates), (&listed.warnings, &listed.quota_updates));
        // The summarised pass keeps the plugins that changed the object, nothing else.
        let summary = |out: &PassOutcome| -> Vec<(String, AdmissionVerdict)> {
            out.details.iter().filter(|d| !d.changes.is_empty()).map(|d| (d.plugin.clone(), d.verdict)).collect()
        };
        assert_eq!(summary(&unlisted), summary(&listed), "the same plugins mutate either way");
        assert!(unlisted.details.iter().all(|d| !d.changes.is_empty()), "{:?}", unlisted.details);
    }
    let mut rng = Rng::new(42);
    let ctx = Context::new(&store, 10_000, &mut rng).with_webhook_servers(&servers).with_defaulter(&redefault);
    let chain = Chain::lab();
    let mut text = String::new();
    let mutating = chain.run_mutating(&ctx, &attrs, &mut obj);
    render_pass("mutating", &mutating, &header, &mut text);
    let mut final_outcome = mutating.rejection.clone();
    let mut warnings = mutating.warnings.clone();
    if mutating.allowed() {
        let validating = chain.run_validating(&ctx, &attrs, &obj);
        render_pass("validating", &validating, &header, &mut text);
        final_outcome = validating.rejection.clone();
        warnings.extend(validating.warnings.iter().cloned());
        for u in &validating.quota_updates {
            text.push_str(&format!("quota {}/{} status.used: {:?}\n", u.namespace, u.name, u.used));
        }
    }
    for w in &warnings {
        text.push_str(&format!("Warning: {w}\n"));
    }
    match final_outcome {
        None => text.push_str("result: allowed\n"),
        Some(r) => {
            assert_eq!(r.to_status().to_json(), r.to_json(), "the two Status renderings agree");
            text.push_str(&format!("result: {} {}: {}\n", r.code, r.reason, r.message));
            if let Some(d) = &r.details {
                for c in &d.causes {
                    text.push_str(&format!("  cause {} {}: {}\n", c.reason, c.field, c.message));
                }
            }
        }
    }
    text
}

fn check(cluster: &str, request: &str, expect: Expect) {
    expect.assert_eq(&run(cluster, request));
}

const POD: &str = "
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
  - name: web
    image: nginx:1.29
";

#[test]
fn chain_order_is_upstreams() {
    let chain = Chain::lab();
    let enabled = chain.enabled();
    // Execution order is the order of AllOrderedPlugins, whatever order the set was given in.
    let positions: Vec<usize> =
        enabled.iter().map(|n| ALL_ORDERED_PLUGINS.iter().position(|p| p == n).expect("known")).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{enabled:?}");
    let mut expected_set: Vec<&str> = DEFAULT_ENABLED_PLUGINS.iter().chain(KUBEADM_EXTRA_PLUGINS).copied().collect();
    expected_set.sort();
    let mut got_set = enabled.clone();
    got_set.sort();
    assert_eq!(got_set, expected_set, "exactly kube-apiserver's defaults plus NodeRestriction");
    let mut reversed: Vec<&str> = enabled.clone();
    reversed.reverse();
    assert_eq!(Chain::with_enabled(&reversed).map(|c| c.enabled()), Ok(enabled.clone()));
    assert_eq!(
        Chain::with_enabled(&["NamespaceLifecycle", "Bogus"]).map(|c| c.enabled()),
        Err("admission-control plugin \"Bogus\" is unknown".to_string())
    );
    expect![[r#"
        enabled: NamespaceLifecycle, LimitRanger, ServiceAccount, NodeRestriction, TaintNodesByCondition, PodSecurity, Priority, DefaultTolerationSeconds, DefaultStorageClass, StorageObjectInUseProtection, PodGroupProtection, PersistentVolumeClaimResize, RuntimeClass, CertificateApproval, CertificateSigning, ClusterTrustBundleAttest, CertificateSubjectRestriction, DefaultIngressClass, PodTopologyLabels, PodGroupWorkloadExists, NodeDeclaredFeatureValidator, JobValidation, PodResizeValidator, MutatingAdmissionPolicy, MutatingAdmissionWebhook, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook, ResourceQuota
        mutating: NamespaceLifecycle, LimitRanger, ServiceAccount, NodeRestriction, TaintNodesByCondition, Priority, DefaultTolerationSeconds, DefaultStorageClass, StorageObjectInUseProtection, RuntimeClass, DefaultIngressClass, PodTopologyLabels, MutatingAdmissionPolicy, MutatingAdmissionWebhook
        validating: LimitRanger, ServiceAccount, PodSecurity, Priority, PodGroupProtection, PersistentVolumeClaimResize, RuntimeClass, CertificateApproval, CertificateSigning, ClusterTrustBundleAttest, CertificateSubjectRestriction, PodGroupWorkloadExists, NodeDeclaredFeatureValidator, JobValidation, PodResizeValidator, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook, ResourceQuota
    "#]]
    .assert_eq(&format!(
        "enabled: {}\nmutating: {}\nvalidating: {}\n",
        enabled.join(", "),
        chain.mutating().join(", "),
        chain.validating().join(", ")
    ));
}

#[test]
fn plain_pod_in_default() {
    check(
        "",
        POD,
        expect![[r#"
            mutating:
              NamespaceLifecycle: allowed
                The namespace default exists and is Active.
              LimitRanger: not applicable
                There is no LimitRange in namespace default.
              ServiceAccount: mutated
                The pod names no service account, so it runs as "default". Token volume kube-api-access-2gkmc (a bound token valid for 3607 s, the cluster CA and the namespace) is mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in container web.
                /spec/containers/0/volumeMounts: (none) -> 
                    - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                      name: kube-api-access-2gkmc
                      readOnly: true
                /spec/serviceAccount: (none) -> default
                /spec/serviceAccountName: (none) -> default
                /spec/volumes: (none) -> 
                    - name: kube-api-access-2gkmc
                      projected:
                        defaultMode: 420
                        sources:
                        - serviceAccountToken:
                            expirationSeconds: 3607
                            path: token
                        - configMap:
                            items:
                            - key: ca.crt
                              path: ca.crt
                            name: kube-root-ca.crt
                        - downwardAPI:
                            items:
                            - fieldRef:
                                apiVersion: v1
                                fieldPath: metadata.namespace
                              path: namespace
              Priority: mutated
                No priorityClassName and no globalDefault PriorityClass: priority 0. Preemption policy PreemptLowerPriority.
                /spec/preemptionPolicy: (none) -> PreemptLowerPriority
                /spec/priority: (none) -> 0
              DefaultTolerationSeconds: mutated
                Added node.kubernetes.io/not-ready:NoExecute and node.kubernetes.io/unreachable:NoExecute for 300 s: if the pod's node stops reporting, the pod is evicted after five minutes.
                /spec/tolerations: (none) -> 
                    - effect: NoExecute
                      key: node.kubernetes.io/not-ready
                      operator: Exists
                      tolerationSeconds: 300
                    - effect: NoExecute
                      key: node.kubernetes.io/unreachable
                      operator: Exists
                      tolerationSeconds: 300
              RuntimeClass: not applicable
                The pod names no RuntimeClass: the node's default runtime handler runs it.
            validating:
              LimitRanger: not applicable
                There is no LimitRange in namespace default.
              ServiceAccount: allowed
                The ServiceAccount default exists; the pod's 1 container(s) may use its token.
              PodSecurity: allowed
                Namespace "default" asks for enforce=privileged:latest (cluster default), audit=privileged:latest (cluster default), warn=privileged:latest (cluster default).
            All three modes are privileged, which allows everything, so PodSecurity checks nothing.
                annotation pod-security.kubernetes.io/enforce-policy: privileged:latest
              RuntimeClass: not applicable
                The pod has no overhead to check.
              ResourceQuota: not applicable
                There is no ResourceQuota in namespace default.
            result: allowed
        "#]],
    );
}

#[test]
fn namespace_missing_is_404() {
    check("", "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: dev}\nspec:\n  containers: [{name: web, image: nginx:1.29}]\n", expect![[r#"
        mutating:
          NamespaceLifecycle: denied
            The namespace "dev" does not exist: create it first (kubectl create namespace dev).
        result: 404 NotFound: namespaces "dev" not found
    "#]]);
}

#[test]
fn namespace_terminating_refuses_new_content() {
    check(
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: dev}\nstatus: {phase: Terminating}\n",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: dev}\ndata: {a: b}\n",
        expect![[r#"
            mutating:
              NamespaceLifecycle: denied
                The namespace dev is being deleted (phase Terminating): nothing new may be created in it.
            result: 403 Forbidden: configmaps "settings" is forbidden: unable to create new content in namespace dev because it is being terminated
              cause NamespaceTerminating metadata.namespace: namespace dev is being terminated
        "#]],
    );
}

#[test]
fn immortal_namespaces_cannot_be_deleted() {
    check(
        "",
        "operation: DELETE\nname: default\n",
        expect![[r#"
        mutating:
          NamespaceLifecycle: denied
            default is one of the namespaces the API server keeps alive (default, kube-system, kube-public).
        result: 403 Forbidden: namespaces "default" is forbidden: this namespace may not be deleted
    "#]],
    );
}

const LIMITS: &str = "
apiVersion: v1
kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    default: {cpu: 500m, memory: 256Mi}
    defaultRequest: {cpu: 250m, memory: 128Mi}
    max: {cpu: '1', memory: 1Gi}
    min: {cpu: 100m}
    maxLimitRequestRatio: {cpu: '4'}
";

#[test]
fn limit_ranger_defaults_containers_and_init_containers() {
    check(
        LIMITS,
        "
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  initContainers:
  - name: setup
    image: busybox:1.37
    resources: {requests: {cpu: 200m}}
  containers:
  - name: web
    image: nginx:1.29
",
        expect![[r#"
            mutating:
              NamespaceLifecycle: allowed
                The namespace default exists and is Active.
              LimitRanger: mutated
                LimitRange limits filled in what the containers left out, and the kubernetes.io/limit-ranger annotation records it. Min, max and ratio limits are checked in the validating pass.
                /metadata/annotations: (none) -> kubernetes.io/limit-ranger: 'LimitRanger plugin set: cpu, memory request for container web; cpu, memory limit for container web; memory request for init container setup; cpu, memory limit for init container setup'
                /spec/containers/0/resources: (none) -> 
                    limits:
                      cpu: 500m
                      memory: 256Mi
                    requests:
                      cpu: 250m
                      memory: 128Mi
                /spec/initContainers/0/resources/requests/memory: (none) -> 128Mi
                /spec/initContainers/0/resources/limits: (none) -> 
                    cpu: 500m
                    memory: 256Mi
                annotation kubernetes.io/limit-ranger: LimitRanger plugin set: cpu, memory request for container web; cpu, memory limit for container web; memory request for init container setup; cpu, memory limit for init container setup
              ServiceAccount: mutated
                The pod names no service account, so it runs as "default". Token volume kube-api-access-2gkmc (a bound token valid for 3607 s, the cluster CA and the namespace) is mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in init container setup, container web.
                /spec/containers/0/volumeMounts: (none) -> 
                    - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                      name: kube-api-access-2gkmc
                      readOnly: true
                /spec/initContainers/0/volumeMounts: (none) -> 
                    - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                      name: kube-api-access-2gkmc
                      readOnly: true
                /spec/serviceAccount: (none) -> default
                /spec/serviceAccountName: (none) -> default
                /spec/volumes: (none) -> 
                    - name: kube-api-access-2gkmc
                      projected:
                        defaultMode: 420
                        sources:
                        - serviceAccountToken:
                            expirationSeconds: 3607
                            path: token
                        - configMap:
                            items:
                            - key: ca.crt
                              path: ca.crt
                            name: kube-root-ca.crt
                        - downwardAPI:
                            items:
                            - fieldRef:
                                apiVersion: v1
                                fieldPath: metadata.namespace
                              path: namespace
              Priority: mutated
                No priorityClassName and no globalDefault PriorityClass: priority 0. Preemption policy PreemptLowerPriority.
                /spec/preemptionPolicy: (none) -> PreemptLowerPriority
                /spec/priority: (none) -> 0
              DefaultTolerationSeconds: mutated
                Added node.kubernetes.io/not-ready:NoExecute and node.kubernetes.io/unreachable:NoExecute for 300 s: if the pod's node stops reporting, the pod is evicted after five minutes.
                /spec/tolerations: (none) -> 
                    - effect: NoExecute
                      key: node.kubernetes.io/not-ready
                      operator: Exists
                      tolerationSeconds: 300
                    - effect: NoExecute
                      key: node.kubernetes.io/unreachable
                      operator: Exists
                      tolerationSeconds: 300
              RuntimeClass: not applicable
                The pod names no RuntimeClass: the node's default runtime handler runs it.
            validating:
              LimitRanger: allowed
                Within the limits of LimitRange limits.
              ServiceAccount: allowed
                The ServiceAccount default exists; the pod's 2 container(s) may use its token.
              PodSecurity: allowed
                Namespace "default" asks for enforce=privileged:latest (cluster default), audit=privileged:latest (cluster default), warn=privileged:latest (cluster default).
            All three modes are privileged, which allows everything, so PodSecurity checks nothing.
                annotation pod-security.kubernetes.io/enforce-policy: privileged:latest
              RuntimeClass: not applicable
                The pod has no overhead to check.
              ResourceQuota: not applicable
                There is no ResourceQuota in namespace default.
            result: allowed
        "#]],
    );
}

#[test]
fn limit_ranger_max_min_and_ratio_violations() {
    check(
        LIMITS,
        "
apiVersion: v1
kind: Pod
metadata: {name: big}
spec:
  containers:
  - name: web
    image: nginx:1.29
    resources:
      requests: {cpu: 50m, memory: 128Mi}
      limits: {cpu: '2', memory: 2Gi}
",
        expect![[r#"
            mutating:
              NamespaceLifecycle: allowed
                The namespace default exists and is Active.
              LimitRanger: allowed
                Every container already sets what LimitRange limits would default. Min, max and ratio limits are checked in the validating pass.
              ServiceAccount: mutated
                The pod names no service account, so it runs as "default". Token volume kube-api-access-2gkmc (a bound token valid for 3607 s, the cluster CA and the namespace) is mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in container web.
                /spec/containers/0/volumeMounts: (none) -> 
                    - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                      name: kube-api-access-2gkmc
                      readOnly: true
                /spec/serviceAccount: (none) -> default
                /spec/serviceAccountName: (none) -> default
                /spec/volumes: (none) -> 
                    - name: kube-api-access-2gkmc
                      projected:
                        defaultMode: 420
                        sources:
                        - serviceAccountToken:
                            expirationSeconds: 3607
                            path: token
                        - configMap:
                            items:
                            - key: ca.crt
                              path: ca.crt
                            name: kube-root-ca.crt
                        - downwardAPI:
                            items:
                            - fieldRef:
                                apiVersion: v1
                                fieldPath: metadata.namespace
                              path: namespace
              Priority: mutated
                No priorityClassName and no globalDefault PriorityClass: priority 0. Preemption policy PreemptLowerPriority.
                /spec/preemptionPolicy: (none) -> PreemptLowerPriority
                /spec/priority: (none) -> 0
              DefaultTolerationSeconds: mutated
                Added node.kubernetes.io/not-ready:NoExecute and node.kubernetes.io/unreachable:NoExecute for 300 s: if the pod's node stops reporting, the pod is evicted after five minutes.
                /spec/tolerations: (none) -> 
                    - effect: NoExecute
                      key: node.kubernetes.io/not-ready
                      operator: Exists
                      tolerationSeconds: 300
                    - effect: NoExecute
                      key: node.kubernetes.io/unreachable
                      operator: Exists
                      tolerationSeconds: 300
              RuntimeClass: not applicable
                The pod names no RuntimeClass: the node's default runtime handler runs it.
            validating:
              LimitRanger: denied
                The object breaks LimitRange limits: every violation of that LimitRange is listed.
            result: 403 Forbidden: pods "big" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi, cpu max limit to request ratio per Container is 4, but provided ratio is 40.000000]
        "#]],
    );
}

#[test]
fn limit_ranger_pod_type_and_missing_limit() {
    const PER_POD: &str = "
apiVersion: v1
kind: LimitRange
metadata: {name: per-pod}
spec:
  limits:
  - type: Pod
    max: {memory: 1Gi}
";
    check(
        PER_POD,
        "
show: [LimitRanger]
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
  - name: a
    image: nginx:1.29
    resources: {limits: {memory: 768Mi}}
  - name: b
    image: nginx:1.29
    resources: {limits: {memory: 512Mi}}
",
        expect![[r#"
            mutating:
              LimitRanger: allowed
                LimitRange per-pod has no Container defaults. Min, max and ratio limits are checked in the validating pass.
            validating:
              LimitRanger: denied
                The object breaks LimitRange per-pod: every violation of that LimitRange is listed.
            result: 403 Forbidden: pods "web" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 1280Mi
        "#]],
    );
    check(
        PER_POD,
        "show: [LimitRanger]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: a, image: nginx:1.29}]\n",
        expect![[r#"
            mutating:
              LimitRanger: allowed
                LimitRange per-pod has no Container defaults. Min, max and ratio limits are checked in the validating pass.
            validating:
              LimitRanger: denied
                The object breaks LimitRange per-pod: every violation of that LimitRange is listed.
            result: 403 Forbidden: pods "web" is forbidden: maximum memory usage per Pod is 1Gi.  No limit is specified
        "#]],
    );
}

#[test]
fn service_account_missing() {
    check(
        "",
        "
show: [ServiceAccount]
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  serviceAccountName: builder
  containers: [{name: web, image: nginx:1.29}]
",
        expect![[r#"
            mutating:
              ServiceAccount: denied
                The ServiceAccount "builder" does not exist in namespace default. (The "default" account is created by the service-account controller right after the namespace.)
            result: 403 Forbidden: pods "web" is forbidden: error looking up service account default/builder: serviceaccount "builder" not found
        "#]],
    );
}

#[test]
fn service_account_automount_off_and_pull_secrets() {
    check(
        "
apiVersion: v1
kind: ServiceAccount
metadata: {name: robot}
automountServiceAccountToken: false
imagePullSecrets: [{name: registry-creds}]
",
        "
show: [ServiceAccount]
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  serviceAccountName: robot
  containers: [{name: web, image: nginx:1.29}]
",
        expect![[r#"
            mutating:
              ServiceAccount: mutated
                automountServiceAccountToken is false on the service account: no API token is mounted. The account's imagePullSecrets (registry-creds) are copied into the pod.
                /spec/imagePullSecrets: (none) -> - name: registry-creds
                /spec/serviceAccount: (none) -> robot
            validating:
              ServiceAccount: allowed
                The ServiceAccount robot exists; the pod's 1 container(s) may use its token.
            result: allowed
        "#]],
    );
}

#[test]
fn service_account_pod_opts_in_despite_account_and_keeps_existing_mount() {
    check(
        "
apiVersion: v1
kind: ServiceAccount
metadata: {name: robot}
automountServiceAccountToken: false
",
        "
show: [ServiceAccount]
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  serviceAccountName: robot
  automountServiceAccountToken: true
  initContainers:
  - name: setup
    image: busybox:1.37
  containers:
  - name: web
    image: nginx:1.29
  - name: custom
    image: nginx:1.29
    volumeMounts: [{name: own, mountPath: /var/run/secrets/kubernetes.io/serviceaccount}]
  volumes: [{name: own, emptyDir: {}}]
",
        expect![[r#"
            mutating:
              ServiceAccount: mutated
                Token volume kube-api-access-2gkmc (a bound token valid for 3607 s, the cluster CA and the namespace) is mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in init container setup, container web.
                /spec/containers/0/volumeMounts: (none) -> 
                    - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                      name: kube-api-access-2gkmc
                      readOnly: true
                /spec/initContainers/0/volumeMounts: (none) -> 
                    - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                      name: kube-api-access-2gkmc
                      readOnly: true
                /spec/volumes/1: (none) -> 
                    name: kube-api-access-2gkmc
                    projected:
                      defaultMode: 420
                      sources:
                      - serviceAccountToken:
                          expirationSeconds: 3607
                          path: token
                      - configMap:
                          items:
                          - key: ca.crt
                            path: ca.crt
                          name: kube-root-ca.crt
                      - downwardAPI:
                          items:
                          - fieldRef:
                              apiVersion: v1
                              fieldPath: metadata.namespace
                            path: namespace
                /spec/serviceAccount: (none) -> robot
            validating:
              ServiceAccount: allowed
                The ServiceAccount robot exists; the pod's 3 container(s) may use its token.
            result: allowed
        "#]],
    );
}

const CLASSES: &str = "
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000000
preemptionPolicy: Never
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: normal}
value: 1000
globalDefault: true
";

#[test]
fn priority_from_class_and_global_default() {
    check(
        CLASSES,
        "show: [Priority]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  priorityClassName: high\n  containers: [{name: web, image: nginx:1.29}]\n",
        expect![[r#"
            mutating:
              Priority: mutated
                PriorityClass high has value 1000000. Preemption policy Never.
                /spec/preemptionPolicy: (none) -> Never
                /spec/priority: (none) -> 1000000
            validating:
            result: allowed
        "#]],
    );
    check(
        CLASSES,
        &format!("show: [Priority]\n---\n{POD}"),
        expect![[r#"
        mutating:
          Priority: mutated
            No priorityClassName: the global default class normal gives priority 1000. Preemption policy PreemptLowerPriority.
            /spec/preemptionPolicy: (none) -> PreemptLowerPriority
            /spec/priority: (none) -> 1000
            /spec/priorityClassName: (none) -> normal
        validating:
        result: allowed
    "#]],
    );
}

#[test]
fn priority_system_class_and_missing_class() {
    check(
        "",
        "show: [Priority]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: agent, namespace: default}\nspec:\n  priorityClassName: system-node-critical\n  containers: [{name: a, image: agent:1.0}]\n",
        expect![[r#"
            mutating:
              Priority: mutated
                PriorityClass system-node-critical has value 2000001000. Preemption policy PreemptLowerPriority.
                /spec/preemptionPolicy: (none) -> PreemptLowerPriority
                /spec/priority: (none) -> 2000001000
            validating:
            result: allowed
        "#]],
    );
    check(
        "",
        "show: [Priority]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  priorityClassName: urgent\n  containers: [{name: web, image: nginx:1.29}]\n",
        expect![[r#"
            mutating:
              Priority: denied
                There is no PriorityClass "urgent" (kubectl get priorityclasses).
            result: 403 Forbidden: pods "web" is forbidden: no PriorityClass with name urgent was found
        "#]],
    );
    check(
        CLASSES,
        "show: [Priority]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  priorityClassName: high\n  priority: 5\n  containers: [{name: web, image: nginx:1.29}]\n",
        expect![[r#"
            mutating:
              Priority: denied
                A pod may not set its own priority number.
            result: 403 Forbidden: pods "web" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000000 from the given PriorityClass name
        "#]],
    );
}

#[test]
fn priority_class_global_default_is_unique() {
    check(
        CLASSES,
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: other}\nvalue: 5\nglobalDefault: true\n",
        expect![[r#"
            mutating:
            validating:
              Priority: denied
                Only one PriorityClass may be the global default.
            result: 403 Forbidden: priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass normal is already marked as default. Only one default can exist
        "#]],
    );
}

#[test]
fn default_toleration_seconds_respects_existing_tolerations() {
    check(
        "",
        "
show: [DefaultTolerationSeconds]
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  tolerations:
  - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}
  containers: [{name: web, image: nginx:1.29}]
",
        expect![[r#"
            mutating:
              DefaultTolerationSeconds: mutated
                Added node.kubernetes.io/not-ready:NoExecute for 300 s: if the pod's node stops reporting, the pod is evicted after five minutes.
                /spec/tolerations/1: (none) -> 
                    effect: NoExecute
                    key: node.kubernetes.io/not-ready
                    operator: Exists
                    tolerationSeconds: 300
            validating:
            result: allowed
        "#]],
    );
    check(
        "",
        "
show: [DefaultTolerationSeconds]
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  tolerations: [{operator: Exists}]
  containers: [{name: web, image: nginx:1.29}]
",
        expect![[r#"
            mutating:
              DefaultTolerationSeconds: allowed
                The pod already tolerates not-ready and unreachable NoExecute taints.
            validating:
            result: allowed
        "#]],
    );
}

const NODES: &str = "
apiVersion: v1
kind: Node
metadata: {name: worker-2, uid: 9d1c5e0a-0000-4000-8000-000000000002, labels: {kubernetes.io/hostname: worker-2}}
spec:
  taints: [{key: dedicated, value: db, effect: NoSchedule}]
---
apiVersion: v1
kind: Pod
metadata: {name: db-0}
spec:
  nodeName: worker-2
  containers: [{name: db, image: postgres:17}]
";

#[test]
fn kubelet_registers_its_node_tainted_not_ready() {
    check(
        NODES,
        "
user: system:node:worker-1
groups: [system:nodes, system:authenticated]
---
apiVersion: v1
kind: Node
metadata:
  name: worker-1
  labels: {kubernetes.io/hostname: worker-1, kubernetes.io/os: linux, node.kubernetes.io/instance-type: m5.large}
",
        expect![[r#"
            mutating:
              NodeRestriction: allowed
                The kubelet registers its own Node worker-1.
              TaintNodesByCondition: mutated
                New nodes start tainted node.kubernetes.io/not-ready:NoSchedule; the node lifecycle controller removes the taint once the kubelet reports Ready.
                /spec: (none) -> 
                    taints:
                    - effect: NoSchedule
                      key: node.kubernetes.io/not-ready
            validating:
            result: allowed
        "#]],
    );
}

#[test]
fn kubelet_may_not_touch_other_nodes_or_labels() {
    check(
        NODES,
        "
user: system:node:worker-1
groups: [system:nodes]
operation: UPDATE
---
apiVersion: v1
kind: Node
metadata: {name: worker-2}
",
        expect![[r#"
            mutating:
              NodeRestriction: denied
                A kubelet may only act on its own node and the pods bound to it.
            result: 403 Forbidden: nodes "worker-2" is forbidden: node "worker-1" is not allowed to modify node "worker-2"
        "#]],
    );
    check(
        NODES,
        "
user: system:node:worker-2
groups: [system:nodes]
operation: UPDATE
---
apiVersion: v1
kind: Node
metadata: {name: worker-2, labels: {kubernetes.io/hostname: worker-2}}
",
        expect![[r#"
            mutating:
              NodeRestriction: denied
                A kubelet may only act on its own node and the pods bound to it.
            result: 403 Forbidden: nodes "worker-2" is forbidden: node "worker-2" is not allowed to modify taints
        "#]],
    );
    check(
        NODES,
        "
user: system:node:worker-2
groups: [system:nodes]
operation: UPDATE
---
apiVersion: v1
kind: Node
metadata: {name: worker-2, labels: {kubernetes.io/hostname: worker-2, node-role.kubernetes.io/control-plane: ''}}
spec:
  taints: [{key: dedicated, value: db, effect: NoSchedule}]
",
        expect![[r#"
            mutating:
              NodeRestriction: denied
                A kubelet may only act on its own node and the pods bound to it.
            result: 403 Forbidden: nodes "worker-2" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/control-plane
        "#]],
    );
}

#[test]
fn kubelet_pods_rules() {
    // Only mirror pods may be created by a kubelet.
    check(
        NODES,
        "
user: system:node:worker-1
groups: [system:nodes]
show: [NodeRestriction]
---
apiVersion: v1
kind: Pod
metadata: {name: sneaky}
spec:
  nodeName: worker-1
  containers: [{name: x, image: busybox:1.37}]
",
        expect![[r#"
            mutating:
              NodeRestriction: denied
                A kubelet may only act on its own node and the pods bound to it.
            result: 403 Forbidden: pods "sneaky" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "worker-1" can only create mirror pods
        "#]],
    );
    // A mirror pod of a static pod, owned by its node.
    check(
        NODES,
        "
user: system:node:worker-2
groups: [system:nodes]
show: [NodeRestriction, ServiceAccount]
---
apiVersion: v1
kind: Pod
metadata:
  name: etcd-worker-2
  namespace: default
  annotations: {kubernetes.io/config.mirror: 3f6c9e2b}
  ownerReferences:
  - {apiVersion: v1, kind: Node, name: worker-2, uid: 9d1c5e0a-0000-4000-8000-000000000002, controller: true}
spec:
  nodeName: worker-2
  containers: [{name: etcd, image: registry.k8s.io/etcd:3.6.5-0}]
",
        expect![[r#"
            mutating:
              ServiceAccount: allowed
                Mirror pods are left exactly as the kubelet wrote them.
              NodeRestriction: allowed
                The kubelet of worker-2 registers the mirror pod of one of its static pods.
            validating:
              ServiceAccount: allowed
                A mirror pod without API credentials.
            result: allowed
        "#]],
    );
    // Deleting a pod bound to another node.
    check(
        NODES,
        "
user: system:node:worker-1
groups: [system:nodes]
operation: DELETE
name: db-0
namespace: default
show: [NodeRestriction]
",
        expect![[r#"
            mutating:
              NodeRestriction: denied
                A kubelet may only act on its own node and the pods bound to it.
            result: 403 Forbidden: pods "db-0" is forbidden: node "worker-1" can only delete pods with spec.nodeName set to itself
        "#]],
    );
}

#[test]
fn runtime_class_overhead_and_missing_class() {
    let cluster = "
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: gvisor}
handler: runsc
overhead:
  podFixed: {cpu: 250m, memory: 120Mi}
scheduling:
  nodeSelector: {sandbox.gvisor.dev/runtime: enabled}
";
    check(
        cluster,
        "show: [RuntimeClass]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  runtimeClassName: gvisor\n  containers: [{name: web, image: nginx:1.29}]\n",
        expect![[r#"
            mutating:
              RuntimeClass: mutated
                RuntimeClass gvisor runs the pod with handler "runsc". Its overhead (cpu=250m, memory=120Mi) is added to the pod's requests for scheduling and cgroups. The class's node selector is merged into the pod's.
                /spec/nodeSelector: (none) -> sandbox.gvisor.dev/runtime: enabled
                /spec/overhead: (none) -> 
                    cpu: 250m
                    memory: 120Mi
            validating:
              RuntimeClass: allowed
                The pod's overhead is its RuntimeClass's.
            result: allowed
        "#]],
    );
    check(
        cluster,
        "show: [RuntimeClass]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  runtimeClassName: kata\n  containers: [{name: web, image: nginx:1.29}]\n",
        expect![[r#"
            mutating:
              RuntimeClass: denied
                The RuntimeClass the pod names does not exist (kubectl get runtimeclasses).
            result: 403 Forbidden: pods "web" is forbidden: pod rejected: RuntimeClass "kata" not found
        "#]],
    );
}

#[test]
fn claims_get_the_default_class_and_a_finalizer() {
    let cluster = "
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
  creationTimestamp: '2025-06-01T00:00:00Z'
  annotations: {storageclass.kubernetes.io/is-default-class: 'true'}
provisioner: rancher.io/local-path
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
  creationTimestamp: '2025-09-01T00:00:00Z'
  annotations: {storageclass.kubernetes.io/is-default-class: 'true'}
provisioner: ebs.csi.aws.com
";
    check(
        cluster,
        "
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
",
        expect![[r#"
            mutating:
              NamespaceLifecycle: allowed
                The namespace default exists and is Active.
              LimitRanger: not applicable
                There is no LimitRange in namespace default.
              DefaultStorageClass: mutated
                The claim names no class, so it gets the default StorageClass fast (2 classes are marked default; the newest wins).
                /spec/storageClassName: (none) -> fast
              StorageObjectInUseProtection: mutated
                Finalizer kubernetes.io/pvc-protection: deleting the claim while it is in use leaves it Terminating until it is released.
                /metadata/finalizers: (none) -> - kubernetes.io/pvc-protection
            validating:
              LimitRanger: not applicable
                There is no LimitRange in namespace default.
              ResourceQuota: not applicable
                There is no ResourceQuota in namespace default.
            result: allowed
        "#]],
    );
    check(
        cluster,
        "
show: [DefaultStorageClass]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: static}
spec:
  storageClassName: ''
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
",
        expect![[r#"
            mutating:
              DefaultStorageClass: allowed
                The claim names its StorageClass (an empty name means: no class, static binding only).
            validating:
            result: allowed
        "#]],
    );
}

#[test]
fn ingress_gets_the_default_class() {
    check(
        "
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
  annotations: {ingressclass.kubernetes.io/is-default-class: 'true'}
spec: {controller: k8s.io/ingress-nginx}
",
        "
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web}
spec:
  rules:
  - http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
",
        expect![[r#"
            mutating:
              NamespaceLifecycle: allowed
                The namespace default exists and is Active.
              DefaultIngressClass: mutated
                The Ingress names no class, so it gets the default IngressClass nginx.
                /spec/ingressClassName: (none) -> nginx
            validating:
              ResourceQuota: not applicable
                There is no ResourceQuota in namespace default.
            result: allowed
        "#]],
    );
}

/// A namespace `shop` where a sidecar injector and a label adder are enabled, an image policy,
/// and the Services in front of the webhook servers.
const WEBHOOKS: &str = "
apiVersion: v1
kind: Namespace
metadata: {name: shop, labels: {sidecar-injection: enabled}}
status: {phase: Active}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: default, namespace: shop}
---
apiVersion: v1
kind: Service
metadata: {name: injector, namespace: webhooks}
spec: {clusterIP: 10.96.14.2, ports: [{port: 443, targetPort: 8443}]}
---
apiVersion: v1
kind: Service
metadata: {name: policy, namespace: webhooks}
spec: {clusterIP: 10.96.14.3, ports: [{port: 443, targetPort: 8443}]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: a-sidecar-injector}
webhooks:
- name: sidecar-injector.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig:
    service: {name: injector, namespace: webhooks, path: /inject}
  namespaceSelector:
    matchLabels: {sidecar-injection: enabled}
  rules:
  - {operations: [CREATE], apiGroups: [''], apiVersions: [v1], resources: [pods]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: b-labels}
webhooks:
- name: labels.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  reinvocationPolicy: IfNeeded
  clientConfig:
    service: {name: policy, namespace: webhooks, path: /labels}
  objectSelector:
    matchExpressions: [{key: team, operator: DoesNotExist}]
  rules:
  - {operations: [CREATE, UPDATE], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: Namespaced}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: image-policy}
webhooks:
- name: images.policy.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  timeoutSeconds: 5
  clientConfig:
    service: {name: policy, namespace: webhooks, path: /validate}
  rules:
  - {operations: [CREATE, UPDATE], apiGroups: [''], apiVersions: [v1], resources: [pods]}
---
webhookServers:
- webhook: sidecar-injector.example.com
  latencyMs: 14
  injectSidecar:
    container: {name: log-shipper, image: 'fluent/fluent-bit:3.2', resources: {requests: {cpu: 10m}}}
    volumes: [{name: shipper-config, configMap: {name: fluent-bit}}]
    annotations: {sidecar.example.com/injected: 'true'}
- webhook: labels.example.com
  addLabels: {team: unassigned}
- webhook: images.policy.example.com
  latencyMs: 5
  denyImages: {}
";

#[test]
fn webhooks_inject_a_sidecar_label_and_reinvoke_the_chain() {
    check(
        WEBHOOKS,
        "
show: [ServiceAccount, MutatingAdmissionWebhook, ValidatingAdmissionWebhook]
---
apiVersion: v1
kind: Pod
metadata: {name: cart, namespace: shop}
spec:
  containers: [{name: cart, image: 'shop/cart:2.4.1'}]
",
        expect![[r#"
            mutating:
              ServiceAccount: mutated
                The pod names no service account, so it runs as "default". Token volume kube-api-access-2gkmc (a bound token valid for 3607 s, the cluster CA and the namespace) is mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in container cart.
                /spec/containers/0/volumeMounts: (none) -> 
                    - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                      name: kube-api-access-2gkmc
                      readOnly: true
                /spec/serviceAccount: (none) -> default
                /spec/serviceAccountName: (none) -> default
                /spec/volumes: (none) -> 
                    - name: kube-api-access-2gkmc
                      projected:
                        defaultMode: 420
                        sources:
                        - serviceAccountToken:
                            expirationSeconds: 3607
                            path: token
                        - configMap:
                            items:
                            - key: ca.crt
                              path: ca.crt
                            name: kube-root-ca.crt
                        - downwardAPI:
                            items:
                            - fieldRef:
                                apiVersion: v1
                                fieldPath: metadata.namespace
                              path: namespace
              MutatingAdmissionWebhook: mutated
                sidecar-injector.example.com (configuration a-sidecar-injector) patched the object. labels.example.com (configuration b-labels) patched the object.
                /metadata/annotations: (none) -> sidecar.example.com/injected: 'true'
                /metadata/labels: (none) -> team: unassigned
                /spec/containers/1: (none) -> 
                    image: fluent/fluent-bit:3.2
                    imagePullPolicy: IfNotPresent
                    name: log-shipper
                    resources:
                      requests:
                        cpu: 10m
                    terminationMessagePath: /dev/termination-log
                    terminationMessagePolicy: File
                /spec/volumes/1: (none) -> 
                    configMap:
                      defaultMode: 420
                      name: fluent-bit
                    name: shipper-config
                annotation patch.webhook.admission.k8s.io/round_0_index_0: {"configuration":"a-sidecar-injector","webhook":"sidecar-injector.example.com","patch":[{"op":"add","path":"/spec/containers/-","value":{"name":"log-shipper","image":"fluent/fluent-bit:3.2","resources":{"requests":{"cpu":"10m"}}}},{"op":"add","path":"/spec/volumes/-","value":{"name":"shipper-config","configMap":{"name":"fluent-bit"}}},{"op":"add","path":"/metadata/annotations","value":{"sidecar.example.com/injected":"true"}}],"patchType":"JSONPatch"}
                annotation mutation.webhook.admission.k8s.io/round_0_index_0: {"configuration":"a-sidecar-injector","webhook":"sidecar-injector.example.com","mutated":true}
                annotation patch.webhook.admission.k8s.io/round_0_index_1: {"configuration":"b-labels","webhook":"labels.example.com","patch":[{"op":"add","path":"/metadata/labels","value":{"team":"unassigned"}}],"patchType":"JSONPatch"}
                annotation mutation.webhook.admission.k8s.io/round_0_index_1: {"configuration":"b-labels","webhook":"labels.example.com","mutated":true}
                call sidecar-injector.example.com (a-sidecar-injector): POST https://injector.webhooks.svc:443/inject?timeout=10s [14 ms]: allowed with a patch of 3 operation(s)
                  patch: [{"op":"add","path":"/spec/containers/-","value":{"name":"log-shipper","image":"fluent/fluent-bit:3.2","resources":{"requests":{"cpu":"10m"}}}},{"op":"add","path":"/spec/volumes/-","value":{"name":"shipper-config","configMap":{"name":"fluent-bit"}}},{"op":"add","path":"/metadata/annotations","value":{"sidecar.example.com/injected":"true"}}]
                call labels.example.com (b-labels): POST https://policy.webhooks.svc:443/labels?timeout=10s [8 ms]: allowed with a patch of 1 operation(s)
                  patch: [{"op":"add","path":"/metadata/labels","value":{"team":"unassigned"}}]
              ServiceAccount: mutated
                Reinvocation: Token volume kube-api-access-2gkmc (a bound token valid for 3607 s, the cluster CA and the namespace) is mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in container log-shipper.
                /spec/containers/1/volumeMounts: (none) -> 
                    - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                      name: kube-api-access-2gkmc
                      readOnly: true
            validating:
              ServiceAccount: allowed
                The ServiceAccount default exists; the pod's 2 container(s) may use its token.
              ValidatingAdmissionWebhook: allowed
                images.policy.example.com allowed it.
                call images.policy.example.com (image-policy): POST https://policy.webhooks.svc:443/validate?timeout=5s [5 ms]: allowed
            result: allowed
        "#]],
    );
}

#[test]
fn webhook_admission_review_documents() {
    check(
        WEBHOOKS,
        "
show: [MutatingAdmissionWebhook]
review: true
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: default, labels: {team: a}}
data: {mode: fast}
",
        expect![[r#"
            mutating:
              MutatingAdmissionWebhook: not applicable
                sidecar-injector.example.com is not called: its namespaceSelector (sidecar-injection=enabled) does not match the labels of namespace default. labels.example.com is not called: its objectSelector (!team) does not match the object's labels. 2 mutating webhook(s) configured; none applies to this request.
            validating:
            result: allowed
        "#]],
    );
    check(
        WEBHOOKS,
        "
show: [MutatingAdmissionWebhook]
review: true
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: default}
data: {mode: fast}
",
        expect![[r#"
            mutating:
              MutatingAdmissionWebhook: mutated
                sidecar-injector.example.com is not called: its namespaceSelector (sidecar-injection=enabled) does not match the labels of namespace default. labels.example.com (configuration b-labels) patched the object.
                /metadata/labels: (none) -> team: unassigned
                annotation patch.webhook.admission.k8s.io/round_0_index_1: {"configuration":"b-labels","webhook":"labels.example.com","patch":[{"op":"add","path":"/metadata/labels","value":{"team":"unassigned"}}],"patchType":"JSONPatch"}
                annotation mutation.webhook.admission.k8s.io/round_0_index_1: {"configuration":"b-labels","webhook":"labels.example.com","mutated":true}
                call labels.example.com (b-labels): POST https://policy.webhooks.svc:443/labels?timeout=10s [8 ms]: allowed with a patch of 1 operation(s)
                  patch: [{"op":"add","path":"/metadata/labels","value":{"team":"unassigned"}}]
                  request:
                    {
                      "kind": "AdmissionReview",
                      "apiVersion": "admission.k8s.io/v1",
                      "request": {
                        "uid": "bdd73226-2feb-4e95-a8ef-e333b266f103",
                        "kind": {
                          "group": "",
                          "version": "v1",
                          "kind": "ConfigMap"
                        },
                        "resource": {
                          "group": "",
                          "version": "v1",
                          "resource": "configmaps"
                        },
                        "requestKind": {
                          "group": "",
                          "version": "v1",
                          "kind": "ConfigMap"
                        },
                        "requestResource": {
                          "group": "",
                          "version": "v1",
                          "resource": "configmaps"
                        },
                        "name": "settings",
                        "namespace": "default",
                        "operation": "CREATE",
                        "userInfo": {
                          "username": "kubernetes-admin",
                          "groups": [
                            "kubeadm:cluster-admins",
                            "system:authenticated"
                          ]
                        },
                        "object": {
                          "apiVersion": "v1",
                          "kind": "ConfigMap",
                          "data": {
                            "mode": "fast"
                          },
                          "metadata": {
                            "name": "settings",
                            "namespace": "default"
                          }
                        },
                        "oldObject": null,
                        "dryRun": false,
                        "options": {
                          "kind": "CreateOptions",
                          "apiVersion": "meta.k8s.io/v1"
                        }
                      }
                    }
                  response:
                    {
                      "kind": "AdmissionReview",
                      "apiVersion": "admission.k8s.io/v1",
                      "response": {
                        "uid": "bdd73226-2feb-4e95-a8ef-e333b266f103",
                        "allowed": true,
                        "patchType": "JSONPatch",
                        "patch": "W3sib3AiOiJhZGQiLCJwYXRoIjoiL21ldGFkYXRhL2xhYmVscyIsInZhbHVlIjp7InRlYW0iOiJ1bmFzc2lnbmVkIn19XQ=="
                      }
                    }
            validating:
            result: allowed
        "#]],
    );
}

#[test]
fn image_policy_webhook_denies_unpinned_images() {
    check(
        WEBHOOKS,
        "
show: [ValidatingAdmissionWebhook]
---
apiVersion: v1
kind: Pod
metadata: {name: web, labels: {team: a}}
spec:
  initContainers: [{name: setup, image: busybox}]
  containers: [{name: web, image: 'nginx:latest'}, {name: ok, image: 'nginx@sha256:0123'}]
",
        expect![[r#"
            mutating:
            validating:
              ValidatingAdmissionWebhook: denied
                images.policy.example.com denied the request.
                call images.policy.example.com (image-policy): POST https://policy.webhooks.svc:443/validate?timeout=5s [5 ms]: denied: init container "setup": image "busybox" has no tag; pin a version tag or a digest; container "web": image "nginx:latest" uses the tag "latest"; pin a version tag or a digest
            result: 403 Forbidden: admission webhook "images.policy.example.com" denied the request: init container "setup": image "busybox" has no tag; pin a version tag or a digest; container "web": image "nginx:latest" uses the tag "latest"; pin a version tag or a digest
        "#]],
    );
}

const DOWN: &str = "
apiVersion: v1
kind: Service
metadata: {name: gatekeeper, namespace: policy}
spec: {clusterIP: 10.96.200.7, ports: [{port: 443}]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: gatekeeper}
webhooks:
- name: validation.gatekeeper.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: FAILURE_POLICY
  clientConfig:
    service: {name: gatekeeper, namespace: policy, path: /v1/admit}
  rules:
  - {operations: [CREATE], apiGroups: ['*'], apiVersions: ['*'], resources: ['*']}
---
webhookServers:
- webhook: validation.gatekeeper.example.com
  down: {failure: ConnectionRefused}
";

#[test]
fn webhook_that_is_down_fails_closed_or_open() {
    check(
        &DOWN.replace("FAILURE_POLICY", "Fail"),
        &format!("show: [ValidatingAdmissionWebhook]\n---\n{POD}"),
        expect![[r#"
            mutating:
            validating:
              ValidatingAdmissionWebhook: denied
                validation.gatekeeper.example.com could not be called and its failurePolicy is Fail, so the request fails.
                call validation.gatekeeper.example.com (gatekeeper): POST https://gatekeeper.policy.svc:443/v1/admit?timeout=10s [1 ms]: failed (failurePolicy: Fail): failed calling webhook "validation.gatekeeper.example.com": failed to call webhook: Post "https://gatekeeper.policy.svc:443/v1/admit?timeout=10s": dial tcp 10.96.200.7:443: connect: connection refused
            result: 500 InternalError: Internal error occurred: failed calling webhook "validation.gatekeeper.example.com": failed to call webhook: Post "https://gatekeeper.policy.svc:443/v1/admit?timeout=10s": dial tcp 10.96.200.7:443: connect: connection refused
              cause  : failed calling webhook "validation.gatekeeper.example.com": failed to call webhook: Post "https://gatekeeper.policy.svc:443/v1/admit?timeout=10s": dial tcp 10.96.200.7:443: connect: connection refused
        "#]],
    );
    check(
        &DOWN.replace("FAILURE_POLICY", "Ignore"),
        &format!("show: [ValidatingAdmissionWebhook]\n---\n{POD}"),
        expect![[r#"
        mutating:
        validating:
          ValidatingAdmissionWebhook: allowed
            validation.gatekeeper.example.com could not be reached; failurePolicy Ignore lets the request through.
            annotation failed-open.validating.webhook.admission.k8s.io/round_0_index_0: validation.gatekeeper.example.com
            call validation.gatekeeper.example.com (gatekeeper): POST https://gatekeeper.policy.svc:443/v1/admit?timeout=10s [1 ms]: failed, ignored (failurePolicy: Ignore): failed calling webhook "validation.gatekeeper.example.com": failed to call webhook: Post "https://gatekeeper.policy.svc:443/v1/admit?timeout=10s": dial tcp 10.96.200.7:443: connect: connection refused
        result: allowed
    "#]],
    );
}

#[test]
fn webhook_timeout_and_missing_service() {
    let timeout = DOWN.replace("FAILURE_POLICY", "Fail").replace("ConnectionRefused", "Timeout");
    check(
        &timeout,
        &format!("show: [ValidatingAdmissionWebhook]\n---\n{POD}"),
        expect![[r#"
            mutating:
            validating:
              ValidatingAdmissionWebhook: denied
                validation.gatekeeper.example.com could not be called and its failurePolicy is Fail, so the request fails.
                call validation.gatekeeper.example.com (gatekeeper): POST https://gatekeeper.policy.svc:443/v1/admit?timeout=10s [10000 ms]: failed (failurePolicy: Fail): failed calling webhook "validation.gatekeeper.example.com": failed to call webhook: Post "https://gatekeeper.policy.svc:443/v1/admit?timeout=10s": context deadline exceeded
            result: 500 InternalError: Internal error occurred: failed calling webhook "validation.gatekeeper.example.com": failed to call webhook: Post "https://gatekeeper.policy.svc:443/v1/admit?timeout=10s": context deadline exceeded
              cause  : failed calling webhook "validation.gatekeeper.example.com": failed to call webhook: Post "https://gatekeeper.policy.svc:443/v1/admit?timeout=10s": context deadline exceeded
        "#]],
    );
    // A configuration without a declared server and without its Service.
    let no_service = "
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: forgotten}
webhooks:
- name: mutate.forgotten.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig:
    service: {name: forgotten, namespace: default}
  rules:
  - {operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*']}
";
    check(
        no_service,
        &format!("show: [MutatingAdmissionWebhook]\n---\n{POD}"),
        expect![[r#"
        mutating:
          MutatingAdmissionWebhook: denied
            mutate.forgotten.example.com could not be called and its failurePolicy is Fail, so the request fails.
            annotation mutation.webhook.admission.k8s.io/round_0_index_0: {"configuration":"forgotten","webhook":"mutate.forgotten.example.com","mutated":false}
            call mutate.forgotten.example.com (forgotten): POST https://forgotten.default.svc:443/?timeout=10s [1 ms]: failed (failurePolicy: Fail): failed calling webhook "mutate.forgotten.example.com": failed to call webhook: Post "https://forgotten.default.svc:443/?timeout=10s": service "forgotten" not found
        result: 500 InternalError: Internal error occurred: failed calling webhook "mutate.forgotten.example.com": failed to call webhook: Post "https://forgotten.default.svc:443/?timeout=10s": service "forgotten" not found
          cause  : failed calling webhook "mutate.forgotten.example.com": failed to call webhook: Post "https://forgotten.default.svc:443/?timeout=10s": service "forgotten" not found
    "#]],
    );
}

#[test]
fn dry_run_needs_side_effect_free_webhooks() {
    let cluster = "
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: audit}
webhooks:
- name: audit.example.com
  admissionReviewVersions: [v1]
  sideEffects: Some
  clientConfig: {url: 'https://audit.example.com/review'}
  rules:
  - {operations: [CREATE], apiGroups: [''], apiVersions: [v1], resources: [pods]}
---
webhookServers:
- webhook: audit.example.com
  allow: {}
";
    check(
        cluster,
        &format!("show: [ValidatingAdmissionWebhook]\ndryRun: true\n---\n{POD}"),
        expect![[r#"
            mutating:
            validating:
              ValidatingAdmissionWebhook: denied
                audit.example.com declares sideEffects Some, so it cannot be called for a dry run, and a dry run cannot skip it.
                call audit.example.com (audit): POST https://audit.example.com/review?timeout=10s [0 ms]: not called: admission webhook "audit.example.com" does not support dry run
            result: 400 BadRequest: admission webhook "audit.example.com" does not support dry run
        "#]],
    );
    check(
        cluster,
        &format!("show: [ValidatingAdmissionWebhook]\n---\n{POD}"),
        expect![[r#"
        mutating:
        validating:
          ValidatingAdmissionWebhook: allowed
            audit.example.com allowed it.
            call audit.example.com (audit): POST https://audit.example.com/review?timeout=10s [8 ms]: allowed
        result: allowed
    "#]],
    );
}

const QUOTA: &str = "
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute}
spec:
  hard: {pods: '10', requests.cpu: '2', requests.memory: 2Gi}
---
apiVersion: v1
kind: Pod
metadata: {name: api-0}
spec:
  containers: [{name: api, image: 'shop/api:1.0', resources: {requests: {cpu: 900m, memory: 512Mi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: api-1}
spec:
  containers: [{name: api, image: 'shop/api:1.0', resources: {requests: {cpu: 900m, memory: 512Mi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: migrate-done}
spec:
  restartPolicy: Never
  containers: [{name: m, image: 'shop/migrate:1.0', resources: {requests: {cpu: '1', memory: 1Gi}}}]
status: {phase: Succeeded}
";

#[test]
fn resource_quota_exceeded_counts_only_running_pods() {
    check(
        QUOTA,
        "
show: [ResourceQuota]
---
apiVersion: v1
kind: Pod
metadata: {generateName: web-7d4b9c-}
spec:
  containers: [{name: web, image: 'nginx:1.29', resources: {requests: {cpu: 500m, memory: 256Mi}}}]
",
        expect![[r#"
            mutating:
            validating:
              ResourceQuota: denied
                Quota compute would be exceeded (requests.cpu). Usage is counted from the objects in the namespace.
            result: 403 Forbidden: pods "web-7d4b9c-" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=1800m, limited: requests.cpu=2
        "#]],
    );
    check(
        QUOTA,
        "
show: [ResourceQuota]
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: web, image: 'nginx:1.29', resources: {requests: {cpu: 100m, memory: 256Mi}}}]
",
        expect![[r#"
            mutating:
            validating:
              ResourceQuota: allowed
                Quota compute: pods 3/10, requests.cpu 1900m/2, requests.memory 1280Mi/2Gi after this object.
            quota default/compute status.used: {"pods": "3", "requests.cpu": "1900m", "requests.memory": "1280Mi"}
            result: allowed
        "#]],
    );
}

#[test]
fn resource_quota_requires_values_it_tracks() {
    check(
        "
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute}
spec:
  hard: {requests.cpu: '4', limits.cpu: '8', limits.memory: 8Gi}
",
        "
show: [ResourceQuota]
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  initContainers: [{name: setup, image: 'busybox:1.37', resources: {limits: {cpu: 100m, memory: 64Mi}, requests: {cpu: 100m}}}]
  containers:
  - {name: web, image: 'nginx:1.29', resources: {requests: {cpu: 100m}}}
  - {name: log, image: 'fluent/fluent-bit:3.2'}
",
        expect![[r#"
            mutating:
            validating:
              ResourceQuota: denied
                Quota compute tracks limits.cpu, limits.memory, requests.cpu: every init and app container must then set each of these (a LimitRange with defaults would fill them in).
            result: 403 Forbidden: pods "web" is forbidden: failed quota: compute: must specify limits.cpu for: log,web; limits.memory for: log,web; requests.cpu for: log
        "#]],
    );
}

#[test]
fn resource_quota_uses_status_and_counts_objects() {
    // The quota controller already wrote status: admission compares against status.used.
    check(
        "
apiVersion: v1
kind: ResourceQuota
metadata: {name: objects}
spec:
  hard: {count/deployments.apps: '2', configmaps: '5'}
status:
  hard: {count/deployments.apps: '2', configmaps: '5'}
  used: {count/deployments.apps: '2', configmaps: '1'}
",
        "
show: [ResourceQuota]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: 'nginx:1.29'}]
",
        expect![[r#"
            mutating:
            validating:
              ResourceQuota: denied
                Quota objects would be exceeded (count/deployments.apps). Usage is the quota's status.used.
            result: 403 Forbidden: deployments.apps "web" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=2, limited: count/deployments.apps=2
        "#]],
    );
    // No status yet: usage is counted from the stored objects.
    check(
        "
apiVersion: v1
kind: ResourceQuota
metadata: {name: objects}
spec:
  hard: {count/deployments.apps: '2', configmaps: '2'}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: one}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: two}
",
        "
show: [ResourceQuota]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: three}
",
        expect![[r#"
            mutating:
            validating:
              ResourceQuota: denied
                Quota objects would be exceeded (configmaps). Usage is counted from the objects in the namespace.
            result: 403 Forbidden: configmaps "three" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=2, limited: configmaps=2
        "#]],
    );
}

#[test]
fn pod_security_enforce_warn_and_audit() {
    let cluster = "
apiVersion: v1
kind: Namespace
metadata:
  name: secure
  labels:
    pod-security.kubernetes.io/enforce: baseline
    pod-security.kubernetes.io/warn: restricted
    pod-security.kubernetes.io/audit: restricted
status: {phase: Active}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: default, namespace: secure}
";
    // Baseline passes, restricted only warns and audits.
    check(
        cluster,
        "show: [PodSecurity]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: secure}\nspec:\n  containers: [{name: web, image: 'nginx:1.29'}]\n",
        expect![[r#"
            mutating:
            validating:
              PodSecurity: allowed
                Namespace "secure" asks for enforce=baseline:latest (from label), audit=restricted:latest (from label), warn=restricted:latest (from label).
            enforce baseline:latest: 12 checks ran (the baseline checks, as defined at policy v1.37): appArmorProfile, capabilities_baseline, hostNamespaces, hostPathVolumes, hostPorts, hostProbesAndHostLifecycle, privileged, procMount, seLinuxOptions, seccompProfile_baseline, sysctls, windowsHostProcess. All passed.
            audit restricted:latest: 15 checks ran (the baseline checks, where a stricter restricted check does not replace them, and the restricted checks, as defined at policy v1.37): appArmorProfile, hostNamespaces, hostPorts, hostProbesAndHostLifecycle, privileged, seLinuxOptions, sysctls, windowsHostProcess, allowPrivilegeEscalation, capabilities_restricted, procMount_restricted, restrictedVolumes, runAsNonRoot, runAsUser, seccompProfile_restricted. 4 failed, so the violations go to the audit log (annotation pod-security.kubernetes.io/audit-violations); the request itself is not affected:
              - allowPrivilegeEscalation: allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false). To pass: set securityContext.allowPrivilegeEscalation: false on every listed container.
              - capabilities_restricted: unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"]). To pass: set securityContext.capabilities.drop: ["ALL"] on every listed container and add nothing except NET_BIND_SERVICE.
              - runAsNonRoot: runAsNonRoot != true (pod or container "web" must set securityContext.runAsNonRoot=true). To pass: set securityContext.runAsNonRoot: true in the pod spec (it covers every container) and never false on a container; the image must then run as a non-zero UID.
              - seccompProfile_restricted: seccompProfile (pod or container "web" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"). To pass: set securityContext.seccompProfile.type: RuntimeDefault (or Localhost) in the pod spec, or on every container.
            warn restricted:latest: same level and version as audit, so the same 4 violation(s); the violations come back to the client as a warning (kubectl prints `Warning: would violate PodSecurity ...`); the request itself is not affected.
            The Pod is admitted by PodSecurity.
                annotation pod-security.kubernetes.io/audit-violations: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "web" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "web" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
                annotation pod-security.kubernetes.io/enforce-policy: baseline:latest
                warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "web" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "web" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
            Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "web" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "web" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
            result: allowed
        "#]],
    );
    // A privileged container breaks baseline: enforce rejects it.
    check(
        cluster,
        "
show: [PodSecurity]
---
apiVersion: v1
kind: Pod
metadata: {name: root, namespace: secure}
spec:
  containers: [{name: shell, image: 'busybox:1.37', securityContext: {privileged: true}}]
",
        expect![[r#"
            mutating:
            validating:
              PodSecurity: denied
                Namespace "secure" asks for enforce=baseline:latest (from label), audit=restricted:latest (from label), warn=restricted:latest (from label).
            enforce baseline:latest: 12 checks ran (the baseline checks, as defined at policy v1.37): appArmorProfile, capabilities_baseline, hostNamespaces, hostPathVolumes, hostPorts, hostProbesAndHostLifecycle, privileged, procMount, seLinuxOptions, seccompProfile_baseline, sysctls, windowsHostProcess. 1 failed, so the request is rejected with 403 Forbidden and nothing is stored:
              - privileged: privileged (container "shell" must not set securityContext.privileged=true). To pass: remove securityContext.privileged: true from the listed containers.
            audit restricted:latest: 15 checks ran (the baseline checks, where a stricter restricted check does not replace them, and the restricted checks, as defined at policy v1.37): appArmorProfile, hostNamespaces, hostPorts, hostProbesAndHostLifecycle, privileged, seLinuxOptions, sysctls, windowsHostProcess, allowPrivilegeEscalation, capabilities_restricted, procMount_restricted, restrictedVolumes, runAsNonRoot, runAsUser, seccompProfile_restricted. 5 failed, so the violations go to the audit log (annotation pod-security.kubernetes.io/audit-violations); the request itself is not affected:
              - privileged: privileged (container "shell" must not set securityContext.privileged=true). To pass: remove securityContext.privileged: true from the listed containers.
              - allowPrivilegeEscalation: allowPrivilegeEscalation != false (container "shell" must set securityContext.allowPrivilegeEscalation=false). To pass: set securityContext.allowPrivilegeEscalation: false on every listed container.
              - capabilities_restricted: unrestricted capabilities (container "shell" must set securityContext.capabilities.drop=["ALL"]). To pass: set securityContext.capabilities.drop: ["ALL"] on every listed container and add nothing except NET_BIND_SERVICE.
              - runAsNonRoot: runAsNonRoot != true (pod or container "shell" must set securityContext.runAsNonRoot=true). To pass: set securityContext.runAsNonRoot: true in the pod spec (it covers every container) and never false on a container; the image must then run as a non-zero UID.
              - seccompProfile_restricted: seccompProfile (pod or container "shell" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"). To pass: set securityContext.seccompProfile.type: RuntimeDefault (or Localhost) in the pod spec, or on every container.
            Warn is not evaluated: the request is already rejected, so no warning is added.
                annotation pod-security.kubernetes.io/audit-violations: would violate PodSecurity "restricted:latest": privileged (container "shell" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "shell" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "shell" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "shell" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "shell" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
                annotation pod-security.kubernetes.io/enforce-policy: baseline:latest
            result: 403 Forbidden: pods "root" is forbidden: violates PodSecurity "baseline:latest": privileged (container "shell" must not set securityContext.privileged=true)
        "#]],
    );
}

#[test]
fn webhook_servers_in_the_lab_settings_spelling() {
    let cluster = "
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: policies}
webhooks:
- name: quota-owner.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig: {url: 'https://policy.example.com:8443/owner'}
  rules:
  - {operations: [CREATE], apiGroups: [''], apiVersions: [v1], resources: [pods]}
- name: tls.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Ignore
  clientConfig: {url: 'https://tls.example.com/check'}
  rules:
  - {operations: [CREATE], apiGroups: [''], apiVersions: [v1], resources: [pods]}
---
webhookServers:
- name: quota-owner.example.com
  allowed: false
  code: 403
  message: pods must carry an owner label
  warnings: [owner labels become mandatory next quarter]
  latencyMs: 3
- name: tls.example.com
  error: 'tls: failed to verify certificate: x509: certificate signed by unknown authority'
";
    check(
        cluster,
        &format!("show: [ValidatingAdmissionWebhook]\n---\n{POD}"),
        expect![[r#"
        mutating:
        validating:
          ValidatingAdmissionWebhook: denied
            quota-owner.example.com denied the request. tls.example.com could not be reached; failurePolicy Ignore lets the request through. The calls run in parallel, so this step takes as long as the slowest (3 ms).
            annotation failed-open.validating.webhook.admission.k8s.io/round_0_index_1: tls.example.com
            warning: owner labels become mandatory next quarter
            call quota-owner.example.com (policies): POST https://policy.example.com:8443/owner?timeout=10s [3 ms]: denied: pods must carry an owner label
            call tls.example.com (policies): POST https://tls.example.com/check?timeout=10s [1 ms]: failed, ignored (failurePolicy: Ignore): failed calling webhook "tls.example.com": failed to call webhook: Post "https://tls.example.com/check?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority
        Warning: owner labels become mandatory next quarter
        result: 403 Forbidden: admission webhook "quota-owner.example.com" denied the request: pods must carry an owner label
    "#]],
    );
}

#[test]
fn limit_ranger_bounds_claims() {
    check(
        "
apiVersion: v1
kind: LimitRange
metadata: {name: storage}
spec:
  limits:
  - type: PersistentVolumeClaim
    min: {storage: 1Gi}
    max: {storage: 10Gi}
",
        "
show: [LimitRanger]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: huge}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 50Gi}}
",
        expect![[r#"
            mutating:
              LimitRanger: allowed
                LimitRanges never fill in defaults on a PersistentVolumeClaim.
            validating:
              LimitRanger: denied
                The object breaks LimitRange storage: every violation of that LimitRange is listed.
            result: 403 Forbidden: persistentvolumeclaims "huge" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 50Gi
        "#]],
    );
}

#[test]
fn service_account_mirror_pods_and_mountable_secrets() {
    check(
        "",
        "
show: [ServiceAccount]
---
apiVersion: v1
kind: Pod
metadata: {name: static-web, annotations: {kubernetes.io/config.mirror: abc}}
spec:
  serviceAccountName: default
  containers: [{name: web, image: 'nginx:1.29'}]
",
        expect![[r#"
            mutating:
              ServiceAccount: denied
                Mirror pods (static pods) may not use the API's credentials.
            result: 403 Forbidden: pods "static-web" is forbidden: a mirror pod may not reference service accounts
        "#]],
    );
    check(
        "
apiVersion: v1
kind: ServiceAccount
metadata: {name: locked, annotations: {kubernetes.io/enforce-mountable-secrets: 'true'}}
secrets: [{name: allowed-creds}]
",
        "
show: [ServiceAccount]
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  serviceAccountName: locked
  automountServiceAccountToken: false
  containers:
  - name: web
    image: 'nginx:1.29'
    env: [{name: TOKEN, valueFrom: {secretKeyRef: {name: other-creds, key: token}}}]
",
        expect![[r#"
            mutating:
              ServiceAccount: denied
                The account only allows the secrets it lists.
                /spec/serviceAccount: (none) -> locked
            result: 403 Forbidden: pods "web" is forbidden: container web with envVar TOKEN referencing secret.secretName="other-creds" is not allowed because service account locked does not reference that secret
        "#]],
    );
}

#[test]
fn reinvocation_gives_the_injected_sidecar_limit_range_defaults() {
    let cluster = format!(
        "{WEBHOOKS}\n---\napiVersion: v1\nkind: LimitRange\nmetadata: {{name: defaults, namespace: shop}}\nspec:\n  limits:\n  - type: Container\n    defaultRequest: {{cpu: 50m, memory: 64Mi}}\n"
    );
    check(
        &cluster,
        "
show: [LimitRanger, MutatingAdmissionWebhook]
---
apiVersion: v1
kind: Pod
metadata: {name: cart, namespace: shop, labels: {team: shop}}
spec:
  containers: [{name: cart, image: 'shop/cart:2.4.1'}]
",
        expect![[r#"
            mutating:
              LimitRanger: mutated
                LimitRange defaults filled in what the containers left out, and the kubernetes.io/limit-ranger annotation records it. Min, max and ratio limits are checked in the validating pass.
                /metadata/annotations: (none) -> kubernetes.io/limit-ranger: 'LimitRanger plugin set: cpu, memory request for container cart'
                /spec/containers/0/resources: (none) -> 
                    requests:
                      cpu: 50m
                      memory: 64Mi
                annotation kubernetes.io/limit-ranger: LimitRanger plugin set: cpu, memory request for container cart
              MutatingAdmissionWebhook: mutated
                labels.example.com is not called: its objectSelector (!team) does not match the object's labels. sidecar-injector.example.com (configuration a-sidecar-injector) patched the object.
                /metadata/annotations/sidecar.example.com~1injected: (none) -> 'true'
                /spec/containers/1: (none) -> 
                    image: fluent/fluent-bit:3.2
                    imagePullPolicy: IfNotPresent
                    name: log-shipper
                    resources:
                      requests:
                        cpu: 10m
                    terminationMessagePath: /dev/termination-log
                    terminationMessagePolicy: File
                /spec/volumes/1: (none) -> 
                    configMap:
                      defaultMode: 420
                      name: fluent-bit
                    name: shipper-config
                annotation patch.webhook.admission.k8s.io/round_0_index_0: {"configuration":"a-sidecar-injector","webhook":"sidecar-injector.example.com","patch":[{"op":"add","path":"/spec/containers/-","value":{"name":"log-shipper","image":"fluent/fluent-bit:3.2","resources":{"requests":{"cpu":"10m"}}}},{"op":"add","path":"/spec/volumes/-","value":{"name":"shipper-config","configMap":{"name":"fluent-bit"}}},{"op":"add","path":"/metadata/annotations/sidecar.example.com~1injected","value":"true"}],"patchType":"JSONPatch"}
                annotation mutation.webhook.admission.k8s.io/round_0_index_0: {"configuration":"a-sidecar-injector","webhook":"sidecar-injector.example.com","mutated":true}
                call sidecar-injector.example.com (a-sidecar-injector): POST https://injector.webhooks.svc:443/inject?timeout=10s [14 ms]: allowed with a patch of 3 operation(s)
                  patch: [{"op":"add","path":"/spec/containers/-","value":{"name":"log-shipper","image":"fluent/fluent-bit:3.2","resources":{"requests":{"cpu":"10m"}}}},{"op":"add","path":"/spec/volumes/-","value":{"name":"shipper-config","configMap":{"name":"fluent-bit"}}},{"op":"add","path":"/metadata/annotations/sidecar.example.com~1injected","value":"true"}]
              LimitRanger: mutated
                Reinvocation: LimitRange defaults filled in what the containers left out, and the kubernetes.io/limit-ranger annotation records it. Min, max and ratio limits are checked in the validating pass.
                /metadata/annotations/kubernetes.io~1limit-ranger: 'LimitRanger plugin set: cpu, memory request for container cart' -> 'LimitRanger plugin set: memory request for container log-shipper'
                /spec/containers/1/resources/requests/memory: (none) -> 64Mi
                annotation kubernetes.io/limit-ranger: LimitRanger plugin set: memory request for container log-shipper
            validating:
              LimitRanger: allowed
                Within the limits of LimitRange defaults.
            result: allowed
        "#]],
    );
}
