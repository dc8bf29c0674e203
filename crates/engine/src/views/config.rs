//! `kubectl describe` of the configuration and policy kinds (`pkg/describe/describe.go`):
//! ConfigMap, Secret, Namespace (with its quotas and limit ranges), ServiceAccount,
//! LimitRange, ResourceQuota, Role, ClusterRole, RoleBinding and ClusterRoleBinding.

use super::describe::{
    canonical_quantity, describe_events, print_annotations_multiline, print_labels_multiline, PrefixWriter,
};
use super::format::{rfc1123z_opt, Clock};
use k8s_openapi::api::core::v1::{
    ConfigMap, Event, LimitRange, LimitRangeSpec, Namespace, ResourceQuota, Secret, ServiceAccount,
};
use k8s_openapi::api::rbac::v1::{PolicyRule, RoleRef, Subject};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use std::collections::{BTreeMap, BTreeSet};

fn name_of(meta: &ObjectMeta) -> &str {
    meta.name.as_deref().unwrap_or("")
}

fn namespace_of(meta: &ObjectMeta) -> &str {
    meta.namespace.as_deref().unwrap_or("")
}

/// Name, Namespace, Labels and Annotations, the head of most describers.
fn describe_head(w: &mut PrefixWriter, meta: &ObjectMeta, with_namespace: bool) {
    w.write(0, &format!("Name:\t{}\n", name_of(meta)));
    if with_namespace {
        w.write(0, &format!("Namespace:\t{}\n", namespace_of(meta)));
    }
    print_labels_multiline(w, "Labels", meta.labels.as_ref());
    print_annotations_multiline(w, "Annotations", meta.annotations.as_ref());
}

