//! Request-level tests of the pipeline: each case sends requests as some caller against the
//! default cluster and shows the responses (code, Status message) and the steps recorded.

use super::*;
use crate::cluster;
use crate::object::resource_for;
use crate::world::World;
use expect_test::{expect, Expect};
use serde_json::json;

fn core() -> World {
    let mut core = World::new(3);
    cluster::load(&mut core, None).expect("default cluster");
    core
}

fn admin() -> Caller {
    Caller::kubectl(Credential::ClientCertificate {
        common_name: "kubernetes-admin".into(),
        organizations: vec!["system:masters".into()],
    })
}

#[allow(clippy::too_many_arguments)]
fn req(
    caller: &Caller,
    verb: Verb,
    api_version: &str,
    kind: &str,
    ns: Option<&str>,
    name: Option<&str>,
    sub: Option<&str>,
    body: Option<Value>,
) -> ApiRequest {
    ApiRequest {
        caller: caller.clone(),
        verb,
        resource: resource_for(api_version, kind).expect("known kind"),
        namespace: ns.map(str::to_string),
        name: name.map(str::to_string),
        subresource: sub.map(str::to_string),
        body: body.map(Body::Json),
        verbose: false,
        file: None,
    }
}

/// One line per response: code, then the Status message or the interesting fields of the
/// object; and the summary of each step the request recorded.
fn show(core: &mut World, out: &mut String, r: ApiRequest, fields: &[&str]) -> ApiResponse {
    let before = core.steps.len();
    let resp = handle(core, r);
    match (&resp.error, resp.clone().into_object()) {
        (Some(e), _) => *out += &format!("{} {:?}: {}\n", resp.code, e.reason, e.message),
        (None, Some(o)) => {
            let j = o.to_json();
            let f: Vec<String> = fields
                .iter()
                .map(|p| format!("{p}={}", j.pointer(p).map(|v| v.to_string()).unwrap_or("-".into())))
                .collect();
            *out += &format!("{} {}\n", resp.code, f.join(" "));
        }
        (None, None) => *out += &format!("{}\n", resp.code),
    }
    for s in &core.steps[before..] {
        *out += &format!("  [{}] {}\n", s.phase.id(), s.summary);
        if let crate::trace::Detail::ApiCall(c) = &s.detail {
            *out += &format!(
                "    user={} authorizer={} allowed={} ({})\n",
                c.user.username, c.authorizer, c.allowed, c.authorization
            );
        }
    }
    resp
}

