//! Helpers: an event recorder and a runtime over a temporary workspace.

use askfirst_core::agent::{AgentRuntime, ProviderFactory, RuntimeConfig};
use askfirst_core::approvals::{AnswerMode, ApprovalRegistry, RegistryConfig};
use askfirst_core::audit::{AuditError, AuditRecord, AuditSink};
use askfirst_core::mcp::McpClients;
use askfirst_core::policy::{Policy, Rules};
use askfirst_core::provider::{DeltaSink, Message, ModelTurn, Provider, ProviderError};
use askfirst_core::scripted::{Scenario, ScriptedProvider};

use askfirst_core::tools::{ToolSet, ToolSpec, Workspace};
use askfirst_core::EventSink;
use askfirst_protocol::{
    AgentEvent, ApprovalRequest, NotRun, PolicyLayer, RunId, RunStatus, SessionId, ToolCallStatus,
};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};

/// Records every event and lets a test wait for the next ones.
pub struct Events {
    pub sink: EventSink,
    pub seen: Arc<Mutex<Vec<AgentEvent>>>,
    rx: UnboundedReceiver<AgentEvent>,
}

impl Events {
    pub fn new() -> Self {
        let (tx, rx) = unbounded_channel();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&seen);
        let sink: EventSink = Arc::new(move |event: AgentEvent| {
            recorded.lock().unwrap().push(event.clone());
            let _ = tx.send(event);
        });
        Self { sink, seen, rx }
    }

    pub fn all(&self) -> Vec<AgentEvent> {
        self.seen.lock().unwrap().clone()
    }

    /// Waits for the next event matching `pick`, skipping others.
    pub async fn next_matching<T>(&mut self, mut pick: impl FnMut(&AgentEvent) -> Option<T>) -> T {
        loop {
            let event = tokio::time::timeout(Duration::from_secs(30), self.rx.recv())
                .await
                .expect("timed out waiting for an event")
                .expect("event channel closed");
            if let Some(found) = pick(&event) {
                return found;
            }
        }
    }

    pub async fn approval_required(&mut self) -> ApprovalRequest {
        self.next_matching(|e| match e {
            AgentEvent::ApprovalRequired(r) => Some(r.clone()),
            _ => None,
        })
        .await
    }

    pub async fn run_finished(&mut self) -> (RunId, RunStatus, Option<String>) {
        self.next_matching(|e| match e {
            AgentEvent::RunFinished {
                run_id,
                status,
                message,
                ..
            } => Some((*run_id, *status, message.clone())),
            _ => None,
        })
        .await
    }
}

/// What a test compares of one `ToolCallFinished` event.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    /// The provider's id for the call.
    pub tool_call_id: String,
    /// How it ended.
    pub status: ToolCallStatus,
    /// Which policy layer decided, if one did.
    pub policy_layer: Option<PolicyLayer>,
    /// What the person is told of it.
    pub output: String,
    /// Why it did not run, as a fact, if it did not.
    pub not_run: Option<NotRun>,
}

/// Every `ToolCallFinished` in `events`, in order.
pub fn finished(events: &[AgentEvent]) -> Vec<Finished> {
    events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ToolCallFinished {
                tool_call_id,
                status,
                policy_layer,
                output,
                not_run,
                ..
            } => Some(Finished {
                tool_call_id: tool_call_id.clone(),
                status: *status,
                policy_layer: *policy_layer,
                output: output.clone(),
                not_run: not_run.clone(),
            }),
            _ => None,
        })
        .collect()
}

/// How each tool call in `events` ended, in order.
pub fn finished_statuses(events: &[AgentEvent]) -> Vec<ToolCallStatus> {
    finished(events).into_iter().map(|f| f.status).collect()
}

/// How each tool call in `events` ended and what the person is told of it, in order.
pub fn finished_outputs(events: &[AgentEvent]) -> Vec<(ToolCallStatus, String)> {
    finished(events)
        .into_iter()
        .map(|f| (f.status, f.output))
        .collect()
}

/// An audit sink that keeps records in memory and can be made to fail.
#[derive(Default)]
pub struct MemoryAudit {
    pub records: Mutex<Vec<AuditRecord>>,
    pub failing: std::sync::atomic::AtomicBool,
}

impl AuditSink for MemoryAudit {
    fn append(&self, record: &AuditRecord) -> Result<(), AuditError> {
        if self.failing.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(AuditError::Write {
                path: "memory".into(),
                source: std::io::Error::other("disk full"),
            });
        }
        self.records.lock().unwrap().push(record.clone());
        Ok(())
    }
}

impl MemoryAudit {
    pub fn all(&self) -> Vec<AuditRecord> {
        self.records.lock().unwrap().clone()
    }