/// `ConfigMapDescriber`: each data key (sorted) with its value under a `----` rule, each
/// binary key with its size, then the events.
pub fn describe_configmap(cm: &ConfigMap, events: &[&Event], clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    describe_head(&mut w, &cm.metadata, true);
    w.write(0, "\nData\n====\n");
    for (k, v) in cm.data.iter().flatten() {
        w.write(0, &format!("{k}:\n----\n"));
        w.write(0, &format!("{v}\n"));
        w.write(0, "\n");
    }
    w.write(0, "\nBinaryData\n====\n");
    for (k, v) in cm.binary_data.iter().flatten() {
        w.write(0, &format!("{k}: {} bytes\n", v.0.len()));
    }
    w.write(0, "\n");
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `describeSecret`: the type and each key's size; the token of a service-account-token
/// Secret in clear. (No Secret is stored with `stringData`: the API server merges it into
/// `data` when it decodes the object, `apiserver::hooks::convert`.)
pub fn describe_secret(secret: &Secret) -> String {
    let mut w = PrefixWriter::new();
    describe_head(&mut w, &secret.metadata, true);
    let type_ = secret.type_.as_deref().unwrap_or("");
    w.write(0, &format!("\nType:\t{type_}\n"));
    w.write(0, "\nData\n====\n");
    let data: BTreeMap<&str, &[u8]> = secret.data.iter().flatten().map(|(k, v)| (k.as_str(), &v.0[..])).collect();
    for (k, v) in &data {
        if *k == "token" && type_ == "kubernetes.io/service-account-token" {
            w.write(0, &format!("{k}:\t{}\n", String::from_utf8_lossy(v)));
        } else {
            w.write(0, &format!("{k}:\t{} bytes\n", v.len()));
        }
    }
    w.finish()
}

/// `describeServiceAccount`: its image pull secrets (kubectl no longer lists mountable
/// secrets or tokens since v1.28), then the events.
pub fn describe_serviceaccount(sa: &ServiceAccount, events: &[&Event], clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    describe_head(&mut w, &sa.metadata, true);
    let header = "Image pull secrets:";
    let names: Vec<&str> = sa.image_pull_secrets.iter().flatten().map(|s| s.name.as_str()).collect();
    if names.is_empty() {
        w.write(0, &format!("{header}\t<none>\n"));
    } else {
        let blank = " ".repeat(header.len());
        for (i, n) in names.iter().enumerate() {
            let prefix = if i == 0 { header } else { blank.as_str() };
            w.write(0, &format!("{prefix}\t{n}\n"));
        }
    }
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `describeLimitRangeSpec`: one row per limit type and resource (kubectl walks a Go map,
/// in no fixed order; the lab sorts by resource name).
fn describe_limit_range_spec(w: &mut PrefixWriter, spec: &LimitRangeSpec, prefix: &str) {
    for item in &spec.limits {
        let maps = [&item.min, &item.max, &item.default_request, &item.default, &item.max_limit_request_ratio];
        let resources: BTreeSet<&String> = maps.iter().flat_map(|m| m.iter().flat_map(|m| m.keys())).collect();
        for r in resources {
            let value = |m: &Option<BTreeMap<String, k8s_openapi::apimachinery::pkg::api::resource::Quantity>>| {
                m.as_ref().and_then(|m| m.get(r)).map(canonical_quantity).unwrap_or_else(|| "-".to_string())
            };
            w.write(
                0,
                &format!(
                    "{prefix}{}\t{r}\t{}\t{}\t{}\t{}\t{}\n",
                    item.type_,
                    value(&item.min),
                    value(&item.max),
                    value(&item.default_request),
                    value(&item.default),
                    value(&item.max_limit_request_ratio)
                ),
            );
        }
    }
}

/// `DescribeLimitRanges`: the limit ranges of a namespace merged into one table.
fn describe_limit_ranges(w: &mut PrefixWriter, ranges: &[&LimitRange]) {
    if ranges.is_empty() {
        w.write(0, "No LimitRange resource.\n");
        return;
    }
    w.write(0, "Resource Limits\n Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n");
    w.write(0, " ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n");
    for lr in ranges {
        if let Some(spec) = &lr.spec {
            describe_limit_range_spec(w, spec, " ");
        }
    }
}

/// `helpTextForResourceQuotaScope`.
fn quota_scope_help(scope: &str) -> &'static str {
    match scope {
        "Terminating" => "Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system.",
        "NotTerminating" => "Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.",
        "BestEffort" => "Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.",
        "NotBestEffort" => "Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.",
        _ => "",
    }
}

fn sorted_scopes(quota: &ResourceQuota) -> Vec<String> {
    let mut scopes: Vec<String> = quota.spec.as_ref().and_then(|s| s.scopes.clone()).unwrap_or_default();
    scopes.sort();
    scopes
}

/// A quota's hard resources, sorted, each with its used and hard quantity.
fn quota_rows(quota: &ResourceQuota) -> Vec<(String, String, String)> {
    let status = quota.status.as_ref();
    let hard = status.and_then(|s| s.hard.as_ref());
    let used = status.and_then(|s| s.used.as_ref());
    hard.iter()
        .flat_map(|h| h.iter())
        .map(|(r, h)| {
            let u = used.and_then(|u| u.get(r)).map(canonical_quantity).unwrap_or_else(|| "0".to_string());
            (r.clone(), u, canonical_quantity(h))
        })
        .collect()
}

/// `DescribeResourceQuotas`: every quota of a namespace, by name.
fn describe_resource_quotas(w: &mut PrefixWriter, quotas: &[&ResourceQuota]) {
    if quotas.is_empty() {
        w.write(0, "No resource quota.\n");
        return;
    }
    let mut quotas = quotas.to_vec();
    crate::sort::sort_by_key(&mut quotas, |q| name_of(&q.metadata).to_string());
    w.write(0, "Resource Quotas\n");
    for q in quotas {
        w.write(1, &format!("Name:\t{}\n", name_of(&q.metadata)));
        let scopes = sorted_scopes(q);
        if !scopes.is_empty() {
            w.write(1, &format!("Scopes:\t{}\n", scopes.join(", ")));
            for s in &scopes {
                let help = quota_scope_help(s);
                if !help.is_empty() {
                    w.write(1, &format!("* {help}\n"));
                }
            }
        }
        w.write(1, "Resource\tUsed\tHard\n");
        w.write(1, "--------\t---\t---\n");
        for (r, used, hard) in quota_rows(q) {
            w.write(1, &format!("{r}\t{used}\t{hard}\n"));
        }
    }
}

/// `describeNamespace`: status, conditions, then the namespace's quotas and limit ranges.
pub fn describe_namespace(ns: &Namespace, quotas: &[&ResourceQuota], ranges: &[&LimitRange]) -> String {
    let mut w = PrefixWriter::new();
    describe_head(&mut w, &ns.metadata, false);
    let status = ns.status.as_ref();
    w.write(0, &format!("Status:\t{}\n", status.and_then(|s| s.phase.as_deref()).unwrap_or("")));
    let conditions = status.and_then(|s| s.conditions.as_ref()).filter(|c| !c.is_empty());
    if let Some(conditions) = conditions {
        w.write(0, "Conditions:\n");
        w.write(1, "Type\tStatus\tLastTransitionTime\tReason\tMessage\n");
        w.write(1, "----\t------\t------------------\t------\t-------\n");
        for c in conditions {
            w.write(
                1,
                &format!(
                    "{}\t{}\t{}\t{}\t{}\n",
                    c.type_,
                    c.status,
                    rfc1123z_opt(c.last_transition_time.as_ref()),
                    c.reason.as_deref().unwrap_or(""),
                    c.message.as_deref().unwrap_or("")
                ),
            );
        }
    }
    w.write(0, "\n");
    describe_resource_quotas(&mut w, quotas);
    w.write(0, "\n");
    describe_limit_ranges(&mut w, ranges);
    w.finish()
}

/// `describeLimitRange`.
pub fn describe_limitrange(lr: &LimitRange) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", name_of(&lr.metadata)));
    w.write(0, &format!("Namespace:\t{}\n", namespace_of(&lr.metadata)));
    w.write(0, "Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n");
    w.write(0, "----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n");
    if let Some(spec) = &lr.spec {
        describe_limit_range_spec(&mut w, spec, "");
    }
    w.finish()
}

/// `describeQuota` (the used quantity is printed as stored; kubectl re-formats it in the
/// hard quantity's format when the two differ).
pub fn describe_resourcequota(q: &ResourceQuota) -> String {
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", name_of(&q.metadata)));
    w.write(0, &format!("Namespace:\t{}\n", namespace_of(&q.metadata)));
    let scopes = sorted_scopes(q);
    if !scopes.is_empty() {
        w.write(0, &format!("Scopes:\t{}\n", scopes.join(", ")));
        for s in &scopes {
            let help = quota_scope_help(s);
            if !help.is_empty() {
                w.write(0, &format!(" * {help}\n"));
            }
        }
    }
    w.write(0, "Resource\tUsed\tHard\n");
    w.write(0, "--------\t----\t----\n");
    for (r, used, hard) in quota_rows(q) {
        w.write(0, &format!("{r}\t{used}\t{hard}\n"));
    }
    w.finish()
}

/// A rule with at most one API group, resource, resource name, URL and verb
/// (`rbac.BreakdownRule`).
fn breakdown_rule(rule: &PolicyRule) -> Vec<PolicyRule> {
    let mut out = Vec::new();
    let one = |s: &String| Some(vec![s.clone()]);
    for group in rule.api_groups.iter().flatten() {
        for resource in rule.resources.iter().flatten() {
            for verb in &rule.verbs {
                let names: Vec<Option<Vec<String>>> = match rule.resource_names.as_ref().filter(|n| !n.is_empty()) {
                    Some(names) => names.iter().map(one).collect(),
                    None => vec![None],
                };
                for resource_names in names {
                    out.push(PolicyRule {
                        api_groups: one(group),
                        resources: one(resource),
                        verbs: vec![verb.clone()],
                        resource_names,
                        non_resource_urls: None,
                    });
                }
            }
        }
    }
    for url in rule.non_resource_urls.iter().flatten() {
        for verb in &rule.verbs {
            out.push(PolicyRule {
                non_resource_urls: one(url),
                verbs: vec![verb.clone()],
                api_groups: None,
                resources: None,
                resource_names: None,
            });
        }
    }
    out
}

/// The API group, resource and resource name of a rule `rbac.CompactRules` merges.
type SimpleResource = (String, String, Option<String>);

/// `rbac.CompactRules`: the broken-down rules of one group, resource and resource name
/// merged into one with their verbs in first-seen order.
fn compact_rules(rules: Vec<PolicyRule>) -> Vec<PolicyRule> {
    let mut compacted = Vec::new();
    let mut simple: Vec<(SimpleResource, PolicyRule)> = Vec::new();
    for rule in rules {
        let single = |v: &Option<Vec<String>>| match v.as_deref() {
            Some([x]) => Some(x.clone()),
            _ => None,
        };
        let is_simple = rule.non_resource_urls.as_ref().is_none_or(|u| u.is_empty())
            && rule.resource_names.as_ref().is_none_or(|n| n.len() <= 1);
        match (is_simple, single(&rule.api_groups), single(&rule.resources)) {
            (true, Some(g), Some(r)) => {
                let key = (g, r, single(&rule.resource_names));
                match simple.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, existing)) => {
                        for verb in &rule.verbs {
                            if !existing.verbs.contains(verb) {
                                existing.verbs.push(verb.clone());
                            }
                        }
                    }
                    None => simple.push((key, rule)),
                }
            }
            _ => compacted.push(rule),
        }
    }
    compacted.extend(simple.into_iter().map(|(_, r)| r));
    compacted
}

