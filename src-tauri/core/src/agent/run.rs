//! One run: from the person's task to the model's final answer (or a stop, a failure, the
//! step limit). It owns the run's id, token, provider, tools and conversation, drives the step
//! loop, and gives every tool call of a turn exactly one result, in order (DESIGN.md §3).

use super::call::{CallResult, DeniedCalls, Prepared, Said};
use super::deltas::step_streaming;
use super::{wording, AgentRuntime, MAX_RUN_OUTPUT_BYTES, MAX_TOOL_CALLS_PER_TURN};
use crate::audit::AuditRecord;
use crate::provider::{Message, ModelTurn, Provider, ToolCall};
use crate::sessions::replay::{answer_unanswered, OpenTurn};
use crate::tools::ToolSet;
use askfirst_protocol::{AgentEvent, CancelCause, NotRun, RunId, RunStatus, ToolCallStatus};
use std::collections::HashSet;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// How a run ended: its status and, for `failed` and `cancelled`, what happened.
type Finish = (RunStatus, Option<String>);

/// One run of the agent.
pub(super) struct Run {
    pub(super) rt: Arc<AgentRuntime>,
    pub(super) id: RunId,
    pub(super) token: CancellationToken,
    /// The model, for a run of Ask First's own agent; `None` for a run whose work another
    /// agent does ([`super::acp_run`]).
    provider: Option<Arc<dyn Provider>>,
    /// The conversation, taken from the session for the run and given back at its end (also
    /// when its task panics: see `Drop`).
    messages: Vec<Message>,
    /// Whether `messages` is the session's conversation now (taken and not yet given back).
    holds_conversation: bool,
    pub(super) denied: DeniedCalls,
    /// The technical detail of the model's failure that ended the run, if one did (the
    /// `RunFinished`'s `detail`).
    failure_detail: Option<String>,
    /// The folder the run works in, from its start to its end.
    pub(super) workspace: crate::tools::Workspace,
    /// Every tool-call id of the run so far ([`unique_call_ids`]).
    call_ids: std::collections::HashSet<String>,
    /// Whether the run has left its mark for a restart ([`crate::sessions::interrupted`]).
    marked: bool,
    /// For a run that goes on with an interrupted task: how many starts have gone on with it
    /// since Ask First last closed normally ([`crate::sessions::interrupted::Interrupted::starts`]).
    pub(super) starts: u32,
    /// The calls of a turn that waited when Ask First last closed, being asked about again:
    /// id → the model's arguments. Their cards say so
    /// ([`askfirst_protocol::ApprovalRequest::resumed`]); a call the person then changes on its
    /// card has other arguments, and its card does not.
    pub(super) resuming: std::collections::HashMap<String, String>,
    /// The name of the agent hosted over ACP whose run this is ([`super::acp_run`]), named on
    /// its cards; `None` for Ask First's own agent.
    pub(super) agent: Option<String>,
}

impl Run {
    pub(super) fn new(
        rt: Arc<AgentRuntime>,
        id: RunId,
        token: CancellationToken,
        provider: Option<Arc<dyn Provider>>,
        workspace: crate::tools::Workspace,
    ) -> Self {
        Self {
            rt,
            id,
            token,
            provider,
            messages: Vec::new(),
            holds_conversation: false,
            denied: DeniedCalls::default(),
            failure_detail: None,
            workspace,
            call_ids: std::collections::HashSet::new(),
            marked: false,
            starts: 0,
            resuming: std::collections::HashMap::new(),
            agent: None,
        }
    }

    /// Before the run's first card is shown: leaves the mark that lets the next start offer
    /// the run again if Ask First closes or dies while it goes on (once per run).
    pub(super) fn leave_mark(&mut self) {
        if !std::mem::replace(&mut self.marked, true) {
            self.rt.leave_mark(self.id, self.starts);
        }
    }

    pub(super) fn emit(&self, event: AgentEvent) {
        self.rt.emit(event);
    }

    pub(super) fn audit(&self, record: AuditRecord) {
        self.rt.audit(record);
    }

    /// Appends to the conversation and records it in the session log.
    pub(super) fn push_message(&mut self, message: Message) {
        self.audit(AuditRecord::Message {
            message: message.clone(),
            at: crate::unix_millis_now(),
        });
        self.messages.push(message);
    }

    /// Appends a call's result; `closing`: the call was not done because Ask First is closing.
    /// Such a result of a run that can be resumed is not recorded in the log: the log then
    /// shows the call still waiting, and the next start asks about it again
    /// ([`crate::sessions::interrupted`]).
    fn push_result(&mut self, message: Message, closing: bool) {
        if closing && self.marked {
            self.messages.push(message);
        } else {
            self.push_message(message);
        }
    }

