//! The current step in full: who acted towards whom, and its typed detail (HTTP request and
//! response, authentication, authorization, admission, validation, etcd, watch, controller,
//! scheduler, event, work, API call, note), each rendered as the engine recorded it.

use super::Lab;
use crate::state::{component_name, time_label};
use leptos::prelude::*;
use podlab_engine::trace::{
    AdmissionDetail, AdmissionStage, AdmissionVerdict, ApiCallDetail, AuthenticationDetail, AuthorizationDetail,
    Change, ControllerDetail, Detail, EtcdDetail, EtcdOperation, EventDetail, HttpRequestDetail, HttpResponseDetail,
    ScheduleDetail, Step, StepStatus, Table, UserInfo, ValidationDetail, WatchDetail, WebhookCall, WorkDetail,
};

/// The current step in full. With `phase_quiz` (the page, not an embed), its head offers the
/// quiz of the step's phase ("Check yourself on …"), opened in the phase card below.
#[component]
pub fn StepDetail(#[prop(optional)] phase_quiz: bool) -> impl IntoView {
    let lab = expect_context::<Lab>();
    view! {
        <section class="panel detail" aria-labelledby="detail-title">
            <h2 id="detail-title" class="panel-title">
                "Step detail"
            </h2>
            {move || {
                let Some(run) = lab.run() else {
                    return view! { <p class="muted">"No run yet."</p> }.into_any();
                };
                let i = lab.step.get();
                match run.step(i) {
                    Some(step) => {
                        let quiz = phase_quiz.then(|| super::explain::quiz_button(step.phase, "phase-quiz-open"));
                        step_view(step, run.len(), quiz).into_any()
                    }
                    None => view! { <p class="muted">"This run has no steps."</p> }.into_any(),
                }
            }}
        </section>
    }
}

fn status_badge(s: StepStatus) -> impl IntoView {
    let (class, text) = match s {
        StepStatus::Ok => ("badge ok", "ok"),
        StepStatus::Warning => ("badge warn", "warning"),
        StepStatus::Failed => ("badge fail", "failed"),
    };
    view! { <span class=class>{text}</span> }
}

fn step_view(step: &Step, total: usize, quiz: Option<AnyView>) -> impl IntoView {
    let node = step.node.as_deref();
    let arrow = if step.from == step.to {
        component_name(step.from, node)
    } else {
        format!("{} → {}", component_name(step.from, node), component_name(step.to, node))
    };
    let object = step.object.as_ref().map(|o| o.display());
    let request = step.request_id.map(|r| format!("request #{r}"));
    view! {
        <div class="step-head" id="step-head">
            <p class="step-meta">
                <span class="phase-tag">{step.phase.title()}</span>
                " · step " {step.index + 1} " of " {total} " · " {time_label(step.time_ms)} " · revision "
                {step.revision} {request.map(|r| format!(" · {r}"))} " " {status_badge(step.status)}
            </p>
            <p class="step-arrow">{arrow}</p>
            <p class="step-summary" id="step-summary">
                {step.summary.clone()}
            </p>
            {object.map(|o| view! { <p class="step-object">"Object: " <code>{o}</code></p> })}
            {quiz}
        </div>
        <div class="step-body" id="step-body">
            {detail_view(&step.detail)}
        </div>
    }
}

/// A definition list of label/value pairs (values monospace when `code`).
fn facts(rows: Vec<(&'static str, String)>) -> impl IntoView {
    view! {
        <dl class="facts">
            {rows
                .into_iter()
                .filter(|(_, v)| !v.is_empty())
                .map(|(k, v)| view! { <dt>{k}</dt> <dd>{v}</dd> })
                .collect_view()}
        </dl>
    }
}

fn user_text(u: &UserInfo) -> String {
    if u.groups.is_empty() {
        u.username.clone()
    } else {
        format!("{} (groups: {})", u.username, u.groups.join(", "))
    }
}

fn pre(text: String) -> impl IntoView {
    view! {
        <pre class="code-block" tabindex="0">
            {text}
        </pre>
    }
}

/// JSON bodies are shown pretty-printed.
fn pretty_json(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| body.to_string())
}

