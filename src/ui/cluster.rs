//! The cluster panel: the starting cluster (an engine preset, editable as YAML), whom kubectl
//! acts as (`--user`, `--as`, `--as-group`), and the nodes and policies (namespaces with Pod
//! Security levels, LimitRanges, quotas, RBAC bindings, webhooks) at the current step.

use super::Lab;
use leptos::prelude::*;
use podlab_engine::cluster::{preset, PRESETS};
use podlab_engine::views::{
    nodes_at, policy_at, BindingSummary, NamespaceSummary, NodeSummary, PolicySummary, Usage, WebhookSummary,
};

fn preset_title(name: &str) -> &'static str {
    match name {
        "kind" => "kind: 3 nodes, you are cluster admin",
        "restricted-namespace" => "restricted-namespace: Pod Security \"restricted\" enforced",
        "rbac-alice" => "rbac-alice: you are alice, who may only read Pods in dev",
        "tight-resources" => "tight-resources: small workers, a LimitRange and a quota",
        "gpu" => "gpu: a tainted GPU worker with one nvidia.com/gpu",
        "tainted-pool" => "tainted-pool: a dedicated batch pool behind a taint",
        "full" => "full: 6 nodes in zones, dev and prod, 3 users, quota, a webhook",
        _ => "",
    }
}

#[component]
pub fn ClusterPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    // The etcd revision the current step shows (the starting cluster before the first step).
    let revision = Memo::new(move |_| {
        let run = lab.run()?;
        Some(run.step(lab.step.get()).map(|s| s.revision).unwrap_or(run.run.setup_revision))
    });
    let nodes = Memo::new(move |_| Some(nodes_at(lab.run()?.run.store(), revision.get()?)));
    let policy = Memo::new(move |_| Some(policy_at(lab.run()?.run.store(), revision.get()?)));
    let users = move || lab.run().map(|r| (r.users.clone(), r.current_user.clone())).unwrap_or_default();

    view! {
        <section class="panel cluster" aria-labelledby="cluster-title">
            <h2 id="cluster-title" class="panel-title">
                "Cluster and identity"
            </h2>
            <div class="field">
                <label for="preset">"Starting cluster"</label>
                <select
                    id="preset"
                    prop:value=move || lab.settings.with(|s| s.preset.clone())
                    on:change=move |ev| {
                        let name = event_target_value(&ev);
                        if let Some(yaml) = preset(&name) {
                            lab.update_settings(|s| {
                                s.preset = name.clone();
                                s.cluster = yaml.to_string();
                                s.user.clear();
                            });
                        }
                    }
                >
                    {PRESETS
                        .iter()
                        .map(|(name, _)| view! { <option value=*name>{preset_title(name)}</option> })
                        .collect_view()}
                    <option value="custom" disabled=true>
                        "custom (edited below)"
                    </option>
                </select>
            </div>
            <details class="cluster-yaml">
                <summary>"Cluster YAML (editable)"</summary>
                <p id="cluster-hint" class="hint">
                    "Nodes, namespaces, RBAC and the lab's LabSettings (users, the default user and namespace). "
                    "A document naming an existing object is merged into it."
                </p>
                <label for="cluster-text" class="sr-only">
                    "Cluster YAML"
                </label>
                <textarea
                    id="cluster-text"
                    spellcheck="false"
                    wrap="off"
                    aria-describedby="cluster-hint"
                    prop:value=move || lab.settings.with(|s| s.cluster.clone())
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        lab.update_settings(|s| {
                            s.cluster = text;
                            s.preset = "custom".into();
                        });
                    }
                ></textarea>
            </details>
            <fieldset class="identity">
                <legend>"Who runs kubectl"</legend>
                <div class="field">
                    <label for="user">"kubeconfig user (--user)"</label>
                    <select
                        id="user"
                        prop:value=move || lab.settings.with(|s| s.user.clone())
                        on:change=move |ev| {
                            let u = event_target_value(&ev);
                            lab.update_settings(|s| s.user = u);
                        }
                    >
                        {move || {
                            let (list, current) = users();
                            let chosen = lab.settings.with_untracked(|s| s.user.clone());
                            let default_label = match current {
                                Some(c) => format!("{c} (the cluster's default)"),
                                None => "the cluster's default".to_string(),
                            };
                            let mut opts = vec![
                                view! {
                                    <option value="" selected=chosen.is_empty()>
                                        {default_label}
                                    </option>
                                }
                                    .into_any(),
                            ];
                            for u in list {
                                let sel = u == chosen;
                                opts.push(view! { <option value=u.clone() selected=sel>{u.clone()}</option> }.into_any());
                            }
                            opts.collect_view()
                        }}
                    </select>
                </div>
                <div class="field">
                    <label for="as-user">"Impersonate user (--as)"</label>
                    <input
                        id="as-user"
                        type="text"
                        autocomplete="off"
                        spellcheck="false"
                        placeholder="nobody"
                        prop:value=move || lab.settings.with(|s| s.as_user.clone())
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            lab.update_settings(|s| s.as_user = v);
                        }
                    />
                </div>
                <div class="field">
                    <label for="as-groups">"Impersonate groups (--as-group, comma-separated)"</label>
                    <input
                        id="as-groups"
                        type="text"
                        autocomplete="off"
                        spellcheck="false"
                        prop:value=move || lab.settings.with(|s| s.as_groups.clone())
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            lab.update_settings(|s| s.as_groups = v);
                        }
                    />
                </div>
                <p class="hint" id="identity-line">
                    {move || {
                        let s = lab.settings.get();
                        let mut cmd = format!("kubectl apply -f {}", s.file);
                        if !s.user.is_empty() {
                            cmd += &format!(" --user {}", s.user);
                        }
                        if !s.as_user.trim().is_empty() {
                            cmd += &format!(" --as {}", s.as_user.trim());
                            for g in crate::state::parse_groups(&s.as_groups) {
                                cmd += &format!(" --as-group {g}");
                            }
                        }
                        cmd
                    }}
                </p>
            </fieldset>
            <h3 class="sub" id="nodes-title">
                "Nodes at this step"
            </h3>
            <ul class="nodes" aria-labelledby="nodes-title">
                {move || {
                    nodes
                        .get()
                        .unwrap_or_default()
                        .into_iter()
                        .map(node_view)
                        .collect_view()
                }}
            </ul>
            {policy_view(policy)}
        </section>
    }
}