    /// Runs to the end and ends the run (its one `RunFinished`).
    pub(super) async fn go(mut self, task: String) {
        let provider = self
            .provider
            .as_ref()
            .map(|p| p.display_name())
            .unwrap_or_default();
        self.begin_task(&task, provider, true).await;
        let (status, message) = self.run_loop(None).await;
        self.finish(status, message);
    }

    /// The start of a new task: `RunStarted` (`provider`: who does the work, as shown), the
    /// conversation taken from the session, the folder recorded, the task added (with the
    /// system prompt first when `system_prompt` and the conversation is new) and the session's
    /// title recorded.
    pub(super) async fn begin_task(&mut self, task: &str, provider: String, system_prompt: bool) {
        let task = task.to_owned();
        let session_id = self.rt.session_id();
        self.emit(AgentEvent::RunStarted {
            run_id: self.id,
            session_id,
            task: task.clone(),
            provider,
            resumed: false,
        });
        let (messages, folder_logged) = {
            let mut session = self.rt.session();
            let logged = std::mem::replace(&mut session.folder_logged, true);
            (std::mem::take(&mut session.conversation), logged)
        };
        self.messages = messages;
        self.holds_conversation = true;
        if !folder_logged {
            // A reopened conversation works in this folder again.
            self.audit(AuditRecord::FolderChosen {
                folder: self.workspace.root().to_owned(),
                demo: self.rt.folder().is_demo(),
                at: crate::unix_millis_now(),
            });
        }
        if system_prompt && self.messages.is_empty() {
            let text = wording::system_prompt(self.workspace.root());
            self.push_message(Message::System { text });
        }
        let first_task = !self
            .messages
            .iter()
            .any(|m| matches!(m, Message::User { .. }));
        // The same task tried again after the model service failed before answering it ("Try
        // again" in the window): it is the conversation's last message already, and the model
        // is not told it twice.
        let again = matches!(self.messages.last(), Some(Message::User { text }) if *text == task);
        if !again {
            self.push_message(Message::User { text: task.clone() });
        }
        if first_task {
            // The Sessions list's title, so listing need not read this log.
            let store = Arc::clone(&self.rt.store);
            let recorded =
                tokio::task::spawn_blocking(move || store.record_first_task(session_id, &task));
            if let Err(error) = recorded.await {
                eprintln!("askfirst: the session's title was not recorded: {error}");
            }
        }
    }

    /// Goes on with a run Ask First closed in the middle of ([`OpenTurn`]): the turn's calls
    /// without a result are described, judged and asked about again (new cards, marked as
    /// asked again), and the run continues as if it had never stopped. A call that had started
    /// running is run again only when its tool only reads (it changes nothing, so doing it
    /// twice is safe); any other is answered "may have run" — it is never done twice.
    pub(super) async fn resume(mut self, open: OpenTurn, starts: u32) {
        self.starts = starts;
        // This run is the task's now: if Ask First closes before it shows a card, the next
        // start goes on with it again.
        self.leave_mark();
        self.emit(AgentEvent::RunStarted {
            run_id: self.id,
            session_id: self.rt.session_id(),
            task: open.task.clone(),
            provider: self
                .provider
                .as_ref()
                .map(|p| p.display_name())
                .unwrap_or_default(),
            resumed: true,
        });
        let folder_logged = {
            let mut session = self.rt.session();
            // The session's conversation answers the open turn with "no record" results; the
            // run goes on from the turn itself instead.
            session.conversation.clear();
            std::mem::replace(&mut session.folder_logged, true)
        };
        self.messages = open.conversation;
        self.holds_conversation = true;
        self.call_ids = self
            .messages
            .iter()
            .filter_map(|m| match m {
                Message::Assistant { turn } => Some(turn.tool_calls.iter().map(|c| c.id.clone())),
                _ => None,
            })
            .flatten()
            .collect();
        if !folder_logged {
            self.audit(AuditRecord::FolderChosen {
                folder: self.workspace.root().to_owned(),
                demo: self.rt.folder().is_demo(),
                at: crate::unix_millis_now(),
            });
        }
        let (status, message) = self.run_loop(Some((open.calls, open.started))).await;
        self.finish(status, message);
    }

