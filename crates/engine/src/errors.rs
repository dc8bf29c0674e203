//! The error shapes of the API server and how kubectl prints them.
//!
//! * [`FieldError`] is one validation error on one field (apimachinery
//!   `pkg/util/validation/field/errors.go`): `<field>: <body>`, where the body depends on the
//!   [`FieldErrorKind`] (`Required value`, `Invalid value: "X": <detail>`, ...).
//! * [`aggregate`] joins several messages the way `utilerrors.NewAggregate` prints them: one
//!   message bare, several as `[a, b]`, duplicates dropped.
//! * [`Status`] is the `metav1.Status` failure object the API server returns, with constructors
//!   named after apimachinery's `pkg/api/errors/errors.go` ([`Status::not_found`],
//!   [`Status::already_exists`], [`Status::conflict`], [`Status::forbidden`],
//!   [`Status::invalid`], [`Status::bad_request`], [`Status::unauthorized`],
//!   [`Status::internal_error`]) and its JSON body ([`Status::to_json`]).
//! * [`CommandError`] and [`kubectl_stderr`] reproduce what `kubectl create/apply -f` prints on
//!   standard error (kubectl `pkg/cmd/util/helpers.go`: `AddSourceToErr`, `checkErr`,
//!   `StandardErrorMessage`, `MultilineError`); [`kubectl_error_line`] is the common case of
//!   one server error for one file.
//!
//! Values in messages are rendered as Go renders them: strings with `%q` ([`go_quote`]),
//! numbers and booleans bare, everything else as Go's `json.Marshal` would ([`go_json`]).

use crate::object::ResourceInfo;
use crate::trace::FieldCause;
use serde_json::Value;
use std::fmt::Write as _;

/// The type of a field error; `cause_type` is the `reason` of the Status cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldErrorKind {
    Required,
    Invalid,
    NotSupported,
    Duplicate,
    Forbidden,
    TooLong,
    TooMany,
    NotFound,
    Internal,
}

impl FieldErrorKind {
    /// `FieldValueRequired`, ... (`metav1.CauseType`).
    pub fn cause_type(self) -> &'static str {
        match self {
            FieldErrorKind::Required => "FieldValueRequired",
            FieldErrorKind::Invalid => "FieldValueInvalid",
            FieldErrorKind::NotSupported => "FieldValueNotSupported",
            FieldErrorKind::Duplicate => "FieldValueDuplicate",
            FieldErrorKind::Forbidden => "FieldValueForbidden",
            FieldErrorKind::TooLong => "FieldValueTooLong",
            FieldErrorKind::TooMany => "FieldValueTooMany",
            FieldErrorKind::NotFound => "FieldValueNotFound",
            FieldErrorKind::Internal => "InternalError",
        }
    }

    /// The words that start the body: `Required value`, `Invalid value`, ...
    pub fn label(self) -> &'static str {
        match self {
            FieldErrorKind::Required => "Required value",
            FieldErrorKind::Invalid => "Invalid value",
            FieldErrorKind::NotSupported => "Unsupported value",
            FieldErrorKind::Duplicate => "Duplicate value",
            FieldErrorKind::Forbidden => "Forbidden",
            FieldErrorKind::TooLong => "Too long",
            FieldErrorKind::TooMany => "Too many",
            FieldErrorKind::NotFound => "Not found",
            FieldErrorKind::Internal => "Internal error",
        }
    }

    /// Kinds whose body never shows the bad value.
    fn omits_value(self) -> bool {
        matches!(
            self,
            FieldErrorKind::Required | FieldErrorKind::Forbidden | FieldErrorKind::TooLong | FieldErrorKind::Internal
        )
    }
}

/// One validation error on one field.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    pub kind: FieldErrorKind,
    /// The field path, e.g. `spec.containers[0].image`.
    pub field: String,
    /// The offending value; `None` leaves it out of the body (upstream's `omitValue`).
    pub bad_value: Option<Value>,
    pub detail: String,
}

impl FieldError {
    fn new(
        kind: FieldErrorKind,
        field: impl Into<String>,
        bad_value: Option<Value>,
        detail: impl Into<String>,
    ) -> Self {
        FieldError { kind, field: field.into(), bad_value, detail: detail.into() }
    }

    /// `Required value[: detail]`.
    pub fn required(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(FieldErrorKind::Required, field, None, detail)
    }

    /// `Invalid value: <value>[: detail]`.
    pub fn invalid(field: impl Into<String>, value: impl Into<Value>, detail: impl Into<String>) -> Self {
        Self::new(FieldErrorKind::Invalid, field, Some(value.into()), detail)
    }

