//! `kubectl patch TYPE NAME -p PATCH [--type=strategic|merge|json]`: kubectl GETs the object
//! (its resource builder visits it by name), then PATCHes it with the content type of the
//! patch type (`application/strategic-merge-patch+json`, `application/merge-patch+json`,
//! `application/json-patch+json`) and prints `deployment.apps/web patched`, or `patched (no
//! change)` when the object it got back equals the one it read.

use super::dry_run::DryRun;
use super::verbs::{server_error, target, unknown_flag};
use super::*;
use crate::trace::UserInfo;
use serde_json::Value;

/// Joins `-p VALUE` into `-p=VALUE` for the flags of one command that take a value (the
/// session's shared flag list does not know them, and `-p` means `--previous` to `kubectl
/// logs`).
pub(super) fn join_valued(words: &[String], valued: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if valued.contains(&w.as_str()) && i + 1 < words.len() {
            out.push(format!("{w}={}", words[i + 1]));
            i += 2;
        } else {
            out.push(w.clone());
            i += 1;
        }
    }
    out
}

impl Session {
    /// The request of [`Session::request`], impersonating `--as`/`--as-group` when given.
    pub(super) fn request_as(
        &self,
        flags: &Flags,
        verb: Verb,
        res: &'static ResourceInfo,
        ns: Option<&str>,
        name: Option<&str>,
    ) -> ApiRequest {
        let mut req = self.request(verb, res, ns, name);
        if let Some(user) = flags.value(&["--as"]) {
            let groups = flags.flags.iter().filter(|(n, _)| n == "--as-group").filter_map(|(_, v)| v.clone()).collect();
            req.caller.impersonate = Some(UserInfo { username: user.to_string(), groups });
        }
        req
    }

    pub(super) fn patch(&mut self, words: &[String]) -> Output {
        let flags = parse_flags(&join_valued(words, &["-p", "--patch", "--type", "--as", "--as-group"]));
        let known = ["-n", "--namespace", "-p", "--patch", "--type", "--as", "--as-group", "--dry-run"];
        if let Some(f) = flags.unknown(&known) {
            return unknown_flag("patch", f);
        }
        let dry_run = match self.dry_run_flag(&flags) {
            Ok(d) => d,
            Err(e) => return e,
        };
        let patch_type = flags.value(&["--type"]).unwrap_or("strategic").to_ascii_lowercase();
        if !matches!(patch_type.as_str(), "json" | "merge" | "strategic") {
            return Output::error(format!(
                "error: --type must be one of [json merge strategic], not \"{}\"",
                flags.value(&["--type"]).unwrap_or_default()
            ));
        }
        let Some(text) = flags.value(&["-p", "--patch"]).filter(|p| !p.is_empty()) else {
            return Output::error("error: must specify --patch or --patch-file containing the contents of the patch");
        };
        // kubectl reads the patch as YAML (JSON is YAML) and sends it as JSON.
        let body: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(_) => match serde_yaml::from_str::<Value>(text) {
                Ok(v) if v.is_object() || v.is_array() => v,
                Ok(_) | Err(_) => {
                    let why = serde_yaml::from_str::<Value>(text)
                        .err()
                        .map(|e| {
                            let line = e.location().map(|l| l.line()).unwrap_or(1);
                            format!("yaml: line {line}: {}", e.to_string().split(" at line").next().unwrap_or_default())
                        })
                        .unwrap_or_else(|| {
                            "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type map[string]interface {}".to_string()
                        });
                    return Output::error(format!("error: unable to parse {}: {why}", go_quote(text)));
                }
            },
        };
        let (res, name) = match target(&flags.args) {
            Ok(t) => t,
            Err(out) => return out,
        };
        let ns = self.namespace_of(&flags);
        self.command = Some(KubectlCommand {
            name: "kubectl patch",
            field_manager: "kubectl-patch",
            strict: false,
            merge_patch: patch_type == "merge",
            dry_run: dry_run == DryRun::Server,
        });
        let get = self.request_as(&flags, Verb::Get, res, Some(&ns), Some(&name));
        let resp = apiserver::handle(&mut self.world, get);
        if let Some(status) = resp.error.clone() {
            return server_error(status);
        }
        let before = resp.into_object().map(|o| o.to_json()).unwrap_or_default();
        if patch_type == "json" && !body.is_array() {
            return Output::error(
                "error: json: cannot unmarshal object into Go value of type jsonpatch.Patch".to_string(),
            );
        }
        let changed = if dry_run == DryRun::Client {
            // kubectl patches its copy of the object and sends nothing.
            let mut after = before.clone();
            let applied = match patch_type.as_str() {
                "json" => crate::admission::jsonpatch::apply_patch(&mut after, &body).map_err(|e| e.to_string()),
                "merge" => {
                    crate::cluster::merge_patch(&mut after, &body);
                    Ok(())
                }
                _ => {
                    crate::apiserver::strategic::merge(&mut after, &body);
                    Ok(())
                }
            };
            if let Err(e) = applied {
                return Output::error(format!("error: {e}"));
            }
            after != before
        } else {
            let mut req = self.request_as(&flags, Verb::Patch, res, Some(&ns), Some(&name));
            req.body = Some(Body::Json(body));
            let resp = apiserver::handle(&mut self.world, req);
            if let Some(status) = resp.error.clone() {
                return server_error(status);
            }
            resp.into_object().is_none_or(|a| a.to_json() != before)
        };
        // kubectl patch names its operation after the dry-run suffix is set, so its lines
        // never carry ` (dry run)` / ` (server dry run)` (patch.go's ToPrinter).
        Output {
            stdout: format!(
                "{}/{name} {}\n",
                kind_string(res),
                if changed { "patched" } else { "patched (no change)" }
            ),
            stderr: String::new(),
            exit: 0,
        }
    }
}

