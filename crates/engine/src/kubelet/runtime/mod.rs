//! The container runtime (containerd) and what the processes inside containers do.
//!
//! The runtime part holds the timings of CRI calls and the exact error texts containerd and
//! runc give. The behaviour model decides, from the image and the container's `command` and
//! `args`, what the container's main process does: serve on ports, run for a while and exit
//! with a code, exit at once (a shell without a TTY), fail to start (a command that is not
//! in the image), or get OOM-killed. It understands simple `sh -c` scripts: sequences of
//! `sleep`, `echo`, `touch`, `rm`, `exit`, `cat`, `test`, `trap`, `exec`, background `&`,
//! `&&`/`||`, `for` and `while true` loops (the shell is in `shell.rs`).

mod shell;

pub use shell::shell_words;

use super::images::{ImageInfo, ImageKind, Userland};
use crate::rng::Rng;
use shell::{shell, Flow, Shell};
use std::collections::BTreeMap;

/// CRI RunPodSandbox without the network part (netns, pause container start).
pub const SANDBOX_CREATE_MS: u64 = 280;
/// CRI CreateContainer.
pub const CONTAINER_CREATE_MS: u64 = 60;
/// CRI StartContainer (runc create + start).
pub const CONTAINER_START_MS: u64 = 90;
/// A process that "exits at once" still lives this long.
pub const QUICK_EXIT_MS: u64 = 15;
/// `terminationGracePeriodSeconds` default.
pub const DEFAULT_GRACE_PERIOD_S: i64 = 30;
/// How long a process that handles its stop signal takes to exit.
pub const GRACEFUL_STOP_MS: u64 = 120;
/// How long after start a memory hog reaches its limit and is OOM-killed.
pub const OOM_AFTER_MS: u64 = 800;
/// The exit code of a process killed by SIGKILL (128 + 9).
pub const EXIT_SIGKILL: i32 = 137;
/// The exit code runc reports when the process could not be started.
pub const EXIT_START_ERROR: i32 = 128;
/// Where containerd creates network namespaces.
pub const NETNS_DIR: &str = "/var/run/netns";

/// The 64-hex ID of a new sandbox or container.
pub fn new_container_id(rng: &mut Rng) -> String {
    (0..4).map(|_| format!("{:016x}", rng.next_u64())).collect()
}

/// What a TCP port of the process answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Routes {
    /// Not HTTP (a database protocol, a proxy).
    NotHttp,
    /// nginx/httpd defaults: `/` and `/index.html` answer 200, anything else 404.
    RootOnly,
    /// Every path answers 200.
    All,
    /// `/healthz` answers 200 for the first `healthy_ms`, then 500; other paths 404.
    FailsAfter { healthy_ms: u64 },
}

/// A port the process listens on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listener {
    pub port: i32,
    pub routes: Routes,
    /// Implements the gRPC health service on this port.
    pub grpc_health: bool,
    /// Bound to 127.0.0.1 only (unreachable from the kubelet through the pod IP).
    pub localhost_only: bool,
}

impl Listener {
    fn http(port: i32, routes: Routes) -> Listener {
        Listener { port, routes, grpc_health: false, localhost_only: false }
    }
    fn tcp(port: i32) -> Listener {
        Listener { port, routes: Routes::NotHttp, grpc_health: false, localhost_only: false }
    }
}

/// How the process ends on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Runs until stopped.
    Never,
    /// Exits by itself `after_ms` after the start with `code`.
    Exit { after_ms: u64, code: i32 },
    /// Allocates more memory than the limit allows and is killed by the kernel.
    Oom { after_ms: u64 },
    /// The runtime cannot start it (runc's message).
    StartError { message: String },
}

/// What the process does when the kubelet stops it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnStop {
    /// Handles the stop signal and exits with this code.
    Exits(i32),
    /// PID 1 without a handler ignores SIGTERM: killed with SIGKILL after the grace period.
    Ignores,
}

/// The model of one container's main process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Process {
    /// The command line that runs (entrypoint/command + cmd/args).
    pub argv: Vec<String>,
    pub end: End,
    pub listeners: Vec<Listener>,
    /// From start until the listeners accept connections.
    pub listen_after_ms: u64,
    /// Files created (`true`) or removed (`false`) at ms after start.
    pub files: Vec<(u64, String, bool)>,
    pub on_stop: OnStop,
    pub memory_bytes: u64,
    /// The first lines it prints (what `kubectl logs` would show).
    pub logs: Vec<String>,
    /// In plain words.
    pub description: String,
}

impl Process {
    fn new(argv: Vec<String>, end: End, description: impl Into<String>) -> Process {
        Process {
            argv,
            end,
            listeners: vec![],
            listen_after_ms: 0,
            files: vec![],
            on_stop: OnStop::Ignores,
            memory_bytes: 1 << 20,
            logs: vec![],
            description: description.into(),
        }
    }

    /// Whether a file exists at `t_ms` after the start (created by the process, shipped
    /// in the image or mounted from a volume).
    pub fn file_exists(&self, path: &str, t_ms: u64, static_files: &[String]) -> bool {
        let mut state = mounted(static_files, path);
        for (at, p, present) in &self.files {
            if *at <= t_ms && p == path {
                state = *present;
            }
        }
        state
    }
}

/// What the model needs to know about the container.
#[derive(Clone, Debug, Default)]
pub struct ProcessContext {
    /// Resolved environment variables.
    pub env: BTreeMap<String, String>,
    pub tty: bool,
    pub stdin: bool,
    /// The container's memory limit in bytes (0 = none).
    pub memory_limit: u64,
    /// The container's declared `containerPort`s (what an unknown app is assumed to serve).
    pub declared_ports: Vec<i32>,
    /// What the container's volume mounts provide (`volumes::container_files`): each mount
    /// point and the files the volume's source names.
    pub files: Vec<String>,
    /// The text of the files configMap and secret volumes hold, by path
    /// (`volumes::container_texts`): what `cat` prints and what `sh FILE` runs.
    pub texts: Vec<(String, String)>,
}

impl ProcessContext {
    /// The text of a file a volume holds, if the lab knows it.
    fn text(&self, path: &str) -> Option<&str> {
        self.texts.iter().find(|(p, _)| p == path).map(|(_, t)| t.as_str())
    }
}

/// Whether the volume mounts provide `path` ([`ProcessContext::files`]). An entry ending in
/// `/` stands for a directory whose contents the lab does not know (an emptyDir, a hostPath,
/// a claim): the directory and anything below it exist. Any other entry is one path.
pub fn mounted(files: &[String], path: &str) -> bool {
    files.iter().any(|f| match f.strip_suffix('/') {
        Some(dir) => path.strip_prefix(dir).is_some_and(|rest| rest.is_empty() || rest.starts_with('/')),
        None => f == path,
    })
}