    /// `Unsupported value: <value>: supported values: "a", "b"`.
    pub fn not_supported<S: AsRef<str>>(field: impl Into<String>, value: impl Into<Value>, supported: &[S]) -> Self {
        let detail = if supported.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = supported.iter().map(|s| go_quote(s.as_ref())).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        Self::new(FieldErrorKind::NotSupported, field, Some(value.into()), detail)
    }

    /// `Duplicate value: <value>`.
    pub fn duplicate(field: impl Into<String>, value: impl Into<Value>) -> Self {
        Self::new(FieldErrorKind::Duplicate, field, Some(value.into()), "")
    }

    /// `Forbidden[: detail]`.
    pub fn forbidden(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(FieldErrorKind::Forbidden, field, None, detail)
    }

    /// `Too long: may not be more than <n> bytes` (`value is too long` when `max` is negative).
    pub fn too_long(field: impl Into<String>, max: i64) -> Self {
        let detail = if max >= 0 {
            format!("may not be more than {max} {}", if max == 1 { "byte" } else { "bytes" })
        } else {
            "value is too long".to_string()
        };
        Self::new(FieldErrorKind::TooLong, field, None, detail)
    }

    /// `Too many: <actual>: must have at most <max> items`.
    pub fn too_many(field: impl Into<String>, actual: i64, max: i64) -> Self {
        let detail = if max >= 0 {
            format!("must have at most {max} {}", if max == 1 { "item" } else { "items" })
        } else {
            "has too many items".to_string()
        };
        let value = if actual >= 0 { Some(Value::from(actual)) } else { None };
        Self::new(FieldErrorKind::TooMany, field, value, detail)
    }

    /// `Not found: <value>`.
    pub fn not_found(field: impl Into<String>, value: impl Into<Value>) -> Self {
        Self::new(FieldErrorKind::NotFound, field, Some(value.into()), "")
    }

    /// `Internal error: <detail>`.
    pub fn internal(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(FieldErrorKind::Internal, field, None, detail)
    }

    /// The message without the field (`ErrorBody`), as Status causes carry it.
    pub fn body(&self) -> String {
        let mut s = self.kind.label().to_string();
        if !self.kind.omits_value() {
            if let Some(v) = &self.bad_value {
                s.push_str(": ");
                match v {
                    Value::String(text) => s.push_str(&go_quote(text)),
                    Value::Number(_) | Value::Bool(_) => s.push_str(&go_scalar(v)),
                    _ => s.push_str(&go_json(v)),
                }
            }
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }

    /// The cause entry of an Invalid Status.
    pub fn to_cause(&self) -> FieldCause {
        FieldCause { reason: self.kind.cause_type().to_string(), message: self.body(), field: self.field.clone() }
    }

    /// Prefixes the field path (for errors found on a nested object, e.g. a pod template).
    pub fn with_prefix(mut self, prefix: &str) -> Self {
        if self.field.is_empty() {
            self.field = prefix.to_string();
        } else if !prefix.is_empty() {
            let sep = if self.field.starts_with('[') { "" } else { "." };
            self.field = format!("{prefix}{sep}{}", self.field);
        }
        self
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

/// Joins messages as `utilerrors.NewAggregate(...).Error()` does: none → `""`, one → itself,
/// several → `[a, b]` with repeated messages dropped.
pub fn aggregate<S: AsRef<str>>(messages: &[S]) -> String {
    match messages {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        _ => {
            let mut seen: Vec<&str> = Vec::new();
            for m in messages {
                if !seen.contains(&m.as_ref()) {
                    seen.push(m.as_ref());
                }
            }
            if seen.len() == 1 {
                seen[0].to_string()
            } else {
                format!("[{}]", seen.join(", "))
            }
        }
    }
}

/// The aggregate message of a field error list (`ErrorList.ToAggregate().Error()`).
pub fn aggregate_field_errors(errors: &[FieldError]) -> String {
    let msgs: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    aggregate(&msgs)
}

/// `metav1.StatusReason` values the lab produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StatusReason {
    NotFound,
    AlreadyExists,
    Conflict,
    Forbidden,
    Invalid,
    BadRequest,
    Unauthorized,
    InternalError,
    MethodNotAllowed,
    /// 429: the request is refused for now (an eviction a PodDisruptionBudget does not allow).
    TooManyRequests,
    /// A failure without a reason (`Error from server: ...`).
    Unknown,
}

impl StatusReason {
    pub fn as_str(self) -> &'static str {
        match self {
            StatusReason::NotFound => "NotFound",
            StatusReason::AlreadyExists => "AlreadyExists",
            StatusReason::Conflict => "Conflict",
            StatusReason::Forbidden => "Forbidden",
            StatusReason::Invalid => "Invalid",
            StatusReason::BadRequest => "BadRequest",
            StatusReason::Unauthorized => "Unauthorized",
            StatusReason::InternalError => "InternalError",
            StatusReason::MethodNotAllowed => "MethodNotAllowed",
            StatusReason::TooManyRequests => "TooManyRequests",
            StatusReason::Unknown => "",
        }
    }

    /// The HTTP status text of the reason's usual code (`Not Found`, `Unprocessable Entity`).
    pub fn http_text(code: u16) -> &'static str {
        match code {
            200 => "OK",
            201 => "Created",
            400 => "Bad Request",
            401 => "Unauthorized",
            403 => "Forbidden",
            404 => "Not Found",
            405 => "Method Not Allowed",
            409 => "Conflict",
            422 => "Unprocessable Entity",
            429 => "Too Many Requests",
            500 => "Internal Server Error",
            _ => "",
        }
    }
}

