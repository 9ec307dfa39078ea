//! `run_command` (asks first): runs one shell command line in the workspace folder, with a time
//! limit and an output cap, shut in by the kernel where the machine allows (see [`super::sandbox`]:
//! writes only to the workspace, no home folder or Ask First data, a clean environment, a PID
//! namespace that dies with it), in a process group of its own that is stopped as a whole when
//! the command ends, times out, or the call is cancelled (its future dropped).

use super::sandbox::Confinement;
use super::{parse_args, CallDescription, CallDetail, Tool, ToolError, Workspace};
use crate::command_line::{effect_words, Place};
use crate::i18n::{tr, Arg};
use crate::policy::{ArgumentKind, Contents, MainArgument};
use crate::text::plural;
use askfirst_protocol::Risk;
use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;
use std::time::Duration;

/// The time limit, in seconds, of a command that does not give `timeout_secs`.
pub const DEFAULT_COMMAND_TIMEOUT_SECS: u64 = 60;

/// The largest `timeout_secs` a call may ask for (10 minutes).
pub const MAX_COMMAND_TIMEOUT_SECS: u64 = 600;

/// `run_command {command, timeout_secs?}`: runs `sh -c <command>` with the workspace folder as
/// working directory, no input, and standard output and error together in one stream.
///
/// - Time: `timeout_secs` (1 to [`MAX_COMMAND_TIMEOUT_SECS`], default
///   [`DEFAULT_COMMAND_TIMEOUT_SECS`]); when it passes, every process of the command is killed.
/// - Output: capped at [`super::OUTPUT_CAP_BYTES`], first and last halves kept, the cut stated.
/// - Confinement: where [`Confinement::detected`] is bubblewrap, the command runs shut in (see
///   [`super::sandbox`]); the card says whether it does. Its environment is always the clean
///   one of [`super::sandbox::command_env`].
/// - Processes: the command runs in its own process group (and, shut in, its own PID
///   namespace). When the shell ends, whatever it left running in the background is stopped;
///   when the call times out or its future is dropped (the run was stopped), the whole group is
///   killed with `SIGKILL`, and with bwrap the kernel then kills the whole namespace, `setsid`
///   and double forks included. Not shut in, a process that leaves the group on purpose
///   (`setsid`) is out of reach.
/// - Result: exit code 0 is a success; another exit code, a signal or the time limit is a
///   [`ToolError::Said`] whose message carries the output too.
///
/// Unix only; elsewhere the call fails with a clear message.
pub struct RunCommand;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunCommandArgs {
    command: String,
    #[serde(default)]
    timeout_secs: Option<u64>,
}

impl RunCommandArgs {
    /// The time limit in seconds, after checking the arguments.
    fn checked_limit(&self) -> Result<u64, ToolError> {
        let invalid = |detail: &str| ToolError::InvalidArguments {
            tool: "run_command".to_owned(),
            detail: detail.to_owned(),
        };
        if self.command.trim().is_empty() {
            return Err(invalid("command is empty."));
        }
        match self.timeout_secs {
            None => Ok(DEFAULT_COMMAND_TIMEOUT_SECS),
            Some(secs) if (1..=MAX_COMMAND_TIMEOUT_SECS).contains(&secs) => Ok(secs),
            Some(_) => Err(invalid(&format!(
                "timeout_secs must be between 1 and {MAX_COMMAND_TIMEOUT_SECS} seconds."
            ))),
        }
    }
}