/// Go's `%q` of a string (printable ASCII kept, `"` and `\` escaped).
pub(super) fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::super::inspect::tests::transcript;
    use expect_test::expect;

    const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.29\n";

    #[test]
    fn patch_deployments_and_pods() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{DEPLOYMENT}EOF\nsleep 20s\nkubectl patch deployment web -p '{{\"spec\":{{\"template\":{{\"spec\":{{\"containers\":[{{\"name\":\"nginx\",\"image\":\"nginx:1.28\"}}]}}}}}}}}'\nkubectl rollout status deployment/web --timeout=60s\nkubectl get rs\nkubectl patch deploy/web --type=merge -p '{{\"spec\":{{\"replicas\":1}}}}'\nkubectl patch deployment web --type=json -p '[{{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":2}}]'\nkubectl patch deployment web --type=json -p '[{{\"op\":\"remove\",\"path\":\"/spec/nope\"}}]'\nkubectl patch deployment web -p '{{\"spec\":{{\"replicas\":-1}}}}'\nkubectl patch deployment web -p '{{bad'\nkubectl patch deployment nope -p '{{}}'\nkubectl patch deployment web -p '{{\"spec\":{{\"replicas\":3}}}}' --as alice\nkubectl patch deployment web --type=foo -p '{{}}'\nkubectl patch deployment web\nkubectl patch deployment web -p '{{}}' --bogus\n"
        );
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends POST /apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms] $ kubectl patch deployment web -p '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.28"}]}}}}'
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-patch
            deployment.apps/web patched
            (exit status 0)
            [20004ms-23012ms] $ kubectl rollout status deployment/web --timeout=60s
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            Waiting for deployment spec update to be observed...
            Waiting for deployment "web" rollout to finish: 0 out of 1 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...
            Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...
            deployment "web" successfully rolled out
            (exit status 0)
            [23012ms-23012ms] $ kubectl get rs
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets?limit=500
            NAME             DESIRED   CURRENT   READY   AGE
            web-7c64c74567   0         0         0       23s
            web-c47498c66    1         1         1       3s
            (exit status 0)
            [23012ms-23012ms] $ kubectl patch deploy/web --type=merge -p '{"spec":{"replicas":1}}'
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-patch
            deployment.apps/web patched (no change)
            (exit status 0)
            [23012ms-23012ms] $ kubectl patch deployment web --type=json -p '[{"op":"replace","path":"/spec/replicas","value":2}]'
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-patch
            deployment.apps/web patched
            (exit status 0)
            [23012ms-23012ms] $ kubectl patch deployment web --type=json -p '[{"op":"remove","path":"/spec/nope"}]'
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-patch
            Error from server (BadRequest): remove operation does not apply: doc is missing path: "/spec/nope": missing value
            (exit status 1)
            [23012ms-23012ms] $ kubectl patch deployment web -p '{"spec":{"replicas":-1}}'
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-patch
            The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
            (exit status 1)
            [23012ms-23012ms] $ kubectl patch deployment web -p '{bad'
            error: unable to parse "{bad": yaml: line 2: did not find expected ',' or '}'
            (exit status 1)
            [23012ms-23012ms] $ kubectl patch deployment nope -p '{}'
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/nope
            Error from server (NotFound): deployments.apps "nope" not found
            (exit status 1)
            [23012ms-23012ms] $ kubectl patch deployment web -p '{"spec":{"replicas":3}}' --as alice
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            Error from server (Forbidden): deployments.apps "web" is forbidden: User "alice" cannot get resource "deployments" in API group "apps" in the namespace "default"
            (exit status 1)
            [23012ms-23012ms] $ kubectl patch deployment web --type=foo -p '{}'
            error: --type must be one of [json merge strategic], not "foo"
            (exit status 1)
            [23012ms-23012ms] $ kubectl patch deployment web
            error: must specify --patch or --patch-file containing the contents of the patch
            (exit status 1)
            [23012ms-23012ms] $ kubectl patch deployment web -p '{}' --bogus
            Error: unknown flag: --bogus
            See 'kubectl patch --help' for usage.
            (exit status 1)
        "#]].assert_eq(&transcript(None, &script));
    }

    #[test]
    fn patch_a_pods_image() {
        let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\nspec:\n  containers:\n  - name: app\n    image: nginx:1.29\n";
        let script = format!(
            "kubectl apply -f - <<EOF\n{pod}EOF\nsleep 20s\nkubectl patch pod solo -p '{{\"spec\":{{\"containers\":[{{\"name\":\"app\",\"image\":\"nginx:1.28\"}}]}}}}'\nsleep 30s\nkubectl get pods\nkubectl describe pod solo\n"
        );
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
              > kubectl sends GET /api/v1/namespaces/default/pods/solo
              > kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            pod/solo created
            (exit status 0)
            [4ms-20004ms] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms] $ kubectl patch pod solo -p '{"spec":{"containers":[{"name":"app","image":"nginx:1.28"}]}}'
              > kubectl sends GET /api/v1/namespaces/default/pods/solo
              > kubectl sends PATCH /api/v1/namespaces/default/pods/solo?fieldManager=kubectl-patch
            pod/solo patched
            (exit status 0)
            [20004ms-50004ms] $ sleep 30s
            (exit status 0)
            [50004ms-50004ms] $ kubectl get pods
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            NAME   READY   STATUS    RESTARTS      AGE
            solo   1/1     Running   1 (30s ago)   50s
            (exit status 0)
            [50004ms-50004ms] $ kubectl describe pod solo
              > kubectl sends GET /api/v1/namespaces/default/pods/solo
            Name:             solo
            Namespace:        default
            Priority:         0
            Service Account:  default
            Node:             kind-worker/172.18.0.3
            Start Time:       Thu, 01 Jan 2026 00:00:00 +0000
            Labels:           <none>
            Annotations:      <none>
            Status:           Running
            IP:               10.244.1.2
            IPs:
              IP:  10.244.1.2
            Containers:
              app:
                Container ID:   containerd://a7ff0d388687ffb2de70d1019fc66081d6de6acd12c87e38530e0e6118e9685e
                Image:          nginx:1.28
                Image ID:       docker.io/library/nginx@sha256:e62696719281781f0041e9ac13f87c2afd7e72d0ce85c4ad544b56841a1392b8
                Port:           <none>
                Host Port:      <none>
                State:          Running
                  Started:      Thu, 01 Jan 2026 00:00:22 +0000
                Last State:     Terminated
                  Reason:       Completed
                  Exit Code:    0
                  Started:      Thu, 01 Jan 2026 00:00:02 +0000
                  Finished:     Thu, 01 Jan 2026 00:00:20 +0000
                Ready:          True
                Restart Count:  1
                Environment:    <none>
                Mounts:
                  /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-t29pp (ro)
            Conditions:
              Type                        Status
              PodReadyToStartContainers   True 
              Initialized                 True 
              Ready                       True 
              ContainersReady             True 
              PodScheduled                True 
            Volumes:
              kube-api-access-t29pp:
                Type:                    Projected (a volume that contains injected data from multiple sources)
                TokenExpirationSeconds:  3607
                ConfigMapName:           kube-root-ca.crt
                Optional:                false
                DownwardAPI:             true
            QoS Class:                   BestEffort
            Node-Selectors:              <none>
            Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                                         node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
            Events:
              Type    Reason     Age                From               Message
              ----    ------     ----               ----               -------
              Normal  Scheduled  50s                default-scheduler  Successfully assigned default/solo to kind-worker
              Normal  Pulling    50s                kubelet            spec.containers{app}: Pulling image "nginx:1.29"
              Normal  Pulled     48s                kubelet            spec.containers{app}: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
              Normal  Killing    30s                kubelet            spec.containers{app}: Container app definition changed, will be restarted
              Normal  Pulling    30s                kubelet            spec.containers{app}: Pulling image "nginx:1.28"
              Normal  Created    28s (x2 over 48s)  kubelet            spec.containers{app}: Container created
              Normal  Started    28s (x2 over 48s)  kubelet            spec.containers{app}: Container started
              Normal  Pulled     28s                kubelet            spec.containers{app}: Successfully pulled image "nginx:1.28" in 2.332s (2.332s including waiting). Image size: 71882654 bytes.
            (exit status 0)
        "#]].assert_eq(&transcript(None, &script));
    }
}
