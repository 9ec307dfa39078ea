//! Every error a person can meet, listed once: each command error (every [`ErrorCode`]), every
//! kind of model failure ([`ProviderError`]), every reason a call did not run ([`NotRun`]),
//! every way a task ends badly, and every way Ask First fails to start. Each list is built
//! next to a `match` without a `_` arm, so a new variant does not compile until it is listed
//! here, and every listed message is checked: a sentence (a capital, a full stop), free of raw
//! error chains ("os error", "error sending request", Rust type names, ...), and, for errors,
//! saying what to do. The technical side lives in the detail, never in the message.

use super::error_examples::{io, mcp_config_errors, provider_errors};
use askfirst_core::agent::wording::{self, person_text};
use askfirst_core::agent::{RunError, SessionError};
use askfirst_core::app::{
    BuildError, Coded, ConfigError, FolderError, SettingsError, StartupError, Worded,
};
use askfirst_core::approvals::{ApprovalError, ChangeProblem};
use askfirst_core::history::HistoryError;
use askfirst_core::inbox::connect::ConnectError;
use askfirst_core::policy::editor::RuleEditError;
use askfirst_core::policy::RulesError;
use askfirst_core::provider::ProviderError;
use askfirst_core::undo::UndoError;
use askfirst_hook::install::InstallError;
use askfirst_protocol::{ApprovalId, ErrorCode};
use std::collections::BTreeSet;
use std::time::Duration;

/// What a raw error chain looks like; none of it may reach a message.
const CHAIN_MARKERS: &[&str] = &[
    "error sending request",
    "builder error",
    "os error",
    "io error",
    "caused by",
    "no such file",
    "permission denied (",
    "error:",
    "{",
    "}",
    "::",
    "some(",
    "none)",
    "err(",
    "ok(",
    "panicked",
    "backtrace",
    "reqwest",
    "hyper",
    "serde",
    "json",
];

/// Rust type names that would say the message is a `Debug` print.
const TYPE_NAMES: &[&str] = &[
    "ProviderError",
    "RunError",
    "SessionError",
    "ApprovalError",
    "SettingsError",
    "RulesError",
    "ConfigError",
    "BuildError",
    "StartupError",
    "AuditError",
    "HistoryError",
    "ErrorKind",
    "NotFound",
    "PermissionDenied",
    "CannotConnect",
    "ConnectFailure",
];

/// Words that tell the person what to do next (one of them must be in every error message).
const WHAT_TO_DO: &[&str] = &[
    "add",
    "approve",
    "check",
    "choose",
    "close",
    "correct",
    "deny",
    "fix",
    "free",
    "give",
    "look",
    "make sure",
    "open",
    "pick",
    "say",
    "send",
    "set",
    "start",
    "stop",
    "try",
    "type",
    "use",
    "wait",
    "write",
];

/// Checks `message` is a plain sentence with no raw chain; `what` names it in a failure.
fn assert_plain_sentence(what: &str, message: &str) {
    // A sentence may open with a quoted name ("\"1X\" cannot be …").
    let first = message.chars().next();
    assert!(
        first.is_some_and(|c| c.is_uppercase() || c == '"'),
        "{what}: does not start with a capital: {message:?}"
    );
    assert!(
        message.ends_with('.') || message.ends_with(".)") || message.ends_with(".\""),
        "{what}: does not end with a full stop: {message:?}"
    );
    let lower = message.to_lowercase();
    for marker in CHAIN_MARKERS {
        assert!(
            !lower.contains(marker),
            "{what}: shows {marker:?} from an error chain: {message:?}"
        );
    }
    for name in TYPE_NAMES {
        assert!(
            !message.contains(name),
            "{what}: names the type {name}: {message:?}"
        );
    }
}

/// Also checks `message` says what to do.
fn assert_worded_error(what: &str, message: &str) {
    assert_plain_sentence(what, message);
    let lower = message.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let says_what_to_do = WHAT_TO_DO.iter().any(|verb| {
        if verb.contains(' ') {
            lower.contains(verb)
        } else {
            words.contains(verb)
        }
    });
    assert!(
        says_what_to_do,
        "{what}: does not say what to do: {message:?}"
    );
}