/// Paths every container has, whatever its image: `/proc`, `/etc/...` (hosts, hostname,
/// resolv.conf, passwd and the like), `/dev/null` and `/`.
fn system_file(path: &str) -> bool {
    path.starts_with("/proc") || path.starts_with("/etc/") || path == "/dev/null" || path == "/"
}

/// The executables every image of a userland has.
const BUSYBOX_APPLETS: &[&str] = &[
    "sh", "ash", "sleep", "echo", "printf", "cat", "ls", "true", "false", "env", "date", "hostname", "wget", "nc",
    "httpd", "tail", "head", "touch", "rm", "mkdir", "test", "[", "yes", "top", "ps", "id", "whoami", "ping",
    "nslookup", "vi", "grep", "sed", "awk", "uname", "pwd", "kill", "mv", "cp", "chmod", "chown", "df", "du", "free",
    "find", "xargs", "wc", "sort", "uniq", "tr", "cut", "seq", "stat", "timeout", "watch", "dd", "ln", "readlink",
    "basename", "dirname", "exit", "rev",
];
const GNU_TOOLS: &[&str] = &[
    "sh", "bash", "dash", "sleep", "echo", "printf", "cat", "ls", "true", "false", "env", "date", "hostname", "tail",
    "head", "touch", "rm", "mkdir", "test", "[", "yes", "id", "whoami", "grep", "sed", "awk", "uname", "pwd", "kill",
    "mv", "cp", "chmod", "chown", "df", "du", "find", "xargs", "wc", "sort", "uniq", "tr", "cut", "seq", "stat",
    "timeout", "dd", "ln", "readlink", "basename", "dirname",
];

fn basename(s: &str) -> &str {
    s.rsplit('/').next().unwrap_or(s)
}

/// Whether the image has the executable `name` (a bare name is looked up in `$PATH`).
pub fn has_binary(image: &ImageInfo, name: &str) -> bool {
    let base = basename(name);
    let in_extra = image.extra_binaries.iter().any(|b| b == name || basename(b) == base);
    let in_userland = match image.userland {
        Userland::Busybox => BUSYBOX_APPLETS.contains(&base),
        Userland::Gnu => GNU_TOOLS.contains(&base),
        Userland::Scratch => false,
    };
    // Absolute paths must be where the image has them; the userland's tools live in
    // /bin, /usr/bin, /usr/local/bin.
    if name.starts_with('/') {
        let std_dir = ["/bin/", "/usr/bin/", "/sbin/", "/usr/sbin/", "/usr/local/bin/"]
            .iter()
            .any(|d| name.strip_prefix(d).is_some_and(|rest| !rest.contains('/')));
        return in_extra && image.extra_binaries.iter().any(|b| b == name || !b.starts_with('/'))
            || (in_userland && std_dir);
    }
    in_extra || in_userland
}

/// The message runc gives when the process cannot be executed.
pub fn exec_not_found(argv0: &str) -> String {
    let why = if argv0.starts_with('/') {
        format!("exec: {argv0:?}: stat {argv0}: no such file or directory")
    } else {
        format!("exec: {argv0:?}: executable file not found in $PATH")
    };
    format!(
        "failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: {why}: unknown"
    )
}

/// The message an exec probe or hook gets when the command cannot be executed.
pub fn exec_in_container_not_found(argv0: &str) -> String {
    let why = if argv0.starts_with('/') {
        format!("exec: {argv0:?}: stat {argv0}: no such file or directory")
    } else {
        format!("exec: {argv0:?}: executable file not found in $PATH")
    };
    format!("OCI runtime exec failed: exec failed: unable to start container process: {why}: unknown")
}

/// The command line a container runs: `command` replaces the image's ENTRYPOINT, `args`
/// replaces its CMD, and a `command` without `args` drops the CMD.
pub fn effective_argv(image: &ImageInfo, command: Option<&Vec<String>>, args: Option<&Vec<String>>) -> Vec<String> {
    let entry = match command {
        Some(c) => c.clone(),
        None => image.entrypoint.clone(),
    };
    let rest = match (args, command) {
        (Some(a), _) => a.clone(),
        (None, Some(_)) => vec![],
        (None, None) => image.cmd.clone(),
    };
    entry.into_iter().chain(rest).collect()
}

/// Parses a `sleep` argument (`5`, `1.5`, `10s`, `2m`, `1h`, `1d`, `infinity`) into ms;
/// `None` for infinity.
fn parse_sleep(arg: &str) -> Result<Option<u64>, ()> {
    if arg == "infinity" || arg == "inf" {
        return Ok(None);
    }
    let (num, mult) = match arg.chars().last() {
        Some('s') => (&arg[..arg.len() - 1], 1000.0),
        Some('m') => (&arg[..arg.len() - 1], 60_000.0),
        Some('h') => (&arg[..arg.len() - 1], 3_600_000.0),
        Some('d') => (&arg[..arg.len() - 1], 86_400_000.0),
        _ => (arg, 1000.0),
    };
    let v: f64 = num.parse().map_err(|_| ())?;
    if v.is_nan() || v < 0.0 {
        return Err(());
    }
    Ok(Some((v * mult) as u64))
}

/// Parses a size like `150M`, `250m`, `1G`, `100Mi`, `1024k`.
fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let idx = s.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(s.len());
    let (num, unit) = s.split_at(idx);
    let v: f64 = num.parse().ok()?;
    let mult: f64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => 1024.0,
        "ki" => 1024.0,
        "m" | "mb" | "mi" => 1024.0 * 1024.0,
        "g" | "gb" | "gi" => 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    Some((v * mult) as u64)
}

fn env_has(ctx: &ProcessContext, name: &str) -> bool {
    ctx.env.get(name).is_some_and(|v| !v.is_empty())
}

fn flag_value<'a>(args: &'a [String], names: &[&str]) -> Option<&'a str> {
    for (i, a) in args.iter().enumerate() {
        for n in names {
            if a == n {
                return args.get(i + 1).map(String::as_str);
            }
            if let Some(v) = a.strip_prefix(&format!("{n}=")) {
                return Some(v);
            }
        }
    }
    None
}

const MIB: u64 = 1024 * 1024;