    /// Ends the run: the conversation goes back to the session for the next task, the mark
    /// goes unless Ask First is closing, and the one `RunFinished` is emitted.
    pub(super) fn finish(&mut self, status: RunStatus, message: Option<String>) {
        // The next task continues this conversation.
        self.give_back_conversation();
        let detail = self.failure_detail.take();
        self.rt.end_run(self.id, status, message, detail);
    }

    /// Gives the conversation back to the session, every call answered (a run cut short by a
    /// panic may leave some without their result).
    fn give_back_conversation(&mut self) {
        if std::mem::take(&mut self.holds_conversation) {
            let messages = answer_unanswered(std::mem::take(&mut self.messages));
            self.rt.session().conversation = messages;
        }
    }

    pub(super) fn stopped(&self) -> Finish {
        let why = wording::run_stopped(self.rt.stop_cause());
        (RunStatus::Cancelled, Some(why))
    }

    /// The step loop; `resumed`: a turn's calls still to answer first (a resumed run), with
    /// those of them that had started running.
    async fn run_loop(&mut self, resumed: Option<(Vec<ToolCall>, HashSet<String>)>) -> Finish {
        let catalog = Arc::clone(&self.rt.catalog);
        let tools: ToolSet = tokio::select! {
            biased;
            () = self.token.cancelled() => return self.stopped(),
            tools = catalog.run_tools() => tools,
        };
        let specs = tools.specs();
        let Some(provider) = self.provider.clone() else {
            return (RunStatus::Failed, Some(wording::run_broke()));
        };
        // Bytes of tool results so far in this run (see `MAX_RUN_OUTPUT_BYTES`).
        let mut run_output = 0usize;
        if let Some((calls, started)) = resumed {
            self.resuming = calls
                .iter()
                .map(|c| (c.id.clone(), c.arguments_json.clone()))
                .collect();
            let end = self
                .answer_calls(calls, &tools, &mut run_output, &started)
                .await;
            self.resuming.clear();
            if let Some(finish) = end {
                return finish;
            }
        }
        for _step in 0..self.rt.config.max_steps {
            let emit = |event| self.rt.emit(event);
            let turn: ModelTurn = tokio::select! {
                biased;
                () = self.token.cancelled() => return self.stopped(),
                turn = step_streaming(
                    &emit, self.id, provider.as_ref(), &self.messages, &specs
                ) => match turn {
                    Ok(turn) => turn,
                    Err(e) => {
                        // The sentence for the person; the status and the service's own words
                        // one click away.
                        self.failure_detail = e.detail();
                        return (RunStatus::Failed, Some(e.to_string()));
                    }
                },
            };
            if let Some(text) = turn.text.as_deref().filter(|t| !t.trim().is_empty()) {
                self.emit(AgentEvent::AssistantMessage {
                    run_id: self.id,
                    text: text.to_owned(),
                });
            }
            let turn = unique_call_ids(turn, &mut self.call_ids);
            let calls = turn.tool_calls.clone();
            self.push_message(Message::Assistant { turn });
            if calls.is_empty() {
                return (RunStatus::Completed, None);
            }
            if let Some(finish) = self
                .answer_calls(calls, &tools, &mut run_output, &HashSet::new())
                .await
            {
                return finish;
            }
        }
        (
            RunStatus::Failed,
            Some(wording::run_out_of_steps(self.rt.config.max_steps)),
        )
    }