#[async_trait]
impl Tool for RunCommand {
    fn name(&self) -> &'static str {
        "run_command"
    }
    fn description(&self) -> &'static str {
        "Run a shell command (sh -c) in the workspace folder and get its output (standard \
         output and error together; very long output shows its start and end). It is stopped \
         after `timeout_secs` seconds (default 60, at most 600), and anything it leaves \
         running in the background is stopped when it ends. The user is asked first."
    }
    fn parameters_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "command": { "type": "string", "description": "The command line, run with sh -c in the workspace folder" },
                "timeout_secs": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_COMMAND_TIMEOUT_SECS,
                    "description": "Stop the command after this many seconds (default 60)"
                }
            },
            "required": ["command"],
            "additionalProperties": false
        })
    }
    fn read_only(&self) -> bool {
        false
    }
    fn describe(&self, raw: &str, ws: &Workspace) -> Result<CallDescription, ToolError> {
        let args: RunCommandArgs = parse_args(self.name(), raw)?;
        let limit = args.checked_limit()?;
        let command = ("command", Arg::from(&args.command));
        let summary = if args.timeout_secs.is_some() {
            tr(
                "card-command-with_limit",
                &[command, ("seconds", Arg::from(limit))],
            )
        } else {
            tr("card-command", &[command])
        };
        let confinement = Confinement::detected();
        let place = Place {
            root: ws.root().to_path_buf(),
            home: std::env::var_os("HOME").map(std::path::PathBuf::from),
            confined: confinement.is_confined(),
        };
        let found = crate::command_line::effects(&args.command, &place);
        let mut effects = vec![confinement.card_sentence()];
        // Shut in, but not tried on a copy first: said, never silent.
        if confinement.is_confined() && !super::copy::available(ws) {
            effects.push(tr(super::copy::NO_COPY_SENTENCE, &[]));
        }
        Ok(CallDescription {
            change: None,
            summary,
            risk: Risk::High,
            preview: None,
            fingerprint: None,
            // Whether it runs shut in; risk stays High either way (where the command cannot be
            // shut in, the card says so). What its parts do is in the detail, beside the line.
            effects,
            // The card shows the line itself as the shell gets it (`sh -c`, in the root), and
            // what it does, read from how it parses.
            detail: Some(CallDetail::Command {
                working_folder: ws.root().to_string_lossy().into_owned(),
                effects: effect_words::card_effects(&found, confinement.is_confined()),
                line: args.command,
                tried: None,
            }),
        })
    }
    fn main_arguments(&self, raw: &str, ws: &Workspace) -> Vec<MainArgument> {
        parse_args::<RunCommandArgs>(self.name(), raw)
            .map(|a| {
                // The paths its words name, so that a deny rule on a folder also refuses
                // `cat Private/diary.txt` (the kernel's confinement is the first line; this
                // is the second).
                let commands = crate::command_line::all_simple_commands(&a.command);
                let words = commands.iter().flatten().map(String::as_str);
                let mut arguments = super::mentioned_paths_in(words, false, ws);
                // A folder it names may be acted on with all that is inside (`mv`, `rm -r`).
                for argument in &mut arguments {
                    argument.contents = Contents::OurCommand;
                }
                // And it works in the workspace, which it may act on without naming anything
                // (`find -delete`, `grep -r`).
                arguments.push(MainArgument {
                    kind: ArgumentKind::MentionedPath,
                    text: ".".to_owned(),
                    alias: None,
                    resolved: Some(ws.root().to_path_buf()),
                    contents: Contents::Working,
                });
                arguments.insert(
                    0,
                    MainArgument {
                        kind: ArgumentKind::Command,
                        text: a.command,
                        alias: None,
                        resolved: None,
                        contents: Contents::No,
                    },
                );
                arguments
            })
            .unwrap_or_default()
    }
    async fn execute(&self, raw: &str, ws: &Workspace) -> Result<String, ToolError> {
        let args: RunCommandArgs = parse_args(self.name(), raw)?;
        let limit = args.checked_limit()?;
        run(&args.command, Duration::from_secs(limit), ws, None)
            .await
            .unwrap_or_else(|no_copy| Err(not_tried(&no_copy)))
    }
}