/// A group-qualified resource (`pods`, `deployments.apps`), as `schema.GroupResource`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GroupResource {
    pub group: String,
    pub resource: String,
}

impl GroupResource {
    pub fn new(group: impl Into<String>, resource: impl Into<String>) -> Self {
        GroupResource { group: group.into(), resource: resource.into() }
    }

    pub fn is_empty(&self) -> bool {
        self.group.is_empty() && self.resource.is_empty()
    }
}

impl std::fmt::Display for GroupResource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.group.is_empty() {
            f.write_str(&self.resource)
        } else {
            write!(f, "{}.{}", self.resource, self.group)
        }
    }
}

impl From<&ResourceInfo> for GroupResource {
    fn from(r: &ResourceInfo) -> Self {
        GroupResource::new(r.group, r.plural)
    }
}

/// A group-qualified kind (`Pod`, `Deployment.apps`), as `schema.GroupKind`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GroupKind {
    pub group: String,
    pub kind: String,
}

impl GroupKind {
    pub fn new(group: impl Into<String>, kind: impl Into<String>) -> Self {
        GroupKind { group: group.into(), kind: kind.into() }
    }
}

impl std::fmt::Display for GroupKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.group.is_empty() {
            f.write_str(&self.kind)
        } else {
            write!(f, "{}.{}", self.kind, self.group)
        }
    }
}

impl From<&ResourceInfo> for GroupKind {
    fn from(r: &ResourceInfo) -> Self {
        GroupKind::new(r.group, r.kind)
    }
}

/// `metav1.StatusDetails`. For resource errors `kind` holds the plural resource (as upstream
/// fills it); for Invalid it holds the kind.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StatusDetails {
    pub name: String,
    pub group: String,
    pub kind: String,
    pub causes: Vec<FieldCause>,
}

/// A failure `metav1.Status`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// HTTP status code (404, 409, 403, 422, 400, 401, 500).
    pub code: u16,
    pub reason: StatusReason,
    pub message: String,
    pub details: Option<StatusDetails>,
}

impl Status {
    fn with_details(code: u16, reason: StatusReason, message: String, details: StatusDetails) -> Self {
        Status { code, reason, message, details: Some(details) }
    }

    fn resource_details(resource: &GroupResource, name: &str) -> StatusDetails {
        StatusDetails {
            name: name.to_string(),
            group: resource.group.clone(),
            kind: resource.resource.clone(),
            causes: Vec::new(),
        }
    }

    /// 404 `<resource> "<name>" not found`.
    pub fn not_found(resource: impl Into<GroupResource>, name: &str) -> Self {
        let r = resource.into();
        let message = format!("{r} {} not found", go_quote(name));
        Self::with_details(404, StatusReason::NotFound, message, Self::resource_details(&r, name))
    }

    /// 409 `<resource> "<name>" already exists`.
    pub fn already_exists(resource: impl Into<GroupResource>, name: &str) -> Self {
        let r = resource.into();
        let message = format!("{r} {} already exists", go_quote(name));
        Self::with_details(409, StatusReason::AlreadyExists, message, Self::resource_details(&r, name))
    }