    /// The outcomes of the `approval_decided` records, in order.
    pub fn decided_outcomes(&self) -> Vec<askfirst_protocol::Outcome> {
        self.all()
            .into_iter()
            .filter_map(|r| match r {
                AuditRecord::ApprovalDecided { outcome, .. } => Some(outcome),
                _ => None,
            })
            .collect()
    }
}

/// A registry over an in-memory audit log.
pub fn registry(timeout: Duration, events: &Events) -> (Arc<ApprovalRegistry>, Arc<MemoryAudit>) {
    let audit = Arc::new(MemoryAudit::default());
    let registry = ApprovalRegistry::new(RegistryConfig {
        timeout,
        mode: AnswerMode::Interactive,
        events: events.sink.clone(),
        audit: audit.clone(),
    });
    (registry, audit)
}

pub struct Harness {
    pub dir: tempfile::TempDir,
    pub runtime: Arc<AgentRuntime>,
    pub events: Events,
    /// The conversation the model was sent at each step, in order.
    pub requests: Arc<Mutex<Vec<Vec<Message>>>>,
    pub audit: Arc<MemoryAudit>,
    pub policy: Arc<Policy>,
}

/// A scripted provider that records what it is sent.
struct Recording {
    inner: ScriptedProvider,
    requests: Arc<Mutex<Vec<Vec<Message>>>>,
}

#[async_trait::async_trait]
impl Provider for Recording {
    fn display_name(&self) -> String {
        self.inner.display_name()
    }
    async fn step(
        &self,
        messages: &[Message],
        tools: &[ToolSpec],
        deltas: &DeltaSink<'_>,
    ) -> Result<ModelTurn, ProviderError> {
        self.requests.lock().unwrap().push(messages.to_vec());
        self.inner.step(messages, tools, deltas).await
    }
}

/// A runtime playing `scenario` over a fresh temporary workspace.
pub fn harness(scenario_json: serde_json::Value, timeout: Duration) -> Harness {
    harness_with(
        scenario_json,
        timeout,
        Rules::default(),
        AnswerMode::Interactive,
    )
}

/// A runtime with the given rules and answer mode.
pub fn harness_with(
    scenario_json: serde_json::Value,
    timeout: Duration,
    rules: Rules,
    mode: AnswerMode,
) -> Harness {
    let dir = tempfile::tempdir().unwrap();
    harness_in(dir, scenario_json, timeout, rules, mode, None)
}

/// A runtime over the workspace `dir` that also offers the tools of `mcp`.
pub fn harness_in(
    dir: tempfile::TempDir,
    scenario_json: serde_json::Value,
    timeout: Duration,
    rules: Rules,
    mode: AnswerMode,
    mcp: Option<Arc<McpClients>>,
) -> Harness {
    harness_tools(
        dir,
        scenario_json,
        timeout,
        rules,
        mode,
        mcp,
        ToolSet::builtin(),
    )
}

/// A runtime playing `scenario` that offers the built-in tools and `extra`.
pub fn harness_with_tool(
    scenario_json: serde_json::Value,
    timeout: Duration,
    extra: Arc<dyn askfirst_core::tools::Tool>,
) -> Harness {
    let mut tools = ToolSet::builtin();
    tools.add(extra);
    let dir = tempfile::tempdir().unwrap();
    harness_tools(
        dir,
        scenario_json,
        timeout,
        Rules::default(),
        AnswerMode::Interactive,
        None,
        tools,
    )
}

fn harness_tools(
    dir: tempfile::TempDir,
    scenario_json: serde_json::Value,
    timeout: Duration,
    rules: Rules,
    mode: AnswerMode,
    mcp: Option<Arc<McpClients>>,
    tools: ToolSet,
) -> Harness {
    let text = scenario_json.to_string();
    let requests = Arc::new(Mutex::new(Vec::new()));
    let recorded = Arc::clone(&requests);
    let provider: ProviderFactory = Arc::new(move || {
        let scenario = Scenario::parse(&text)?;
        let inner = ScriptedProvider::new("test script", &scenario);
        Ok(Arc::new(Recording {
            inner,
            requests: Arc::clone(&recorded),
        }) as Arc<dyn Provider>)
    });
    harness_parts(
        dir,
        provider,
        requests,
        timeout,
        rules,
        mode,
        mcp,
        tools,
        askfirst_core::acp::AcpLimits::default(),
    )
}

/// A runtime whose runs another agent does (set it with [`AgentRuntime::set_agent`]), within
/// `limits`, with `rules`; its own model is never asked.
pub fn harness_acp(limits: askfirst_core::acp::AcpLimits, rules: Rules) -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let provider: ProviderFactory = Arc::new(|| {
        let scenario = Scenario::parse(r#"{"turns": []}"#)?;
        Ok(Arc::new(ScriptedProvider::new("unused", &scenario)) as Arc<dyn Provider>)
    });
    harness_parts(
        dir,
        provider,
        Arc::new(Mutex::new(Vec::new())),
        Duration::from_secs(120),
        rules,
        AnswerMode::Interactive,
        None,
        ToolSet::builtin(),
        limits,
    )
}

