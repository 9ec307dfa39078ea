//! A run whose work is done by another agent hosted over ACP ([`crate::acp`]): its program is
//! started in the conversation's folder, told the task, and its messages become the run's
//! events. Its file reads and writes (`fs/read_text_file`, `fs/write_text_file`) are Ask First's
//! own `read_file` and `write_file` calls, judged and run by the same code as the own agent's
//! ([`Run::answer_calls`]: policy, grants, card with diff, approval registry, undo, session
//! log); its `session/request_permission` is a card naming the agent. Whatever happens — the
//! task done, Stop, the agent crashing, hanging, flooding or sending what the protocol does not
//! allow — every request of the agent is answered, the program is stopped, and the run ends
//! once, with one sentence.
//!
//! Not yet (issue 44): `terminal` is not offered, an option kind other than `allow_once` /
//! `reject_once` is never chosen (a card's "Allow" picks `allow_once`; "Deny" picks
//! `reject_once`, or answers `cancelled` when the agent offers none), and the agent's own tools
//! are not shut in.

use super::run::Run;
use super::wording;
use crate::acp::{AcpAgent, AcpLimits, AgentProcess, Incoming, RpcError, WireError};
use crate::approvals::NewApproval;
use crate::i18n::{tr, Arg};
use crate::provider::{Message, ModelTurn, ToolCall};
use askfirst_protocol::{
    AgentEvent, CallDetail, NotRun, Outcome, PolicyLayer, Risk, RunStatus, SessionPolicy,
    ToolCallStatus,
};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::time::Duration;
use tokio::time::Instant;

/// How a hosted run ends: its status, the sentence for the person, the technical detail.
type Ending = (RunStatus, Option<String>, Option<String>);

/// The most characters of an agent's title or tool name shown on one line.
const LABEL_CHARS: usize = 200;

/// The most text one message of the agent may add up to; past it the rest is left out (and
/// the transcript says so).
const MAX_TEXT_BYTES: usize = 1024 * 1024;

/// The most tool calls of its own one agent may show in a run's transcript.
const MAX_SHOWN_CALLS: usize = 256;

/// JSON-RPC's "method not found".
const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC's "invalid params".
const INVALID_PARAMS: i64 = -32602;
/// ACP's "authentication required" (`docs/protocol/v1/schema`: `auth_required`).
const AUTH_REQUIRED: i64 = -32000;
/// The code of a refusal by Ask First (a server error in JSON-RPC's reserved range).
const REFUSED: i64 = -32001;

/// A hosted agent for one run.
struct Hosted {
    wire: AgentProcess,
    agent: AcpAgent,
    limits: AcpLimits,
    /// The ACP session's id, once `session/new` answered.
    session: Option<String>,
    /// Messages the agent may still send this run.
    messages_left: usize,
    /// Text of the agent's current message, not yet shown.
    text: String,
    /// Whether text was left out of the current message for its size.
    text_cut: bool,
    /// The agent's own tool calls shown and not yet ended: its id → ours.
    open_calls: HashMap<String, String>,
    /// All the agent's tool-call ids shown this run.
    shown_calls: HashSet<String>,
    /// Bytes of our tools' results this run ([`super::MAX_RUN_OUTPUT_BYTES`]).
    run_output: usize,
    /// Numbers our calls on the agent's behalf (`acp_1`, …).
    calls_made: usize,
}

/// What a request of the agent was answered with, when it ends the run.
enum Served {
    /// Answered; the run goes on.
    Answered,
    /// Answered; the run ends this way.
    Ends(Ending),
}

impl Run {
    /// Runs `task` with `agent` and ends the run (its one `RunFinished`).
    pub(super) async fn go_hosted(mut self, task: String, agent: AcpAgent) {
        self.agent = Some(agent.name.clone());
        self.begin_task(&task, agent.name.clone(), false).await;
        let limits = self.rt.config.acp_limits;
        let (status, message, detail) =
            match AgentProcess::start(&agent.command, self.workspace.root()) {
                Ok(wire) => {
                    let mut hosted = Hosted {
                        wire,
                        agent,
                        limits,
                        session: None,
                        messages_left: limits.messages,
                        text: String::new(),
                        text_cut: false,
                        open_calls: HashMap::new(),
                        shown_calls: HashSet::new(),
                        run_output: 0,
                        calls_made: 0,
                    };
                    let ending = self.host(&mut hosted, &task).await;
                    self.close_hosted(&mut hosted).await;
                    ending
                }
                Err(error) => (
                    RunStatus::Failed,
                    Some(tr(
                        "acp-not_started",
                        &[
                            ("agent", Arg::from(&agent.name)),
                            ("why", Arg::from(error.to_string())),
                        ],
                    )),
                    Some(format!("{}: {error}", agent.command.join(" "))),
                ),
            };
        self.set_failure_detail(detail);
        self.finish(status, message);
    }