/// Builds a server process.
fn server(
    argv: &[String],
    listeners: Vec<Listener>,
    listen_after_ms: u64,
    memory: u64,
    on_stop: OnStop,
    what: &str,
) -> Process {
    let mut p = Process::new(argv.to_vec(), End::Never, what);
    p.listeners = listeners;
    p.listen_after_ms = listen_after_ms;
    p.memory_bytes = memory;
    p.on_stop = on_stop;
    p
}

fn quick_exit(argv: &[String], code: i32, what: &str) -> Process {
    let mut p = Process::new(argv.to_vec(), End::Exit { after_ms: QUICK_EXIT_MS, code }, what);
    p.on_stop = OnStop::Exits(0);
    p
}

/// The model of the container's main process.
pub fn model_process(image: &ImageInfo, argv: &[String], ctx: &ProcessContext) -> Process {
    let mut p = interpret(image, argv, ctx, 0);
    // A process using more memory than the limit is OOM-killed.
    if ctx.memory_limit > 0 && p.memory_bytes > ctx.memory_limit {
        if let End::Never | End::Exit { .. } = p.end {
            let after = match &p.end {
                End::Exit { after_ms, .. } => (*after_ms).min(OOM_AFTER_MS),
                _ => OOM_AFTER_MS.max(p.listen_after_ms / 2),
            };
            p.end = End::Oom { after_ms: after };
            p.description.push_str(&format!(
                "; it needs about {} MiB but the memory limit is {} MiB, so the kernel OOM-kills it",
                p.memory_bytes / MIB,
                ctx.memory_limit / MIB
            ));
        }
    }
    p
}

