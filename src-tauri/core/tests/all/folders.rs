//! The person's folder (issue 13): chosen in the window and remembered, per conversation (a
//! reopened conversation works in its own folder; one whose folder is gone says so), never Ask
//! First's own data folder, `ASKFIRST_WORKSPACE` winning, grants that stay in their folder,
//! and the welcome remembered in `settings.json`.

use askfirst_core::agent::{AgentRuntime, RunError, SessionError, SessionFolder};
use askfirst_core::app::folder::{check_folder, display_path};
use askfirst_core::app::{AppConfig, Backend, Environment, FolderError};
use askfirst_core::config::SettingsFile;
use askfirst_protocol::{AgentEvent, Decision, FolderView, RunStatus, SequencedEvent};
use pretty_assertions::assert_eq;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedReceiver;

/// A data folder, two folders of the person's, a scenario file, and the backend over them.
struct Place {
    _dir: tempfile::TempDir,
    data: PathBuf,
    a: PathBuf,
    b: PathBuf,
    scenario: PathBuf,
}

impl Place {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let (data, a, b) = (root.join("data"), root.join("Taxes"), root.join("Photos"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        let scenario = root.join("scenario.json");
        let place = Self {
            _dir: dir,
            data,
            a,
            b,
            scenario,
        };
        place.write_scenario("hello.txt");
        place
    }

    /// The scripted model writes `name` (read again at every task).
    fn write_scenario(&self, name: &str) {
        let turns = serde_json::json!({"turns": [
            {"say": "Writing.", "tool_calls": [
                {"name": "write_file", "arguments": {"path": name, "content": "hi\n"}}]},
            {"say": "Done."}
        ]});
        std::fs::write(&self.scenario, turns.to_string()).unwrap();
    }

    fn env(&self, extra: &[(&str, &str)]) -> Environment {
        let mut vars: HashMap<String, String> = HashMap::new();
        vars.insert("ASKFIRST_DATA_DIR".into(), self.data.display().to_string());
        vars.insert(
            "ASKFIRST_PROVIDER".into(),
            format!("scripted:{}", self.scenario.display()),
        );
        for (k, v) in extra {
            vars.insert((*k).to_owned(), (*v).to_owned());
        }
        Environment::fixed(vars)
    }

    fn config(&self, extra: &[(&str, &str)]) -> AppConfig {
        AppConfig::resolve(self.env(extra), None).unwrap()
    }

    fn backend(&self, extra: &[(&str, &str)]) -> Backend {
        Backend::build(self.config(extra), tokio::runtime::Handle::current()).unwrap()
    }

    fn settings_file(&self) -> SettingsFile {
        SettingsFile::load(&self.data.join("settings.json")).unwrap()
    }
}

/// Starts a task and answers every card with `decision` (`None`: return at the first card,
/// leaving it waiting); returns how the run ended and how many cards it asked.
async fn run_task(
    runtime: &Arc<AgentRuntime>,
    events: &mut UnboundedReceiver<SequencedEvent>,
    decision: Option<Decision>,
) -> (Option<RunStatus>, usize) {
    let started = {
        let runtime = Arc::clone(runtime);
        tokio::task::spawn_blocking(move || runtime.start_run("Write it down"))
            .await
            .unwrap()
    };
    let run_id = started.unwrap().run_id;
    let mut asked = 0;
    tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            match events.recv().await.unwrap().event {
                // A reopened session's replayed events come through the same channel.
                AgentEvent::ApprovalRequired(request) if request.run_id == run_id => {
                    asked += 1;
                    let Some(decision) = decision.clone() else {
                        return (None, asked);
                    };
                    let runtime = Arc::clone(runtime);
                    tokio::task::spawn_blocking(move || {
                        runtime.resolve_approval(request.approval_id, decision)
                    })
                    .await
                    .unwrap()
                    .unwrap();
                }
                AgentEvent::RunFinished {
                    status, run_id: id, ..
                } if id == run_id => return (Some(status), asked),
                _ => {}
            }
        }
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chosen_folder_is_used_by_the_next_task_and_remembered_for_the_next_launch() {
    let place = Place::new();
    let Backend {
        runtime,
        mut events,
        settings,
        ..
    } = place.backend(&[]);
    let demo = settings.folder_view(&runtime);
    assert!(demo.is_demo && !demo.missing && !demo.set_by_environment);
    let view = settings.choose_folder(&runtime, &place.a).unwrap();
    assert_eq!(
        view,
        FolderView {
            path: place.a.display().to_string(),
            display: place.a.display().to_string(),
            is_demo: false,
            set_by_environment: false,
            missing: false,
            change_starts_new_conversation: false,
        }
    );
    assert_eq!(place.settings_file().workspace, Some(place.a.clone()));
    let (status, asked) = run_task(&runtime, &mut events, Some(Decision::Approve)).await;
    assert_eq!((status, asked), (Some(RunStatus::Completed), 1));
    assert_eq!(
        std::fs::read_to_string(place.a.join("hello.txt")).unwrap(),
        "hi\n"
    );
    assert!(!place.data.join("Demo folder").join("hello.txt").exists());
    // The next launch starts in it.
    let config = place.config(&[]);
    assert_eq!(
        (config.workspace, config.workspace_is_demo),
        (place.a.clone(), false)
    );
    // Back to the demo: nothing saved means the demo folder.
    let view = settings.use_demo_folder(&runtime).unwrap();
    assert!(view.is_demo);
    assert_eq!(place.settings_file().workspace, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reopened_conversation_works_in_its_own_folder() {
    let place = Place::new();
    let Backend {
        runtime,
        mut events,
        settings,
        ..
    } = place.backend(&[]);
    settings.choose_folder(&runtime, &place.a).unwrap();
    let first = runtime.session_id();
    run_task(&runtime, &mut events, Some(Decision::Approve)).await;
    // Choosing another folder now starts a new conversation there; the first keeps its own.
    assert!(
        settings
            .folder_view(&runtime)
            .change_starts_new_conversation
    );
    settings.choose_folder(&runtime, &place.b).unwrap();
    assert_ne!(runtime.session_id(), first);
    place.write_scenario("second.txt");
    run_task(&runtime, &mut events, Some(Decision::Approve)).await;
    assert!(place.b.join("second.txt").exists());
    runtime.open_session(first).unwrap();
    assert_eq!(runtime.folder().path(), place.a.as_path());
    place.write_scenario("third.txt");
    run_task(&runtime, &mut events, Some(Decision::Approve)).await;
    assert!(place.a.join("third.txt").exists());
    assert!(!place.b.join("third.txt").exists());
    // A new conversation uses the folder chosen last.
    runtime.new_session().unwrap();
    assert_eq!(runtime.folder().path(), place.b.as_path());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conversation_whose_folder_is_gone_says_so_and_takes_another() {
    let place = Place::new();
    let Backend {
        runtime,
        mut events,
        settings,
        ..
    } = place.backend(&[]);
    settings.choose_folder(&runtime, &place.a).unwrap();
    let first = runtime.session_id();
    run_task(&runtime, &mut events, Some(Decision::Approve)).await;
    runtime.new_session().unwrap();
    std::fs::remove_dir_all(&place.a).unwrap();
    runtime.open_session(first).unwrap();
    let view = settings.folder_view(&runtime);
    assert!(view.missing && !view.change_starts_new_conversation);
    let refused = runtime.start_run("Write it down").unwrap_err();
    assert_eq!(refused, RunError::FolderGone(place.a.display().to_string()));
    assert_eq!(
        refused.to_string(),
        format!(
            "The folder this conversation works in, {}, is no longer there. Choose a folder \
             for it with \"Change…\" above the task box.",
            place.a.display()
        )
    );
    // Another folder for this same conversation.
    settings.choose_folder(&runtime, &place.b).unwrap();
    assert_eq!(runtime.session_id(), first);
    let (status, _) = run_task(&runtime, &mut events, Some(Decision::Approve)).await;
    assert_eq!(status, Some(RunStatus::Completed));
    assert!(place.b.join("hello.txt").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chosen_folder_that_is_gone_at_launch_is_said_and_nothing_runs_elsewhere() {
    let place = Place::new();
    let gone = place.a.join("Old");
    std::fs::create_dir_all(&place.data).unwrap();
    SettingsFile {
        workspace: Some(gone.clone()),
        ..SettingsFile::default()
    }
    .save(&place.data.join("settings.json"))
    .unwrap();
    let Backend {
        runtime, settings, ..
    } = place.backend(&[]);
    assert_eq!(
        runtime.folder(),
        SessionFolder::Gone {
            path: gone.clone(),
            demo: false
        }
    );
    assert!(settings.folder_view(&runtime).missing);
    assert_eq!(
        runtime.start_run("Write it down").unwrap_err(),
        RunError::FolderGone(gone.display().to_string())
    );
}

#[test]
fn the_data_folder_and_folders_that_hold_everything_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let home = root.join("home");
    let data = home.join(".local/share/askfirst");
    let demo = data.join("Demo folder");
    let docs = home.join("Documents");
    for folder in [&data.join("sessions"), &demo, &docs] {
        std::fs::create_dir_all(folder).unwrap();
    }
    std::fs::write(docs.join("notes.txt"), "x").unwrap();
    let check = |p: &Path| check_folder(p, &data, Some(&home)).map_err(|e| e.to_string());
    let own = FolderError::OwnData.to_string();
    assert_eq!(check(&data), Err(own.clone()));
    assert_eq!(check(&data.join("sessions")), Err(own.clone()));
    // A folder that holds the data folder (the agent could change it from there).
    assert_eq!(check(&home.join(".local")), Err(own.clone()));
    // The data folder by another spelling.
    assert_eq!(check(&data.join("sessions/..")), Err(own));
    assert_eq!(check(&home), Err(FolderError::HomeFolder.to_string()));
    assert_eq!(
        check(Path::new("/")),
        Err(FolderError::WholeComputer.to_string())
    );
    assert_eq!(
        check(&docs.join("notes.txt")),
        Err(format!(
            "That is a file, not a folder: {}. Choose a folder.",
            docs.join("notes.txt").display()
        ))
    );
    assert_eq!(
        check(&docs.join("Nope")),
        Err(format!(
            "The folder {} does not exist. Choose a folder that is there.",
            docs.join("Nope").display()
        ))
    );
    assert_eq!(check(&demo), Ok(demo.clone()));
    assert_eq!(check(&docs), Ok(docs.clone()));
    assert_eq!(display_path(&docs, Some(&home)), "~/Documents");
    assert_eq!(display_path(&root, Some(&home)), root.display().to_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn choosing_the_data_folder_changes_nothing() {
    let place = Place::new();
    let Backend {
        runtime, settings, ..
    } = place.backend(&[]);
    let before = settings.folder_view(&runtime);
    let refused = settings.choose_folder(&runtime, &place.data).unwrap_err();
    assert!(matches!(refused, FolderError::OwnData), "{refused:?}");
    assert_eq!(settings.folder_view(&runtime), before);
    assert_eq!(place.settings_file().workspace, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn askfirst_workspace_wins_over_the_chosen_folder_and_every_conversation_s() {
    let place = Place::new();
    // A conversation recorded in A, and A saved as the chosen folder.
    let first = {
        let Backend {
            runtime,
            mut events,
            settings,
            ..
        } = place.backend(&[]);
        settings.choose_folder(&runtime, &place.a).unwrap();
        run_task(&runtime, &mut events, Some(Decision::Approve)).await;
        runtime.session_id()
    };
    let b = place.b.display().to_string();
    let Backend {
        runtime,
        mut events,
        settings,
        ..
    } = place.backend(&[("ASKFIRST_WORKSPACE", &b)]);
    let view = settings.folder_view(&runtime);
    assert_eq!(
        (view.path.as_str(), view.set_by_environment),
        (b.as_str(), true)
    );
    let refused = settings.choose_folder(&runtime, &place.a).unwrap_err();
    assert!(matches!(
        refused,
        FolderError::Session(SessionError::FolderFixed)
    ));
    assert!(!settings.welcome().show);
    runtime.open_session(first).unwrap();
    assert_eq!(runtime.folder().path(), place.b.as_path());
    place.write_scenario("env.txt");
    run_task(&runtime, &mut events, Some(Decision::Approve)).await;
    assert!(place.b.join("env.txt").exists());
    assert!(!place.a.join("env.txt").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grant_given_in_one_folder_does_not_apply_in_another() {
    let place = Place::new();
    let Backend {
        runtime,
        mut events,
        settings,
        ..
    } = place.backend(&[]);
    settings.choose_folder(&runtime, &place.a).unwrap();
    let (_, asked) = run_task(&runtime, &mut events, Some(Decision::ApproveForSession)).await;
    assert_eq!(asked, 1);
    assert_eq!(runtime.grants().len(), 1);
    // In A the grant holds: the same write runs without a card.
    let (_, asked) = run_task(&runtime, &mut events, Some(Decision::Approve)).await;
    assert_eq!(asked, 0);
    settings.choose_folder(&runtime, &place.b).unwrap();
    assert!(runtime.grants().is_empty());
    // The same call (same tool, same arguments, hello.txt missing as it was in A) asks in B.
    let (status, asked) = run_task(&runtime, &mut events, Some(Decision::Approve)).await;
    assert_eq!((status, asked), (Some(RunStatus::Completed), 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_folder_cannot_change_while_a_task_runs() {
    let place = Place::new();
    let Backend {
        runtime,
        mut events,
        settings,
        ..
    } = place.backend(&[]);
    settings.choose_folder(&runtime, &place.a).unwrap();
    // The run waits at its card.
    run_task(&runtime, &mut events, None).await;
    let refused = settings.choose_folder(&runtime, &place.b).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "The agent is still working. Stop it or wait for it to finish first."
    );
    assert_eq!(runtime.folder().path(), place.a.as_path());
    assert_eq!(place.settings_file().workspace, Some(place.a.clone()));
    let pending = runtime.list_pending_approvals();
    runtime
        .resolve_approval(pending[0].approval_id, Decision::Approve)
        .unwrap();
    // The approved write happens in the folder the run started with.
    tokio::time::timeout(Duration::from_secs(30), async {
        while !place.a.join("hello.txt").exists() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_welcome_shows_until_it_is_done_and_is_remembered_in_the_settings_file() {
    let place = Place::new();
    let Backend { settings, .. } = place.backend(&[]);
    assert!(settings.welcome().show);
    assert!(!settings.finish_welcome().unwrap().show);
    assert!(place.settings_file().welcome_done);
    let Backend { settings, .. } = place.backend(&[]);
    assert!(!settings.welcome().show);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_data_folder_written_into_settings_by_hand_is_not_used() {
    let place = Place::new();
    std::fs::create_dir_all(place.data.join("sessions")).unwrap();
    SettingsFile {
        workspace: Some(place.data.join("sessions")),
        ..SettingsFile::default()
    }
    .save(&place.data.join("settings.json"))
    .unwrap();
    let Backend {
        runtime, settings, ..
    } = place.backend(&[]);
    let view = settings.folder_view(&runtime);
    assert!(view.is_demo && !view.missing, "{view:?}");
}

/// Found by a red team (round three): `ASKFIRST_WORKSPACE` was taken when it held Ask First's
/// data folder, which the welcome refuses. It is refused at start with the welcome's sentence;
/// a folder beside the data folder is still taken.
#[tokio::test]
async fn a_fixed_folder_that_holds_the_data_folder_is_refused_with_the_welcomes_sentence() {
    use askfirst_core::app::{AppConfig, Backend, BuildError, Environment};
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    std::fs::create_dir_all(root.path().join("work")).unwrap();
    let build = |workspace: &Path| {
        let vars: std::collections::HashMap<String, String> = [
            ("ASKFIRST_DATA_DIR", data.display().to_string()),
            ("ASKFIRST_WORKSPACE", workspace.display().to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
        let config = AppConfig::resolve(Environment::fixed(vars), None).unwrap();
        Backend::build(config, tokio::runtime::Handle::current())
    };
    match build(root.path()) {
        Err(BuildError::FixedFolder { source, .. }) => assert_eq!(
            askfirst_core::app::Worded::message(&source),
            askfirst_core::i18n::tr("folder-own_data", &[])
        ),
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("a folder holding the data folder was taken"),
    }
    assert!(build(&root.path().join("work")).is_ok());
}

/// Red team, round four: a folder that holds the desktop session's runtime folder
/// (`$XDG_RUNTIME_DIR`: the keyring's and the bus's sockets, Ask First's inbox) let the agent's
/// file tools move it out from under the sandbox's hiding place. It is refused with a
/// sentence (the runtime folder itself too); a folder inside it is not (gvfs, the portal). In
/// a test process of its own, whose runtime folder is a temporary one.
#[test]
fn a_folder_that_holds_the_sessions_runtime_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(top.join("a/rt/inside")).unwrap();
    super::support::ignored_test_in_child(
        "all::folders::a_folder_that_holds_the_runtime_folder_child",
        &[],
        |child| {
            child
                .env("XDG_RUNTIME_DIR", top.join("a/rt"))
                .env("ASKFIRST_TEST_TOP", &top);
        },
    );
}

#[test]
#[ignore = "run by a_folder_that_holds_the_sessions_runtime_folder_is_refused"]
fn a_folder_that_holds_the_runtime_folder_child() {
    let top = PathBuf::from(std::env::var_os("ASKFIRST_TEST_TOP").unwrap());
    let data = top.join("data");
    std::fs::create_dir_all(&data).unwrap();
    for refused in [top.join("a"), top.join("a/rt")] {
        assert!(
            matches!(
                check_folder(&refused, &data, None),
                Err(FolderError::SessionFiles)
            ),
            "{}",
            refused.display()
        );
    }
    assert!(check_folder(&top.join("a/rt/inside"), &data, None).is_ok());
}

/// The first hour (issue 41.2): a folder deleted or moved while the conversation was open was
/// not noticed: each step failed with the wrong reason ("is outside your work folder") and
/// cards were still offered. A card approved after its folder went away does nothing; the run
/// stops with a sentence that names the folder, and the conversation's folder is gone (the
/// window's line says so and offers another; no task starts there).
#[tokio::test]
async fn a_folder_that_goes_away_during_a_task_stops_it_and_is_said_gone() {
    use askfirst_protocol::ToolCallStatus;
    let place = super::place::Place::new();
    place.script(&[
        (
            "write_file",
            serde_json::json!({"path": "a.txt", "content": "a"}),
        ),
        ("list_directory", serde_json::json!({"path": "."})),
    ]);
    let (backend, mut events) = place.backend_with_events();
    let moved = place.ws.with_file_name("Taxes-moved");
    let (status, calls) = super::place::play_calls(&backend, &mut events, |_| {
        std::fs::rename(&place.ws, &moved).unwrap();
    })
    .await;
    assert_eq!(status, RunStatus::Failed);
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0].0, ToolCallStatus::Failed);
    assert!(calls[0].1.contains("is no longer there"), "{}", calls[0].1);
    assert!(!moved.join("a.txt").exists() && !place.ws.exists());
    assert!(matches!(
        backend.runtime.folder(),
        SessionFolder::Gone { .. }
    ));
    // It comes back: the folder is there again as it was, but the conversation waits for the
    // person to choose (a folder by that name may be another one).
    std::fs::rename(&moved, &place.ws).unwrap();
    assert!(backend.runtime.start_run("Again").is_err());
}

/// Issue 41.9: the demo folder is named in the person's language when it is first made
/// (the settings' language, else the desktop's), and one made before keeps its name and place
/// whatever the language is later.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_folder_is_named_in_the_language_in_force_when_it_is_made() {
    for (lang, name) in [
        ("pt_BR.UTF-8", "Pasta de demonstração"),
        ("zh_CN.UTF-8", "演示文件夹"),
        ("C", "Demo folder"),
    ] {
        let place = Place::new();
        let backend = place.backend(&[("LANG", lang)]);
        assert!(
            place.data.join(name).join("old-report.txt").is_file(),
            "{lang}"
        );
        for other in ["Pasta de demonstração", "演示文件夹", "Demo folder"] {
            assert_eq!(
                place.data.join(other).exists(),
                other == name,
                "{lang}: {other}"
            );
        }
        // The folder line and the welcome know it as the demo folder.
        let view = backend.settings.folder_view(&backend.runtime);
        assert!(view.is_demo, "{lang}");
        assert_eq!(view.path, place.data.join(name).display().to_string());
    }
    // Every catalogue's name is one folder name (else English's would be used).
    for language in askfirst_core::app::settings::LANGUAGES {
        assert_eq!(
            askfirst_core::app::settings::demo_folder_name(language),
            askfirst_core::i18n::tr_in(language, "demo-folder-name", &[])
        );
    }
    // The settings' language wins over the desktop's.
    let place = Place::new();
    std::fs::create_dir_all(&place.data).unwrap();
    std::fs::write(place.data.join("settings.json"), r#"{"language":"zh-CN"}"#).unwrap();
    drop(place.backend(&[("LANG", "pt_BR.UTF-8")]));
    assert!(place.data.join("演示文件夹").is_dir());
    // Made before in English: kept where it is, in every language, and still the demo folder.
    let place = Place::new();
    std::fs::create_dir_all(place.data.join("Demo folder")).unwrap();
    let backend = place.backend(&[("LANG", "pt_BR.UTF-8")]);
    assert!(!place.data.join("Pasta de demonstração").exists());
    assert_eq!(
        backend.settings.config().demo_folder(),
        place.data.join("Demo folder")
    );
    assert!(backend.settings.folder_view(&backend.runtime).is_demo);
}