/// Go's `%v` of a string slice: `[a b]`.
fn go_list(v: Option<&Vec<String>>) -> String {
    format!("[{}]", v.map(|v| v.join(" ")).unwrap_or_default())
}

/// The generated `PolicyRule.String()` kubectl sorts the rules by.
fn rule_sort_key(r: &PolicyRule) -> String {
    format!(
        "&PolicyRule{{Verbs:{},APIGroups:{},Resources:{},ResourceNames:{},NonResourceURLs:{},}}",
        go_list(Some(&r.verbs)),
        go_list(r.api_groups.as_ref()),
        go_list(r.resources.as_ref()),
        go_list(r.resource_names.as_ref()),
        go_list(r.non_resource_urls.as_ref())
    )
}

/// `CombineResourceGroup`: `resource.group[/subresource]`.
fn combine_resource_group(resources: Option<&Vec<String>>, groups: Option<&Vec<String>>) -> String {
    let Some(first) = resources.and_then(|r| r.first()) else { return String::new() };
    let (resource, sub) = match first.split_once('/') {
        Some((r, s)) => (r, Some(s)),
        None => (first.as_str(), None),
    };
    let mut out = resource.to_string();
    if let Some(g) = groups.and_then(|g| g.first()).filter(|g| !g.is_empty()) {
        out = format!("{out}.{g}");
    }
    if let Some(s) = sub {
        out = format!("{out}/{s}");
    }
    out
}