fn interpret(image: &ImageInfo, argv: &[String], ctx: &ProcessContext, depth: usize) -> Process {
    let Some(argv0) = argv.first() else {
        return Process::new(vec![], End::StartError { message: "no command specified".to_string() }, "no command");
    };
    if depth > 4 {
        return server(argv, vec![], 0, MIB, OnStop::Ignores, "a nested command");
    }
    if !has_binary(image, argv0) {
        return Process::new(
            argv.to_vec(),
            End::StartError { message: exec_not_found(argv0) },
            format!("{argv0:?} is not an executable in this image"),
        );
    }
    let args = &argv[1..];
    let name = basename(argv0);
    match name {
        // Image entrypoint wrappers hand over to their arguments.
        "docker-entrypoint.sh" | "entrypoint.sh" => {
            if args.is_empty() {
                return quick_exit(argv, 0, "the entrypoint script with nothing to run exits");
            }
            let mut next: Vec<String> = args.to_vec();
            if args[0].starts_with('-') {
                let default = match image.kind {
                    ImageKind::Redis => "redis-server",
                    ImageKind::Postgres => "postgres",
                    ImageKind::Mysql => "mysqld",
                    ImageKind::Mongo => "mongod",
                    ImageKind::Curl => "curl",
                    _ => "",
                };
                if !default.is_empty() {
                    next.insert(0, default.to_string());
                }
            }
            let mut p = interpret(image, &next, ctx, depth + 1);
            p.argv = argv.to_vec();
            p
        }
        "run.sh" if image.kind == ImageKind::Echoserver => server(
            argv,
            vec![Listener::http(8080, Routes::All), Listener::tcp(8443)],
            60,
            12 * MIB,
            OnStop::Exits(0),
            "echoserver answering every HTTP request on port 8080 with the request it received",
        ),
        "run.sh" if image.kind == ImageKind::Redis => {
            // The start script execs `redis-server --replicaof <leader> 6379`.
            let mut p = interpret(image, &["redis-server".to_string()], ctx, depth + 1);
            p.argv = argv.to_vec();
            p.description =
                "the image's start script runs Redis (as a replica of its leader), listening on TCP port 6379".into();
            p
        }
        "run.sh" => server(argv, vec![], 0, 80 * MIB, OnStop::Exits(0), "a daemon that runs until stopped"),
        "sh" | "ash" | "bash" | "dash" => shell(image, argv, ctx, depth),
        "sleep" => match args.first().map(|a| parse_sleep(a)) {
            Some(Ok(Some(ms))) => {
                let mut p = Process::new(
                    argv.to_vec(),
                    End::Exit { after_ms: ms.max(1), code: 0 },
                    format!("sleeps {} and exits 0", super::images::go_duration(ms)),
                );
                p.on_stop = OnStop::Ignores;
                p
            }
            Some(Ok(None)) => server(argv, vec![], 0, MIB / 2, OnStop::Ignores, "sleeps forever"),
            _ => {
                let mut p = quick_exit(argv, 1, "sleep with a bad argument fails");
                let msg = match args.first() {
                    Some(a) => format!("sleep: invalid number '{a}'"),
                    None => "sleep: missing operand".to_string(),
                };
                p.logs.push(msg);
                p
            }
        },
        "true" => quick_exit(argv, 0, "exits 0 at once"),
        "false" => quick_exit(argv, 1, "exits 1 at once"),
        "tail" if args.iter().any(|a| a == "-f" || a == "-F") => {
            server(argv, vec![], 0, MIB / 2, OnStop::Ignores, "follows a file forever")
        }
        "yes" | "top" | "watch" => server(argv, vec![], 0, MIB, OnStop::Ignores, "runs until stopped"),
        "nginx" => {
            if args.iter().any(|a| matches!(a.as_str(), "-v" | "-V" | "-t" | "-T" | "-h" | "-?")) {
                return quick_exit(argv, 0, "nginx prints its version or tests its configuration and exits");
            }
            let foreground = args.iter().any(|a| a.replace(' ', "").contains("daemonoff"));
            if !foreground {
                let mut p = quick_exit(argv, 0, "nginx without `daemon off;` forks into the background, so the container's main process exits 0 at once");
                p.end = End::Exit { after_ms: 40, code: 0 };
                return p;
            }
            let port = if image.kind == ImageKind::Echoserver { 8080 } else { 80 };
            server(
                argv,
                vec![Listener::http(port, Routes::RootOnly)],
                40,
                8 * MIB,
                OnStop::Exits(0),
                &format!("nginx serving HTTP on port {port} (`/` answers 200, other paths 404)"),
            )
        }
        "httpd-foreground" | "apache2-foreground" => server(
            argv,
            vec![Listener::http(80, Routes::RootOnly)],
            100,
            12 * MIB,
            OnStop::Exits(0),
            "Apache httpd serving HTTP on port 80 (`/` answers 200, other paths 404)",
        ),
        "httpd" if image.userland == Userland::Busybox && image.kind != ImageKind::Httpd => {
            if args.iter().any(|a| a == "-f") {
                let port = flag_value(args, &["-p"]).and_then(|p| p.rsplit(':').next()?.parse().ok()).unwrap_or(80);
                server(
                    argv,
                    vec![Listener::http(port, Routes::RootOnly)],
                    10,
                    MIB,
                    OnStop::Ignores,
                    &format!("busybox httpd serving HTTP on port {port}"),
                )
            } else {
                quick_exit(argv, 0, "busybox httpd without -f forks into the background; the main process exits 0")
            }
        }
        "httpd" => {
            if args.iter().any(|a| a.contains("FOREGROUND")) {
                server(
                    argv,
                    vec![Listener::http(80, Routes::RootOnly)],
                    100,
                    12 * MIB,
                    OnStop::Exits(0),
                    "Apache httpd serving HTTP on port 80",
                )
            } else {
                quick_exit(argv, 0, "httpd without -DFOREGROUND daemonises; the main process exits 0")
            }
        }
        "redis-server" => {
            let port = flag_value(args, &["--port"]).and_then(|p| p.parse().ok()).unwrap_or(6379);
            server(
                argv,
                vec![Listener::tcp(port)],
                30,
                4 * MIB,
                OnStop::Exits(0),
                &format!("Redis listening on TCP port {port}"),
            )
        }
        "postgres" => {
            if !(env_has(ctx, "POSTGRES_PASSWORD")
                || ctx.env.get("POSTGRES_HOST_AUTH_METHOD").is_some_and(|v| v == "trust"))
            {
                let mut p = Process::new(
                    argv.to_vec(),
                    End::Exit { after_ms: 120, code: 1 },
                    "the postgres entrypoint refuses to initialise a database without POSTGRES_PASSWORD and exits 1",
                );
                p.logs = vec![
                    "Error: Database is uninitialized and superuser password is not specified.".to_string(),
                    "       You must specify POSTGRES_PASSWORD to a non-empty value for the".to_string(),
                    "       superuser. For example, \"-e POSTGRES_PASSWORD=password\" on \"docker run\".".to_string(),
                ];
                return p;
            }
            server(
                argv,
                vec![Listener::tcp(5432)],
                2_500,
                30 * MIB,
                OnStop::Exits(0),
                "PostgreSQL: initialises its data directory (about 2.5 s), then listens on TCP 5432",
            )
        }
        "mysqld" => {
            let ok = ["MYSQL_ROOT_PASSWORD", "MYSQL_ALLOW_EMPTY_PASSWORD", "MYSQL_RANDOM_ROOT_PASSWORD"]
                .iter()
                .any(|v| env_has(ctx, v));
            if !ok {
                let mut p = Process::new(
                    argv.to_vec(),
                    End::Exit { after_ms: 400, code: 1 },
                    "the mysql entrypoint needs a root password setting and exits 1 without one",
                );
                p.logs = vec![
                    "[ERROR] [Entrypoint]: Database is uninitialized and password option is not specified".to_string(),
                    "    You need to specify one of the following as an environment variable:".to_string(),
                    "    - MYSQL_ROOT_PASSWORD".to_string(),
                    "    - MYSQL_ALLOW_EMPTY_PASSWORD".to_string(),
                    "    - MYSQL_RANDOM_ROOT_PASSWORD".to_string(),
                ];
                return p;
            }
            server(
                argv,
                vec![Listener::tcp(3306), Listener::tcp(33060)],
                12_000,
                360 * MIB,
                OnStop::Exits(0),
                "MySQL: initialises (about 12 s), then listens on TCP 3306",
            )
        }
        "mongod" => server(
            argv,
            vec![Listener::tcp(27017)],
            1_500,
            150 * MIB,
            OnStop::Exits(0),
            "MongoDB listening on TCP 27017",
        ),
        "rabbitmq-server" => server(
            argv,
            vec![Listener::tcp(5672), Listener::tcp(15672)],
            9_000,
            120 * MIB,
            OnStop::Exits(0),
            "RabbitMQ listening on TCP 5672",
        ),
        "pause" => server(argv, vec![], 0, MIB / 2, OnStop::Exits(0), "the pause process: sleeps until stopped"),
        "http-echo" => {
            let port = flag_value(args, &["-listen"]).and_then(|l| l.rsplit(':').next()?.parse().ok()).unwrap_or(5678);
            server(
                argv,
                vec![Listener::http(port, Routes::All)],
                20,
                6 * MIB,
                OnStop::Exits(2),
                &format!("http-echo answering every HTTP request on port {port} with its text"),
            )
        }
        "hello-app" | "goproxy" | "server" | "agnhost" => go_server(image, argv, ctx),
        "etcd" => {
            let urls = flag_value(args, &["--listen-client-urls"]).unwrap_or("http://localhost:2379");
            let port = urls.rsplit(':').next().and_then(|p| p.trim_end_matches('/').parse().ok()).unwrap_or(2379);
            let mut l = Listener::http(port, Routes::All);
            l.grpc_health = true;
            l.localhost_only = !urls.contains("0.0.0.0");
            server(
                argv,
                vec![l],
                400,
                40 * MIB,
                OnStop::Exits(0),
                &format!(
                    "etcd serving clients (gRPC with the health service) on port {port}{}",
                    if urls.contains("0.0.0.0") { "" } else { " of 127.0.0.1 only" }
                ),
            )
        }
        "python" | "python3" => python(argv, ctx),
        "node" => {
            if args.first().is_some_and(|a| a.ends_with(".js")) && image.kind == ImageKind::HelloApp {
                return server(
                    argv,
                    vec![Listener::http(8080, Routes::All)],
                    300,
                    40 * MIB,
                    OnStop::Ignores,
                    "a Node.js web app on port 8080",
                );
            }
            match args.first().map(String::as_str) {
                None => interactive(argv, ctx, "node (a REPL)"),
                Some("-e") | Some("--eval") | Some("-p") | Some("--version") | Some("-v") => {
                    quick_exit(argv, 0, "node runs the given code and exits 0")
                }
                Some(file) => {
                    let mut p = quick_exit(argv, 1, "node cannot find the script file and exits 1");
                    p.logs.push(format!("Error: Cannot find module '{file}'"));
                    p
                }
            }
        }
        "perl" => {
            if args
                .iter()
                .any(|a| a.starts_with("-e") || a.starts_with("-wle") || a.starts_with("-le") || a.contains("bpi"))
            {
                let mut p = Process::new(
                    argv.to_vec(),
                    End::Exit { after_ms: 4_000, code: 0 },
                    "perl computes and prints its result, then exits 0 (about 4 s)",
                );
                p.memory_bytes = 8 * MIB;
                p.on_stop = OnStop::Ignores;
                p
            } else {
                interactive(argv, ctx, "perl (the debugger)")
            }
        }
        "curl" => {
            let url = args.iter().find(|a| a.contains("://") || (!a.starts_with('-') && a.contains('.')));
            match url {
                None => {
                    let mut p = quick_exit(argv, 2, "curl without a URL prints a hint and exits 2");
                    p.logs.push("curl: try 'curl --help' or 'curl --manual' for more information".to_string());
                    p
                }
                Some(_) => quick_exit(argv, 0, "curl fetches the URL and exits 0"),
            }
        }
        "wget" => quick_exit(argv, 0, "wget fetches the URL and exits 0"),
        "nc" | "socat" => {
            let listen =
                args.iter().any(|a| a.starts_with("-l") || a.starts_with("TCP-LISTEN") || a.starts_with("TCP4-LISTEN"));
            if listen {
                let port = flag_value(args, &["-p"])
                    .and_then(|p| p.parse().ok())
                    .or_else(|| {
                        args.iter()
                            .find_map(|a| a.split_once("LISTEN:").and_then(|(_, r)| r.split(',').next()?.parse().ok()))
                    })
                    .or_else(|| args.iter().rev().find_map(|a| a.parse().ok()))
                    .unwrap_or(8080);
                server(
                    argv,
                    vec![Listener::tcp(port)],
                    5,
                    MIB,
                    OnStop::Ignores,
                    &format!("{name} listening on TCP port {port}"),
                )
            } else {
                quick_exit(argv, 1, &format!("{name} without a listen flag has nothing to do and exits"))
            }
        }
        "stress" => stress(argv, ctx),
        "fluentd" => server(argv, vec![], 0, 80 * MIB, OnStop::Exits(0), "a log collector that runs until stopped"),
        "cat" if args.iter().any(|a| !a.starts_with('-')) => {
            let mut paths = args.iter().filter(|a| !a.starts_with('-'));
            match paths.find(|path| !mounted(&ctx.files, path) && !system_file(path)) {
                Some(missing) => {
                    let mut p = quick_exit(argv, 1, "cat cannot open the file and exits 1");
                    p.logs.push(no_such_file(image.userland, "cat", missing));
                    p
                }
                None => {
                    let mut p = quick_exit(argv, 0, "cat prints the file and exits 0");
                    p.logs.extend(args.iter().filter_map(|path| ctx.text(path)).map(|t| t.trim_end().to_string()));
                    p
                }
            }
        }
        _ if image.kind == ImageKind::Stress && name == "stress" => stress(argv, ctx),
        _ if image.kind == ImageKind::Daemon
            && image.extra_binaries.iter().any(|b| b == argv0 || basename(b) == name) =>
        {
            let listeners: Vec<Listener> = ctx.declared_ports.iter().map(|p| Listener::http(*p, Routes::All)).collect();
            let what = if listeners.is_empty() {
                "the image's own program, which runs until stopped".to_string()
            } else {
                let ports: Vec<String> = ctx.declared_ports.iter().map(|p| p.to_string()).collect();
                format!("the image's own program, serving HTTP on its declared port(s) {}", ports.join(", "))
            };
            server(argv, listeners, 200, 20 * MIB, OnStop::Exits(0), &what)
        }
        _ => {
            let mut p = quick_exit(argv, 0, &format!("{name} does its work and exits 0"));
            p.end = End::Exit { after_ms: 50, code: 0 };
            p
        }
    }
}

