//! podlab-engine: a pure, deterministic model of what a Kubernetes cluster does with a
//! manifest, from kubectl's request to a running (or failing) Pod.
//!
//! The engine has no web dependency, reads no clock and does no I/O: time is a logical
//! clock the caller advances, randomness is seeded, and the one output is a [`trace`] that
//! the web lab, the `podlab` CLI and the benchmarks all consume. See ARCHITECTURE.md.

pub mod admission;
pub mod apiserver;
pub mod cluster;
pub mod consumers;
pub mod controllers;
pub mod decode;
pub mod defaults;
pub mod errors;
pub mod kubectl;
pub mod kubelet;
pub mod lab;
pub mod labels;
pub mod linemap;
pub mod manifest;
pub mod object;
pub mod pod_security;
pub mod quantity;
pub mod resource;
pub mod rng;
pub mod scheduler;
pub mod sim;
pub mod sort;
pub mod store;
mod text;
pub mod trace;
pub mod validation;
pub mod views;
pub mod workloads;
pub mod world;
pub mod yaml;

/// The Kubernetes release whose behaviour and messages the engine reproduces.
pub const KUBERNETES_VERSION: &str = "v1.37";
