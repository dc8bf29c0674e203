//! Predictions generated from runs of a few starters: the right answers are the run's facts and
//! the distractors come from the run's state.

use podlab_engine::lab::{run, LabInput};
use podlab_learn::predict::{questions, Prediction};
use podlab_learn::quiz::{grade, validate, Kind, Response};

const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: nginx\n    image: nginx:1.29\n    resources:\n      requests:\n        cpu: 100m\n        memory: 64Mi\n      limits:\n        memory: 128Mi\n";

fn predictions(manifest: &str, cluster: Option<&str>) -> (podlab_engine::lab::Run, Vec<Prediction>) {
    let mut input = LabInput::new(manifest, "pod.yaml");
    input.cluster = cluster.map(|c| podlab_engine::cluster::preset(c).unwrap().to_string());
    let r = run(&input).unwrap();
    let p = questions(&r);
    (r, p)
}

fn find<'a>(ps: &'a [Prediction], prefix: &str) -> &'a Prediction {
    ps.iter().find(|p| p.question.id.starts_with(prefix)).unwrap_or_else(|| panic!("no {prefix} prediction"))
}

fn right(p: &Prediction) -> Vec<String> {
    p.question.choices.iter().filter(|c| c.correct).map(|c| c.text.clone()).collect()
}

#[test]
fn a_running_pod_gets_every_kind_of_prediction() {
    let (r, ps) = predictions(POD, None);
    for p in &ps {
        assert!(validate(&p.question).is_empty(), "{:?}", validate(&p.question));
        assert!(p.before_step <= p.reveal_step && p.reveal_step < r.steps.len());
    }
    assert!(ps.windows(2).all(|w| w[0].before_step <= w[1].before_step), "ordered by step");

    let authz = find(&ps, "predict-authz-");
    assert_eq!(right(authz), ["Allowed"]);
    assert!(authz.question.prompt.contains("kubernetes-admin create pods"), "{}", authz.question.prompt);

    let adm = find(&ps, "predict-admission-");
    assert_eq!(adm.question.kind, Kind::MultipleSelect);
    let mut mutated = right(adm);
    mutated.sort();
    assert_eq!(mutated, ["DefaultTolerationSeconds", "Priority", "ServiceAccount"]);
    assert!(adm.question.choices.iter().any(|c| c.text == "LimitRanger" && !c.correct));

    let node = find(&ps, "predict-node-");
    let chosen = right(&node.clone());
    assert_eq!(chosen.len(), 1);
    let cp = node.question.choices.iter().find(|c| c.text == "kind-control-plane").unwrap();
    assert!(!cp.correct && cp.why.contains("TaintToleration"), "{}", cp.why);
    let other = node.question.choices.iter().find(|c| c.text.starts_with("kind-worker") && !c.correct).unwrap();
    assert!(other.why.contains("ties") || other.why.contains("scores"), "{}", other.why);
    assert!(
        r.steps[node.before_step].summary.contains(&chosen[0])
            || matches!(r.steps[node.before_step].detail, podlab_engine::trace::Detail::Schedule(_))
    );

    assert_eq!(right(find(&ps, "predict-qos-")), ["Burstable"]);

    let ip = find(&ps, "predict-podip-");
    assert_eq!(ip.question.choices.len(), 3, "one choice per node's podCIDR");
    let node_name = r.steps[ip.before_step].node.clone().unwrap();
    let expected = match node_name.as_str() {
        "kind-worker" => "10.244.1.0/24",
        "kind-worker2" => "10.244.2.0/24",
        other => panic!("unexpected node {other}"),
    };
    assert_eq!(right(ip), [expected]);

    let status = find(&ps, "predict-status-");
    assert!(status.question.choices.len() >= 2);
    assert!(!right(status).is_empty());

    // Graded by id.
    let q = &find(&ps, "predict-qos-").question;
    let id = q.choices.iter().find(|c| c.correct).unwrap().id;
    assert!(grade(q, &Response::Choice(id)).correct);
    let wrong = q.choices.iter().find(|c| !c.correct).unwrap().id;
    assert!(!grade(q, &Response::Choice(wrong)).correct);
}

#[test]
fn a_pending_pod_predicts_no_node() {
    let big = POD.replace("cpu: 100m", "cpu: \"16\"");
    let (_, ps) = predictions(&big, None);
    let node = find(&ps, "predict-node-");
    assert_eq!(right(node), ["No node: the pod stays Pending"]);
    let worker = node.question.choices.iter().find(|c| c.text == "kind-worker").unwrap();
    assert!(worker.why.contains("NodeResourcesFit") && worker.why.contains("Insufficient cpu"), "{}", worker.why);
    assert!(ps.iter().all(|p| !p.question.id.starts_with("predict-qos-")), "no kubelet ever sees it");
}

