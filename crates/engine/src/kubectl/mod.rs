//! kubectl, the client side of the lab: what `kubectl apply -f FILE` does, sends and prints.
//!
//! See [`apply`] for the command itself. kubectl here is an actor of the simulation like the
//! cluster's components: it talks to the API server only through
//! [`crate::apiserver::handle`], with the credentials of the kubeconfig user the lab settings
//! name (or `--user`), and `--as`/`--as-group` impersonation.

pub mod apply;
pub mod client;
pub mod yaml_to_json;

pub use apply::{ApplyOptions, DocumentResult, DryRun, FileVerb, KubectlApply, Operation, Printing};
