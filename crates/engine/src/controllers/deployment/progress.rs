//! Rollout progress (upstream's `progress.go`): the Progressing condition with its deadline,
//! ReplicaFailure, and the requeue that notices a stuck rollout.

use super::*;

impl Sync<'_, '_> {
    /// `syncRolloutStatus`: status plus the Progressing condition and ReplicaFailure.
    pub(super) fn sync_rollout_status(&mut self, all: &[Arc<ReplicaSet>], new: Option<&Arc<ReplicaSet>>) -> SyncResult {
        let now = self.now();
        let mut status = calculate_status(all, new, &self.d, now);
        let deadline = progress_deadline(&self.d);
        if deadline.is_none() {
            remove_condition(&mut status, "Progressing");
        }
        let current = self.d.status.as_ref().and_then(|s| get_condition(s, "Progressing")).cloned();
        let complete_before = num(status.replicas) == num(status.updated_replicas)
            && current.as_ref().is_some_and(|c| c.reason.as_deref() == Some(NEW_RS_AVAILABLE_REASON));
        if deadline.is_some() && !complete_before {
            let rs_msg = |what: &str| match new {
                Some(n) => format!("ReplicaSet \"{}\" {what}", rs_name(n)),
                None => format!("Deployment \"{}\" {what}", self.name()),
            };
            if deployment_complete(&self.d, &status) {
                let c = new_condition(
                    now,
                    "Progressing",
                    "True",
                    NEW_RS_AVAILABLE_REASON,
                    &rs_msg("has successfully progressed."),
                );
                set_condition(&mut status, c);
            } else if deployment_progressing(&self.d, &status) {
                let mut c = new_condition(now, "Progressing", "True", RS_UPDATED_REASON, &rs_msg("is progressing."));
                if let Some(cur) = current.as_ref() {
                    if cur.status.as_deref() == Some("True") {
                        c.last_transition_time = cur.last_transition_time.clone();
                    }
                    remove_condition(&mut status, "Progressing");
                }
                set_condition(&mut status, c);
            } else if deployment_timed_out(&self.d, &status, now) {
                let c =
                    new_condition(now, "Progressing", "False", TIMED_OUT_REASON, &rs_msg("has timed out progressing."));
                set_condition(&mut status, c);
            }
        }
        // Failure conditions of the ReplicaSets (the new one's first).
        let failures: Vec<DeploymentCondition> = new
            .into_iter()
            .chain(all.iter())
            .flat_map(|rs| rs.status.iter().flat_map(|s| s.conditions.iter().flatten()))
            .filter(|c| c.type_.as_deref() == Some("ReplicaFailure"))
            .map(|c| DeploymentCondition {
                type_: c.type_.clone(),
                status: c.status.clone(),
                last_transition_time: c.last_transition_time.clone(),
                last_update_time: c.last_transition_time.clone(),
                reason: c.reason.clone(),
                message: c.message.clone(),
            })
            .collect();
        match failures.into_iter().next() {
            Some(c) => set_condition(&mut status, c),
            None => remove_condition(&mut status, "ReplicaFailure"),
        }
        if self.d.status.as_ref() == Some(&status) {
            self.requeue_stuck(&status);
            return Ok(());
        }
        let written = status.clone();
        self.write_status(status, all, new)?;
        // Upstream resyncs on its own status update and then schedules the progress check;
        // the lab skips that no-op resync, so it schedules the check here.
        self.requeue_stuck(&written);
        Ok(())
    }

    /// A rollout that makes no progress is checked again when its deadline passes.
    pub(super) fn requeue_stuck(&mut self, new_status: &DeploymentStatus) {
        let Some(deadline) = progress_deadline(&self.d) else { return };
        let Some(cur) = self.d.status.as_ref().and_then(|s| get_condition(s, "Progressing")).cloned() else { return };
        if deployment_complete(&self.d, new_status) || cur.reason.as_deref() == Some(TIMED_OUT_REASON) {
            // Upstream's AddAfter would fire and find nothing to do; the lab drops the timer
            // so a finished rollout does not hold the run open until its deadline.
            self.cx.cancel(NAME, &format!("{}{PROGRESS_TIMER_SUFFIX}", key_of(&self.d.metadata)));
            return;
        }
        let Some(last) = cur.last_update_time.as_ref().map(time_ms) else { return };
        let after = last + i64::from(deadline) * 1000 - self.now() as i64;
        let key = key_of(&self.d.metadata);
        if after < 1000 {
            self.cx.requeue_rate_limited(NAME, &key);
        } else {
            self.cx.enqueue(NAME, &format!("{key}{PROGRESS_TIMER_SUFFIX}"), after as u64 + 1000);
        }
    }
}