#[test]
fn a_forbidden_request_predicts_denial() {
    let manifest = POD.replace("name: web\n", "name: web\n  namespace: dev\n");
    let (_, ps) = predictions(&manifest, Some("rbac-alice"));
    let authz = find(&ps, "predict-authz-");
    assert_eq!(right(authz), ["Denied: 403 Forbidden"]);
    assert!(authz.question.prompt.contains("alice"));
    assert!(ps.iter().all(|p| !p.question.id.starts_with("predict-node-")));
}

/// A session's predictions: the manifest applied, then `lines` typed.
fn session_predictions(manifest: &str, lines: &[&str]) -> Vec<Prediction> {
    let input = LabInput::new(manifest, "app.yaml");
    let commands: Vec<_> =
        lines.iter().map(|l| podlab_engine::lab::session::SessionCommand { line: l.to_string(), file: None }).collect();
    let s = podlab_engine::lab::run_session(&input, &commands).unwrap();
    questions(&s.run)
}

#[test]
fn a_deleted_pod_predicts_its_replacement_or_none() {
    let deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.29\n";
    let ps = session_predictions(deployment, &["kubectl delete pod web-7c64c74567-pgw5x"]);
    let p = find(&ps, "predict-delete-");
    assert!(validate(&p.question).is_empty(), "{:?}", validate(&p.question));
    assert_eq!(right(p), ["A controller creates a new Pod (with a new name) to take its place"]);
    assert!(p.reveal_step > p.before_step);
    assert!(
        p.question.explanation.contains("ReplicaSet web-7c64c74567 has 1 Pod(s) for 2 replica(s)"),
        "{}",
        p.question.explanation
    );
    // A bare Pod: nothing replaces it; nor with the controller manager stopped.
    let ps = session_predictions(POD, &["kubectl delete pod web"]);
    assert_eq!(right(find(&ps, "predict-delete-")), ["It is gone for good: nothing brings it back"]);
    let ps = session_predictions(
        deployment,
        &["lab stop kube-controller-manager", "kubectl delete pod web-7c64c74567-pgw5x"],
    );
    assert_eq!(right(find(&ps, "predict-delete-")), ["It is gone for good: nothing brings it back"]);
    let g = grade(&find(&ps, "predict-delete-").question, &Response::Choice(1));
    assert!(g.correct);
}

const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.29\n";

#[test]
fn a_deleted_deployment_predicts_the_cascade_or_the_orphans() {
    let ps = session_predictions(DEPLOYMENT, &["kubectl delete deployment web"]);
    let p = find(&ps, "predict-cascade-");
    assert!(validate(&p.question).is_empty(), "{:?}", validate(&p.question));
    assert_eq!(p.question.prompt, "You delete the Deployment web. What becomes of its ReplicaSets and their Pods?");
    assert_eq!(right(p), ["The garbage collector deletes its ReplicaSets and their Pods"]);
    assert!(p.reveal_step > p.before_step);
    assert!(
        p.question.explanation.starts_with("garbage collector deletes ReplicaSet default/web-7c64c74567"),
        "{}",
        p.question.explanation
    );
    let ps = session_predictions(DEPLOYMENT, &["kubectl delete deployment web --cascade=orphan"]);
    let p = find(&ps, "predict-cascade-");
    assert_eq!(right(p), ["Its ReplicaSets and their Pods stay, without an owner"]);
    assert!(grade(&p.question, &Response::Choice(1)).correct);
    // With the controller manager stopped, the collector never acts: no question to reveal.
    let ps = session_predictions(DEPLOYMENT, &["lab stop kube-controller-manager", "kubectl delete deployment web"]);
    assert!(!ps.iter().any(|p| p.question.id.starts_with("predict-cascade-")));
}

#[test]
fn an_api_server_outage_predicts_that_pods_keep_running() {
    let crasher = "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: crasher\nspec:\n  containers:\n  - name: c\n    image: busybox:1.36\n    command: [\"sh\", \"-c\", \"sleep 5; exit 1\"]\n";
    let manifest = format!("{DEPLOYMENT}{crasher}");
    let ps = session_predictions(&manifest, &["lab stop kube-apiserver", "sleep 40s", "lab start kube-apiserver"]);
    let p = find(&ps, "predict-outage-");
    assert!(validate(&p.question).is_empty(), "{:?}", validate(&p.question));
    assert_eq!(p.question.prompt, "You stop kube-apiserver while Pods are running. What happens to those Pods?");
    assert_eq!(right(p), ["They keep running: each node's kubelet goes on without the API server"]);
    assert!(p.reveal_step > p.before_step);
    assert!(p.question.explanation.contains("status update(s) and"), "{}", p.question.explanation);
    assert!(
        p.question.explanation.contains("It restarted a container on its own: container \"c\" is running"),
        "{}",
        p.question.explanation
    );
}