fn interactive(argv: &[String], ctx: &ProcessContext, what: &str) -> Process {
    if ctx.tty || ctx.stdin {
        server(argv, vec![], 0, 2 * MIB, OnStop::Ignores, &format!("{what} waits for input on its open stdin"))
    } else {
        quick_exit(
            argv,
            0,
            &format!("{what} reads commands from stdin; a container has no stdin or TTY unless `stdin`/`tty` is set, so it reads end-of-file and exits 0 at once"),
        )
    }
}

fn python(argv: &[String], ctx: &ProcessContext) -> Process {
    let args = &argv[1..];
    match args.first().map(String::as_str) {
        None => interactive(argv, ctx, "python (an interactive interpreter)"),
        Some("-m") if args.get(1).is_some_and(|m| m == "http.server" || m == "SimpleHTTPServer") => {
            let port = args.get(2).and_then(|p| p.parse().ok()).unwrap_or(8000);
            server(
                argv,
                vec![Listener::http(port, Routes::RootOnly)],
                150,
                12 * MIB,
                OnStop::Ignores,
                &format!("python's http.server listing the working directory on port {port}"),
            )
        }
        Some("-c") | Some("-V") | Some("--version") | Some("-m") => {
            quick_exit(argv, 0, "python runs the given code and exits 0")
        }
        Some(file) => {
            let mut p = quick_exit(argv, 2, "python cannot open the script file and exits 2");
            p.logs.push(format!("python3: can't open file '{file}': [Errno 2] No such file or directory"));
            p
        }
    }
}

