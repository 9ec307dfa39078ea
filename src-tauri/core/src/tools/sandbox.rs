//! Confinement of `run_command` by the kernel (DESIGN §7.2): whether this machine can shut a
//! command in with bubblewrap (`bwrap`, user + mount + PID namespaces), the sentence the card
//! says about it, the clean environment a command gets, and the `bwrap` command line that runs
//! one command shut in.
//!
//! What a confined command gets:
//! - the whole file system read-only (`--ro-bind / /`), with empty private folders over the
//!   home folders (`$HOME`, `/home`, `/root`), removable drives (`/media`, `/mnt`), `/run`
//!   (D-Bus, keyring, ssh-agent and docker sockets; only `/run/systemd/resolve` is shown again,
//!   for DNS), `/tmp` and `/var/tmp` (a private temporary folder, gone when the command ends),
//!   and Ask First's data folder; a fresh `/dev` and a `/proc` of its own PID namespace (so
//!   `/proc/$PPID/environ` shows nothing of Ask First);
//! - no way to the D-Bus session bus, where the desktop's keyring answers anyone who asks:
//!   `$XDG_RUNTIME_DIR` is an empty private folder too, and the bus's socket is covered by
//!   `/dev/null` wherever it lies ([`super::session_bus::SessionBus`]);
//! - the workspace folder mounted read-write on top (and, when Ask First's data folder lies
//!   inside the workspace, that folder hidden again on top of it: later mounts cover earlier),
//!   with what the person's rules keep from commands hidden in it, or read-only where a rule
//!   is only about changing files ([`crate::policy::kept::keeps`]);
//! - no capabilities, no further user namespaces, its own IPC namespace, a new session (no
//!   `TIOCSTI` into the terminal), and a clean environment ([`command_env`]);
//! - its own PID namespace, whose first process is bwrap's reaper: when the shell ends, or
//!   bwrap is killed (`--die-with-parent`), the kernel kills every process left in it,
//!   `setsid` and double forks included.
//! - the network, as before (the card says so), but, where the kernel has Landlock's scopes
//!   (ABI 6, Linux 6.12), no abstract Unix sockets of programs outside the command (the X
//!   display's `@/tmp/.X11-unix/X0`, which would let it read the screen and type into other
//!   windows) and no signals to them: bwrap is started from one long-lived thread restricted
//!   that way ([`spawn_scoped`]), and everything it starts inherits the restriction.
//!
//! Where bwrap cannot run (not installed, user namespaces disabled) or `ASKFIRST_SANDBOX=off`
//! is set when Ask First starts, commands run without this confinement (clean environment and
//! process group only), and the card says so in words ([`Confinement::card_sentence`]).

use super::Workspace;
use crate::policy::kept::Keep;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Mutex, OnceLock};

/// A command to start, and where to send the started child.
type SpawnRequest = (Command, Sender<std::io::Result<Child>>);

/// The thread that starts confined commands (see [`spawn_scoped`]), and whether Landlock's
/// scopes restrict it.
struct Spawner {
    requests: Mutex<Sender<SpawnRequest>>,
    scoped: bool,
}

fn spawner() -> &'static Spawner {
    static SPAWNER: OnceLock<Spawner> = OnceLock::new();
    SPAWNER.get_or_init(|| {
        let (requests, incoming) = channel::<SpawnRequest>();
        let (ready, scoped) = channel::<bool>();
        let started = std::thread::Builder::new()
            .name("askfirst-sandbox".into())
            .spawn(move || {
                let _ = ready.send(restrict_scopes());
                // Lives as long as the app: a child's parent-death signal (bwrap's
                // `--die-with-parent`) follows the thread that started it.
                for (mut command, reply) in incoming {
                    let child = command.spawn();
                    // Closes this side's copies of the pipes it was given before the answer.
                    drop(command);
                    let _ = reply.send(child);
                }
            });
        let scoped = started.is_ok() && scoped.recv().unwrap_or(false);
        Spawner {
            requests: Mutex::new(requests),
            scoped,
        }
    })
}

