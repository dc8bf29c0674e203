//! Upstream's `cronjob-controller` (`ControllerV2`): so far only what it reads a CronJob's
//! schedule with, which validation also uses. The control loop itself (Jobs at each
//! scheduled time, the concurrency policies, history limits) is not written yet; until it is,
//! a CronJob is announced as not modelled (`crate::consumers`).

pub mod schedule;
mod zones;