fn bar(label: &'static str, u: Usage) -> impl IntoView {
    let pct = u.percent();
    let text = format!("{label}: {} of {} requested ({pct}%)", u.used_text, u.allocatable_text);
    view! {
        <div class="usage">
            <span class="usage-label">{text.clone()}</span>
            <span class="bar" aria-hidden="true">
                <span class="fill" class:full={pct >= 90} style:width=format!("{pct}%")></span>
            </span>
        </div>
    }
}

fn node_view(n: NodeSummary) -> impl IntoView {
    let roles = if n.roles.is_empty() { "worker".to_string() } else { n.roles.join(", ") };
    let capacity = n.capacity.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(" · ");
    let labels = n.labels.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>();
    let label_count = format!("{} labels", labels.len());
    view! {
        <li class="node" data-node=n.name.clone()>
            <p class="node-head">
                <strong>{n.name.clone()}</strong>
                " "
                <span class="muted">{roles}</span>
                " "
                <span class={if n.ready == "True" { "badge ok" } else { "badge warn" }}>
                    {if n.ready == "True" { "Ready".to_string() } else { format!("Ready={}", n.ready) }}
                </span>
            </p>
            <p class="node-cap">"Capacity: " {capacity}</p>
            {bar("CPU", n.cpu)}
            {bar("Memory", n.memory)}
            {bar("Pods", n.pod_count)}
            {(!n.taints.is_empty())
                .then(|| view! { <p class="taints">"Taints: " <code>{n.taints.join(", ")}</code></p> })}
            <p class="node-pods">
                "Pods: "
                {if n.pods.is_empty() { "none".to_string() } else { n.pods.join(", ") }}
            </p>
            <details>
                <summary>{label_count}</summary>
                <ul class="plain labels">{labels.into_iter().map(|l| view! { <li><code>{l}</code></li> }).collect_view()}</ul>
            </details>
        </li>
    }
}

