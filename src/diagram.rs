//! Layout of the sequence diagram: the eight components as lifelines, and the arrows of the
//! last few steps up to the current one (the current one highlighted). Plain geometry: the
//! arrows are the steps' own `from` and `to`.

use crate::state::arrow_text;
use podlab_engine::trace::{Component, Step, StepStatus};

/// Width of one lifeline's column, in SVG units.
pub const COLUMN: f64 = 124.0;
/// Height of the component boxes at the top.
pub const HEADER: f64 = 52.0;
/// Height of one arrow row.
pub const ROW: f64 = 38.0;
/// How many steps the diagram shows (the current one and those before it).
pub const WINDOW: usize = 5;

pub const WIDTH: f64 = COLUMN * 8.0;

pub fn height() -> f64 {
    HEADER + ROW * WINDOW as f64 + 14.0
}

/// Short names for the boxes (the full name is the box's title).
pub fn short_name(c: Component) -> &'static str {
    match c {
        Component::Kubectl => "kubectl",
        Component::ApiServer => "kube-apiserver",
        Component::Etcd => "etcd",
        Component::ControllerManager => "controller-mgr",
        Component::Scheduler => "kube-scheduler",
        Component::Kubelet => "kubelet",
        Component::Runtime => "runtime",
        Component::Cni => "CNI",
    }
}

pub fn column(c: Component) -> usize {
    Component::ALL.iter().position(|x| *x == c).unwrap_or(0)
}

/// The x of a component's lifeline.
pub fn x(c: Component) -> f64 {
    column(c) as f64 * COLUMN + COLUMN / 2.0
}

/// One arrow of the diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    pub step: usize,
    pub from_x: f64,
    pub to_x: f64,
    /// The y of the arrow's line.
    pub y: f64,
    /// Work inside one component: drawn as a loop on its lifeline.
    pub self_loop: bool,
    pub current: bool,
    pub status: StepStatus,
    /// The label above the arrow (shortened).
    pub label: String,
    /// Where the label starts (it is left-aligned).
    pub label_x: f64,
    /// The full text, for the arrow's title.
    pub title: String,
}

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(max - 1).collect();
        out.push('…');
        out
    }
}

/// The arrows for the steps up to `current`, oldest first, the current one last.
pub fn arrows(steps: &[Step], current: usize) -> Vec<Arrow> {
    if steps.is_empty() {
        return Vec::new();
    }
    let current = current.min(steps.len() - 1);
    let start = (current + 1).saturating_sub(WINDOW);
    steps[start..=current]
        .iter()
        .enumerate()
        .map(|(row, s)| {
            let from_x = x(s.from);
            let to_x = x(s.to);
            let self_loop = s.from == s.to;
            let left = from_x.min(to_x);
            // Labels run from the left end of the arrow (from a loop: beside it), and are cut
            // to what fits before the diagram's right edge.
            let label_x = if self_loop { from_x + 26.0 } else { left + 8.0 };
            let room = ((WIDTH - label_x) / 7.0) as usize;
            Arrow {
                step: s.index,
                from_x,
                to_x,
                y: HEADER + 26.0 + row as f64 * ROW,
                self_loop,
                current: s.index == current,
                status: s.status,
                label: shorten(&s.summary, room.clamp(12, 70)),
                label_x,
                title: arrow_text(s),
            }
        })
        .collect()
}

/// The components involved in the current step (highlighted boxes).
pub fn active(step: &Step) -> [Component; 2] {
    [step.from, step.to]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_follow_the_component_order() {
        assert_eq!(x(Component::Kubectl), COLUMN / 2.0);
        assert_eq!(column(Component::Cni), 7);
        assert_eq!(shorten("abcdef", 4), "abc…");
        assert_eq!(shorten("abc", 4), "abc");
    }
}