fn go_server(image: &ImageInfo, argv: &[String], ctx: &ProcessContext) -> Process {
    let name = basename(&argv[0]);
    let args = &argv[1..];
    match (name, image.kind) {
        ("hello-app", _) => {
            let port = ctx.env.get("PORT").and_then(|p| p.parse().ok()).unwrap_or(8080);
            server(
                argv,
                vec![Listener::http(port, Routes::All)],
                20,
                6 * MIB,
                OnStop::Exits(2),
                &format!("hello-app answering HTTP on port {port}"),
            )
        }
        ("goproxy", _) => server(
            argv,
            vec![Listener::tcp(8080)],
            20,
            6 * MIB,
            OnStop::Exits(2),
            "an HTTP proxy listening on TCP 8080",
        ),
        ("server", _) => server(
            argv,
            vec![Listener::http(8080, Routes::FailsAfter { healthy_ms: 10_000 })],
            20,
            5 * MIB,
            OnStop::Exits(2),
            "a test server whose /healthz on port 8080 answers 200 for 10 s, then 500",
        ),
        _ => match args.first().map(String::as_str) {
            Some("liveness") => server(
                argv,
                vec![Listener::http(8080, Routes::FailsAfter { healthy_ms: 10_000 })],
                20,
                8 * MIB,
                OnStop::Exits(2),
                "agnhost liveness: /healthz on port 8080 answers 200 for 10 s, then 500",
            ),
            Some("netexec") => {
                let port = flag_value(args, &["--http-port"]).and_then(|p| p.parse().ok()).unwrap_or(8080);
                server(
                    argv,
                    vec![Listener::http(port, Routes::All)],
                    20,
                    8 * MIB,
                    OnStop::Exits(2),
                    &format!("agnhost netexec answering HTTP on port {port}"),
                )
            }
            Some("serve-hostname") => {
                let port = flag_value(args, &["--port"]).and_then(|p| p.parse().ok()).unwrap_or(9376);
                server(
                    argv,
                    vec![Listener::http(port, Routes::All)],
                    20,
                    6 * MIB,
                    OnStop::Exits(2),
                    &format!("agnhost serve-hostname answering HTTP on port {port} with the pod name"),
                )
            }
            Some("test-webserver") => server(
                argv,
                vec![Listener::http(80, Routes::All)],
                20,
                6 * MIB,
                OnStop::Exits(2),
                "agnhost test-webserver on port 80",
            ),
            Some("grpc-health-checking") => {
                let mut g = Listener::tcp(5000);
                g.grpc_health = true;
                server(
                    argv,
                    vec![g, Listener::http(8080, Routes::All)],
                    20,
                    8 * MIB,
                    OnStop::Exits(2),
                    "agnhost serving the gRPC health service on port 5000",
                )
            }
            Some("pause") => server(argv, vec![], 0, 4 * MIB, OnStop::Exits(0), "agnhost pause: sleeps until stopped"),
            Some(_) => quick_exit(argv, 0, "agnhost runs the subcommand and exits"),
            None => {
                let mut p = quick_exit(argv, 0, "agnhost without a subcommand prints its help and exits 0");
                p.logs.push("Usage: agnhost [command]".to_string());
                p
            }
        },
    }
}

fn stress(argv: &[String], ctx: &ProcessContext) -> Process {
    let args = &argv[1..];
    // vish/stress: -mem-total, -mem-alloc-size, -mem-alloc-sleep.
    if let Some(total) = flag_value(args, &["-mem-total", "--mem-total"]).and_then(parse_size) {
        let step =
            flag_value(args, &["-mem-alloc-size", "--mem-alloc-size"]).and_then(parse_size).unwrap_or(4 * MIB).max(1);
        let sleep = flag_value(args, &["-mem-alloc-sleep", "--mem-alloc-sleep"])
            .and_then(|s| parse_sleep(s).ok().flatten())
            .unwrap_or(100);
        let mut p = server(
            argv,
            vec![],
            0,
            total + 2 * MIB,
            OnStop::Ignores,
            &format!(
                "allocates {} MiB in steps of {} MiB every {}",
                total / MIB,
                step / MIB,
                super::images::go_duration(sleep)
            ),
        );
        if ctx.memory_limit > 0 && total + 2 * MIB > ctx.memory_limit {
            let steps = ctx.memory_limit / step + 1;
            p.end = End::Oom { after_ms: steps * sleep };
        }
        return p;
    }
    if args.is_empty() {
        let mut p = quick_exit(argv, 1, "stress without arguments prints its usage and exits 1");
        p.logs.push("`stress' imposes certain types of compute stress on your system".to_string());
        return p;
    }
    let workers: u64 = flag_value(args, &["--vm", "-m"]).and_then(|v| v.parse().ok()).unwrap_or(0);
    let bytes = flag_value(args, &["--vm-bytes"]).and_then(parse_size).unwrap_or(256 * MIB);
    let timeout = flag_value(args, &["--timeout", "-t"]).and_then(|t| parse_sleep(t).ok().flatten());
    let memory = workers * bytes + MIB;
    let mut p = server(
        argv,
        vec![],
        0,
        memory,
        OnStop::Ignores,
        &if workers > 0 {
            format!("stress with {workers} memory worker(s) of {} MiB each", bytes / MIB)
        } else {
            "stress burning CPU".to_string()
        },
    );
    if let Some(t) = timeout {
        p.end = End::Exit { after_ms: t, code: 0 };
    }
    p
}

fn no_such_file(userland: Userland, tool: &str, path: &str) -> String {
    match (userland, tool) {
        (Userland::Busybox, "cat") => format!("cat: can't open '{path}': No such file or directory"),
        (Userland::Busybox, "ls") => format!("ls: {path}: No such file or directory"),
        (_, "ls") => format!("ls: cannot access '{path}': No such file or directory"),
        (_, t) => format!("{t}: {path}: No such file or directory"),
    }
}

