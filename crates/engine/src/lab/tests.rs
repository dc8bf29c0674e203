//! Data-driven tests of the whole path from `kubectl apply` to etcd: each case is a cluster
//! (preset or YAML), an identity, a manifest, and the expected trace outline and kubectl output.

use super::*;
use crate::trace::Detail;
use expect_test::{expect, Expect};

/// The trace as one line per step (phase, arrow, status, summary), then kubectl's output and
/// exit code.
fn outline(run: &Run) -> String {
    let mut out = String::new();
    for s in &run.steps {
        let status = match s.status {
            crate::trace::StepStatus::Ok => "",
            crate::trace::StepStatus::Warning => " [warning]",
            crate::trace::StepStatus::Failed => " [FAILED]",
        };
        out += &format!(
            "{:>4}ms #{} {:<20} {} -> {}{status}: {}\n",
            s.time_ms,
            s.request_id.map(|r| r.to_string()).unwrap_or_else(|| "-".into()),
            s.phase.id(),
            s.from.title(),
            s.to.title(),
            s.summary
        );
        if let Detail::Etcd(e) = &s.detail {
            if e.error.is_none() && e.operation != crate::trace::EtcdOperation::Get {
                out += &format!("            etcd {:?} {} rev {}\n", e.operation, e.key, e.revision);
            }
        }
    }
    out += &format!("--- kubectl (exit {})\n{}", run.exit_code, run.kubectl_output);
    out
}

fn check(cluster: Option<&str>, user: Option<&str>, identity: Option<(&str, &[&str])>, manifest: &str, expect: Expect) {
    let cluster = cluster.map(|c| cluster::preset(c).map(str::to_string).unwrap_or_else(|| c.to_string()));
    let input = LabInput {
        manifest: manifest.to_string(),
        file_name: "pod.yaml".into(),
        cluster,
        user: user.map(str::to_string),
        identity: identity.map(|(u, g)| Identity { user: u.into(), groups: g.iter().map(|s| s.to_string()).collect() }),
        seed: 1,
        limit_ms: DEFAULT_LIMIT_MS,
    };
    let out = match run(&input) {
        Ok(r) => outline(&r),
        Err(e) => format!("lab error: {e}\n"),
    };
    expect.assert_eq(&out);
}

const POD: &str =
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n";

#[test]
fn accepted_pod() {
    check(
        None,
        None,
        None,
        POD,
        expect![[r#"
           0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/web
           0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
           0ms #1 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get pods in namespace default
           0ms #1 etcd                 kube-apiserver -> etcd: reads /registry/pods/default/web: not found
           0ms #1 etcd                 kube-apiserver -> kubectl: 404 Not Found: pods "web" not found
           4ms #2 request              kubectl -> kube-apiserver: kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
           4ms #2 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
           4ms #2 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to create pods in namespace default
           4ms #2 validation           kube-apiserver -> kube-apiserver: decodes the Pod strictly (no unknown or duplicate fields)
           4ms #2 validation           kube-apiserver -> kube-apiserver: Pod "web" is valid
           4ms #2 etcd                 kube-apiserver -> etcd: creates /registry/pods/default/web at revision 149
                    etcd Create /registry/pods/default/web rev 149
           4ms #2 etcd                 kube-apiserver -> kubectl: 201 Created
        --- kubectl (exit 0)
        pod/web created
    "#]],
    );
}
