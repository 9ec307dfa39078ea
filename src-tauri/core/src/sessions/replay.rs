//! Rebuilding a past session from its log: the conversation to continue (every tool call
//! answered), and the transcript to show (runs and calls that never ended are ended, saying
//! only what the log shows).

use crate::agent::wording::{self, person_text};
use crate::audit::{AuditRecord, LogContents};
use crate::provider::Message;
use askfirst_protocol::ToolCallStatus;
use askfirst_protocol::{
    AgentEvent, ApprovalId, CancelCause, NotRun, RunId, RunStatus, ToolCallId,
};
use std::collections::{HashMap, HashSet};

/// A past session as its log tells it.
pub struct Replay {
    /// The conversation to continue, every tool call with exactly one result.
    pub conversation: Vec<Message>,
    /// The transcript's events, in order, every run and call ended.
    pub events: Vec<AgentEvent>,
    /// The session's title (its first task, shortened), if it has one.
    pub title: Option<String>,
    /// The folder the session worked in last and whether it is the demo folder; `None` for a
    /// log written before folders were recorded.
    pub folder: Option<(std::path::PathBuf, bool)>,
    /// Who did the work last: another agent hosted over ACP, or (`None`) Ask First's own
    /// ([`AuditRecord::AgentChosen`]).
    pub agent: Option<crate::acp::AcpAgent>,
    /// The model's last turn, when the log ends with calls of it still without a result (Ask
    /// First closed or was killed while they waited or ran); `None` otherwise.
    pub open_turn: Option<OpenTurn>,
}

/// A model turn whose calls were not all answered when the log ends: what a resumed run
/// ([`crate::agent::AgentRuntime::resume_interrupted`]) goes on from.
#[derive(Debug, Clone)]
pub struct OpenTurn {
    /// The run the turn belongs to (the log's last `RunStarted`).
    pub run_id: RunId,
    /// The task that run was given.
    pub task: String,
    /// The conversation up to and with the turn and the results its calls already have;
    /// every earlier call answered ([`answer_unanswered`]).
    pub conversation: Vec<Message>,
    /// The turn's calls without a result, in the model's order.
    pub calls: Vec<crate::provider::ToolCall>,
    /// Those of `calls` that had started running and may have done their work in the folder
    /// (not a command tried on a copy whose changes still waited for an answer).
    pub started: HashSet<String>,
}

/// Reads a session's log: the messages (answered where the log has no result), the events
/// (ended where the log has no end) and the title.
pub fn replay(contents: LogContents) -> Replay {
    let mut conversation = Vec::new();
    let mut events = Vec::new();
    let mut facts = LogFacts {
        // A damaged line is a part of the log that is missing too.
        incomplete: !contents.warnings.is_empty(),
        ..LogFacts::default()
    };
    let mut asked = HashMap::new();
    let mut folder = None;
    let mut agent = None;
    let mut approved = HashMap::new();
    let mut ran = RanFacts::default();
    for record in contents.records {
        match serde_json::from_value::<AuditRecord>(record) {
            Ok(AuditRecord::Message { message, .. }) => conversation.push(message),
            Ok(AuditRecord::Event { event, .. }) => {
                if let AgentEvent::ToolCallStarted {
                    run_id,
                    tool_call_id,
                } = &event
                {
                    ran.started(*run_id, tool_call_id);
                }
                events.push(event);
            }
            Ok(AuditRecord::Unrecorded { .. }) => facts.incomplete = true,
            Ok(AuditRecord::FolderChosen {
                folder: path, demo, ..
            }) => folder = Some((path, demo)),
            Ok(AuditRecord::AgentChosen {
                agent: id,
                name,
                command,
                ..
            }) => {
                agent = match (id, name, command) {
                    (Some(id), Some(name), Some(command)) if !command.is_empty() => {
                        Some(crate::acp::AcpAgent { id, name, command })
                    }
                    _ => None,
                }
            }
            Ok(AuditRecord::ApprovalAsked {
                approval_id,
                run_id,
                tool_call_id,
                ..
            }) => {
                ran.asked(approval_id, run_id, &tool_call_id);
                asked.insert(approval_id, (run_id, ToolCallId(tool_call_id)));
            }
            Ok(AuditRecord::ApprovalDecided {
                approval_id,
                outcome,
                ..
            }) => {
                ran.decided(approval_id, outcome.is_approved());
                approved.insert(approval_id, outcome.is_approved());
            }
            Ok(AuditRecord::PolicyDecided {
                run_id,
                tool_call_id,
                allowed,
                ..
            }) => {
                facts
                    .may_run
                    .insert((run_id, ToolCallId(tool_call_id)), allowed);
            }
            // Records that do not shape the transcript, and kinds this version does not know.
            Ok(_) | Err(_) => {}
        }
    }
    for (approval_id, call) in asked {
        if let Some(approved) = approved.get(&approval_id) {
            facts.may_run.insert(call, *approved);
        }
    }
    let open_turn = open_turn(&conversation, &events, &ran);
    let conversation = answer_unanswered(conversation);
    let title = conversation.iter().find_map(|m| match m {
        Message::User { text } => Some(super::shorten(text, super::TITLE_CHARS)),
        _ => None,
    });
    Replay {
        folder,
        agent,
        events: replayable(events, &facts),
        conversation,
        title,
        open_turn,
    }
}