    /// 409 `Operation cannot be fulfilled on <resource> "<name>": <err>`.
    pub fn conflict(resource: impl Into<GroupResource>, name: &str, err: &str) -> Self {
        let r = resource.into();
        let message = format!("Operation cannot be fulfilled on {r} {}: {err}", go_quote(name));
        Self::with_details(409, StatusReason::Conflict, message, Self::resource_details(&r, name))
    }

    /// 403 `<resource> "<name>" is forbidden: <err>`; `<resource> is forbidden: <err>` without
    /// a name; `forbidden: <err>` without a resource.
    pub fn forbidden(resource: impl Into<GroupResource>, name: &str, err: &str) -> Self {
        let r = resource.into();
        let message = if r.is_empty() {
            format!("forbidden: {err}")
        } else if name.is_empty() {
            format!("{r} is forbidden: {err}")
        } else {
            format!("{r} {} is forbidden: {err}", go_quote(name))
        };
        Self::with_details(403, StatusReason::Forbidden, message, Self::resource_details(&r, name))
    }

    /// 422 `<Kind> "<name>" is invalid: <aggregated field errors>`, with one cause per error.
    pub fn invalid(kind: impl Into<GroupKind>, name: &str, errors: &[FieldError]) -> Self {
        let k = kind.into();
        let agg = aggregate_field_errors(errors);
        let message = if agg.is_empty() {
            format!("{k} {} is invalid", go_quote(name))
        } else {
            format!("{k} {} is invalid: {agg}", go_quote(name))
        };
        let details = StatusDetails {
            name: name.to_string(),
            group: k.group.clone(),
            kind: k.kind.clone(),
            causes: errors.iter().map(FieldError::to_cause).collect(),
        };
        Self::with_details(422, StatusReason::Invalid, message, details)
    }

    /// 400 with a free-text message.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Status { code: 400, reason: StatusReason::BadRequest, message: message.into(), details: None }
    }

    /// 404 for a path the API server does not serve (a subresource the kind lacks):
    /// `the server could not find the requested resource`.
    pub fn path_not_found() -> Self {
        Status {
            code: 404,
            reason: StatusReason::NotFound,
            message: "the server could not find the requested resource".into(),
            details: None,
        }
    }

    /// 401 as the API server's authentication filter answers it (message `Unauthorized`).
    pub fn unauthorized() -> Self {
        Status { code: 401, reason: StatusReason::Unauthorized, message: "Unauthorized".into(), details: None }
    }

    /// Not an answer from the server: the connection was refused (`err` is client-go's
    /// error). Kept as a Status so callers handle it as any failed request; the code is 503,
    /// as nothing was served.
    pub fn connection_refused(err: &str) -> Self {
        Status { code: 503, reason: StatusReason::Unknown, message: err.to_string(), details: None }
    }

    /// 500 `Internal error occurred: <err>`.
    pub fn internal_error(err: &str) -> Self {
        let details = StatusDetails {
            causes: vec![FieldCause { reason: String::new(), message: err.to_string(), field: String::new() }],
            ..StatusDetails::default()
        };
        Self::with_details(500, StatusReason::InternalError, format!("Internal error occurred: {err}"), details)
    }

    /// The JSON body the API server returns.
    pub fn to_json(&self) -> Value {
        let mut m = serde_json::Map::new();
        m.insert("kind".into(), "Status".into());
        m.insert("apiVersion".into(), "v1".into());
        m.insert("metadata".into(), Value::Object(serde_json::Map::new()));
        m.insert("status".into(), "Failure".into());
        if !self.message.is_empty() {
            m.insert("message".into(), self.message.clone().into());
        }
        if self.reason != StatusReason::Unknown {
            m.insert("reason".into(), self.reason.as_str().into());
        }
        if let Some(d) = &self.details {
            let mut dm = serde_json::Map::new();
            for (k, v) in [("name", &d.name), ("group", &d.group), ("kind", &d.kind)] {
                if !v.is_empty() {
                    dm.insert(k.into(), v.clone().into());
                }
            }
            if !d.causes.is_empty() {
                let causes = d
                    .causes
                    .iter()
                    .map(|c| {
                        let mut cm = serde_json::Map::new();
                        for (k, v) in [("reason", &c.reason), ("message", &c.message), ("field", &c.field)] {
                            if !v.is_empty() {
                                cm.insert(k.into(), v.clone().into());
                            }
                        }
                        Value::Object(cm)
                    })
                    .collect();
                dm.insert("causes".into(), Value::Array(causes));
            }
            m.insert("details".into(), Value::Object(dm));
        }
        m.insert("code".into(), self.code.into());
        Value::Object(m)
    }

    /// kubectl's `AddSourceToErr`: the message gets `error when <verb> "<source>": ` in front.
    /// `verb` is `creating`, or one of [`apply_get_verb`]'s texts.
    pub fn with_source(&self, verb: &str, source: &str) -> Status {
        let mut s = self.clone();
        if !source.is_empty() {
            s.message = format!("error when {verb} {}: {}", go_quote(source), self.message);
        }
        s
    }
}

