//! `--dry-run` on the session's writing commands (kubectl's `cmdutil.AddDryRunFlag` and
//! `GetDryRunStrategy`): `none` (the default), `client` (kubectl prints what it would do and
//! sends nothing), `server` (every write carries `dryRun=All`: the API server runs the whole
//! request, admission and validation included, and writes nothing to etcd). A bare
//! `--dry-run` (the flag's `NoOptDefVal`, `unchanged`) and the old boolean values still work,
//! with klog's deprecation warning on standard error; any other value is kubectl's error.
//! Successful lines end in ` (dry run)` or ` (server dry run)` (`PrintFlagsWithDryRunStrategy`).

use super::*;
pub(super) use crate::kubectl::DryRun;
use crate::kubectl::{FileVerb, Printing};
use serde_json::Value;

/// The line of `cmdutil/helpers.go` that logs each deprecation warning (kubectl v1.37's
/// source): the bare flag, and a boolean value.
const BARE_WARNING_LINE: u32 = 714;
const TRUE_WARNING_LINE: u32 = 728;
const FALSE_WARNING_LINE: u32 = 731;

/// The formats kubectl's printers know (`PrintFlags.AllowedFormats`, v1.37: `kyaml` is new),
/// for the error on any other `-o`.
const PRINTER_FORMATS: &str =
    "go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,yaml";

/// `--dry-run` and `-o` of `apply|create|replace -f`.
pub(super) struct FileFlags {
    pub dry_run: DryRun,
    pub printing: Printing,
    /// `yaml` or `json`.
    pub format: Option<&'static str>,
}

/// `-o yaml|json` of what `apply|create|replace -f` handled: `create` and `replace` print each
/// object as it comes back (YAML documents separated by `---`), `apply` prints them at the
/// end, the one object alone or several in a `List`.
pub(super) fn print_file_objects(objects: &[Value], format: &str, verb: FileVerb) -> String {
    let sorted = |o: &Value| {
        let mut o = o.clone();
        crate::kubectl::apply::sort_keys(&mut o);
        o
    };
    if verb == FileVerb::Apply && objects.len() > 1 {
        // A typed corev1.List: JSON in its fields' order, YAML with sorted keys.
        let items: Vec<Value> = objects.iter().map(sorted).collect();
        return if format == "json" {
            go_json_indent(&serde_json::json!({"kind": "List", "apiVersion": "v1", "metadata": {}, "items": items}))
        } else {
            go_yaml(&serde_json::json!({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {}}))
        };
    }
    let mut out = String::new();
    for (i, o) in objects.iter().enumerate() {
        if format == "json" {
            out += &go_json_indent(&sorted(o));
        } else {
            if i > 0 {
                out += "---\n";
            }
            out += &go_yaml(&sorted(o));
        }
    }
    out
}

impl Session {
    /// `--dry-run[=VALUE]` of a command, the deprecation warning (if any) added to `stderr`.
    pub(super) fn dry_run_flag(&self, flags: &Flags, stderr: &mut String) -> Result<DryRun, Output> {
        let Some((_, value)) = flags.flags.iter().rev().find(|(n, _)| n == "--dry-run") else {
            return Ok(DryRun::None);
        };
        let value = value.as_deref().unwrap_or("unchanged");
        let (strategy, warning) = match value {
            "unchanged" => (
                DryRun::Client,
                Some((BARE_WARNING_LINE, "--dry-run is deprecated and can be replaced with --dry-run=client.".to_string())),
            ),
            "client" => (DryRun::Client, None),
            "server" => (DryRun::Server, None),
            "none" => (DryRun::None, None),
            // strconv.ParseBool's spellings.
            "1" | "t" | "T" | "true" | "TRUE" | "True" => (
                DryRun::Client,
                Some((
                    TRUE_WARNING_LINE,
                    format!("--dry-run={value} is deprecated (boolean value) and can be replaced with --dry-run=client."),
                )),
            ),
            "0" | "f" | "F" | "false" | "FALSE" | "False" => (
                DryRun::None,
                Some((
                    FALSE_WARNING_LINE,
                    format!("--dry-run={value} is deprecated (boolean value) and can be replaced with --dry-run=none."),
                )),
            ),
            other => {
                return Err(Output::error(format!(
                    "error: Invalid dry-run value ({other}). Must be \"none\", \"server\", or \"client\"."
                )))
            }
        };
        if let Some((line, text)) = warning {
            *stderr += &self.klog('W', &format!("helpers.go:{line}"), &text);
        }
        Ok(strategy)
    }

    /// `--dry-run` and `-o` of a file command (`apply`, `create`, `replace`).
    pub(super) fn file_flags(&self, flags: &Flags, stderr: &mut String) -> Result<FileFlags, Output> {
        let dry_run = self.dry_run_flag(flags, stderr)?;
        let (printing, format) = match flags.value(&["-o", "--output"]) {
            None | Some("") => (Printing::Operation, None),
            Some("name") => (Printing::Name, None),
            Some("yaml") => (Printing::Objects, Some("yaml")),
            Some("json") => (Printing::Objects, Some("json")),
            Some(o) if ["jsonpath", "go-template", "template", "templatefile", "kyaml"].iter().any(|p| o.starts_with(p)) => {
                return Err(Output::error(format!(
                    "podlab: -o {o} is not modelled by the lab's session yet (it prints -o name, yaml and json)"
                )))
            }
            Some(o) => {
                return Err(Output::error(format!(
                    "error: unable to match a printer suitable for the output format \"{o}\", allowed formats are: {PRINTER_FORMATS}"
                )))
            }
        };
        Ok(FileFlags { dry_run, printing, format })
    }

    /// One line of kubectl's log (klog's header: severity, `MMDD hh:mm:ss.uuuuuu`, the
    /// process id, `file:line]`) at the current cluster time.
    pub(super) fn klog(&self, severity: char, source: &str, text: &str) -> String {
        let stamp = crate::apiserver::timestamp(self.world.now);
        let header = stamp.0.strftime("%m%d %H:%M:%S").to_string();
        let micros = (self.world.now % 1000) * 1000;
        let pid = outage::kubectl_pid(self.commands.len());
        format!("{severity}{header}.{micros:06} {pid:>7} {source}] {text}\n")
    }

    /// Marks every write of the running command with `dryRun=All`.
    pub(super) fn server_dry_run(&mut self) {
        if let Some(c) = self.command.as_mut() {
            c.dry_run = true;
        }
    }
}