/// Restricts the calling thread (and what it starts) with Landlock's scopes: no connecting to
/// abstract Unix sockets and no signals outside its domain. Returns whether the kernel
/// enforced both (Linux 6.12 and later); elsewhere nothing changes.
fn restrict_scopes() -> bool {
    #[cfg(target_os = "linux")]
    {
        use landlock::{Ruleset, RulesetAttr, RulesetStatus, Scope};
        let status = Ruleset::default()
            .scope(Scope::AbstractUnixSocket | Scope::Signal)
            .and_then(|ruleset| ruleset.create())
            .and_then(|created| created.restrict_self());
        matches!(status, Ok(s) if s.ruleset == RulesetStatus::FullyEnforced)
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// Starts `command` from the sandbox's own thread, which Landlock's scopes restrict where the
/// kernel has them (see the module comment), so the started program cannot reach the abstract
/// sockets of programs outside it (the X display) nor signal them. The thread lives as long as
/// the app, since a child's parent-death signal follows the thread that started it.
///
/// # Errors
/// The error of starting the program, or `Other` when the sandbox's thread is gone.
pub fn spawn_scoped(command: Command) -> std::io::Result<Child> {
    let (reply, answer) = channel();
    let gone = || std::io::Error::other("the thread that starts commands has stopped");
    spawner()
        .requests
        .lock()
        .map_err(|_| gone())?
        .send((command, reply))
        .map_err(|_| gone())?;
    answer.recv().map_err(|_| gone())?
}

/// Whether confined commands are also kept from abstract Unix sockets and signals outside
/// them (Landlock's scopes, Linux 6.12 and later).
pub fn scopes_enforced() -> bool {
    spawner().scoped
}

/// The environment variable that turns confinement off (`ASKFIRST_SANDBOX=off`), read once,
/// the first time a command is described or run. For machines where bwrap misbehaves, and for
/// tests of what the card says then.
pub const SANDBOX_SWITCH_ENV: &str = "ASKFIRST_SANDBOX";

/// The card's sentence for a command that runs shut in, as a sentence key of
/// `locales/*/app.ftl` (English: "It runs shut in: it can change only files in your workspace
/// folder, …").
pub const CONFINED_SENTENCE: &str = "confinement-shut_in";

/// The card's sentence for a command that cannot be shut in on this computer, as a sentence
/// key (English: "It is not shut in on this computer: it can read and change any of your
/// files, …").
pub const UNCONFINED_SENTENCE: &str = "confinement-not_shut_in";

/// The only variables of Ask First's environment a command inherits: what programs need to
/// find themselves, their language and time zone, and the network proxy. `HOME` and `TMPDIR`
/// are set by [`command_env`]; nothing else passes (no API keys, no `ASKFIRST_*`, no D-Bus,
/// display or ssh-agent addresses).
pub const COMMAND_INHERITED_ENV: &[&str] = &[
    "PATH",
    "USER",
    "LOGNAME",
    "SHELL",
    "TERM",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
    "LC_COLLATE",
    "LC_NUMERIC",
    "LC_TIME",
    "LC_MONETARY",
    "TZ",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
];

/// Whether commands can be shut in on this machine, found once per process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confinement {
    /// bwrap ran a test command shut in.
    Bubblewrap {
        /// The bwrap program (absolute path, found on `PATH` once).
        program: PathBuf,
        /// Whether bwrap could make a user namespace of its own (then further user namespaces
        /// are refused inside, `--disable-userns`); false with a setuid bwrap on a machine
        /// without unprivileged user namespaces.
        user_namespace: bool,
    },
    /// Commands cannot be shut in; why, for logs and the README's troubleshooting.
    Unavailable {
        /// What failed, e.g. "bwrap was not found on PATH".
        reason: String,
    },
}

impl Confinement {
    /// The machine's answer, found the first time it is asked (running `bwrap … true` once,
    /// a few milliseconds) and kept for the life of the process.
    pub fn detected() -> &'static Confinement {
        static DETECTED: OnceLock<Confinement> = OnceLock::new();
        DETECTED.get_or_init(detect)
    }

    /// Whether commands run shut in.
    pub fn is_confined(&self) -> bool {
        match self {
            Self::Bubblewrap { .. } => true,
            Self::Unavailable { .. } => false,
        }
    }

    /// The sentence for the card, in the person's language: [`CONFINED_SENTENCE`] or
    /// [`UNCONFINED_SENTENCE`].
    pub fn card_sentence(&self) -> String {
        let key = if self.is_confined() {
            CONFINED_SENTENCE
        } else {
            UNCONFINED_SENTENCE
        };
        crate::i18n::tr(key, &[])
    }
}

