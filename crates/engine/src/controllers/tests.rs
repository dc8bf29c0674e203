//! Scenario snapshots: a cluster, a kubectl script, and what the controllers did.
//!
//! Each `check` runs the script against the stand-in API server with a test scheduler and
//! test kubelets (see `testkit`) and renders the controllers' decisions, the Events they
//! recorded and the objects at the end. Every snapshot was read against upstream behaviour.

use super::testkit::run;
use expect_test::{expect, Expect};

fn check(cluster: &str, script: &str, expect: Expect) {
    expect.assert_eq(&run(cluster, script));
}

const TWO_NODES: &str = "
nodes:
- name: worker-1
  labels: {topology.kubernetes.io/zone: zone-a}
- name: worker-2
  labels: {topology.kubernetes.io/zone: zone-b}
";

const WEB: &str = "
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.29
        ports:
        - {name: http, containerPort: 80}
";

#[test]
fn deployment_creates_a_replicaset_and_three_pods() {
    check(
        TWO_NODES,
        &format!("@@watch\n@@limit 20s\n@0 apply\n{WEB}"),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.000s watch   deployment-controller sees ADDED Deployment default/web (a new Deployment: create its ReplicaSet)
               0.003s decide  deployment-controller creates ReplicaSet web-7b5c7c887c with 3 replica(s)
                             - POST ReplicaSet web-7b5c7c887c (pod-template-hash 7b5c7c887c, revision 1)
                             - spec.replicas 3
               0.003s event   Normal ScalingReplicaSet Deployment/default/web: Scaled up replica set web-7b5c7c887c from 0 to 3
               0.003s decide  deployment-controller records revision 1 on Deployment web
                             - update status: annotation deployment.kubernetes.io/revision=1
                             - condition Progressing=True (NewReplicaSetCreated)
               0.003s decide  deployment-controller updates status of Deployment web: 0 updated, 0 available, 3 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=3 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetCreated)
               0.003s watch   deployment-controller sees ADDED ReplicaSet default/web-7b5c7c887c (a ReplicaSet of this Deployment changed)
               0.003s watch   replicaset-controller sees ADDED ReplicaSet default/web-7b5c7c887c (a new ReplicaSet: create its Pods)
               0.005s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 0 Pod(s) for 3 replica(s): creating 3
                             - create 3 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1, 2)
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-6s6lv
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-p9cnk
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-cls55
               0.005s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.005s watch   replicaset-controller sees ADDED Pod default/web-7b5c7c887c-6s6lv (a Pod of this ReplicaSet was created)
               0.007s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 3, ready 0, available 0
                             - PUT status: replicas=3 fullyLabeledReplicas=3 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.007s watch   deployment-controller sees MODIFIED ReplicaSet default/web-7b5c7c887c (a ReplicaSet of this Deployment changed)
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-6s6lv to worker-1
               0.009s watch   replicaset-controller sees MODIFIED Pod default/web-7b5c7c887c-6s6lv (a Pod of this ReplicaSet changed)
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-p9cnk to worker-2
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-cls55 to worker-1
               0.010s decide  deployment-controller updates status of Deployment web: 3 updated, 0 available, 3 wanted
                             - PUT status: replicas=3 updatedReplicas=3 readyReplicas=0 availableReplicas=0 unavailableReplicas=3 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (ReplicaSetUpdated)
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-6s6lv Running on worker-1, IP 10.244.1.2, Ready
               2.009s watch   replicaset-controller sees MODIFIED Pod default/web-7b5c7c887c-6s6lv (a Pod of this ReplicaSet changed)
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-p9cnk Running on worker-2, IP 10.244.2.2, Ready
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-cls55 Running on worker-1, IP 10.244.1.3, Ready
               2.011s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 3, ready 3, available 3
                             - PUT status: replicas=3 fullyLabeledReplicas=3 readyReplicas=3 availableReplicas=3 terminatingReplicas=0 observedGeneration=1
               2.011s watch   deployment-controller sees MODIFIED ReplicaSet default/web-7b5c7c887c (a ReplicaSet of this Deployment changed)
               2.014s decide  deployment-controller updates status of Deployment web: 3 updated, 3 available, 3 wanted
                             - PUT status: replicas=3 updatedReplicas=3 readyReplicas=3 availableReplicas=3 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=1
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
            == events
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-6s6lv
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-p9cnk
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-cls55
              0.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled up replica set web-7b5c7c887c from 0 to 3
            == objects (at 20.000s)
            Deployment default/web gen=1 revision=1
                status: observedGeneration=1 replicas=3 updated=3 ready=3 available=3 unavailable=0 terminating=0
                conditions: Available=True/MinimumReplicasAvailable "Deployment has minimum availability."
                            Progressing=True/NewReplicaSetAvailable "ReplicaSet "web-7b5c7c887c" has successfully progressed."
            Pod default/web-7b5c7c887c-6s6lv owner=ReplicaSet/web-7b5c7c887c controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c} node=worker-1 phase=Running ready=true
            Pod default/web-7b5c7c887c-cls55 owner=ReplicaSet/web-7b5c7c887c controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c} node=worker-1 phase=Running ready=true
            Pod default/web-7b5c7c887c-p9cnk owner=ReplicaSet/web-7b5c7c887c controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c} node=worker-2 phase=Running ready=true
            ReplicaSet default/web-7b5c7c887c owner=Deployment/web controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c}
                selector=app=web,pod-template-hash=7b5c7c887c annotations={desired-replicas=3,max-replicas=4,revision=1}
                spec.replicas=3 status: replicas=3 fullyLabeled=3 ready=3 available=3 terminating=0 observedGeneration=1
        "#]],
    );
}

#[test]
fn scaling_a_deployment_resizes_its_only_replicaset() {
    // No rollout in flight: the replica count goes straight to the active ReplicaSet.
    check(
        TWO_NODES,
        &format!("@@limit 30s\n@0 apply\n{WEB}\n@10s scale deployment/web 5\n"),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.003s decide  deployment-controller creates ReplicaSet web-7b5c7c887c with 3 replica(s)
                             - POST ReplicaSet web-7b5c7c887c (pod-template-hash 7b5c7c887c, revision 1)
                             - spec.replicas 3
               0.003s event   Normal ScalingReplicaSet Deployment/default/web: Scaled up replica set web-7b5c7c887c from 0 to 3
               0.003s decide  deployment-controller records revision 1 on Deployment web
                             - update status: annotation deployment.kubernetes.io/revision=1
                             - condition Progressing=True (NewReplicaSetCreated)
               0.003s decide  deployment-controller updates status of Deployment web: 0 updated, 0 available, 3 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=3 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetCreated)
               0.005s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 0 Pod(s) for 3 replica(s): creating 3
                             - create 3 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1, 2)
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-6s6lv
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-p9cnk
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-cls55
               0.005s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.007s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 3, ready 0, available 0
                             - PUT status: replicas=3 fullyLabeledReplicas=3 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-6s6lv to worker-1
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-p9cnk to worker-2
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-cls55 to worker-1
               0.010s decide  deployment-controller updates status of Deployment web: 3 updated, 0 available, 3 wanted
                             - PUT status: replicas=3 updatedReplicas=3 readyReplicas=0 availableReplicas=0 unavailableReplicas=3 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (ReplicaSetUpdated)
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-6s6lv Running on worker-1, IP 10.244.1.2, Ready
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-p9cnk Running on worker-2, IP 10.244.2.2, Ready
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-cls55 Running on worker-1, IP 10.244.1.3, Ready
               2.011s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 3, ready 3, available 3
                             - PUT status: replicas=3 fullyLabeledReplicas=3 readyReplicas=3 availableReplicas=3 terminatingReplicas=0 observedGeneration=1
               2.014s decide  deployment-controller updates status of Deployment web: 3 updated, 3 available, 3 wanted
                             - PUT status: replicas=3 updatedReplicas=3 readyReplicas=3 availableReplicas=3 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=1
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
              10.000s         kubectl scale deployment/web 5
              10.003s decide  deployment-controller scales up ReplicaSet web-7b5c7c887c from 3 to 5
                             - update ReplicaSet web-7b5c7c887c: spec.replicas 5, deployment.kubernetes.io/desired-replicas=5, deployment.kubernetes.io/max-replicas=7
              10.003s event   Normal ScalingReplicaSet Deployment/default/web: Scaled up replica set web-7b5c7c887c from 3 to 5
              10.003s decide  deployment-controller updates status of Deployment web: 3 updated, 3 available, 5 wanted
                             - PUT status: replicas=3 updatedReplicas=3 readyReplicas=3 availableReplicas=3 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=2
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetAvailable)
              10.005s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 3 Pod(s) for 5 replica(s): creating 2
                             - create 2 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1, 1)
              10.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-6nqm4
              10.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-mszvl
              10.005s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 3, ready 3, available 3
                             - PUT status: replicas=3 fullyLabeledReplicas=3 readyReplicas=3 availableReplicas=3 terminatingReplicas=0 observedGeneration=2
              10.006s decide  deployment-controller updates status of Deployment web: 3 updated, 3 available, 5 wanted
                             - PUT status: replicas=3 updatedReplicas=3 readyReplicas=3 availableReplicas=3 unavailableReplicas=2 terminatingReplicas=0 observedGeneration=2
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetAvailable)
              10.007s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 5, ready 3, available 3
                             - PUT status: replicas=5 fullyLabeledReplicas=5 readyReplicas=3 availableReplicas=3 terminatingReplicas=0 observedGeneration=2
              10.009s         (test scheduler) binds Pod default/web-7b5c7c887c-6nqm4 to worker-2
              10.009s         (test scheduler) binds Pod default/web-7b5c7c887c-mszvl to worker-1
              10.010s decide  deployment-controller updates status of Deployment web: 5 updated, 3 available, 5 wanted
                             - PUT status: replicas=5 updatedReplicas=5 readyReplicas=3 availableReplicas=3 unavailableReplicas=2 terminatingReplicas=0 observedGeneration=2
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetAvailable)
              12.009s         (test kubelet) Pod default/web-7b5c7c887c-6nqm4 Running on worker-2, IP 10.244.2.3, Ready
              12.009s         (test kubelet) Pod default/web-7b5c7c887c-mszvl Running on worker-1, IP 10.244.1.4, Ready
              12.011s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 5, ready 5, available 5
                             - PUT status: replicas=5 fullyLabeledReplicas=5 readyReplicas=5 availableReplicas=5 terminatingReplicas=0 observedGeneration=2
              12.014s decide  deployment-controller updates status of Deployment web: 5 updated, 5 available, 5 wanted
                             - PUT status: replicas=5 updatedReplicas=5 readyReplicas=5 availableReplicas=5 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
            == events
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-6s6lv
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-p9cnk
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-cls55
              0.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled up replica set web-7b5c7c887c from 0 to 3
             10.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-6nqm4
             10.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-mszvl
             10.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled up replica set web-7b5c7c887c from 3 to 5
            == objects (at 30.000s)
            Deployment default/web gen=2 revision=1
                status: observedGeneration=2 replicas=5 updated=5 ready=5 available=5 unavailable=0 terminating=0
                conditions: Progressing=True/NewReplicaSetAvailable "ReplicaSet "web-7b5c7c887c" has successfully progressed."
                            Available=True/MinimumReplicasAvailable "Deployment has minimum availability."
            Pod default/web-7b5c7c887c-6nqm4 owner=ReplicaSet/web-7b5c7c887c controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c} node=worker-2 phase=Running ready=true
            Pod default/web-7b5c7c887c-6s6lv owner=ReplicaSet/web-7b5c7c887c controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c} node=worker-1 phase=Running ready=true
            Pod default/web-7b5c7c887c-cls55 owner=ReplicaSet/web-7b5c7c887c controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c} node=worker-1 phase=Running ready=true
            Pod default/web-7b5c7c887c-mszvl owner=ReplicaSet/web-7b5c7c887c controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c} node=worker-1 phase=Running ready=true
            Pod default/web-7b5c7c887c-p9cnk owner=ReplicaSet/web-7b5c7c887c controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c} node=worker-2 phase=Running ready=true
            ReplicaSet default/web-7b5c7c887c owner=Deployment/web controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c}
                selector=app=web,pod-template-hash=7b5c7c887c annotations={desired-replicas=5,max-replicas=7,revision=1}
                spec.replicas=5 status: replicas=5 fullyLabeled=5 ready=5 available=5 terminating=0 observedGeneration=2
        "#]],
    );
}

#[test]
fn scale_down_deletes_the_cheapest_pods_first() {
    // worker-2's kubelet never starts Pods: its two Pods stay Pending. Scaling 4 -> 1
    // removes the Pending ones first, then one of the two Running ones (same node, same
    // readiness, same age bucket: the UID decides).
    check(
        "
nodes:
- name: worker-1
- name: worker-2
  kubelet: {neverStarts: true}
",
        "
@@limit 30s
@0 apply
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: api
spec:
  replicas: 4
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
      - {name: api, image: registry.k8s.io/echoserver:1.10}
@10s scale rs/api 1
",
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.002s decide  replicaset-controller: ReplicaSet api has 0 Pod(s) for 4 replica(s): creating 4
                             - create 4 Pod(s) from the template with generateName api- (slow start: batches of 1, 2, 1)
               0.002s event   Normal SuccessfulCreate ReplicaSet/default/api: Created pod: api-pd876
               0.002s event   Normal SuccessfulCreate ReplicaSet/default/api: Created pod: api-78dn7
               0.002s event   Normal SuccessfulCreate ReplicaSet/default/api: Created pod: api-gw7nc
               0.002s event   Normal SuccessfulCreate ReplicaSet/default/api: Created pod: api-thrmt
               0.002s decide  replicaset-controller updates status of ReplicaSet api: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.004s decide  replicaset-controller updates status of ReplicaSet api: replicas 4, ready 0, available 0
                             - PUT status: replicas=4 fullyLabeledReplicas=4 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.006s         (test scheduler) binds Pod default/api-pd876 to worker-1
               0.006s         (test scheduler) binds Pod default/api-78dn7 to worker-2
               0.006s         (test scheduler) binds Pod default/api-gw7nc to worker-1
               0.006s         (test scheduler) binds Pod default/api-thrmt to worker-2
               2.006s         (test kubelet) Pod default/api-pd876 Running on worker-1, IP 10.244.1.2, Ready
               2.006s         (test kubelet) Pod default/api-gw7nc Running on worker-1, IP 10.244.1.3, Ready
               2.008s decide  replicaset-controller updates status of ReplicaSet api: replicas 4, ready 2, available 2
                             - PUT status: replicas=4 fullyLabeledReplicas=4 readyReplicas=2 availableReplicas=2 terminatingReplicas=0 observedGeneration=1
              10.000s         kubectl scale rs/api 1
              10.002s decide  replicaset-controller: ReplicaSet api has 4 Pod(s) for 1 replica(s): deleting 3
                             - delete 3 Pod(s), the cheapest to lose first
              10.002s event   Normal SuccessfulDelete ReplicaSet/default/api: Deleted pod: api-78dn7
              10.002s event   Normal SuccessfulDelete ReplicaSet/default/api: Deleted pod: api-thrmt
              10.002s event   Normal SuccessfulDelete ReplicaSet/default/api: Deleted pod: api-gw7nc
              10.002s decide  replicaset-controller updates status of ReplicaSet api: replicas 4, ready 2, available 2
                             - PUT status: replicas=4 fullyLabeledReplicas=4 readyReplicas=2 availableReplicas=2 terminatingReplicas=0 observedGeneration=2
              10.004s decide  replicaset-controller updates status of ReplicaSet api: replicas 1, ready 1, available 1
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=1 availableReplicas=1 terminatingReplicas=3 observedGeneration=2
              11.002s         (test kubelet) Pod default/api-78dn7 stopped and removed
              11.002s         (test kubelet) Pod default/api-thrmt stopped and removed
              11.002s         (test kubelet) Pod default/api-gw7nc stopped and removed
              11.004s decide  replicaset-controller updates status of ReplicaSet api: replicas 1, ready 1, available 1
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=1 availableReplicas=1 terminatingReplicas=0 observedGeneration=2
            == events
              0.000s Normal SuccessfulCreate ReplicaSet/api from replicaset-controller: Created pod: api-pd876
              0.000s Normal SuccessfulCreate ReplicaSet/api from replicaset-controller: Created pod: api-78dn7
              0.000s Normal SuccessfulCreate ReplicaSet/api from replicaset-controller: Created pod: api-gw7nc
              0.000s Normal SuccessfulCreate ReplicaSet/api from replicaset-controller: Created pod: api-thrmt
             10.000s Normal SuccessfulDelete ReplicaSet/api from replicaset-controller: Deleted pod: api-78dn7
             10.000s Normal SuccessfulDelete ReplicaSet/api from replicaset-controller: Deleted pod: api-thrmt
             10.000s Normal SuccessfulDelete ReplicaSet/api from replicaset-controller: Deleted pod: api-gw7nc
            == objects (at 30.000s)
            Pod default/api-pd876 owner=ReplicaSet/api controller blockOwnerDeletion labels={app=api} node=worker-1 phase=Running ready=true
            ReplicaSet default/api
                selector=app=api annotations={}
                spec.replicas=1 status: replicas=1 fullyLabeled=1 ready=1 available=1 terminating=0 observedGeneration=2
        "#]],
    );
}

