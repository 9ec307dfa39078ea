//! The fixture of the tests that drive the whole backend over a person's folder with the
//! scripted model (`undo`, `undo_attack`, `card_truth`): the folders and the scenario
//! (`Place`), a backend built on them whose events the test reads, a task played to its end
//! with every card approved (`play`, `play_calls`, `run_task`, `Place::run`), Activity read
//! and undone, and the trash cases run in a process of their own (`in_a_trash_of_its_own`).

use askfirst_core::app::{AppConfig, Backend, Environment};
use askfirst_core::undo::UndoError;
use askfirst_protocol::{
    ActivityEntry, AgentEvent, ApprovalRequest, Decision, RunId, RunStatus, SequencedEvent,
    ToolCallStatus, UndoResponse,
};
use serde_json::json;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedReceiver;

/// The task every run of these tests is started with (and so the conversation's name).
pub const TASK: &str = "Tidy up";

/// A data folder, the person's folder and a scenario file.
pub struct Place {
    _dir: tempfile::TempDir,
    pub data: PathBuf,
    pub ws: PathBuf,
    scenario: PathBuf,
}

impl Place {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let (data, ws) = (root.join("data"), root.join("Taxes"));
        std::fs::create_dir_all(&ws).unwrap();
        std::fs::create_dir_all(&data).unwrap();
        Self {
            _dir: dir,
            scenario: root.join("scenario.json"),
            data,
            ws,
        }
    }

    /// The model makes these calls (`[name, arguments]`), one per turn, then says it is done.
    pub fn script(&self, calls: &[(&str, serde_json::Value)]) {
        let mut turns: Vec<_> = calls
            .iter()
            .map(|(name, arguments)| {
                json!({"say": "Working.", "tool_calls": [{"name": name, "arguments": arguments}]})
            })
            .collect();
        turns.push(json!({"say": "Done."}));
        self.script_turns(json!(turns));
    }

    /// The model plays these turns (a JSON array of the scenario's turns), one per model call.
    pub fn script_turns(&self, turns: serde_json::Value) {
        std::fs::write(&self.scenario, json!({ "turns": turns }).to_string()).unwrap();
    }

    /// The backend over these folders, with the scripted model playing the scenario.
    pub fn backend(&self) -> Backend {
        let mut vars: HashMap<String, String> = HashMap::new();
        vars.insert("ASKFIRST_DATA_DIR".into(), self.data.display().to_string());
        vars.insert("ASKFIRST_WORKSPACE".into(), self.ws.display().to_string());
        vars.insert(
            "ASKFIRST_PROVIDER".into(),
            format!("scripted:{}", self.scenario.display()),
        );
        let config = AppConfig::resolve(Environment::fixed(vars), None).unwrap();
        Backend::build(config, tokio::runtime::Handle::current()).unwrap()
    }

    /// The backend, and its events, taken for the test to read (`play`).
    pub fn backend_with_events(&self) -> (Backend, UnboundedReceiver<SequencedEvent>) {
        let mut backend = self.backend();
        let events = std::mem::replace(
            &mut backend.events,
            tokio::sync::mpsc::unbounded_channel().1,
        );
        (backend, events)
    }

    /// Scripts `calls` (as `script`), plays the task on a new backend with every card approved
    /// (`run_task`), and returns the backend, how the run ended and each card's effects.
    pub async fn run(
        &self,
        calls: &[(&str, serde_json::Value)],
    ) -> (Backend, RunStatus, Vec<Vec<String>>) {
        self.script(calls);
        let (backend, mut events) = self.backend_with_events();
        let (status, effects) = run_task(&backend, &mut events).await;
        (backend, status, effects)
    }

    pub fn file(&self, name: &str) -> PathBuf {
        self.ws.join(name)
    }

    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.file(name)).unwrap()
    }
}

