//! What the person reads for each core error that reaches the window, and its code: the one
//! place a command's error is worded. Each error gets a [`ErrorCode`], a message (what happened
//! and what to do, in plain sentences) and a detail (the error chain, the path, the OS's own
//! words) that the window shows only behind "Details". Every `match` here is exhaustive, so a
//! new error variant is a compile error until it has its code and its words (and distinct
//! errors keep distinct codes: the disk being full is not "internal").
//!
//! The sentences are checked by `tests/all/error_catalogue.rs`: each is a sentence, says what
//! to do, and carries no raw error chain.

use super::screen::SettingsError;
use super::settings::ConfigError;
use super::BuildError;
use crate::agent::{RunError, SessionError};
use crate::app::settings::APPROVAL_TIMEOUT_SECS;
use crate::approvals::{ApprovalError, ChangeProblem};
use crate::i18n::{tr, Arg};
use crate::policy::RulesError;
use askfirst_protocol::{CommandError, ErrorCode};

/// An error worded for the person: a message and, apart from it, the technical detail.
pub trait Worded {
    /// What happened and what to do, in plain sentences: never an error chain, a path or an
    /// OS error code (those go in [`Self::detail`]).
    fn message(&self) -> String;

    /// The technical detail behind [`Self::message`], for a "Details" view one click away;
    /// `None` where the message says everything.
    fn detail(&self) -> Option<String>;
}

/// A core error a command can return.
pub trait Coded: Worded {
    /// The code the window receives.
    fn code(&self) -> ErrorCode;

    /// The error as a command returns it: the code, the message and the detail.
    fn to_command_error(&self) -> CommandError {
        CommandError {
            code: self.code(),
            message: self.message(),
            detail: self.detail(),
        }
    }
}

/// What a failure inside Ask First (a panic, a request the backend could not take) tells the
/// person; the technical side goes in the detail.
/// (In English; the person reads it in their language: [`internal_failure`].)
pub const INTERNAL_FAILURE: &str = "Something went wrong inside Ask First, so this was not \
     done. Try again; if it keeps happening, close Ask First and start it again.";

/// [`INTERNAL_FAILURE`] in the current language.
pub fn internal_failure() -> String {
    tr("error-internal", &[])
}

/// The [`CommandError`] of a failure inside Ask First, with `detail` (what failed) apart.
pub fn internal_error(detail: impl Into<String>) -> CommandError {
    CommandError {
        code: ErrorCode::Internal,
        message: internal_failure(),
        detail: Some(detail.into()),
    }
}

impl Worded for RunError {
    fn message(&self) -> String {
        match self {
            RunError::EmptyTask => tr("error-run-empty_task", &[]),
            RunError::Busy => tr("error-run-busy", &[]),
            RunError::NoCommand => tr("acp-no_command", &[]),
            RunError::FolderGone(path) => tr(
                "error-run-folder_gone",
                &[("path", Arg::from(path.as_str()))],
            ),
            // The provider's sentence says what happened and what to do.
            RunError::Provider(error) => error.to_string(),
        }
    }

    fn detail(&self) -> Option<String> {
        match self {
            RunError::EmptyTask
            | RunError::Busy
            | RunError::NoCommand
            | RunError::FolderGone(_) => None,
            RunError::Provider(error) => error.detail(),
        }
    }
}

impl Coded for RunError {
    fn code(&self) -> ErrorCode {
        match self {
            RunError::EmptyTask => ErrorCode::InvalidRequest,
            RunError::Busy => ErrorCode::Busy,
            RunError::NoCommand => ErrorCode::InvalidRequest,
            RunError::Provider(_) => ErrorCode::ProviderSetup,
            RunError::FolderGone(_) => ErrorCode::InvalidRequest,
        }
    }
}

impl Worded for SessionError {
    fn message(&self) -> String {
        match self {
            SessionError::Busy => tr("error-session-busy", &[]),
            SessionError::FolderFixed => tr("error-session-folder_fixed", &[]),
            SessionError::Unreadable(_) => tr("error-session-unreadable", &[]),
            SessionError::NotWritable(_) => tr("error-session-not_writable", &[]),
        }
    }

    fn detail(&self) -> Option<String> {
        match self {
            SessionError::Busy | SessionError::FolderFixed => None,
            SessionError::Unreadable(why) | SessionError::NotWritable(why) => Some(why.clone()),
        }
    }
}