/// The options every confined command gets, before the mounts (see the module comment).
fn isolation_args(user_namespace: bool) -> Vec<&'static str> {
    let mut args = Vec::with_capacity(16);
    if user_namespace {
        args.extend(["--unshare-user", "--disable-userns"]);
    }
    args.extend([
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
    ]);
    args
}

fn detect() -> Confinement {
    if std::env::var_os(SANDBOX_SWITCH_ENV).is_some_and(|v| v.eq_ignore_ascii_case("off")) {
        return Confinement::Unavailable {
            reason: format!("{SANDBOX_SWITCH_ENV}=off is set"),
        };
    }
    let Some(program) = find_on_path("bwrap") else {
        return Confinement::Unavailable {
            reason: "bwrap was not found on PATH (Debian/Ubuntu package bubblewrap)".into(),
        };
    };
    let mut last_error = String::new();
    for user_namespace in [true, false] {
        let mut probe = Command::new(&program);
        probe
            .args(isolation_args(user_namespace))
            .arg("--")
            .arg("true")
            .env_clear()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        // Started as commands are, so a kernel on which the two do not go together says so.
        let probe = spawn_scoped(probe).and_then(Child::wait_with_output);
        match probe {
            Ok(out) if out.status.success() => {
                return Confinement::Bubblewrap {
                    program,
                    user_namespace,
                }
            }
            Ok(out) => last_error = String::from_utf8_lossy(&out.stderr).trim().to_owned(),
            Err(e) => last_error = e.to_string(),
        }
    }
    Confinement::Unavailable {
        reason: format!("bwrap could not run a test command: {last_error}"),
    }
}

pub(super) fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// Makes every folder between `root` and `hidden` (inside it) a mount point of its own, bound
/// onto itself and still writable: a mount point cannot be renamed or removed, so `mv .local
/// elsewhere` cannot carry what is hidden out from under its hiding place (and let a later
/// command read it, or plant a file where it was). Outermost first, as bwrap mounts in order.
/// `pinned` holds the folders pinned so far, each pinned once.
fn pin_folders_above<'a>(
    bwrap: &mut Command,
    hidden: &'a Path,
    root: &Path,
    pinned: &mut std::collections::HashSet<&'a Path>,
) {
    let mut between: Vec<&Path> = hidden
        .ancestors()
        .skip(1)
        .take_while(|folder| *folder != root && folder.starts_with(root))
        .collect();
    between.reverse();
    for folder in between {
        if pinned.insert(folder) {
            bwrap.arg("--bind").arg(folder).arg(folder);
        }
    }
}

/// The clean environment of a command: the [`COMMAND_INHERITED_ENV`] variables Ask First has
/// (never one of its secrets or settings), then `HOME` = `home` and `TMPDIR` = `tmp` when given.
pub fn command_env(home: Option<&Path>, tmp: Option<&Path>) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = COMMAND_INHERITED_ENV
        .iter()
        .filter(|name| !super::is_own_secret_or_setting(name))
        .filter_map(|name| std::env::var_os(name).map(|value| (OsString::from(name), value)))
        .collect();
    if let Some(home) = home {
        env.push(("HOME".into(), home.into()));
    }
    if let Some(tmp) = tmp {
        env.push(("TMPDIR".into(), tmp.into()));
    }
    env
}

/// The sockets a command must never reach that lie outside the `hidden` folders, each to be
/// covered with `/dev/null` (a connection to it is refused) after every other mount, so it
/// stays covered even inside the workspace (where the folders above it are pinned, so that no
/// command can carry it away from its cover for the next one): the session bus's ([`super::session_bus::SessionBus`]) and Ask
/// First's own inbox (`<runtime dir>/askfirst/inbox.sock`, where other agents ask; a command
/// that reached it could put a card of "another agent" in front of the person). Abstract
/// sockets cannot be covered: see [`super::session_bus::SessionBus::open_to_commands`].
fn sockets_to_cover(
    bus: &super::session_bus::SessionBus,
    runtime: Option<&Path>,
    hidden: &Hidden<'_>,
) -> Vec<PathBuf> {
    let inbox = runtime.map(|runtime| {
        runtime
            .join("askfirst")
            .join(askfirst_protocol::INBOX_SOCKET_NAME)
    });
    bus.paths
        .iter()
        .chain(&inbox)
        .filter_map(|socket| std::fs::canonicalize(socket).ok())
        .filter(|socket| !hidden.hides(socket))
        .collect()
}