/// Every error a command can return, as the window receives it.
fn command_errors() -> Vec<(String, askfirst_protocol::CommandError)> {
    let id = ApprovalId::new();
    let mut all: Vec<(String, askfirst_protocol::CommandError)> = Vec::new();
    let mut add = |error: &dyn Coded, what: String| all.push((what, error.to_command_error()));
    let mut runs = vec![
        RunError::EmptyTask,
        RunError::Busy,
        RunError::NoCommand,
        RunError::FolderGone("/home/ana/Taxes".into()),
    ];
    runs.extend(provider_errors().into_iter().map(RunError::Provider));
    for error in &runs {
        match error {
            RunError::EmptyTask
            | RunError::Busy
            | RunError::NoCommand
            | RunError::Provider(_)
            | RunError::FolderGone(_) => {}
        }
        add(error, format!("{error:?}"));
    }
    let sessions = [
        SessionError::Busy,
        SessionError::Unreadable(
            "The session log /data/sessions/x.jsonl could not be read: No such file or \
             directory (os error 2)"
                .into(),
        ),
        SessionError::NotWritable("Read-only file system (os error 30)".into()),
        SessionError::FolderFixed,
    ];
    for error in &sessions {
        match error {
            SessionError::Busy
            | SessionError::Unreadable(_)
            | SessionError::NotWritable(_)
            | SessionError::FolderFixed => {}
        }
        add(error, format!("{error:?}"));
    }
    let histories = [HistoryError::Unreadable(
        "Input/output error (os error 5)".into(),
    )];
    for error in &histories {
        match error {
            HistoryError::Unreadable(_) => {}
        }
        add(error, format!("{error:?}"));
    }
    let approvals = [
        ApprovalError::NotPending(id),
        ApprovalError::NotGrantable(id),
        ApprovalError::ApprovalRequired {
            tool_name: "delete_file".into(),
            summary: "Move Photos/beach.jpg to the trash".into(),
        },
        ApprovalError::Log(
            "The session log /data/sessions/x.jsonl could not be written: No space left on \
             device (os error 28)"
                .into(),
        ),
        ApprovalError::ShuttingDown,
        ApprovalError::CannotChange {
            id,
            problem: ChangeProblem::NotOffered,
        },
        ApprovalError::CannotChange {
            id,
            problem: ChangeProblem::Field("old_text".into()),
        },
        ApprovalError::CannotChange {
            id,
            problem: ChangeProblem::TooBig {
                bytes: 17_000_000,
                cap: 16_777_216,
            },
        },
        ApprovalError::CannotChange {
            id,
            problem: ChangeProblem::Same,
        },
    ];
    for error in &approvals {
        match error {
            ApprovalError::NotPending(_)
            | ApprovalError::NotGrantable(_)
            | ApprovalError::ApprovalRequired { .. }
            | ApprovalError::Log(_)
            | ApprovalError::ShuttingDown => {}
            ApprovalError::CannotChange { problem, .. } => match problem {
                ChangeProblem::NotOffered
                | ChangeProblem::Field(_)
                | ChangeProblem::TooBig { .. }
                | ChangeProblem::Same => {}
            },
        }
        add(error, format!("{error:?}"));
    }
    let settings = [
        SettingsError::UnknownProvider("scripted:/tmp/x.json".into()),
        SettingsError::TimeoutOutOfRange(5),
        SettingsError::FileUnreadable(
            "The settings file /data/settings.json has a mistake: expected `,` or `}` at line 3 \
             column 5"
                .into(),
        ),
        SettingsError::SaveFailed {
            path: "/data/settings.json".into(),
            source: io(13),
        },
        SettingsError::NoSuchRule("deny write_file Private/**".into()),
        SettingsError::Rules(RulesError::Read {
            path: "/data/rules.toml".into(),
            detail: "Permission denied (os error 13)".into(),
        }),
        SettingsError::Rules(RulesError::Invalid {
            path: "/data/rules.toml".into(),
            detail: "TOML parse error at line 1, column 1".into(),
        }),
        SettingsError::McpServer("There is no MCP server named \"files\".".into()),
        SettingsError::KeyringRemove("org.freedesktop.DBus.Error.ServiceUnknown".into()),
    ];
    let settings = settings.into_iter().chain(
        mcp_config_errors()
            .into_iter()
            .map(|e| SettingsError::McpServer(e.to_string())),
    );
    for error in settings {
        match &error {
            SettingsError::UnknownProvider(_)
            | SettingsError::TimeoutOutOfRange(_)
            | SettingsError::FileUnreadable(_)
            | SettingsError::SaveFailed { .. }
            | SettingsError::NoSuchRule(_)
            | SettingsError::Rules(RulesError::Read { .. } | RulesError::Invalid { .. })
            | SettingsError::McpServer(_)
            | SettingsError::KeyringRemove(_) => {}
        }
        add(&error, format!("{error:?}"));
    }
    let folders = [
        FolderError::Missing("/home/ana/Taxes".into()),
        FolderError::NotAFolder("/home/ana/notes.txt".into()),
        FolderError::Unopenable {
            path: "/home/ana/Locked".into(),
            reason: "Permission denied (os error 13)".into(),
        },
        FolderError::WholeComputer,
        FolderError::HomeFolder,
        FolderError::OwnData,
        FolderError::CaseWithoutIdentity,
        FolderError::SessionFiles,
        FolderError::Session(SessionError::Busy),
        FolderError::NotSaved("No space left on device (os error 28)".into()),
    ];
    for error in &folders {
        match error {
            FolderError::Missing(_)
            | FolderError::NotAFolder(_)
            | FolderError::Unopenable { .. }
            | FolderError::WholeComputer
            | FolderError::HomeFolder
            | FolderError::OwnData
            | FolderError::CaseWithoutIdentity
            | FolderError::SessionFiles
            | FolderError::Session(_)
            | FolderError::NotSaved(_) => {}
        }
        add(error, format!("{error:?}"));
    }
    let rule_edits = [
        RuleEditError::UnknownAction("frobnicate".into()),
        RuleEditError::ScopeNotForAction("Downloading".into()),
        RuleEditError::AllowByFolder("Running commands".into()),
        RuleEditError::FolderMissing,
        RuleEditError::FolderNotInside,
        RuleEditError::FolderPattern,
        RuleEditError::FolderNotFound("Private".into()),
        RuleEditError::NotAFolder("notes.txt".into()),
        RuleEditError::CommandMissing,
        RuleEditError::CommandPattern,
        RuleEditError::SiteInvalid("exa mple".into()),
        RuleEditError::SiteMissing,
        RuleEditError::AlreadyThere("Never touch anything in Private".into()),
        RuleEditError::NoSuchRule("deny * \"Private/**\"".into()),
        RuleEditError::File(RulesError::Invalid {
            path: "/data/rules.toml".into(),
            detail: "TOML parse error at line 1, column 1".into(),
        }),
    ];
    for error in &rule_edits {
        match error {
            RuleEditError::UnknownAction(_)
            | RuleEditError::ScopeNotForAction(_)
            | RuleEditError::AllowByFolder(_)
            | RuleEditError::FolderMissing
            | RuleEditError::FolderNotInside
            | RuleEditError::FolderPattern
            | RuleEditError::FolderNotFound(_)
            | RuleEditError::NotAFolder(_)
            | RuleEditError::CommandMissing
            | RuleEditError::CommandPattern
            | RuleEditError::SiteInvalid(_)
            | RuleEditError::SiteMissing
            | RuleEditError::AlreadyThere(_)
            | RuleEditError::NoSuchRule(_)
            | RuleEditError::File(_) => {}
        }
        add(error, format!("{error:?}"));
    }
    // Settings → "Other agents on this computer": Connect / Disconnect.
    let connects = [
        ConnectError::NoHome,
        ConnectError::NoHook("/opt/askfirst/askfirst-hook".into()),
        ConnectError::Settings(InstallError::NoHome),
        ConnectError::Settings(InstallError::Io {
            what: "written",
            path: "/home/ana/.claude/settings.json".into(),
            source: io(13),
        }),
        ConnectError::Settings(InstallError::NotSettings {
            path: "/home/ana/.claude/settings.json".into(),
            why: "expected value at line 1 column 1".into(),
        }),
    ];
    for error in &connects {
        match error {
            ConnectError::NoHome
            | ConnectError::NoHook(_)
            | ConnectError::Settings(
                InstallError::NoHome | InstallError::Io { .. } | InstallError::NotSettings { .. },
            ) => {}
        }
        add(error, format!("{error:?}"));
    }
    let undo_errors = [
        UndoError::NotFound("6f1c".into()),
        UndoError::AlreadyUndone,
        UndoError::CannotUndo(askfirst_core::undo::words::command()),
        UndoError::TooOld("ab12".into()),
        UndoError::FolderGone("/home/ana/Taxes".into()),
        UndoError::PlaceTaken("notes.txt".into()),
        UndoError::Gone("notes.txt".into()),
        UndoError::GoneFromTrash("notes.txt".into()),
        UndoError::NotAFolder("Reports".into()),
        UndoError::Log("No space left on device (os error 28)".into()),
        UndoError::Failed("Permission denied (os error 13)".into()),
        UndoError::TaskStopped {
            undone: 2,
            total: 5,
            summary: "Move c.txt to d.txt".into(),
            why: Box::new(UndoError::PlaceTaken("c.txt".into())),
        },
    ];
    for error in &undo_errors {
        match error {
            UndoError::NotFound(_)
            | UndoError::AlreadyUndone
            | UndoError::CannotUndo(_)
            | UndoError::TooOld(_)
            | UndoError::FolderGone(_)
            | UndoError::PlaceTaken(_)
            | UndoError::Gone(_)
            | UndoError::GoneFromTrash(_)
            | UndoError::NotAFolder(_)
            | UndoError::Log(_)
            | UndoError::Failed(_)
            | UndoError::TaskStopped { .. } => {}
        }
        add(error, format!("{error:?}"));
    }
    all.push((
        "a failure inside Ask First".into(),
        askfirst_core::app::internal_error("task 12 panicked with message \"oops\""),
    ));
    all
}

