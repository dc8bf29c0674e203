//! `--dry-run` on the session's writing commands (kubectl's `cmdutil.AddDryRunFlag` and
//! `GetDryRunStrategy`): `none` (the default), `client` (kubectl prints what it would do and
//! sends nothing), `server` (every write carries `dryRun=All`: the API server runs the whole
//! request, admission and validation included, and writes nothing to etcd). A bare
//! `--dry-run` (the flag's `NoOptDefVal`, `unchanged`) and the old boolean values still work,
//! with klog's deprecation warning on standard error; any other value is kubectl's error.
//! Successful lines end in ` (dry run)` or ` (server dry run)` (`PrintFlagsWithDryRunStrategy`).

use super::*;
pub(super) use crate::kubectl::DryRun;
use crate::kubectl::{FileVerb, Printing};
use serde_json::Value;

/// The line of `cmdutil/helpers.go` that logs each deprecation warning (kubectl v1.37's
/// source): the bare flag, and a boolean value.
const BARE_WARNING_LINE: u32 = 714;
const TRUE_WARNING_LINE: u32 = 728;
const FALSE_WARNING_LINE: u32 = 731;

/// The formats kubectl's printers know (`PrintFlags.AllowedFormats`, v1.37: `kyaml` is new),
/// for the error on any other `-o`.
const PRINTER_FORMATS: &str =
    "go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,yaml";

/// `--dry-run` and `-o` of `apply|create|replace -f`.
pub(super) struct FileFlags {
    pub dry_run: DryRun,
    pub printing: Printing,
    /// `yaml` or `json`.
    pub format: Option<&'static str>,
}

/// `-o yaml|json` of what `apply|create|replace -f` handled: `create` and `replace` print each
/// object as it comes back (YAML documents separated by `---`), `apply` prints them at the
/// end, the one object alone or several in a `List`.
pub(super) fn print_file_objects(objects: &[Value], format: &str, verb: FileVerb) -> String {
    let sorted = |o: &Value| {
        let mut o = o.clone();
        crate::kubectl::apply::sort_keys(&mut o);
        o
    };
    if verb == FileVerb::Apply && objects.len() > 1 {
        // A typed corev1.List: JSON in its fields' order, YAML with sorted keys.
        let items: Vec<Value> = objects.iter().map(sorted).collect();
        return if format == "json" {
            go_json_indent(&serde_json::json!({"kind": "List", "apiVersion": "v1", "metadata": {}, "items": items}))
        } else {
            go_yaml(&serde_json::json!({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {}}))
        };
    }
    let mut out = String::new();
    for (i, o) in objects.iter().enumerate() {
        if format == "json" {
            out += &go_json_indent(&sorted(o));
        } else {
            if i > 0 {
                out += "---\n";
            }
            out += &go_yaml(&sorted(o));
        }
    }
    out
}

impl Session {
    /// `--dry-run[=VALUE]` of a command; the deprecation warning (if any) goes to kubectl's
    /// log, printed first on the command's standard error.
    pub(super) fn dry_run_flag(&mut self, flags: &Flags) -> Result<DryRun, Output> {
        let Some((_, value)) = flags.flags.iter().rev().find(|(n, _)| n == "--dry-run") else {
            return Ok(DryRun::None);
        };
        let value = value.as_deref().unwrap_or("unchanged");
        let (strategy, warning) = match value {
            "unchanged" => (
                DryRun::Client,
                Some((
                    BARE_WARNING_LINE,
                    "--dry-run is deprecated and can be replaced with --dry-run=client.".to_string(),
                )),
            ),
            "client" => (DryRun::Client, None),
            "server" => (DryRun::Server, None),
            "none" => (DryRun::None, None),
            // strconv.ParseBool's spellings.
            "1" | "t" | "T" | "true" | "TRUE" | "True" => (
                DryRun::Client,
                Some((
                    TRUE_WARNING_LINE,
                    format!(
                        "--dry-run={value} is deprecated (boolean value) and can be replaced with --dry-run=client."
                    ),
                )),
            ),
            "0" | "f" | "F" | "false" | "FALSE" | "False" => (
                DryRun::None,
                Some((
                    FALSE_WARNING_LINE,
                    format!("--dry-run={value} is deprecated (boolean value) and can be replaced with --dry-run=none."),
                )),
            ),
            other => {
                return Err(Output::error(format!(
                    "error: Invalid dry-run value ({other}). Must be \"none\", \"server\", or \"client\"."
                )))
            }
        };
        if let Some((line, text)) = warning {
            let line = self.klog('W', &format!("helpers.go:{line}"), &text);
            self.log += &line;
        }
        Ok(strategy)
    }