/// The system's places hidden from a command, and the workspace bound over them.
struct Hidden<'a> {
    /// The places hidden before the workspace was bound (those inside it are hidden again
    /// after every bind from the disk).
    places: &'a [PathBuf],
    /// The workspace.
    root: &'a Path,
    /// Whether the workspace is shown at all (not hidden whole by a rule).
    shown: bool,
}

impl Hidden<'_> {
    /// Whether `path` is out of a command's sight in the end: inside the shown workspace only
    /// where a place was hidden again in it; elsewhere wherever a place hides it.
    fn hides(&self, path: &Path) -> bool {
        let in_workspace = path.starts_with(self.root);
        if in_workspace && !self.shown {
            return true;
        }
        self.places.iter().any(|place| {
            path.starts_with(place)
                && (!in_workspace || (place.starts_with(self.root) && place != self.root))
        })
    }
}

/// The person's runtime folder (`$XDG_RUNTIME_DIR`, resolved): the session bus, the keyring,
/// ssh-agent and Ask First's inbox live there.
fn runtime_dir() -> Option<PathBuf> {
    super::session_bus::SessionBus::of_process()
        .runtime_dir
        .as_ref()
        .and_then(|runtime| std::fs::canonicalize(runtime).ok())
}

/// The home folder of the person Ask First runs for (`$HOME`, resolved), if it exists.
fn own_home() -> Option<PathBuf> {
    let home = PathBuf::from(std::env::var_os("HOME")?);
    std::fs::canonicalize(home).ok()
}

/// The shell script bwrap runs: the command (`$1`, with `sh -c`, input from `/dev/null`), then
/// a look through this PID namespace's `/proc` for processes it left running (other than
/// bwrap's reaper, pid 1, and this script), reported by writing `left` to standard input — the
/// write end of a pipe only Ask First reads (the command's own input is `/dev/null`). Whatever
/// it left is then killed by the kernel when the script ends. The script exits with the
/// command's status (bwrap gives a signal's death as 128 + its number).
const RUNNER: &str = r#"sh ${2:+"$2"} -c "$1" sh </dev/null
s=$?
for p in /proc/[0-9]*; do
  case ${p#/proc/} in 1|$$) continue;; esac
  { read -r stat < "$p/stat"; } 2>/dev/null || continue
  case ${stat##*) } in Z*) continue;; esac
  echo left >&0
  break
done
exit $s"#;

/// The options `sh` is started with to run a command: where `sh` is bash (Fedora, Arch,
/// openSUSE), `+B`, which turns its brace expansion off, so that `touch x.{pdf,txt}` makes
/// the one file `x.{pdf,txt}` there as it does where `sh` is dash (Debian, Ubuntu), and the
/// names the policy reads in a command (`policy::new_names`) are the names it makes; none
/// elsewhere (dash refuses `+B`). Found once, from what `/bin/sh` is.
pub(crate) fn shell_options() -> &'static [&'static str] {
    static OPTIONS: std::sync::OnceLock<&'static [&'static str]> = std::sync::OnceLock::new();
    OPTIONS.get_or_init(|| std::fs::canonicalize("/bin/sh").map_or(&[][..], |sh| options_for(&sh)))
}

/// [`shell_options`] for the shell `sh` (its real path).
fn options_for(sh: &Path) -> &'static [&'static str] {
    let name = sh.file_name().map(|n| n.to_string_lossy().into_owned());
    if name.is_some_and(|n| n.starts_with("bash")) {
        &["+B"]
    } else {
        &[]
    }
}

/// The system's folders a command shut in sees as empty folders of its own (the one list, also
/// read by the card's effects: [`askfirst_shell_line::SHOWN_EMPTY`]).
pub use askfirst_shell_line::SHOWN_EMPTY;

