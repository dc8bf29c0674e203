//! The shell of the behaviour model: what `sh -c` (or `sh FILE`, `bash`, `ash`, `dash`) does
//! with a script, in a container's main process and in an exec probe or hook. Not an
//! upstream package: busybox's and dash's behaviour for `sleep`, `echo`, `touch`, `rm`,
//! `exit`, `cat`, `test`, `trap`, `exec`, background `&`, `&&`/`||`, `for` and `while true`.

use super::*;

/// Splits a shell line into words, honouring single and double quotes.
pub fn shell_words(s: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for ch in s.chars() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => cur.push(ch),
            None if ch == '\'' || ch == '"' => {
                quote = Some(ch);
                in_word = true;
            }
            None if ch.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            None => {
                cur.push(ch);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    out
}

/// How a statement is joined to the previous one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Join {
    Seq,
    And,
    Or,
}

/// Splits a script into statements at `;`, newlines, `&&`, `||` and `&` (outside quotes).
fn split_statements(script: &str) -> Vec<(Join, String, bool)> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut join = Join::Seq;
    let mut quote: Option<char> = None;
    let chars: Vec<char> = script.chars().collect();
    let mut i = 0;
    let push = |out: &mut Vec<(Join, String, bool)>, cur: &mut String, join: Join, bg: bool| {
        let t = cur.trim().to_string();
        if !t.is_empty() {
            out.push((join, t, bg));
        }
        cur.clear();
    };
    while i < chars.len() {
        let c = chars[i];
        match quote {
            Some(q) => {
                if c == q {
                    quote = None;
                }
                cur.push(c);
            }
            None => match c {
                '\'' | '"' => {
                    quote = Some(c);
                    cur.push(c);
                }
                ';' | '\n' => {
                    push(&mut out, &mut cur, join, false);
                    join = Join::Seq;
                }
                '&' if chars.get(i + 1) == Some(&'&') => {
                    push(&mut out, &mut cur, join, false);
                    join = Join::And;
                    i += 1;
                }
                '|' if chars.get(i + 1) == Some(&'|') => {
                    push(&mut out, &mut cur, join, false);
                    join = Join::Or;
                    i += 1;
                }
                '&' if chars.get(i + 1) != Some(&'>') && (i == 0 || chars[i - 1] != '>') => {
                    push(&mut out, &mut cur, join, true);
                    join = Join::Seq;
                }
                _ => cur.push(c),
            },
        }
        i += 1;
    }
    push(&mut out, &mut cur, join, false);
    out
}

/// The state of a shell running a script.
pub(super) struct Shell<'a> {
    pub(super) image: &'a ImageInfo,
    pub(super) ctx: &'a ProcessContext,
    pub(super) t: u64,
    pub(super) status: i32,
    pub(super) files: Vec<(u64, String, bool)>,
    pub(super) listeners: Vec<Listener>,
    pub(super) listen_after: u64,
    pub(super) memory: u64,
    pub(super) logs: Vec<String>,
    pub(super) trap_exit: Option<i32>,
    pub(super) errexit: bool,
    pub(super) depth: usize,
    pub(super) shell_name: String,
}

/// How a script ends.
pub(super) enum Flow {
    Continue,
    Exit(i32),
    /// Blocks forever (a foreground server or an endless loop).
    Forever(String),
    /// Replaced by another process (`exec`).
    Exec(Process),
    Oom,
}