fn pod(name: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
        "spec": {"containers": [{"name": "c", "image": "nginx:1.29",
            "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"cpu": "100m", "memory": "64Mi"}}}]}})
}

fn check(f: impl FnOnce(&mut World, &mut String), expect: Expect) {
    let mut core = core();
    let mut out = String::new();
    f(&mut core, &mut out);
    expect.assert_eq(&out);
}

#[test]
fn create_then_create_again_conflicts() {
    check(
        |core, out| {
            let a = admin();
            let f = ["/metadata/resourceVersion", "/metadata/generation", "/status/phase", "/status/qosClass"];
            show(core, out, req(&a, Verb::Create, "v1", "Pod", Some("default"), None, None, Some(pod("web"))), &f);
            show(core, out, req(&a, Verb::Create, "v1", "Pod", Some("default"), None, None, Some(pod("web"))), &f);
            let mut with_rv = pod("db");
            with_rv["metadata"]["resourceVersion"] = json!("42");
            show(core, out, req(&a, Verb::Create, "v1", "Pod", Some("default"), None, None, Some(with_rv)), &f);
            let mut other_ns = pod("x");
            other_ns["metadata"]["namespace"] = json!("kube-system");
            show(core, out, req(&a, Verb::Create, "v1", "Pod", Some("default"), None, None, Some(other_ns)), &f);
            let mut generated = pod("");
            generated["metadata"] = json!({"generateName": "web-"});
            show(
                core,
                out,
                req(&a, Verb::Create, "v1", "Pod", Some("default"), None, None, Some(generated)),
                &["/metadata/name"],
            );
            let unnamed = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}});
            show(core, out, req(&a, Verb::Create, "v1", "ConfigMap", Some("default"), None, None, Some(unnamed)), &[]);
        },
        expect![[r#"
            201 /metadata/resourceVersion="156" /metadata/generation=1 /status/phase="Pending" /status/qosClass="Guaranteed"
              [etcd] kubectl POST /api/v1/namespaces/default/pods → 201 Created
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            409 AlreadyExists: pods "web" already exists
              [etcd] kubectl POST /api/v1/namespaces/default/pods → 409 Conflict
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            500 Unknown: resourceVersion should not be set on objects to be created
              [etcd] kubectl POST /api/v1/namespaces/default/pods → 500 Internal Server Error
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            400 BadRequest: the namespace of the provided object does not match the namespace sent on the request
              [etcd] kubectl POST /api/v1/namespaces/default/pods → 400 Bad Request
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            201 /metadata/name="web-w6xzh"
              [etcd] kubectl POST /api/v1/namespaces/default/pods → 201 Created
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            422 Invalid: ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required
              [etcd] kubectl POST /api/v1/namespaces/default/configmaps → 422 Unprocessable Entity
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        "#]],
    );
}

#[test]
fn updates_status_and_generation() {
    check(
        |core, out| {
            let a = admin();
            let f = ["/metadata/resourceVersion", "/metadata/generation", "/spec/containers/0/image", "/status/phase"];
            show(core, out, req(&a, Verb::Create, "v1", "Pod", Some("default"), None, None, Some(pod("web"))), &f);
            // A stale resourceVersion.
            let mut stale = pod("web");
            stale["metadata"]["resourceVersion"] = json!("3");
            show(core, out, req(&a, Verb::Update, "v1", "Pod", Some("default"), Some("web"), None, Some(stale)), &f);
            // A main-resource write cannot change status; a spec change bumps the generation.
            let patch =
                json!({"spec": {"containers": [{"name": "c", "image": "nginx:1.30"}]}, "status": {"phase": "Running"}});
            show(core, out, req(&a, Verb::Patch, "v1", "Pod", Some("default"), Some("web"), None, Some(patch)), &f);
            // A status write cannot change the spec.
            let patch =
                json!({"spec": {"containers": [{"name": "c", "image": "busybox"}]}, "status": {"phase": "Running"}});
            show(
                core,
                out,
                req(&a, Verb::Patch, "v1", "Pod", Some("default"), Some("web"), Some("status"), Some(patch)),
                &f,
            );
            // Nothing changes: no write.
            let patch = json!({"metadata": {"labels": null}});
            show(core, out, req(&a, Verb::Patch, "v1", "Pod", Some("default"), Some("web"), None, Some(patch)), &f);
            show(
                core,
                out,
                req(&a, Verb::Patch, "v1", "Pod", Some("default"), Some("nope"), None, Some(json!({}))),
                &f,
            );
        },
        expect![[r#"
            201 /metadata/resourceVersion="156" /metadata/generation=1 /spec/containers/0/image="nginx:1.29" /status/phase="Pending"
              [etcd] kubectl POST /api/v1/namespaces/default/pods → 201 Created
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            409 Conflict: Operation cannot be fulfilled on pods "web": the object has been modified; please apply your changes to the latest version and try again
              [etcd] kubectl PUT /api/v1/namespaces/default/pods/web → 409 Conflict
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            200 /metadata/resourceVersion="157" /metadata/generation=2 /spec/containers/0/image="nginx:1.30" /status/phase="Pending"
              [etcd] kubectl PATCH /api/v1/namespaces/default/pods/web → 200 OK
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            200 /metadata/resourceVersion="158" /metadata/generation=2 /spec/containers/0/image="nginx:1.30" /status/phase="Running"
              [etcd] kubectl PATCH /api/v1/namespaces/default/pods/web/status → 200 OK
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            200 /metadata/resourceVersion="158" /metadata/generation=2 /spec/containers/0/image="nginx:1.30" /status/phase="Running"
              [etcd] kubectl PATCH /api/v1/namespaces/default/pods/web → 200 OK
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            404 NotFound: pods "nope" not found
              [etcd] kubectl PATCH /api/v1/namespaces/default/pods/nope → 404 Not Found
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        "#]],
    );
}

#[test]
fn scheduler_binds_once() {
    check(
        |core, out| {
            let a = admin();
            show(core, out, req(&a, Verb::Create, "v1", "Pod", Some("default"), None, None, Some(pod("web"))), &[]);
            let binding = json!({"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "web", "namespace": "default"},
                "target": {"apiVersion": "v1", "kind": "Node", "name": "kind-worker"}});
            let s = Caller::scheduler();
            let f = ["/spec/nodeName", "/status/conditions"];
            show(
                core,
                out,
                req(
                    &s,
                    Verb::Create,
                    "v1",
                    "Pod",
                    Some("default"),
                    Some("web"),
                    Some("binding"),
                    Some(binding.clone()),
                ),
                &f,
            );
            show(
                core,
                out,
                req(
                    &s,
                    Verb::Create,
                    "v1",
                    "Pod",
                    Some("default"),
                    Some("web"),
                    Some("binding"),
                    Some(binding.clone()),
                ),
                &f,
            );
            // The kubelet may report status; another kubelet's read of an unrelated secret is refused.
            let k = Caller::kubelet("kind-worker");
            let status = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "default"}, "status": {"phase": "Running", "podIP": "10.244.1.5"}});
            show(
                core,
                out,
                req(&k, Verb::Update, "v1", "Pod", Some("default"), Some("web"), Some("status"), Some(status)),
                &["/status/phase", "/status/qosClass"],
            );
            show(core, out, req(&k, Verb::Get, "v1", "Secret", Some("default"), Some("token"), None, None), &[]);
            show(core, out, req(&k, Verb::Get, "v1", "Node", None, Some("kind-worker2"), None, None), &[]);
            show(
                core,
                out,
                req(&k, Verb::Get, "v1", "ServiceAccount", Some("default"), Some("default"), None, None),
                &[],
            );
            // The scheduler may not create pods.
            show(core, out, req(&s, Verb::Create, "v1", "Pod", Some("default"), None, None, Some(pod("x"))), &[]);
        },
        expect![[r#"
            201 
              [etcd] kubectl POST /api/v1/namespaces/default/pods → 201 Created
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            201 /spec/nodeName="kind-worker" /status/conditions=[{"lastTransitionTime":"2026-01-01T00:00:00Z","status":"True","type":"PodScheduled"}]
              [etcd] kube-scheduler POST /api/v1/namespaces/default/pods/web/binding → 201 Created
                user=system:kube-scheduler authorizer=RBAC allowed=true (RBAC: allowed by ClusterRoleBinding "system:kube-scheduler" of ClusterRole "system:kube-scheduler" to User "system:kube-scheduler")
            409 Conflict: Operation cannot be fulfilled on pods/binding "web": pod web is already assigned to node "kind-worker"
              [etcd] kube-scheduler POST /api/v1/namespaces/default/pods/web/binding → 409 Conflict
                user=system:kube-scheduler authorizer=RBAC allowed=true (RBAC: allowed by ClusterRoleBinding "system:kube-scheduler" of ClusterRole "system:kube-scheduler" to User "system:kube-scheduler")
            200 /status/phase="Running" /status/qosClass="Guaranteed"
              [etcd] kubelet PUT /api/v1/namespaces/default/pods/web/status → 200 OK
                user=system:node:kind-worker authorizer=Node allowed=true (the Node authorizer allows kubelet system:node:kind-worker this request (kubelets report the status of pods; the NodeRestriction admission plugin keeps them to their own pods))
            403 Forbidden: secrets "token" is forbidden: User "system:node:kind-worker" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node 'kind-worker' and this object
              [etcd] kubelet GET /api/v1/namespaces/default/secrets/token → 403 Forbidden
                user=system:node:kind-worker authorizer=Node,RBAC allowed=false (User "system:node:kind-worker" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node 'kind-worker' and this object)
            403 Forbidden: nodes "kind-worker2" is forbidden: User "system:node:kind-worker" cannot get resource "nodes" in API group "" at the cluster scope: node 'kind-worker' cannot read 'kind-worker2', only its own Node object
              [etcd] kubelet GET /api/v1/nodes/kind-worker2 → 403 Forbidden
                user=system:node:kind-worker authorizer=Node,RBAC allowed=false (User "system:node:kind-worker" cannot get resource "nodes" in API group "" at the cluster scope: node 'kind-worker' cannot read 'kind-worker2', only its own Node object)
            200 
            403 Forbidden: pods is forbidden: User "system:kube-scheduler" cannot create resource "pods" in API group "" in the namespace "default"
              [etcd] kube-scheduler POST /api/v1/namespaces/default/pods → 403 Forbidden
                user=system:kube-scheduler authorizer=Node,RBAC allowed=false (User "system:kube-scheduler" cannot create resource "pods" in API group "" in the namespace "default")
        "#]],
    );
}

#[test]
fn controllers_authenticate_with_their_service_accounts() {
    check(
        |core, out| {
            let rs = Caller::controller("replicaset-controller");
            show(
                core,
                out,
                req(&rs, Verb::Create, "v1", "Pod", Some("default"), None, None, Some(pod("web-abcde"))),
                &[],
            );
            let ev = json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "web.1", "namespace": "default"},
                "involvedObject": {"kind": "Pod", "name": "web", "namespace": "default"}, "reason": "Test", "message": "m", "type": "Normal"});
            show(core, out, req(&rs, Verb::Create, "v1", "Event", Some("default"), None, None, Some(ev)), &[]);
            show(
                core,
                out,
                req(
                    &rs,
                    Verb::Create,
                    "v1",
                    "Secret",
                    Some("default"),
                    None,
                    None,
                    Some(json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}})),
                ),
                &[],
            );
            let ghost = Caller::controller("no-such-controller");
            show(core, out, req(&ghost, Verb::Get, "v1", "Pod", Some("default"), Some("web"), None, None), &[]);
        },
        expect![[r#"
            201 
              [etcd] kube-controller-manager POST /api/v1/namespaces/default/pods → 201 Created
                user=system:serviceaccount:kube-system:replicaset-controller authorizer=RBAC allowed=true (RBAC: allowed by ClusterRoleBinding "system:controller:replicaset-controller" of ClusterRole "system:controller:replicaset-controller" to ServiceAccount "replicaset-controller/kube-system")
            201 
              [etcd] kube-controller-manager POST /api/v1/namespaces/default/events → 201 Created
                user=system:serviceaccount:kube-system:replicaset-controller authorizer=RBAC allowed=true (RBAC: allowed by ClusterRoleBinding "system:controller:replicaset-controller" of ClusterRole "system:controller:replicaset-controller" to ServiceAccount "replicaset-controller/kube-system")
            403 Forbidden: secrets is forbidden: User "system:serviceaccount:kube-system:replicaset-controller" cannot create resource "secrets" in API group "" in the namespace "default"
              [etcd] kube-controller-manager POST /api/v1/namespaces/default/secrets → 403 Forbidden
                user=system:serviceaccount:kube-system:replicaset-controller authorizer=Node,RBAC allowed=false (User "system:serviceaccount:kube-system:replicaset-controller" cannot create resource "secrets" in API group "" in the namespace "default")
            401 Unauthorized: Unauthorized
              [etcd] kube-controller-manager GET /api/v1/namespaces/default/pods/web → 401 Unauthorized
                user= authorizer= allowed=false ()
        "#]],
    );
}

