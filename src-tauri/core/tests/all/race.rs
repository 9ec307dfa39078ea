//! Thousands of approvals whose user answers, timeouts, run cancels and shutdown race at
//! random: exactly one outcome each, the "tool" runs iff approved, and every asked record has
//! exactly one decided record with that outcome.

use super::support::{registry, Events};
use askfirst_core::approvals::NewApproval;
use askfirst_core::audit::AuditRecord;
use askfirst_protocol::{AgentEvent, ApprovalId, Decision, Outcome, PolicyLayer, Risk, RunId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// xorshift64*: a small deterministic generator, so a failure can be replayed by its seed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const APPROVALS: usize = 10_000;
const RUNS: usize = 200;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_answers_give_exactly_one_outcome_each() {
    let seed = 0x5EED_1234_ABCD_0001;
    let mut rng = Rng(seed);
    let events = Events::new();
    // Short timeout, so timeouts race with answers arriving around the same moment.
    let (registry, audit) = registry(Duration::from_millis(40), &events);
    let runs: Vec<RunId> = (0..RUNS).map(|_| RunId::new()).collect();
    let ran: Arc<Mutex<HashMap<ApprovalId, usize>>> = Arc::default();
    let waited: Arc<Mutex<HashMap<ApprovalId, Outcome>>> = Arc::default();
    let answered: Arc<Mutex<HashMap<ApprovalId, Vec<Outcome>>>> = Arc::default();
    let mut tasks = Vec::new();

    for i in 0..APPROVALS {
        let run = runs[i % RUNS];
        let pending = registry
            .request(NewApproval {
                change: None,
                run_id: run,
                tool_call_id: format!("call_{}", i % 7), // providers reuse ids
                tool_name: "write_file".into(),
                arguments_json: format!("{{\"i\":{i}}}"),
                summary: format!("call {i}"),
                reason: "race".into(),
                risk: Risk::Medium,
                policy_layer: PolicyLayer::ToolDefault,
                grant_scope: None,
                preview: None,
                effects: Vec::new(),
                detail: None,
                reword: None,
                resumed: false,
                editable: Vec::new(),
                agent: None,
            })
            .unwrap();
        let id = pending.request().approval_id;
        let (ran, waited) = (Arc::clone(&ran), Arc::clone(&waited));
        tasks.push(tokio::spawn(async move {
            let outcome = pending.wait().await;
            if outcome.is_approved() {
                *ran.lock().unwrap().entry(id).or_default() += 1;
            }
            waited.lock().unwrap().insert(id, outcome);
        }));
        // Two answers per approval, each of a random kind at a random moment.
        for _ in 0..2 {
            let delay = Duration::from_millis(rng.below(60));
            let kind = rng.below(5);
            let registry = Arc::clone(&registry);
            let answered = Arc::clone(&answered);
            tasks.push(tokio::spawn(async move {
                tokio::time::sleep(delay).await;
                let result = match kind {
                    0 | 1 => registry.resolve(id, Decision::Approve),
                    2 => registry.resolve(id, Decision::Deny { note: None }),
                    3 => {
                        registry.cancel_run(run);
                        return;
                    }
                    _ => return, // no answer: may time out
                };
                if let Ok(outcome) = result {
                    answered
                        .lock()
                        .unwrap()
                        .entry(id)
                        .or_default()
                        .push(outcome);
                }
            }));
        }
    }
    // Shutdown races with whatever is still waiting.
    tokio::time::sleep(Duration::from_millis(30)).await;
    registry.shutdown();
    for task in tasks {
        task.await.unwrap();
    }

    let waited = waited.lock().unwrap();
    assert_eq!(
        waited.len(),
        APPROVALS,
        "every waiter got an outcome (seed {seed:#x})"
    );
    let mut resolved: HashMap<ApprovalId, Vec<Outcome>> = HashMap::new();
    for event in events.all() {
        if let AgentEvent::ApprovalResolved(r) = event {
            resolved.entry(r.approval_id).or_default().push(r.outcome);
        }
    }
    let mut decided: HashMap<ApprovalId, Vec<Outcome>> = HashMap::new();
    let mut asked = 0;
    for record in audit.all() {
        match record {
            AuditRecord::ApprovalAsked { .. } => asked += 1,
            AuditRecord::ApprovalDecided {
                approval_id,
                outcome,
                ..
            } => decided.entry(approval_id).or_default().push(outcome),
            _ => {}
        }
    }
    assert_eq!(asked, APPROVALS);
    let ran = ran.lock().unwrap();
    let answered = answered.lock().unwrap();
    let mut kinds: HashMap<&str, usize> = HashMap::new();
    for (id, outcome) in waited.iter() {
        assert_eq!(
            resolved.get(id),
            Some(&vec![outcome.clone()]),
            "one announced outcome"
        );
        assert_eq!(
            decided.get(id),
            Some(&vec![outcome.clone()]),
            "one decided record"
        );
        assert_eq!(
            ran.get(id).copied().unwrap_or(0),
            usize::from(outcome.is_approved())
        );
        if let Some(user) = answered.get(id) {
            assert_eq!(
                user,
                &vec![outcome.clone()],
                "at most one user answer took effect"
            );
        }
        let kind = match outcome {
            Outcome::Approved { .. } => "approved",
            Outcome::Denied { source, .. } => match source {
                askfirst_protocol::DenialSource::User => "denied",
                askfirst_protocol::DenialSource::Timeout => "timeout",
                _ => "other",
            },
            Outcome::Cancelled { cause } => match cause {
                askfirst_protocol::CancelCause::RunAborted => "cancelled",
                askfirst_protocol::CancelCause::AppShutdown => "shutdown",
            },
            Outcome::Changed { .. } => "changed",
        };
        *kinds.entry(kind).or_default() += 1;
    }
    // The race really raced: every way of ending happened.
    for kind in ["approved", "denied", "timeout", "cancelled"] {
        assert!(
            kinds.get(kind).copied().unwrap_or(0) > 0,
            "no {kind} in {kinds:?}"
        );
    }
    assert_eq!(registry.list_pending(None), vec![]);
}

/// Runs stopped at random moments (at once, while a card waits, right after an answer,
/// from another task) while their own ends race the Stop: each run ends with exactly one
/// `RunFinished`, and the next task can always start once the end is seen. (It found a Stop
/// arriving while a call was being described, which left that call's card waiting.)
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_stops_end_each_run_exactly_once() {
    use super::support::{harness, write_hello};
    use askfirst_protocol::RunStatus;
    let mut rng = Rng(0x5EED_0000_0012_0001);
    let mut h = harness(write_hello(), Duration::from_secs(120));
    let mut started = Vec::new();
    for _ in 0..RUNS {
        let run = h.runtime.start_run("Say hello").unwrap().run_id;
        started.push(run);
        match rng.below(4) {
            0 => {
                h.runtime.cancel_run(run);
            }
            1 => {
                h.events.approval_required().await;
                h.runtime.cancel_run(run);
            }
            2 => {
                let request = h.events.approval_required().await;
                let decision = if rng.below(2) == 0 {
                    Decision::Approve
                } else {
                    Decision::Deny { note: None }
                };
                let _ = h.runtime.resolve_approval(request.approval_id, decision);
                h.runtime.cancel_run(run);
            }
            _ => {
                let runtime = Arc::clone(&h.runtime);
                let yields = rng.below(50);
                tokio::spawn(async move {
                    for _ in 0..yields {
                        tokio::task::yield_now().await;
                    }
                    runtime.cancel_run(run);
                });
                // The run may wait for a card the Stop has not reached yet, or end first.
                let seen = h
                    .events
                    .next_matching(|e| match e {
                        AgentEvent::ApprovalRequired(r) => Some(Ok(r.approval_id)),
                        AgentEvent::RunFinished { run_id, status, .. } => {
                            Some(Err((*run_id, *status)))
                        }
                        _ => None,
                    })
                    .await;
                match seen {
                    Ok(approval_id) => {
                        let _ = h
                            .runtime
                            .resolve_approval(approval_id, Decision::Deny { note: None });
                    }
                    Err((ended, status)) => {
                        assert_eq!(ended, run);
                        assert!(matches!(
                            status,
                            RunStatus::Completed | RunStatus::Cancelled
                        ));
                        continue;
                    }
                }
            }
        }
        let (ended, status, _) = h.events.run_finished().await;
        assert_eq!(ended, run);
        assert!(matches!(
            status,
            RunStatus::Completed | RunStatus::Cancelled
        ));
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut ends: HashMap<RunId, usize> = HashMap::new();
    for event in h.events.all() {
        if let AgentEvent::RunFinished { run_id, .. } = event {
            *ends.entry(run_id).or_default() += 1;
        }
    }
    assert_eq!(ends.len(), started.len());
    assert!(ends.values().all(|n| *n == 1), "{ends:?}");
    assert!(h.runtime.list_pending_approvals().is_empty());
}