/// Starts the task `TASK` and plays its run to the end (60 s at most): for every card of the
/// run, `before_approving(&request)` and then Approve, as the person would; every other event
/// of the run goes to `seen` (with the run's id, to tell the run's own events). Returns how the
/// run ended.
pub async fn play(
    backend: &Backend,
    events: &mut UnboundedReceiver<SequencedEvent>,
    mut before_approving: impl FnMut(&ApprovalRequest),
    mut seen: impl FnMut(RunId, &AgentEvent),
) -> RunStatus {
    let runtime = Arc::clone(&backend.runtime);
    let run_id = tokio::task::spawn_blocking(move || runtime.start_run(TASK).unwrap())
        .await
        .unwrap()
        .run_id;
    tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            match events.recv().await.unwrap().event {
                AgentEvent::ApprovalRequired(request) if request.run_id == run_id => {
                    before_approving(&request);
                    let runtime = Arc::clone(&backend.runtime);
                    tokio::task::spawn_blocking(move || {
                        runtime.resolve_approval(request.approval_id, Decision::Approve)
                    })
                    .await
                    .unwrap()
                    .unwrap();
                }
                AgentEvent::RunFinished {
                    status, run_id: id, ..
                } if id == run_id => return status,
                event => seen(run_id, &event),
            }
        }
    })
    .await
    .unwrap()
}

/// Plays the run as `play` does, and returns how it ended and how each tool call of the run
/// ended, in order: (status, output).
pub async fn play_calls(
    backend: &Backend,
    events: &mut UnboundedReceiver<SequencedEvent>,
    before_approving: impl FnMut(&ApprovalRequest),
) -> (RunStatus, Vec<(ToolCallStatus, String)>) {
    let mut calls = Vec::new();
    let status = play(backend, events, before_approving, |run_id, event| {
        if let AgentEvent::ToolCallFinished {
            status,
            run_id: id,
            output,
            ..
        } = event
        {
            if *id == run_id {
                calls.push((*status, output.clone()));
            }
        }
    })
    .await;
    (status, calls)
}

/// Starts a task, approves every card, and returns how it ended and the cards' effects.
pub async fn run_task(
    backend: &Backend,
    events: &mut UnboundedReceiver<SequencedEvent>,
) -> (RunStatus, Vec<Vec<String>>) {
    let mut effects = Vec::new();
    let status = play(
        backend,
        events,
        |request| effects.push(request.effects.clone()),
        |_, _| {},
    )
    .await;
    (status, effects)
}

/// Activity's entries, newest first (every conversation named `TASK`).
pub fn list(backend: &Backend) -> Vec<ActivityEntry> {
    backend.activity.list(&|_| TASK.to_owned())
}

/// The entry of the change to exactly the one path `name`.
pub fn entry_of(entries: &[ActivityEntry], name: &str) -> ActivityEntry {
    entries
        .iter()
        .find(|e| e.paths == [name.to_owned()])
        .unwrap()
        .clone()
}

/// Undo of one change, as the window asks it (`confirmed`: the person said yes to losing
/// later changes).
pub fn undo(
    backend: &Backend,
    entry: &ActivityEntry,
    confirmed: bool,
) -> Result<UndoResponse, UndoError> {
    backend
        .activity
        .undo_change(entry.session_id, &entry.id, confirmed)
}

/// Runs the ignored test `test` (its whole path, `all::…`) alone in a child process of this
/// test binary, with a trash of its own (`XDG_DATA_HOME` a fresh folder) and
/// `ASKFIRST_TEST_TRASH` set to `marker` (the test does nothing without it), and fails unless
/// it passed. The trash lives under `XDG_DATA_HOME`, which every test of this process shares,
/// so the cases that use it run apart (as `tools_builtin` does).
pub fn in_a_trash_of_its_own(test: &str, marker: &str) {
    let data = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            test,
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("ASKFIRST_TEST_TRASH", marker)
        .env("XDG_DATA_HOME", data.path().join("share"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