#[test]
fn deletion_is_graceful_for_running_pods() {
    check(
        |core, out| {
            let a = admin();
            let f = ["/metadata/deletionTimestamp", "/metadata/deletionGracePeriodSeconds"];
            let mut p = pod("web");
            p["spec"]["nodeName"] = json!("kind-worker");
            show(core, out, req(&a, Verb::Create, "v1", "Pod", Some("default"), None, None, Some(p)), &[]);
            show(core, out, req(&a, Verb::Delete, "v1", "Pod", Some("default"), Some("web"), None, None), &f);
            let k = Caller::kubelet("kind-worker");
            show(
                core,
                out,
                req(
                    &k,
                    Verb::Delete,
                    "v1",
                    "Pod",
                    Some("default"),
                    Some("web"),
                    None,
                    Some(json!({"gracePeriodSeconds": 0})),
                ),
                &f,
            );
            show(core, out, req(&a, Verb::Get, "v1", "Pod", Some("default"), Some("web"), None, None), &f);
            // A namespace waits for its finalizer.
            show(
                core,
                out,
                req(
                    &a,
                    Verb::Create,
                    "v1",
                    "Namespace",
                    None,
                    None,
                    None,
                    Some(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "tmp"}})),
                ),
                &["/spec/finalizers", "/status/phase"],
            );
            show(
                core,
                out,
                req(&a, Verb::Delete, "v1", "Namespace", None, Some("tmp"), None, None),
                &["/status/phase"],
            );
        },
        expect![[r#"
            201 
              [etcd] kubectl POST /api/v1/namespaces/default/pods → 201 Created
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            200 /metadata/deletionTimestamp="2026-01-01T00:00:30Z" /metadata/deletionGracePeriodSeconds=30
              [etcd] kubectl DELETE /api/v1/namespaces/default/pods/web → 200 OK
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            200 /metadata/deletionTimestamp="2026-01-01T00:00:30Z" /metadata/deletionGracePeriodSeconds=30
              [etcd] kubelet DELETE /api/v1/namespaces/default/pods/web → 200 OK
                user=system:node:kind-worker authorizer=Node allowed=true (the Node authorizer allows kubelet system:node:kind-worker this request (pods bound to this node, or mirror pods))
            404 NotFound: pods "web" not found
              [etcd] kubectl GET /api/v1/namespaces/default/pods/web → 404 Not Found
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            201 /spec/finalizers=["kubernetes"] /status/phase="Active"
              [etcd] kubectl POST /api/v1/namespaces → 201 Created
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            200 /status/phase="Terminating"
              [etcd] kubectl DELETE /api/v1/namespaces/tmp → 200 OK
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        "#]],
    );
}

