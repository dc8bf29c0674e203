//! `--dry-run` on the session's writing commands (kubectl's `cmdutil.AddDryRunFlag` and
//! `GetDryRunStrategy`): `none` (the default), `client` (kubectl prints what it would do and
//! sends nothing), `server` (every write carries `dryRun=All`: the API server runs the whole
//! request, admission and validation included, and writes nothing to etcd). A bare
//! `--dry-run` (the flag's `NoOptDefVal`, `unchanged`) and the old boolean values still work,
//! with klog's deprecation warning on standard error; any other value is kubectl's error.
//! Successful lines end in ` (dry run)` or ` (server dry run)` (`PrintFlagsWithDryRunStrategy`).

use super::*;

/// kubectl's dry-run strategy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum DryRun {
    #[default]
    None,
    Client,
    Server,
}

/// The line of `cmdutil/helpers.go` that logs each deprecation warning (kubectl v1.37's
/// source): the bare flag, and a boolean value.
const BARE_WARNING_LINE: u32 = 714;
const TRUE_WARNING_LINE: u32 = 728;
const FALSE_WARNING_LINE: u32 = 731;

impl DryRun {
    /// What kubectl appends to a success line.
    pub(super) fn suffix(self) -> &'static str {
        match self {
            DryRun::None => "",
            DryRun::Client => " (dry run)",
            DryRun::Server => " (server dry run)",
        }
    }
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
