//! Authentication: who is calling.
//!
//! The authenticators of a kubeadm cluster, in the order kube-apiserver tries them:
//!
//! * **x509 client certificates** signed by the cluster CA: the Common Name is the user name, the
//!   Organizations are the groups (`kubernetes-admin` in `system:masters`, kubelets as
//!   `system:node:<node>` in `system:nodes`, `system:kube-scheduler`).
//! * **static bearer tokens** (`--token-auth-file`): the lab's users with a `token`.
//! * **service-account tokens** (bound JWTs): `system:serviceaccount:<ns>:<name>` in the groups
//!   `system:serviceaccounts` and `system:serviceaccounts:<ns>`; the service account must still
//!   exist.
//! * **anonymous** (`--anonymous-auth`, on in kubeadm): a request without credentials is
//!   `system:anonymous` in `system:unauthenticated`. A request that presents credentials that
//!   no authenticator accepts is refused (401) even when anonymous requests are allowed.
//!
//! Every authenticated (non-anonymous) user also gets the group `system:authenticated`, added
//! after the authenticator's own groups. A failure is `401 Unauthorized` with the Status message
//! `Unauthorized`, which kubectl prints as `error: You must be logged in to the server
//! (Unauthorized)`.
//!
//! Impersonation (`kubectl --as`, `--as-group`, the `Impersonate-User`/`Impersonate-Group`
//! headers) is checked after authentication: the requester must be allowed the `impersonate`
//! verb on `users` (or `serviceaccounts` in the account's namespace for
//! `system:serviceaccount:<ns>:<name>`) and on `groups`, each checked in turn like upstream's
//! impersonation filter; then the request runs as the impersonated user, with
//! `system:authenticated` added unless the groups already say `system:authenticated` or
//! `system:unauthenticated`.

use super::server::Settings;
use super::{Caller, Credential};
use crate::object::Object;
use crate::store::Store;
use crate::trace::UserInfo;

pub const AUTHENTICATED: &str = "system:authenticated";
pub const UNAUTHENTICATED: &str = "system:unauthenticated";
pub const ANONYMOUS: &str = "system:anonymous";

/// What authentication found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Authn {
    pub ok: bool,
    /// `x509 client certificate`, `bearer token`, `service account token`, `anonymous`.
    pub method: String,
    pub user: UserInfo,
    pub explanation: String,
}

fn with_authenticated(mut groups: Vec<String>) -> Vec<String> {
    if !groups.iter().any(|g| g == AUTHENTICATED) {
        groups.push(AUTHENTICATED.to_string());
    }
    groups
}

/// The user name of a service account.
pub fn service_account_user(namespace: &str, name: &str) -> String {
    format!("system:serviceaccount:{namespace}:{name}")
}

/// The groups of a service account (before `system:authenticated`).
pub fn service_account_groups(namespace: &str) -> Vec<String> {
    vec!["system:serviceaccounts".to_string(), format!("system:serviceaccounts:{namespace}")]
}

/// Splits `system:serviceaccount:<ns>:<name>`.
pub fn split_service_account(user: &str) -> Option<(&str, &str)> {
    let rest = user.strip_prefix("system:serviceaccount:")?;
    let (ns, name) = rest.split_once(':')?;
    if ns.is_empty() || name.is_empty() || name.contains(':') {
        return None;
    }
    Some((ns, name))
}

/// Authenticates a caller's credential against the cluster.
pub fn authenticate(store: &Store<Object>, caller: &Caller) -> Authn {
    authenticate_with(store, &mut Settings::default(), caller, true)
}