#[test]
fn rolling_update_with_25_percent_surge_and_unavailability() {
    // 4 replicas: maxSurge 25% -> 1 (rounded up), maxUnavailable 25% -> 1 (rounded down).
    // The total never exceeds 5 Pods and never drops below 3 available ones.
    check(
        TWO_NODES,
        &format!(
            "@@limit 60s\n@0 apply\n{}\n@20s set-image deployment/web web=nginx:1.30\n",
            WEB.replace("replicas: 3", "replicas: 4")
        ),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.003s decide  deployment-controller creates ReplicaSet web-7b5c7c887c with 4 replica(s)
                             - POST ReplicaSet web-7b5c7c887c (pod-template-hash 7b5c7c887c, revision 1)
                             - spec.replicas 4
               0.003s event   Normal ScalingReplicaSet Deployment/default/web: Scaled up replica set web-7b5c7c887c from 0 to 4
               0.003s decide  deployment-controller records revision 1 on Deployment web
                             - update status: annotation deployment.kubernetes.io/revision=1
                             - condition Progressing=True (NewReplicaSetCreated)
               0.003s decide  deployment-controller updates status of Deployment web: 0 updated, 0 available, 4 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=4 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetCreated)
               0.005s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 0 Pod(s) for 4 replica(s): creating 4
                             - create 4 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1, 2, 1)
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-6s6lv
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-p9cnk
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-cls55
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-vmn6n
               0.005s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.007s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 4, ready 0, available 0
                             - PUT status: replicas=4 fullyLabeledReplicas=4 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-6s6lv to worker-1
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-p9cnk to worker-2
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-cls55 to worker-1
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-vmn6n to worker-2
               0.010s decide  deployment-controller updates status of Deployment web: 4 updated, 0 available, 4 wanted
                             - PUT status: replicas=4 updatedReplicas=4 readyReplicas=0 availableReplicas=0 unavailableReplicas=4 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (ReplicaSetUpdated)
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-6s6lv Running on worker-1, IP 10.244.1.2, Ready
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-p9cnk Running on worker-2, IP 10.244.2.2, Ready
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-cls55 Running on worker-1, IP 10.244.1.3, Ready
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-vmn6n Running on worker-2, IP 10.244.2.3, Ready
               2.011s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 4, ready 4, available 4
                             - PUT status: replicas=4 fullyLabeledReplicas=4 readyReplicas=4 availableReplicas=4 terminatingReplicas=0 observedGeneration=1
               2.014s decide  deployment-controller updates status of Deployment web: 4 updated, 4 available, 4 wanted
                             - PUT status: replicas=4 updatedReplicas=4 readyReplicas=4 availableReplicas=4 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=1
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
              20.000s         kubectl set-image deployment/web web=nginx:1.30
              20.003s decide  deployment-controller creates ReplicaSet web-5978969f59 with 1 replica(s)
                             - POST ReplicaSet web-5978969f59 (pod-template-hash 5978969f59, revision 2)
                             - spec.replicas 1
              20.003s event   Normal ScalingReplicaSet Deployment/default/web: Scaled up replica set web-5978969f59 from 0 to 1
              20.003s decide  deployment-controller records revision 2 on Deployment web
                             - update status: annotation deployment.kubernetes.io/revision=2
                             - condition Progressing=True (NewReplicaSetCreated)
              20.003s decide  deployment-controller scales down ReplicaSet web-7b5c7c887c from 4 to 3
                             - update ReplicaSet web-7b5c7c887c: spec.replicas 3, deployment.kubernetes.io/desired-replicas=4, deployment.kubernetes.io/max-replicas=5
              20.003s event   Normal ScalingReplicaSet Deployment/default/web: Scaled down replica set web-7b5c7c887c from 4 to 3
              20.003s decide  deployment-controller updates status of Deployment web: 0 updated, 4 available, 4 wanted
                             - PUT status: replicas=4 updatedReplicas=0 readyReplicas=4 availableReplicas=4 unavailableReplicas=1 terminatingReplicas=0 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetCreated)
              20.005s decide  replicaset-controller: ReplicaSet web-5978969f59 has 0 Pod(s) for 1 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-5978969f59- (slow start: batches of 1)
              20.005s event   Normal SuccessfulCreate ReplicaSet/default/web-5978969f59: Created pod: web-5978969f59-2lbgw
              20.005s decide  replicaset-controller updates status of ReplicaSet web-5978969f59: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
              20.005s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 4 Pod(s) for 3 replica(s): deleting 1
                             - delete 1 Pod(s), the cheapest to lose first
              20.005s event   Normal SuccessfulDelete ReplicaSet/default/web-7b5c7c887c: Deleted pod: web-7b5c7c887c-6s6lv
              20.005s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 4, ready 4, available 4
                             - PUT status: replicas=4 fullyLabeledReplicas=4 readyReplicas=4 availableReplicas=4 terminatingReplicas=0 observedGeneration=2
              20.006s decide  deployment-controller scales up ReplicaSet web-5978969f59 from 1 to 2
                             - update ReplicaSet web-5978969f59: spec.replicas 2, deployment.kubernetes.io/desired-replicas=4, deployment.kubernetes.io/max-replicas=5
              20.006s event   Normal ScalingReplicaSet Deployment/default/web: Scaled up replica set web-5978969f59 from 1 to 2
              20.006s decide  deployment-controller updates status of Deployment web: 0 updated, 4 available, 4 wanted
                             - PUT status: replicas=4 updatedReplicas=0 readyReplicas=4 availableReplicas=4 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetCreated)
              20.007s decide  replicaset-controller: ReplicaSet web-5978969f59 has 1 Pod(s) for 2 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-5978969f59- (slow start: batches of 1)
              20.007s event   Normal SuccessfulCreate ReplicaSet/default/web-5978969f59: Created pod: web-5978969f59-l9zw5
              20.007s decide  replicaset-controller updates status of ReplicaSet web-5978969f59: replicas 1, ready 0, available 0
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=2
              20.007s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 3, ready 3, available 3
                             - PUT status: replicas=3 fullyLabeledReplicas=3 readyReplicas=3 availableReplicas=3 terminatingReplicas=1 observedGeneration=2
              20.009s         (test scheduler) binds Pod default/web-5978969f59-2lbgw to worker-1
              20.009s decide  deployment-controller updates status of Deployment web: 1 updated, 3 available, 4 wanted
                             - PUT status: replicas=4 updatedReplicas=1 readyReplicas=3 availableReplicas=3 unavailableReplicas=2 terminatingReplicas=1 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (ReplicaSetUpdated)
              20.009s decide  replicaset-controller updates status of ReplicaSet web-5978969f59: replicas 2, ready 0, available 0
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=2
              20.011s         (test scheduler) binds Pod default/web-5978969f59-l9zw5 to worker-2
              20.012s decide  deployment-controller updates status of Deployment web: 2 updated, 3 available, 4 wanted
                             - PUT status: replicas=5 updatedReplicas=2 readyReplicas=3 availableReplicas=3 unavailableReplicas=2 terminatingReplicas=1 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (ReplicaSetUpdated)
              21.005s         (test kubelet) Pod default/web-7b5c7c887c-6s6lv stopped and removed
              21.007s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 3, ready 3, available 3
                             - PUT status: replicas=3 fullyLabeledReplicas=3 readyReplicas=3 availableReplicas=3 terminatingReplicas=0 observedGeneration=2
              21.010s decide  deployment-controller updates status of Deployment web: 2 updated, 3 available, 4 wanted
                             - PUT status: replicas=5 updatedReplicas=2 readyReplicas=3 availableReplicas=3 unavailableReplicas=2 terminatingReplicas=0 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (ReplicaSetUpdated)
              22.009s         (test kubelet) Pod default/web-5978969f59-2lbgw Running on worker-1, IP 10.244.1.4, Ready
              22.011s         (test kubelet) Pod default/web-5978969f59-l9zw5 Running on worker-2, IP 10.244.2.4, Ready
              22.011s decide  replicaset-controller updates status of ReplicaSet web-5978969f59: replicas 2, ready 2, available 2
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=2 availableReplicas=2 terminatingReplicas=0 observedGeneration=2
              22.014s decide  deployment-controller scales down ReplicaSet web-7b5c7c887c from 3 to 1
                             - update ReplicaSet web-7b5c7c887c: spec.replicas 1, deployment.kubernetes.io/desired-replicas=4, deployment.kubernetes.io/max-replicas=5
              22.014s event   Normal ScalingReplicaSet Deployment/default/web: Scaled down replica set web-7b5c7c887c from 3 to 1
              22.014s decide  deployment-controller updates status of Deployment web: 2 updated, 5 available, 4 wanted
                             - PUT status: replicas=5 updatedReplicas=2 readyReplicas=5 availableReplicas=5 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (ReplicaSetUpdated)
              22.016s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 3 Pod(s) for 1 replica(s): deleting 2
                             - delete 2 Pod(s), the cheapest to lose first
              22.016s event   Normal SuccessfulDelete ReplicaSet/default/web-7b5c7c887c: Deleted pod: web-7b5c7c887c-p9cnk
              22.016s event   Normal SuccessfulDelete ReplicaSet/default/web-7b5c7c887c: Deleted pod: web-7b5c7c887c-vmn6n
              22.016s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 3, ready 3, available 3
                             - PUT status: replicas=3 fullyLabeledReplicas=3 readyReplicas=3 availableReplicas=3 terminatingReplicas=0 observedGeneration=3
              22.017s decide  deployment-controller scales up ReplicaSet web-5978969f59 from 2 to 4
                             - update ReplicaSet web-5978969f59: spec.replicas 4, deployment.kubernetes.io/desired-replicas=4, deployment.kubernetes.io/max-replicas=5
              22.017s event   Normal ScalingReplicaSet Deployment/default/web: Scaled up replica set web-5978969f59 from 2 to 4
              22.018s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 1, ready 1, available 1
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=1 availableReplicas=1 terminatingReplicas=2 observedGeneration=3
              22.019s decide  replicaset-controller: ReplicaSet web-5978969f59 has 2 Pod(s) for 4 replica(s): creating 2
                             - create 2 Pod(s) from the template with generateName web-5978969f59- (slow start: batches of 1, 1)
              22.019s event   Normal SuccessfulCreate ReplicaSet/default/web-5978969f59: Created pod: web-5978969f59-95kxz
              22.019s event   Normal SuccessfulCreate ReplicaSet/default/web-5978969f59: Created pod: web-5978969f59-dlv96
              22.019s decide  replicaset-controller updates status of ReplicaSet web-5978969f59: replicas 2, ready 2, available 2
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=2 availableReplicas=2 terminatingReplicas=0 observedGeneration=3
              22.020s decide  deployment-controller updates status of Deployment web: 2 updated, 3 available, 4 wanted
                             - PUT status: replicas=3 updatedReplicas=2 readyReplicas=3 availableReplicas=3 unavailableReplicas=2 terminatingReplicas=2 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (ReplicaSetUpdated)
              22.021s decide  replicaset-controller updates status of ReplicaSet web-5978969f59: replicas 4, ready 2, available 2
                             - PUT status: replicas=4 fullyLabeledReplicas=4 readyReplicas=2 availableReplicas=2 terminatingReplicas=0 observedGeneration=3
              22.023s         (test scheduler) binds Pod default/web-5978969f59-95kxz to worker-1
              22.023s         (test scheduler) binds Pod default/web-5978969f59-dlv96 to worker-1
              22.024s decide  deployment-controller updates status of Deployment web: 4 updated, 3 available, 4 wanted
                             - PUT status: replicas=5 updatedReplicas=4 readyReplicas=3 availableReplicas=3 unavailableReplicas=2 terminatingReplicas=2 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (ReplicaSetUpdated)
              23.016s         (test kubelet) Pod default/web-7b5c7c887c-p9cnk stopped and removed
              23.016s         (test kubelet) Pod default/web-7b5c7c887c-vmn6n stopped and removed
              23.018s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 1, ready 1, available 1
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=1 availableReplicas=1 terminatingReplicas=0 observedGeneration=3
              23.021s decide  deployment-controller updates status of Deployment web: 4 updated, 3 available, 4 wanted
                             - PUT status: replicas=5 updatedReplicas=4 readyReplicas=3 availableReplicas=3 unavailableReplicas=2 terminatingReplicas=0 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (ReplicaSetUpdated)
              24.023s         (test kubelet) Pod default/web-5978969f59-95kxz Running on worker-1, IP 10.244.1.5, Ready
              24.023s         (test kubelet) Pod default/web-5978969f59-dlv96 Running on worker-1, IP 10.244.1.6, Ready
              24.025s decide  replicaset-controller updates status of ReplicaSet web-5978969f59: replicas 4, ready 4, available 4
                             - PUT status: replicas=4 fullyLabeledReplicas=4 readyReplicas=4 availableReplicas=4 terminatingReplicas=0 observedGeneration=3
              24.028s decide  deployment-controller scales down ReplicaSet web-7b5c7c887c from 1 to 0
                             - update ReplicaSet web-7b5c7c887c: spec.replicas 0, deployment.kubernetes.io/desired-replicas=4, deployment.kubernetes.io/max-replicas=5
              24.028s event   Normal ScalingReplicaSet Deployment/default/web: Scaled down replica set web-7b5c7c887c from 1 to 0
              24.028s decide  deployment-controller updates status of Deployment web: 4 updated, 5 available, 4 wanted
                             - PUT status: replicas=5 updatedReplicas=4 readyReplicas=5 availableReplicas=5 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (ReplicaSetUpdated)
              24.030s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 1 Pod(s) for 0 replica(s): deleting 1
                             - delete 1 Pod(s), the cheapest to lose first
              24.030s event   Normal SuccessfulDelete ReplicaSet/default/web-7b5c7c887c: Deleted pod: web-7b5c7c887c-cls55
              24.030s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 1, ready 1, available 1
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=1 availableReplicas=1 terminatingReplicas=0 observedGeneration=4
              24.032s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=1 observedGeneration=4
              24.035s decide  deployment-controller updates status of Deployment web: 4 updated, 4 available, 4 wanted
                             - PUT status: replicas=4 updatedReplicas=4 readyReplicas=4 availableReplicas=4 unavailableReplicas=0 terminatingReplicas=1 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
              25.030s         (test kubelet) Pod default/web-7b5c7c887c-cls55 stopped and removed
              25.032s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=4
              25.035s decide  deployment-controller updates status of Deployment web: 4 updated, 4 available, 4 wanted
                             - PUT status: replicas=4 updatedReplicas=4 readyReplicas=4 availableReplicas=4 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
            == events
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-6s6lv
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-p9cnk
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-cls55
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-vmn6n
              0.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled up replica set web-7b5c7c887c from 0 to 4
             20.000s Normal SuccessfulCreate ReplicaSet/web-5978969f59 from replicaset-controller: Created pod: web-5978969f59-2lbgw
             20.000s Normal SuccessfulCreate ReplicaSet/web-5978969f59 from replicaset-controller: Created pod: web-5978969f59-l9zw5
             20.000s Normal SuccessfulDelete ReplicaSet/web-7b5c7c887c from replicaset-controller: Deleted pod: web-7b5c7c887c-6s6lv
             20.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled up replica set web-5978969f59 from 0 to 1
             20.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled down replica set web-7b5c7c887c from 4 to 3
             20.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled up replica set web-5978969f59 from 1 to 2
             22.000s Normal SuccessfulCreate ReplicaSet/web-5978969f59 from replicaset-controller: Created pod: web-5978969f59-95kxz
             22.000s Normal SuccessfulCreate ReplicaSet/web-5978969f59 from replicaset-controller: Created pod: web-5978969f59-dlv96
             22.000s Normal SuccessfulDelete ReplicaSet/web-7b5c7c887c from replicaset-controller: Deleted pod: web-7b5c7c887c-p9cnk
             22.000s Normal SuccessfulDelete ReplicaSet/web-7b5c7c887c from replicaset-controller: Deleted pod: web-7b5c7c887c-vmn6n
             22.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled down replica set web-7b5c7c887c from 3 to 1
             22.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled up replica set web-5978969f59 from 2 to 4
             24.000s Normal SuccessfulDelete ReplicaSet/web-7b5c7c887c from replicaset-controller: Deleted pod: web-7b5c7c887c-cls55
             24.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled down replica set web-7b5c7c887c from 1 to 0
            == objects (at 60.000s)
            Deployment default/web gen=2 revision=2
                status: observedGeneration=2 replicas=4 updated=4 ready=4 available=4 unavailable=0 terminating=0
                conditions: Available=True/MinimumReplicasAvailable "Deployment has minimum availability."
                            Progressing=True/NewReplicaSetAvailable "ReplicaSet "web-5978969f59" has successfully progressed."
            Pod default/web-5978969f59-2lbgw owner=ReplicaSet/web-5978969f59 controller blockOwnerDeletion labels={app=web,pod-template-hash=5978969f59} node=worker-1 phase=Running ready=true
            Pod default/web-5978969f59-95kxz owner=ReplicaSet/web-5978969f59 controller blockOwnerDeletion labels={app=web,pod-template-hash=5978969f59} node=worker-1 phase=Running ready=true
            Pod default/web-5978969f59-dlv96 owner=ReplicaSet/web-5978969f59 controller blockOwnerDeletion labels={app=web,pod-template-hash=5978969f59} node=worker-1 phase=Running ready=true
            Pod default/web-5978969f59-l9zw5 owner=ReplicaSet/web-5978969f59 controller blockOwnerDeletion labels={app=web,pod-template-hash=5978969f59} node=worker-2 phase=Running ready=true
            ReplicaSet default/web-5978969f59 owner=Deployment/web controller blockOwnerDeletion labels={app=web,pod-template-hash=5978969f59}
                selector=app=web,pod-template-hash=5978969f59 annotations={desired-replicas=4,max-replicas=5,revision=2}
                spec.replicas=4 status: replicas=4 fullyLabeled=4 ready=4 available=4 terminating=0 observedGeneration=3
            ReplicaSet default/web-7b5c7c887c owner=Deployment/web controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c}
                selector=app=web,pod-template-hash=7b5c7c887c annotations={desired-replicas=4,max-replicas=5,revision=1}
                spec.replicas=0 status: replicas=0 fullyLabeled=0 ready=0 available=0 terminating=0 observedGeneration=4
        "#]],
    );
}