#[test]
fn every_command_error_is_a_sentence_that_says_what_to_do_with_the_chain_in_the_detail() {
    for (what, error) in command_errors() {
        assert_worded_error(&what, &error.message);
        if let Some(detail) = &error.detail {
            assert!(!detail.trim().is_empty(), "{what}: an empty detail");
            assert!(
                !error.message.contains(detail.as_str()),
                "{what}: the detail is repeated in the message: {:?}",
                error.message
            );
        }
    }
}

#[test]
fn the_raw_chains_of_the_examples_reach_the_detail() {
    // Where the example carried a raw chain, the person can still find it, one click away.
    for (what, error) in command_errors() {
        let raw = what.clone();
        for marker in [
            "os error",
            "error sending request",
            "expected value",
            "parse error",
        ] {
            if raw.contains(marker) {
                let detail = error.detail.clone().unwrap_or_default();
                assert!(
                    detail.contains(marker),
                    "{what}: {marker:?} is in neither the message nor the detail ({detail:?})"
                );
            }
        }
    }
}

#[test]
fn every_error_code_is_reached_by_a_worded_error() {
    let reached: BTreeSet<String> = command_errors()
        .iter()
        .map(|(_, e)| format!("{:?}", e.code))
        .collect();
    for code in [
        ErrorCode::NotPending,
        ErrorCode::UnknownRun,
        ErrorCode::InvalidRequest,
        ErrorCode::Busy,
        ErrorCode::LogUnavailable,
        ErrorCode::ShuttingDown,
        ErrorCode::Storage,
        ErrorCode::ProviderSetup,
        ErrorCode::Internal,
    ] {
        let expected = match code {
            // Kept in the protocol for windows that know it; nothing in the core returns it
            // (stopping a run that ended is a quiet no-op).
            ErrorCode::UnknownRun => false,
            ErrorCode::NotPending
            | ErrorCode::InvalidRequest
            | ErrorCode::Busy
            | ErrorCode::LogUnavailable
            | ErrorCode::ShuttingDown
            | ErrorCode::Storage
            | ErrorCode::ProviderSetup
            | ErrorCode::Internal => true,
        };
        assert_eq!(
            reached.contains(&format!("{code:?}")),
            expected,
            "{code:?}: reached by a listed error"
        );
    }
}