/// What the line of the `run_command` call `raw` says about trying it on a copy first, read
/// once from how it parses (a second line: the kernel holds the try either way):
/// - `network`: it uses the internet (it downloads, sends, or runs what it downloads): it is
///   asked about before it is tried, and tried with the network;
/// - `outside`: it reads or writes a place outside the folder the sandbox does not hide
///   (`cat /etc/…`, `ls /srv`): a try that changes nothing has no card and what it reads goes
///   to the model, so it is asked about before it is tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BeforeTrying {
    /// It uses the internet.
    pub network: bool,
    /// It reaches outside the folder.
    pub outside: bool,
}

/// [`BeforeTrying`] for the `run_command` call `raw` in `ws` (nothing for arguments that do not
/// parse: the call then fails on its own).
pub fn before_trying(raw: &str, ws: &Workspace) -> BeforeTrying {
    use crate::command_line::Effect;
    let Ok(args) = parse_args::<RunCommandArgs>("run_command", raw) else {
        return BeforeTrying::default();
    };
    let place = Place {
        root: ws.root().to_path_buf(),
        home: std::env::var_os("HOME").map(std::path::PathBuf::from),
        confined: true,
    };
    let mut said = BeforeTrying::default();
    for effect in crate::command_line::effects(&args.command, &place) {
        match effect {
            Effect::Downloads { .. }
            | Effect::Sends { .. }
            | Effect::RunsDownloaded { .. }
            | Effect::ReplacesRemote => said.network = true,
            Effect::Outside { hidden: false, .. } => said.outside = true,
            _ => {}
        }
    }
    said
}

/// The error of a command that was to run on a copy that could not be made (never when no
/// copy was asked for).
fn not_tried(no_copy: &super::copy::NoCopy) -> ToolError {
    ToolError::said(
        no_copy.to_string(),
        "tool_failed-command-not_started",
        &[("why", Arg::from(no_copy.reason.clone()))],
    )
}

/// Runs the `run_command` call `raw` on `copy` (a copy-on-write view of `ws`'s folder, see
/// [`super::copy`]), shut in as [`RunCommand::execute`] runs it, without the network unless
/// `network`: the person's folder is not changed; what the command changed is in
/// [`super::copy::CopyFolder::upper`] once this returns (every process of it is gone by then).
///
/// # Errors
/// The outer error: the copy could not be made ([`super::copy::NoCopy`]), so nothing ran. The
/// inner result is the command's own, as [`RunCommand::execute`] gives it.
pub async fn try_on_copy(
    raw: &str,
    ws: &Workspace,
    copy: &super::copy::CopyFolder,
    network: bool,
) -> Result<Result<String, ToolError>, super::copy::NoCopy> {
    let args: RunCommandArgs = match parse_args("run_command", raw) {
        Ok(args) => args,
        Err(e) => return Ok(Err(e)),
    };
    let limit = match args.checked_limit() {
        Ok(limit) => limit,
        Err(e) => return Ok(Err(e)),
    };
    run(
        &args.command,
        Duration::from_secs(limit),
        ws,
        Some((copy, network)),
    )
    .await
}

#[cfg(not(unix))]
async fn run(
    _command: &str,
    _limit: Duration,
    _ws: &Workspace,
    _copy: Option<(&super::copy::CopyFolder, bool)>,
) -> Result<Result<String, ToolError>, super::copy::NoCopy> {
    Ok(Err(ToolError::said(
        "Running commands is not supported on this system yet.".into(),
        "tool_failed-command-unsupported",
        &[],
    )))
}

#[cfg(unix)]
use unix::run;

#[cfg(unix)]
mod unix {
    use super::super::copy::{CopyFolder, NoCopy};
    use super::super::sandbox::{self, Confinement};
    use super::super::{HeadTail, ToolError, Workspace, OUTPUT_CAP_BYTES};
    use super::plural;
    use crate::i18n::{tr, Arg};
    use nix::fcntl::OFlag;
    use nix::sys::signal::{killpg, Signal};
    use nix::unistd::Pid;
    use std::io::Read;
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::path::PathBuf;
    use std::process::{Command, Stdio};
    use std::sync::{Arc, Mutex, MutexGuard};
    use std::time::Duration;