/// Runs a command inside a running container (an exec probe or hook) at `t_ms` after the
/// process started: exit code and output.
pub fn exec_in_container(
    image: &ImageInfo,
    process: &Process,
    command: &[String],
    t_ms: u64,
    static_files: &[String],
) -> (i32, String) {
    let Some(cmd) = command.first() else { return (126, "no command".to_string()) };
    if !has_binary(image, cmd) {
        return (126, exec_in_container_not_found(cmd));
    }
    let listening = |port: i32| t_ms >= process.listen_after_ms && process.listeners.iter().any(|l| l.port == port);
    let args = &command[1..];
    let name = basename(cmd);
    match name {
        "sh" | "bash" | "ash" | "dash" => {
            let Some(pos) = args.iter().position(|a| a == "-c") else { return (0, String::new()) };
            let script = args.get(pos + 1).cloned().unwrap_or_default();
            let ctx = ProcessContext { files: static_files.to_vec(), ..Default::default() };
            let mut sh = Shell {
                image,
                ctx: &ctx,
                t: 0,
                status: 0,
                files: process.files.iter().filter(|(at, _, _)| *at <= t_ms).cloned().collect(),
                listeners: vec![],
                listen_after: 0,
                memory: 0,
                logs: vec![],
                trap_exit: None,
                errexit: false,
                depth: 3,
                shell_name: name.to_string(),
            };
            let code = match sh.run(&script) {
                Flow::Exit(c) => c,
                _ => 0,
            };
            (code, sh.logs.join("\n"))
        }
        "cat" | "test" | "[" | "ls" | "stat" => {
            let path = args.iter().rev().find(|a| !a.starts_with('-') && *a != "]").cloned().unwrap_or_default();
            if path.is_empty()
                || process.file_exists(&path, t_ms, static_files)
                || path.starts_with("/proc")
                || path.starts_with("/etc/")
            {
                (0, String::new())
            } else if name == "cat" || name == "ls" {
                (1, no_such_file(image.userland, name, &path))
            } else {
                (1, String::new())
            }
        }
        "true" => (0, String::new()),
        "false" => (1, String::new()),
        "pg_isready" => {
            if listening(5432) {
                (0, "/var/run/postgresql:5432 - accepting connections".to_string())
            } else {
                (2, "/var/run/postgresql:5432 - no response".to_string())
            }
        }
        "redis-cli" => {
            if listening(6379) {
                (0, "PONG".to_string())
            } else {
                (1, "Could not connect to Redis at 127.0.0.1:6379: Connection refused".to_string())
            }
        }
        "mysqladmin" => {
            if listening(3306) {
                (0, "mysqld is alive".to_string())
            } else {
                (1, "mysqladmin: connect to server at 'localhost' failed\nerror: 'Can't connect to local MySQL server through socket '/var/run/mysqld/mysqld.sock' (2)'".to_string())
            }
        }
        "curl" | "wget" => {
            let Some(url) = args.iter().find(|a| a.contains("://")) else { return (0, String::new()) };
            let rest = url.split("://").nth(1).unwrap_or("");
            let (hostport, path) =
                rest.split_once('/').map(|(h, p)| (h, format!("/{p}"))).unwrap_or((rest, "/".to_string()));
            let port: i32 = hostport.rsplit_once(':').and_then(|(_, p)| p.parse().ok()).unwrap_or(80);
            let listener = process.listeners.iter().find(|l| l.port == port && t_ms >= process.listen_after_ms);
            match listener {
                None if name == "curl" => (
                    7,
                    format!(
                        "curl: (7) Failed to connect to {} port {port} after 0 ms: Couldn't connect to server",
                        hostport.split(':').next().unwrap_or("localhost")
                    ),
                ),
                None => (1, "wget: can't connect to remote host (127.0.0.1): Connection refused".to_string()),
                Some(l) => {
                    let code = http_status(&l.routes, &path, t_ms);
                    if (200..400).contains(&code) {
                        (0, String::new())
                    } else if name == "curl" {
                        if args.iter().any(|a| {
                            a == "-f"
                                || a == "--fail"
                                || (a.starts_with('-') && !a.starts_with("--") && a.contains('f'))
                        }) {
                            (22, format!("curl: (22) The requested URL returned error: {code}"))
                        } else {
                            (0, String::new())
                        }
                    } else {
                        (1, format!("wget: server returned error: HTTP/1.1 {code} {}", status_text(code)))
                    }
                }
            }
        }
        _ => (0, String::new()),
    }
}

/// The HTTP status a route table answers for a path at `t_ms` after the process started.
pub fn http_status(routes: &Routes, path: &str, t_ms: u64) -> u16 {
    let path = path.split('?').next().unwrap_or("/");
    match routes {
        Routes::NotHttp => 0,
        Routes::All => 200,
        Routes::RootOnly => {
            if path == "/" || path == "/index.html" || path.is_empty() {
                200
            } else {
                404
            }
        }
        Routes::FailsAfter { healthy_ms } => {
            if path != "/healthz" {
                404
            } else if t_ms < *healthy_ms {
                200
            } else {
                500
            }
        }
    }
}