#[test]
fn every_model_failure_mid_task_is_a_sentence_with_its_detail_apart() {
    for error in provider_errors() {
        let what = format!("{error:?}");
        let message = error.to_string();
        assert_worded_error(&what, &message);
        if let Some(detail) = error.detail() {
            assert!(!message.contains(&detail), "{what}: detail in the message");
        }
    }
}

#[test]
fn every_reason_a_call_did_not_run_is_a_plain_sentence() {
    for reason in super::wording::examples() {
        assert_plain_sentence(&format!("{reason:?}"), &person_text(&reason));
    }
}

#[test]
fn every_way_a_task_ends_badly_is_a_sentence_that_says_what_to_do() {
    let failures = [
        ("out of steps", wording::run_out_of_steps(30)),
        ("output limit", wording::run_output_limit()),
        (
            "kept asking",
            wording::run_kept_asking("Delete the folder Photos"),
        ),
        ("broke", wording::RUN_BROKE.to_owned()),
    ];
    for (what, message) in failures {
        assert_worded_error(what, &message);
    }
    for (what, message) in [
        ("stopped", wording::YOU_STOPPED),
        ("closed", wording::CLOSED_WHILE_WORKING),
        ("not saved", wording::UNRECORDED_RUN),
    ] {
        assert_plain_sentence(what, message);
    }
}