/// Which calls may have done their work in the folder, as far as the log tells: a call that
/// started running may have — unless it started on a copy of the folder (a command tried
/// first: its changes then wait on a card asked *after* it started) and that card was not
/// approved, so nothing of it reached the folder.
#[derive(Default)]
struct RanFacts {
    /// Each call that started, and whether it may have changed the folder.
    started: HashMap<(RunId, String), bool>,
    /// The cards asked after their call started (a tried command's changes), by approval.
    changes_asked: HashMap<ApprovalId, (RunId, String)>,
}

impl RanFacts {
    fn started(&mut self, run: RunId, call: &str) {
        self.started.insert((run, call.to_owned()), true);
    }

    fn asked(&mut self, approval: ApprovalId, run: RunId, call: &str) {
        let key = (run, call.to_owned());
        if let Some(may_have) = self.started.get_mut(&key) {
            // It ran on a copy; the folder changes only once this card is approved.
            *may_have = false;
            self.changes_asked.insert(approval, key);
        }
    }

    fn decided(&mut self, approval: ApprovalId, approved: bool) {
        if let Some(key) = self.changes_asked.remove(&approval) {
            if approved {
                self.started.insert(key, true);
            }
        }
    }

    fn may_have_changed(&self, run: RunId, call: &str) -> bool {
        self.started
            .get(&(run, call.to_owned()))
            .copied()
            .unwrap_or(false)
    }
}

/// The log's last model turn, when some of its calls have no result and nothing the person
/// said came after it; see [`OpenTurn`].
fn open_turn(conversation: &[Message], events: &[AgentEvent], ran: &RanFacts) -> Option<OpenTurn> {
    let at = conversation
        .iter()
        .rposition(|m| matches!(m, Message::Assistant { .. }))?;
    let Message::Assistant { turn } = &conversation[at] else {
        return None;
    };
    let mut answered = HashSet::new();
    for message in &conversation[at + 1..] {
        match message {
            Message::ToolResult { tool_call_id, .. } => {
                answered.insert(tool_call_id.as_str());
            }
            Message::System { .. } | Message::User { .. } | Message::Assistant { .. } => {
                return None
            }
        }
    }
    let calls: Vec<_> = turn
        .tool_calls
        .iter()
        .filter(|c| !answered.contains(c.id.as_str()))
        .cloned()
        .collect();
    if calls.is_empty() {
        return None;
    }
    let (run_id, task) = events.iter().rev().find_map(|e| match e {
        AgentEvent::RunStarted { run_id, task, .. } => Some((*run_id, task.clone())),
        _ => None,
    })?;
    let started = calls
        .iter()
        .filter(|c| ran.may_have_changed(run_id, &c.id))
        .map(|c| c.id.clone())
        .collect();
    let mut before = answer_unanswered(conversation[..at].to_vec());
    before.extend_from_slice(&conversation[at..]);
    Some(OpenTurn {
        run_id,
        task,
        conversation: before,
        calls,
        started,
    })
}

/// Gives every tool call of a reopened conversation exactly one result, in the calls' order,
/// where the log has none (the app was killed while a card waited, or the result could not be
/// written): providers refuse a conversation that leaves a tool call unanswered, and DESIGN.md
/// §3 promises every call a result in the next request. The result is
/// [`wording::UNRECORDED_RESULT`].
pub fn answer_unanswered(conversation: Vec<Message>) -> Vec<Message> {
    let mut out = Vec::with_capacity(conversation.len());
    // The calls of the latest model turn still without a result, in order.
    let mut open: Vec<String> = Vec::new();
    let unrecorded = |out: &mut Vec<Message>, ids: &mut dyn Iterator<Item = String>| {
        out.extend(ids.map(|tool_call_id| Message::ToolResult {
            tool_call_id,
            content: wording::UNRECORDED_RESULT.to_owned(),
            is_error: true,
        }));
    };
    for message in conversation {
        match &message {
            Message::ToolResult { tool_call_id, .. } => {
                if let Some(i) = open.iter().position(|id| id == tool_call_id) {
                    unrecorded(&mut out, &mut open.drain(..i));
                    open.remove(0);
                }
            }
            Message::Assistant { turn } => {
                unrecorded(&mut out, &mut open.drain(..));
                open = turn.tool_calls.iter().map(|c| c.id.clone()).collect();
            }
            Message::System { .. } | Message::User { .. } => {
                unrecorded(&mut out, &mut open.drain(..));
            }
        }
        out.push(message);
    }
    unrecorded(&mut out, &mut open.drain(..));
    out
}