/// The process that runs `command` shut in, in the workspace folder, with a clean environment;
/// its standard input must be the write end of a pipe whose other end tells whether the command
/// left programs running (see [`RUNNER`]). Standard output and error are for the caller to set.
///
/// `bwrap` is given only when `confinement` is [`Confinement::Bubblewrap`].
///
/// # Errors
/// The I/O error of creating Ask First's data folder inside the workspace (so that it can be
/// hidden before a command could create it).
pub(crate) fn confined_command(
    program: &Path,
    user_namespace: bool,
    command: &str,
    ws: &Workspace,
) -> std::io::Result<Command> {
    let root = ws.root();
    let own_data = ws.own_data();
    if let Some(data) = own_data {
        if data.starts_with(root) && !data.exists() {
            std::fs::create_dir_all(data)?;
        }
    }
    let home = own_home();
    let mut bwrap = Command::new(program);
    bwrap.args(isolation_args(user_namespace));
    let hide = |bwrap: &mut Command, path: &Path| {
        if path.is_dir() {
            bwrap.arg("--tmpfs").arg(path);
        }
    };
    for fixed in SHOWN_EMPTY {
        hide(&mut bwrap, Path::new(fixed));
    }
    if let Some(home) = &home {
        hide(&mut bwrap, home);
    }
    // The system's places hidden before the workspace is bound: those that lie inside the
    // workspace are hidden again after every bind from the disk (`again`, below).
    let mut hidden: Vec<PathBuf> = SHOWN_EMPTY
        .iter()
        .map(PathBuf::from)
        .filter(|fixed| fixed.is_dir())
        .chain(home.clone())
        .collect();
    let runtime = runtime_dir();
    // Never a folder that holds the workspace (a strange `XDG_RUNTIME_DIR=/`); its sockets are
    // covered one by one below.
    if let Some(runtime) = runtime
        .as_ref()
        .filter(|runtime| !root.starts_with(runtime))
    {
        hide(&mut bwrap, runtime);
        hidden.push(runtime.clone());
    }
    bwrap.args([
        "--ro-bind-try",
        "/run/systemd/resolve",
        "/run/systemd/resolve",
    ]);
    if let Some(data) = own_data {
        hide(&mut bwrap, data);
    }
    let places = ws.hidden_from_commands();
    // A rule about every place for a file tool keeps the whole workspace: read-only ("Never
    // delete files and folders"), where nothing can be moved, so no folder needs pinning; or
    // hidden ("Never read files"; such a command is refused before it gets here, unless its
    // card named the rule).
    let whole = places.workspace;
    match whole {
        None => bwrap.arg("--bind").arg(root).arg(root),
        Some(Keep::ReadOnly) => bwrap.arg("--ro-bind").arg(root).arg(root),
        Some(Keep::Hidden) => bwrap.arg("--tmpfs").arg(root).arg("--remount-ro").arg(root),
    };
    // Inside the workspace, Ask First's data folder and what the person's rules keep are
    // hidden the same way, after every folder above each of them is pinned: a pin made later
    // would bind its folder from outside again, over what was hidden in it.
    // (With the whole workspace hidden, nothing of it is bound again.)
    let shown = whole != Some(Keep::Hidden);
    let data_inside = own_data.filter(|data| shown && data.starts_with(root) && *data != root);
    // A kept place outside the workspace, where a link in it leads, is read-only already, or
    // hidden with the home folder and the rest: it is hidden again, never shown read-only
    // (binding it would bring it back from the disk over what the sandbox hides there).
    let kept: Vec<&Path> = places
        .hidden
        .iter()
        .map(PathBuf::as_path)
        // With the whole workspace hidden, what is kept outside it (where a link in it leads)
        // is still hidden.
        .filter(|kept| !root.starts_with(kept) && (shown || !kept.starts_with(root)))
        .collect();
    let read_only: Vec<&Path> = places
        .read_only
        .iter()
        .map(PathBuf::as_path)
        .filter(|place| shown && place.starts_with(root) && *place != root)
        .collect();
    // The system's places hidden again inside the workspace, and the sockets covered there:
    // pinned like the rest, or a command could rename a folder above one (`mv a b`) and the
    // next command, built from the old names, would neither hide nor cover it.
    let again: Vec<PathBuf> = hidden
        .iter()
        .filter(|place| place.starts_with(root) && *place != root && place.is_dir())
        .cloned()
        .collect();
    let sockets = sockets_to_cover(
        super::session_bus::SessionBus::of_process(),
        runtime.as_deref(),
        &Hidden {
            places: &hidden,
            root,
            shown,
        },
    );
    let mut pinned = std::collections::HashSet::new();
    if whole.is_none() {
        let inside = sockets.iter().filter(|socket| socket.starts_with(root));
        for place in data_inside
            .iter()
            .copied()
            .chain(kept.iter().copied())
            .chain(read_only.iter().copied())
            .chain(again.iter().map(PathBuf::as_path))
            .chain(inside.map(PathBuf::as_path))
        {
            pin_folders_above(&mut bwrap, place, root, &mut pinned);
        }
    }
    // A place shown read-only is bound onto itself read-only (with what is mounted inside it,
    // pins included): it can be read, and nothing in it written, renamed or removed. Bound
    // from the disk, it would show again what was hidden in it before, so it comes before
    // everything hidden: Ask First's data folder and the places kept hidden, which may lie
    // inside it and must cover it.
    for place in read_only {
        if place.exists() {
            bwrap.arg("--ro-bind").arg(place).arg(place);
        }
    }
    if shown {
        for place in &again {
            bwrap.arg("--tmpfs").arg(place);
        }
    }
    if let Some(data) = data_inside {
        hide(&mut bwrap, data);
    }
    // A folder kept is an empty folder that cannot be written (a write into it fails, rather
    // than seem to work and vanish with the command); a file is `/dev/null`, read-only.
    for place in kept {
        if place.is_dir() {
            bwrap
                .arg("--tmpfs")
                .arg(place)
                .arg("--remount-ro")
                .arg(place);
        } else if place.exists() {
            bwrap.arg("--ro-bind").arg("/dev/null").arg(place);
        }
    }
    for socket in &sockets {
        bwrap.arg("--ro-bind").arg("/dev/null").arg(socket);
    }
    // Inside, the home folder is an empty private folder at the same place, so `~/…` paths to
    // the workspace still work.
    let inner_home = home.unwrap_or_else(|| PathBuf::from("/tmp"));
    bwrap
        .arg("--chdir")
        .arg(root)
        .arg("--")
        .args(["sh", "-c", RUNNER, "askfirst-command"])
        .arg(command)
        .arg(shell_options().join(" "))
        // bwrap's own environment is clean too: its reaper (pid 1 inside) keeps it, and
        // `/proc/1/environ` is readable from inside.
        .env_clear()
        .envs(command_env(Some(&inner_home), Some(Path::new("/tmp"))))
        .current_dir(root);
    Ok(bwrap)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::options_for;

    /// Braces are not expanded by any `sh` a command may find: bash (where it is `sh`, with
    /// its options) and dash alike print the word as it is, so a command makes the names its
    /// words give; and nothing else of what the command sees changes (`$_`, `$0`, errors).
    #[test]
    fn a_command_runs_without_brace_expansion_in_bash_and_dash() {
        for shell in ["bash", "dash", "sh"] {
            let Ok(path) = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("command -v {shell}"))
                .output()
            else {
                continue;
            };
            let path = String::from_utf8_lossy(&path.stdout).trim().to_owned();
            let Ok(real) = std::fs::canonicalize(&path) else {
                continue; // not installed here
            };
            let run = |line: &str| {
                let out = std::process::Command::new(&path)
                    .args(options_for(&real))
                    .arg("-c")
                    .arg(line)
                    .output()
                    .unwrap();
                format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                )
            };
            assert_eq!(run("echo x.{pdf,txt}"), "x.{pdf,txt}\n", "{shell}");
            assert_eq!(run("echo \"$0\""), format!("{path}\n"), "{shell}");
        }
        assert_eq!(options_for(std::path::Path::new("/usr/bin/bash")), ["+B"]);
        assert!(options_for(std::path::Path::new("/usr/bin/dash")).is_empty());
    }
}