/// A runtime whose every run is given `provider` (one value shared by all runs, so it can
/// behave differently from one step to the next).
pub fn harness_with_provider(provider: Arc<dyn Provider>) -> Harness {
    let dir = tempfile::tempdir().unwrap();
    harness_parts(
        dir,
        Arc::new(move || Ok(Arc::clone(&provider))),
        Arc::new(Mutex::new(Vec::new())),
        Duration::from_secs(120),
        Rules::default(),
        AnswerMode::Interactive,
        None,
        ToolSet::builtin(),
        askfirst_core::acp::AcpLimits::default(),
    )
}

#[allow(clippy::too_many_arguments)]
fn harness_parts(
    dir: tempfile::TempDir,
    provider: ProviderFactory,
    requests: Arc<Mutex<Vec<Vec<Message>>>>,
    timeout: Duration,
    rules: Rules,
    mode: AnswerMode,
    mcp: Option<Arc<McpClients>>,
    tools: ToolSet,
    acp_limits: askfirst_core::acp::AcpLimits,
) -> Harness {
    let events = Events::new();
    let audit = Arc::new(MemoryAudit::default());
    let registry = ApprovalRegistry::new(RegistryConfig {
        timeout,
        mode,
        events: Arc::clone(&events.sink),
        audit: audit.clone(),
    });
    let policy = Arc::new(Policy::new(rules, None));
    let config = RuntimeConfig {
        workspace: Workspace::open(dir.path()).unwrap(),
        max_steps: 10,
        provider,
        tools,
        mcp,
        policy: Arc::clone(&policy),
        rules_path: None,
        log: askfirst_core::audit::SessionLog::new(audit.clone()),
        session_id: SessionId::new(),
        sessions_dir: None,
        replay_events: Arc::clone(&events.sink),
        acp_limits,
        undo: None,
    };
    let runtime = AgentRuntime::new(
        tokio::runtime::Handle::current(),
        registry,
        Arc::clone(&events.sink),
        config,
    );
    Harness {
        dir,
        runtime,
        events,
        requests,
        audit,
        policy,
    }
}

pub fn write_hello() -> serde_json::Value {
    serde_json::json!({"turns": [
        {"say": "I will write hello.txt.", "tool_calls": [
            {"name": "write_file", "arguments": {"path": "hello.txt", "content": "Hello from Ask First\n"}}
        ]},
        {"say": "Finished."}
    ]})
}

/// A `sleep` duration no other process on the machine uses ("1000.<n><pid>" seconds), so a
/// test can find a command's processes from outside by their command line, whatever process
/// ids they see inside a PID namespace.
pub fn unique_sleep() -> String {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("1000.{n}0{}", std::process::id())
}

/// How many live processes (not zombies) have `needle` in their command line (arguments
/// joined by spaces), this test process left aside.
pub fn processes_with(needle: &str) -> usize {
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.bytes().all(|b| b.is_ascii_digit()) && name != me
        })
        .filter(|e| {
            let zombie = std::fs::read_to_string(e.path().join("stat")).map_or(true, |stat| {
                stat.rsplit_once(") ")
                    .is_none_or(|(_, rest)| rest.starts_with('Z'))
            });
            let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            !zombie && cmdline.contains(needle)
        })
        .count()
}

/// Waits (up to 20 s) until no process has `needle` in its command line; false if some stay.
pub async fn all_gone(needle: &str) -> bool {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while processes_with(needle) > 0 {
        if std::time::Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    true
}

/// Runs the test `test` (its whole path, `all::…`) alone in a child process of this test
/// binary with the variable `var` set (the child test does its work only then: the language it
/// sets is the whole process's, and the other tests read English), and fails unless it passed
/// and printed "child: checked".
pub fn in_a_child_process(test: &str, var: &str) {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--nocapture"])
        .env(var, "1")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && said.contains("1 passed"),
        "{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("child: checked"), "{said}");
}

/// Runs the ignored test `test` (its whole path, `all::…`) alone in a child process of this
/// test binary, started through `wrapper` when given (`setpriv --reuid=…`, as another user)
/// and set up by `configure` (its environment, its working folder), and fails unless it
/// passed. For a check that needs the whole process (an environment read once, another user).
pub fn ignored_test_in_child(
    test: &str,
    wrapper: &[&str],
    configure: impl FnOnce(&mut std::process::Command),
) {
    let exe = std::env::current_exe().unwrap();
    let mut child = match wrapper.split_first() {
        Some((program, args)) => {
            let mut c = std::process::Command::new(program);
            c.args(args).arg(&exe);
            c
        }
        None => std::process::Command::new(&exe),
    };
    child.args(["--exact", test, "--ignored", "--test-threads=1"]);
    configure(&mut child);
    let out = child.output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && said.contains("1 passed"),
        "{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
