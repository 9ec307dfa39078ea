//! Helpers: an event recorder and a runtime over a temporary workspace.

use askfirst_core::agent::{AgentRuntime, RuntimeConfig};
use askfirst_core::approvals::ApprovalRegistry;
use askfirst_core::provider::{Message, ModelTurn, Provider, ProviderError};
use askfirst_core::scripted::{Scenario, ScriptedProvider};

use askfirst_core::tools::{ToolSet, ToolSpec, Workspace};
use askfirst_core::EventSink;
use askfirst_protocol::{AgentEvent, ApprovalRequest, RunId, RunStatus};
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
            } => Some((*run_id, *status, message.clone())),
            _ => None,
        })
        .await
    }
}

pub struct Harness {
    pub dir: tempfile::TempDir,
    pub runtime: Arc<AgentRuntime>,
    pub events: Events,
    /// The conversation the model was sent at each step, in order.
    pub requests: Arc<Mutex<Vec<Vec<Message>>>>,
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
    ) -> Result<ModelTurn, ProviderError> {
        self.requests.lock().unwrap().push(messages.to_vec());
        self.inner.step(messages, tools).await
    }
}

/// A runtime playing `scenario` over a fresh temporary workspace.
pub fn harness(scenario_json: serde_json::Value, timeout: Duration) -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let events = Events::new();
    let registry = ApprovalRegistry::new(timeout, Arc::clone(&events.sink));
    let text = scenario_json.to_string();
    let requests = Arc::new(Mutex::new(Vec::new()));
    let recorded = Arc::clone(&requests);
    let config = RuntimeConfig {
        workspace: Workspace::open(dir.path()).unwrap(),
        max_steps: 10,
        provider: Arc::new(move || {
            let scenario = Scenario::parse(&text)?;
            let inner = ScriptedProvider::new("test script", &scenario);
            Ok(Arc::new(Recording {
                inner,
                requests: Arc::clone(&recorded),
            }) as Arc<dyn Provider>)
        }),
        tools: ToolSet::builtin(),
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
