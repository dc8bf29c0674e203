//! ControllerRevisions, the snapshots of a template that the DaemonSet and StatefulSet
//! controllers keep to tell old Pods from new ones and to roll back (upstream
//! `pkg/controller/history` and the DaemonSet controller's `update.go`).
//!
//! A revision is named `<owner>-<hash>`; its `revision` number grows by one with each new
//! template; the hash also labels the Pods made from it (`controller-revision-hash`). The
//! DaemonSet controller hashes the pod template as the Deployment controller hashes it for
//! `pod-template-hash` ([`super::deployment::compute_hash`]); `history`'s own
//! [`hash_controller_revision`] hashes a revision's data (the StatefulSet controller's way).

use k8s_openapi::api::apps::v1::ControllerRevision;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference};
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use std::collections::BTreeMap;

/// The label on Pods and revisions naming the revision they come from
/// (`apps.DefaultDaemonSetUniqueLabelKey`, `apps.StatefulSetRevisionLabel`).
pub const CONTROLLER_REVISION_HASH_LABEL: &str = "controller-revision-hash";
/// The label `history.NewControllerRevision` puts on the revisions it makes
/// (`history.ControllerRevisionHashLabel`).
pub const HISTORY_HASH_LABEL: &str = "controller.kubernetes.io/hash";

/// `history.ControllerRevisionName`: `<prefix>-<hash>`, the prefix cut to 223 characters so
/// the name stays a valid DNS subdomain.
pub fn controller_revision_name(prefix: &str, hash: &str) -> String {
    let cut = prefix.char_indices().nth(223).map_or(prefix.len(), |(i, _)| i);
    format!("{}-{hash}", &prefix[..cut])
}

/// FNV-32 (not 32a: the multiply comes before the xor), as Go's `hash/fnv.New32`.
fn fnv32(data: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in data {
        h = h.wrapping_mul(0x0100_0193);
        h ^= u32::from(*b);
    }
    h
}

/// `history.HashControllerRevision`: FNV-32 of the revision's raw data, then the collision
/// count in decimal when there is one, encoded with `rand.SafeEncodeString`.
pub fn hash_controller_revision(data: &serde_json::Value, collision_count: Option<i32>) -> String {
    let mut bytes = serde_json::to_vec(data).unwrap_or_default();
    if let Some(c) = collision_count {
        bytes.extend_from_slice(c.to_string().as_bytes());
    }
    super::deployment::safe_encode(&fnv32(&bytes).to_string())
}

/// `history.NewControllerRevision`: a revision of `parent` holding `data`, labelled with the
/// template's labels and [`HISTORY_HASH_LABEL`], named by [`controller_revision_name`].
pub fn new_controller_revision(
    parent: &ObjectMeta,
    owner_ref: OwnerReference,
    template_labels: Option<&BTreeMap<String, String>>,
    data: serde_json::Value,
    revision: i64,
    collision_count: Option<i32>,
) -> ControllerRevision {
    let hash = hash_controller_revision(&data, collision_count);
    let mut labels = template_labels.cloned().unwrap_or_default();
    labels.insert(HISTORY_HASH_LABEL.to_string(), hash.clone());
    ControllerRevision {
        metadata: ObjectMeta {
            name: Some(controller_revision_name(parent.name.as_deref().unwrap_or(""), &hash)),
            namespace: parent.namespace.clone(),
            labels: Some(labels),
            owner_references: Some(vec![owner_ref]),
            ..ObjectMeta::default()
        },
        data: RawExtension(data),
        revision: Some(revision),
    }
}

/// The highest revision number among `revisions` (0 for none: `maxRevision`).
pub fn max_revision<'a>(revisions: impl IntoIterator<Item = &'a ControllerRevision>) -> i64 {
    revisions.into_iter().map(|r| r.revision.unwrap_or(0)).max().unwrap_or(0)
}

/// `history.SortControllerRevisions`: by revision number, then creation time, then name.
pub fn sort_controller_revisions(revisions: &mut [std::sync::Arc<ControllerRevision>]) {
    crate::sort::sort_by(revisions, |a, b| {
        let created = |r: &ControllerRevision| r.metadata.creation_timestamp.as_ref().map(|t| t.0.as_millisecond());
        a.revision
            .unwrap_or(0)
            .cmp(&b.revision.unwrap_or(0))
            .then_with(|| created(a).cmp(&created(b)))
            .then_with(|| a.metadata.name.cmp(&b.metadata.name))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_hashes() {
        assert_eq!(controller_revision_name("agent", "5d8f7c9b4"), "agent-5d8f7c9b4");
        let long = "a".repeat(300);
        assert_eq!(controller_revision_name(&long, "x").len(), 225);
        // FNV-32 of "a" is 0x050c5d7e (Go's hash/fnv New32).
        assert_eq!(fnv32(b"a"), 0x050c_5d7e);
        let data = serde_json::json!({"spec": {"template": {"$patch": "replace"}}});
        let h = hash_controller_revision(&data, None);
        assert_eq!(h, hash_controller_revision(&data, None));
        assert_ne!(h, hash_controller_revision(&data, Some(1)));
        let owner = ObjectMeta { name: Some("db".into()), namespace: Some("default".into()), ..Default::default() };
        let cr = new_controller_revision(&owner, OwnerReference::default(), None, data, 3, None);
        assert_eq!(cr.metadata.name.as_deref(), Some(format!("db-{h}").as_str()));
        assert_eq!(cr.metadata.labels.as_ref().and_then(|l| l.get(HISTORY_HASH_LABEL)), Some(&h));
        assert_eq!(max_revision([&cr]), 3);
    }
}