/// The authorizer alone, on hand-made attributes.
#[allow(clippy::too_many_arguments)]
fn decide(
    core: &Core,
    user: &str,
    groups: &[&str],
    verb: &str,
    group: &str,
    resource: &str,
    sub: &str,
    ns: &str,
    name: &str,
) -> String {
    let user = UserInfo { username: user.into(), groups: groups.iter().map(|g| g.to_string()).collect() };
    let attrs = authz::Attributes {
        user: &user,
        verb,
        resource_request: true,
        api_group: group,
        api_version: "v1",
        resource,
        subresource: sub,
        namespace: ns,
        name,
        path: "",
    };
    let d = authz::authorize(&core.store, &attrs);
    // The wording levels agree on everything but the words: the verdict, the authorizer, the
    // binding matched; a summarised request gets the allow's text, a request that leaves no
    // step none; a denial has its reason at every level.
    let binding = |d: &authz::Decision| {
        d.matched.as_ref().map(|m| (m.binding_kind.clone(), m.binding_name.clone(), m.binding_namespace.clone()))
    };
    let text = |d: &authz::Decision| if d.reason.is_empty() { d.explanation.clone() } else { d.reason.clone() };
    for wording in [authz::Wording::Reason, authz::Wording::Verdict] {
        let other = authz::authorize_with(&core.store, &attrs, wording);
        assert_eq!((other.allowed, &other.authorizer, binding(&other)), (d.allowed, &d.authorizer, binding(&d)));
        match (d.allowed, wording) {
            (true, authz::Wording::Verdict) => assert_eq!(text(&other), ""),
            (true, _) => assert_eq!(text(&other), text(&d)),
            (false, _) => assert_eq!(other.reason, d.reason),
        }
    }
    // RBAC's cached answers are the fresh ones, on a miss and on a hit.
    let mut cache = authz::RbacCache::default();
    for _ in 0..2 {
        assert_eq!(authz::authorize_cached(&core.store, &mut cache, &attrs, authz::Wording::Step), d);
    }
    if d.allowed {
        format!("allow by {}: {}\n", d.authorizer, if d.reason.is_empty() { &d.explanation } else { &d.reason })
    } else {
        format!("deny: {}\n", authz::forbidden_message(&attrs, &d.reason))
    }
}

#[test]
fn kept_rbac_answers_follow_the_bindings() {
    // The API server keeps RBAC's answers until a Role, ClusterRole or binding is written: a
    // write of anything else keeps them, a binding created or deleted changes them.
    let mut core = core();
    let a = admin();
    let dave = Caller::kubectl(Credential::ClientCertificate { common_name: "dave".into(), organizations: vec![] });
    let list = |core: &mut World| {
        let r = handle(core, req(&dave, Verb::List, "v1", "Pod", Some("default"), None, None, None));
        if r.ok() {
            "200".to_string()
        } else {
            r.message().to_string()
        }
    };
    let denied =
        "pods is forbidden: User \"dave\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\"";
    assert_eq!(list(&mut core), denied);
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "default"}});
    assert!(handle(&mut core, req(&a, Verb::Create, "v1", "ConfigMap", Some("default"), None, None, Some(cm))).ok());
    assert_eq!(list(&mut core), denied);
    let binding = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
        "metadata": {"name": "dave-view", "namespace": "default"},
        "subjects": [{"kind": "User", "name": "dave", "apiGroup": "rbac.authorization.k8s.io"}],
        "roleRef": {"kind": "ClusterRole", "name": "view", "apiGroup": "rbac.authorization.k8s.io"}});
    let v = "rbac.authorization.k8s.io/v1";
    assert!(handle(&mut core, req(&a, Verb::Create, v, "RoleBinding", Some("default"), None, None, Some(binding))).ok());
    assert_eq!(list(&mut core), "200");
    assert!(
        handle(&mut core, req(&a, Verb::Delete, v, "RoleBinding", Some("default"), Some("dave-view"), None, None)).ok()
    );
    assert_eq!(list(&mut core), denied);
}