    /// `initialize`, `session/new`, `session/prompt`, and everything the agent sends until the
    /// prompt is answered.
    async fn host(&mut self, hosted: &mut Hosted, task: &str) -> Ending {
        let start = Instant::now() + hosted.limits.start;
        let initialize = json!({
            "protocolVersion": crate::acp::PROTOCOL_VERSION,
            "clientCapabilities": {
                "fs": {"readTextFile": true, "writeTextFile": true},
                "terminal": false
            },
            "clientInfo": {"name": "askfirst", "title": "Ask First", "version": env!("CARGO_PKG_VERSION")}
        });
        let answer = match self
            .call(hosted, "initialize", initialize, Some(start))
            .await
        {
            Ok(answer) => answer,
            Err(ending) => return ending,
        };
        let version = answer.get("protocolVersion").and_then(Value::as_u64);
        if version != Some(crate::acp::PROTOCOL_VERSION) {
            let shown = answer
                .get("protocolVersion")
                .map(Value::to_string)
                .unwrap_or_default();
            return failed(
                tr(
                    "acp-version",
                    &[
                        ("agent", Arg::from(&hosted.agent.name)),
                        ("version", Arg::from(crate::text::truncate_text(&shown, 40))),
                    ],
                ),
                format!("initialize answered {answer}"),
            );
        }
        let folder = self.workspace.root().display().to_string();
        let new = json!({"cwd": folder, "mcpServers": []});
        let answer = match self.call(hosted, "session/new", new, Some(start)).await {
            Ok(answer) => answer,
            Err(ending) => return ending,
        };
        let Some(session) = answer
            .get("sessionId")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty() && s.len() <= 1024)
        else {
            return self.broke(hosted, "session/new answered without a session id".into());
        };
        hosted.session = Some(session.to_owned());
        let prompt = json!({"sessionId": session, "prompt": [{"type": "text", "text": task}]});
        let answer = match self.call(hosted, "session/prompt", prompt, None).await {
            Ok(answer) => answer,
            Err(ending) => return ending,
        };
        self.flush_text(hosted);
        match answer.get("stopReason").and_then(Value::as_str) {
            Some("end_turn") => (RunStatus::Completed, None, None),
            Some("cancelled") if self.token.is_cancelled() => {
                let (status, message) = self.stopped();
                (status, message, None)
            }
            other => {
                let reason = crate::text::display_label(other.unwrap_or("?"), 60);
                (
                    RunStatus::Failed,
                    Some(tr(
                        "acp-gave_up",
                        &[
                            ("agent", Arg::from(&hosted.agent.name)),
                            ("reason", Arg::from(&reason)),
                        ],
                    )),
                    Some(format!("session/prompt answered {answer}")),
                )
            }
        }
    }

    /// Sends the request `method` and serves the agent until it answers it (by `deadline`,
    /// when given; else as long as the agent is not silent for [`AcpLimits::silence`]).
    async fn call(
        &mut self,
        hosted: &mut Hosted,
        method: &str,
        params: Value,
        deadline: Option<Instant>,
    ) -> Result<Value, Ending> {
        let id = match hosted.wire.request(method, params).await {
            Ok(id) => id,
            Err(error) => return Err(self.wire_failed(hosted, &error)),
        };
        loop {
            let limit = deadline.unwrap_or_else(|| Instant::now() + hosted.limits.silence);
            let next = tokio::select! {
                biased;
                () = self.token.cancelled() => return Err(self.cancel(hosted, &id).await),
                next = tokio::time::timeout_at(limit, hosted.wire.next()) => next,
            };
            let message = match next {
                Err(_) => {
                    let waited = if deadline.is_some() {
                        hosted.limits.start
                    } else {
                        hosted.limits.silence
                    };
                    return Err(self.hung(hosted, waited));
                }
                Ok(None) => return Err(self.wire_failed(hosted, &WireError::Closed)),
                Ok(Some(Err(error))) => return Err(self.wire_failed(hosted, &error)),
                Ok(Some(Ok(message))) => message,
            };
            if let Incoming::Response {
                id: answered,
                result,
            } = &message
            {
                if *answered == id {
                    return match result {
                        Ok(value) => Ok(value.clone()),
                        Err(error) => Err(self.refused(hosted, method, error)),
                    };
                }
            }
            // Every other message counts, answers to nothing asked included.
            if hosted.messages_left == 0 {
                return Err(self.flooded(hosted));
            }
            hosted.messages_left -= 1;
            match message {
                Incoming::Notification { method, params } => {
                    if method == "session/update" {
                        self.update(hosted, &params);
                    }
                }
                Incoming::Request { id, method, params } => {
                    match self.serve(hosted, &id, &method, &params).await {
                        Ok(Served::Answered) => {}
                        Ok(Served::Ends(ending)) => return Err(ending),
                        Err(error) => return Err(self.wire_failed(hosted, &error)),
                    }
                }
                Incoming::Response { .. } => {}
            }
        }
    }

    /// Answers one request of the agent.
    async fn serve(
        &mut self,
        hosted: &mut Hosted,
        id: &Value,
        method: &str,
        params: &Value,
    ) -> Result<Served, WireError> {
        match method {
            "session/request_permission" => {
                let answer = self.ask_permission(hosted, params).await;
                hosted.wire.respond(id, answer).await?;
            }
            "fs/write_text_file" => {
                let (path, content) = match (
                    params.get("path").and_then(Value::as_str),
                    params.get("content").and_then(Value::as_str),
                ) {
                    (Some(path), Some(content)) => (path, content),
                    _ => {
                        let why = "fs/write_text_file needs a path and a content (strings).";
                        hosted.wire.respond_error(id, INVALID_PARAMS, why).await?;
                        return Ok(Served::Answered);
                    }
                };
                if content.len() > crate::acp::MAX_WRITE_BYTES {
                    let why = format!(
                        "Not written: the text is larger than {} MB, the most Ask First writes at once.",
                        crate::acp::MAX_WRITE_BYTES / (1024 * 1024)
                    );
                    hosted.wire.respond_error(id, REFUSED, &why).await?;
                    return Ok(Served::Answered);
                }
                let arguments = json!({"path": self.in_folder(path), "content": content});
                let (result, ends) = self.our_tool(hosted, "write_file", &arguments).await;
                match result {
                    Ok(_) => hosted.wire.respond(id, json!({})).await?,
                    Err(why) => hosted.wire.respond_error(id, REFUSED, &why).await?,
                }
                if let Some(ending) = ends {
                    return Ok(Served::Ends(ending));
                }
            }
            "fs/read_text_file" => {
                let Some(path) = params.get("path").and_then(Value::as_str) else {
                    let why = "fs/read_text_file needs a path (a string).";
                    hosted.wire.respond_error(id, INVALID_PARAMS, why).await?;
                    return Ok(Served::Answered);
                };
                let relative = self.in_folder(path);
                // A file that is not there (yet) inside the folder reads as empty, as an editor
                // opens it (Zed, ACP's first client, gives a new empty buffer): agents read a
                // file before writing it, and Gemini CLI 0.61.0 cannot tell a refusal from "no
                // such file" (its `normalizeFileSystemError` reads only `Error` objects), so it
                // could never create one. Nothing of the disk is told by it.
                let ws = self.workspace.clone();
                let (given, at) = (relative.clone(), ws.clone());
                let missing = super::call::off_worker(move || {
                    at.resolve(&given).is_ok_and(|p| {
                        std::fs::symlink_metadata(p)
                            .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
                    })
                })
                .await
                .unwrap_or(false);
                if missing {
                    hosted.wire.respond(id, json!({"content": ""})).await?;
                    return Ok(Served::Answered);
                }
                let arguments = json!({"path": relative});
                let (result, ends) = self.our_tool(hosted, "read_file", &arguments).await;
                let result = match result {
                    // Read again whole, exactly: what the tool told the log is cut for a model,
                    // and an agent that writes back a cut text would lose the rest.
                    Ok(_) => super::call::off_worker(move || {
                        crate::tools::read::whole_text(&relative, &ws, crate::acp::MAX_WRITE_BYTES)
                    })
                    .await
                    .unwrap_or_else(|| Err("Ask First is closing.".into())),
                    Err(why) => Err(why),
                };
                match result {
                    Ok(text) => {
                        let text = lines(&text, params.get("line"), params.get("limit"));
                        hosted.wire.respond(id, json!({"content": text})).await?;
                    }
                    Err(why) => hosted.wire.respond_error(id, REFUSED, &why).await?,
                }
                if let Some(ending) = ends {
                    return Ok(Served::Ends(ending));
                }
            }
            // An extension method (ACP `extensibility.mdx`): not known here, and harmless.
            other if other.starts_with('_') => {
                let why = format!("Ask First does not offer {}.", clean(other, 80));
                hosted
                    .wire
                    .respond_error(id, METHOD_NOT_FOUND, &why)
                    .await?;
            }
            other => {
                let shown = clean(other, 80);
                let why = format!("Ask First does not offer {shown}.");
                hosted
                    .wire
                    .respond_error(id, METHOD_NOT_FOUND, &why)
                    .await?;
                return Ok(Served::Ends(failed(
                    tr(
                        "acp-unknown_method",
                        &[
                            ("agent", Arg::from(&hosted.agent.name)),
                            ("method", Arg::from(&shown)),
                        ],
                    ),
                    format!("the agent called {shown}, which Ask First did not offer"),
                )));
            }
        }
        Ok(Served::Answered)
    }

    /// `path` as our tools take it: relative to the folder when it lies inside it; anything
    /// else exactly as given, which the tool refuses as outside the folder (with the same
    /// sentence as for the own agent's model).
    fn in_folder(&self, path: &str) -> String {
        let root = self.workspace.root();
        match std::path::Path::new(path).strip_prefix(root) {
            Ok(relative) if relative.as_os_str().is_empty() => ".".to_owned(),
            Ok(relative) => relative.to_string_lossy().into_owned(),
            Err(_) => path.to_owned(),
        }
    }

    /// One call of our tool `name` with `arguments`, made for the agent and answered like the
    /// own agent's ([`Run::answer_calls`]); returns the tool's output or what the agent's
    /// model is told instead, and how the run ends when it must.
    async fn our_tool(
        &mut self,
        hosted: &mut Hosted,
        name: &str,
        arguments: &Value,
    ) -> (Result<String, String>, Option<Ending>) {
        self.flush_text(hosted);
        hosted.calls_made += 1;
        let call = ToolCall {
            id: format!("acp_{}", hosted.calls_made),
            name: name.to_owned(),
            arguments_json: arguments.to_string(),
        };
        let turn = super::run::unique_call_ids(
            ModelTurn {
                text: None,
                tool_calls: vec![call],
            },
            self.call_ids_mut(),
        );
        let calls = turn.tool_calls.clone();
        self.push_message(Message::Assistant { turn });
        let tools = self.rt.config.tools.clone();
        let mut output = hosted.run_output;
        let finish = self
            .answer_calls(calls, &tools, &mut output, &HashSet::new())
            .await;
        hosted.run_output = output;
        let result = match self.last_message() {
            Some(Message::ToolResult {
                content,
                is_error: false,
                ..
            }) => Ok(content.clone()),
            Some(Message::ToolResult { content, .. }) => Err(content.clone()),
            _ => Err("Not done.".to_owned()),
        };
        (
            result,
            finish.map(|(status, message)| (status, message, None)),
        )
    }

    /// A `session/request_permission`: a card naming the agent, answered by its options'
    /// kinds. Returns the `RequestPermissionResponse`.
    async fn ask_permission(&mut self, hosted: &mut Hosted, params: &Value) -> Value {
        let cancelled = json!({"outcome": {"outcome": "cancelled"}});
        let options = params
            .get("options")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let option = |kind: &str| {
            options
                .iter()
                .find(|o| o.get("kind").and_then(Value::as_str) == Some(kind))
                .and_then(|o| o.get("optionId").cloned())
                .filter(|id| id.is_string())
        };
        let (allow, reject) = (option("allow_once"), option("reject_once"));
        let selected = |id: Value| json!({"outcome": {"outcome": "selected", "optionId": id}});
        let refuse = || reject.clone().map_or_else(|| cancelled.clone(), &selected);
        let tool_call = params.get("toolCall").cloned().unwrap_or(Value::Null);
        // Nothing to allow it with (only kinds not offered yet), the person away, or Stop.
        if allow.is_none()
            || self.rt.config.policy.session_policy() == SessionPolicy::Never
            || self.token.is_cancelled()
        {
            return refuse();
        }
        self.flush_text(hosted);
        let name = hosted.agent.name.clone();
        let title = tool_call
            .get("title")
            .and_then(Value::as_str)
            .map(|t| clean(t, LABEL_CHARS))
            .unwrap_or_default();
        let kind = tool_call
            .get("kind")
            .and_then(Value::as_str)
            .map(|k| clean(k, 40))
            .filter(|k| !k.is_empty())
            .unwrap_or_else(|| "other".to_owned());
        let command = tool_call
            .get("rawInput")
            .and_then(|input| input.get("command"))
            .and_then(Value::as_str)
            .map(|c| crate::text::truncate_text(c, 64 * 1024));
        let agent_call = tool_call
            .get("toolCallId")
            .and_then(Value::as_str)
            .map(|id| clean(id, 100));
        hosted.calls_made += 1;
        let tool_call_id = match &agent_call {
            Some(id) if hosted.open_calls.contains_key(id) => hosted.open_calls[id].clone(),
            _ => format!("acp_permission_{}", hosted.calls_made),
        };
        let folder = crate::app::folder::display_path(self.workspace.root(), None);
        let request = NewApproval {
            run_id: self.id,
            tool_call_id,
            tool_name: kind,
            arguments_json: tool_call.to_string(),
            summary: tr(
                "acp-card-summary",
                &[("agent", Arg::from(&name)), ("title", Arg::from(&title))],
            ),
            reason: tr("acp-card-reason", &[("agent", Arg::from(&name))]),
            risk: Risk::High,
            policy_layer: PolicyLayer::ToolDefault,
            grant_scope: None,
            preview: None,
            effects: vec![tr("acp-card-not_ours", &[("agent", Arg::from(&name))])],
            detail: Some(CallDetail::External {
                agent: name.clone(),
                folder,
                command,
            }),
            change: None,
            reword: None,
            resumed: false,
            editable: Vec::new(),
            agent: Some(name),
        };
        let pending = match self.rt.registry.request(request) {
            Ok(pending) => pending,
            Err(_) => return refuse(),
        };
        if self.token.is_cancelled() {
            self.rt.registry.cancel_run(self.id);
        }
        match pending.wait().await {
            Outcome::Approved { .. } => allow.map_or_else(refuse, selected),
            Outcome::Denied { .. } => refuse(),
            Outcome::Cancelled { .. } | Outcome::Changed { .. } => cancelled,
        }
    }

    /// One `session/update`: the agent's words, and the tool calls it makes itself, into the
    /// run's events. Anything else (plans, thoughts, commands on offer) is not shown yet.
    fn update(&mut self, hosted: &mut Hosted, params: &Value) {
        let Some(update) = params.get("update") else {
            return;
        };
        match update.get("sessionUpdate").and_then(Value::as_str) {
            Some("agent_message_chunk") => {
                let Some(text) = update
                    .get("content")
                    .filter(|c| c.get("type").and_then(Value::as_str) == Some("text"))
                    .and_then(|c| c.get("text"))
                    .and_then(Value::as_str)
                else {
                    return;
                };
                let room = MAX_TEXT_BYTES.saturating_sub(hosted.text.len());
                if text.len() > room {
                    hosted
                        .text
                        .push_str(&crate::text::truncate_text(text, room));
                    hosted.text_cut = true;
                } else {
                    hosted.text.push_str(text);
                }
            }
            Some("tool_call") => {
                self.flush_text(hosted);
                let Some(id) = update.get("toolCallId").and_then(Value::as_str) else {
                    return;
                };
                let id = clean(id, 100);
                if hosted.shown_calls.len() >= MAX_SHOWN_CALLS
                    || !hosted.shown_calls.insert(id.clone())
                {
                    return;
                }
                hosted.calls_made += 1;
                let ours = format!("acp_agent_{}", hosted.calls_made);
                let title = update
                    .get("title")
                    .and_then(Value::as_str)
                    .map(|t| clean(t, LABEL_CHARS))
                    .unwrap_or_default();
                let kind = update
                    .get("kind")
                    .and_then(Value::as_str)
                    .map(|k| clean(k, 40))
                    .unwrap_or_else(|| "other".to_owned());
                let input = update
                    .get("rawInput")
                    .map(|v| crate::text::truncate_text(&v.to_string(), 64 * 1024))
                    .unwrap_or_else(|| "{}".to_owned());
                self.emit(AgentEvent::ToolCallProposed {
                    run_id: self.id,
                    tool_call_id: ours.clone(),
                    tool_name: kind,
                    arguments_json: input,
                    summary: tr(
                        "acp-does",
                        &[
                            ("agent", Arg::from(&hosted.agent.name)),
                            ("title", Arg::from(&title)),
                        ],
                    ),
                });
                hosted.open_calls.insert(id.clone(), ours);
                self.agent_call_status(hosted, &id, update);
            }
            Some("tool_call_update") => {
                if let Some(id) = update.get("toolCallId").and_then(Value::as_str) {
                    self.agent_call_status(hosted, &clean(id, 100), update);
                }
            }
            _ => {}
        }
    }

    /// Ends the agent's own call `id` in the transcript when `update` says it ended.
    fn agent_call_status(&mut self, hosted: &mut Hosted, id: &str, update: &Value) {
        let status = match update.get("status").and_then(Value::as_str) {
            Some("completed") => ToolCallStatus::Succeeded,
            Some("failed") => ToolCallStatus::Failed,
            _ => return,
        };
        let Some(ours) = hosted.open_calls.remove(id) else {
            return;
        };
        self.emit(AgentEvent::ToolCallFinished {
            run_id: self.id,
            tool_call_id: ours,
            status,
            policy_layer: None,
            output: tr(
                "acp-done_itself",
                &[("agent", Arg::from(&hosted.agent.name))],
            ),
            not_run: None,
            wording: None,
        });
    }

    /// Shows the agent's text so far as one message, and keeps it in the conversation.
    fn flush_text(&mut self, hosted: &mut Hosted) {
        let mut text = std::mem::take(&mut hosted.text);
        if std::mem::take(&mut hosted.text_cut) {
            text.push_str("\n[…]");
        }
        if text.trim().is_empty() {
            return;
        }
        self.emit(AgentEvent::AssistantMessage {
            run_id: self.id,
            text: text.clone(),
        });
        self.push_message(Message::Assistant {
            turn: ModelTurn {
                text: Some(text),
                tool_calls: Vec::new(),
            },
        });
    }

    /// Stop: `session/cancel`, then every request the agent makes until its turn ends (at
    /// most [`AcpLimits::cancel_grace`]) answered as cancelled (ACP `prompt-turn.mdx`: the
    /// client MUST answer every pending `session/request_permission` with `cancelled`).
    async fn cancel(&mut self, hosted: &mut Hosted, waiting: &Value) -> Ending {
        if let Some(session) = hosted.session.clone() {
            let _ = hosted
                .wire
                .notify("session/cancel", json!({"sessionId": session}))
                .await;
        }
        let until = Instant::now() + hosted.limits.cancel_grace;
        while let Ok(Some(Ok(message))) = tokio::time::timeout_at(until, hosted.wire.next()).await {
            match message {
                Incoming::Response { id, .. } if &id == waiting => break,
                Incoming::Request { id, method, .. } => {
                    let sent = if method == "session/request_permission" {
                        hosted
                            .wire
                            .respond(&id, json!({"outcome": {"outcome": "cancelled"}}))
                            .await
                    } else {
                        hosted
                            .wire
                            .respond_error(&id, REFUSED, "Not done: the person pressed Stop.")
                            .await
                    };
                    if sent.is_err() {
                        break;
                    }
                }
                Incoming::Notification { .. } | Incoming::Response { .. } => {}
            }
        }
        let (status, message) = self.stopped();
        (status, message, None)
    }

    /// Stops the agent's program and ends what it left open in the transcript.
    async fn close_hosted(&mut self, hosted: &mut Hosted) {
        self.flush_text(hosted);
        for (_, ours) in std::mem::take(&mut hosted.open_calls) {
            let reason = NotRun::RunEndedBefore;
            self.emit(AgentEvent::ToolCallFinished {
                run_id: self.id,
                tool_call_id: ours,
                status: ToolCallStatus::Cancelled,
                policy_layer: None,
                output: wording::person_text(&reason),
                wording: Some(wording::for_person(&reason)),
                not_run: Some(reason),
            });
        }
        hosted.wire.stop(Duration::from_secs(2)).await;
    }

    fn wire_failed(&self, hosted: &mut Hosted, error: &WireError) -> Ending {
        let agent = Arg::from(&hosted.agent.name);
        let message = match error {
            WireError::TooLong { limit } => tr(
                "acp-too_long",
                &[
                    ("agent", agent),
                    ("limit", Arg::from(limit / (1024 * 1024))),
                ],
            ),
            WireError::NotJsonRpc => tr("acp-not_json", &[("agent", agent)]),
            WireError::Closed | WireError::Write(_) | WireError::Read(_) => {
                tr("acp-exited", &[("agent", agent)])
            }
        };
        failed(message, self.detail(hosted, &error.to_string()))
    }

    fn hung(&self, hosted: &mut Hosted, waited: Duration) -> Ending {
        failed(
            tr(
                "acp-hung",
                &[
                    ("agent", Arg::from(&hosted.agent.name)),
                    ("seconds", Arg::from(waited.as_secs())),
                ],
            ),
            self.detail(hosted, "no message from the agent in time"),
        )
    }

    fn flooded(&self, hosted: &mut Hosted) -> Ending {
        failed(
            tr(
                "acp-flood",
                &[
                    ("agent", Arg::from(&hosted.agent.name)),
                    ("count", Arg::from(hosted.limits.messages)),
                ],
            ),
            format!("more than {} messages in one task", hosted.limits.messages),
        )
    }

    fn broke(&self, hosted: &mut Hosted, detail: String) -> Ending {
        failed(
            tr("acp-not_json", &[("agent", Arg::from(&hosted.agent.name))]),
            detail,
        )
    }

    /// The agent answered one of our requests with an error.
    fn refused(&self, hosted: &mut Hosted, method: &str, error: &RpcError) -> Ending {
        let agent = Arg::from(&hosted.agent.name);
        let said = clean(&error.message, 300);
        let message = if error.code == AUTH_REQUIRED {
            let program = hosted.agent.command.first().cloned().unwrap_or_default();
            tr(
                "acp-sign_in",
                &[
                    ("agent", agent),
                    ("program", Arg::from(clean(&program, 80))),
                ],
            )
        } else {
            tr(
                "acp-refused",
                &[("agent", agent), ("why", Arg::from(&said))],
            )
        };
        let what = format!("{method} answered error {}: {said}", error.code);
        failed(message, self.detail(hosted, &what))
    }

    /// The technical side of a failure, with the end of what the agent printed on stderr.
    fn detail(&self, hosted: &mut Hosted, what: &str) -> String {
        let exit = hosted
            .wire
            .exited()
            .map(|status| format!(" ({status})"))
            .unwrap_or_default();
        let tail = hosted.wire.stderr_tail();
        if tail.trim().is_empty() {
            format!("{what}{exit}")
        } else {
            format!("{what}{exit}\n{tail}")
        }
    }
}

fn failed(message: String, detail: String) -> Ending {
    (RunStatus::Failed, Some(message), Some(detail))
}

/// `text` from the agent on one line, at most `chars` characters ([`crate::text`]).
fn clean(text: &str, chars: usize) -> String {
    crate::text::display_label(text, chars)
}

/// The lines of `text` that `fs/read_text_file` asked for: from `line` (1-based), at most
/// `limit` of them; all of it when neither is given.
fn lines(text: &str, line: Option<&Value>, limit: Option<&Value>) -> String {
    let first = line.and_then(Value::as_u64).unwrap_or(1).max(1);
    let limit = limit.and_then(Value::as_u64);
    if first == 1 && limit.is_none() {
        return text.to_owned();
    }
    let skip = usize::try_from(first - 1).unwrap_or(usize::MAX);
    let take = limit.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
    text.split_inclusive('\n').skip(skip).take(take).collect()
}