/// One tool call of one run.
type CallKey = (RunId, ToolCallId);

/// What a session's log says beyond its events, for replaying calls and runs that never ended.
#[derive(Default)]
struct LogFacts {
    /// Part of the log is missing: it could not be written for a while, or a line is damaged.
    incomplete: bool,
    /// For each call that was allowed or refused (by the policy or an approval's recorded
    /// outcome), whether it was allowed to run.
    may_run: HashMap<CallKey, bool>,
}

/// The events of a reopened session that rebuild its transcript: approval events are left out
/// (nothing is waiting any more: the log's recovery closed them), and runs and calls that never
/// ended are ended, saying only what the log shows: a call refused or never answered was not
/// performed; one allowed to run may have been; of one with no decision in an incomplete log
/// nothing is known.
fn replayable(events: Vec<AgentEvent>, facts: &LogFacts) -> Vec<AgentEvent> {
    let incomplete = facts.incomplete;
    // The calls that started running (`tool_call_started` is recorded before a tool starts).
    let started: HashSet<CallKey> = events
        .iter()
        .filter_map(|event| match event {
            AgentEvent::ToolCallStarted {
                run_id,
                tool_call_id,
            } => Some((*run_id, ToolCallId(tool_call_id.clone()))),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    let mut open_runs: Vec<RunId> = Vec::new();
    let mut open_calls: Vec<CallKey> = Vec::new();
    let ended = |key: &CallKey| match facts.may_run.get(key) {
        // Allowed, but the log shows it never started (a whole log would say if it had).
        Some(true) if !incomplete && !started.contains(key) => {
            (ToolCallStatus::Cancelled, NotRun::ClosedBeforeStart)
        }
        Some(true) => (ToolCallStatus::Failed, NotRun::MayHaveRun),
        Some(false) if incomplete => (ToolCallStatus::Cancelled, NotRun::RefusedEndNotSaved),
        None if incomplete => (ToolCallStatus::Failed, NotRun::EndNotSaved),
        Some(false) | None => (
            ToolCallStatus::Cancelled,
            NotRun::Cancelled {
                cause: CancelCause::AppShutdown,
            },
        ),
    };
    let close_calls = |out: &mut Vec<AgentEvent>, open_calls: &mut Vec<CallKey>, run: RunId| {
        open_calls.retain(|key| {
            if key.0 != run {
                return true;
            }
            let (status, reason) = ended(key);
            out.push(AgentEvent::ToolCallFinished {
                run_id: run,
                tool_call_id: key.1 .0.clone(),
                status,
                policy_layer: None,
                output: person_text(&reason),
                wording: Some(wording::for_person(&reason)),
                not_run: Some(reason),
            });
            false
        });
    };
    let finish_run = |out: &mut Vec<AgentEvent>, open_calls: &mut Vec<CallKey>, run: RunId| {
        close_calls(out, open_calls, run);
        out.push(AgentEvent::RunFinished {
            run_id: run,
            status: RunStatus::Cancelled,
            message: Some(if incomplete {
                wording::run_unrecorded()
            } else {
                wording::run_closed_while_working()
            }),
            detail: None,
        });
    };
    for event in events {
        match &event {
            AgentEvent::ApprovalRequired(_)
            | AgentEvent::ApprovalResolved(_)
            | AgentEvent::ApprovalExtended { .. }
            | AgentEvent::AssistantDelta { .. }
            | AgentEvent::ModelRetrying { .. }
            | AgentEvent::LogStatus { .. }
            | AgentEvent::SessionOpened { .. } => continue,
            AgentEvent::RunStarted { run_id, .. } => {
                // Runs of a session follow one another: one that never ended ended before
                // this one started, and is shown ending there.
                for run in open_runs.drain(..) {
                    finish_run(&mut out, &mut open_calls, run);
                }
                open_runs.push(*run_id);
            }
            AgentEvent::ToolCallProposed {
                run_id,
                tool_call_id,
                ..
            } => open_calls.push((*run_id, ToolCallId(tool_call_id.clone()))),
            AgentEvent::ToolCallFinished {
                run_id,
                tool_call_id,
                ..
            } => {
                if let Some(i) = open_calls
                    .iter()
                    .position(|(r, id)| r == run_id && id.as_str() == tool_call_id)
                {
                    open_calls.remove(i);
                }
            }
            AgentEvent::RunFinished { run_id, .. } => open_runs.retain(|r| r != run_id),
            AgentEvent::AssistantMessage { .. }
            | AgentEvent::ToolCallStarted { .. }
            | AgentEvent::ToolCallChanged { .. } => {}
        }
        out.push(event);
    }
    for run in open_runs {
        finish_run(&mut out, &mut open_calls, run);
    }
    out
}
