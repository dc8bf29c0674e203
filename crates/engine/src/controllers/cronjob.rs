//! The CronJob controller (upstream's `cronjob-controller`, `ControllerV2`).

pub mod schedule;
mod zones;