#[test]
fn every_way_ask_first_fails_to_start_is_a_sentence_with_its_detail_apart() {
    let all = [
        StartupError::AlreadyRunning {
            data_dir: "/home/me/.local/share/askfirst".into(),
        },
        StartupError::Config(ConfigError::NoDataDir),
        StartupError::Config(ConfigError::Timeout("soon".into())),
        StartupError::Config(ConfigError::Notify("sometimes".into())),
        StartupError::Config(ConfigError::UnknownProvider(
            askfirst_core::app::catalog::UnknownProvider("gpt".into()),
        )),
        StartupError::Build(BuildError::Folder {
            what: "create the data folder",
            path: "/read-only/askfirst".into(),
            source: io(30),
        }),
        StartupError::Build(BuildError::Provider(ProviderError::BadScenario {
            detail: "it has no turns.".into(),
        })),
        StartupError::Build(BuildError::FixedFolder {
            path: "/home/me".into(),
            source: askfirst_core::app::folder::FolderError::HomeFolder,
        }),
        StartupError::Window("Failed to initialize GTK".into()),
    ];
    for error in &all {
        match error {
            StartupError::AlreadyRunning { .. }
            | StartupError::Config(
                ConfigError::NoDataDir
                | ConfigError::Timeout(_)
                | ConfigError::Notify(_)
                | ConfigError::UnknownProvider(_),
            )
            | StartupError::Build(
                BuildError::Folder { .. }
                | BuildError::Provider(_)
                | BuildError::FixedFolder { .. },
            )
            | StartupError::Window(_) => {}
        }
        let what = format!("{error:?}");
        assert_worded_error(&what, &error.message());
        let detail = error.detail().unwrap_or_default();
        assert!(!detail.is_empty(), "{what}: no detail");
    }
}