/// [`authenticate`], with the lab settings (the users' tokens, anonymous requests) read
/// through `settings`; without `explain` the explanation is left empty (a request whose
/// authentication step the trace does not show).
pub fn authenticate_with(store: &Store<Object>, settings: &mut Settings, caller: &Caller, explain: bool) -> Authn {
    let text = |f: &dyn Fn() -> String| if explain { f() } else { String::new() };
    match &caller.credential {
        Credential::ClientCertificate { common_name, organizations } => Authn {
            ok: true,
            method: "x509 client certificate".into(),
            user: UserInfo { username: common_name.clone(), groups: with_authenticated(organizations.clone()) },
            explanation: text(&|| {
                format!(
                    "the TLS client certificate is signed by the cluster CA; its Common Name {:?} is the user name{}",
                    common_name,
                    if organizations.is_empty() {
                        String::from(" and it names no Organization (group)")
                    } else {
                        format!(" and its Organizations {organizations:?} are the groups")
                    }
                )
            }),
        },
        Credential::BearerToken(token) => {
            let settings = settings.get(store);
            match settings.users.iter().find(|u| !u.revoked && u.token.as_deref() == Some(token.as_str())) {
                Some(u) => Authn {
                    ok: true,
                    method: "bearer token".into(),
                    user: UserInfo { username: u.name.clone(), groups: with_authenticated(u.groups.clone()) },
                    explanation: text(&|| format!(
                        "the bearer token is in kube-apiserver's static token file (--token-auth-file) as user {:?}{}",
                        u.name,
                        u.uid.as_deref().map(|uid| format!(", uid {uid:?}")).unwrap_or_default()
                    )),
                },
                None => Authn {
                    ok: false,
                    method: "bearer token".into(),
                    user: UserInfo::default(),
                    explanation: "no authenticator accepts the bearer token (it is not in the static token file, and it is not a valid service-account token), so the request is refused even though anonymous requests are allowed".into(),
                },
            }
        }
        Credential::ServiceAccount { namespace, name } => {
            let exists = store.get(&["/registry/serviceaccounts/", namespace, "/", name].concat()).is_some();
            if exists {
                Authn {
                    ok: true,
                    method: "service account token".into(),
                    user: UserInfo {
                        username: service_account_user(namespace, name),
                        groups: with_authenticated(service_account_groups(namespace)),
                    },
                    explanation: text(&|| {
                        format!(
                        "the bearer token is a service-account token signed by kube-apiserver for ServiceAccount {namespace}/{name}, which still exists"
                    )
                    }),
                }
            } else {
                Authn {
                    ok: false,
                    method: "service account token".into(),
                    user: UserInfo::default(),
                    explanation: text(&|| {
                        format!(
                        "the service-account token names ServiceAccount {namespace}/{name}, which does not exist (any more)"
                    )
                    }),
                }
            }
        }
        Credential::Invalid { what } => Authn {
            ok: false,
            method: what.clone(),
            user: UserInfo::default(),
            explanation: text(&|| {
                format!(
                "no authenticator accepts the {what} (not signed by the cluster CA, expired or revoked); presenting a bad credential is refused even though anonymous requests are allowed"
            )
            }),
        },
        Credential::Anonymous => {
            let settings = settings.get(store);
            if settings.anonymous_enabled() {
                Authn {
                    ok: true,
                    method: "anonymous".into(),
                    user: UserInfo { username: ANONYMOUS.into(), groups: vec![UNAUTHENTICATED.into()] },
                    explanation: "the request carries no credentials; anonymous requests are enabled (--anonymous-auth=true), so it continues as system:anonymous".into(),
                }
            } else {
                Authn {
                    ok: false,
                    method: "anonymous".into(),
                    user: UserInfo::default(),
                    explanation: "the request carries no credentials and anonymous requests are disabled (--anonymous-auth=false)".into(),
                }
            }
        }
    }
}

/// One thing to impersonate, with the authorization attributes checked for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImpersonationTarget {
    /// `users`, `serviceaccounts` or `groups`.
    pub resource: &'static str,
    pub namespace: String,
    pub name: String,
}

/// The impersonation requests of `--as`/`--as-group`, in the order upstream checks them, and
/// the user the request will run as.
pub fn impersonation_plan(target: &UserInfo) -> (Vec<ImpersonationTarget>, UserInfo) {
    let mut checks = Vec::new();
    let mut groups: Vec<String> = Vec::new();
    let groups_specified = !target.groups.is_empty();
    match split_service_account(&target.username) {
        Some((ns, name)) => {
            checks.push(ImpersonationTarget { resource: "serviceaccounts", namespace: ns.into(), name: name.into() });
            if !groups_specified {
                groups = service_account_groups(ns);
            }
        }
        None => checks.push(ImpersonationTarget {
            resource: "users",
            namespace: String::new(),
            name: target.username.clone(),
        }),
    }
    for g in &target.groups {
        checks.push(ImpersonationTarget { resource: "groups", namespace: String::new(), name: g.clone() });
        groups.push(g.clone());
    }
    if target.username != ANONYMOUS {
        if !groups.iter().any(|g| g == AUTHENTICATED || g == UNAUTHENTICATED) {
            groups.push(AUTHENTICATED.into());
        }
    } else if !groups.iter().any(|g| g == UNAUTHENTICATED) {
        groups.push(UNAUTHENTICATED.into());
    }
    (checks, UserInfo { username: target.username.clone(), groups })
}