impl Shell<'_> {
    fn not_found(&mut self, cmd: &str) -> i32 {
        let msg = match (self.image.userland, self.shell_name.as_str()) {
            (_, "bash") => format!("bash: line 1: {cmd}: command not found"),
            (Userland::Busybox, _) => format!("sh: {cmd}: not found"),
            _ => format!("sh: 1: {cmd}: not found"),
        };
        self.logs.push(msg);
        127
    }

    fn exists(&self, path: &str) -> bool {
        let mut state = mounted(&self.ctx.files, path);
        for (_, p, present) in &self.files {
            if p == path {
                state = *present;
            }
        }
        state || system_file(path)
    }

    /// Runs one simple command.
    fn command(&mut self, words: &[String], background: bool) -> Flow {
        // Redirections create files.
        let mut words: Vec<String> = words.to_vec();
        let mut i = 0;
        while i < words.len() {
            let w = words[i].clone();
            if let Some(target) = w.strip_prefix(">>").or_else(|| w.strip_prefix('>')) {
                let target =
                    if target.is_empty() { words.get(i + 1).cloned().unwrap_or_default() } else { target.to_string() };
                let consumed = if w == ">" || w == ">>" { 2 } else { 1 };
                if !target.starts_with('&') && target != "/dev/null" && !target.is_empty() {
                    self.files.push((self.t, target, true));
                }
                words.drain(i..(i + consumed).min(words.len()));
                continue;
            }
            if w.starts_with("2>") || w == "<" {
                words.remove(i);
                continue;
            }
            i += 1;
        }
        // Variable assignments before the command.
        while words.first().is_some_and(|w| w.contains('=') && !w.starts_with('-') && !w.starts_with('=')) {
            words.remove(0);
        }
        let Some(cmd) = words.first().cloned() else { return Flow::Continue };
        let args: Vec<String> = words[1..].to_vec();
        match cmd.as_str() {
            "exit" => return Flow::Exit(args.first().and_then(|a| a.parse().ok()).unwrap_or(self.status)),
            "set" => {
                if args.iter().any(|a| a.starts_with('-') && a.contains('e')) {
                    self.errexit = true;
                }
                self.status = 0;
            }
            "trap" => {
                let action = args.first().cloned().unwrap_or_default();
                if args.iter().skip(1).any(|s| s == "TERM" || s == "SIGTERM" || s == "15") {
                    let code = shell_words(&action)
                        .windows(2)
                        .find(|w| w[0] == "exit")
                        .and_then(|w| w[1].parse().ok())
                        .unwrap_or(if action.contains("exit") { 0 } else { 143 });
                    self.trap_exit = Some(code);
                }
                self.status = 0;
            }
            "exec" => {
                if args.is_empty() {
                    self.status = 0;
                } else {
                    let mut p = interpret(self.image, &args, self.ctx, self.depth + 1);
                    p.files.splice(0..0, self.files.iter().map(|(t, f, e)| (t.saturating_sub(self.t), f.clone(), *e)));
                    return Flow::Exec(p);
                }
            }
            "sleep" => match args.first().map(|a| parse_sleep(a)) {
                Some(Ok(Some(ms))) if !background => {
                    self.t += ms;
                    self.status = 0;
                }
                Some(Ok(None)) if !background => return Flow::Forever("sleeps forever".to_string()),
                Some(Ok(_)) => self.status = 0,
                _ => {
                    self.logs.push(format!("sleep: invalid number '{}'", args.first().cloned().unwrap_or_default()));
                    self.status = 1;
                }
            },
            "echo" | "printf" | ":" | "date" | "env" | "hostname" | "id" | "whoami" | "uname" | "pwd" | "export"
            | "cd" | "ls" | "mkdir" | "chmod" | "chown" | "kill" | "wait" | "read" | "source" | "." => {
                if cmd == "echo" && !args.is_empty() {
                    self.logs.push(args.join(" "));
                }
                self.status = 0;
            }
            "true" => self.status = 0,
            "false" => self.status = 1,
            "touch" => {
                for a in args.iter().filter(|a| !a.starts_with('-')) {
                    self.files.push((self.t, a.clone(), true));
                }
                self.status = 0;
            }
            "rm" => {
                let force = args.iter().any(|a| a.starts_with('-') && a.contains('f'));
                let mut status = 0;
                for a in args.iter().filter(|a| !a.starts_with('-')) {
                    if !self.exists(a) && !force {
                        status = 1;
                    }
                    self.files.push((self.t, a.clone(), false));
                }
                self.status = status;
            }
            "cat" | "test" | "[" | "stat" => {
                let path = args.iter().rev().find(|a| !a.starts_with('-') && *a != "]").cloned();
                self.status = match path {
                    Some(p) if self.exists(&p) => {
                        if let Some(text) = self.ctx.text(&p).filter(|_| cmd == "cat") {
                            self.logs.push(text.trim_end().to_string());
                        }
                        0
                    }
                    Some(p) => {
                        if cmd == "cat" {
                            self.logs.push(no_such_file(self.image.userland, "cat", &p));
                        }
                        1
                    }
                    None => 0,
                };
            }
            "while" | "until" => {
                return Flow::Forever("loops forever".to_string());
            }
            _ => {
                if !has_binary(self.image, &cmd) {
                    self.status = self.not_found(&cmd);
                } else {
                    let p = interpret(self.image, &words, self.ctx, self.depth + 1);
                    self.memory = self.memory.max(p.memory_bytes);
                    match p.end {
                        End::Never => {
                            if !p.listeners.is_empty() {
                                self.listeners.extend(p.listeners.clone());
                                self.listen_after = self.t + p.listen_after_ms;
                            }
                            if !background {
                                return Flow::Forever(format!("ends in a foreground process: {}", p.description));
                            }
                            self.status = 0;
                        }
                        End::Exit { after_ms, code } => {
                            if !background {
                                self.t += after_ms;
                                self.status = code;
                                self.logs.extend(p.logs);
                            } else {
                                self.status = 0;
                            }
                        }
                        End::Oom { .. } => return Flow::Oom,
                        End::StartError { .. } => self.status = 126,
                    }
                }
            }
        }
        Flow::Continue
    }

    pub(super) fn run(&mut self, script: &str) -> Flow {
        let stmts = split_statements(script);
        let mut i = 0;
        while i < stmts.len() {
            let (join, text, bg) = &stmts[i];
            let skip = match join {
                Join::And => self.status != 0,
                Join::Or => self.status == 0,
                Join::Seq => false,
            };
            i += 1;
            if skip {
                continue;
            }
            let words = shell_words(text);
            let Some(first) = words.first() else { continue };
            match first.as_str() {
                "while" | "until" => {
                    let cond: Vec<String> = words[1..].to_vec();
                    let endless = match (first.as_str(), cond.first().map(String::as_str)) {
                        ("while", Some("true")) | ("while", Some(":")) | ("until", Some("false")) => true,
                        ("while", Some("[")) => cond.get(1).is_some_and(|a| a == "1"),
                        _ => false,
                    };
                    // Collect the body up to `done`.
                    let mut body = vec![];
                    while i < stmts.len() && shell_words(&stmts[i].1).first().is_none_or(|w| w != "done") {
                        let mut t = stmts[i].1.clone();
                        if let Some(rest) = t.strip_prefix("do ") {
                            t = rest.to_string();
                        }
                        if t != "do" {
                            body.push(t);
                        }
                        i += 1;
                    }
                    i += 1;
                    if endless {
                        // Run the body once for its side effects (files, listeners).
                        for b in &body {
                            if let Flow::Exit(c) = self.command(&shell_words(b), false) {
                                return Flow::Exit(c);
                            }
                        }
                        return Flow::Forever("loops forever".to_string());
                    }
                    self.status = 0;
                }
                "for" => {
                    let n = words.iter().skip_while(|w| *w != "in").skip(1).count().max(1);
                    let mut body = vec![];
                    while i < stmts.len() && shell_words(&stmts[i].1).first().is_none_or(|w| w != "done") {
                        let t = stmts[i].1.strip_prefix("do ").unwrap_or(&stmts[i].1).to_string();
                        if t != "do" {
                            body.push(t);
                        }
                        i += 1;
                    }
                    i += 1;
                    for _ in 0..n {
                        for b in &body {
                            match self.command(&shell_words(b), false) {
                                Flow::Continue => {}
                                other => return other,
                            }
                        }
                    }
                }
                "if" | "then" | "else" | "elif" | "fi" | "do" | "done" | "{" | "}" => {
                    let rest: Vec<String> = words[1..].to_vec();
                    if !rest.is_empty() {
                        match self.command(&rest, *bg) {
                            Flow::Continue => {}
                            other => return other,
                        }
                    }
                }
                _ => match self.command(&words, *bg) {
                    Flow::Continue => {
                        if self.errexit && self.status != 0 {
                            return Flow::Exit(self.status);
                        }
                    }
                    other => return other,
                },
            }
        }
        Flow::Exit(self.status)
    }
}