/// The verb kubectl apply uses when the GET that precedes a create fails (anything but
/// NotFound): `retrieving current configuration of:\n<info>\nfrom server for:`, where info is
/// cli-runtime's `Info.String()`.
pub fn apply_get_verb(resource: &ResourceInfo, name: &str, namespace: &str) -> String {
    format!(
        "retrieving current configuration of:\nResource: {}, GroupVersionKind: {}\nName: {}, Namespace: {}\nfrom server for:",
        go_quote(&format!("{}/{}, Resource={}", resource.group, resource.version, resource.plural)),
        go_quote(&format!("{}/{}, Kind={}", resource.group, resource.version, resource.kind)),
        go_quote(name),
        go_quote(namespace)
    )
}

/// One error a kubectl command ends with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// An API Status from the server (already carrying kubectl's source prefix, if any).
    Server(Status),
    /// An error kubectl produced itself (`error parsing pod.yaml: ...`, `no matches for kind`).
    Client(String),
}

/// What kubectl writes to standard error when a command fails with these errors (kubectl's
/// `checkErr`): one error is rendered on its own (Invalid rebuilt from its causes; Unauthorized
/// as `error: You must be logged in to the server (...)`; other Status errors as
/// `Error from server (<Reason>): <message>`; client errors with an `error: ` prefix); several
/// errors print one line each through `StandardErrorMessage`, without the Invalid special case
/// and without the `error: ` prefix on client errors. The text ends with a newline.
pub fn kubectl_stderr(errors: &[CommandError]) -> String {
    match errors {
        [] => String::new(),
        [one] => match one {
            CommandError::Server(s) if s.reason == StatusReason::Invalid => invalid_rendering(s),
            CommandError::Server(s) => format!("{}\n", standard_message(s)),
            CommandError::Client(msg) => {
                if msg.starts_with("error: ") {
                    format!("{msg}\n")
                } else {
                    format!("error: {msg}\n")
                }
            }
        },
        many => {
            let mut out = String::new();
            for e in many {
                match e {
                    CommandError::Server(s) => out.push_str(&standard_message(s)),
                    CommandError::Client(msg) => out.push_str(msg),
                }
                out.push('\n');
            }
            out
        }
    }
}

/// The common case: one server error while creating from `source` (`kubectl create -f` or the
/// create half of `kubectl apply -f`), without the final newline.
pub fn kubectl_error_line(status: &Status, source: &str) -> String {
    let text = kubectl_stderr(&[CommandError::Server(status.with_source("creating", source))]);
    text.strip_suffix('\n').unwrap_or(&text).to_string()
}

/// `StandardErrorMessage` for a Status.
fn standard_message(s: &Status) -> String {
    match s.reason {
        StatusReason::Unauthorized => format!("error: You must be logged in to the server ({})", s.message),
        StatusReason::Unknown => format!("Error from server: {}", s.message),
        r => format!("Error from server ({}): {}", r.as_str(), s.message),
    }
}