#[test]
fn recreate_scales_old_pods_to_zero_before_creating_new_ones() {
    check(
        TWO_NODES,
        &format!(
            "@@limit 60s\n@0 apply\n{}\n@20s set-image deployment/web web=nginx:1.30\n",
            WEB.replace("replicas: 3", "replicas: 2\n  strategy: {type: Recreate}")
        ),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.003s decide  deployment-controller creates ReplicaSet web-7b5c7c887c with 2 replica(s)
                             - POST ReplicaSet web-7b5c7c887c (pod-template-hash 7b5c7c887c, revision 1)
                             - spec.replicas 2
               0.003s event   Normal ScalingReplicaSet Deployment/default/web: Scaled up replica set web-7b5c7c887c from 0 to 2
               0.003s decide  deployment-controller records revision 1 on Deployment web
                             - update status: annotation deployment.kubernetes.io/revision=1
                             - condition Progressing=True (NewReplicaSetCreated)
               0.003s decide  deployment-controller updates status of Deployment web: 0 updated, 0 available, 2 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=2 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetCreated)
               0.005s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 0 Pod(s) for 2 replica(s): creating 2
                             - create 2 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1, 1)
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-6s6lv
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-p9cnk
               0.005s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.007s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 2, ready 0, available 0
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-6s6lv to worker-1
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-p9cnk to worker-2
               0.010s decide  deployment-controller updates status of Deployment web: 2 updated, 0 available, 2 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=0 availableReplicas=0 unavailableReplicas=2 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (ReplicaSetUpdated)
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-6s6lv Running on worker-1, IP 10.244.1.2, Ready
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-p9cnk Running on worker-2, IP 10.244.2.2, Ready
               2.011s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 2, ready 2, available 2
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=2 availableReplicas=2 terminatingReplicas=0 observedGeneration=1
               2.014s decide  deployment-controller updates status of Deployment web: 2 updated, 2 available, 2 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=2 availableReplicas=2 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=1
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
              20.000s         kubectl set-image deployment/web web=nginx:1.30
              20.003s decide  deployment-controller scales down ReplicaSet web-7b5c7c887c from 2 to 0
                             - update ReplicaSet web-7b5c7c887c: spec.replicas 0, deployment.kubernetes.io/desired-replicas=2, deployment.kubernetes.io/max-replicas=2
              20.003s event   Normal ScalingReplicaSet Deployment/default/web: Scaled down replica set web-7b5c7c887c from 2 to 0
              20.003s decide  deployment-controller updates status of Deployment web: 0 updated, 2 available, 2 wanted
                             - PUT status: replicas=2 updatedReplicas=0 readyReplicas=2 availableReplicas=2 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
              20.005s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 0 replica(s): deleting 2
                             - delete 2 Pod(s), the cheapest to lose first
              20.005s event   Normal SuccessfulDelete ReplicaSet/default/web-7b5c7c887c: Deleted pod: web-7b5c7c887c-6s6lv
              20.005s event   Normal SuccessfulDelete ReplicaSet/default/web-7b5c7c887c: Deleted pod: web-7b5c7c887c-p9cnk
              20.005s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 2, ready 2, available 2
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=2 availableReplicas=2 terminatingReplicas=0 observedGeneration=2
              20.007s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=2 observedGeneration=2
              20.010s decide  deployment-controller updates status of Deployment web: 0 updated, 0 available, 2 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=0 terminatingReplicas=2 observedGeneration=2
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetAvailable)
              21.005s         (test kubelet) Pod default/web-7b5c7c887c-6s6lv stopped and removed
              21.005s         (test kubelet) Pod default/web-7b5c7c887c-p9cnk stopped and removed
              21.007s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=2
              21.008s decide  deployment-controller creates ReplicaSet web-5978969f59 with 2 replica(s)
                             - POST ReplicaSet web-5978969f59 (pod-template-hash 5978969f59, revision 2)
                             - spec.replicas 2
              21.008s event   Normal ScalingReplicaSet Deployment/default/web: Scaled up replica set web-5978969f59 from 0 to 2
              21.008s decide  deployment-controller records revision 2 on Deployment web
                             - update status: annotation deployment.kubernetes.io/revision=2
                             - condition Progressing=True (NewReplicaSetCreated)
              21.008s decide  deployment-controller updates status of Deployment web: 0 updated, 0 available, 2 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=2 terminatingReplicas=0 observedGeneration=2
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetCreated)
              21.010s decide  replicaset-controller: ReplicaSet web-5978969f59 has 0 Pod(s) for 2 replica(s): creating 2
                             - create 2 Pod(s) from the template with generateName web-5978969f59- (slow start: batches of 1, 1)
              21.010s event   Normal SuccessfulCreate ReplicaSet/default/web-5978969f59: Created pod: web-5978969f59-tvmn6
              21.010s event   Normal SuccessfulCreate ReplicaSet/default/web-5978969f59: Created pod: web-5978969f59-qw8hm
              21.010s decide  replicaset-controller updates status of ReplicaSet web-5978969f59: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
              21.012s decide  replicaset-controller updates status of ReplicaSet web-5978969f59: replicas 2, ready 0, available 0
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
              21.014s         (test scheduler) binds Pod default/web-5978969f59-tvmn6 to worker-1
              21.014s         (test scheduler) binds Pod default/web-5978969f59-qw8hm to worker-2
              21.015s decide  deployment-controller updates status of Deployment web: 2 updated, 0 available, 2 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=0 availableReplicas=0 unavailableReplicas=2 terminatingReplicas=0 observedGeneration=2
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (ReplicaSetUpdated)
              23.014s         (test kubelet) Pod default/web-5978969f59-tvmn6 Running on worker-1, IP 10.244.1.3, Ready
              23.014s         (test kubelet) Pod default/web-5978969f59-qw8hm Running on worker-2, IP 10.244.2.3, Ready
              23.016s decide  replicaset-controller updates status of ReplicaSet web-5978969f59: replicas 2, ready 2, available 2
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=2 availableReplicas=2 terminatingReplicas=0 observedGeneration=1
              23.019s decide  deployment-controller updates status of Deployment web: 2 updated, 2 available, 2 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=2 availableReplicas=2 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=2
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
            == events
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-6s6lv
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-p9cnk
              0.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled up replica set web-7b5c7c887c from 0 to 2
             20.000s Normal SuccessfulDelete ReplicaSet/web-7b5c7c887c from replicaset-controller: Deleted pod: web-7b5c7c887c-6s6lv
             20.000s Normal SuccessfulDelete ReplicaSet/web-7b5c7c887c from replicaset-controller: Deleted pod: web-7b5c7c887c-p9cnk
             20.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled down replica set web-7b5c7c887c from 2 to 0
             21.000s Normal SuccessfulCreate ReplicaSet/web-5978969f59 from replicaset-controller: Created pod: web-5978969f59-tvmn6
             21.000s Normal SuccessfulCreate ReplicaSet/web-5978969f59 from replicaset-controller: Created pod: web-5978969f59-qw8hm
             21.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled up replica set web-5978969f59 from 0 to 2
            == objects (at 60.000s)
            Deployment default/web gen=2 revision=2
                status: observedGeneration=2 replicas=2 updated=2 ready=2 available=2 unavailable=0 terminating=0
                conditions: Available=True/MinimumReplicasAvailable "Deployment has minimum availability."
                            Progressing=True/NewReplicaSetAvailable "ReplicaSet "web-5978969f59" has successfully progressed."
            Pod default/web-5978969f59-qw8hm owner=ReplicaSet/web-5978969f59 controller blockOwnerDeletion labels={app=web,pod-template-hash=5978969f59} node=worker-2 phase=Running ready=true
            Pod default/web-5978969f59-tvmn6 owner=ReplicaSet/web-5978969f59 controller blockOwnerDeletion labels={app=web,pod-template-hash=5978969f59} node=worker-1 phase=Running ready=true
            ReplicaSet default/web-5978969f59 owner=Deployment/web controller blockOwnerDeletion labels={app=web,pod-template-hash=5978969f59}
                selector=app=web,pod-template-hash=5978969f59 annotations={desired-replicas=2,max-replicas=2,revision=2}
                spec.replicas=2 status: replicas=2 fullyLabeled=2 ready=2 available=2 terminating=0 observedGeneration=1
            ReplicaSet default/web-7b5c7c887c owner=Deployment/web controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c}
                selector=app=web,pod-template-hash=7b5c7c887c annotations={desired-replicas=2,max-replicas=2,revision=1}
                spec.replicas=0 status: replicas=0 fullyLabeled=0 ready=0 available=0 terminating=0 observedGeneration=2
        "#]],
    );
}

#[test]
fn pods_forbidden_by_quota_leave_the_deployment_short() {
    // The Deployment and its ReplicaSet are accepted; the third Pod is refused by the
    // quota. The ReplicaSet controller records FailedCreate and the ReplicaFailure
    // condition, which the Deployment mirrors, and retries with a growing delay.
    check(
        TWO_NODES,
        &format!(
            "@@limit 700s\n@0 apply\napiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: pods-quota\nspec:\n  hard: {{pods: \"2\"}}\n---{WEB}"
        ),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.003s decide  deployment-controller creates ReplicaSet web-7b5c7c887c with 3 replica(s)
                             - POST ReplicaSet web-7b5c7c887c (pod-template-hash 7b5c7c887c, revision 1)
                             - spec.replicas 3
               0.003s event   Normal ScalingReplicaSet Deployment/default/web: Scaled up replica set web-7b5c7c887c from 0 to 3
               0.003s decide  deployment-controller records revision 1 on Deployment web
                             - update status: annotation deployment.kubernetes.io/revision=1
                             - condition Progressing=True (NewReplicaSetCreated)
               0.003s decide  deployment-controller updates status of Deployment web: 0 updated, 0 available, 3 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=3 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetCreated)
               0.005s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 0 Pod(s) for 3 replica(s): creating 3
                             - create 3 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1, 2)
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-6lv2x
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-cnktv
               0.005s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               0.005s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: Error creating: pods "web-7b5c7c887c-s55wx" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
               0.005s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.006s decide  deployment-controller updates status of Deployment web: 0 updated, 0 available, 3 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=3 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetCreated)
                             - ReplicaFailure=True (FailedCreate)
               0.007s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               0.007s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               0.007s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: Error creating: pods "web-7b5c7c887c-n6nqm" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
               0.007s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 2, ready 0, available 0
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-6lv2x to worker-1
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-cnktv to worker-2
               0.010s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               0.010s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               0.010s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: Error creating: pods "web-7b5c7c887c-hmszv" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
               0.010s decide  deployment-controller updates status of Deployment web: 2 updated, 0 available, 3 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=0 availableReplicas=0 unavailableReplicas=3 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (ReplicaSetUpdated)
                             - ReplicaFailure=True (FailedCreate)
               0.011s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               0.011s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               0.011s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: Error creating: pods "web-7b5c7c887c-cp8xt" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
               0.017s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               0.017s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               0.017s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: Error creating: pods "web-7b5c7c887c-w529w" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
               0.030s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               0.030s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               0.030s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: Error creating: pods "web-7b5c7c887c-vhwvg" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
               0.051s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               0.051s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               0.051s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: Error creating: pods "web-7b5c7c887c-ksqj7" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
               0.097s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               0.097s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               0.097s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: Error creating: pods "web-7b5c7c887c-t5rx5" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
               0.190s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               0.190s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               0.190s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: Error creating: pods "web-7b5c7c887c-4qnj9" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
               0.371s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               0.371s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               0.371s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: (combined from similar events): Error creating: pods "web-7b5c7c887c-74ms8" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
               0.737s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               0.737s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               0.737s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: (combined from similar events): Error creating: pods "web-7b5c7c887c-74btn" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
               1.470s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               1.470s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               1.470s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: (combined from similar events): Error creating: pods "web-7b5c7c887c-6js7b" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-6lv2x Running on worker-1, IP 10.244.1.2, Ready
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-cnktv Running on worker-2, IP 10.244.2.2, Ready
               2.011s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               2.011s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               2.011s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: (combined from similar events): Error creating: pods "web-7b5c7c887c-gbkcl" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
               2.011s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 2, ready 2, available 2
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=2 availableReplicas=2 terminatingReplicas=0 observedGeneration=1
               2.014s decide  deployment-controller updates status of Deployment web: 2 updated, 2 available, 3 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=2 availableReplicas=2 unavailableReplicas=1 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (ReplicaSetUpdated)
                             - ReplicaFailure=True (FailedCreate)
               2.931s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               2.931s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               2.931s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: (combined from similar events): Error creating: pods "web-7b5c7c887c-dpj5p" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
               5.857s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               5.857s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
               5.857s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: (combined from similar events): Error creating: pods "web-7b5c7c887c-f6qqk" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
              11.710s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
              11.710s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
              11.710s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: (combined from similar events): Error creating: pods "web-7b5c7c887c-ldll5" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
              22.491s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
              22.491s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
              22.491s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: (combined from similar events): Error creating: pods "web-7b5c7c887c-bzz42" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
              43.891s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
              43.891s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
              43.891s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: (combined from similar events): Error creating: pods "web-7b5c7c887c-nr4jn" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
              87.777s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
              87.777s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
              87.777s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: (combined from similar events): Error creating: pods "web-7b5c7c887c-p95tx" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
             175.550s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
             175.550s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
             175.550s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: (combined from similar events): Error creating: pods "web-7b5c7c887c-cclzx" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
             350.171s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
             350.171s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
             350.171s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: (combined from similar events): Error creating: pods "web-7b5c7c887c-r9kff" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
             603.000s decide  deployment-controller updates status of Deployment web: 2 updated, 2 available, 3 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=2 availableReplicas=2 unavailableReplicas=1 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=False (ProgressDeadlineExceeded)
                             - ReplicaFailure=True (FailedCreate)
             699.251s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 2 Pod(s) for 3 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
             699.251s api     kube-controller-manager POST /api/v1/namespaces/default/pods → 403 Forbidden
             699.251s event   Warning FailedCreate ReplicaSet/default/web-7b5c7c887c: (combined from similar events): Error creating: pods "web-7b5c7c887c-vfhtx" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
            == events
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-6lv2x
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-cnktv
              0.000s Warning FailedCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Error creating: pods "web-7b5c7c887c-s55wx" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
              0.000s Warning FailedCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Error creating: pods "web-7b5c7c887c-n6nqm" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
              0.000s Warning FailedCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Error creating: pods "web-7b5c7c887c-hmszv" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
              0.000s Warning FailedCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Error creating: pods "web-7b5c7c887c-cp8xt" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
              0.000s Warning FailedCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Error creating: pods "web-7b5c7c887c-w529w" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
              0.000s Warning FailedCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Error creating: pods "web-7b5c7c887c-vhwvg" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
              0.000s Warning FailedCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Error creating: pods "web-7b5c7c887c-ksqj7" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
              0.000s Warning FailedCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Error creating: pods "web-7b5c7c887c-t5rx5" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
              0.000s Warning FailedCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Error creating: pods "web-7b5c7c887c-4qnj9" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
              0.000s Warning FailedCreate ReplicaSet/web-7b5c7c887c (x13) from replicaset-controller: (combined from similar events): Error creating: pods "web-7b5c7c887c-vfhtx" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2
              0.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled up replica set web-7b5c7c887c from 0 to 3
            == objects (at 700.000s)
            Deployment default/web gen=1 revision=1
                status: observedGeneration=1 replicas=2 updated=2 ready=2 available=2 unavailable=1 terminating=0
                conditions: Available=False/MinimumReplicasUnavailable "Deployment does not have minimum availability."
                            ReplicaFailure=True/FailedCreate "pods "web-7b5c7c887c-s55wx" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2"
                            Progressing=False/ProgressDeadlineExceeded "ReplicaSet "web-7b5c7c887c" has timed out progressing."
            Pod default/web-7b5c7c887c-6lv2x owner=ReplicaSet/web-7b5c7c887c controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c} node=worker-1 phase=Running ready=true
            Pod default/web-7b5c7c887c-cnktv owner=ReplicaSet/web-7b5c7c887c controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c} node=worker-2 phase=Running ready=true
            ReplicaSet default/web-7b5c7c887c owner=Deployment/web controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c}
                selector=app=web,pod-template-hash=7b5c7c887c annotations={desired-replicas=3,max-replicas=4,revision=1}
                spec.replicas=3 status: replicas=2 fullyLabeled=2 ready=2 available=2 terminating=0 observedGeneration=1
                conditions: ReplicaFailure=True/FailedCreate "pods "web-7b5c7c887c-s55wx" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2"
            ResourceQuota default/pods-quota
        "#]],
    );
}

const JOB: &str = "
apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  completions: 2
  parallelism: 2
  template:
    metadata:
      annotations: {podlab.test/run-seconds: '5'}
    spec:
      restartPolicy: Never
      containers:
      - name: pi
        image: perl:5.34
        command: [perl, -Mbignum=bpi, -wle, print bpi(200)]
";

#[test]
fn job_runs_to_completion() {
    check(
        TWO_NODES,
        &format!("@@limit 60s\n@0 apply\n{JOB}"),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.002s decide  job-controller creates 2 Pod(s) for Job pi
                             - create 2 Pod(s) with generateName pi- and finalizer batch.kubernetes.io/job-tracking
               0.002s event   Normal SuccessfulCreate Job/default/pi: Created pod: pi-pd876
               0.002s event   Normal SuccessfulCreate Job/default/pi: Created pod: pi-78dn7
               0.002s decide  job-controller updates status of Job pi
                             - PUT status: active=2 ready=0 succeeded=0 failed=0 uncountedTerminatedPods={}
               0.006s         (test scheduler) binds Pod default/pi-pd876 to worker-1
               0.006s         (test scheduler) binds Pod default/pi-78dn7 to worker-2
               2.006s         (test kubelet) Pod default/pi-pd876 Running on worker-1, IP 10.244.1.2, Ready
               2.006s         (test kubelet) Pod default/pi-78dn7 Running on worker-2, IP 10.244.2.2, Ready
               3.006s decide  job-controller updates status of Job pi
                             - PUT status: active=2 ready=2 succeeded=0 failed=0 uncountedTerminatedPods={}
               7.006s         (test kubelet) Pod default/pi-pd876 Succeeded (exit code 0)
               7.006s         (test kubelet) Pod default/pi-78dn7 Succeeded (exit code 0)
               8.006s decide  job-controller records finished Pods of Job pi as uncounted
                             - Pod pi-78dn7 succeeded
                             - Pod pi-pd876 succeeded
                             - PUT status: active=0 ready=0 succeeded=0 failed=0 uncountedTerminatedPods={succeeded: 2 UID(s)}
                             - condition SuccessCriteriaMet=True (CompletionsReached)
               8.006s decide  job-controller removes the tracking finalizer of 2 finished Pod(s)
                             - remove finalizer batch.kubernetes.io/job-tracking from Pod pi-78dn7
                             - remove finalizer batch.kubernetes.io/job-tracking from Pod pi-pd876
               8.006s decide  job-controller marks Job pi Complete
                             - PUT status: active=0 succeeded=2 failed=0 uncountedTerminatedPods={}
                             - condition Complete=True (CompletionsReached)
                             - completionTime set
               8.006s event   Normal Completed Job/default/pi: Job completed
            == events
              0.000s Normal SuccessfulCreate Job/pi from job-controller: Created pod: pi-pd876
              0.000s Normal SuccessfulCreate Job/pi from job-controller: Created pod: pi-78dn7
              8.000s Normal Completed Job/pi from job-controller: Job completed
            == objects (at 60.000s)
            Job default/pi
                status: active=0 ready=0 succeeded=2 failed=0 terminating=0 uncountedTerminatedPods={} startTime=0.000s completionTime=8.000s
                conditions: SuccessCriteriaMet=True/CompletionsReached "Reached expected number of succeeded pods"
                            Complete=True/CompletionsReached "Reached expected number of succeeded pods"
            Pod default/pi-78dn7 owner=Job/pi controller blockOwnerDeletion labels={batch.kubernetes.io/controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,batch.kubernetes.io/job-name=pi,controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,job-name=pi} node=worker-2 phase=Succeeded ready=false
            Pod default/pi-pd876 owner=Job/pi controller blockOwnerDeletion labels={batch.kubernetes.io/controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,batch.kubernetes.io/job-name=pi,controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,job-name=pi} node=worker-1 phase=Succeeded ready=false
        "#]],
    );
}

#[test]
fn a_job_with_a_manual_selector_adopts_a_matching_orphan_pod() {
    // The orphan gets the Job as controller and the tracking finalizer in one PATCH (the
    // job-controller role may patch Pods, not update them); the Job counts it and creates only
    // the second Pod.
    check(
        TWO_NODES,
        "
@@limit 30s
@0 apply
apiVersion: v1
kind: Pod
metadata:
  name: early
  labels: {run: batch}
spec:
  restartPolicy: Never
  containers:
  - {name: work, image: busybox:1.36, command: [sleep, '30']}
@5s apply
apiVersion: batch/v1
kind: Job
metadata:
  name: batch
spec:
  completions: 2
  parallelism: 2
  manualSelector: true
  selector:
    matchLabels: {run: batch}
  template:
    metadata:
      labels: {run: batch}
    spec:
      restartPolicy: Never
      containers:
      - {name: work, image: busybox:1.36}
",
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.004s         (test scheduler) binds Pod default/early to worker-1
               2.004s         (test kubelet) Pod default/early Running on worker-1, IP 10.244.1.2, Ready
               5.000s         kubectl apply
               5.002s decide  job-controller creates 1 Pod(s) for Job batch
                             - create 1 Pod(s) with generateName batch- and finalizer batch.kubernetes.io/job-tracking
               5.002s event   Normal SuccessfulCreate Job/default/batch: Created pod: batch-6lv2x
               5.002s decide  job-controller updates status of Job batch
                             - PUT status: active=2 ready=1 succeeded=0 failed=0 uncountedTerminatedPods={}
               5.006s         (test scheduler) binds Pod default/batch-6lv2x to worker-2
               7.006s         (test kubelet) Pod default/batch-6lv2x Running on worker-2, IP 10.244.2.2, Ready
               8.006s decide  job-controller updates status of Job batch
                             - PUT status: active=2 ready=2 succeeded=0 failed=0 uncountedTerminatedPods={}
            == events
              5.000s Normal SuccessfulCreate Job/batch from job-controller: Created pod: batch-6lv2x
            == objects (at 30.000s)
            Job default/batch
                status: active=2 ready=2 succeeded=0 failed=0 terminating=0 uncountedTerminatedPods={} startTime=5.000s completionTime=-
            Pod default/batch-6lv2x owner=Job/batch controller blockOwnerDeletion labels={run=batch} finalizers=[batch.kubernetes.io/job-tracking] node=worker-2 phase=Running ready=true
            Pod default/early owner=Job/batch controller blockOwnerDeletion labels={run=batch} finalizers=[batch.kubernetes.io/job-tracking] node=worker-1 phase=Running ready=true
        "#]],
    );
}