    /// `--dry-run` and `-o` of a file command (`apply`, `create`, `replace`).
    pub(super) fn file_flags(&mut self, flags: &Flags) -> Result<FileFlags, Output> {
        let dry_run = self.dry_run_flag(flags)?;
        let (printing, format) = match flags.value(&["-o", "--output"]) {
            None | Some("") => (Printing::Operation, None),
            Some("name") => (Printing::Name, None),
            Some("yaml") => (Printing::Objects, Some("yaml")),
            Some("json") => (Printing::Objects, Some("json")),
            Some(o) if ["jsonpath", "go-template", "template", "templatefile", "kyaml"].iter().any(|p| o.starts_with(p)) => {
                return Err(Output::error(format!(
                    "podlab: -o {o} is not modelled by the lab's session yet (it prints -o name, yaml and json)"
                )))
            }
            Some(o) => {
                return Err(Output::error(format!(
                    "error: unable to match a printer suitable for the output format \"{o}\", allowed formats are: {PRINTER_FORMATS}"
                )))
            }
        };
        Ok(FileFlags { dry_run, printing, format })
    }

    /// One line of kubectl's log (klog's header: severity, `MMDD hh:mm:ss.uuuuuu`, the
    /// process id, `file:line]`) at the current cluster time.
    pub(super) fn klog(&self, severity: char, source: &str, text: &str) -> String {
        let stamp = crate::apiserver::timestamp(self.world.now);
        let header = stamp.0.strftime("%m%d %H:%M:%S").to_string();
        let micros = (self.world.now % 1000) * 1000;
        let pid = outage::kubectl_pid(self.commands.len());
        format!("{severity}{header}.{micros:06} {pid:>7} {source}] {text}\n")
    }

