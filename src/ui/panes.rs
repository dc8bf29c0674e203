//! kubectl's terminal panes at the current step: the apply output as printed so far, and
//! `get pods -w`, `get pods -o wide`, `describe pod`, `get events` and the workload listings,
//! all rendered by the engine's kubectl printers from etcd at the step's revision and time.

use super::{Lab, Pane};
use leptos::prelude::*;

const PANES: [(Pane, &str, &str); 6] = [
    (Pane::Apply, "pane-apply", "apply"),
    (Pane::Watch, "pane-watch", "get pods -w"),
    (Pane::Wide, "pane-wide", "get pods -o wide"),
    (Pane::Describe, "pane-describe", "describe pod"),
    (Pane::Events, "pane-events", "get events"),
    (Pane::Workloads, "pane-workloads", "deploy, rs, sts, ds, svc, pvc"),
];

fn index_of(p: Pane) -> usize {
    PANES.iter().position(|(x, _, _)| *x == p).unwrap_or(0)
}

#[component]
pub fn Panes() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let tabs: NodeRef<leptos::html::Div> = NodeRef::new();
    // The views are computed for the shown step only, once per step.
    let views = Memo::new(move |_| {
        let run = lab.run()?;
        let i = lab.step.get();
        Some(run.views_at(i))
    });

    let select = move |p: Pane, focus: bool| {
        lab.pane.set(p);
        if focus {
            if let Some(list) = tabs.get() {
                let id = format!("#tab-{}", PANES[index_of(p)].1);
                if let Ok(Some(el)) = list.query_selector(&id) {
                    if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
                        let _ = el.focus();
                    }
                }
            }
        }
    };

    let ns_flag = move || {
        lab.run()
            .map(|r| if r.namespace == r.run.namespace { String::new() } else { format!(" -n {}", r.namespace) })
            .unwrap_or_default()
    };

    let body = move || {
        let Some(run) = lab.run() else { return String::new() };
        let i = lab.step.get();
        let ns = ns_flag();
        match lab.pane.get() {
            Pane::Apply => {
                let mut out = format!("$ kubectl apply -f {}\n", run.run.file_name);
                if run.finished_at(i) {
                    // kubectl's whole output: the errors it collected are printed at the end.
                    out += &run.run.kubectl_output;
                    if !out.ends_with('\n') {
                        out.push('\n');
                    }
                    out += &format!("$ echo $?\n{}\n", run.run.exit_code);
                } else {
                    for line in run.printed_lines(i) {
                        out += &line.text;
                        out.push('\n');
                    }
                }
                out
            }
            Pane::Watch => views.with(|v| {
                let v = v.as_ref().map(|v| v.get_pods_watch.clone()).unwrap_or_default();
                format!("$ kubectl get pods -w{ns}\n{v}")
            }),
            Pane::Wide => views.with(|v| {
                let v = v.as_ref().map(|v| v.get_pods_wide.clone()).unwrap_or_default();
                format!("$ kubectl get pods -o wide{ns}\n{v}")
            }),
            Pane::Describe => views.with(|v| {
                let Some(v) = v.as_ref() else { return String::new() };
                if v.describe_pods.is_empty() {
                    return format!("$ kubectl describe pods{ns}\n{}", v.get_pods);
                }
                v.describe_pods
                    .iter()
                    .map(|(name, text)| format!("$ kubectl describe pod {name}{ns}\n{text}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            }),
            Pane::Events => views.with(|v| {
                let v = v.as_ref().map(|v| v.get_events.clone()).unwrap_or_default();
                format!("$ kubectl get events{ns}\n{v}")
            }),
            Pane::Workloads => views.with(|v| {
                let Some(v) = v.as_ref() else { return String::new() };
                // The kinds every lab has first; the others only when the run made some.
                let some = |text: &String| !text.starts_with("No resources found");
                [
                    ("deployments", &v.get_deployments, true),
                    ("replicasets", &v.get_replicasets, true),
                    ("statefulsets", &v.get_statefulsets, some(&v.get_statefulsets)),
                    ("daemonsets", &v.get_daemonsets, some(&v.get_daemonsets)),
                    ("cronjobs", &v.get_cronjobs, some(&v.get_cronjobs)),
                    ("hpa", &v.get_hpas, some(&v.get_hpas)),
                    ("services", &v.get_services, true),
                    ("endpointslices", &v.get_endpointslices, true),
                    ("persistentvolumeclaims", &v.get_pvcs, some(&v.get_pvcs)),
                    ("persistentvolumes", &v.get_pvs, some(&v.get_pvs)),
                ]
                .iter()
                .filter(|(_, _, shown)| *shown)
                .map(|(what, text, _)| {
                    let ns = if *what == "persistentvolumes" { "" } else { ns.as_str() };
                    format!("$ kubectl get {what}{ns}\n{text}")
                })
                .collect::<Vec<_>>()
                .join("\n")
            }),
        }
    };

    view! {
        <section class="panel panes" aria-labelledby="panes-title">
            <div class="panel-head">
                <h2 id="panes-title" class="panel-title">
                    "kubectl"
                </h2>
                <p class="hint">"What a terminal shows at this step"</p>
            </div>
            <div class="tabs" role="tablist" aria-label="kubectl commands" node_ref=tabs>
                {PANES
                    .iter()
                    .enumerate()
                    .map(|(n, (pane, id, label))| {
                        let pane = *pane;
                        view! {
                            <button
                                type="button"
                                role="tab"
                                id=format!("tab-{id}")
                                aria-controls="pane-body"
                                aria-selected=move || if lab.pane.get() == pane { "true" } else { "false" }
                                tabindex=move || if lab.pane.get() == pane { "0" } else { "-1" }
                                on:click=move |_| select(pane, false)
                                on:keydown=move |ev| {
                                    let k = ev.key();
                                    let target = match k.as_str() {
                                        "ArrowRight" => Some((n + 1) % PANES.len()),
                                        "ArrowLeft" => Some((n + PANES.len() - 1) % PANES.len()),
                                        "Home" => Some(0),
                                        "End" => Some(PANES.len() - 1),
                                        _ => None,
                                    };
                                    if let Some(t) = target {
                                        ev.prevent_default();
                                        select(PANES[t].0, true);
                                    }
                                }
                            >
                                {*label}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <pre
                id="pane-body"
                class="terminal"
                role="tabpanel"
                tabindex="0"
                aria-labelledby=move || format!("tab-{}", PANES[index_of(lab.pane.get())].1)
            >
                {body}
            </pre>
        </section>
    }
}