#[test]
fn rbac_rules() {
    let mut core = core();
    let a = admin();
    let rbac = [
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "one-cm", "namespace": "default"},
            "rules": [{"apiGroups": [""], "resources": ["configmaps"], "resourceNames": ["app-config"], "verbs": ["get", "update"]},
                      {"apiGroups": ["apps"], "resources": ["*/scale"], "verbs": ["get"]},
                      {"apiGroups": [""], "resources": ["pods/log"], "verbs": ["get"]}]}),
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": "carol-one-cm", "namespace": "default"},
            "subjects": [{"kind": "User", "name": "carol", "apiGroup": "rbac.authorization.k8s.io"}],
            "roleRef": {"kind": "Role", "name": "one-cm", "apiGroup": "rbac.authorization.k8s.io"}}),
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": "dangling", "namespace": "default"},
            "subjects": [{"kind": "User", "name": "carol", "apiGroup": "rbac.authorization.k8s.io"}],
            "roleRef": {"kind": "ClusterRole", "name": "does-not-exist", "apiGroup": "rbac.authorization.k8s.io"}}),
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": "ci-view", "namespace": "default"},
            "subjects": [{"kind": "ServiceAccount", "name": "ci"}],
            "roleRef": {"kind": "ClusterRole", "name": "view", "apiGroup": "rbac.authorization.k8s.io"}}),
    ];
    for o in rbac {
        let kind = o["kind"].as_str().unwrap().to_string();
        let r = handle(
            &mut core,
            req(&a, Verb::Create, "rbac.authorization.k8s.io/v1", &kind, Some("default"), None, None, Some(o)),
        );
        assert!(r.ok(), "{:?}", r.error);
    }
    let mut out = String::new();
    out += &decide(&core, "carol", &["system:authenticated"], "get", "", "configmaps", "", "default", "app-config");
    out += &decide(&core, "carol", &["system:authenticated"], "get", "", "configmaps", "", "default", "other");
    out += &decide(&core, "carol", &["system:authenticated"], "list", "", "configmaps", "", "default", "");
    out += &decide(&core, "carol", &["system:authenticated"], "get", "apps", "deployments", "scale", "default", "web");
    out += &decide(&core, "carol", &["system:authenticated"], "get", "", "pods", "log", "default", "web");
    out += &decide(&core, "carol", &["system:authenticated"], "get", "", "pods", "", "default", "web");
    out += &decide(
        &core,
        "carol",
        &["system:authenticated"],
        "create",
        "authorization.k8s.io",
        "selfsubjectaccessreviews",
        "",
        "",
        "",
    );
    out += &decide(
        &core,
        "system:serviceaccount:default:ci",
        &["system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"],
        "list",
        "apps",
        "deployments",
        "",
        "default",
        "",
    );
    out += &decide(
        &core,
        "system:serviceaccount:default:ci",
        &["system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"],
        "get",
        "",
        "secrets",
        "",
        "default",
        "s",
    );
    out += &decide(
        &core,
        "system:serviceaccount:kube-system:deployment-controller",
        &["system:serviceaccounts", "system:authenticated"],
        "create",
        "apps",
        "replicasets",
        "",
        "default",
        "",
    );
    out += &decide(
        &core,
        "system:kube-scheduler",
        &["system:authenticated"],
        "create",
        "",
        "pods",
        "binding",
        "default",
        "web",
    );
    out += &decide(
        &core,
        "system:node:kind-worker",
        &["system:nodes", "system:authenticated"],
        "update",
        "",
        "pods",
        "status",
        "default",
        "web",
    );
    out += &decide(
        &core,
        "system:node:kind-worker",
        &["system:nodes", "system:authenticated"],
        "list",
        "",
        "services",
        "",
        "",
        "",
    );
    out += &decide(
        &core,
        "system:node:",
        &["system:nodes", "system:authenticated"],
        "get",
        "",
        "pods",
        "",
        "default",
        "web",
    );
    // A kubelet on its own Node (the Node authorizer) and a member of system:masters.
    out += &decide(
        &core,
        "system:node:kind-worker",
        &["system:nodes", "system:authenticated"],
        "get",
        "",
        "nodes",
        "",
        "",
        "kind-worker",
    );
    out += &decide(&core, "root", &["system:masters"], "delete", "", "nodes", "", "", "kind-worker");
    expect![[r#"
        allow by RBAC: RBAC: allowed by RoleBinding "carol-one-cm/default" of Role "one-cm" to User "carol"
        deny: User "carol" cannot get resource "configmaps" in API group "" in the namespace "default": RBAC: clusterrole.rbac.authorization.k8s.io "does-not-exist" not found
        deny: User "carol" cannot list resource "configmaps" in API group "" in the namespace "default": RBAC: clusterrole.rbac.authorization.k8s.io "does-not-exist" not found
        allow by RBAC: RBAC: allowed by RoleBinding "carol-one-cm/default" of Role "one-cm" to User "carol"
        allow by RBAC: RBAC: allowed by RoleBinding "carol-one-cm/default" of Role "one-cm" to User "carol"
        deny: User "carol" cannot get resource "pods" in API group "" in the namespace "default": RBAC: clusterrole.rbac.authorization.k8s.io "does-not-exist" not found
        allow by RBAC: RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"
        allow by RBAC: RBAC: allowed by RoleBinding "ci-view/default" of ClusterRole "view" to ServiceAccount "ci/default"
        deny: User "system:serviceaccount:default:ci" cannot get resource "secrets" in API group "" in the namespace "default"
        allow by RBAC: RBAC: allowed by ClusterRoleBinding "system:controller:deployment-controller" of ClusterRole "system:controller:deployment-controller" to ServiceAccount "deployment-controller/kube-system"
        allow by RBAC: RBAC: allowed by ClusterRoleBinding "system:kube-scheduler" of ClusterRole "system:kube-scheduler" to User "system:kube-scheduler"
        allow by Node: the Node authorizer allows kubelet system:node:kind-worker this request (kubelets report the status of pods; the NodeRestriction admission plugin keeps them to their own pods)
        allow by Node: the Node authorizer allows kubelet system:node:kind-worker this request (the system:node rules allow it)
        deny: User "system:node:" cannot get resource "pods" in API group "" in the namespace "default": unknown node for user "system:node:"
        allow by Node: the Node authorizer allows kubelet system:node:kind-worker this request (kubelets manage their own Node object)
        allow by system:masters: root is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted
    "#]].assert_eq(&out);
}

#[test]
fn registry_strategies_on_create() {
    check(
        |core, out| {
            let a = admin();
            let job = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "pi"},
                "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "pi", "image": "perl:5.34"}]}}}});
            show(
                core,
                out,
                req(&a, Verb::Create, "batch/v1", "Job", Some("default"), None, None, Some(job)),
                &["/metadata/generation", "/spec/selector", "/spec/template/metadata/labels", "/status"],
            );
            let svc = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"},
                "spec": {"type": "NodePort", "selector": {"app": "web"}, "ports": [{"port": 80, "targetPort": 8080}]}});
            show(
                core,
                out,
                req(&a, Verb::Create, "v1", "Service", Some("default"), None, None, Some(svc)),
                &["/spec/clusterIP", "/spec/clusterIPs", "/spec/ipFamilies", "/spec/ports/0/nodePort", "/status"],
            );
            let ds = json!({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "agent"},
                "spec": {"selector": {"matchLabels": {"app": "agent"}}, "template": {"metadata": {"labels": {"app": "agent"}},
                "spec": {"containers": [{"name": "a", "image": "busybox"}]}}}, "status": {"numberReady": 5}});
            show(
                core,
                out,
                req(&a, Verb::Create, "apps/v1", "DaemonSet", Some("default"), None, None, Some(ds)),
                &["/metadata/generation", "/metadata/annotations", "/status"],
            );
            let gated = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "gated"},
                "spec": {"schedulingGates": [{"name": "example.com/wait"}], "containers": [{"name": "c", "image": "nginx"}]}});
            show(core, out, req(&a, Verb::Create, "v1", "Pod", Some("default"), None, None, Some(gated)), &["/status"]);
        },
        expect![[r#"
            201 /metadata/generation=1 /spec/selector={"matchLabels":{"batch.kubernetes.io/controller-uid":"1d0b14e4-db01-4fed-b346-6f8a7b81a989"}} /spec/template/metadata/labels={"batch.kubernetes.io/controller-uid":"1d0b14e4-db01-4fed-b346-6f8a7b81a989","batch.kubernetes.io/job-name":"pi","controller-uid":"1d0b14e4-db01-4fed-b346-6f8a7b81a989","job-name":"pi"} /status=-
              [etcd] kubectl POST /apis/batch/v1/namespaces/default/jobs → 201 Created
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            201 /spec/clusterIP="10.96.56.48" /spec/clusterIPs=["10.96.56.48"] /spec/ipFamilies=["IPv4"] /spec/ports/0/nodePort=31761 /status={"loadBalancer":{}}
              [etcd] kubectl POST /api/v1/namespaces/default/services → 201 Created
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            201 /metadata/generation=1 /metadata/annotations={"deprecated.daemonset.template.generation":"1"} /status=-
              [etcd] kubectl POST /apis/apps/v1/namespaces/default/daemonsets → 201 Created
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
            201 /status={"conditions":[{"message":"Scheduling is blocked due to non-empty scheduling gates","reason":"SchedulingGated","status":"False","type":"PodScheduled"}],"phase":"Pending","qosClass":"BestEffort"}
              [etcd] kubectl POST /api/v1/namespaces/default/pods → 201 Created
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        "#]],
    );
}

