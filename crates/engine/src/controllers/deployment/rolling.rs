//! The RollingUpdate strategy (upstream's `rolling.go`): scale the new ReplicaSet up within
//! maxSurge, clean up unhealthy old replicas, scale old ReplicaSets down within
//! maxUnavailable.

use super::*;

impl Sync<'_, '_> {
    pub(super) fn rollout_rolling(&mut self, rs_list: &[Arc<ReplicaSet>]) -> SyncResult {
        let (new, old) = self.all_replica_sets(rs_list, true)?;
        let mut all = old.clone();
        all.extend(new.clone());
        if let Some(new) = new.as_ref() {
            if self.reconcile_new_replica_set(&all, new) {
                return self.sync_rollout_status(&all, Some(new));
            }
        }
        let active_old: Vec<Arc<ReplicaSet>> = old.iter().filter(|rs| is_active(rs)).cloned().collect();
        if self.reconcile_old_replica_sets(&all, active_old, new.as_ref()) {
            return self.sync_rollout_status(&all, new.as_ref());
        }
        let status = self.d.status.clone().unwrap_or_default();
        if deployment_complete(&self.d, &status) {
            self.cleanup_deployment(&old);
        }
        self.sync_rollout_status(&all, new.as_ref())
    }

    pub(super) fn reconcile_new_replica_set(&mut self, all: &[Arc<ReplicaSet>], new: &Arc<ReplicaSet>) -> bool {
        let want = replicas(&self.d);
        if rs_replicas(new) == want {
            return false;
        }
        if rs_replicas(new) > want {
            return self.scale_and_record(new, want).0;
        }
        let count = new_rs_new_replicas(&self.d, all, new);
        self.scale_and_record(new, count).0
    }

    pub(super) fn reconcile_old_replica_sets(
        &mut self,
        all: &[Arc<ReplicaSet>],
        old: Vec<Arc<ReplicaSet>>,
        new: Option<&Arc<ReplicaSet>>,
    ) -> bool {
        let old_pods = sum(&old, rs_replicas);
        if old_pods == 0 {
            return false;
        }
        let all_pods = sum(all, rs_replicas);
        let min_available = replicas(&self.d) - max_unavailable(&self.d);
        let new_unavailable = new.map_or(0, |n| rs_replicas(n) - num(rs_status(n).available_replicas));
        let max_scaled_down = all_pods - min_available - new_unavailable;
        if max_scaled_down <= 0 {
            return false;
        }
        let (old, cleaned) = self.cleanup_unhealthy_replicas(old, max_scaled_down);
        let mut all2 = old.clone();
        all2.extend(new.cloned());
        let scaled = self.scale_down_old_for_rolling_update(&all2, old);
        cleaned + scaled > 0
    }

    /// Scales down old ReplicaSets' unavailable Pods first (they serve nobody).
    pub(super) fn cleanup_unhealthy_replicas(
        &mut self,
        mut old: Vec<Arc<ReplicaSet>>,
        max_cleanup: i32,
    ) -> (Vec<Arc<ReplicaSet>>, i32) {
        crate::sort::sort_by(&mut old, by_creation);
        let mut total = 0;
        for slot in old.iter_mut() {
            if total >= max_cleanup {
                break;
            }
            let rs = slot.clone();
            let r = rs_replicas(&rs);
            let available = num(rs_status(&rs).available_replicas);
            if r == 0 || r == available {
                continue;
            }
            let down = (max_cleanup - total).min(r - available);
            let (_, updated) = self.scale_and_record(&rs, r - down);
            total += down;
            *slot = updated;
        }
        (old, total)
    }

    pub(super) fn scale_down_old_for_rolling_update(
        &mut self,
        all: &[Arc<ReplicaSet>],
        mut old: Vec<Arc<ReplicaSet>>,
    ) -> i32 {
        let min_available = replicas(&self.d) - max_unavailable(&self.d);
        let available = sum(all, |rs| num(rs_status(rs).available_replicas));
        if available <= min_available {
            return 0;
        }
        crate::sort::sort_by(&mut old, by_creation);
        let total_down = available - min_available;
        let mut done = 0;
        for rs in old {
            if done >= total_down {
                break;
            }
            let r = rs_replicas(&rs);
            if r == 0 {
                continue;
            }
            let down = r.min(total_down - done);
            self.scale_and_record(&rs, r - down);
            done += down;
        }
        done
    }
}