/// `RoleDescriber` / `ClusterRoleDescriber`: the rules broken down, compacted and sorted
/// into the PolicyRule table (no Namespace line, as kubectl prints none).
pub fn describe_role(meta: &ObjectMeta, rules: &[PolicyRule]) -> String {
    let mut compact = compact_rules(rules.iter().flat_map(breakdown_rule).collect());
    crate::sort::sort_by_key(&mut compact, rule_sort_key);
    let mut w = PrefixWriter::new();
    describe_head(&mut w, meta, false);
    w.write(0, "PolicyRule:\n");
    w.write(1, "Resources\tNon-Resource URLs\tResource Names\tVerbs\n");
    w.write(1, "---------\t-----------------\t--------------\t-----\n");
    for r in &compact {
        w.write(
            1,
            &format!(
                "{}\t{}\t{}\t{}\n",
                combine_resource_group(r.resources.as_ref(), r.api_groups.as_ref()),
                go_list(r.non_resource_urls.as_ref()),
                go_list(r.resource_names.as_ref()),
                go_list(Some(&r.verbs))
            ),
        );
    }
    w.finish()
}

/// `RoleBindingDescriber` / `ClusterRoleBindingDescriber`: the role it grants and its
/// subjects.
pub fn describe_binding(meta: &ObjectMeta, role_ref: &RoleRef, subjects: &[Subject]) -> String {
    let mut w = PrefixWriter::new();
    describe_head(&mut w, meta, false);
    w.write(0, "Role:\n");
    w.write(1, &format!("Kind:\t{}\n", role_ref.kind));
    w.write(1, &format!("Name:\t{}\n", role_ref.name));
    w.write(0, "Subjects:\n");
    w.write(1, "Kind\tName\tNamespace\n");
    w.write(1, "----\t----\t---------\n");
    for s in subjects {
        w.write(1, &format!("{}\t{}\t{}\n", s.kind, s.name, s.namespace.as_deref().unwrap_or("")));
    }
    w.finish()
}