    /// Answers the calls of one model turn, each exactly once and in order: proposed (and
    /// asked about) all before any runs, then waited for and run. `started`: calls of a resumed
    /// turn that had started running before Ask First closed ([`Run::resume`]). Returns how the
    /// run ends when it must end with this turn.
    pub(super) async fn answer_calls(
        &mut self,
        mut calls: Vec<ToolCall>,
        tools: &ToolSet,
        run_output: &mut usize,
        started: &HashSet<String>,
    ) -> Option<Finish> {
        // The calls past the cap are neither described, nor asked about, nor run; the
        // person sees them as one line, and each gets its short result after the others.
        let too_many = calls.split_off(calls.len().min(MAX_TOOL_CALLS_PER_TURN));
        self.show_too_many(calls.len() + too_many.len(), &too_many);
        // Every call of the turn is proposed (and, where the policy asks, shown as a card)
        // before any runs, so the person sees them all and can answer in any order; they
        // then run in the model's order.
        let mut prepared: Vec<Option<Prepared>> = Vec::with_capacity(calls.len());
        for call in &calls {
            let may_have_run = started.contains(&call.id)
                && tools.get(&call.name).is_none_or(|tool| !tool.read_only());
            prepared.push(Some(if may_have_run {
                self.may_have_run(call)
            } else {
                self.prepare_call(call, tools, None).await
            }));
        }
        for (index, call) in calls.iter().enumerate() {
            let Some(this) = prepared[index].take() else {
                continue;
            };
            let result = self.complete_call(call, this, tools).await;
            let CallResult {
                status,
                said,
                layer,
                stop_run,
                finished_after_stop,
                model_note,
                ..
            } = result;
            let is_error = status != ToolCallStatus::Succeeded;
            let (content, output, not_run) = match said {
                // Every tool keeps to the cap itself; this holds it for any tool (an MCP
                // server's, a new one) and for error messages that quote what they were
                // given.
                Said::Output(text) => {
                    let text = capped_output(text);
                    (text.clone(), text, None)
                }
                Said::Failed { model, person } => {
                    (capped_output(model), capped_output(person), None)
                }
                Said::NotRun(reason) => (
                    wording::for_model(&reason),
                    wording::person_text(&reason),
                    Some(reason),
                ),
            };
            let closing = matches!(
                &not_run,
                Some(NotRun::Cancelled {
                    cause: CancelCause::AppShutdown
                })
            );
            self.emit(AgentEvent::ToolCallFinished {
                run_id: self.id,
                tool_call_id: call.id.clone(),
                status,
                policy_layer: layer,
                output,
                wording: not_run.as_ref().map(wording::for_person),
                not_run,
            });
            // The person changed the call on its card: the model is told first.
            let content = match model_note {
                Some(note) => format!("{note}\n{content}"),
                None => content,
            };
            *run_output = run_output.saturating_add(content.len());
            let over_limit = *run_output >= MAX_RUN_OUTPUT_BYTES;
            let content = if over_limit {
                // Said to the model where it looks: in the last result it gets.
                wording::output_limit_note_for_model(&content)
            } else {
                content
            };
            self.push_result(
                Message::ToolResult {
                    tool_call_id: call.id.clone(),
                    content,
                    is_error,
                },
                closing,
            );
            // A call not done because Ask First is closing ends the run as the closing does,
            // also before the closing has cancelled the run's token: the approvals are ended
            // first ([`super::AgentRuntime::shutdown`]), and a run that went on in between asked
            // the model again, finished, and lost the task the next start should go on with.
            let end = if self.token.is_cancelled() || closing {
                let (status, message) = self.stopped();
                // Stop came while this call ran and it was let finish: said at the end,
                // where the person looks after pressing Stop (the call's line says "Done").
                let message = match (&finished_after_stop, message) {
                    (Some(done), Some(why)) => {
                        Some(wording::run_stopped_after_finishing(&why, done))
                    }
                    (_, message) => message,
                };
                let cause = self.rt.stop_cause();
                Some(((status, message), NotRun::Cancelled { cause }))
            } else if over_limit {
                let limit_mb =
                    u32::try_from(MAX_RUN_OUTPUT_BYTES / (1024 * 1024)).unwrap_or(u32::MAX);
                Some((
                    (RunStatus::Failed, Some(wording::run_output_limit())),
                    NotRun::OutputLimit { limit_mb },
                ))
            } else {
                stop_run.map(|why| ((RunStatus::Failed, Some(why)), NotRun::RunEndedBefore))
            };
            if let Some((finish, reason)) = end {
                // The turn's remaining approvals end now (their drop guards cancel them).
                prepared.clear();
                // Every call of the turn still gets exactly one result, in order.
                for rest in &calls[index + 1..] {
                    self.emit(AgentEvent::ToolCallFinished {
                        run_id: self.id,
                        tool_call_id: rest.id.clone(),
                        status: ToolCallStatus::Cancelled,
                        policy_layer: None,
                        output: wording::person_text(&reason),
                        wording: Some(wording::for_person(&reason)),
                        not_run: Some(reason.clone()),
                    });
                    let closing = matches!(
                        &reason,
                        NotRun::Cancelled {
                            cause: CancelCause::AppShutdown
                        }
                    );
                    self.push_result(
                        Message::ToolResult {
                            tool_call_id: rest.id.clone(),
                            content: wording::for_model(&reason),
                            is_error: true,
                        },
                        closing,
                    );
                }
                self.answer_too_many(&too_many);
                return Some(finish);
            }
        }
        self.answer_too_many(&too_many);
        None
    }