/// kubectl's Invalid rendering, rebuilt from the details (the message, and so the file name,
/// is not shown). Note that it prints the bare kind (`Deployment`), not `Deployment.apps`.
fn invalid_rendering(s: &Status) -> String {
    let Some(d) = &s.details else {
        return if s.message.is_empty() {
            "The request is invalid\n".to_string()
        } else {
            format!("The request is invalid: {}\n", s.message)
        };
    };
    let mut head = "The request is invalid".to_string();
    if !d.kind.is_empty() || !d.name.is_empty() {
        head = format!("The {} {} is invalid", d.kind, go_quote(&d.name));
    } else if !s.message.is_empty() && d.causes.is_empty() {
        head = format!("{head}: {}", s.message);
    }
    if d.causes.is_empty() {
        return format!("{head}\n");
    }
    let mut lines: Vec<String> = Vec::new();
    for c in &d.causes {
        let line = format!("{}: {}", c.field, c.message);
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    if lines.len() == 1 {
        format!("{head}: {}\n", lines[0])
    } else {
        let mut out = format!("{head}: \n");
        for l in lines {
            let _ = writeln!(out, "* {l}");
        }
        out
    }
}

/// Go's `strconv.Quote`: double quotes, `\"` and `\\`, the usual short escapes, and `\x`, `\u`
/// or `\U` escapes for characters Go does not consider printable.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if go_is_print(c) => out.push(c),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// An approximation of Go's `unicode.IsPrint`: graphic characters and the ASCII space; not
/// control, format, separator (other than ' ') or private-use characters.
fn go_is_print(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let u = c as u32;
    let format_or_private = matches!(u,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E
        | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB | 0xE000..=0xF8FF
        | 0xF0000..=0x10FFFF);
    !format_or_private && !(0xFFFE..=0xFFFF).contains(&(u & 0xFFFF))
}

/// A number or boolean as Go's `%v` prints it.
fn go_scalar(v: &Value) -> String {
    match v {
        Value::Number(n) => {
            if n.is_i64() || n.is_u64() {
                n.to_string()
            } else {
                go_float(n.as_f64().unwrap_or(0.0))
            }
        }
        Value::Bool(b) => b.to_string(),
        other => go_json(other),
    }
}

/// Go's `%v` for a float64: shortest digits, exponent form when the decimal exponent is
/// below -4 or at least 6 (`strconv` `'g'` with precision -1).
fn go_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf".into() } else { "-Inf".into() };
    }
    if f == 0.0 {
        return "0".into();
    }
    let exp = f.abs().log10().floor() as i32;
    if !(-4..6).contains(&exp) {
        // Rust's `{:e}` gives `1.5e21`; Go writes `1.5e+21` with at least two exponent digits.
        let s = format!("{f:e}");
        if let Some((mant, e)) = s.split_once('e') {
            let (sign, digits) = match e.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', e),
            };
            return format!("{mant}e{sign}{digits:0>2}");
        }
        return s;
    }
    format!("{f}")
}

/// Go's `json.Marshal` of a JSON value: compact, with `<`, `>`, `&`, U+2028 and U+2029
/// escaped as `\u003c` and so on, and backspace and form feed as `\b` and `\f` (Go 1.22
/// and later; the Kubernetes releases modelled are built with Go 1.25). Object keys keep
/// their order.
pub fn go_json(v: &Value) -> String {
    let mut out = String::new();
    write_go_json(v, &mut out);
    out
}

fn write_go_json(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => write_go_json_string(s, out),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_go_json(x, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_go_json_string(k, out);
                out.push(':');
                write_go_json(x, out);
            }
            out.push('}');
        }
    }
}