#[test]
fn indexed_job_names_its_pods_by_index_and_counts_completed_indexes() {
    // completions 3, parallelism 2: indexes 0 and 1 first, index 2 once a Pod finishes.
    let job =
        JOB.replace("completions: 2\n  parallelism: 2", "completions: 3\n  parallelism: 2\n  completionMode: Indexed");
    check(
        TWO_NODES,
        &format!("@@limit 60s\n@0 apply\n{job}"),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.002s decide  job-controller creates 2 Pod(s) for Indexed Job pi
                             - create Pod for index 0 with generateName pi-0-, hostname pi-0, batch.kubernetes.io/job-completion-index=0 and finalizer batch.kubernetes.io/job-tracking
                             - create Pod for index 1 with generateName pi-1-, hostname pi-1, batch.kubernetes.io/job-completion-index=1 and finalizer batch.kubernetes.io/job-tracking
               0.002s event   Normal SuccessfulCreate Job/default/pi: Created pod: pi-0-pd876
               0.002s event   Normal SuccessfulCreate Job/default/pi: Created pod: pi-1-78dn7
               0.002s decide  job-controller updates status of Job pi
                             - PUT status: active=2 ready=0 succeeded=0 failed=0 uncountedTerminatedPods={}
               0.006s         (test scheduler) binds Pod default/pi-0-pd876 to worker-1
               0.006s         (test scheduler) binds Pod default/pi-1-78dn7 to worker-2
               2.006s         (test kubelet) Pod default/pi-0-pd876 Running on worker-1, IP 10.244.1.2, Ready
               2.006s         (test kubelet) Pod default/pi-1-78dn7 Running on worker-2, IP 10.244.2.2, Ready
               3.006s decide  job-controller updates status of Job pi
                             - PUT status: active=2 ready=2 succeeded=0 failed=0 uncountedTerminatedPods={}
               7.006s         (test kubelet) Pod default/pi-0-pd876 Succeeded (exit code 0)
               7.006s         (test kubelet) Pod default/pi-1-78dn7 Succeeded (exit code 0)
               8.006s decide  job-controller creates 1 Pod(s) for Indexed Job pi
                             - create Pod for index 2 with generateName pi-2-, hostname pi-2, batch.kubernetes.io/job-completion-index=2 and finalizer batch.kubernetes.io/job-tracking
               8.006s event   Normal SuccessfulCreate Job/default/pi: Created pod: pi-2-gw7nc
               8.006s decide  job-controller records the completed indexes of Job pi
                             - Pod pi-0-pd876 succeeded: index 0 completed
                             - Pod pi-1-78dn7 succeeded: index 1 completed
                             - PUT status: active=1 ready=0 succeeded=2 failed=0 completedIndexes=0,1 uncountedTerminatedPods={}
               8.006s decide  job-controller removes the tracking finalizer of 2 finished Pod(s)
                             - remove finalizer batch.kubernetes.io/job-tracking from Pod pi-0-pd876
                             - remove finalizer batch.kubernetes.io/job-tracking from Pod pi-1-78dn7
               8.010s         (test scheduler) binds Pod default/pi-2-gw7nc to worker-1
              10.010s         (test kubelet) Pod default/pi-2-gw7nc Running on worker-1, IP 10.244.1.3, Ready
              11.010s decide  job-controller updates status of Job pi
                             - PUT status: active=1 ready=1 succeeded=2 failed=0 completedIndexes=0,1 uncountedTerminatedPods={}
              15.010s         (test kubelet) Pod default/pi-2-gw7nc Succeeded (exit code 0)
              16.010s decide  job-controller records the completed indexes of Job pi
                             - Pod pi-2-gw7nc succeeded: index 2 completed
                             - PUT status: active=0 ready=0 succeeded=3 failed=0 completedIndexes=0-2 uncountedTerminatedPods={}
                             - condition SuccessCriteriaMet=True (CompletionsReached)
              16.010s decide  job-controller removes the tracking finalizer of 1 finished Pod(s)
                             - remove finalizer batch.kubernetes.io/job-tracking from Pod pi-2-gw7nc
              16.010s decide  job-controller marks Job pi Complete
                             - PUT status: active=0 succeeded=3 failed=0 completedIndexes=0-2 uncountedTerminatedPods={}
                             - condition Complete=True (CompletionsReached)
                             - completionTime set
              16.010s event   Normal Completed Job/default/pi: Job completed
            == events
              0.000s Normal SuccessfulCreate Job/pi from job-controller: Created pod: pi-0-pd876
              0.000s Normal SuccessfulCreate Job/pi from job-controller: Created pod: pi-1-78dn7
              8.000s Normal SuccessfulCreate Job/pi from job-controller: Created pod: pi-2-gw7nc
             16.000s Normal Completed Job/pi from job-controller: Job completed
            == objects (at 60.000s)
            Job default/pi
                status: active=0 ready=0 succeeded=3 failed=0 terminating=0 uncountedTerminatedPods={} startTime=0.000s completionTime=16.000s
                conditions: SuccessCriteriaMet=True/CompletionsReached "Reached expected number of succeeded pods"
                            Complete=True/CompletionsReached "Reached expected number of succeeded pods"
            Pod default/pi-0-pd876 owner=Job/pi controller blockOwnerDeletion labels={batch.kubernetes.io/controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,batch.kubernetes.io/job-completion-index=0,batch.kubernetes.io/job-name=pi,controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,job-name=pi} node=worker-1 phase=Succeeded ready=false
            Pod default/pi-1-78dn7 owner=Job/pi controller blockOwnerDeletion labels={batch.kubernetes.io/controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,batch.kubernetes.io/job-completion-index=1,batch.kubernetes.io/job-name=pi,controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,job-name=pi} node=worker-2 phase=Succeeded ready=false
            Pod default/pi-2-gw7nc owner=Job/pi controller blockOwnerDeletion labels={batch.kubernetes.io/controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,batch.kubernetes.io/job-completion-index=2,batch.kubernetes.io/job-name=pi,controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,job-name=pi} node=worker-1 phase=Succeeded ready=false
        "#]],
    );
}

#[test]
fn job_fails_after_its_backoff_limit() {
    // backoffLimit 2: the first Pod and two retries fail; the retries wait 10 s and 20 s
    // after the previous failure.
    let job = JOB
        .replace("completions: 2\n  parallelism: 2", "backoffLimit: 2")
        .replace("podlab.test/run-seconds: '5'", "podlab.test/run-seconds: '3', podlab.test/exit-code: '1'");
    check(
        TWO_NODES,
        &format!("@@limit 120s\n@0 apply\n{job}"),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.002s decide  job-controller creates 1 Pod(s) for Job pi
                             - create 1 Pod(s) with generateName pi- and finalizer batch.kubernetes.io/job-tracking
               0.002s event   Normal SuccessfulCreate Job/default/pi: Created pod: pi-pd876
               0.002s decide  job-controller updates status of Job pi
                             - PUT status: active=1 ready=0 succeeded=0 failed=0 uncountedTerminatedPods={}
               0.006s         (test scheduler) binds Pod default/pi-pd876 to worker-1
               2.006s         (test kubelet) Pod default/pi-pd876 Running on worker-1, IP 10.244.1.2, Ready
               3.006s decide  job-controller updates status of Job pi
                             - PUT status: active=1 ready=1 succeeded=0 failed=0 uncountedTerminatedPods={}
               5.006s         (test kubelet) Pod default/pi-pd876 Failed (exit code 1)
               6.006s decide  job-controller waits 8.994s before re-creating a Pod of Job pi (back-off)
                             - requeue the Job in 8.994s
               6.006s decide  job-controller records finished Pods of Job pi as uncounted
                             - Pod pi-pd876 failed
                             - PUT status: active=0 ready=0 succeeded=0 failed=0 uncountedTerminatedPods={failed: 1 UID(s)}
               6.006s decide  job-controller removes the tracking finalizer of 1 finished Pod(s)
                             - remove finalizer batch.kubernetes.io/job-tracking from Pod pi-pd876
               6.006s decide  job-controller counts the finished Pods of Job pi
                             - PUT status: active=0 succeeded=0 failed=1 uncountedTerminatedPods={}
               7.006s decide  job-controller waits 7.994s before re-creating a Pod of Job pi (back-off)
                             - requeue the Job in 7.994s
              15.000s decide  job-controller creates 1 Pod(s) for Job pi
                             - create 1 Pod(s) with generateName pi- and finalizer batch.kubernetes.io/job-tracking
              15.000s event   Normal SuccessfulCreate Job/default/pi: Created pod: pi-78dn7
              15.000s decide  job-controller updates status of Job pi
                             - PUT status: active=1 ready=0 succeeded=0 failed=1 uncountedTerminatedPods={}
              15.004s         (test scheduler) binds Pod default/pi-78dn7 to worker-1
              17.004s         (test kubelet) Pod default/pi-78dn7 Running on worker-1, IP 10.244.1.3, Ready
              18.004s decide  job-controller updates status of Job pi
                             - PUT status: active=1 ready=1 succeeded=0 failed=1 uncountedTerminatedPods={}
              20.004s         (test kubelet) Pod default/pi-78dn7 Failed (exit code 1)
              21.004s decide  job-controller waits 18.996s before re-creating a Pod of Job pi (back-off)
                             - requeue the Job in 18.996s
              21.004s decide  job-controller records finished Pods of Job pi as uncounted
                             - Pod pi-78dn7 failed
                             - PUT status: active=0 ready=0 succeeded=0 failed=1 uncountedTerminatedPods={failed: 1 UID(s)}
              21.004s decide  job-controller removes the tracking finalizer of 1 finished Pod(s)
                             - remove finalizer batch.kubernetes.io/job-tracking from Pod pi-78dn7
              21.004s decide  job-controller counts the finished Pods of Job pi
                             - PUT status: active=0 succeeded=0 failed=2 uncountedTerminatedPods={}
              22.004s decide  job-controller waits 17.996s before re-creating a Pod of Job pi (back-off)
                             - requeue the Job in 17.996s
              40.000s decide  job-controller creates 1 Pod(s) for Job pi
                             - create 1 Pod(s) with generateName pi- and finalizer batch.kubernetes.io/job-tracking
              40.000s event   Normal SuccessfulCreate Job/default/pi: Created pod: pi-gw7nc
              40.000s decide  job-controller updates status of Job pi
                             - PUT status: active=1 ready=0 succeeded=0 failed=2 uncountedTerminatedPods={}
              40.004s         (test scheduler) binds Pod default/pi-gw7nc to worker-1
              42.004s         (test kubelet) Pod default/pi-gw7nc Running on worker-1, IP 10.244.1.4, Ready
              43.004s decide  job-controller updates status of Job pi
                             - PUT status: active=1 ready=1 succeeded=0 failed=2 uncountedTerminatedPods={}
              45.004s         (test kubelet) Pod default/pi-gw7nc Failed (exit code 1)
              46.004s decide  job-controller records finished Pods of Job pi as uncounted
                             - Pod pi-gw7nc failed
                             - PUT status: active=0 ready=0 succeeded=0 failed=2 uncountedTerminatedPods={failed: 1 UID(s)}
                             - condition FailureTarget=True (BackoffLimitExceeded)
              46.004s decide  job-controller removes the tracking finalizer of 1 finished Pod(s)
                             - remove finalizer batch.kubernetes.io/job-tracking from Pod pi-gw7nc
              46.004s decide  job-controller marks Job pi Failed (BackoffLimitExceeded)
                             - PUT status: active=0 succeeded=0 failed=3 uncountedTerminatedPods={}
                             - condition Failed=True (BackoffLimitExceeded)
              46.004s event   Warning BackoffLimitExceeded Job/default/pi: Job has reached the specified backoff limit
            == events
              0.000s Normal SuccessfulCreate Job/pi from job-controller: Created pod: pi-pd876
             15.000s Normal SuccessfulCreate Job/pi from job-controller: Created pod: pi-78dn7
             40.000s Normal SuccessfulCreate Job/pi from job-controller: Created pod: pi-gw7nc
             46.000s Warning BackoffLimitExceeded Job/pi from job-controller: Job has reached the specified backoff limit
            == objects (at 120.000s)
            Job default/pi
                status: active=0 ready=0 succeeded=0 failed=3 terminating=0 uncountedTerminatedPods={} startTime=0.000s completionTime=-
                conditions: FailureTarget=True/BackoffLimitExceeded "Job has reached the specified backoff limit"
                            Failed=True/BackoffLimitExceeded "Job has reached the specified backoff limit"
            Pod default/pi-78dn7 owner=Job/pi controller blockOwnerDeletion labels={batch.kubernetes.io/controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,batch.kubernetes.io/job-name=pi,controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,job-name=pi} node=worker-1 phase=Failed ready=false
            Pod default/pi-gw7nc owner=Job/pi controller blockOwnerDeletion labels={batch.kubernetes.io/controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,batch.kubernetes.io/job-name=pi,controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,job-name=pi} node=worker-1 phase=Failed ready=false
            Pod default/pi-pd876 owner=Job/pi controller blockOwnerDeletion labels={batch.kubernetes.io/controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,batch.kubernetes.io/job-name=pi,controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,job-name=pi} node=worker-1 phase=Failed ready=false
        "#]],
    );
}

#[test]
fn endpointslices_list_ready_and_not_ready_pods() {
    // Service web selects app=web: two ready Pods and one canary that runs but is not
    // Ready (it is listed with ready: false). Its targetPort is the named port http,
    // resolved per Pod. Service api selects app=apii (a typo): one empty placeholder slice.
    // Service external has no selector: no slice at all.
    let pod = |name: &str, extra: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  labels: {{app: web}}\n{extra}spec:\n  containers:\n  - name: web\n    image: nginx:1.29\n    ports:\n    - {{name: http, containerPort: 8080}}\n"
        )
    };
    let services = "
apiVersion: v1
kind: Service
metadata:
  name: web
  labels: {app: web}
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: http}
---
apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  selector: {app: apii}
  ports:
  - {port: 8080}
---
apiVersion: v1
kind: Service
metadata:
  name: external
spec:
  ports:
  - {port: 443}
";
    check(
        TWO_NODES,
        &format!(
            "@@limit 30s\n@0 apply\n{services}\n@1s apply\n{}---\n{}---\n{}",
            pod("web-1", ""),
            pod("web-2", ""),
            pod("web-canary", "  annotations: {podlab.test/ready: 'false'}\n")
        ),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.002s decide  endpointslice-controller: Service web selects no Pod with an IP: its EndpointSlice has no endpoints
                             - create EndpointSlice (generateName web-): no endpoints (placeholder)
               0.002s decide  endpoint-controller creates Endpoints web: 0 ready, 0 not ready address(es)
                             - POST Endpoints web
               0.002s decide  endpointslice-controller: Service api selects no Pod with an IP: its EndpointSlice has no endpoints
                             - create EndpointSlice (generateName api-): no endpoints (placeholder)
               0.002s decide  endpoint-controller creates Endpoints api: 0 ready, 0 not ready address(es)
                             - POST Endpoints api
               1.000s         kubectl apply
               1.004s         (test scheduler) binds Pod default/web-1 to worker-1
               1.004s         (test scheduler) binds Pod default/web-2 to worker-2
               1.004s         (test scheduler) binds Pod default/web-canary to worker-1
               3.004s         (test kubelet) Pod default/web-1 Running on worker-1, IP 10.244.1.2, Ready
               3.004s         (test kubelet) Pod default/web-2 Running on worker-2, IP 10.244.2.2, Ready
               3.004s         (test kubelet) Pod default/web-canary Running on worker-1, IP 10.244.1.3, not Ready
               3.006s decide  endpointslice-controller publishes 3 endpoint(s), 2 ready for Service web
                             - update EndpointSlice web-8766s: 3 endpoint(s), 2 ready
               3.006s decide  endpoint-controller updates Endpoints web: 2 ready, 1 not ready address(es)
                             - PUT Endpoints web
            == events
            == objects (at 30.000s)
            EndpointSlice default/api-xdmp7 owner=Service/api controller blockOwnerDeletion labels={endpointslice.kubernetes.io/managed-by=endpointslice-controller.k8s.io,kubernetes.io/service-name=api}
                addressType=IPv4 ports=[] lastChangeTriggerTime=2026-01-01T00:00:00Z endpoints: <none>
            EndpointSlice default/web-8766s owner=Service/web controller blockOwnerDeletion labels={app=web,endpointslice.kubernetes.io/managed-by=endpointslice-controller.k8s.io,kubernetes.io/service-name=web}
                addressType=IPv4 ports=[http:8080/TCP] lastChangeTriggerTime=2026-01-01T00:00:03Z endpoints:
                  10.244.1.2 ready=true serving=true terminating=false node=worker-1 zone=zone-a pod=web-1
                  10.244.2.2 ready=true serving=true terminating=false node=worker-2 zone=zone-b pod=web-2
                  10.244.1.3 ready=false serving=false terminating=false node=worker-1 zone=zone-a pod=web-canary
            Pod default/web-1 labels={app=web} node=worker-1 phase=Running ready=true
            Pod default/web-2 labels={app=web} node=worker-2 phase=Running ready=true
            Pod default/web-canary labels={app=web} node=worker-1 phase=Running ready=false
            Endpoints default/api labels={endpoints.kubernetes.io/managed-by=endpoint-controller} subsets=<none>
            Endpoints default/web labels={app=web,endpoints.kubernetes.io/managed-by=endpoint-controller} subsets=[{"addresses":[{"ip":"10.244.1.2","nodeName":"worker-1","targetRef":{"kind":"Pod","namespace":"default","name":"web-1","uid":"62184fda-effa-45c8-8857-c52e70ded4d2"}},{"ip":"10.244.2.2","nodeName":"worker-2","targetRef":{"kind":"Pod","namespace":"default","name":"web-2","uid":"2d0d723f-d185-4e5b-a4d4-f04889d20de1"}}],"notReadyAddresses":[{"ip":"10.244.1.3","nodeName":"worker-1","targetRef":{"kind":"Pod","namespace":"default","name":"web-canary","uid":"880e43ed-5da9-460f-93f1-83c986aec07e"}}],"ports":[{"port":8080,"protocol":"TCP","name":"http"}]}]
            Service default/api
            Service default/external
            Service default/web labels={app=web}
        "#]],
    );
}

#[test]
fn deleting_a_deployment_cascades_in_the_background() {
    check(
        TWO_NODES,
        &format!("@@limit 40s\n@0 apply\n{}\n@10s delete deployment/web\n", WEB.replace("replicas: 3", "replicas: 2")),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.003s decide  deployment-controller creates ReplicaSet web-7b5c7c887c with 2 replica(s)
                             - POST ReplicaSet web-7b5c7c887c (pod-template-hash 7b5c7c887c, revision 1)
                             - spec.replicas 2
               0.003s event   Normal ScalingReplicaSet Deployment/default/web: Scaled up replica set web-7b5c7c887c from 0 to 2
               0.003s decide  deployment-controller records revision 1 on Deployment web
                             - update status: annotation deployment.kubernetes.io/revision=1
                             - condition Progressing=True (NewReplicaSetCreated)
               0.003s decide  deployment-controller updates status of Deployment web: 0 updated, 0 available, 2 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=2 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetCreated)
               0.005s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 0 Pod(s) for 2 replica(s): creating 2
                             - create 2 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1, 1)
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-6s6lv
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-p9cnk
               0.005s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.007s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 2, ready 0, available 0
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-6s6lv to worker-1
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-p9cnk to worker-2
               0.010s decide  deployment-controller updates status of Deployment web: 2 updated, 0 available, 2 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=0 availableReplicas=0 unavailableReplicas=2 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (ReplicaSetUpdated)
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-6s6lv Running on worker-1, IP 10.244.1.2, Ready
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-p9cnk Running on worker-2, IP 10.244.2.2, Ready
               2.011s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 2, ready 2, available 2
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=2 availableReplicas=2 terminatingReplicas=0 observedGeneration=1
               2.014s decide  deployment-controller updates status of Deployment web: 2 updated, 2 available, 2 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=2 availableReplicas=2 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=1
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
              10.000s         kubectl delete deployment/web
              10.003s decide  garbage collector deletes ReplicaSet default/web-7b5c7c887c: its owner Deployment web no longer exists
                             - DELETE ReplicaSet default/web-7b5c7c887c with propagationPolicy=Background
              10.006s decide  garbage collector deletes Pod default/web-7b5c7c887c-6s6lv: its owner ReplicaSet web-7b5c7c887c no longer exists
                             - DELETE Pod default/web-7b5c7c887c-6s6lv with propagationPolicy=Background
              10.006s decide  garbage collector deletes Pod default/web-7b5c7c887c-p9cnk: its owner ReplicaSet web-7b5c7c887c no longer exists
                             - DELETE Pod default/web-7b5c7c887c-p9cnk with propagationPolicy=Background
              11.006s         (test kubelet) Pod default/web-7b5c7c887c-6s6lv stopped and removed
              11.006s         (test kubelet) Pod default/web-7b5c7c887c-p9cnk stopped and removed
            == events
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-6s6lv
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-p9cnk
              0.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled up replica set web-7b5c7c887c from 0 to 2
            == objects (at 40.000s)
        "#]],
    );
}