impl Coded for SessionError {
    fn code(&self) -> ErrorCode {
        match self {
            SessionError::Busy => ErrorCode::Busy,
            SessionError::Unreadable(_) | SessionError::NotWritable(_) => ErrorCode::Storage,
            SessionError::FolderFixed => ErrorCode::InvalidRequest,
        }
    }
}

impl Worded for crate::history::HistoryError {
    fn message(&self) -> String {
        match self {
            crate::history::HistoryError::Unreadable(_) => tr("error-history-unreadable", &[]),
        }
    }

    fn detail(&self) -> Option<String> {
        match self {
            crate::history::HistoryError::Unreadable(why) => Some(why.clone()),
        }
    }
}

impl Coded for crate::history::HistoryError {
    fn code(&self) -> ErrorCode {
        match self {
            crate::history::HistoryError::Unreadable(_) => ErrorCode::Storage,
        }
    }
}

impl Worded for ApprovalError {
    fn message(&self) -> String {
        match self {
            ApprovalError::NotPending(_) => tr("error-approval-not_pending", &[]),
            ApprovalError::NotGrantable(_) => tr("error-approval-not_grantable", &[]),
            ApprovalError::ApprovalRequired { summary, .. } => tr(
                "error-approval-required",
                &[("summary", Arg::from(summary))],
            ),
            ApprovalError::Log(_) => tr("error-approval-log", &[]),
            ApprovalError::ShuttingDown => tr("error-approval-shutting_down", &[]),
            ApprovalError::CannotChange { problem, .. } => match problem {
                ChangeProblem::NotOffered | ChangeProblem::Field(_) => {
                    tr("error-approval-change-not_offered", &[])
                }
                ChangeProblem::TooBig { .. } => tr("error-approval-change-too_big", &[]),
                ChangeProblem::Same => tr("error-approval-change-same", &[]),
            },
        }
    }

    fn detail(&self) -> Option<String> {
        match self {
            ApprovalError::NotPending(id) | ApprovalError::NotGrantable(id) => {
                Some(format!("approval {id}"))
            }
            ApprovalError::ApprovalRequired { tool_name, .. } => Some(format!(
                "tool {tool_name}; no one can answer (fail-closed mode)"
            )),
            ApprovalError::Log(why) => Some(why.clone()),
            ApprovalError::ShuttingDown => None,
            ApprovalError::CannotChange { id, problem } => {
                Some(format!("approval {id}: {problem}"))
            }
        }
    }
}

impl Coded for ApprovalError {
    fn code(&self) -> ErrorCode {
        match self {
            ApprovalError::NotPending(_) => ErrorCode::NotPending,
            ApprovalError::NotGrantable(_) => ErrorCode::InvalidRequest,
            // Only in the fail-closed mode, which the app never uses: a bug if it reaches it.
            ApprovalError::ApprovalRequired { .. } => ErrorCode::Internal,
            ApprovalError::Log(_) => ErrorCode::LogUnavailable,
            ApprovalError::ShuttingDown => ErrorCode::ShuttingDown,
            ApprovalError::CannotChange { .. } => ErrorCode::InvalidRequest,
        }
    }
}

impl Worded for SettingsError {
    fn message(&self) -> String {
        match self {
            SettingsError::UnknownProvider(_) => tr("error-settings-unknown_provider", &[]),
            SettingsError::TimeoutOutOfRange(_) => tr(
                "error-settings-timeout_out_of_range",
                &[
                    ("min", Arg::from(APPROVAL_TIMEOUT_SECS.min)),
                    ("max", Arg::from(APPROVAL_TIMEOUT_SECS.max)),
                ],
            ),
            SettingsError::FileUnreadable(_) => tr("error-settings-file_unreadable", &[]),
            SettingsError::SaveFailed { .. } => tr("error-settings-save_failed", &[]),
            SettingsError::NoSuchRule(_) => tr("error-settings-no_such_rule", &[]),
            SettingsError::Rules(RulesError::Read { .. }) => {
                tr("error-settings-rules_unreadable", &[])
            }
            SettingsError::Rules(RulesError::Invalid { .. }) => {
                tr("error-settings-rules_invalid", &[])
            }
            // Sentences of the MCP settings' own checks (`McpConfigError`, "There is no MCP
            // server named …"), which say what is wrong.
            SettingsError::McpServer(sentence) => tr(
                "error-settings-mcp_server",
                &[("problem", Arg::from(sentence))],
            ),
            SettingsError::KeyringRemove(_) => tr("error-settings-keyring_remove", &[]),
        }
    }