#[test]
fn binding_marks_an_unschedulable_pod_scheduled_and_copies_annotations() {
    let mut core = core();
    let a = admin();
    let mut p = pod("web");
    p["status"] = json!({"conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
        "message": "0/3 nodes are available", "lastTransitionTime": "2025-12-31T23:00:00Z"}]});
    let created = handle(&mut core, req(&a, Verb::Create, "v1", "Pod", Some("default"), None, None, Some(p)));
    assert!(created.ok(), "{:?}", created.error);
    // The create strategy resets the status: put the unschedulable condition back as the
    // scheduler's status update would.
    let mut stored = get_object(&core, resource_for("v1", "Pod").unwrap(), Some("default"), "web").unwrap().to_json();
    stored["status"]["conditions"] = json!([{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
        "message": "0/3 nodes are available", "lastTransitionTime": "2025-12-31T23:00:00Z"}]);
    let s = Caller::scheduler();
    let updated = handle(
        &mut core,
        req(&s, Verb::Update, "v1", "Pod", Some("default"), Some("web"), Some("status"), Some(stored)),
    );
    assert!(updated.ok(), "{:?}", updated.error);
    let binding = json!({"apiVersion": "v1", "kind": "Binding",
        "metadata": {"name": "web", "namespace": "default", "annotations": {"example.com/placed-by": "test"}},
        "target": {"apiVersion": "v1", "kind": "Node", "name": "kind-worker"}});
    let bound = handle(
        &mut core,
        req(&s, Verb::Create, "v1", "Pod", Some("default"), Some("web"), Some("binding"), Some(binding)),
    );
    assert!(bound.ok(), "{:?}", bound.error);
    let pod = bound.into_object().expect("the bound pod").to_json();
    assert_eq!(pod["spec"]["nodeName"], json!("kind-worker"));
    assert_eq!(pod["metadata"]["annotations"]["example.com/placed-by"], json!("test"));
    assert_eq!(
        pod["status"]["conditions"],
        json!([{"type": "PodScheduled", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z"}])
    );
}

/// A read that succeeds leaves no step (its allow is decided without words); one that fails
/// is summarised in a step that says who allowed it, worded after the fact.
#[test]
fn a_failed_read_still_says_who_allowed_it() {
    check(
        |core, out| {
            let a = admin();
            show(
                core,
                out,
                req(&a, Verb::Get, "v1", "Namespace", None, Some("default"), None, None),
                &["/metadata/name"],
            );
            show(core, out, req(&a, Verb::Get, "v1", "Pod", Some("default"), Some("missing"), None, None), &[]);
        },
        expect![[r#"
            200 /metadata/name="default"
            404 NotFound: pods "missing" not found
              [etcd] kubectl GET /api/v1/namespaces/default/pods/missing → 404 Not Found
                user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        "#]],
    );
}

/// The Eviction subresource: a Pending Pod is deleted without looking at budgets; a Running,
/// Ready Pod needs its PodDisruptionBudget to allow a disruption (429 with the budget's cause
/// otherwise), which the eviction takes and records in `disruptedPods`; two budgets are a 500.
/// PodDisruptionBudget validation: minAvailable and maxUnavailable together, a bad percent.
#[test]
fn evictions_honour_pod_disruption_budgets() {
    let mut core = core();
    let a = admin();
    let mut out = String::new();
    let eviction = |name: &str| json!({"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": name, "namespace": "default"}});
    let running = |core: &mut World, out: &mut String, name: &str| {
        let mut p = pod(name);
        p["metadata"]["labels"] = json!({"app": "web"});
        p["spec"]["nodeName"] = json!("kind-worker");
        handle(core, req(&a, Verb::Create, "v1", "Pod", Some("default"), None, None, Some(p)));
        let mut cur = get_object(core, resource_for("v1", "Pod").unwrap(), Some("default"), name).unwrap().to_json();
        cur["status"] = json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]});
        show(
            core,
            out,
            req(&a, Verb::Update, "v1", "Pod", Some("default"), Some(name), Some("status"), Some(cur)),
            &["/status/phase"],
        );
    };
    // A Pending Pod: deleted at once.
    handle(&mut core, req(&a, Verb::Create, "v1", "Pod", Some("default"), None, None, Some(pod("pending"))));
    show(
        &mut core,
        &mut out,
        req(
            &a,
            Verb::Create,
            "v1",
            "Pod",
            Some("default"),
            Some("pending"),
            Some("eviction"),
            Some(eviction("pending")),
        ),
        &["/status"],
    );
    // A name that differs from the URL's.
    show(
        &mut core,
        &mut out,
        req(&a, Verb::Create, "v1", "Pod", Some("default"), Some("pending"), Some("eviction"), Some(eviction("other"))),
        &[],
    );
    running(&mut core, &mut out, "web-1");
    let pdb = |name: &str, spec: Value| json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": name}, "spec": spec});
    show(
        &mut core,
        &mut out,
        req(
            &a,
            Verb::Create,
            "policy/v1",
            "PodDisruptionBudget",
            Some("default"),
            None,
            None,
            Some(pdb(
                "both",
                json!({"minAvailable": 1, "maxUnavailable": "120%", "selector": {"matchLabels": {"app": "x"}}}),
            )),
        ),
        &[],
    );
    show(
        &mut core,
        &mut out,
        req(
            &a,
            Verb::Create,
            "policy/v1",
            "PodDisruptionBudget",
            Some("default"),
            None,
            None,
            Some(pdb("web", json!({"minAvailable": 1, "selector": {"matchLabels": {"app": "web"}}}))),
        ),
        &["/metadata/generation"],
    );
    let set_status = |core: &mut World, out: &mut String, allowed: i64| {
        let mut cur =
            get_object(core, resource_for("policy/v1", "PodDisruptionBudget").unwrap(), Some("default"), "web")
                .unwrap()
                .to_json();
        cur["status"] = json!({"observedGeneration": 1, "currentHealthy": 1, "desiredHealthy": 1, "expectedPods": 1, "disruptionsAllowed": allowed});
        show(
            core,
            out,
            req(
                &a,
                Verb::Update,
                "policy/v1",
                "PodDisruptionBudget",
                Some("default"),
                Some("web"),
                Some("status"),
                Some(cur),
            ),
            &["/status/disruptionsAllowed"],
        );
    };
    set_status(&mut core, &mut out, 0);
    let resp = show(
        &mut core,
        &mut out,
        req(&a, Verb::Create, "v1", "Pod", Some("default"), Some("web-1"), Some("eviction"), Some(eviction("web-1"))),
        &[],
    );
    out += &format!("  causes: {:?}\n", resp.error.and_then(|e| e.details).map(|d| d.causes));
    set_status(&mut core, &mut out, 1);
    show(
        &mut core,
        &mut out,
        req(&a, Verb::Create, "v1", "Pod", Some("default"), Some("web-1"), Some("eviction"), Some(eviction("web-1"))),
        &["/status"],
    );
    let after = get_object(&core, resource_for("policy/v1", "PodDisruptionBudget").unwrap(), Some("default"), "web")
        .unwrap()
        .to_json();
    out += &format!("pdb status: {}\n", after["status"]);
    out += &format!(
        "pod: {}\n",
        get_object(&core, resource_for("v1", "Pod").unwrap(), Some("default"), "web-1").unwrap().to_json()["metadata"]
            ["deletionTimestamp"]
    );
    // A second budget selecting the same Pods.
    running(&mut core, &mut out, "web-2");
    handle(
        &mut core,
        req(
            &a,
            Verb::Create,
            "policy/v1",
            "PodDisruptionBudget",
            Some("default"),
            None,
            None,
            Some(pdb("web-too", json!({"maxUnavailable": 1, "selector": {"matchLabels": {"app": "web"}}}))),
        ),
    );
    show(
        &mut core,
        &mut out,
        req(&a, Verb::Create, "v1", "Pod", Some("default"), Some("web-2"), Some("eviction"), Some(eviction("web-2"))),
        &[],
    );
    expect![[r#"
        201 /status="Success"
          [etcd] kubectl POST /api/v1/namespaces/default/pods/pending/eviction → 201 Created
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        400 BadRequest: name in URL does not match name in Eviction object
          [etcd] kubectl POST /api/v1/namespaces/default/pods/pending/eviction → 400 Bad Request
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        200 /status/phase="Running"
          [etcd] kubectl PUT /api/v1/namespaces/default/pods/web-1/status → 200 OK
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        422 Invalid: PodDisruptionBudget.policy "both" is invalid: [spec: Invalid value: {"minAvailable":1,"maxUnavailable":"120%","selector":{"matchLabels":{"app":"x"}}}: minAvailable and maxUnavailable cannot be both set, spec.maxUnavailable: Invalid value: "120%": must not be greater than 100%]
          [etcd] kubectl POST /apis/policy/v1/namespaces/default/poddisruptionbudgets → 422 Unprocessable Entity
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        201 /metadata/generation=1
          [etcd] kubectl POST /apis/policy/v1/namespaces/default/poddisruptionbudgets → 201 Created
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        200 /status/disruptionsAllowed=0
          [etcd] kubectl PUT /apis/policy/v1/namespaces/default/poddisruptionbudgets/web/status → 200 OK
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        429 TooManyRequests: Cannot evict pod as it would violate the pod's disruption budget.
          [etcd] kubectl POST /api/v1/namespaces/default/pods/web-1/eviction → 429 Too Many Requests
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
          causes: Some([FieldCause { reason: "DisruptionBudget", message: "The disruption budget web needs 1 healthy pods and has 1 currently", field: "" }])
        200 /status/disruptionsAllowed=1
          [etcd] kubectl PUT /apis/policy/v1/namespaces/default/poddisruptionbudgets/web/status → 200 OK
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        201 /status="Success"
          [etcd] kubectl POST /api/v1/namespaces/default/pods/web-1/eviction → 201 Created
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        pdb status: {"observedGeneration":1,"currentHealthy":1,"desiredHealthy":1,"expectedPods":1,"disruptionsAllowed":0,"conditions":[{"lastTransitionTime":"2026-01-01T00:00:00Z","message":"","observedGeneration":1,"reason":"InsufficientPods","status":"False","type":"DisruptionAllowed"}],"disruptedPods":{"web-1":"2026-01-01T00:00:00Z"}}
        pod: "2026-01-01T00:00:30Z"
        200 /status/phase="Running"
          [etcd] kubectl PUT /api/v1/namespaces/default/pods/web-2/status → 200 OK
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        500 Unknown: This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.
          [etcd] kubectl POST /api/v1/namespaces/default/pods/web-2/eviction → 500 Internal Server Error
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
    "#]].assert_eq(&out);
}

/// A Secret's `stringData` is converted into `data` (base64 of its bytes, winning over a
/// `data` entry of the same key) on create, update and patch, and is never stored.
#[test]
fn secret_string_data_is_merged_into_data() {
    let mut core = core();
    let caller = admin();
    let mut out = String::new();
    let fields = ["/data", "/stringData"];
    let body = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"},
        "data": {"password": "b2xk", "user": "YWRtaW4="}, "stringData": {"password": "hunter2"}});
    let mut create = req(&caller, Verb::Create, "v1", "Secret", Some("default"), None, None, Some(body));
    create.verbose = true;
    let before = core.steps.len();
    show(&mut core, &mut out, create, &fields);
    for s in &core.steps[before..] {
        if let crate::trace::Detail::Validation(v) = &s.detail {
            for c in &v.defaults {
                out += &format!("    {}: {:?} -> {:?}\n", c.path, c.before, c.after);
            }
        }
    }
    let body = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "stringData": {"token": "abc"}});
    let put = req(&caller, Verb::Update, "v1", "Secret", Some("default"), Some("s"), None, Some(body));
    show(&mut core, &mut out, put, &fields);
    let patch = json!({"stringData": {"token": "xyz"}});
    let patch = req(&caller, Verb::Patch, "v1", "Secret", Some("default"), Some("s"), None, Some(patch));
    show(&mut core, &mut out, patch, &fields);
    let stored = core.store.get("/registry/secrets/default/s").map(|(o, _)| o.to_json()).unwrap_or_default();
    out += &format!("stored: data={} stringData={}\n", stored["data"], stored["stringData"]);
    expect![[r#"
        201 /data={"password":"aHVudGVyMg==","user":"YWRtaW4="} /stringData=-
          [request] kubectl sends POST /api/v1/namespaces/default/secrets?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
          [authentication] authenticated as kubernetes-admin (x509 client certificate)
          [authorization] system:masters allows kubernetes-admin to create secrets in namespace default
          [validation] decodes the Secret strictly, merges its stringData into data (v1 conversion) and fills in 1 default(s)
          [mutating-admission] NamespaceLifecycle: allowed
          [validation] Secret "s" is valid
          [validating-admission] ResourceQuota: nothing to do
          [etcd] creates /registry/secrets/default/s at revision 156
          [etcd] 201 Created
            data.password: Some("b2xk") -> Some("aHVudGVyMg==")
            stringData: Some("password: hunter2") -> None
            type: None -> Some("Opaque")
        200 /data={"token":"YWJj"} /stringData=-
          [etcd] kubectl PUT /api/v1/namespaces/default/secrets/s → 200 OK
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        200 /data={"token":"eHl6"} /stringData=-
          [etcd] kubectl PATCH /api/v1/namespaces/default/secrets/s → 200 OK
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        stored: data={"token":"eHl6"} stringData=null
    "#]].assert_eq(&out);
}

/// A Job created without labels is stored without them, and read back with its template's
/// labels (`SetDefaults_Job` runs again on the decoded object, after the strategy labelled the
/// template); a Job with labels of its own keeps them. A dry-run create answers the same and
/// writes nothing.
#[test]
fn a_job_is_read_back_with_its_template_labels() {
    let mut core = core();
    let caller = admin();
    let mut out = String::new();
    let job = |name: &str, labels: Value| {
        json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name, "labels": labels},
            "spec": {"template": {"spec": {"restartPolicy": "Never",
                "containers": [{"name": "pi", "image": "busybox:1.37"}]}}}})
    };
    for (name, labels) in [("pi", Value::Null), ("labelled", json!({"team": "a"}))] {
        let mut r = req(&caller, Verb::Create, "batch/v1", "Job", Some("default"), None, None, Some(job(name, labels)));
        r.verbose = true;
        let before = core.steps.len();
        show(&mut core, &mut out, r, &["/metadata/labels"]);
        for s in &core.steps[before..] {
            if let crate::trace::Detail::Etcd(e) = &s.detail {
                if e.operation == crate::trace::EtcdOperation::Create {
                    let written = serde_yaml::from_str::<Value>(&e.value).unwrap_or_default();
                    out += &format!("  etcd holds metadata.labels={}\n", written["metadata"]["labels"]);
                }
            }
            if s.phase == crate::trace::Phase::Etcd && s.from == Component::Etcd {
                out += &format!("  {}\n", s.summary);
            }
        }
        let stored = core.store.get(&format!("/registry/jobs/default/{name}")).map(|(o, _)| o.to_json());
        out += &format!("  read: {}\n", stored.unwrap_or_default()["metadata"]["labels"]);
    }
    let revision = core.store.revision();
    let mut dry = admin();
    dry.command = Some(KubectlCommand {
        name: "kubectl create",
        field_manager: "kubectl-create",
        strict: true,
        merge_patch: false,
        dry_run: true,
    });
    let r = req(&dry, Verb::Create, "batch/v1", "Job", Some("default"), None, None, Some(job("dry", Value::Null)));
    show(&mut core, &mut out, r, &["/metadata/labels/job-name", "/metadata/resourceVersion", "/metadata/uid"]);
    let r = req(&dry, Verb::Create, "batch/v1", "Job", Some("default"), None, None, Some(job("pi", Value::Null)));
    show(&mut core, &mut out, r, &[]);
    out += &format!("revision unchanged: {}\n", core.store.revision() == revision);
    expect![[r#"
        201 /metadata/labels={"batch.kubernetes.io/controller-uid":"1d0b14e4-db01-4fed-b346-6f8a7b81a989","batch.kubernetes.io/job-name":"pi","controller-uid":"1d0b14e4-db01-4fed-b346-6f8a7b81a989","job-name":"pi"}
          [request] kubectl sends POST /apis/batch/v1/namespaces/default/jobs?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
          [authentication] authenticated as kubernetes-admin (x509 client certificate)
          [authorization] system:masters allows kubernetes-admin to create jobs in namespace default
          [validation] decodes the Job strictly and fills in 14 default(s)
          [mutating-admission] NamespaceLifecycle: allowed
          [validation] Job "pi" is valid
          [validating-admission] PodSecurity: allowed
          [validating-admission] ResourceQuota: nothing to do
          [etcd] creates /registry/jobs/default/pi at revision 156
          [etcd] decodes the stored Job "pi" for the response: defaulting runs again on every read and fills in metadata.labels
          [etcd] 201 Created
          etcd holds metadata.labels=null
          decodes the stored Job "pi" for the response: defaulting runs again on every read and fills in metadata.labels
          read: {"batch.kubernetes.io/controller-uid":"1d0b14e4-db01-4fed-b346-6f8a7b81a989","batch.kubernetes.io/job-name":"pi","controller-uid":"1d0b14e4-db01-4fed-b346-6f8a7b81a989","job-name":"pi"}
        201 /metadata/labels={"team":"a"}
          [request] kubectl sends POST /apis/batch/v1/namespaces/default/jobs?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
          [authentication] authenticated as kubernetes-admin (x509 client certificate)
          [authorization] system:masters allows kubernetes-admin to create jobs in namespace default
          [validation] decodes the Job strictly and fills in 14 default(s)
          [mutating-admission] NamespaceLifecycle: allowed
          [validation] Job "labelled" is valid
          [validating-admission] PodSecurity: allowed
          [validating-admission] ResourceQuota: nothing to do
          [etcd] creates /registry/jobs/default/labelled at revision 157
          [etcd] 201 Created
          etcd holds metadata.labels={"team":"a"}
          read: {"team":"a"}
        201 /metadata/labels/job-name="dry" /metadata/resourceVersion=- /metadata/uid="37688dad-cab7-4996-a2df-7737091f4f07"
          [etcd] kubectl POST /apis/batch/v1/namespaces/default/jobs → 201 Created
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        409 AlreadyExists: jobs.batch "pi" already exists
          [etcd] kubectl POST /apis/batch/v1/namespaces/default/jobs → 409 Conflict
            user=kubernetes-admin authorizer=system:masters allowed=true (kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted)
        revision unchanged: true
    "#]].assert_eq(&out);
}