#[test]
fn foreground_deletion_removes_the_owner_last() {
    check(
        TWO_NODES,
        &format!(
            "@@limit 40s\n@0 apply\n{}\n@10s delete deployment/web foreground\n",
            WEB.replace("replicas: 3", "replicas: 2")
        ),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.003s decide  deployment-controller creates ReplicaSet web-7b5c7c887c with 2 replica(s)
                             - POST ReplicaSet web-7b5c7c887c (pod-template-hash 7b5c7c887c, revision 1)
                             - spec.replicas 2
               0.003s event   Normal ScalingReplicaSet Deployment/default/web: Scaled up replica set web-7b5c7c887c from 0 to 2
               0.003s decide  deployment-controller records revision 1 on Deployment web
                             - update status: annotation deployment.kubernetes.io/revision=1
                             - condition Progressing=True (NewReplicaSetCreated)
               0.003s decide  deployment-controller updates status of Deployment web: 0 updated, 0 available, 2 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=2 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetCreated)
               0.005s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 0 Pod(s) for 2 replica(s): creating 2
                             - create 2 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1, 1)
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-6s6lv
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-p9cnk
               0.005s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.007s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 2, ready 0, available 0
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-6s6lv to worker-1
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-p9cnk to worker-2
               0.010s decide  deployment-controller updates status of Deployment web: 2 updated, 0 available, 2 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=0 availableReplicas=0 unavailableReplicas=2 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (ReplicaSetUpdated)
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-6s6lv Running on worker-1, IP 10.244.1.2, Ready
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-p9cnk Running on worker-2, IP 10.244.2.2, Ready
               2.011s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 2, ready 2, available 2
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=2 availableReplicas=2 terminatingReplicas=0 observedGeneration=1
               2.014s decide  deployment-controller updates status of Deployment web: 2 updated, 2 available, 2 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=2 availableReplicas=2 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=1
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
              10.000s         kubectl delete deployment/web foreground
              10.003s decide  garbage collector deletes ReplicaSet default/web-7b5c7c887c: its owner Deployment web is being deleted in the foreground
                             - DELETE ReplicaSet default/web-7b5c7c887c with propagationPolicy=Foreground
              10.006s decide  garbage collector deletes Pod default/web-7b5c7c887c-6s6lv: its owner ReplicaSet web-7b5c7c887c is being deleted in the foreground
                             - DELETE Pod default/web-7b5c7c887c-6s6lv with propagationPolicy=Background
              10.006s decide  garbage collector deletes Pod default/web-7b5c7c887c-p9cnk: its owner ReplicaSet web-7b5c7c887c is being deleted in the foreground
                             - DELETE Pod default/web-7b5c7c887c-p9cnk with propagationPolicy=Background
              10.008s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=2 observedGeneration=1
              10.011s decide  deployment-controller updates status of Deployment web: 0 updated, 0 available, 2 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=2 terminatingReplicas=2 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetAvailable)
              11.006s         (test kubelet) Pod default/web-7b5c7c887c-6s6lv stopped and removed
              11.006s         (test kubelet) Pod default/web-7b5c7c887c-p9cnk stopped and removed
              11.008s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
              11.009s decide  garbage collector removes the foregroundDeletion finalizer from ReplicaSet default/web-7b5c7c887c
                             - remove finalizer foregroundDeletion
              11.011s decide  deployment-controller updates status of Deployment web: 0 updated, 0 available, 2 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetAvailable)
              11.012s decide  garbage collector removes the foregroundDeletion finalizer from Deployment default/web
                             - remove finalizer foregroundDeletion
            == events
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-6s6lv
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-p9cnk
              0.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled up replica set web-7b5c7c887c from 0 to 2
            == objects (at 40.000s)
        "#]],
    );
}

#[test]
fn orphan_deletion_keeps_the_replicaset() {
    check(
        TWO_NODES,
        &format!(
            "@@limit 40s\n@0 apply\n{}\n@10s delete deployment/web orphan\n",
            WEB.replace("replicas: 3", "replicas: 1")
        ),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.003s decide  deployment-controller creates ReplicaSet web-7b5c7c887c with 1 replica(s)
                             - POST ReplicaSet web-7b5c7c887c (pod-template-hash 7b5c7c887c, revision 1)
                             - spec.replicas 1
               0.003s event   Normal ScalingReplicaSet Deployment/default/web: Scaled up replica set web-7b5c7c887c from 0 to 1
               0.003s decide  deployment-controller records revision 1 on Deployment web
                             - update status: annotation deployment.kubernetes.io/revision=1
                             - condition Progressing=True (NewReplicaSetCreated)
               0.003s decide  deployment-controller updates status of Deployment web: 0 updated, 0 available, 1 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=1 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetCreated)
               0.005s decide  replicaset-controller: ReplicaSet web-7b5c7c887c has 0 Pod(s) for 1 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-7b5c7c887c- (slow start: batches of 1)
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-7b5c7c887c: Created pod: web-7b5c7c887c-6s6lv
               0.005s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.007s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 1, ready 0, available 0
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.009s         (test scheduler) binds Pod default/web-7b5c7c887c-6s6lv to worker-1
               0.010s decide  deployment-controller updates status of Deployment web: 1 updated, 0 available, 1 wanted
                             - PUT status: replicas=1 updatedReplicas=1 readyReplicas=0 availableReplicas=0 unavailableReplicas=1 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (ReplicaSetUpdated)
               2.009s         (test kubelet) Pod default/web-7b5c7c887c-6s6lv Running on worker-1, IP 10.244.1.2, Ready
               2.011s decide  replicaset-controller updates status of ReplicaSet web-7b5c7c887c: replicas 1, ready 1, available 1
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=1 availableReplicas=1 terminatingReplicas=0 observedGeneration=1
               2.014s decide  deployment-controller updates status of Deployment web: 1 updated, 1 available, 1 wanted
                             - PUT status: replicas=1 updatedReplicas=1 readyReplicas=1 availableReplicas=1 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=1
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
              10.000s         kubectl delete deployment/web orphan
              10.003s decide  garbage collector orphans the 1 dependent(s) of Deployment default/web
                             - remove the owner reference of ReplicaSet default/web-7b5c7c887c
                             - remove finalizer orphan
            == events
              0.000s Normal SuccessfulCreate ReplicaSet/web-7b5c7c887c from replicaset-controller: Created pod: web-7b5c7c887c-6s6lv
              0.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled up replica set web-7b5c7c887c from 0 to 1
            == objects (at 40.000s)
            Pod default/web-7b5c7c887c-6s6lv owner=ReplicaSet/web-7b5c7c887c controller blockOwnerDeletion labels={app=web,pod-template-hash=7b5c7c887c} node=worker-1 phase=Running ready=true
            ReplicaSet default/web-7b5c7c887c labels={app=web,pod-template-hash=7b5c7c887c}
                selector=app=web,pod-template-hash=7b5c7c887c annotations={desired-replicas=1,max-replicas=2,revision=1}
                spec.replicas=1 status: replicas=1 fullyLabeled=1 ready=1 available=1 terminating=0 observedGeneration=1
        "#]],
    );
}

#[test]
fn a_node_that_stops_heartbeating_loses_its_pods_after_300s() {
    // worker-2's kubelet stops at 60 s. 50 s without a heartbeat later the node is
    // Unknown and tainted; its Pod tolerates unreachable:NoExecute for 300 s (the
    // toleration DefaultTolerationSeconds adds), then it is evicted and replaced on
    // worker-1. The old Pod stays Terminating: nobody on worker-2 finishes it.
    let web = WEB.replace("replicas: 3", "replicas: 2").replace(
        "      containers:",
        "      tolerations:
      - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
      containers:",
    );
    check(
        "
nodes:
- name: worker-1
- name: worker-2
  kubelet: {stopAt: 60s}
",
        &format!("@@limit 480s\n@@without endpointslice-controller,endpoints-controller\n@0 apply\n{web}"),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.003s decide  deployment-controller creates ReplicaSet web-89ddf7844 with 2 replica(s)
                             - POST ReplicaSet web-89ddf7844 (pod-template-hash 89ddf7844, revision 1)
                             - spec.replicas 2
               0.003s event   Normal ScalingReplicaSet Deployment/default/web: Scaled up replica set web-89ddf7844 from 0 to 2
               0.003s decide  deployment-controller records revision 1 on Deployment web
                             - update status: annotation deployment.kubernetes.io/revision=1
                             - condition Progressing=True (NewReplicaSetCreated)
               0.003s decide  deployment-controller updates status of Deployment web: 0 updated, 0 available, 2 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=2 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetCreated)
               0.005s decide  replicaset-controller: ReplicaSet web-89ddf7844 has 0 Pod(s) for 2 replica(s): creating 2
                             - create 2 Pod(s) from the template with generateName web-89ddf7844- (slow start: batches of 1, 1)
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-89ddf7844: Created pod: web-89ddf7844-6s6lv
               0.005s event   Normal SuccessfulCreate ReplicaSet/default/web-89ddf7844: Created pod: web-89ddf7844-p9cnk
               0.005s decide  replicaset-controller updates status of ReplicaSet web-89ddf7844: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.007s decide  replicaset-controller updates status of ReplicaSet web-89ddf7844: replicas 2, ready 0, available 0
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.009s         (test scheduler) binds Pod default/web-89ddf7844-6s6lv to worker-1
               0.009s         (test scheduler) binds Pod default/web-89ddf7844-p9cnk to worker-2
               0.010s decide  deployment-controller updates status of Deployment web: 2 updated, 0 available, 2 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=0 availableReplicas=0 unavailableReplicas=2 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (ReplicaSetUpdated)
               2.009s         (test kubelet) Pod default/web-89ddf7844-6s6lv Running on worker-1, IP 10.244.1.2, Ready
               2.009s         (test kubelet) Pod default/web-89ddf7844-p9cnk Running on worker-2, IP 10.244.2.2, Ready
               2.011s decide  replicaset-controller updates status of ReplicaSet web-89ddf7844: replicas 2, ready 2, available 2
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=2 availableReplicas=2 terminatingReplicas=0 observedGeneration=1
               2.014s decide  deployment-controller updates status of Deployment web: 2 updated, 2 available, 2 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=2 availableReplicas=2 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=1
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
             105.000s decide  node-lifecycle-controller: no heartbeat from worker-2 for 55s, Ready becomes Unknown
                             - set Ready, MemoryPressure, DiskPressure, PIDPressure to Unknown (NodeStatusUnknown: Kubelet stopped posting node status.)
                             - mark the Pods on worker-2 not ready
                             - queue worker-2 for the node.kubernetes.io/unreachable:NoExecute taint
             105.000s event   Normal NodeNotReady Node/worker-2: Node worker-2 status is now: NodeNotReady
             105.000s event   Warning NodeNotReady Pod/default/web-89ddf7844-p9cnk: Node is not ready
             105.002s decide  node-lifecycle-controller updates the taints of worker-2: add taint node.kubernetes.io/unreachable:NoSchedule
                             - add taint node.kubernetes.io/unreachable:NoSchedule
             105.002s decide  replicaset-controller updates status of ReplicaSet web-89ddf7844: replicas 2, ready 1, available 1
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=1 availableReplicas=1 terminatingReplicas=0 observedGeneration=1
             105.005s decide  deployment-controller updates status of Deployment web: 2 updated, 1 available, 2 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=1 availableReplicas=1 unavailableReplicas=1 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetAvailable)
             105.100s decide  node-lifecycle-controller updates the taints of worker-2: add taint node.kubernetes.io/unreachable:NoExecute
                             - add taint node.kubernetes.io/unreachable:NoExecute
             105.102s decide  taint-eviction-controller: Pod default/web-89ddf7844-p9cnk tolerates node.kubernetes.io/unreachable:NoExecute for 5m0s: delete it then
                             - schedule the deletion of Pod default/web-89ddf7844-p9cnk in 5m0s
             405.102s event   Normal TaintManagerEviction Pod/default/web-89ddf7844-p9cnk: Marking for deletion Pod default/web-89ddf7844-p9cnk
             405.102s decide  taint-eviction-controller deletes Pod default/web-89ddf7844-p9cnk
                             - add condition DisruptionTarget=True (DeletionByTaintManager: Taint manager: deleting due to NoExecute taint)
                             - DELETE Pod default/web-89ddf7844-p9cnk
             405.104s decide  replicaset-controller: ReplicaSet web-89ddf7844 has 1 Pod(s) for 2 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName web-89ddf7844- (slow start: batches of 1)
             405.104s event   Normal SuccessfulCreate ReplicaSet/default/web-89ddf7844: Created pod: web-89ddf7844-jthrm
             405.104s decide  replicaset-controller updates status of ReplicaSet web-89ddf7844: replicas 1, ready 1, available 1
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=1 availableReplicas=1 terminatingReplicas=1 observedGeneration=1
             405.106s decide  replicaset-controller updates status of ReplicaSet web-89ddf7844: replicas 2, ready 1, available 1
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=1 availableReplicas=1 terminatingReplicas=1 observedGeneration=1
             405.107s decide  deployment-controller updates status of Deployment web: 2 updated, 1 available, 2 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=1 availableReplicas=1 unavailableReplicas=1 terminatingReplicas=1 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetAvailable)
             405.108s         (test scheduler) binds Pod default/web-89ddf7844-jthrm to worker-1
             407.108s         (test kubelet) Pod default/web-89ddf7844-jthrm Running on worker-1, IP 10.244.1.3, Ready
             407.110s decide  replicaset-controller updates status of ReplicaSet web-89ddf7844: replicas 2, ready 2, available 2
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=2 availableReplicas=2 terminatingReplicas=1 observedGeneration=1
             407.113s decide  deployment-controller updates status of Deployment web: 2 updated, 2 available, 2 wanted
                             - PUT status: replicas=2 updatedReplicas=2 readyReplicas=2 availableReplicas=2 unavailableReplicas=0 terminatingReplicas=1 observedGeneration=1
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
            == events
              0.000s Normal SuccessfulCreate ReplicaSet/web-89ddf7844 from replicaset-controller: Created pod: web-89ddf7844-6s6lv
              0.000s Normal SuccessfulCreate ReplicaSet/web-89ddf7844 from replicaset-controller: Created pod: web-89ddf7844-p9cnk
              0.000s Normal ScalingReplicaSet Deployment/web from deployment-controller: Scaled up replica set web-89ddf7844 from 0 to 2
            105.000s Warning NodeNotReady Pod/web-89ddf7844-p9cnk from node-controller: Node is not ready
            105.000s Normal NodeNotReady Node/worker-2 from node-controller: Node worker-2 status is now: NodeNotReady
            405.000s Normal TaintManagerEviction Pod/web-89ddf7844-p9cnk from taint-eviction-controller: Marking for deletion Pod default/web-89ddf7844-p9cnk
            405.000s Normal SuccessfulCreate ReplicaSet/web-89ddf7844 from replicaset-controller: Created pod: web-89ddf7844-jthrm
            == objects (at 480.000s)
            Deployment default/web gen=1 revision=1
                status: observedGeneration=1 replicas=2 updated=2 ready=2 available=2 unavailable=0 terminating=1
                conditions: Progressing=True/NewReplicaSetAvailable "ReplicaSet "web-89ddf7844" has successfully progressed."
                            Available=True/MinimumReplicasAvailable "Deployment has minimum availability."
            Node worker-2 Ready=Unknown/NodeStatusUnknown "Kubelet stopped posting node status." taints=[node.kubernetes.io/unreachable:NoSchedule, node.kubernetes.io/unreachable:NoExecute]
            Pod default/web-89ddf7844-6s6lv owner=ReplicaSet/web-89ddf7844 controller blockOwnerDeletion labels={app=web,pod-template-hash=89ddf7844} node=worker-1 phase=Running ready=true
            Pod default/web-89ddf7844-jthrm owner=ReplicaSet/web-89ddf7844 controller blockOwnerDeletion labels={app=web,pod-template-hash=89ddf7844} node=worker-1 phase=Running ready=true
            Pod default/web-89ddf7844-p9cnk owner=ReplicaSet/web-89ddf7844 controller blockOwnerDeletion labels={app=web,pod-template-hash=89ddf7844} TERMINATING node=worker-2 phase=Running ready=false DisruptionTarget=DeletionByTaintManager
            ReplicaSet default/web-89ddf7844 owner=Deployment/web controller blockOwnerDeletion labels={app=web,pod-template-hash=89ddf7844}
                selector=app=web,pod-template-hash=89ddf7844 annotations={desired-replicas=2,max-replicas=3,revision=1}
                spec.replicas=2 status: replicas=2 fullyLabeled=2 ready=2 available=2 terminating=1 observedGeneration=1
        "#]],
    );
}

#[test]
fn a_new_namespace_gets_its_service_account_and_ca_and_deleting_it_empties_it() {
    check(
        TWO_NODES,
        "
@@limit 90s
@0 apply
apiVersion: v1
kind: Namespace
metadata:
  name: shop
@1s apply
apiVersion: apps/v1
kind: Deployment
metadata:
  name: cart
  namespace: shop
spec:
  replicas: 1
  selector:
    matchLabels: {app: cart}
  template:
    metadata:
      labels: {app: cart}
    spec:
      containers:
      - {name: cart, image: nginx:1.29}
@20s delete namespace/shop
",
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.002s decide  serviceaccount-controller creates ServiceAccount shop/default
                             - POST ServiceAccount default in namespace shop
               0.002s decide  root-ca-cert-publisher creates ConfigMap shop/kube-root-ca.crt
                             - POST ConfigMap kube-root-ca.crt (data ca.crt)
               1.000s         kubectl apply
               1.003s decide  deployment-controller creates ReplicaSet cart-65d589857f with 1 replica(s)
                             - POST ReplicaSet cart-65d589857f (pod-template-hash 65d589857f, revision 1)
                             - spec.replicas 1
               1.003s event   Normal ScalingReplicaSet Deployment/shop/cart: Scaled up replica set cart-65d589857f from 0 to 1
               1.003s decide  deployment-controller records revision 1 on Deployment cart
                             - update status: annotation deployment.kubernetes.io/revision=1
                             - condition Progressing=True (NewReplicaSetCreated)
               1.003s decide  deployment-controller updates status of Deployment cart: 0 updated, 0 available, 1 wanted
                             - PUT status: replicas=0 updatedReplicas=0 readyReplicas=0 availableReplicas=0 unavailableReplicas=1 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (NewReplicaSetCreated)
               1.005s decide  replicaset-controller: ReplicaSet cart-65d589857f has 0 Pod(s) for 1 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName cart-65d589857f- (slow start: batches of 1)
               1.005s event   Normal SuccessfulCreate ReplicaSet/shop/cart-65d589857f: Created pod: cart-65d589857f-xdmp7
               1.005s decide  replicaset-controller updates status of ReplicaSet cart-65d589857f: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               1.007s decide  replicaset-controller updates status of ReplicaSet cart-65d589857f: replicas 1, ready 0, available 0
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               1.009s         (test scheduler) binds Pod shop/cart-65d589857f-xdmp7 to worker-1
               1.010s decide  deployment-controller updates status of Deployment cart: 1 updated, 0 available, 1 wanted
                             - PUT status: replicas=1 updatedReplicas=1 readyReplicas=0 availableReplicas=0 unavailableReplicas=1 terminatingReplicas=0 observedGeneration=1
                             - Available=False (MinimumReplicasUnavailable)
                             - Progressing=True (ReplicaSetUpdated)
               3.009s         (test kubelet) Pod shop/cart-65d589857f-xdmp7 Running on worker-1, IP 10.244.1.2, Ready
               3.011s decide  replicaset-controller updates status of ReplicaSet cart-65d589857f: replicas 1, ready 1, available 1
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=1 availableReplicas=1 terminatingReplicas=0 observedGeneration=1
               3.014s decide  deployment-controller updates status of Deployment cart: 1 updated, 1 available, 1 wanted
                             - PUT status: replicas=1 updatedReplicas=1 readyReplicas=1 availableReplicas=1 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=1
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
              20.000s         kubectl delete namespace/shop
              25.000s decide  namespace-controller empties namespace shop: pods. has 1
                             - DELETE Pod cart-65d589857f-xdmp7
                             - DELETE ConfigMap kube-root-ca.crt
                             - DELETE ServiceAccount default
                             - DELETE Event cart-65d589857f.1886725229e120d0
                             - DELETE Event cart.1886725229c2950f
                             - DELETE Deployment cart
                             - DELETE ReplicaSet cart-65d589857f
                             - update status conditions
              26.000s         (test kubelet) Pod shop/cart-65d589857f-xdmp7 stopped and removed
              30.000s decide  namespace-controller empties namespace shop: nothing left
                             - update status conditions
              30.000s decide  namespace-controller finalizes namespace shop
                             - PUT /api/v1/namespaces/shop/finalize without the kubernetes finalizer
                             - DELETE namespace shop
            == events
            == objects (at 90.000s)
        "#]],
    );
}