    /// A call of a resumed turn that had started running when Ask First closed, with a tool
    /// that changes things: shown, and answered without running it again (it may have done
    /// its work; doing it twice could do it twice).
    fn may_have_run(&self, call: &ToolCall) -> Prepared {
        self.emit(AgentEvent::ToolCallProposed {
            run_id: self.id,
            tool_call_id: call.id.clone(),
            tool_name: call.name.clone(),
            arguments_json: call.arguments_json.clone(),
            summary: wording::use_the_tool(&call.name),
        });
        Prepared::Done(CallResult::not_run(
            ToolCallStatus::Failed,
            NotRun::MayHaveRun,
            None,
        ))
    }

    /// Shows the calls of a turn past [`MAX_TOOL_CALLS_PER_TURN`] as one line: the first of
    /// them, as the model sent it, standing for all (`asked` is how many the turn had).
    fn show_too_many(&self, asked: usize, too_many: &[ToolCall]) {
        let Some(first) = too_many.first() else {
            return;
        };
        self.emit(AgentEvent::ToolCallProposed {
            run_id: self.id,
            tool_call_id: first.id.clone(),
            tool_name: first.name.clone(),
            arguments_json: first.arguments_json.clone(),
            summary: wording::too_many_summary(asked, too_many.len()),
        });
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let reason = NotRun::TooManyCalls {
            asked: count(asked),
            limit: count(MAX_TOOL_CALLS_PER_TURN),
            left_out: count(too_many.len()),
        };
        self.emit(AgentEvent::ToolCallFinished {
            run_id: self.id,
            tool_call_id: first.id.clone(),
            status: ToolCallStatus::Denied,
            policy_layer: None,
            output: wording::person_text(&reason),
            wording: Some(wording::for_person(&reason)),
            not_run: Some(reason),
        });
    }

    /// Gives each call past [`MAX_TOOL_CALLS_PER_TURN`] its one short result, in order.
    fn answer_too_many(&mut self, too_many: &[ToolCall]) {
        let content = wording::too_many_calls_text();
        for call in too_many {
            self.push_message(Message::ToolResult {
                tool_call_id: call.id.clone(),
                content: content.clone(),
                is_error: true,
            });
        }
    }
}

impl Run {
    /// The run's tool-call ids so far ([`unique_call_ids`]).
    pub(super) fn call_ids_mut(&mut self) -> &mut HashSet<String> {
        &mut self.call_ids
    }

    /// The conversation's last message.
    pub(super) fn last_message(&self) -> Option<&Message> {
        self.messages.last()
    }

    /// The technical detail of what ended the run (the `RunFinished`'s `detail`).
    pub(super) fn set_failure_detail(&mut self, detail: Option<String>) {
        self.failure_detail = detail;
    }
}

impl Drop for Run {
    /// A run whose task panicked still gives its conversation back, so the next task goes on
    /// with it (the supervisor ends the run).
    fn drop(&mut self) {
        self.give_back_conversation();
    }
}

/// `text` cut to [`crate::tools::OUTPUT_CAP_BYTES`] (first and last halves kept, the cut
/// stated), as the tools cut their own output.
fn capped_output(text: String) -> String {
    if text.len() <= crate::tools::OUTPUT_CAP_BYTES {
        return text;
    }
    let mut capped = crate::tools::HeadTail::new(crate::tools::OUTPUT_CAP_BYTES);
    capped.push(text.as_bytes());
    capped.into_text()
}

/// `turn` with every tool call's id unique in the run (`used`: the ids of the run so far, which
/// this adds to): a model may give two calls one id (in one reply, or again in a later one), and
/// events, approvals, the session log and the transcript all tell calls apart by it (found by a
/// third hostile review: the transcript showed one call's outcome on the other). A repeated or
/// empty id gets a suffix (`call_1` → `call_1_2`); the conversation sent back to the model
/// holds the new ids, in its reply and in the results alike, so they still pair.
pub(super) fn unique_call_ids(
    mut turn: ModelTurn,
    used: &mut std::collections::HashSet<String>,
) -> ModelTurn {
    let given: std::collections::HashSet<String> =
        turn.tool_calls.iter().map(|c| c.id.clone()).collect();
    for call in &mut turn.tool_calls {
        if !call.id.is_empty() && used.insert(call.id.clone()) {
            continue;
        }
        let base = if call.id.is_empty() {
            "call"
        } else {
            call.id.as_str()
        };
        let fresh = (2_usize..)
            .map(|n| format!("{base}_{n}"))
            .find(|candidate| !used.contains(candidate) && !given.contains(candidate))
            .unwrap_or_default();
        used.insert(fresh.clone());
        call.id = fresh;
    }
    turn
}