fn changes_table(caption: &'static str, changes: &[Change]) -> impl IntoView {
    let rows = changes.to_vec();
    (!rows.is_empty()).then(|| {
        view! {
            <div class="table-scroll" tabindex="0" role="region" aria-label=caption>
                <table class="diff">
                    <caption>{caption}</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Field"</th>
                            <th scope="col">"Before"</th>
                            <th scope="col">"After"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {rows
                            .into_iter()
                            .map(|c| {
                                view! {
                                    <tr>
                                        <th scope="row">
                                            <code>{c.path}</code>
                                        </th>
                                        <td class="before">
                                            <pre>{c.before.unwrap_or_else(|| "(absent)".into())}</pre>
                                        </td>
                                        <td class="after">
                                            <pre>{c.after.unwrap_or_else(|| "(absent)".into())}</pre>
                                        </td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
        }
    })
}

fn list(title: &'static str, items: Vec<String>) -> impl IntoView {
    (!items.is_empty()).then(|| {
        view! {
            <h3 class="sub">{title}</h3>
            <ul class="plain">{items.into_iter().map(|i| view! { <li>{i}</li> }).collect_view()}</ul>
        }
    })
}

fn detail_view(detail: &Detail) -> AnyView {
    match detail {
        Detail::Note { text } => view! { <p class="note">{text.clone()}</p> }.into_any(),
        Detail::Request(r) => request_view(r).into_any(),
        Detail::Response(r) => response_view(r).into_any(),
        Detail::Authentication(a) => authentication_view(a).into_any(),
        Detail::Authorization(a) => authorization_view(a).into_any(),
        Detail::Admission(a) => admission_view(a).into_any(),
        Detail::Validation(v) => validation_view(v).into_any(),
        Detail::Etcd(e) => etcd_view(e).into_any(),
        Detail::Watch(w) => watch_view(w).into_any(),
        Detail::Controller(c) => controller_view(c).into_any(),
        Detail::Schedule(s) => schedule_view(s).into_any(),
        Detail::Event(e) => event_view(e).into_any(),
        Detail::Work(w) => work_view(w).into_any(),
        Detail::ApiCall(a) => api_call_view(a).into_any(),
    }
}

fn request_view(r: &HttpRequestDetail) -> impl IntoView {
    let query = r.query.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&");
    let headers = r.headers.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("\n");
    view! {
        <h3 class="sub">"HTTP request"</h3>
        <p class="http-line">
            <code class="method">{r.method.clone()}</code>
            " "
            <code>{r.path.clone()}</code>
        </p>
        {facts(vec![("Query", query)])}
        {(!headers.is_empty()).then(|| view! { <h3 class="sub">"Headers"</h3> {pre(headers)} })}
        {(!r.body.is_empty()).then(|| view! { <h3 class="sub">"Body (JSON)"</h3> {pre(pretty_json(&r.body))} })}
    }
}

fn response_view(r: &HttpResponseDetail) -> impl IntoView {
    view! {
        <h3 class="sub">"HTTP response"</h3>
        <p class="http-line">
            <code class={if r.code >= 400 { "code fail" } else { "code ok" }}>{r.code}</code>
            " "
            {r.status_text.clone()}
        </p>
        {(!r.kubectl.is_empty())
            .then(|| view! { <h3 class="sub">"kubectl prints"</h3> {pre(r.kubectl.clone())} })}
        {(!r.body.is_empty()).then(|| view! { <h3 class="sub">"Body"</h3> {pre(pretty_json(&r.body))} })}
    }
}

fn authentication_view(a: &AuthenticationDetail) -> impl IntoView {
    view! {
        <h3 class="sub">"Authentication"</h3>
        {facts(
            vec![
                ("Method", a.method.clone()),
                ("Authenticated", if a.authenticated { "yes".into() } else { "no".into() }),
                ("User", a.user.username.clone()),
                ("Groups", a.user.groups.join(", ")),
                ("Impersonated by", a.impersonated_by.as_ref().map(user_text).unwrap_or_default()),
            ],
        )}
        <p class="explanation">{a.explanation.clone()}</p>
    }
}

fn authorization_view(a: &AuthorizationDetail) -> impl IntoView {
    let at = &a.attributes;
    let resource =
        if at.subresource.is_empty() { at.resource.clone() } else { format!("{}/{}", at.resource, at.subresource) };
    let group = if at.api_group.is_empty() { "\"\" (core)".to_string() } else { at.api_group.clone() };
    view! {
        <h3 class="sub">"Authorization"</h3>
        <p class={if a.allowed { "verdict ok" } else { "verdict fail" }}>
            {if a.allowed { "Allowed" } else { "Denied" }} " by " {a.authorizer.clone()}
        </p>
        <h3 class="sub">"Request attributes"</h3>
        {facts(
            vec![
                ("User", user_text(&at.user)),
                ("Verb", at.verb.clone()),
                ("API group", group),
                ("API version", at.api_version.clone()),
                ("Resource", resource),
                ("Namespace", at.namespace.clone()),
                ("Name", at.name.clone()),
            ],
        )}
        {a
            .matched
            .as_ref()
            .map(|m| {
                let binding = match &m.binding_namespace {
                    Some(ns) => format!("{} {ns}/{}", m.binding_kind, m.binding_name),
                    None => format!("{} {}", m.binding_kind, m.binding_name),
                };
                view! {
                    <h3 class="sub">"The rule that matched"</h3>
                    {facts(
                        vec![
                            ("Binding", binding),
                            ("Role", format!("{} {}", m.role_kind, m.role_name)),
                            ("Subject", m.subject.clone()),
                            ("Rule", format!("#{} {}", m.rule_index, m.rule)),
                        ],
                    )}
                }
            })}
        {list("Bindings considered", a.considered.clone())}
        <h3 class="sub">"Message"</h3>
        <p class="message-text">{a.message.clone()}</p>
    }
}

fn admission_view(a: &AdmissionDetail) -> impl IntoView {
    let stage = match a.stage {
        AdmissionStage::Mutating => "mutating",
        AdmissionStage::Validating => "validating",
    };
    let (class, verdict) = match a.verdict {
        AdmissionVerdict::NotApplicable => ("verdict", "Nothing to do"),
        AdmissionVerdict::Allowed => ("verdict ok", "Allowed"),
        AdmissionVerdict::Mutated => ("verdict ok", "Allowed and changed the object"),
        AdmissionVerdict::Denied => ("verdict fail", "Denied"),
    };
    view! {
        <h3 class="sub">"Admission plugin " <code>{a.plugin.clone()}</code> " (" {stage} ")"</h3>
        <p class=class>{verdict}</p>
        <p class="explanation">{a.explanation.clone()}</p>
        {a.message.clone().map(|m| view! { <h3 class="sub">"Message"</h3> <p class="message-text">{m}</p> })}
        {changes_table("What the plugin changed", &a.changes)}
        {list("Warnings sent to kubectl", a.warnings.clone())}
        {list("Annotations", a.annotations.iter().map(|(k, v)| format!("{k}: {v}")).collect())}
        {a.webhook_calls.iter().map(webhook_view).collect_view()}
    }
}

fn webhook_view(w: &WebhookCall) -> impl IntoView {
    let round = if w.round > 0 { format!(" (reinvocation {})", w.round) } else { String::new() };
    view! {
        <h3 class="sub">"Webhook " <code>{w.webhook.clone()}</code> {round}</h3>
        {facts(
            vec![
                ("Configuration", w.configuration.clone()),
                ("URL", w.url.clone()),
                ("Outcome", w.outcome.clone()),
                ("Round trip", format!("{} ms", w.latency_ms)),
            ],
        )}
        <details class="webhook">
            <summary>"AdmissionReview sent"</summary>
            {pre(pretty_json(&w.request))}
        </details>
        {w
            .response
            .as_ref()
            .map(|r| {
                view! {
                    <details class="webhook">
                        <summary>"AdmissionReview received"</summary>
                        {pre(pretty_json(r))}
                    </details>
                }
            })}
        {w
            .patch
            .as_ref()
            .map(|p| {
                view! {
                    <details class="webhook">
                        <summary>"JSON patch"</summary>
                        {pre(pretty_json(p))}
                    </details>
                }
            })}
    }
}

fn validation_view(v: &ValidationDetail) -> impl IntoView {
    let errors = v.errors.clone();
    view! {
        {changes_table("Defaults filled in", &v.defaults)}
        {(v.defaults.is_empty() && errors.is_empty())
            .then(|| view! { <p class="verdict ok">"Nothing to fill in, nothing wrong."</p> })}
        {(!errors.is_empty())
            .then(|| {
                view! {
                    <div class="table-scroll" tabindex="0" role="region" aria-label="Validation errors">
                        <table class="errors">
                            <caption>"Errors"</caption>
                            <thead>
                                <tr>
                                    <th scope="col">"Field"</th>
                                    <th scope="col">"Reason"</th>
                                    <th scope="col">"Message"</th>
                                </tr>
                            </thead>
                            <tbody>
                                {errors
                                    .into_iter()
                                    .map(|e| {
                                        view! {
                                            <tr>
                                                <td>
                                                    <code>
                                                        {if e.field.is_empty() { "(the body)".into() } else { e.field }}
                                                    </code>
                                                </td>
                                                <td>{e.reason}</td>
                                                <td class="message-text">{e.message}</td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                    </div>
                }
            })}
    }
}

fn etcd_view(e: &EtcdDetail) -> impl IntoView {
    let op = match e.operation {
        EtcdOperation::Create => "create",
        EtcdOperation::Update => "update",
        EtcdOperation::Delete => "delete",
        EtcdOperation::Get => "get",
    };
    view! {
        <h3 class="sub">"etcd"</h3>
        {facts(
            vec![
                ("Operation", op.to_string()),
                ("Key", e.key.clone()),
                ("Revision", e.revision.to_string()),
                ("Error", e.error.clone().unwrap_or_default()),
            ],
        )}
        {(!e.value.is_empty()).then(|| view! { <h3 class="sub">"Stored value (YAML)"</h3> {pre(e.value.clone())} })}
    }
}

fn watch_view(w: &WatchDetail) -> impl IntoView {
    view! {
        <h3 class="sub">"Watch event"</h3>
        {facts(
            vec![
                ("Watcher", w.watcher.clone()),
                ("Event", w.event.clone()),
                ("Key", w.key.clone()),
                ("Revision", w.revision.to_string()),
            ],
        )}
        <p class="explanation">{w.reason.clone()}</p>
    }
}

fn controller_view(c: &ControllerDetail) -> impl IntoView {
    view! {
        <h3 class="sub">"Controller " <code>{c.controller.clone()}</code></h3>
        {facts(vec![("Observed", c.observed.clone()), ("Desired", c.desired.clone())])}
        {list("Actions", c.actions.clone())}
    }
}

fn schedule_view(s: &ScheduleDetail) -> impl IntoView {
    // Plugins in the order the nodes' verdicts list them.
    let mut filter_plugins: Vec<String> = Vec::new();
    for row in &s.filter {
        for v in &row.verdicts {
            if !filter_plugins.contains(&v.plugin) {
                filter_plugins.push(v.plugin.clone());
            }
        }
    }
    let mut score_plugins: Vec<String> = Vec::new();
    for row in &s.scores {
        for p in &row.scores {
            if !score_plugins.contains(&p.plugin) {
                score_plugins.push(p.plugin.clone());
            }
        }
    }
    let chosen = s.chosen.clone();
    let filter = s.filter.clone();
    let scores = s.scores.clone();
    let fp = filter_plugins.clone();
    let sp = score_plugins.clone();
    view! {
        <h3 class="sub">"Scheduling (profile " {s.profile.clone()} ")"</h3>
        {chosen
            .clone()
            .map(|c| view! { <p class="verdict ok">"Chosen node: " <strong>{c}</strong></p> })}
        {s.message.clone().map(|m| view! { <p class="verdict fail message-text">{m}</p> })}
        {list("PreFilter", s.prefilter.clone())}
        {(!filter.is_empty())
            .then(|| {
                view! {
                    <div class="table-scroll" tabindex="0" role="region" aria-label="Filter: which nodes fit">
                        <table class="sched filter">
                            <caption>"Filter: which nodes fit"</caption>
                            <thead>
                                <tr>
                                    <th scope="col">"Node"</th>
                                    {fp.iter().map(|p| view! { <th scope="col">{p.clone()}</th> }).collect_view()}
                                    <th scope="col">"Feasible"</th>
                                </tr>
                            </thead>
                            <tbody>
                                {filter
                                    .into_iter()
                                    .map(|row| {
                                        let cells = fp
                                            .iter()
                                            .map(|p| {
                                                match row.verdicts.iter().find(|v| &v.plugin == p) {
                                                    None => view! { <td class="na">"–"</td> }.into_any(),
                                                    Some(v) if v.passed => {
                                                        view! { <td class="pass">"✓ passed"</td> }.into_any()
                                                    }
                                                    Some(v) => {
                                                        let why = if v.reasons.is_empty() {
                                                            "rejected".to_string()
                                                        } else {
                                                            v.reasons.join("; ")
                                                        };
                                                        let extra = if v.resolvable {
                                                            ""
                                                        } else {
                                                            " (preemption cannot help)"
                                                        };
                                                        view! { <td class="reject">"✗ " {why} {extra}</td> }
                                                            .into_any()
                                                    }
                                                }
                                            })
                                            .collect_view();
                                        view! {
                                            <tr class:infeasible={!row.feasible}>
                                                <th scope="row">{row.node.clone()}</th>
                                                {cells}
                                                <td class={if row.feasible { "pass" } else { "reject" }}>
                                                    {if row.feasible { "yes" } else { "no" }}
                                                </td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                    </div>
                }
            })}
        {(!scores.is_empty())
            .then(|| {
                let chosen = chosen.clone();
                view! {
                    <div class="table-scroll" tabindex="0" role="region" aria-label="Score: ranking the nodes that fit">
                        <table class="sched score">
                            <caption>"Score: each plugin's score × weight, summed"</caption>
                            <thead>
                                <tr>
                                    <th scope="col">"Node"</th>
                                    {sp.iter().map(|p| view! { <th scope="col">{p.clone()}</th> }).collect_view()}
                                    <th scope="col">"Total"</th>
                                </tr>
                            </thead>
                            <tbody>
                                {scores
                                    .into_iter()
                                    .map(|row| {
                                        let winner = chosen.as_deref() == Some(row.node.as_str());
                                        let cells = sp
                                            .iter()
                                            .map(|p| match row.scores.iter().find(|s| &s.plugin == p) {
                                                None => view! { <td class="na">"–"</td> }.into_any(),
                                                Some(s) => {
                                                    let title = format!(
                                                        "raw {}, normalized {}, weight {}",
                                                        s.raw,
                                                        s.normalized,
                                                        s.weight,
                                                    );
                                                    view! {
                                                        <td title=title.clone()>
                                                            {s.weighted}
                                                            <span class="calc">
                                                                " (" {s.normalized} " × " {s.weight} ")"
                                                            </span>
                                                        </td>
                                                    }
                                                        .into_any()
                                                }
                                            })
                                            .collect_view();
                                        view! {
                                            <tr class:winner=winner>
                                                <th scope="row">
                                                    {row.node.clone()}
                                                    {winner.then(|| view! { <span class="win">" ★ chosen"</span> })}
                                                </th>
                                                {cells}
                                                <td class="total">{row.total}</td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                    </div>
                }
            })}
        {facts(
            vec![
                ("Tie break", s.tie_break.clone().unwrap_or_default()),
                ("PostFilter (preemption)", s.postfilter.clone().unwrap_or_default()),
            ],
        )}
    }
}

fn event_view(e: &EventDetail) -> impl IntoView {
    view! {
        <h3 class="sub">"Event"</h3>
        <p class={if e.event_type == "Warning" { "verdict fail" } else { "verdict ok" }}>
            {e.event_type.clone()} " " <strong>{e.reason.clone()}</strong> " from " {e.from.clone()}
        </p>
        <p class="message-text">{e.message.clone()}</p>
    }
}

fn table_view(t: &Table) -> impl IntoView {
    let t = t.clone();
    let label = t.title.clone();
    view! {
        <div class="table-scroll" tabindex="0" role="region" aria-label=label>
            <table class="work">
                <caption>{t.title.clone()}</caption>
                <thead>
                    <tr>{t.columns.iter().map(|c| view! { <th scope="col">{c.clone()}</th> }).collect_view()}</tr>
                </thead>
                <tbody>
                    {t
                        .rows
                        .iter()
                        .map(|r| view! { <tr>{r.iter().map(|c| view! { <td>{c.clone()}</td> }).collect_view()}</tr> })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}

fn work_view(w: &WorkDetail) -> impl IntoView {
    let rows: Vec<(String, String)> = w.facts.clone();
    view! {
        <h3 class="sub">{topic_title(&w.topic)}</h3>
        {(!rows.is_empty())
            .then(|| {
                view! {
                    <dl class="facts">
                        {rows.into_iter().map(|(k, v)| view! { <dt>{k}</dt> <dd>{v}</dd> }).collect_view()}
                    </dl>
                }
            })}
        {w.tables.iter().map(table_view).collect_view()}
        {changes_table("Changes", &w.changes)}
        {(!w.explanation.is_empty()).then(|| view! { <p class="explanation">{w.explanation.clone()}</p> })}
    }
}

/// A readable heading for a work topic (unknown topics are shown as they are).
fn topic_title(topic: &str) -> String {
    match topic {
        "qos" => "QoS class".into(),
        "cgroups" => "cgroups".into(),
        "volume" => "Volumes".into(),
        "image-pull" => "Image pull".into(),
        "sandbox" => "Pod sandbox".into(),
        "cni" => "Pod network (CNI)".into(),
        "container" => "Container".into(),
        "probe" => "Probe".into(),
        "status" => "Pod status".into(),
        "endpointslice" => "EndpointSlice".into(),
        "node-admission" => "Node admission".into(),
        "binding" => "Binding".into(),
        other => other.to_string(),
    }
}

fn api_call_view(a: &ApiCallDetail) -> impl IntoView {
    view! {
        <h3 class="sub">"API request"</h3>
        <p class="http-line">
            <code class="method">{a.method.clone()}</code>
            " "
            <code>{a.path.clone()}</code>
            " → "
            <code class={if a.code >= 400 { "code fail" } else { "code ok" }}>{a.code}</code>
        </p>
        {facts(
            vec![
                ("User", user_text(&a.user)),
                ("Authorizer", a.authorizer.clone()),
                ("Allowed", if a.allowed { "yes".into() } else { "no".into() }),
                ("Why", a.authorization.clone()),
                ("Mutated by", a.mutated_by.join(", ")),
                ("Error", a.error.clone().unwrap_or_default()),
            ],
        )}
        {list("Warnings", a.warnings.clone())}
        {a.etcd.as_ref().map(etcd_view)}
    }
}