#[test]
fn a_replicaset_adopts_a_matching_orphan_pod() {
    // A bare Pod labelled app=api exists before the ReplicaSet: the ReplicaSet adopts it
    // (adds itself as controller owner, with a PATCH its role allows) and creates only the
    // missing Pod. Relabelled, the Pod is released (its reference deleted by a PATCH) and
    // replaced.
    check(
        TWO_NODES,
        "
@@limit 20s
@0 apply
apiVersion: v1
kind: Pod
metadata:
  name: stray
  labels: {app: api}
spec:
  containers:
  - {name: api, image: registry.k8s.io/echoserver:1.10}
@5s apply
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: api
spec:
  replicas: 2
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
      - {name: api, image: registry.k8s.io/echoserver:1.10}
@10s apply
apiVersion: v1
kind: Pod
metadata:
  name: stray
  labels: {app: other}
spec:
  containers:
  - {name: api, image: registry.k8s.io/echoserver:1.10}
",
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.004s         (test scheduler) binds Pod default/stray to worker-1
               2.004s         (test kubelet) Pod default/stray Running on worker-1, IP 10.244.1.2, Ready
               5.000s         kubectl apply
               5.002s decide  replicaset-controller: ReplicaSet api has 1 Pod(s) for 2 replica(s): creating 1
                             - adopt orphan Pod stray (its labels match the selector)
                             - create 1 Pod(s) from the template with generateName api- (slow start: batches of 1)
               5.002s event   Normal SuccessfulCreate ReplicaSet/default/api: Created pod: api-6lv2x
               5.002s decide  replicaset-controller updates status of ReplicaSet api: replicas 1, ready 1, available 1
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=1 availableReplicas=1 terminatingReplicas=0 observedGeneration=1
               5.004s decide  replicaset-controller updates status of ReplicaSet api: replicas 2, ready 1, available 1
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=1 availableReplicas=1 terminatingReplicas=0 observedGeneration=1
               5.006s         (test scheduler) binds Pod default/api-6lv2x to worker-2
               7.006s         (test kubelet) Pod default/api-6lv2x Running on worker-2, IP 10.244.2.2, Ready
               7.008s decide  replicaset-controller updates status of ReplicaSet api: replicas 2, ready 2, available 2
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=2 availableReplicas=2 terminatingReplicas=0 observedGeneration=1
              10.000s         kubectl apply
              10.002s decide  replicaset-controller: ReplicaSet api has 1 Pod(s) for 2 replica(s): creating 1
                             - release Pod stray (its labels no longer match)
                             - create 1 Pod(s) from the template with generateName api- (slow start: batches of 1)
              10.002s event   Normal SuccessfulCreate ReplicaSet/default/api: Created pod: api-cnktv
              10.002s decide  replicaset-controller updates status of ReplicaSet api: replicas 1, ready 1, available 1
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=1 availableReplicas=1 terminatingReplicas=0 observedGeneration=1
              10.004s decide  replicaset-controller updates status of ReplicaSet api: replicas 2, ready 1, available 1
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=1 availableReplicas=1 terminatingReplicas=0 observedGeneration=1
              10.006s         (test scheduler) binds Pod default/api-cnktv to worker-1
              12.006s         (test kubelet) Pod default/api-cnktv Running on worker-1, IP 10.244.1.3, Ready
              12.008s decide  replicaset-controller updates status of ReplicaSet api: replicas 2, ready 2, available 2
                             - PUT status: replicas=2 fullyLabeledReplicas=2 readyReplicas=2 availableReplicas=2 terminatingReplicas=0 observedGeneration=1
            == events
              5.000s Normal SuccessfulCreate ReplicaSet/api from replicaset-controller: Created pod: api-6lv2x
             10.000s Normal SuccessfulCreate ReplicaSet/api from replicaset-controller: Created pod: api-cnktv
            == objects (at 20.000s)
            Pod default/api-6lv2x owner=ReplicaSet/api controller blockOwnerDeletion labels={app=api} node=worker-2 phase=Running ready=true
            Pod default/api-cnktv owner=ReplicaSet/api controller blockOwnerDeletion labels={app=api} node=worker-1 phase=Running ready=true
            Pod default/stray labels={app=other} node=worker-1 phase=Running ready=true
            ReplicaSet default/api
                selector=app=api annotations={}
                spec.replicas=2 status: replicas=2 fullyLabeled=2 ready=2 available=2 terminating=0 observedGeneration=1
        "#]],
    );
}

#[test]
fn same_inputs_same_trace() {
    let script = format!("@@limit 60s\n@0 apply\n{WEB}\n@20s set-image deployment/web web=nginx:1.30\n");
    assert_eq!(run(TWO_NODES, &script), run(TWO_NODES, &script));
}

#[test]
fn pod_failure_policy_fail_job_on_an_exit_code() {
    // Exit code 42 matches the FailJob rule: the Job fails at the first such Pod, without
    // waiting for its backoffLimit, and says which container, Pod and rule.
    let job = JOB
        .replace("completions: 2\n  parallelism: 2", "completions: 2\n  parallelism: 2\n  backoffLimit: 6\n  podFailurePolicy:\n    rules:\n    - action: Ignore\n      onExitCodes: {operator: In, values: [3]}\n    - action: FailJob\n      onExitCodes: {containerName: pi, operator: NotIn, values: [3, 7]}")
        .replace("podlab.test/run-seconds: '5'", "podlab.test/run-seconds: '3', podlab.test/exit-code: '42'");
    check(
        TWO_NODES,
        &format!("@@limit 30s\n@0 apply\n{job}"),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.002s decide  job-controller creates 2 Pod(s) for Job pi
                             - create 2 Pod(s) with generateName pi- and finalizer batch.kubernetes.io/job-tracking
               0.002s event   Normal SuccessfulCreate Job/default/pi: Created pod: pi-pd876
               0.002s event   Normal SuccessfulCreate Job/default/pi: Created pod: pi-78dn7
               0.002s decide  job-controller updates status of Job pi
                             - PUT status: active=2 ready=0 succeeded=0 failed=0 uncountedTerminatedPods={}
               0.006s         (test scheduler) binds Pod default/pi-pd876 to worker-1
               0.006s         (test scheduler) binds Pod default/pi-78dn7 to worker-2
               2.006s         (test kubelet) Pod default/pi-pd876 Running on worker-1, IP 10.244.1.2, Ready
               2.006s         (test kubelet) Pod default/pi-78dn7 Running on worker-2, IP 10.244.2.2, Ready
               3.006s decide  job-controller updates status of Job pi
                             - PUT status: active=2 ready=2 succeeded=0 failed=0 uncountedTerminatedPods={}
               5.006s         (test kubelet) Pod default/pi-pd876 Failed (exit code 42)
               5.006s         (test kubelet) Pod default/pi-78dn7 Failed (exit code 42)
               6.006s decide  job-controller records finished Pods of Job pi as uncounted
                             - Pod pi-78dn7 failed (podFailurePolicy FailJob rule)
                             - Pod pi-pd876 failed (podFailurePolicy FailJob rule)
                             - PUT status: active=0 ready=0 succeeded=0 failed=0 uncountedTerminatedPods={failed: 2 UID(s)}
                             - condition FailureTarget=True (PodFailurePolicy)
               6.006s decide  job-controller removes the tracking finalizer of 2 finished Pod(s)
                             - remove finalizer batch.kubernetes.io/job-tracking from Pod pi-78dn7
                             - remove finalizer batch.kubernetes.io/job-tracking from Pod pi-pd876
               6.006s decide  job-controller marks Job pi Failed (PodFailurePolicy)
                             - PUT status: active=0 succeeded=0 failed=2 uncountedTerminatedPods={}
                             - condition Failed=True (PodFailurePolicy)
               6.006s event   Warning PodFailurePolicy Job/default/pi: Container pi for pod default/pi-78dn7 failed with exit code 42 matching FailJob rule at index 1
            == events
              0.000s Normal SuccessfulCreate Job/pi from job-controller: Created pod: pi-pd876
              0.000s Normal SuccessfulCreate Job/pi from job-controller: Created pod: pi-78dn7
              6.000s Warning PodFailurePolicy Job/pi from job-controller: Container pi for pod default/pi-78dn7 failed with exit code 42 matching FailJob rule at index 1
            == objects (at 30.000s)
            Job default/pi
                status: active=0 ready=0 succeeded=0 failed=2 terminating=0 uncountedTerminatedPods={} startTime=0.000s completionTime=-
                conditions: FailureTarget=True/PodFailurePolicy "Container pi for pod default/pi-78dn7 failed with exit code 42 matching FailJob rule at index 1"
                            Failed=True/PodFailurePolicy "Container pi for pod default/pi-78dn7 failed with exit code 42 matching FailJob rule at index 1"
            Pod default/pi-78dn7 owner=Job/pi controller blockOwnerDeletion labels={batch.kubernetes.io/controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,batch.kubernetes.io/job-name=pi,controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,job-name=pi} node=worker-2 phase=Failed ready=false
            Pod default/pi-pd876 owner=Job/pi controller blockOwnerDeletion labels={batch.kubernetes.io/controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,batch.kubernetes.io/job-name=pi,controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,job-name=pi} node=worker-1 phase=Failed ready=false
        "#]],
    );
}

#[test]
fn pod_failure_policy_ignore_leaves_failures_uncounted() {
    // Exit code 3 matches the Ignore rule: each failed Pod is replaced (after the usual
    // back-off) but none counts towards backoffLimit 0, so the Job never fails.
    let job = JOB
        .replace("completions: 2\n  parallelism: 2", "backoffLimit: 0\n  podFailurePolicy:\n    rules:\n    - action: Ignore\n      onExitCodes: {operator: In, values: [3]}")
        .replace("podlab.test/run-seconds: '5'", "podlab.test/run-seconds: '3', podlab.test/exit-code: '3'");
    check(
        TWO_NODES,
        &format!("@@limit 45s\n@0 apply\n{job}"),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.002s decide  job-controller creates 1 Pod(s) for Job pi
                             - create 1 Pod(s) with generateName pi- and finalizer batch.kubernetes.io/job-tracking
               0.002s event   Normal SuccessfulCreate Job/default/pi: Created pod: pi-pd876
               0.002s decide  job-controller updates status of Job pi
                             - PUT status: active=1 ready=0 succeeded=0 failed=0 uncountedTerminatedPods={}
               0.006s         (test scheduler) binds Pod default/pi-pd876 to worker-1
               2.006s         (test kubelet) Pod default/pi-pd876 Running on worker-1, IP 10.244.1.2, Ready
               3.006s decide  job-controller updates status of Job pi
                             - PUT status: active=1 ready=1 succeeded=0 failed=0 uncountedTerminatedPods={}
               5.006s         (test kubelet) Pod default/pi-pd876 Failed (exit code 3)
               6.006s decide  job-controller waits 8.994s before re-creating a Pod of Job pi (back-off)
                             - requeue the Job in 8.994s
               6.006s decide  job-controller records finished Pods of Job pi as uncounted
                             - Pod pi-pd876 failed: not counted (podFailurePolicy Ignore rule)
                             - PUT status: active=0 ready=0 succeeded=0 failed=0 uncountedTerminatedPods={}
               6.006s decide  job-controller removes the tracking finalizer of 1 finished Pod(s)
                             - remove finalizer batch.kubernetes.io/job-tracking from Pod pi-pd876
               7.006s decide  job-controller waits 7.994s before re-creating a Pod of Job pi (back-off)
                             - requeue the Job in 7.994s
              15.000s decide  job-controller creates 1 Pod(s) for Job pi
                             - create 1 Pod(s) with generateName pi- and finalizer batch.kubernetes.io/job-tracking
              15.000s event   Normal SuccessfulCreate Job/default/pi: Created pod: pi-78dn7
              15.000s decide  job-controller updates status of Job pi
                             - PUT status: active=1 ready=0 succeeded=0 failed=0 uncountedTerminatedPods={}
              15.004s         (test scheduler) binds Pod default/pi-78dn7 to worker-1
              17.004s         (test kubelet) Pod default/pi-78dn7 Running on worker-1, IP 10.244.1.3, Ready
              18.004s decide  job-controller updates status of Job pi
                             - PUT status: active=1 ready=1 succeeded=0 failed=0 uncountedTerminatedPods={}
              20.004s         (test kubelet) Pod default/pi-78dn7 Failed (exit code 3)
              21.004s decide  job-controller waits 18.996s before re-creating a Pod of Job pi (back-off)
                             - requeue the Job in 18.996s
              21.004s decide  job-controller records finished Pods of Job pi as uncounted
                             - Pod pi-78dn7 failed: not counted (podFailurePolicy Ignore rule)
                             - PUT status: active=0 ready=0 succeeded=0 failed=0 uncountedTerminatedPods={}
              21.004s decide  job-controller removes the tracking finalizer of 1 finished Pod(s)
                             - remove finalizer batch.kubernetes.io/job-tracking from Pod pi-78dn7
              22.004s decide  job-controller waits 17.996s before re-creating a Pod of Job pi (back-off)
                             - requeue the Job in 17.996s
              40.000s decide  job-controller creates 1 Pod(s) for Job pi
                             - create 1 Pod(s) with generateName pi- and finalizer batch.kubernetes.io/job-tracking
              40.000s event   Normal SuccessfulCreate Job/default/pi: Created pod: pi-gw7nc
              40.000s decide  job-controller updates status of Job pi
                             - PUT status: active=1 ready=0 succeeded=0 failed=0 uncountedTerminatedPods={}
              40.004s         (test scheduler) binds Pod default/pi-gw7nc to worker-1
              42.004s         (test kubelet) Pod default/pi-gw7nc Running on worker-1, IP 10.244.1.4, Ready
              43.004s decide  job-controller updates status of Job pi
                             - PUT status: active=1 ready=1 succeeded=0 failed=0 uncountedTerminatedPods={}
            == events
              0.000s Normal SuccessfulCreate Job/pi from job-controller: Created pod: pi-pd876
             15.000s Normal SuccessfulCreate Job/pi from job-controller: Created pod: pi-78dn7
             40.000s Normal SuccessfulCreate Job/pi from job-controller: Created pod: pi-gw7nc
            == objects (at 45.000s)
            Job default/pi
                status: active=1 ready=1 succeeded=0 failed=0 terminating=0 uncountedTerminatedPods={} startTime=0.000s completionTime=-
            Pod default/pi-78dn7 owner=Job/pi controller blockOwnerDeletion labels={batch.kubernetes.io/controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,batch.kubernetes.io/job-name=pi,controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,job-name=pi} node=worker-1 phase=Failed ready=false
            Pod default/pi-gw7nc owner=Job/pi controller blockOwnerDeletion labels={batch.kubernetes.io/controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,batch.kubernetes.io/job-name=pi,controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,job-name=pi} finalizers=[batch.kubernetes.io/job-tracking] node=worker-1 phase=Running ready=true
            Pod default/pi-pd876 owner=Job/pi controller blockOwnerDeletion labels={batch.kubernetes.io/controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,batch.kubernetes.io/job-name=pi,controller-uid=63cbe1e4-5932-4dd7-844c-3cd7f43c661c,job-name=pi} node=worker-1 phase=Failed ready=false
        "#]],
    );
}

#[test]
fn a_deployment_adopts_a_matching_orphan_replicaset() {
    // An orphan ReplicaSet whose labels match the Deployment's selector: the deployment
    // controller adds itself as its controller owner (ClaimReplicaSets) before it syncs.
    check(
        TWO_NODES,
        "
@@limit 10s
@0 apply
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: orphan
  labels: {app: web}
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - {name: web, image: nginx:1.29}
@3s apply
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - {name: web, image: nginx:1.29}
",
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.002s decide  replicaset-controller: ReplicaSet orphan has 0 Pod(s) for 1 replica(s): creating 1
                             - create 1 Pod(s) from the template with generateName orphan- (slow start: batches of 1)
               0.002s event   Normal SuccessfulCreate ReplicaSet/default/orphan: Created pod: orphan-pd876
               0.002s decide  replicaset-controller updates status of ReplicaSet orphan: replicas 0, ready 0, available 0
                             - PUT status: replicas=0 fullyLabeledReplicas=0 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.004s decide  replicaset-controller updates status of ReplicaSet orphan: replicas 1, ready 0, available 0
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=0 availableReplicas=0 terminatingReplicas=0 observedGeneration=1
               0.006s         (test scheduler) binds Pod default/orphan-pd876 to worker-1
               2.006s         (test kubelet) Pod default/orphan-pd876 Running on worker-1, IP 10.244.1.2, Ready
               2.008s decide  replicaset-controller updates status of ReplicaSet orphan: replicas 1, ready 1, available 1
                             - PUT status: replicas=1 fullyLabeledReplicas=1 readyReplicas=1 availableReplicas=1 terminatingReplicas=0 observedGeneration=1
               3.000s         kubectl apply
               3.003s decide  deployment-controller adopts ReplicaSet orphan
                             - add a controller ownerReference to ReplicaSet orphan
               3.003s decide  deployment-controller syncs the annotations of ReplicaSet orphan
                             - update ReplicaSet orphan (revision 1)
               3.003s decide  deployment-controller syncs the annotations of ReplicaSet orphan
                             - update ReplicaSet orphan (revision 1)
               3.003s decide  deployment-controller updates status of Deployment web: 1 updated, 1 available, 1 wanted
                             - PUT status: replicas=1 updatedReplicas=1 readyReplicas=1 availableReplicas=1 unavailableReplicas=0 terminatingReplicas=0 observedGeneration=1
                             - Available=True (MinimumReplicasAvailable)
                             - Progressing=True (NewReplicaSetAvailable)
               3.006s decide  deployment-controller records revision 1 on Deployment web
                             - update status (annotation deployment.kubernetes.io/revision=1)
            == events
              0.000s Normal SuccessfulCreate ReplicaSet/orphan from replicaset-controller: Created pod: orphan-pd876
            == objects (at 10.000s)
            Deployment default/web gen=1 revision=1
                status: observedGeneration=1 replicas=1 updated=1 ready=1 available=1 unavailable=0 terminating=0
                conditions: Available=True/MinimumReplicasAvailable "Deployment has minimum availability."
                            Progressing=True/NewReplicaSetAvailable "ReplicaSet "orphan" has successfully progressed."
            Pod default/orphan-pd876 owner=ReplicaSet/orphan controller blockOwnerDeletion labels={app=web} node=worker-1 phase=Running ready=true
            ReplicaSet default/orphan owner=Deployment/web controller blockOwnerDeletion labels={app=web}
                selector=app=web annotations={revision=1}
                spec.replicas=1 status: replicas=1 fullyLabeled=1 ready=1 available=1 terminating=0 observedGeneration=1
        "#]],
    );
}