    fn detail(&self) -> Option<String> {
        match self {
            SettingsError::UnknownProvider(name) => Some(format!("provider {name:?}")),
            SettingsError::TimeoutOutOfRange(_) | SettingsError::McpServer(_) => None,
            SettingsError::FileUnreadable(why) => Some(why.clone()),
            SettingsError::SaveFailed { path, source } => {
                Some(format!("{}: {source}", path.display()))
            }
            SettingsError::NoSuchRule(rule) => Some(format!("rule {rule}")),
            SettingsError::KeyringRemove(why) => Some(why.clone()),
            SettingsError::Rules(RulesError::Read { path, detail })
            | SettingsError::Rules(RulesError::Invalid { path, detail }) => {
                Some(format!("{path}: {detail}"))
            }
        }
    }
}

impl Coded for SettingsError {
    fn code(&self) -> ErrorCode {
        SettingsError::code(self)
    }
}

/// Why Ask First could not start. Said on the terminal and, where a window can be shown, in
/// one; never reaches the main window (there is none yet).
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    /// Another Ask First uses this data folder.
    #[error("another Ask First is using {}", data_dir.display())]
    AlreadyRunning {
        /// The data folder.
        data_dir: std::path::PathBuf,
    },
    /// The environment's settings cannot be used.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The backend could not be assembled (a folder, the scenario file).
    #[error(transparent)]
    Build(#[from] BuildError),
    /// The window could not be made (no display, no desktop session); the text is Tauri's.
    #[error("the window could not be made: {0}")]
    Window(String),
}

impl Worded for StartupError {
    fn message(&self) -> String {
        match self {
            StartupError::AlreadyRunning { .. } => tr("error-startup-already_running", &[]),
            StartupError::Config(ConfigError::NoDataDir) => tr("error-startup-no_data_dir", &[]),
            StartupError::Config(
                ConfigError::UnknownProvider(_) | ConfigError::Timeout(_) | ConfigError::Notify(_),
            ) => tr("error-startup-bad_setting", &[]),
            StartupError::Build(BuildError::Folder { .. }) => tr("error-startup-folder", &[]),
            StartupError::Build(BuildError::Provider(error)) => error.to_string(),
            StartupError::Build(BuildError::FixedFolder { source, .. }) => source.message(),
            StartupError::Window(_) => tr("error-startup-window", &[]),
        }
    }

    fn detail(&self) -> Option<String> {
        match self {
            StartupError::Build(BuildError::Provider(error)) => error.detail(),
            StartupError::AlreadyRunning { .. }
            | StartupError::Config(_)
            | StartupError::Build(BuildError::Folder { .. } | BuildError::FixedFolder { .. })
            | StartupError::Window(_) => Some(self.to_string()),
        }
    }
}

impl Worded for crate::inbox::connect::ConnectError {
    fn message(&self) -> String {
        use crate::inbox::connect::ConnectError;
        use askfirst_hook::install::InstallError;
        match self {
            ConnectError::NoHome | ConnectError::Settings(InstallError::NoHome) => {
                tr("error-connect-no_home", &[])
            }
            ConnectError::NoHook(_) => tr("error-connect-no_hook", &[]),
            ConnectError::Settings(InstallError::Io { .. }) => tr("error-connect-io", &[]),
            ConnectError::Settings(InstallError::NotSettings { .. }) => {
                tr("error-connect-not_settings", &[])
            }
        }
    }

    fn detail(&self) -> Option<String> {
        Some(self.to_string())
    }
}

impl Coded for crate::inbox::connect::ConnectError {
    fn code(&self) -> ErrorCode {
        use crate::inbox::connect::ConnectError;
        use askfirst_hook::install::InstallError;
        match self {
            ConnectError::NoHome
            | ConnectError::NoHook(_)
            | ConnectError::Settings(InstallError::NoHome) => ErrorCode::InvalidRequest,
            ConnectError::Settings(InstallError::Io { .. }) => ErrorCode::Storage,
            ConnectError::Settings(InstallError::NotSettings { .. }) => ErrorCode::InvalidRequest,
        }
    }
}

