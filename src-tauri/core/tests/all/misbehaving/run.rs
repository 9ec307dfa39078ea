//! A misbehaving service through the whole runtime: the run ends with exactly one
//! `RunFinished` (failed, with the provider's sentence) and the next task on the same runtime
//! works.

use super::fixtures::{settings, Api};
use super::server::{reply, serve, sse_head, trickle};
use crate::all::support::{Events, MemoryAudit};
use askfirst_core::agent::{AgentRuntime, RuntimeConfig};
use askfirst_core::approvals::{AnswerMode, ApprovalRegistry, RegistryConfig};
use askfirst_core::policy::{Policy, Rules};
use askfirst_core::provider::{Provider, ProviderError, ReplyLimit};
use askfirst_core::providers::http::MAX_LINE_BYTES;
use askfirst_core::tools::{ToolSet, Workspace};
use askfirst_protocol::{AgentEvent, RunStatus, SessionId};
use pretty_assertions::assert_eq;
use std::sync::Arc;
use std::time::Duration;

#[tokio::test]
async fn a_64_mb_line_fails_the_run_once_and_the_next_task_works() {
    for api in [Api::OpenAi, Api::Anthropic] {
        // The first request gets one endless line, every later one a good reply.
        let good = api.good("Done.").into_bytes();
        let server = serve(move |n, socket| {
            let good = good.clone();
            async move {
                if n == 0 {
                    let start = b"data: ".to_vec();
                    let line = std::iter::once(start).chain((0..1024).map(|_| vec![b'x'; 65536]));
                    trickle(socket, sse_head(), line, Duration::ZERO).await;
                } else {
                    reply(socket, sse_head(), good).await;
                }
            }
        })
        .await;
        let dir = tempfile::tempdir().unwrap();
        let events = Events::new();
        let audit = Arc::new(MemoryAudit::default());
        let registry = ApprovalRegistry::new(RegistryConfig {
            timeout: Duration::from_secs(60),
            mode: AnswerMode::Interactive,
            events: Arc::clone(&events.sink),
            audit: audit.clone(),
        });
        let http = settings(&server.base);
        let config = RuntimeConfig {
            workspace: Workspace::open(dir.path()).unwrap(),
            max_steps: 10,
            provider: Arc::new(move || {
                Ok(Arc::from(api.provider(http.clone())) as Arc<dyn Provider>)
            }),
            tools: ToolSet::builtin(),
            mcp: None,
            policy: Arc::new(Policy::new(Rules::default(), None)),
            rules_path: None,
            log: askfirst_core::audit::SessionLog::new(audit),
            session_id: SessionId::new(),
            sessions_dir: None,
            replay_events: Arc::clone(&events.sink),
            acp_limits: askfirst_core::acp::AcpLimits::default(),
            undo: None,
        };
        let runtime = AgentRuntime::new(
            tokio::runtime::Handle::current(),
            registry,
            Arc::clone(&events.sink),
            config,
        );
        let mut events = events;

        let first = runtime.start_run("Tidy up").unwrap();
        let (run_id, status, message) = events.run_finished().await;
        let expected = ProviderError::TooLarge {
            host: format!("127.0.0.1:{}", server.port),
            limit: ReplyLimit::Line {
                bytes: MAX_LINE_BYTES,
            },
        };
        assert_eq!(
            (run_id, status, message),
            (first.run_id, RunStatus::Failed, Some(expected.to_string())),
            "{api:?}"
        );

        let second = runtime.start_run("Try again").unwrap();
        let (run_id, status, _) = events.run_finished().await;
        assert_eq!(
            (run_id, status),
            (second.run_id, RunStatus::Completed),
            "{api:?}"
        );
        let finished: Vec<_> = events
            .all()
            .into_iter()
            .filter_map(|e| match e {
                AgentEvent::RunFinished { run_id, .. } => Some(run_id),
                _ => None,
            })
            .collect();
        assert_eq!(
            finished,
            vec![first.run_id, second.run_id],
            "one end per run"
        );
        assert!(
            events.all().iter().any(|e| matches!(e,
                AgentEvent::AssistantMessage { run_id, text } if *run_id == second.run_id && text == "Done.")),
            "{api:?}"
        );
    }
}