pub fn status_text(code: u16) -> &'static str {
    match code {
        200 => "OK",
        404 => "Not Found",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::super::images::{parse_image_ref, Registry};
    use super::*;

    fn run(
        image: &str,
        command: Option<&[&str]>,
        args: Option<&[&str]>,
        env: &[(&str, &str)],
        limit_mib: u64,
    ) -> String {
        let reg = Registry::default();
        let info = reg.resolve(&parse_image_ref(image).unwrap(), false).unwrap();
        let command: Option<Vec<String>> = command.map(|c| c.iter().map(|s| s.to_string()).collect());
        let args: Option<Vec<String>> = args.map(|c| c.iter().map(|s| s.to_string()).collect());
        let argv = effective_argv(info, command.as_ref(), args.as_ref());
        let ctx = ProcessContext {
            env: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            memory_limit: limit_mib * MIB,
            ..Default::default()
        };
        let p = model_process(info, &argv, &ctx);
        let ports: Vec<String> = p.listeners.iter().map(|l| l.port.to_string()).collect();
        format!("{:?} {:?} ports=[{}] {:?}: {}", argv, p.end, ports.join(","), p.on_stop, p.description)
    }

    #[test]
    fn behaviour_model() {
        let cases = [
            run("nginx:1.29", None, None, &[], 0),
            run("busybox", None, None, &[], 0),
            run("busybox", Some(&["sleep", "5"]), None, &[], 0),
            run("busybox", None, Some(&["-c", "echo hi"]), &[], 0),
            run(
                "busybox",
                Some(&["sh", "-c"]),
                Some(&["touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600"]),
                &[],
                0,
            ),
            run("busybox", Some(&["sh", "-c", "while true; do echo hello; sleep 10; done"]), None, &[], 0),
            run("busybox", Some(&["sh", "-c", "echo starting; exit 3"]), None, &[], 0),
            run("postgres:16", None, None, &[], 0),
            run("postgres:16", None, None, &[("POSTGRES_PASSWORD", "s3cret")], 0),
            run(
                "polinux/stress",
                Some(&["stress"]),
                Some(&["--vm", "1", "--vm-bytes", "250M", "--vm-hang", "1"]),
                &[],
                100,
            ),
            run("nginx", Some(&["nginx"]), None, &[], 0),
            run("nginx", Some(&["ngnix", "-g", "daemon off;"]), None, &[], 0),
            run("alpine", Some(&["sh", "-c", "nginx -g 'daemon off;'"]), None, &[], 0),
            run(
                "nginx:alpine",
                Some(&["sh", "-c", "echo start > /tmp/log; exec nginx -g 'daemon off;'"]),
                None,
                &[],
                0,
            ),
            run("nginx:alpine", Some(&["sh", "-c", "trap 'exit 0' TERM; nginx -g 'daemon off;'"]), None, &[], 0),
            run("mysql:8.4", None, None, &[("MYSQL_ROOT_PASSWORD", "x")], 256),
            run("docker.io/library/busybox", Some(&["rev", "/input/data.txt"]), None, &[], 0),
            run("gcr.io/google_samples/gb-frontend:v5", None, None, &[], 0),
            run("gcr.io/google_samples/gb-redis-follower:v2", None, None, &[], 0),
        ];
        expect_test::expect![[r#"
            ["/docker-entrypoint.sh", "nginx", "-g", "daemon off;"] Never ports=[80] Exits(0): nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
            ["sh"] Exit { after_ms: 15, code: 0 } ports=[] Exits(0): sh (an interactive shell) reads commands from stdin; a container has no stdin or TTY unless `stdin`/`tty` is set, so it reads end-of-file and exits 0 at once
            ["sleep", "5"] Exit { after_ms: 5000, code: 0 } ports=[] Ignores: sleeps 5s and exits 0
            ["-c", "echo hi"] StartError { message: "failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: \"-c\": executable file not found in $PATH: unknown" } ports=[] Ignores: "-c" is not an executable in this image
            ["sh", "-c", "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600"] Exit { after_ms: 630000, code: 0 } ports=[] Ignores: the script runs for 10m30s and exits 0
            ["sh", "-c", "while true; do echo hello; sleep 10; done"] Never ports=[] Ignores: the script loops forever
            ["sh", "-c", "echo starting; exit 3"] Exit { after_ms: 15, code: 3 } ports=[] Ignores: the script runs for 0s and exits 3
            ["docker-entrypoint.sh", "postgres"] Exit { after_ms: 120, code: 1 } ports=[] Ignores: the postgres entrypoint refuses to initialise a database without POSTGRES_PASSWORD and exits 1
            ["docker-entrypoint.sh", "postgres"] Never ports=[5432] Exits(0): PostgreSQL: initialises its data directory (about 2.5 s), then listens on TCP 5432
            ["stress", "--vm", "1", "--vm-bytes", "250M", "--vm-hang", "1"] Oom { after_ms: 800 } ports=[] Ignores: stress with 1 memory worker(s) of 250 MiB each; it needs about 251 MiB but the memory limit is 100 MiB, so the kernel OOM-kills it
            ["nginx"] Exit { after_ms: 40, code: 0 } ports=[] Exits(0): nginx without `daemon off;` forks into the background, so the container's main process exits 0 at once
            ["ngnix", "-g", "daemon off;"] StartError { message: "failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: \"ngnix\": executable file not found in $PATH: unknown" } ports=[] Ignores: "ngnix" is not an executable in this image
            ["sh", "-c", "nginx -g 'daemon off;'"] Exit { after_ms: 15, code: 127 } ports=[] Ignores: the script runs for 0s and exits 127
            ["sh", "-c", "echo start > /tmp/log; exec nginx -g 'daemon off;'"] Never ports=[80] Exits(0): nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
            ["sh", "-c", "trap 'exit 0' TERM; nginx -g 'daemon off;'"] Never ports=[80] Ignores: the script ends in a foreground process: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
            ["docker-entrypoint.sh", "mysqld"] Oom { after_ms: 6000 } ports=[3306,33060] Exits(0): MySQL: initialises (about 12 s), then listens on TCP 3306; it needs about 360 MiB but the memory limit is 256 MiB, so the kernel OOM-kills it
            ["rev", "/input/data.txt"] Exit { after_ms: 50, code: 0 } ports=[] Exits(0): rev does its work and exits 0
            ["apache2-foreground"] Never ports=[80] Exits(0): Apache httpd serving HTTP on port 80 (`/` answers 200, other paths 404)
            ["/run.sh"] Never ports=[6379] Exits(0): the image's start script runs Redis (as a replica of its leader), listening on TCP port 6379"#]]
        .assert_eq(&cases.join("\n"));
    }

    /// What a process makes of the files its volume mounts provide.
    #[test]
    fn volume_files_are_there() {
        let reg = Registry::default();
        let info = reg.resolve(&parse_image_ref("busybox:1.37").unwrap(), false).unwrap();
        let configmap_and_empty_dir =
            ["/config/app.properties".to_string(), "/config".to_string(), "/data/".to_string()];
        let texts = vec![
            ("/config/app.properties".to_string(), "mode=lab\n".to_string()),
            ("/scripts/run.sh".to_string(), "echo starting\nsleep 2\nexit 5\n".to_string()),
        ];
        let case = |argv: &[&str], files: &[String]| {
            let argv: Vec<String> = argv.iter().map(|a| a.to_string()).collect();
            let ctx = ProcessContext { files: files.to_vec(), texts: texts.clone(), ..Default::default() };
            let p = model_process(info, &argv, &ctx);
            format!("{argv:?} {:?} {:?}", p.end, p.logs)
        };
        let cases = [
            case(&["cat", "/config/app.properties"], &configmap_and_empty_dir),
            case(&["cat", "/config/app.properties"], &[]),
            case(&["cat", "/config/other.properties"], &configmap_and_empty_dir),
            case(&["cat", "/etc/hostname", "/config/app.properties"], &configmap_and_empty_dir),
            case(&["cat", "/data/out.log"], &configmap_and_empty_dir),
            case(&["sh", "-c", "cat /config/app.properties && sleep 5"], &configmap_and_empty_dir),
            case(&["sh", "-c", "test -f /config/other.properties || exit 3"], &configmap_and_empty_dir),
            case(&["sh", "-c", "ls /data && exit 4"], &configmap_and_empty_dir),
            case(&["sh", "/scripts/run.sh"], &["/scripts/run.sh".to_string(), "/scripts".to_string()]),
            case(&["sh", "/scripts/other.sh"], &["/scripts/run.sh".to_string(), "/scripts".to_string()]),
        ];
        expect_test::expect![[r#"
            ["cat", "/config/app.properties"] Exit { after_ms: 15, code: 0 } ["mode=lab"]
            ["cat", "/config/app.properties"] Exit { after_ms: 15, code: 1 } ["cat: can't open '/config/app.properties': No such file or directory"]
            ["cat", "/config/other.properties"] Exit { after_ms: 15, code: 1 } ["cat: can't open '/config/other.properties': No such file or directory"]
            ["cat", "/etc/hostname", "/config/app.properties"] Exit { after_ms: 15, code: 0 } ["mode=lab"]
            ["cat", "/data/out.log"] Exit { after_ms: 15, code: 0 } []
            ["sh", "-c", "cat /config/app.properties && sleep 5"] Exit { after_ms: 5000, code: 0 } ["mode=lab"]
            ["sh", "-c", "test -f /config/other.properties || exit 3"] Exit { after_ms: 15, code: 3 } []
            ["sh", "-c", "ls /data && exit 4"] Exit { after_ms: 15, code: 4 } []
            ["sh", "/scripts/run.sh"] Exit { after_ms: 2000, code: 5 } ["starting"]
            ["sh", "/scripts/other.sh"] Exit { after_ms: 15, code: 2 } ["sh: can't open '/scripts/other.sh': No such file or directory"]"#]].assert_eq(&cases.join("\n"));
        assert!(mounted(&configmap_and_empty_dir, "/data"));
        assert!(!mounted(&configmap_and_empty_dir, "/database"));
        assert!(!mounted(&configmap_and_empty_dir, "/config/app"));
    }
}