impl Worded for crate::undo::UndoError {
    fn message(&self) -> String {
        use crate::undo::UndoError as E;
        let path = |key: &str, name: &str, path: &std::path::Path| {
            tr(key, &[(name, Arg::from(path.display().to_string()))])
        };
        match self {
            E::NotFound(_) => tr("error-undo-not_found", &[]),
            E::AlreadyUndone => tr("error-undo-already_undone", &[]),
            E::CannotUndo(why) => tr("error-undo-cannot_undo", &[("why", Arg::from(why))]),
            E::TooOld(_) => tr("error-undo-too_old", &[]),
            E::FolderGone(folder) => path("error-undo-folder_gone", "folder", folder),
            E::PlaceTaken(taken) => path("error-undo-place_taken", "path", taken),
            E::Gone(gone) => path("error-undo-gone", "path", gone),
            E::GoneFromTrash(gone) => path("error-undo-gone_from_trash", "path", gone),
            E::NotAFolder(folder) => path("error-undo-not_a_folder", "folder", folder),
            E::Log(_) => tr("error-undo-log", &[]),
            E::Failed(_) => tr("error-undo-failed", &[]),
            E::TaskStopped {
                undone,
                total,
                summary,
                why,
            } => tr(
                "error-undo-task_stopped",
                &[
                    ("undone", Arg::from(*undone)),
                    ("total", Arg::from(*total)),
                    (
                        "summary",
                        Arg::from(
                            crate::text::display_label(summary, 200).trim_end_matches(['.', '。']),
                        ),
                    ),
                    ("why", Arg::from(why.message())),
                ],
            ),
        }
    }

    fn detail(&self) -> Option<String> {
        use crate::undo::UndoError as E;
        match self {
            E::AlreadyUndone | E::CannotUndo(_) => None,
            E::TaskStopped { why, .. } => why.detail(),
            E::NotFound(_)
            | E::TooOld(_)
            | E::FolderGone(_)
            | E::PlaceTaken(_)
            | E::Gone(_)
            | E::GoneFromTrash(_)
            | E::NotAFolder(_)
            | E::Log(_)
            | E::Failed(_) => Some(self.to_string()),
        }
    }
}

impl Coded for crate::undo::UndoError {
    fn code(&self) -> ErrorCode {
        use crate::undo::UndoError as E;
        match self {
            E::Log(_) => ErrorCode::LogUnavailable,
            E::Failed(_) => ErrorCode::Storage,
            E::TaskStopped { why, .. } => why.code(),
            E::NotFound(_)
            | E::AlreadyUndone
            | E::CannotUndo(_)
            | E::TooOld(_)
            | E::FolderGone(_)
            | E::PlaceTaken(_)
            | E::Gone(_)
            | E::GoneFromTrash(_)
            | E::NotAFolder(_) => ErrorCode::InvalidRequest,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use askfirst_protocol::ApprovalId;

    #[test]
    fn distinct_failures_have_distinct_codes() {
        let id = ApprovalId::new();
        let codes = [
            ApprovalError::NotPending(id).code(),
            ApprovalError::NotGrantable(id).code(),
            ApprovalError::Log("disk full".into()).code(),
            ApprovalError::ShuttingDown.code(),
            RunError::Busy.code(),
            RunError::Provider(crate::provider::ProviderError::Config("no key".into())).code(),
            SessionError::Unreadable("gone".into()).code(),
        ];
        assert_eq!(
            codes,
            [
                ErrorCode::NotPending,
                ErrorCode::InvalidRequest,
                ErrorCode::LogUnavailable,
                ErrorCode::ShuttingDown,
                ErrorCode::Busy,
                ErrorCode::ProviderSetup,
                ErrorCode::Storage,
            ]
        );
        assert_eq!(SessionError::Busy.code(), RunError::Busy.code());
    }

    #[test]
    fn the_os_error_goes_to_the_detail_not_the_message() {
        let error = SettingsError::SaveFailed {
            path: "/data/settings.json".into(),
            source: std::io::Error::from_raw_os_error(28),
        };
        let sent = error.to_command_error();
        assert_eq!(sent.code, ErrorCode::Storage);
        assert!(!sent.message.contains("os error"), "{}", sent.message);
        assert!(!sent.message.contains("/data"), "{}", sent.message);
        let detail = sent.detail.unwrap_or_default();
        assert!(
            detail.starts_with("/data/settings.json: ") && detail.contains("os error 28"),
            "{detail}"
        );
    }
}
