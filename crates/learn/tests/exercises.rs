//! The course's exercises: each parses and validates, its starting state fails a goal and
//! its reference solution meets every goal.

use podlab_learn::content::{self, EXERCISE_FILES, EXERCISE_JSON};
use podlab_learn::exercise::{check, check_session, parse_exercise, parse_exercise_json, script, validate, FILE_NAME};
use std::collections::BTreeSet;

#[test]
fn every_exercise_parses_and_the_course_spans_all_groups() {
    let mut ids = BTreeSet::new();
    let mut orders = BTreeSet::new();
    for (name, text) in EXERCISE_FILES {
        let ex = parse_exercise(name, text).unwrap_or_else(|e| panic!("{e}"));
        assert!(validate(&ex).is_empty(), "{:?}", validate(&ex));
        assert!(ids.insert(ex.id.clone()), "{}: id used twice", ex.id);
        assert!(orders.insert(ex.order), "{}: order used twice", ex.id);
        assert!(content::quiz(&ex.group).is_some(), "{}: no quiz group {}", ex.id, ex.group);
    }
    let exercises = content::exercises();
    assert_eq!(exercises.len(), EXERCISE_FILES.len());
    // What the lab loads (the JSON the build converted) is what the TOML files say.
    let names = |files: &[(&str, &str)]| files.iter().map(|(n, _)| n.to_string()).collect::<Vec<_>>();
    assert_eq!(names(EXERCISE_JSON), names(EXERCISE_FILES));
    for ((name, text), (_, json)) in EXERCISE_FILES.iter().zip(EXERCISE_JSON) {
        assert_eq!(parse_exercise_json(name, json), parse_exercise(name, text), "{name}: the JSON differs");
    }
    assert!(exercises.len() >= 12);
    let groups: BTreeSet<&str> = exercises.iter().map(|e| e.group.as_str()).collect();
    assert!(groups.len() >= 8, "exercises cover only {groups:?}");
}

#[test]
fn starting_states_fail_and_solutions_pass() {
    let mut failures = Vec::new();
    for ex in content::exercises() {
        let start = check(&ex, &ex.manifest, None);
        if start.iter().all(|g| g.met) {
            failures.push(format!("{}: the starting state already meets every goal", ex.id));
        }
        let commands = script(&ex.solution.commands, FILE_NAME, &ex.solution.manifest);
        let solved = check_session(&ex, &ex.solution.manifest, ex.solution.cluster.as_deref(), &commands);
        for g in solved.iter().filter(|g| !g.met) {
            failures.push(format!("{}: the solution misses \"{}\": {}", ex.id, g.goal, g.explanation));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn constraint_goals_catch_shortcuts() {
    let by_id = |id: &str| content::exercises().into_iter().find(|e| e.id == id).unwrap();
    // Growing the nodes would schedule the big pod, but breaks "the nodes are unchanged".
    let pending = by_id("pending-pod");
    let bigger_nodes = "apiVersion: podlab.dev/v1alpha1\nkind: LabSettings\nextends: kind\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: kind-worker\nstatus:\n  capacity:\n    cpu: \"32\"\n  allocatable:\n    cpu: \"32\"\n";
    let r = check(&pending, &pending.manifest, Some(bigger_nodes));
    assert!(r[0].met, "the pod runs on the grown node: {r:?}");
    assert!(!r[1].met && r[1].explanation.contains("kind-worker changed"), "{r:?}");
    // Binding alice to cluster-admin lets her create the pod, but is not least privilege.
    let rbac = by_id("least-privilege");
    let admin = "apiVersion: podlab.dev/v1alpha1\nkind: LabSettings\nextends: rbac-alice\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: alice-admin\nsubjects:\n- kind: User\n  name: alice\n  apiGroup: rbac.authorization.k8s.io\nroleRef:\n  kind: ClusterRole\n  name: cluster-admin\n  apiGroup: rbac.authorization.k8s.io\n";
    let r = check(&rbac, &rbac.manifest, Some(admin));
    assert!(r[0].met, "{r:?}");
    assert!(!r[1].met && r[1].explanation.contains("ClusterRoleBinding alice-admin"), "{r:?}");
    // A broken cluster file is reported on every goal, not a panic.
    let r = check(&rbac, &rbac.manifest, Some("kind: [broken"));
    assert!(r.iter().all(|g| !g.met && g.explanation.contains("could not start")), "{r:?}");
}

#[test]
fn session_goals_catch_shortcuts() {
    let by_id = |id: &str| content::exercises().into_iter().find(|e| e.id == id).unwrap();
    let run = |id: &str, lines: &[&str]| {
        let ex = by_id(id);
        let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let commands = script(&lines, FILE_NAME, &ex.solution.manifest);
        check_session(&ex, &ex.solution.manifest, None, &commands)
    };
    // Deleting the Deployment with its dependants orphaned leaves the ReplicaSet and Pods.
    let r = run("cascading-delete", &["kubectl delete deployment web --cascade=orphan"]);
    assert!(!r[0].met && r[0].explanation.contains("ReplicaSet web-"), "{r:?}");
    // Deleting everything one by one takes more than one delete.
    let r = run("cascading-delete", &["kubectl delete deployment web", "kubectl delete pods --all"]);
    assert!(!r[1].met && r[1].explanation.contains("2 time(s)"), "{r:?}");
    // Deleting the Service too breaks "kept".
    let r = run("cascading-delete", &["kubectl delete service web"]);
    assert!(!r[2].met, "{r:?}");
    // Starting every component passes the Pods but not "only that one".
    let r = run("stopped-component", &["lab start kube-controller-manager", "lab start kube-scheduler"]);
    assert!(r[0].met && !r[1].met, "{r:?}");
    // Setting the image back by hand is not a rollback.
    let r = run(
        "rollback",
        &["kubectl set image deployment/web nginx=nginx:1.29", "kubectl set image deployment/web nginx=nginx:1.28"],
    );
    assert!(r[0].met && !r[1].met && r[2].met, "{r:#?}");
    // Draining without a budget evicts both of kind-worker2's Pods at once.
    let ex = by_id("drain-budget");
    let commands = script(&["kubectl drain kind-worker2".to_string()], FILE_NAME, &ex.manifest);
    let r = check_session(&ex, &ex.manifest, None, &commands);
    assert!(r[0].met && r[1].met && !r[2].met && r[3].met, "{r:#?}");
    assert!(r[2].explanation.contains("only 1 Ready"), "{}", r[2].explanation);
    // A self-heal goal with no command typed says where to type.
    let r = run("self-heal", &[]);
    assert!(!r[0].met && r[0].explanation.contains("terminal"), "{r:?}");
}
