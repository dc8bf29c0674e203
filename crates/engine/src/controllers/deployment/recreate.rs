//! The Recreate strategy (upstream's `recreate.go`): scale every old ReplicaSet to zero,
//! wait until no old pod runs, then scale the new ReplicaSet up.

use super::*;

impl Sync<'_, '_> {
    pub(super) fn rollout_recreate(&mut self, rs_list: &[Arc<ReplicaSet>]) -> SyncResult {
        let (mut new, mut old) = self.all_replica_sets(rs_list, false)?;
        let mut all = old.clone();
        all.extend(new.clone());
        let active_old: Vec<Arc<ReplicaSet>> = old.iter().filter(|rs| is_active(rs)).cloned().collect();
        let mut scaled_down = false;
        for rs in &active_old {
            if self.scale_and_record(rs, 0).0 {
                scaled_down = true;
            }
        }
        if scaled_down {
            return self.sync_rollout_status(&all, new.as_ref());
        }
        if self.old_pods_running(new.as_ref(), &old, rs_list) {
            return self.sync_rollout_status(&all, new.as_ref());
        }
        if new.is_none() {
            let (n, o) = self.all_replica_sets(rs_list, true)?;
            new = n;
            old = o;
            all = old.clone();
            all.extend(new.clone());
        }
        if let Some(n) = new.as_ref() {
            let want = replicas(&self.d);
            self.scale_and_record(n, want);
        }
        let status = self.d.status.clone().unwrap_or_default();
        if deployment_complete(&self.d, &status) {
            self.cleanup_deployment(&old);
        }
        self.sync_rollout_status(&all, new.as_ref())
    }

    /// Whether any Pod of an old ReplicaSet still runs (terminal Pods do not count).
    pub(super) fn old_pods_running(
        &self,
        new: Option<&Arc<ReplicaSet>>,
        old: &[Arc<ReplicaSet>],
        rs_list: &[Arc<ReplicaSet>],
    ) -> bool {
        if sum(old, |rs| rs_status(rs).replicas) > 0 {
            return true;
        }
        let new_uid = new.and_then(|n| n.metadata.uid.clone());
        self.pod_map(rs_list).iter().any(|(uid, pods)| {
            Some(uid) != new_uid.as_ref() && pods.iter().any(|p| !matches!(phase(p), "Failed" | "Succeeded"))
        })
    }
}