fn write_go_json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::resource_for;
    use expect_test::{expect, Expect};
    use serde_json::json;

    fn check(actual: &str, expect: Expect) {
        expect.assert_eq(actual);
    }

    fn lines(errors: &[FieldError]) -> String {
        errors.iter().map(|e| format!("{e}\n")).collect()
    }

    #[test]
    fn go_json_escapes_as_go_1_22_and_later() {
        let v = json!({
            "k<&>": ["\u{8}\u{c}\u{1}\u{1f}\n\r\t\"\\", "\u{2028}\u{2029}é", 1, true, null]
        });
        check(
            &go_json(&v),
            expect![[r#"{"k\u003c\u0026\u003e":["\b\f\u0001\u001f\n\r\t\"\\","\u2028\u2029é",1,true,null]}"#]],
        );
    }

    #[test]
    fn field_error_bodies() {
        let errors = [
            FieldError::required("spec.containers[0].image", ""),
            FieldError::required("metadata.name", "name or generateName is required"),
            FieldError::invalid("metadata.name", "My_Pod", "a lowercase RFC 1123 subdomain ..."),
            FieldError::invalid("spec.replicas", -1, "must be greater than or equal to 0"),
            FieldError::invalid("spec.hostNetwork", true, "x"),
            FieldError::invalid("spec.x", 1.5, ""),
            FieldError::invalid("spec.selector", json!({"matchLabels": {"app": "<web>"}}), "empty selector"),
            FieldError::invalid("spec.args", json!(["a", "b"]), ""),
            FieldError::invalid("spec.n", Value::Null, "null"),
            FieldError::not_supported("spec.restartPolicy", "Sometimes", &["Always", "OnFailure", "Never"]),
            FieldError::duplicate("spec.containers[1].name", "web"),
            FieldError::forbidden("spec.hostPort", "may not be set"),
            FieldError::too_long("metadata.annotations", 262144),
            FieldError::too_long("x", 1),
            FieldError::too_many("spec.items", 5, 3),
            FieldError::too_many("spec.items", 2, 1),
            FieldError::not_found("spec.containers[0].volumeMounts[0].name", "data"),
            FieldError::internal("spec", "boom"),
            FieldError::invalid("metadata.name", "tab\there \"q\" é \u{200b}", ""),
        ];
        check(
            &lines(&errors),
            expect![[r#"
                spec.containers[0].image: Required value
                metadata.name: Required value: name or generateName is required
                metadata.name: Invalid value: "My_Pod": a lowercase RFC 1123 subdomain ...
                spec.replicas: Invalid value: -1: must be greater than or equal to 0
                spec.hostNetwork: Invalid value: true: x
                spec.x: Invalid value: 1.5
                spec.selector: Invalid value: {"matchLabels":{"app":"\u003cweb\u003e"}}: empty selector
                spec.args: Invalid value: ["a","b"]
                spec.n: Invalid value: null: null
                spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"
                spec.containers[1].name: Duplicate value: "web"
                spec.hostPort: Forbidden: may not be set
                metadata.annotations: Too long: may not be more than 262144 bytes
                x: Too long: may not be more than 1 byte
                spec.items: Too many: 5: must have at most 3 items
                spec.items: Too many: 2: must have at most 1 item
                spec.containers[0].volumeMounts[0].name: Not found: "data"
                spec: Internal error: boom
                metadata.name: Invalid value: "tab\there \"q\" é \u200b"
            "#]],
        );
    }

    #[test]
    fn aggregation() {
        check(&aggregate::<&str>(&[]), expect![[""]]);
        check(&aggregate(&["a"]), expect![["a"]]);
        check(&aggregate(&["a", "a"]), expect![["a"]]);
        check(&aggregate(&["a", "b", "a", "c"]), expect![["[a, b, c]"]]);
    }

    fn show(status: &Status) -> String {
        format!(
            "{} {}\n{}\n",
            status.code,
            serde_json::to_string(&status.to_json()).unwrap(),
            kubectl_error_line(status, "pod.yaml")
        )
    }

    #[test]
    fn statuses_and_kubectl_lines() {
        let pods = resource_for("v1", "Pod").unwrap();
        let deps = resource_for("apps/v1", "Deployment").unwrap();
        let nss = resource_for("v1", "Namespace").unwrap();
        let mut out = String::new();
        out += &show(&Status::not_found(nss, "dev"));
        out += &show(&Status::already_exists(pods, "web"));
        out += &show(&Status::conflict(
            pods,
            "web",
            "the object has been modified; please apply your changes to the latest version and try again",
        ));
        out += &show(&Status::forbidden(
            pods,
            "",
            "User \"jane\" cannot create resource \"pods\" in API group \"\" in the namespace \"default\"",
        ));
        out += &show(&Status::forbidden(deps, "api", "x"));
        out += &show(&Status::forbidden(GroupResource::default(), "", "x"));
        out += &show(&Status::bad_request(
            "Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: unknown field \"spec.x\"",
        ));
        out += &show(&Status::unauthorized());
        out += &show(&Status::internal_error("etcd is down"));
        check(
            &out,
            expect![[r#"
                404 {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"namespaces \"dev\" not found","reason":"NotFound","details":{"name":"dev","kind":"namespaces"},"code":404}
                Error from server (NotFound): error when creating "pod.yaml": namespaces "dev" not found
                409 {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"web\" already exists","reason":"AlreadyExists","details":{"name":"web","kind":"pods"},"code":409}
                Error from server (AlreadyExists): error when creating "pod.yaml": pods "web" already exists
                409 {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on pods \"web\": the object has been modified; please apply your changes to the latest version and try again","reason":"Conflict","details":{"name":"web","kind":"pods"},"code":409}
                Error from server (Conflict): error when creating "pod.yaml": Operation cannot be fulfilled on pods "web": the object has been modified; please apply your changes to the latest version and try again
                403 {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \"jane\" cannot create resource \"pods\" in API group \"\" in the namespace \"default\"","reason":"Forbidden","details":{"kind":"pods"},"code":403}
                Error from server (Forbidden): error when creating "pod.yaml": pods is forbidden: User "jane" cannot create resource "pods" in API group "" in the namespace "default"
                403 {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \"api\" is forbidden: x","reason":"Forbidden","details":{"name":"api","group":"apps","kind":"deployments"},"code":403}
                Error from server (Forbidden): error when creating "pod.yaml": deployments.apps "api" is forbidden: x
                403 {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: x","reason":"Forbidden","details":{},"code":403}
                Error from server (Forbidden): error when creating "pod.yaml": forbidden: x
                400 {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: unknown field \"spec.x\"","reason":"BadRequest","code":400}
                Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.x"
                401 {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}
                error: You must be logged in to the server (error when creating "pod.yaml": Unauthorized)
                500 {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Internal error occurred: etcd is down","reason":"InternalError","details":{"causes":[{"message":"etcd is down"}]},"code":500}
                Error from server (InternalError): error when creating "pod.yaml": Internal error occurred: etcd is down
            "#]],
        );
    }

    #[test]
    fn invalid_status_and_kubectl_rendering() {
        let pods = resource_for("v1", "Pod").unwrap();
        let deps = resource_for("apps/v1", "Deployment").unwrap();
        let one = [FieldError::required("spec.containers[0].image", "")];
        let two = [
            FieldError::required("spec.containers[0].image", ""),
            FieldError::not_supported("spec.restartPolicy", "Sometimes", &["Always", "OnFailure", "Never"]),
            FieldError::required("spec.containers[0].image", ""),
        ];
        let s1 = Status::invalid(pods, "web", &one);
        let s2 = Status::invalid(deps, "api", &two);
        let s0 = Status::invalid(pods, "web", &[]);
        let mut out = String::new();
        for s in [&s1, &s2, &s0] {
            out += &format!("{}\n", serde_json::to_string(&s.to_json()).unwrap());
            out += &kubectl_stderr(&[CommandError::Server(s.with_source("creating", "pod.yaml"))]);
        }
        out += "-- several errors --\n";
        out += &kubectl_stderr(&[
            CommandError::Server(s1.with_source("creating", "all.yaml")),
            CommandError::Server(Status::already_exists(pods, "db").with_source("creating", "all.yaml")),
            CommandError::Client("error parsing all.yaml: boom".into()),
        ]);
        out += "-- client --\n";
        out += &kubectl_stderr(&[CommandError::Client("no objects passed to apply".into())]);
        out += "-- apply GET denied --\n";
        out += &kubectl_stderr(&[CommandError::Server(
            Status::forbidden(pods, "web", "User \"jane\" cannot get resource \"pods\"")
                .with_source(&apply_get_verb(pods, "web", "default"), "pod.yaml"),
        )]);
        check(
            &out,
            expect![[r#"
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Pod \"web\" is invalid: spec.containers[0].image: Required value","reason":"Invalid","details":{"name":"web","kind":"Pod","causes":[{"reason":"FieldValueRequired","message":"Required value","field":"spec.containers[0].image"}]},"code":422}
                The Pod "web" is invalid: spec.containers[0].image: Required value
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Deployment.apps \"api\" is invalid: [spec.containers[0].image: Required value, spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"]","reason":"Invalid","details":{"name":"api","group":"apps","kind":"Deployment","causes":[{"reason":"FieldValueRequired","message":"Required value","field":"spec.containers[0].image"},{"reason":"FieldValueNotSupported","message":"Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"","field":"spec.restartPolicy"},{"reason":"FieldValueRequired","message":"Required value","field":"spec.containers[0].image"}]},"code":422}
                The Deployment "api" is invalid: 
                * spec.containers[0].image: Required value
                * spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Pod \"web\" is invalid","reason":"Invalid","details":{"name":"web","kind":"Pod"},"code":422}
                The Pod "web" is invalid
                -- several errors --
                Error from server (Invalid): error when creating "all.yaml": Pod "web" is invalid: spec.containers[0].image: Required value
                Error from server (AlreadyExists): error when creating "all.yaml": pods "db" already exists
                error parsing all.yaml: boom
                -- client --
                error: no objects passed to apply
                -- apply GET denied --
                Error from server (Forbidden): error when retrieving current configuration of:
                Resource: "/v1, Resource=pods", GroupVersionKind: "/v1, Kind=Pod"
                Name: "web", Namespace: "default"
                from server for: "pod.yaml": pods "web" is forbidden: User "jane" cannot get resource "pods"
            "#]],
        );
    }

    #[test]
    fn go_number_rendering() {
        let v: Vec<String> = [0.5, 1e21, 1.5e-7, 123456.0, 100.25].iter().map(|f| go_float(*f)).collect();
        check(&v.join(" "), expect!["0.5 1e+21 1.5e-07 123456 100.25"]);
    }
}