// ---------------------------------------------------------------------------------------
// DaemonSets

/// Two workers and a control-plane node tainted as kind taints it.
const KIND_LIKE: &str = "
nodes:
- name: control-plane
  labels: {node-role.kubernetes.io/control-plane: ''}
  taints: [{key: node-role.kubernetes.io/control-plane, effect: NoSchedule}]
- name: worker-1
- name: worker-2
";

const AGENT: &str = "
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      containers:
      - name: agent
        image: busybox:1.37
";

#[test]
fn daemonset_runs_one_pod_on_each_node_it_tolerates() {
    check(
        KIND_LIKE,
        &format!("@@limit 10s\n@0 apply\n{AGENT}"),
        expect![[r#"
        == trace
           0.000s         kubectl apply
           0.002s decide  daemonset-controller records revision 1 of DaemonSet agent: ControllerRevision agent-786fcf68bb
                         - POST ControllerRevision agent-786fcf68bb (revision 1, data: a patch replacing spec.template)
           0.002s decide  daemonset-controller: DaemonSet agent should run on 2 of 3 node(s): creating 2 Pod(s)
                         - create 2 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1, 1)
                         -   a Pod for worker-1
                         -   a Pod for worker-2
           0.002s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-8766s
           0.002s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-dn7p9
           0.002s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 0, ready 0, available 0
                         - PUT status: desiredNumberScheduled=2 currentNumberScheduled=0 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=0 numberAvailable=0 numberUnavailable=2 observedGeneration=1
           0.004s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 2, ready 0, available 0
                         - PUT status: desiredNumberScheduled=2 currentNumberScheduled=2 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=2 numberAvailable=0 numberUnavailable=2 observedGeneration=1
           0.006s         (test scheduler) binds Pod default/agent-8766s to worker-1
           0.006s         (test scheduler) binds Pod default/agent-dn7p9 to worker-2
           2.006s         (test kubelet) Pod default/agent-8766s Running on worker-1, IP 10.244.2.2, Ready
           2.006s         (test kubelet) Pod default/agent-dn7p9 Running on worker-2, IP 10.244.3.2, Ready
           2.008s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 2, ready 2, available 2
                         - PUT status: desiredNumberScheduled=2 currentNumberScheduled=2 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=2 numberAvailable=2 numberUnavailable=0 observedGeneration=1
        == events
          0.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-8766s
          0.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-dn7p9
        == objects (at 10.000s)
        ControllerRevision default/agent-786fcf68bb owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=786fcf68bb}
        DaemonSet default/agent
        Pod default/agent-8766s owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=786fcf68bb,pod-template-generation=1} node=worker-1 phase=Running ready=true
        Pod default/agent-dn7p9 owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=786fcf68bb,pod-template-generation=1} node=worker-2 phase=Running ready=true
    "#]],
    );
}

#[test]
fn daemonset_follows_node_labels_and_taints() {
    let selective = AGENT
        .replace("    spec:\n      containers:", "    spec:\n      nodeSelector: {role: agent}\n      containers:");
    let script = format!(
        "@@watch\n@@limit 30s\n@0 apply\n{selective}@10s apply node/worker-2\napiVersion: v1\nkind: Node\nmetadata:\n  name: worker-2\n  labels: {{role: agent, kubernetes.io/hostname: worker-2, kubernetes.io/os: linux}}\n@20s apply node/worker-1\napiVersion: v1\nkind: Node\nmetadata:\n  name: worker-1\n  labels: {{role: agent, kubernetes.io/hostname: worker-1, kubernetes.io/os: linux}}\nspec:\n  taints: [{{key: dedicated, value: db, effect: NoExecute}}]\n"
    );
    let cluster = "
nodes:
- name: worker-1
  labels: {role: agent}
- name: worker-2
";
    check(
        cluster,
        &script,
        expect![[r#"
        == trace
           0.000s         kubectl apply
           0.000s watch   daemonset-controller sees ADDED DaemonSet default/agent (a new DaemonSet: create its Pods on the nodes that should run one)
           0.002s decide  daemonset-controller records revision 1 of DaemonSet agent: ControllerRevision agent-5d689965d6
                         - POST ControllerRevision agent-5d689965d6 (revision 1, data: a patch replacing spec.template)
           0.002s decide  daemonset-controller: DaemonSet agent should run on 1 of 2 node(s): creating 1 Pod(s)
                         - create 1 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1)
                         -   a Pod for worker-1
           0.002s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-8766s
           0.002s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 0, ready 0, available 0
                         - PUT status: desiredNumberScheduled=1 currentNumberScheduled=0 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=0 numberAvailable=0 numberUnavailable=1 observedGeneration=1
           0.002s watch   daemonset-controller sees ADDED Pod default/agent-8766s (a Pod of this DaemonSet was created)
           0.004s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 0, available 0
                         - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=1 numberAvailable=0 numberUnavailable=1 observedGeneration=1
           0.006s         (test scheduler) binds Pod default/agent-8766s to worker-1
           0.006s watch   daemonset-controller sees MODIFIED Pod default/agent-8766s (a Pod of this DaemonSet changed)
           2.006s         (test kubelet) Pod default/agent-8766s Running on worker-1, IP 10.244.1.2, Ready
           2.006s watch   daemonset-controller sees MODIFIED Pod default/agent-8766s (a Pod of this DaemonSet changed)
           2.008s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 1, available 1
                         - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=1 updatedNumberScheduled=1 numberAvailable=1 numberUnavailable=0 observedGeneration=1
          10.000s         kubectl apply node/worker-2
          10.000s watch   daemonset-controller sees MODIFIED Node worker-2 (node worker-2 changed whether it should run a Pod of this DaemonSet (should run: false -> true, may keep one: false -> true))
          10.002s decide  daemonset-controller: DaemonSet agent should run on 2 of 2 node(s): creating 1 Pod(s)
                         - create 1 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1)
                         -   a Pod for worker-2
          10.002s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-dn7p9
          10.002s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 1, ready 1, available 1
                         - PUT status: desiredNumberScheduled=2 currentNumberScheduled=1 numberMisscheduled=0 numberReady=1 updatedNumberScheduled=1 numberAvailable=1 numberUnavailable=1 observedGeneration=1
          10.002s watch   daemonset-controller sees ADDED Pod default/agent-dn7p9 (a Pod of this DaemonSet was created)
          10.004s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 2, ready 1, available 1
                         - PUT status: desiredNumberScheduled=2 currentNumberScheduled=2 numberMisscheduled=0 numberReady=1 updatedNumberScheduled=2 numberAvailable=1 numberUnavailable=1 observedGeneration=1
          10.006s         (test scheduler) binds Pod default/agent-dn7p9 to worker-2
          10.006s watch   daemonset-controller sees MODIFIED Pod default/agent-dn7p9 (a Pod of this DaemonSet changed)
          12.006s         (test kubelet) Pod default/agent-dn7p9 Running on worker-2, IP 10.244.2.2, Ready
          12.006s watch   daemonset-controller sees MODIFIED Pod default/agent-dn7p9 (a Pod of this DaemonSet changed)
          12.008s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 2, ready 2, available 2
                         - PUT status: desiredNumberScheduled=2 currentNumberScheduled=2 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=2 numberAvailable=2 numberUnavailable=0 observedGeneration=1
          20.000s         kubectl apply node/worker-1
          20.000s watch   daemonset-controller sees MODIFIED Node worker-1 (node worker-1 changed whether it should run a Pod of this DaemonSet (should run: true -> false, may keep one: true -> false))
          20.000s watch   taint-eviction-controller sees MODIFIED Node worker-1 (the node's NoExecute taints changed)
          20.002s decide  daemonset-controller: DaemonSet agent should run on 1 of 2 node(s): deleting 1
                         - delete Pod agent-8766s: worker-1 should not run it (taint dedicated=db:NoExecute not tolerated)
          20.002s event   Normal SuccessfulDelete DaemonSet/default/agent: Deleted pod: agent-8766s
          20.002s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 1, available 1
                         - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=1 numberReady=1 updatedNumberScheduled=1 numberAvailable=1 numberUnavailable=0 observedGeneration=1
          20.002s watch   daemonset-controller sees MODIFIED Pod default/agent-8766s (a Pod of this DaemonSet is terminating)
          20.002s decide  taint-eviction-controller: Pod default/agent-8766s does not tolerate dedicated:NoExecute: delete it now
                         - schedule the deletion of Pod default/agent-8766s in 0s
          20.002s event   Normal TaintManagerEviction Pod/default/agent-8766s: Marking for deletion Pod default/agent-8766s
          21.002s         (test kubelet) Pod default/agent-8766s stopped and removed
          21.002s watch   daemonset-controller sees DELETED Pod default/agent-8766s (a Pod of this DaemonSet is gone)
          21.004s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 1, available 1
                         - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=1 updatedNumberScheduled=1 numberAvailable=1 numberUnavailable=0 observedGeneration=1
        == events
          0.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-8766s
         10.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-dn7p9
         20.000s Normal TaintManagerEviction Pod/agent-8766s from taint-eviction-controller: Marking for deletion Pod default/agent-8766s
         20.000s Normal SuccessfulDelete DaemonSet/agent from daemonset-controller: Deleted pod: agent-8766s
        == objects (at 30.000s)
        ControllerRevision default/agent-5d689965d6 owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=5d689965d6}
        DaemonSet default/agent
        Node worker-1 Ready=True/KubeletReady "kubelet is posting ready status" taints=[dedicated:NoExecute]
        Node worker-2 Ready=True/KubeletReady "kubelet is posting ready status" taints=[]
        Pod default/agent-dn7p9 owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=5d689965d6,pod-template-generation=1} node=worker-2 phase=Running ready=true
    "#]],
    );
}

#[test]
fn daemonset_rolling_update_replaces_one_pod_at_a_time() {
    let three = "
nodes:
- name: worker-1
- name: worker-2
- name: worker-3
";
    check(
        three,
        &format!("@@limit 40s\n@0 apply\n{AGENT}@10s set-image daemonset/agent agent=busybox:1.38\n"),
        expect![[r#"
        == trace
           0.000s         kubectl apply
           0.002s decide  daemonset-controller records revision 1 of DaemonSet agent: ControllerRevision agent-786fcf68bb
                         - POST ControllerRevision agent-786fcf68bb (revision 1, data: a patch replacing spec.template)
           0.002s decide  daemonset-controller: DaemonSet agent should run on 3 of 3 node(s): creating 3 Pod(s)
                         - create 3 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1, 2)
                         -   a Pod for worker-1
                         -   a Pod for worker-2
                         -   a Pod for worker-3
           0.002s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-8766s
           0.002s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-dn7p9
           0.002s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-7nccl
           0.002s decide  daemonset-controller updates status of DaemonSet agent: desired 3, current 0, ready 0, available 0
                         - PUT status: desiredNumberScheduled=3 currentNumberScheduled=0 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=0 numberAvailable=0 numberUnavailable=3 observedGeneration=1
           0.004s decide  daemonset-controller updates status of DaemonSet agent: desired 3, current 3, ready 0, available 0
                         - PUT status: desiredNumberScheduled=3 currentNumberScheduled=3 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=3 numberAvailable=0 numberUnavailable=3 observedGeneration=1
           0.006s         (test scheduler) binds Pod default/agent-8766s to worker-1
           0.006s         (test scheduler) binds Pod default/agent-dn7p9 to worker-2
           0.006s         (test scheduler) binds Pod default/agent-7nccl to worker-3
           2.006s         (test kubelet) Pod default/agent-8766s Running on worker-1, IP 10.244.1.2, Ready
           2.006s         (test kubelet) Pod default/agent-dn7p9 Running on worker-2, IP 10.244.2.2, Ready
           2.006s         (test kubelet) Pod default/agent-7nccl Running on worker-3, IP 10.244.3.2, Ready
           2.008s decide  daemonset-controller updates status of DaemonSet agent: desired 3, current 3, ready 3, available 3
                         - PUT status: desiredNumberScheduled=3 currentNumberScheduled=3 numberMisscheduled=0 numberReady=3 updatedNumberScheduled=3 numberAvailable=3 numberUnavailable=0 observedGeneration=1
          10.000s         kubectl set-image daemonset/agent agent=busybox:1.38
          10.002s decide  daemonset-controller records revision 2 of DaemonSet agent: ControllerRevision agent-6cbcff9f7c
                         - POST ControllerRevision agent-6cbcff9f7c (revision 2, data: a patch replacing spec.template)
          10.002s decide  daemonset-controller: rolling update of DaemonSet agent to controller-revision-hash 6cbcff9f7c: 1 old Pod(s) to delete, 0 new Pod(s) to create
                         - delete Pod agent-8766s (old Pod on worker-1)
          10.002s event   Normal SuccessfulDelete DaemonSet/default/agent: Deleted pod: agent-8766s
          10.002s decide  daemonset-controller updates status of DaemonSet agent: desired 3, current 3, ready 3, available 3
                         - PUT status: desiredNumberScheduled=3 currentNumberScheduled=3 numberMisscheduled=0 numberReady=3 updatedNumberScheduled=0 numberAvailable=3 numberUnavailable=0 observedGeneration=2
          11.002s         (test kubelet) Pod default/agent-8766s stopped and removed
          11.004s decide  daemonset-controller: DaemonSet agent should run on 3 of 3 node(s): creating 1 Pod(s)
                         - create 1 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1)
                         -   a Pod for worker-1
          11.004s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-n6nqm
          11.004s decide  daemonset-controller updates status of DaemonSet agent: desired 3, current 2, ready 2, available 2
                         - PUT status: desiredNumberScheduled=3 currentNumberScheduled=2 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=0 numberAvailable=2 numberUnavailable=1 observedGeneration=2
          11.006s decide  daemonset-controller updates status of DaemonSet agent: desired 3, current 3, ready 2, available 2
                         - PUT status: desiredNumberScheduled=3 currentNumberScheduled=3 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=1 numberAvailable=2 numberUnavailable=1 observedGeneration=2
          11.008s         (test scheduler) binds Pod default/agent-n6nqm to worker-1
          13.008s         (test kubelet) Pod default/agent-n6nqm Running on worker-1, IP 10.244.1.3, Ready
          13.010s decide  daemonset-controller: rolling update of DaemonSet agent to controller-revision-hash 6cbcff9f7c: 1 old Pod(s) to delete, 0 new Pod(s) to create
                         - delete Pod agent-dn7p9 (old Pod on worker-2)
          13.010s event   Normal SuccessfulDelete DaemonSet/default/agent: Deleted pod: agent-dn7p9
          13.010s decide  daemonset-controller updates status of DaemonSet agent: desired 3, current 3, ready 3, available 3
                         - PUT status: desiredNumberScheduled=3 currentNumberScheduled=3 numberMisscheduled=0 numberReady=3 updatedNumberScheduled=1 numberAvailable=3 numberUnavailable=0 observedGeneration=2
          14.010s         (test kubelet) Pod default/agent-dn7p9 stopped and removed
          14.012s decide  daemonset-controller: DaemonSet agent should run on 3 of 3 node(s): creating 1 Pod(s)
                         - create 1 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1)
                         -   a Pod for worker-2
          14.012s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-zvl2l
          14.012s decide  daemonset-controller updates status of DaemonSet agent: desired 3, current 2, ready 2, available 2
                         - PUT status: desiredNumberScheduled=3 currentNumberScheduled=2 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=1 numberAvailable=2 numberUnavailable=1 observedGeneration=2
          14.014s decide  daemonset-controller updates status of DaemonSet agent: desired 3, current 3, ready 2, available 2
                         - PUT status: desiredNumberScheduled=3 currentNumberScheduled=3 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=2 numberAvailable=2 numberUnavailable=1 observedGeneration=2
          14.016s         (test scheduler) binds Pod default/agent-zvl2l to worker-2
          16.016s         (test kubelet) Pod default/agent-zvl2l Running on worker-2, IP 10.244.2.3, Ready
          16.018s decide  daemonset-controller: rolling update of DaemonSet agent to controller-revision-hash 6cbcff9f7c: 1 old Pod(s) to delete, 0 new Pod(s) to create
                         - delete Pod agent-7nccl (old Pod on worker-3)
          16.018s event   Normal SuccessfulDelete DaemonSet/default/agent: Deleted pod: agent-7nccl
          16.018s decide  daemonset-controller updates status of DaemonSet agent: desired 3, current 3, ready 3, available 3
                         - PUT status: desiredNumberScheduled=3 currentNumberScheduled=3 numberMisscheduled=0 numberReady=3 updatedNumberScheduled=2 numberAvailable=3 numberUnavailable=0 observedGeneration=2
          17.018s         (test kubelet) Pod default/agent-7nccl stopped and removed
          17.020s decide  daemonset-controller: DaemonSet agent should run on 3 of 3 node(s): creating 1 Pod(s)
                         - create 1 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1)
                         -   a Pod for worker-3
          17.020s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-7984c
          17.020s decide  daemonset-controller updates status of DaemonSet agent: desired 3, current 2, ready 2, available 2
                         - PUT status: desiredNumberScheduled=3 currentNumberScheduled=2 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=2 numberAvailable=2 numberUnavailable=1 observedGeneration=2
          17.022s decide  daemonset-controller updates status of DaemonSet agent: desired 3, current 3, ready 2, available 2
                         - PUT status: desiredNumberScheduled=3 currentNumberScheduled=3 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=3 numberAvailable=2 numberUnavailable=1 observedGeneration=2
          17.024s         (test scheduler) binds Pod default/agent-7984c to worker-3
          19.024s         (test kubelet) Pod default/agent-7984c Running on worker-3, IP 10.244.3.3, Ready
          19.026s decide  daemonset-controller updates status of DaemonSet agent: desired 3, current 3, ready 3, available 3
                         - PUT status: desiredNumberScheduled=3 currentNumberScheduled=3 numberMisscheduled=0 numberReady=3 updatedNumberScheduled=3 numberAvailable=3 numberUnavailable=0 observedGeneration=2
        == events
          0.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-8766s
          0.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-dn7p9
          0.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-7nccl
         10.000s Normal SuccessfulDelete DaemonSet/agent from daemonset-controller: Deleted pod: agent-8766s
         11.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-n6nqm
         13.000s Normal SuccessfulDelete DaemonSet/agent from daemonset-controller: Deleted pod: agent-dn7p9
         14.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-zvl2l
         16.000s Normal SuccessfulDelete DaemonSet/agent from daemonset-controller: Deleted pod: agent-7nccl
         17.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-7984c
        == objects (at 40.000s)
        ControllerRevision default/agent-6cbcff9f7c owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=6cbcff9f7c}
        ControllerRevision default/agent-786fcf68bb owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=786fcf68bb}
        DaemonSet default/agent
        Pod default/agent-7984c owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=6cbcff9f7c,pod-template-generation=2} node=worker-3 phase=Running ready=true
        Pod default/agent-n6nqm owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=6cbcff9f7c,pod-template-generation=2} node=worker-1 phase=Running ready=true
        Pod default/agent-zvl2l owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=6cbcff9f7c,pod-template-generation=2} node=worker-2 phase=Running ready=true
    "#]],
    );
}