    /// How long output may keep arriving after the command's processes are gone (what the
    /// pipe still holds), before the reply is made with what arrived.
    const OUTPUT_GRACE: Duration = Duration::from_secs(2);

    /// How often what a command tried on a copy has written is looked at.
    const WATCH_EVERY: Duration = Duration::from_millis(500);

    /// The command's process group. Dropping it kills every process still in the group, so a
    /// call whose future is dropped (the run was stopped) leaves nothing running.
    struct ProcessGroup {
        id: Pid,
        stopped: bool,
    }

    impl ProcessGroup {
        /// Kills every process in the group with `SIGKILL`; returns whether there was any.
        fn stop(&mut self) -> bool {
            self.stopped = true;
            killpg(self.id, Signal::SIGKILL).is_ok()
        }
    }

    impl Drop for ProcessGroup {
        fn drop(&mut self) {
            if !self.stopped {
                let _ = killpg(self.id, Signal::SIGKILL);
            }
        }
    }

    fn lock(output: &Mutex<HeadTail>) -> MutexGuard<'_, HeadTail> {
        crate::sync::MutexExt::lock_or_recover(output)
    }

    fn not_started(e: impl std::fmt::Display) -> ToolError {
        ToolError::said(
            format!("The command could not be started: {e}"),
            "tool_failed-command-not_started",
            &[("why", Arg::from(e.to_string()))],
        )
    }

    pub(super) async fn run(
        command: &str,
        limit: Duration,
        ws: &Workspace,
        copy: Option<(&CopyFolder, bool)>,
    ) -> Result<Result<String, ToolError>, NoCopy> {
        let folder = match ws.resolve(".") {
            Ok(folder) => folder,
            Err(e) => return Ok(Err(e)),
        };
        let not_started = |e: String| Ok(Err(not_started(e)));
        // One pipe for standard output and error, so the model sees them in the order they
        // were written. Close-on-exec, so other programs started meanwhile do not inherit it
        // (and keep it open).
        let (read_end, write_end) = match nix::unistd::pipe2(OFlag::O_CLOEXEC) {
            Ok(ends) => ends,
            Err(e) => return not_started(e.to_string()),
        };
        let write_end_too = match write_end.try_clone() {
            Ok(end) => end,
            Err(e) => return not_started(e.to_string()),
        };
        // Shut in by bwrap where the machine allows (see `sandbox`); its standard input is a
        // pipe on which it says whether the command left programs running.
        let (mut shell, left_report) = match Confinement::detected() {
            Confinement::Bubblewrap {
                program,
                user_namespace,
            } => {
                let (report_read, report_write) = match nix::unistd::pipe2(OFlag::O_CLOEXEC) {
                    Ok(ends) => ends,
                    Err(e) => return not_started(e.to_string()),
                };
                let bwrap = match sandbox::confined_command(program, *user_namespace, command, ws) {
                    Ok(bwrap) => bwrap,
                    Err(e) => return not_started(e.to_string()),
                };
                // On a copy of the folder, the same bwrap inside the namespaces that hold it.
                let mut shell = match copy {
                    Some((copy, network)) => copy.wrap(&bwrap, network),
                    None => bwrap,
                };
                shell.stdin(Stdio::from(report_write));
                (shell, Some(report_read))
            }
            Confinement::Unavailable { reason } if copy.is_some() => {
                return Err(NoCopy {
                    reason: reason.clone(),
                })
            }
            // The card said the command is not shut in. It still gets a clean environment.
            Confinement::Unavailable { .. } => {
                let home = std::env::var_os("HOME").map(PathBuf::from);
                let tmp = std::env::var_os("TMPDIR").map(PathBuf::from);
                let mut shell = Command::new("sh");
                shell
                    .args(sandbox::shell_options())
                    .arg("-c")
                    .arg(command)
                    .current_dir(&folder)
                    .env_clear()
                    .envs(sandbox::command_env(home.as_deref(), tmp.as_deref()))
                    .stdin(Stdio::null());
                (shell, None)
            }
        };
        shell
            .stdout(Stdio::from(write_end))
            .stderr(Stdio::from(write_end_too))
            .process_group(0);
        // Confined commands start from the sandbox's own thread (Landlock's scopes); that
        // thread drops `shell` once it started, closing this side's copies of the write end:
        // reading ends once the command's own processes have all closed theirs.
        let confined = left_report.is_some();
        let spawned = if confined {
            sandbox::spawn_scoped(shell)
        } else {
            let spawned = shell.spawn();
            drop(shell);
            spawned
        };
        let mut child = match spawned {
            Ok(child) => child,
            Err(e) => return not_started(e.to_string()),
        };
        let Ok(id) = i32::try_from(child.id()) else {
            let _ = child.kill();
            let _ = child.wait();
            return not_started("its process id is out of range".into());
        };
        let mut group = ProcessGroup {
            id: Pid::from_raw(id),
            stopped: false,
        };

        let output = Arc::new(Mutex::new(HeadTail::new(OUTPUT_CAP_BYTES)));
        let reader = {
            let output = Arc::clone(&output);
            let mut pipe = std::fs::File::from(read_end);
            tokio::task::spawn_blocking(move || {
                let mut buffer = [0_u8; 8192];
                loop {
                    match pipe.read(&mut buffer) {
                        Ok(0) => break,
                        Ok(n) => lock(&output).push(&buffer[..n]),
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
            })
        };
        // Whether the confined command left programs running: read until every process of its
        // PID namespace is gone (they hold the pipe's write end until then).
        let left_reader = left_report.map(|report| {
            let mut report = std::fs::File::from(report);
            tokio::task::spawn_blocking(move || {
                let mut said = Vec::new();
                let _ = (&mut report).take(64).read_to_end(&mut said);
                said
            })
        });
        // The shell is waited for (and reaped) on a blocking thread, which ends once the
        // shell does; a timeout or a drop below kills the group, so it always ends.
        let waiter = tokio::task::spawn_blocking(move || child.wait());
        let ended = tokio::time::timeout(limit, waiter);
        // On a copy, what it writes is watched: past its bounds it is stopped, and nothing of
        // it will be applied.
        let ended = match copy {
            None => ended.await,
            Some((copy, _)) => {
                let bounds = copy.bounds();
                let watch = async move {
                    loop {
                        tokio::time::sleep(WATCH_EVERY).await;
                        let bounds = bounds.clone();
                        if tokio::task::spawn_blocking(move || bounds.exceeded())
                            .await
                            .unwrap_or(false)
                        {
                            break;
                        }
                    }
                };
                tokio::select! {
                    ended = ended => ended,
                    () = watch => {
                        copy.mark_overflowed();
                        group.stop();
                        let _ = tokio::time::timeout(OUTPUT_GRACE, reader).await;
                        return Ok(Err(ToolError::said(
                            format!(
                                "The command was stopped: on the copy of the folder it wrote \
                                 more than Ask First lets a command write (over {} bytes, or \
                                 {} files, or it was filling the disk). Nothing it did was \
                                 applied.",
                                super::super::copy::write_cap(),
                                super::super::copy::TRY_ENTRY_CAP
                            ),
                            "tool_failed-command-wrote_too_much",
                            &[
                                (
                                    "size",
                                    Arg::from(crate::undo::words::size(
                                        super::super::copy::write_cap(),
                                    )),
                                ),
                                ("count", Arg::from(super::super::copy::TRY_ENTRY_CAP as u64)),
                            ],
                        )));
                    }
                }
            }
        };
        // After the shell ended, this stops what it left running in the background; after a
        // timeout, everything. (While any process of the group lives, the kernel does not hand
        // its id to a new process; an empty group's id could only be reused after the process
        // ids wrapped around, in the instant since the shell was reaped.)
        let mut left_running = group.stop();
        let _ = tokio::time::timeout(OUTPUT_GRACE, reader).await;
        if let Some(left_reader) = left_reader {
            let said = match tokio::time::timeout(OUTPUT_GRACE, left_reader).await {
                Ok(Ok(said)) => said,
                _ => Vec::new(),
            };
            // The copy could not be made: nothing ran.
            if said.starts_with(b"nocopy") {
                return Err(NoCopy {
                    reason: "overlayfs could not make the copy (the kernel or the folder's \
                             file system refused it)"
                        .into(),
                });
            }
            left_running |= said.starts_with(b"left");
        }

        let output = std::mem::replace(&mut *lock(&output), HeadTail::new(0));
        let shown_output = (output.total() > 0).then(|| output.into_text());
        let printed = match &shown_output {
            None => "It printed nothing.".to_owned(),
            Some(text) => format!("Output:\n{text}"),
        };
        let background = if left_running {
            " It left programs running in the background; they were stopped."
        } else {
            ""
        };
        // The person's sentence for how it ended, then what it printed, as it printed it.
        let for_person = |key: &str, args: &[(&str, Arg)]| {
            let mut said = tr(key, args);
            if left_running {
                said.push(' ');
                said.push_str(&tr("tool_failed-command-left_running", &[]));
            }
            said.push('\n');
            match &shown_output {
                None => said.push_str(&tr("tool_failed-command-printed_nothing", &[])),
                Some(text) => {
                    said.push_str(&tr("tool_failed-command-printed", &[]));
                    said.push('\n');
                    said.push_str(text);
                }
            }
            said
        };
        let failed = |model: String, key: &str, args: &[(&str, Arg)]| ToolError::Said {
            model,
            person: for_person(key, args),
        };
        Ok(match ended {
            Ok(Ok(Ok(status))) => match (status.code(), status.signal()) {
                (Some(0), _) => Ok(format!(
                    "The command finished successfully (exit code 0).{background}\n{printed}"
                )),
                (Some(code), _) => Err(failed(
                    format!("The command failed with exit code {code}.{background}\n{printed}"),
                    "tool_failed-command-exit_code",
                    &[("code", Arg::from(code.to_string()))],
                )),
                (None, Some(signal)) => Err(failed(
                    format!("The command was ended by signal {signal}.{background}\n{printed}"),
                    "tool_failed-command-signal",
                    &[("signal", Arg::from(signal.to_string()))],
                )),
                (None, None) => Err(failed(
                    format!("The command ended without an exit code.{background}\n{printed}"),
                    "tool_failed-command-no_code",
                    &[],
                )),
            },
            Ok(Ok(Err(e))) => Err(failed(
                format!(
                    "Waiting for the command failed: {e}. Everything it started was stopped.\n\
                     {printed}"
                ),
                "tool_failed-command-lost",
                &[("why", Arg::from(e.to_string()))],
            )),
            Ok(Err(e)) => Err(failed(
                format!(
                    "Waiting for the command stopped unexpectedly: {e}. Everything it started \
                     was stopped.\n{printed}"
                ),
                "tool_failed-command-lost",
                &[("why", Arg::from(e.to_string()))],
            )),
            Err(_elapsed) => Err(failed(
                format!(
                    "The command was stopped after {} because it was still running; everything \
                     it started was stopped too.\n{printed}",
                    plural(limit.as_secs(), "second", "seconds")
                ),
                "tool_failed-command-too_long",
                &[(
                    "wait",
                    Arg::from(tr(
                        "duration-seconds",
                        &[("count", Arg::from(limit.as_secs()))],
                    )),
                )],
            )),
        })
    }
}