    /// Marks every write of the running command with `dryRun=All`.
    pub(super) fn server_dry_run(&mut self) {
        if let Some(c) = self.command.as_mut() {
            c.dry_run = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_script, Session};
    use crate::lab::Loaded;
    use crate::trace::{Component, Phase};
    use expect_test::expect;

    /// Each command with kubectl's requests (`>`) and what the API server wrote to etcd or
    /// did not write (`=`), its output and exit status.
    fn transcript(cluster: Option<&str>, script: &str) -> String {
        let loaded = Loaded::load(cluster.map(|c| crate::cluster::preset(c).unwrap())).unwrap();
        let mut session = Session::new(&loaded, 1, None, None, crate::lab::DEFAULT_LIMIT_MS).unwrap();
        let mut out = String::new();
        for c in parse_script(script, &|_| None).unwrap() {
            let r = session.run(&c).clone();
            out += &format!("[{}ms-{}ms] $ {}\n", r.start_ms, r.end_ms, r.line);
            for s in &session.world().steps[r.first_step..r.end_step] {
                if s.phase == Phase::Request && s.from == Component::Kubectl {
                    out += &format!("  > {}\n", s.summary);
                }
                let written = s.from == Component::ApiServer
                    && s.to == Component::Etcd
                    && ["creates", "updates", "deletes"].iter().any(|w| s.summary.starts_with(w));
                let read_back = s.from == Component::Etcd && s.to == Component::ApiServer;
                if written || read_back || s.summary.starts_with("dry run:") {
                    out += &format!("  = {}\n", s.summary);
                }
            }
            out += &format!("{}{}(exit status {})\n", r.stdout, r.stderr, r.exit_code);
        }
        out
    }

    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: web-\n  labels:\n    app: web\nspec:\n  containers:\n  - name: nginx\n    image: nginx:1.29\n    resources:\n      requests:\n        cpu: 100m\n        memory: 64Mi\n";
    const CM: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  mode: blue\n";
    const CM_GREEN: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  mode: green\n";

    /// `create -f`, `apply -f` and `replace -f` with each strategy: server dry runs go through
    /// admission and validation and write nothing; client dry runs send no write at all.
    #[test]
    fn dry_runs_of_file_commands() {
        let script = format!(
            "kubectl create -f - --dry-run=server -o yaml <<EOF\n{POD}EOF\nkubectl get pods\nkubectl create -f - --dry-run=client <<EOF\n{CM}EOF\nkubectl create -f - --dry-run <<EOF\n{CM}EOF\nkubectl apply -f - --dry-run=server <<EOF\n{CM}EOF\nkubectl apply -f - <<EOF\n{CM}EOF\nkubectl apply -f - --dry-run=client <<EOF\n{CM}EOF\nkubectl apply -f - --dry-run=client -o json <<EOF\n{CM_GREEN}EOF\nkubectl apply -f - --dry-run=server -o name <<EOF\n{CM_GREEN}EOF\nkubectl create -f - --dry-run=server <<EOF\n{CM}EOF\nkubectl replace -f - --dry-run=server <<EOF\n{CM_GREEN}EOF\nkubectl get configmap cfg -o yaml\nkubectl create -f - --dry-run=bogus <<EOF\n{CM}EOF\nkubectl apply -f - --dry-run=true -o wide <<EOF\n{CM}EOF\nkubectl create -f - -o jsonpath={{.metadata.name}} <<EOF\n{CM}EOF\n"
        );
        expect![[r#"
            [0ms-0ms] $ kubectl create -f - --dry-run=server -o yaml
              > kubectl sends POST /api/v1/namespaces/default/pods?dryRun=All&fieldManager=kubectl-create&fieldValidation=Strict
              = dry run: /registry/pods/default/web-sk4nv would be written; nothing is stored in etcd
            apiVersion: v1
            kind: Pod
            metadata:
              creationTimestamp: "2026-01-01T00:00:00Z"
              generateName: web-
              generation: 1
              labels:
                app: web
              name: web-sk4nv
              namespace: default
              uid: c34d0bff-9015-4280-a099-ec6cd7363ca5
            spec:
              containers:
              - image: nginx:1.29
                imagePullPolicy: IfNotPresent
                name: nginx
                resources:
                  requests:
                    cpu: 100m
                    memory: 64Mi
                terminationMessagePath: /dev/termination-log
                terminationMessagePolicy: File
                volumeMounts:
                - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                  name: kube-api-access-t29pp
                  readOnly: true
              dnsPolicy: ClusterFirst
              enableServiceLinks: true
              preemptionPolicy: PreemptLowerPriority
              priority: 0
              restartPolicy: Always
              schedulerName: default-scheduler
              securityContext: {}
              serviceAccount: default
              serviceAccountName: default
              terminationGracePeriodSeconds: 30
              tolerations:
              - effect: NoExecute
                key: node.kubernetes.io/not-ready
                operator: Exists
                tolerationSeconds: 300
              - effect: NoExecute
                key: node.kubernetes.io/unreachable
                operator: Exists
                tolerationSeconds: 300
              volumes:
              - name: kube-api-access-t29pp
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
            status:
              phase: Pending
              qosClass: Burstable
            (exit status 0)
            [0ms-0ms] $ kubectl get pods
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            No resources found in default namespace.
            (exit status 0)
            [0ms-0ms] $ kubectl create -f - --dry-run=client
              > --dry-run=client: kubectl prints what it would do and does not send the POST of configmap/cfg
            configmap/cfg created (dry run)
            (exit status 0)
            [0ms-0ms] $ kubectl create -f - --dry-run
              > --dry-run=client: kubectl prints what it would do and does not send the POST of configmap/cfg
            configmap/cfg created (dry run)
            W0101 00:00:00.000000   48240 helpers.go:714] --dry-run is deprecated and can be replaced with --dry-run=client.
            (exit status 0)
            [0ms-4ms] $ kubectl apply -f - --dry-run=server
              > kubectl sends GET /api/v1/namespaces/default/configmaps/cfg
              > kubectl sends POST /api/v1/namespaces/default/configmaps?dryRun=All&fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              = dry run: /registry/configmaps/default/cfg would be written; nothing is stored in etcd
            configmap/cfg created (server dry run)
            (exit status 0)
            [4ms-8ms] $ kubectl apply -f -
              > kubectl sends GET /api/v1/namespaces/default/configmaps/cfg
              > kubectl sends POST /api/v1/namespaces/default/configmaps?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              = creates /registry/configmaps/default/cfg at revision 156
            configmap/cfg created
            (exit status 0)
            [8ms-8ms] $ kubectl apply -f - --dry-run=client
              > kubectl sends GET /api/v1/namespaces/default/configmaps/cfg
            configmap/cfg unchanged (dry run)
            (exit status 0)
            [8ms-8ms] $ kubectl apply -f - --dry-run=client -o json
              > kubectl sends GET /api/v1/namespaces/default/configmaps/cfg
              > --dry-run=client: kubectl prints what it would do and does not send the PATCH of configmap/cfg
            {
                "apiVersion": "v1",
                "data": {
                    "mode": "green"
                },
                "kind": "ConfigMap",
                "metadata": {
                    "annotations": {
                        "kubectl.kubernetes.io/last-applied-configuration": "{\"apiVersion\":\"v1\",\"data\":{\"mode\":\"green\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"cfg\",\"namespace\":\"default\"}}\n"
                    },
                    "creationTimestamp": "2026-01-01T00:00:00Z",
                    "name": "cfg",
                    "namespace": "default",
                    "resourceVersion": "156",
                    "uid": "6f9b6dae-6f4c-47a8-aac2-ce17a5794a3b"
                }
            }
            (exit status 0)
            [8ms-12ms] $ kubectl apply -f - --dry-run=server -o name
              > kubectl sends GET /api/v1/namespaces/default/configmaps/cfg
              > kubectl sends PATCH /api/v1/namespaces/default/configmaps/cfg?dryRun=All&fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              = dry run: /registry/configmaps/default/cfg would be written; nothing is stored in etcd
            configmap/cfg
            (exit status 0)
            [12ms-12ms] $ kubectl create -f - --dry-run=server
              > kubectl sends POST /api/v1/namespaces/default/configmaps?dryRun=All&fieldManager=kubectl-create&fieldValidation=Strict
            Error from server (AlreadyExists): error when creating "STDIN": configmaps "cfg" already exists
            (exit status 1)
            [12ms-12ms] $ kubectl replace -f - --dry-run=server
              > kubectl sends PUT /api/v1/namespaces/default/configmaps/cfg?dryRun=All&fieldManager=kubectl-replace&fieldValidation=Strict
              = dry run: /registry/configmaps/default/cfg would be written; nothing is stored in etcd
            configmap/cfg replaced (server dry run)
            (exit status 0)
            [12ms-12ms] $ kubectl get configmap cfg -o yaml
              > kubectl sends GET /api/v1/namespaces/default/configmaps/cfg
            apiVersion: v1
            data:
              mode: blue
            kind: ConfigMap
            metadata:
              annotations:
                kubectl.kubernetes.io/last-applied-configuration: |
                  {"apiVersion":"v1","data":{"mode":"blue"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"cfg","namespace":"default"}}
              creationTimestamp: "2026-01-01T00:00:00Z"
              name: cfg
              namespace: default
              resourceVersion: "156"
              uid: 6f9b6dae-6f4c-47a8-aac2-ce17a5794a3b
            (exit status 0)
            [12ms-12ms] $ kubectl create -f - --dry-run=bogus
            error: Invalid dry-run value (bogus). Must be "none", "server", or "client".
            (exit status 1)
            [12ms-12ms] $ kubectl apply -f - --dry-run=true -o wide
            W0101 00:00:00.012000   48330 helpers.go:728] --dry-run=true is deprecated (boolean value) and can be replaced with --dry-run=client.
            error: unable to match a printer suitable for the output format "wide", allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,yaml
            (exit status 1)
            [12ms-12ms] $ kubectl create -f - -o jsonpath={.metadata.name}
            podlab: -o jsonpath={.metadata.name} is not modelled by the lab's session yet (it prints -o name, yaml and json)
            (exit status 1)
        "#]].assert_eq(&transcript(None, &script));
    }

    /// delete, scale, label, annotate, patch and set image with `--dry-run`, and the
    /// deprecated boolean values.
    #[test]
    fn dry_runs_of_verbs() {
        let deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.29\n";
        let script = format!(
            "kubectl apply -f - <<EOF\n{deploy}EOF\nsleep 10s\nkubectl scale deployment web --replicas=3 --dry-run=server\nkubectl scale deploy/web --replicas=3 --dry-run=client\nkubectl label deployment web tier=front --dry-run=server\nkubectl label deployment web tier=front --dry-run=client\nkubectl annotate deployment web note=x --dry-run=server\nkubectl patch deployment web -p '{{\"spec\":{{\"replicas\":4}}}}' --dry-run=server\nkubectl patch deployment web --type=merge -p '{{\"spec\":{{\"replicas\":1}}}}' --dry-run=client\nkubectl set image deployment/web nginx=nginx:1.30 --dry-run=server\nkubectl set image deployment/web nginx=nginx:1.30 --dry-run\nkubectl delete deployment web --dry-run=server\nkubectl delete pods -l app=web --dry-run=client\nkubectl get deployment web\nkubectl rollout history deployment/web\nkubectl delete deployment web --dry-run=false --wait=false\nkubectl scale deployment web --replicas=2 --dry-run=maybe\n"
        );
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends POST /apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              = creates /registry/deployments/default/web at revision 156
            deployment.apps/web created
            (exit status 0)
            [4ms-10004ms] $ sleep 10s
            (exit status 0)
            [10004ms-10004ms] $ kubectl scale deployment web --replicas=3 --dry-run=server
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web/scale?dryRun=All
              = dry run: /registry/deployments/default/web would be written; nothing is stored in etcd
            deployment.apps/web scaled (server dry run)
            (exit status 0)
            [10004ms-10004ms] $ kubectl scale deploy/web --replicas=3 --dry-run=client
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            deployment.apps/web scaled (dry run)
            (exit status 0)
            [10004ms-10004ms] $ kubectl label deployment web tier=front --dry-run=server
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?dryRun=All&fieldManager=kubectl-label
              = dry run: /registry/deployments/default/web would be written; nothing is stored in etcd
            deployment.apps/web labeled (server dry run)
            (exit status 0)
            [10004ms-10004ms] $ kubectl label deployment web tier=front --dry-run=client
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            deployment.apps/web labeled (dry run)
            (exit status 0)
            [10004ms-10004ms] $ kubectl annotate deployment web note=x --dry-run=server
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?dryRun=All&fieldManager=kubectl-annotate
              = dry run: /registry/deployments/default/web would be written; nothing is stored in etcd
            deployment.apps/web annotated (server dry run)
            (exit status 0)
            [10004ms-10004ms] $ kubectl patch deployment web -p '{"spec":{"replicas":4}}' --dry-run=server
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?dryRun=All&fieldManager=kubectl-patch
              = dry run: /registry/deployments/default/web would be written; nothing is stored in etcd
            deployment.apps/web patched
            (exit status 0)
            [10004ms-10004ms] $ kubectl patch deployment web --type=merge -p '{"spec":{"replicas":1}}' --dry-run=client
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            deployment.apps/web patched (no change)
            (exit status 0)
            [10004ms-10004ms] $ kubectl set image deployment/web nginx=nginx:1.30 --dry-run=server
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?dryRun=All&fieldManager=kubectl-set
              = dry run: /registry/deployments/default/web would be written; nothing is stored in etcd
            deployment.apps/web image updated (server dry run)
            (exit status 0)
            [10004ms-10004ms] $ kubectl set image deployment/web nginx=nginx:1.30 --dry-run
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            deployment.apps/web image updated (dry run)
            W0101 00:00:10.004000   48303 helpers.go:714] --dry-run is deprecated and can be replaced with --dry-run=client.
            (exit status 0)
            [10004ms-10004ms] $ kubectl delete deployment web --dry-run=server
              > kubectl sends DELETE /apis/apps/v1/namespaces/default/deployments/web
              = dry run: the deletion of /registry/deployments/default/web would be written; nothing is stored in etcd
            deployment.apps "web" deleted from default namespace (server dry run)
            (exit status 0)
            [10004ms-10004ms] $ kubectl delete pods -l app=web --dry-run=client
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            pod "web-7c64c74567-pgw5x" deleted from default namespace (dry run)
            (exit status 0)
            [10004ms-10004ms] $ kubectl get deployment web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            NAME   READY   UP-TO-DATE   AVAILABLE   AGE
            web    1/1     1            1           10s
            (exit status 0)
            [10004ms-10004ms] $ kubectl rollout history deployment/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets?limit=500
            deployment.apps/web 
            REVISION  CHANGE-CAUSE
            1         <none>

            (exit status 0)
            [10004ms-10004ms] $ kubectl delete deployment web --dry-run=false --wait=false
              > kubectl sends DELETE /apis/apps/v1/namespaces/default/deployments/web
              = deletes /registry/deployments/default/web at revision 180
            deployment.apps "web" deleted from default namespace
            W0101 00:00:10.004000   48348 helpers.go:731] --dry-run=false is deprecated (boolean value) and can be replaced with --dry-run=none.
            (exit status 0)
            [10004ms-10004ms] $ kubectl scale deployment web --replicas=2 --dry-run=maybe
            error: Invalid dry-run value (maybe). Must be "none", "server", or "client".
            (exit status 1)
        "#]].assert_eq(&transcript(None, &script));
    }

    /// Server dry runs in admission: ResourceQuota checks the request and charges nothing; a
    /// webhook with side effects cannot be called for a dry run.
    #[test]
    fn server_dry_runs_in_admission() {
        let webhook = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: audit\nwebhooks:\n- name: audit.example.com\n  admissionReviewVersions: [v1]\n  sideEffects: Some\n  failurePolicy: Ignore\n  clientConfig:\n    url: https://audit.example.com/review\n  namespaceSelector:\n    matchLabels:\n      kubernetes.io/metadata.name: default\n  rules:\n  - {operations: [CREATE], apiGroups: [\"\"], apiVersions: [v1], resources: [configmaps]}\n";
        let script = format!(
            "kubectl create -n dev -f - --dry-run=server <<EOF\n{POD}EOF\nkubectl describe quota -n dev\nkubectl apply -f - <<EOF\n{webhook}EOF\nkubectl create -f - --dry-run=server <<EOF\n{CM}EOF\nkubectl create -f - <<EOF\n{CM}EOF\n"
        );
        expect![[r#"
            [0ms-0ms] $ kubectl create -n dev -f - --dry-run=server
              > kubectl sends POST /api/v1/namespaces/dev/pods?dryRun=All&fieldManager=kubectl-create&fieldValidation=Strict
              = dry run: /registry/pods/dev/web-sk4nv would be written; nothing is stored in etcd
            pod/web-sk4nv created (server dry run)
            Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
            (exit status 0)
            [0ms-0ms] $ kubectl describe quota -n dev
              > kubectl sends GET /api/v1/namespaces/dev/resourcequotas?limit=500
            Name:            dev-quota
            Namespace:       dev
            Resource         Used  Hard
            --------         ----  ----
            pods             0     10
            requests.cpu     0     4
            requests.memory  0     8Gi
            (exit status 0)
            [0ms-4ms] $ kubectl apply -f -
              > kubectl sends GET /apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/audit
              > kubectl sends POST /apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              = creates /registry/validatingwebhookconfigurations/audit at revision 173
            validatingwebhookconfiguration.admissionregistration.k8s.io/audit created
            (exit status 0)
            [4ms-4ms] $ kubectl create -f - --dry-run=server
              > kubectl sends POST /api/v1/namespaces/default/configmaps?dryRun=All&fieldManager=kubectl-create&fieldValidation=Strict
            Error from server (BadRequest): error when creating "STDIN": admission webhook "audit.example.com" does not support dry run
            (exit status 1)
            [4ms-4ms] $ kubectl create -f -
              > kubectl sends POST /api/v1/namespaces/default/configmaps?fieldManager=kubectl-create&fieldValidation=Strict
              = creates /registry/configmaps/default/cfg at revision 174
            configmap/cfg created
            (exit status 0)
        "#]].assert_eq(&transcript(Some("full"), &script));
    }
}