#[test]
fn daemonset_on_delete_replaces_only_deleted_pods() {
    let on_delete = AGENT.replace("spec:\n  selector:", "spec:\n  updateStrategy: {type: OnDelete}\n  selector:");
    check(
        TWO_NODES,
        &format!("@@limit 40s\n@0 apply\n{on_delete}@10s set-image daemonset/agent agent=busybox:1.38\n@20s delete pod/agent-8766s\n"),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.002s decide  daemonset-controller records revision 1 of DaemonSet agent: ControllerRevision agent-786fcf68bb
                             - POST ControllerRevision agent-786fcf68bb (revision 1, data: a patch replacing spec.template)
               0.002s decide  daemonset-controller: DaemonSet agent should run on 2 of 2 node(s): creating 2 Pod(s)
                             - create 2 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1, 1)
                             -   a Pod for worker-1
                             -   a Pod for worker-2
               0.002s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-8766s
               0.002s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-dn7p9
               0.002s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 0, ready 0, available 0
                             - PUT status: desiredNumberScheduled=2 currentNumberScheduled=0 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=0 numberAvailable=0 numberUnavailable=2 observedGeneration=1
               0.004s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 2, ready 0, available 0
                             - PUT status: desiredNumberScheduled=2 currentNumberScheduled=2 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=2 numberAvailable=0 numberUnavailable=2 observedGeneration=1
               0.006s         (test scheduler) binds Pod default/agent-8766s to worker-1
               0.006s         (test scheduler) binds Pod default/agent-dn7p9 to worker-2
               2.006s         (test kubelet) Pod default/agent-8766s Running on worker-1, IP 10.244.1.2, Ready
               2.006s         (test kubelet) Pod default/agent-dn7p9 Running on worker-2, IP 10.244.2.2, Ready
               2.008s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 2, ready 2, available 2
                             - PUT status: desiredNumberScheduled=2 currentNumberScheduled=2 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=2 numberAvailable=2 numberUnavailable=0 observedGeneration=1
              10.000s         kubectl set-image daemonset/agent agent=busybox:1.38
              10.002s decide  daemonset-controller records revision 2 of DaemonSet agent: ControllerRevision agent-6cbcff9f7c
                             - POST ControllerRevision agent-6cbcff9f7c (revision 2, data: a patch replacing spec.template)
              10.002s decide  daemonset-controller: DaemonSet agent uses the OnDelete strategy: 2 Pod(s) keep the old template until they are deleted
                             - nothing now: delete a Pod to have it replaced from the current template
              10.002s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 2, ready 2, available 2
                             - PUT status: desiredNumberScheduled=2 currentNumberScheduled=2 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=0 numberAvailable=2 numberUnavailable=0 observedGeneration=2
              20.000s         kubectl delete pod/agent-8766s
              21.000s         (test kubelet) Pod default/agent-8766s stopped and removed
              21.002s decide  daemonset-controller: DaemonSet agent should run on 2 of 2 node(s): creating 1 Pod(s)
                             - create 1 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1)
                             -   a Pod for worker-1
              21.002s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-ccls5
              21.002s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 1, ready 1, available 1
                             - PUT status: desiredNumberScheduled=2 currentNumberScheduled=1 numberMisscheduled=0 numberReady=1 updatedNumberScheduled=0 numberAvailable=1 numberUnavailable=1 observedGeneration=2
              21.004s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 2, ready 1, available 1
                             - PUT status: desiredNumberScheduled=2 currentNumberScheduled=2 numberMisscheduled=0 numberReady=1 updatedNumberScheduled=1 numberAvailable=1 numberUnavailable=1 observedGeneration=2
              21.006s         (test scheduler) binds Pod default/agent-ccls5 to worker-1
              23.006s         (test kubelet) Pod default/agent-ccls5 Running on worker-1, IP 10.244.1.3, Ready
              23.008s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 2, ready 2, available 2
                             - PUT status: desiredNumberScheduled=2 currentNumberScheduled=2 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=1 numberAvailable=2 numberUnavailable=0 observedGeneration=2
            == events
              0.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-8766s
              0.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-dn7p9
             21.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-ccls5
            == objects (at 40.000s)
            ControllerRevision default/agent-6cbcff9f7c owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=6cbcff9f7c}
            ControllerRevision default/agent-786fcf68bb owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=786fcf68bb}
            DaemonSet default/agent
            Pod default/agent-ccls5 owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=6cbcff9f7c,pod-template-generation=2} node=worker-1 phase=Running ready=true
            Pod default/agent-dn7p9 owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=786fcf68bb,pod-template-generation=1} node=worker-2 phase=Running ready=true
        "#]],
    );
}

#[test]
fn daemonset_surge_starts_the_new_pod_before_deleting_the_old_one() {
    let surge = AGENT.replace(
        "spec:\n  selector:",
        "spec:\n  updateStrategy:\n    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}\n  selector:",
    );
    check(
        TWO_NODES,
        &format!("@@limit 30s\n@0 apply\n{surge}@10s set-image daemonset/agent agent=busybox:1.38\n"),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.002s decide  daemonset-controller records revision 1 of DaemonSet agent: ControllerRevision agent-786fcf68bb
                             - POST ControllerRevision agent-786fcf68bb (revision 1, data: a patch replacing spec.template)
               0.002s decide  daemonset-controller: DaemonSet agent should run on 2 of 2 node(s): creating 2 Pod(s)
                             - create 2 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1, 1)
                             -   a Pod for worker-1
                             -   a Pod for worker-2
               0.002s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-8766s
               0.002s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-dn7p9
               0.002s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 0, ready 0, available 0
                             - PUT status: desiredNumberScheduled=2 currentNumberScheduled=0 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=0 numberAvailable=0 numberUnavailable=2 observedGeneration=1
               0.004s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 2, ready 0, available 0
                             - PUT status: desiredNumberScheduled=2 currentNumberScheduled=2 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=2 numberAvailable=0 numberUnavailable=2 observedGeneration=1
               0.006s         (test scheduler) binds Pod default/agent-8766s to worker-1
               0.006s         (test scheduler) binds Pod default/agent-dn7p9 to worker-2
               2.006s         (test kubelet) Pod default/agent-8766s Running on worker-1, IP 10.244.1.2, Ready
               2.006s         (test kubelet) Pod default/agent-dn7p9 Running on worker-2, IP 10.244.2.2, Ready
               2.008s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 2, ready 2, available 2
                             - PUT status: desiredNumberScheduled=2 currentNumberScheduled=2 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=2 numberAvailable=2 numberUnavailable=0 observedGeneration=1
              10.000s         kubectl set-image daemonset/agent agent=busybox:1.38
              10.002s decide  daemonset-controller records revision 2 of DaemonSet agent: ControllerRevision agent-6cbcff9f7c
                             - POST ControllerRevision agent-6cbcff9f7c (revision 2, data: a patch replacing spec.template)
              10.002s decide  daemonset-controller: rolling update of DaemonSet agent to controller-revision-hash 6cbcff9f7c: 0 old Pod(s) to delete, 1 new Pod(s) to create
                             - create a new Pod on worker-1 beside the old one
              10.002s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-ccls5
              10.002s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 2, ready 2, available 2
                             - PUT status: desiredNumberScheduled=2 currentNumberScheduled=2 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=0 numberAvailable=2 numberUnavailable=0 observedGeneration=2
              10.006s         (test scheduler) binds Pod default/agent-ccls5 to worker-1
              12.006s         (test kubelet) Pod default/agent-ccls5 Running on worker-1, IP 10.244.1.3, Ready
              12.008s decide  daemonset-controller: DaemonSet agent should run on 2 of 2 node(s): deleting 1
                             - delete Pod agent-8766s: the new Pod on worker-1 is available
              12.008s event   Normal SuccessfulDelete DaemonSet/default/agent: Deleted pod: agent-8766s
              12.010s decide  daemonset-controller: rolling update of DaemonSet agent to controller-revision-hash 6cbcff9f7c: 0 old Pod(s) to delete, 1 new Pod(s) to create
                             - create a new Pod on worker-2 beside the old one
              12.010s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-n6nqm
              12.014s         (test scheduler) binds Pod default/agent-n6nqm to worker-2
              13.008s         (test kubelet) Pod default/agent-8766s stopped and removed
              13.010s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 2, ready 2, available 2
                             - PUT status: desiredNumberScheduled=2 currentNumberScheduled=2 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=1 numberAvailable=2 numberUnavailable=0 observedGeneration=2
              14.014s         (test kubelet) Pod default/agent-n6nqm Running on worker-2, IP 10.244.2.3, Ready
              14.016s decide  daemonset-controller: DaemonSet agent should run on 2 of 2 node(s): deleting 1
                             - delete Pod agent-dn7p9: the new Pod on worker-2 is available
              14.016s event   Normal SuccessfulDelete DaemonSet/default/agent: Deleted pod: agent-dn7p9
              15.016s         (test kubelet) Pod default/agent-dn7p9 stopped and removed
              15.018s decide  daemonset-controller updates status of DaemonSet agent: desired 2, current 2, ready 2, available 2
                             - PUT status: desiredNumberScheduled=2 currentNumberScheduled=2 numberMisscheduled=0 numberReady=2 updatedNumberScheduled=2 numberAvailable=2 numberUnavailable=0 observedGeneration=2
            == events
              0.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-8766s
              0.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-dn7p9
             10.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-ccls5
             12.000s Normal SuccessfulDelete DaemonSet/agent from daemonset-controller: Deleted pod: agent-8766s
             12.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-n6nqm
             14.000s Normal SuccessfulDelete DaemonSet/agent from daemonset-controller: Deleted pod: agent-dn7p9
            == objects (at 30.000s)
            ControllerRevision default/agent-6cbcff9f7c owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=6cbcff9f7c}
            ControllerRevision default/agent-786fcf68bb owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=786fcf68bb}
            DaemonSet default/agent
            Pod default/agent-ccls5 owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=6cbcff9f7c,pod-template-generation=2} node=worker-1 phase=Running ready=true
            Pod default/agent-n6nqm owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=6cbcff9f7c,pod-template-generation=2} node=worker-2 phase=Running ready=true
        "#]],
    );
}

#[test]
fn daemonset_replaces_failed_pods_with_a_growing_back_off() {
    let failing = AGENT.replace(
        "      labels: {app: agent}\n    spec:",
        "      labels: {app: agent}\n      annotations: {podlab.test/run-seconds: '1', podlab.test/exit-code: '1'}\n    spec:",
    );
    let one = "
nodes:
- name: worker-1
";
    check(
        one,
        &format!("@@limit 25s\n@0 apply\n{failing}"),
        expect![[r#"
            == trace
               0.000s         kubectl apply
               0.002s decide  daemonset-controller records revision 1 of DaemonSet agent: ControllerRevision agent-6c48b78595
                             - POST ControllerRevision agent-6c48b78595 (revision 1, data: a patch replacing spec.template)
               0.002s decide  daemonset-controller: DaemonSet agent should run on 1 of 1 node(s): creating 1 Pod(s)
                             - create 1 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1)
                             -   a Pod for worker-1
               0.002s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-8766s
               0.002s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 0, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=0 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=0 numberAvailable=0 numberUnavailable=1 observedGeneration=1
               0.004s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=1 numberAvailable=0 numberUnavailable=1 observedGeneration=1
               0.006s         (test scheduler) binds Pod default/agent-8766s to worker-1
               2.006s         (test kubelet) Pod default/agent-8766s Running on worker-1, IP 10.244.1.2, Ready
               2.008s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 1, available 1
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=1 updatedNumberScheduled=1 numberAvailable=1 numberUnavailable=0 observedGeneration=1
               3.006s         (test kubelet) Pod default/agent-8766s Failed (exit code 1)
               3.008s event   Warning FailedDaemonPod DaemonSet/default/agent: Found failed daemon pod default/agent-8766s on node worker-1, will try to kill it
               3.008s decide  daemonset-controller: DaemonSet agent should run on 1 of 1 node(s): deleting 1
                             - delete Pod agent-8766s: it failed on worker-1
               3.008s event   Normal SuccessfulDelete DaemonSet/default/agent: Deleted pod: agent-8766s
               3.008s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=1 numberAvailable=0 numberUnavailable=1 observedGeneration=1
               3.010s decide  daemonset-controller: DaemonSet agent should run on 1 of 1 node(s): creating 1 Pod(s)
                             - create 1 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1)
                             -   a Pod for worker-1
               3.010s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-nktvd
               3.010s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 0, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=0 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=0 numberAvailable=0 numberUnavailable=1 observedGeneration=1
               3.012s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=1 numberAvailable=0 numberUnavailable=1 observedGeneration=1
               3.014s         (test scheduler) binds Pod default/agent-nktvd to worker-1
               5.014s         (test kubelet) Pod default/agent-nktvd Running on worker-1, IP 10.244.1.3, Ready
               5.016s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 1, available 1
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=1 updatedNumberScheduled=1 numberAvailable=1 numberUnavailable=0 observedGeneration=1
               6.014s         (test kubelet) Pod default/agent-nktvd Failed (exit code 1)
               6.016s event   Warning FailedDaemonPod DaemonSet/default/agent: Found failed daemon pod default/agent-nktvd on node worker-1, will try to kill it
               6.016s decide  daemonset-controller: DaemonSet agent should run on 1 of 1 node(s): deleting 1
                             - delete Pod agent-nktvd: it failed on worker-1
               6.016s event   Normal SuccessfulDelete DaemonSet/default/agent: Deleted pod: agent-nktvd
               6.016s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=1 numberAvailable=0 numberUnavailable=1 observedGeneration=1
               6.018s decide  daemonset-controller: DaemonSet agent should run on 1 of 1 node(s): creating 1 Pod(s)
                             - create 1 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1)
                             -   a Pod for worker-1
               6.018s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-jthrm
               6.018s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 0, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=0 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=0 numberAvailable=0 numberUnavailable=1 observedGeneration=1
               6.020s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=1 numberAvailable=0 numberUnavailable=1 observedGeneration=1
               6.022s         (test scheduler) binds Pod default/agent-jthrm to worker-1
               8.022s         (test kubelet) Pod default/agent-jthrm Running on worker-1, IP 10.244.1.4, Ready
               8.024s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 1, available 1
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=1 updatedNumberScheduled=1 numberAvailable=1 numberUnavailable=0 observedGeneration=1
               9.022s         (test kubelet) Pod default/agent-jthrm Failed (exit code 1)
               9.024s event   Warning FailedDaemonPod DaemonSet/default/agent: Found failed daemon pod default/agent-jthrm on node worker-1, will try to kill it
               9.024s decide  daemonset-controller: DaemonSet agent should run on 1 of 1 node(s): deleting 1
                             - delete Pod agent-jthrm: it failed on worker-1
               9.024s event   Normal SuccessfulDelete DaemonSet/default/agent: Deleted pod: agent-jthrm
               9.024s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=1 numberAvailable=0 numberUnavailable=1 observedGeneration=1
               9.026s decide  daemonset-controller: DaemonSet agent should run on 1 of 1 node(s): creating 1 Pod(s)
                             - create 1 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1)
                             -   a Pod for worker-1
               9.026s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-w8hms
               9.026s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 0, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=0 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=0 numberAvailable=0 numberUnavailable=1 observedGeneration=1
               9.028s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=1 numberAvailable=0 numberUnavailable=1 observedGeneration=1
               9.030s         (test scheduler) binds Pod default/agent-w8hms to worker-1
              11.030s         (test kubelet) Pod default/agent-w8hms Running on worker-1, IP 10.244.1.5, Ready
              11.032s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 1, available 1
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=1 updatedNumberScheduled=1 numberAvailable=1 numberUnavailable=0 observedGeneration=1
              12.030s         (test kubelet) Pod default/agent-w8hms Failed (exit code 1)
              12.032s decide  daemonset-controller: DaemonSet agent waits for the failed-Pod back-off
                             - wait 4s before deleting the failed Pod agent-w8hms on worker-1 (the failed-Pod back-off; sync again then)
              12.032s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=1 numberAvailable=0 numberUnavailable=1 observedGeneration=1
              16.032s event   Warning FailedDaemonPod DaemonSet/default/agent: Found failed daemon pod default/agent-w8hms on node worker-1, will try to kill it
              16.032s decide  daemonset-controller: DaemonSet agent should run on 1 of 1 node(s): deleting 1
                             - delete Pod agent-w8hms: it failed on worker-1
              16.032s event   Normal SuccessfulDelete DaemonSet/default/agent: Deleted pod: agent-w8hms
              16.034s decide  daemonset-controller: DaemonSet agent should run on 1 of 1 node(s): creating 1 Pod(s)
                             - create 1 Pod(s) with generateName agent-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of 1)
                             -   a Pod for worker-1
              16.034s event   Normal SuccessfulCreate DaemonSet/default/agent: Created pod: agent-td798
              16.034s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 0, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=0 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=0 numberAvailable=0 numberUnavailable=1 observedGeneration=1
              16.036s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=1 numberAvailable=0 numberUnavailable=1 observedGeneration=1
              16.038s         (test scheduler) binds Pod default/agent-td798 to worker-1
              18.038s         (test kubelet) Pod default/agent-td798 Running on worker-1, IP 10.244.1.6, Ready
              18.040s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 1, available 1
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=1 updatedNumberScheduled=1 numberAvailable=1 numberUnavailable=0 observedGeneration=1
              19.038s         (test kubelet) Pod default/agent-td798 Failed (exit code 1)
              19.040s decide  daemonset-controller: DaemonSet agent waits for the failed-Pod back-off
                             - wait 8s before deleting the failed Pod agent-td798 on worker-1 (the failed-Pod back-off; sync again then)
              19.040s decide  daemonset-controller updates status of DaemonSet agent: desired 1, current 1, ready 0, available 0
                             - PUT status: desiredNumberScheduled=1 currentNumberScheduled=1 numberMisscheduled=0 numberReady=0 updatedNumberScheduled=1 numberAvailable=0 numberUnavailable=1 observedGeneration=1
            == events
              0.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-8766s
              3.000s Warning FailedDaemonPod DaemonSet/agent from daemonset-controller: Found failed daemon pod default/agent-8766s on node worker-1, will try to kill it
              3.000s Normal SuccessfulDelete DaemonSet/agent from daemonset-controller: Deleted pod: agent-8766s
              3.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-nktvd
              6.000s Warning FailedDaemonPod DaemonSet/agent from daemonset-controller: Found failed daemon pod default/agent-nktvd on node worker-1, will try to kill it
              6.000s Normal SuccessfulDelete DaemonSet/agent from daemonset-controller: Deleted pod: agent-nktvd
              6.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-jthrm
              9.000s Warning FailedDaemonPod DaemonSet/agent from daemonset-controller: Found failed daemon pod default/agent-jthrm on node worker-1, will try to kill it
              9.000s Normal SuccessfulDelete DaemonSet/agent from daemonset-controller: Deleted pod: agent-jthrm
              9.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-w8hms
             16.000s Warning FailedDaemonPod DaemonSet/agent from daemonset-controller: Found failed daemon pod default/agent-w8hms on node worker-1, will try to kill it
             16.000s Normal SuccessfulDelete DaemonSet/agent from daemonset-controller: Deleted pod: agent-w8hms
             16.000s Normal SuccessfulCreate DaemonSet/agent from daemonset-controller: Created pod: agent-td798
            == objects (at 25.000s)
            ControllerRevision default/agent-6c48b78595 owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=6c48b78595}
            DaemonSet default/agent
            Pod default/agent-td798 owner=DaemonSet/agent controller blockOwnerDeletion labels={app=agent,controller-revision-hash=6c48b78595,pod-template-generation=1} node=worker-1 phase=Failed ready=false
        "#]],
    );
}