fn lines(title: &'static str, items: Vec<String>) -> impl IntoView {
    (!items.is_empty()).then(|| {
        view! {
            <div class="policy-line">
                <span class="muted">{title}</span>
                <ul class="plain policy-values">
                    {items.into_iter().map(|i| view! { <li><code>{i}</code></li> }).collect_view()}
                </ul>
            </div>
        }
    })
}

fn namespace_view(n: NamespaceSummary) -> impl IntoView {
    let level = if n.pod_security.is_empty() {
        "Pod Security: no labels (privileged)".to_string()
    } else {
        format!("Pod Security: {}", n.pod_security.join(", "))
    };
    view! {
        <li class="policy-item" data-namespace=n.name.clone()>
            <p>
                <strong>{n.name.clone()}</strong>
                " "
                <span class="muted">{level}</span>
            </p>
            {lines("LimitRange", n.limit_ranges)}
            {lines("ResourceQuota", n.quotas)}
        </li>
    }
}

fn binding_view(b: BindingSummary) -> impl IntoView {
    let grants = if b.role_missing { vec![format!("nothing: {} does not exist", b.role)] } else { b.rules };
    view! {
        <li class="policy-item">
            <p>
                <strong>{b.binding}</strong>
                " grants "
                <span>{b.role}</span>
                " to "
                {b.subjects.join(", ")}
            </p>
            {lines("Rules", grants)}
        </li>
    }
}

fn webhook_view(w: WebhookSummary) -> impl IntoView {
    let scope = if w.namespace_selector.is_empty() {
        "every namespace".to_string()
    } else {
        format!("namespaces with {}", w.namespace_selector)
    };
    view! {
        <li class="policy-item">
            <p>
                <strong>{w.name}</strong>
                " "
                <span class="muted">{format!("{}WebhookConfiguration {}", w.kind, w.configuration)}</span>
            </p>
            {lines("Calls on", w.rules)}
            <p class="policy-line">
                {format!("In {scope}; failurePolicy {}; the server {}.", w.failure_policy, w.server)}
            </p>
        </li>
    }
}

/// The three policy lists; the `<details>` elements stay put while the step changes (only
/// their contents follow it), so what the learner opened stays open.
fn policy_view(policy: Memo<Option<PolicySummary>>) -> impl IntoView {
    // Each part reads only what it shows, without copying the whole summary.
    let part = move |f: fn(&PolicySummary) -> String| {
        policy.with(|p| match p {
            Some(p) => f(p),
            None => f(&PolicySummary::default()),
        })
    };
    let namespaces = move || policy.with(|p| p.as_ref().map(|p| p.namespaces.clone()).unwrap_or_default());
    let bindings = move || policy.with(|p| p.as_ref().map(|p| p.bindings.clone()).unwrap_or_default());
    let webhooks = move || policy.with(|p| p.as_ref().map(|p| p.webhooks.clone()).unwrap_or_default());
    view! {
        <h3 class="sub" id="policy-title">
            "Policies at this step"
        </h3>
        <details class="policy" open=true>
            <summary>{move || part(|p| format!("Namespaces ({})", p.namespaces.len()))}</summary>
            <ul class="plain policy-list">{move || namespaces().into_iter().map(namespace_view).collect_view()}</ul>
        </details>
        <details class="policy">
            <summary>
                {move || {
                    part(|p| match p.system_bindings {
                        0 => format!("RBAC bindings ({})", p.bindings.len()),
                        n => format!("RBAC bindings ({}) and {n} bootstrap bindings named system:…", p.bindings.len()),
                    })
                }}
            </summary>
            <ul class="plain policy-list">{move || bindings().into_iter().map(binding_view).collect_view()}</ul>
        </details>
        <details class="policy">
            <summary>{move || part(|p| format!("Admission webhooks ({})", p.webhooks.len()))}</summary>
            {move || {
                let hooks = webhooks();
                if hooks.is_empty() {
                    view! { <p class="policy-line">"None: admission runs only the built-in plugins."</p> }.into_any()
                } else {
                    view! { <ul class="plain policy-list">{hooks.into_iter().map(webhook_view).collect_view()}</ul> }
                        .into_any()
                }
            }}
        </details>
    }
}