/// A shell started without `-c`: with a script file it cannot read, or interactive.
fn shell_without_script(image: &ImageInfo, argv: &[String], ctx: &ProcessContext, name: &str) -> Process {
    if let Some(file) = argv[1..].iter().find(|a| !a.starts_with('-')) {
        let mut p = quick_exit(argv, if name == "bash" { 127 } else { 2 }, "the shell cannot open the script file");
        p.logs.push(match (image.userland, name) {
            (_, "bash") => format!("bash: {file}: No such file or directory"),
            (Userland::Busybox, _) => format!("sh: can't open '{file}': No such file or directory"),
            _ => format!("sh: 0: cannot open {file}: No such file"),
        });
        return p;
    }
    interactive(argv, ctx, &format!("{name} (an interactive shell)"))
}

pub(super) fn shell(image: &ImageInfo, argv: &[String], ctx: &ProcessContext, depth: usize) -> Process {
    let args = &argv[1..];
    let name = basename(&argv[0]).to_string();
    let script_pos = args.iter().position(|a| a == "-c" || (a.starts_with('-') && a.ends_with('c') && a.len() <= 4));
    let script = match script_pos {
        Some(pos) => {
            let script = args.get(pos + 1).cloned().unwrap_or_default();
            if script.is_empty() && args.get(pos + 1).is_none() {
                let mut p = quick_exit(argv, 2, "the shell's -c needs an argument");
                p.logs.push(format!("{name}: -c requires an argument"));
                return p;
            }
            script
        }
        // `sh FILE`: a script a configMap or secret volume holds runs like `sh -c`.
        None => match args.iter().find(|a| !a.starts_with('-')).and_then(|file| ctx.text(file)) {
            Some(text) => text.to_string(),
            None => return shell_without_script(image, argv, ctx, &name),
        },
    };
    let mut sh = Shell {
        image,
        ctx,
        t: 0,
        status: 0,
        files: vec![],
        listeners: vec![],
        listen_after: 0,
        memory: MIB,
        logs: vec![],
        trap_exit: None,
        errexit: false,
        depth,
        shell_name: name.clone(),
    };
    let flow = sh.run(&script);
    let on_stop = match sh.trap_exit {
        Some(code) => OnStop::Exits(code),
        None => OnStop::Ignores,
    };
    let mut p = match flow {
        Flow::Exec(p) => return p,
        Flow::Exit(_) | Flow::Continue => {
            let code = if let Flow::Exit(c) = flow { c } else { sh.status };
            let mut p = Process::new(
                argv.to_vec(),
                End::Exit { after_ms: sh.t.max(QUICK_EXIT_MS), code },
                format!("the script runs for {} and exits {code}", super::super::images::go_duration(sh.t)),
            );
            p.on_stop = on_stop;
            p
        }
        Flow::Forever(what) => {
            let mut p = Process::new(argv.to_vec(), End::Never, format!("the script {what}"));
            // A shell runs its traps only between commands: while a foreground command
            // (a server, `sleep infinity`) runs, SIGTERM waits, and the kill comes first.
            let blocked = what.starts_with("ends in a foreground process") || what == "sleeps forever";
            p.on_stop = if blocked { OnStop::Ignores } else { on_stop };
            p
        }
        Flow::Oom => {
            let mut p = Process::new(
                argv.to_vec(),
                End::Oom { after_ms: sh.t + OOM_AFTER_MS },
                "the script starts a memory hog",
            );
            p.memory_bytes = u64::MAX / 2;
            p
        }
    };
    p.files = sh.files;
    p.listeners = sh.listeners;
    p.listen_after_ms = sh.listen_after;
    p.memory_bytes = p.memory_bytes.max(sh.memory);
    p.logs = sh.logs;
    p
}