#[tokio::test]
async fn an_mcp_server_that_cannot_start_says_so_in_a_sentence_with_its_detail_apart() {
    use askfirst_core::mcp::{McpClients, McpServerConfig, McpServerStatus, McpTimeouts};
    let server = |name: &str, command: &str, args: &[&str]| McpServerConfig {
        name: name.into(),
        command: command.into(),
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        env: Default::default(),
        trusted: false,
    };
    let clients = McpClients::with_timeouts(
        vec![
            server(
                "quits",
                "sh",
                &["-c", "echo 'missing API token' >&2; exit 3"],
            ),
            server("absent", "/nonexistent/askfirst-mcp-server", &[]),
            server("silent", "sleep", &["30"]),
            server("broken", "", &[]),
        ],
        McpTimeouts {
            start: Duration::from_secs(1),
            call: Duration::from_secs(1),
            retry_failed_start: Duration::from_secs(3),
        },
    );
    assert!(clients.tools().await.is_empty());
    let statuses = clients.statuses();
    assert_eq!(statuses.len(), 4);
    for state in statuses {
        let McpServerStatus::Failed {
            message, detail, ..
        } = &state.status
        else {
            panic!("{} did not fail: {:?}", state.name, state.status);
        };
        assert_worded_error(&state.name, message);
        if let Some(detail) = detail {
            assert!(
                !message.contains(detail.as_str()),
                "{}: detail in the message",
                state.name
            );
        }
    }
    clients.shutdown().await;
}

/// Whether `message` shows a catalogue key or a parameter left unfilled.
fn shows_a_key_or_a_gap(message: &str) -> bool {
    let keys = askfirst_core::i18n::keys(askfirst_core::i18n::Language::En);
    message.contains("{$")
        || message.contains("{ $")
        || keys
            .iter()
            .any(|key| message.split_whitespace().any(|word| word == key))
}

#[test]
fn every_error_is_worded_in_every_language() {
    use askfirst_core::i18n::{with_language, Language};
    let english = command_errors();
    for language in askfirst_core::i18n::LANGUAGES {
        let theirs = with_language(language, command_errors);
        assert_eq!(theirs.len(), english.len());
        for ((what, error), (_, in_english)) in theirs.iter().zip(&english) {
            let message = &error.message;
            assert!(!message.trim().is_empty(), "{language:?} {what}: empty");
            assert!(
                !shows_a_key_or_a_gap(message),
                "{language:?} {what}: a raw key or a gap: {message:?}"
            );
            assert_eq!(error.code, in_english.code, "{language:?} {what}");
            // The detail is technical: there in every language where it is in English.
            assert_eq!(
                error.detail.is_some(),
                in_english.detail.is_some(),
                "{language:?} {what}"
            );
        }
    }
    // The errors worded in app/codes.rs are said in each language, not left in English.
    let id = ApprovalId::new();
    let samples: Vec<Box<dyn Coded>> = vec![
        Box::new(ApprovalError::NotPending(id)),
        Box::new(ApprovalError::ShuttingDown),
        Box::new(SessionError::Unreadable("gone".into())),
        Box::new(HistoryError::Unreadable("gone".into())),
        Box::new(SettingsError::NoSuchRule("x".into())),
        Box::new(UndoError::AlreadyUndone),
        Box::new(UndoError::TaskStopped {
            undone: 2,
            total: 5,
            summary: "Move c.txt to d.txt".into(),
            why: Box::new(UndoError::PlaceTaken("c.txt".into())),
        }),
        Box::new(ConnectError::NoHook("/usr/bin/askfirst-hook".into())),
    ];
    for error in &samples {
        let en = error.message();
        for (language, mark) in [(Language::ZhCn, "。"), (Language::PtBr, ".")] {
            let said = with_language(language, || error.message());
            assert_ne!(said, en, "{language:?}: left in English");
            assert!(said.ends_with(mark), "{language:?}: {said}");
        }
    }
    assert_eq!(
        with_language(Language::PtBr, || ApprovalError::ShuttingDown.message()),
        "O Ask First está fechando, então ninguém foi consultado e a ação não foi feita. \
         Abra o Ask First de novo para continuar."
    );
    assert_eq!(
        with_language(Language::ZhCn, || ApprovalError::ShuttingDown.message()),
        "Ask First 正在关闭，所以没有询问任何人，操作也没有执行。请重新打开 Ask First 继续。"
    );
}
