//! One tool call, in two halves: [`Run::prepare_call`] describes it, asks the policy and, when
//! the policy asks, registers the approval (so every card of a turn shows at once);
//! [`Run::complete_call`] waits for the answer, re-checks that what was shown is still what
//! would happen, runs it, and applies what Stop means for this tool ([`OnStop`]).
//!
//! Describing and fingerprinting read files (a write's target is hashed, a folder to delete is
//! walked), so they run on the blocking pool, not on the async workers.

use super::run::Run;
use super::{wording, MAX_DENIED_REPEATS};
use crate::approvals::{ApprovalError, CardWords, NewApproval, PendingApproval, Reword};
use crate::audit::{AuditRecord, AuditSink};
use crate::canonical::canonical_json;
use crate::i18n::{tr, with_language, Arg, Language};
use crate::policy::MainArgument;
use crate::policy::{CallFacts, HiddenError, PolicyDecision};
use crate::provider::ToolCall;
use crate::tools::{CallDescription, OnStop, Tool, ToolError, ToolSet, Workspace};
use crate::undo::{Change, UndoStore};
use askfirst_protocol::{
    ApprovalScope, ApprovalSource, CancelCause, DenialSource, NotRun, Outcome, PolicyLayer,
    ToolCallStatus,
};
use std::collections::HashMap;
use std::sync::Arc;

/// The arguments of a call as they key its denial: canonical JSON where the arguments have a
/// canonical form, else the exact text the model sent (never mixed up with a canonical one).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum ArgumentsKey {
    Canonical(String),
    Raw(String),
}

/// Which call a denial answers: the tool and its arguments.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct DenialKey {
    tool_name: String,
    arguments: ArgumentsKey,
}

impl DenialKey {
    fn of(call: &ToolCall, canonical: Option<&str>) -> Self {
        Self {
            tool_name: call.name.clone(),
            arguments: match canonical {
                Some(canonical) => ArgumentsKey::Canonical(canonical.to_owned()),
                None => ArgumentsKey::Raw(call.arguments_json.clone()),
            },
        }
    }
}

/// A call denied earlier in the run, and how often the model has repeated it since.
struct DeniedCall {
    reason: NotRun,
    layer: PolicyLayer,
    repeats: usize,
}

/// The calls denied in this run: an identical call gets the same answer without a card, and
/// the run stops once the model has repeated one [`MAX_DENIED_REPEATS`] times. A new run (a
/// new message from the person) starts with none.
#[derive(Default)]
pub(super) struct DeniedCalls {
    calls: HashMap<DenialKey, DeniedCall>,
}

impl DeniedCalls {
    /// Records a denial and gives the call's result.
    pub(super) fn remember(
        &mut self,
        key: DenialKey,
        reason: NotRun,
        layer: PolicyLayer,
    ) -> CallResult {
        self.calls.insert(
            key,
            DeniedCall {
                reason: reason.clone(),
                layer,
                repeats: 0,
            },
        );
        CallResult::not_run(ToolCallStatus::Denied, reason, Some(layer))
    }

    /// The answer to a repeat of a denied call (`summary` is its card's), if it is one.
    fn repeat(&mut self, key: &DenialKey, summary: &str) -> Option<CallResult> {
        let previous = self.calls.get_mut(key)?;
        previous.repeats += 1;
        let mut result = CallResult::not_run(
            ToolCallStatus::Denied,
            NotRun::Repeated {
                earlier: Box::new(previous.reason.clone()),
            },
            Some(previous.layer),
        );
        result.stop_run =
            (previous.repeats >= MAX_DENIED_REPEATS).then(|| wording::run_kept_asking(summary));
        Some(result)
    }
}

/// What a call's result says: the tool's own output (or error), or why it did not run.
pub(super) enum Said {
    Output(String),
    NotRun(NotRun),
    /// The tool failed: what the model is told (English) and what the person is told.
    Failed {
        model: String,
        person: String,
    },
}

/// How one call ended.
pub(super) struct CallResult {
    pub(super) status: ToolCallStatus,
    pub(super) said: Said,
    pub(super) layer: Option<PolicyLayer>,
    /// Set when the run must stop after this call, with the reason shown to the person.
    pub(super) stop_run: Option<String>,
    /// The call's summary, when Stop came while it ran and it was let finish
    /// ([`OnStop::Finish`]): the run's end says so to the person.
    pub(super) finished_after_stop: Option<String>,
    /// The person changed the call on its card ([`Outcome::Changed`]) to these arguments:
    /// this is not the call's end, and [`Run::complete_call`] judges the changed call anew
    /// (never seen past it).
    pub(super) changed_to: Option<String>,
    /// The first sentence of the model's result (English), when what was judged and run is
    /// the person's changed call: the model is told that, and to what.
    pub(super) model_note: Option<String>,
}

impl CallResult {
    /// The call failed before its tool ran: the model is told `model` (English), the person
    /// `person`.
    pub(super) fn failed(model: String, person: String) -> Self {
        Self {
            status: ToolCallStatus::Failed,
            said: Said::Failed { model, person },
            layer: None,
            stop_run: None,
            finished_after_stop: None,
            changed_to: None,
            model_note: None,
        }
    }

    /// The person changed the call on its card to `arguments_json` (see
    /// [`CallResult::changed_to`]).
    pub(super) fn changed(arguments_json: String, layer: PolicyLayer) -> Self {
        let mut result = Self::not_run(
            ToolCallStatus::Cancelled,
            NotRun::RunEndedBefore,
            Some(layer),
        );
        result.changed_to = Some(arguments_json);
        result
    }

    /// The call failed with `error`: the model gets its English, the person its sentence.
    fn tool_failed(error: &ToolError, layer: Option<PolicyLayer>) -> Self {
        Self {
            status: ToolCallStatus::Failed,
            said: Said::Failed {
                model: error.to_string(),
                person: error.for_person(),
            },
            layer,
            stop_run: None,
            finished_after_stop: None,
            changed_to: None,
            model_note: None,
        }
    }

    /// The call was not finished because Ask First is shutting down.
    pub(super) fn shut_down(layer: PolicyLayer) -> Self {
        Self::not_run(
            ToolCallStatus::Cancelled,
            NotRun::Cancelled {
                cause: CancelCause::AppShutdown,
            },
            Some(layer),
        )
    }

    pub(super) fn not_run(
        status: ToolCallStatus,
        reason: NotRun,
        layer: Option<PolicyLayer>,
    ) -> Self {
        Self {
            status,
            said: Said::NotRun(reason),
            layer,
            stop_run: None,
            finished_after_stop: None,
            changed_to: None,
            model_note: None,
        }
    }
}

/// A tool call after its first half: either already answered, or ready to wait and run.
pub(super) enum Prepared {
    Done(CallResult),
    Ready(Box<ReadyCall>),
}

pub(super) struct ReadyCall {
    tool: Arc<dyn Tool>,
    /// The registered approval, when the policy asked.
    pending: Option<PendingApproval>,
    layer: PolicyLayer,
    canonical: Option<String>,
    summary: String,
    key: DenialKey,
    /// The target as described (see [`CallDescription::fingerprint`]).
    fingerprint: Option<String>,
    /// Where the call's paths led when it was described and decided on
    /// ([`MainArgument::resolved`]).
    leads_to: Vec<Option<std::path::PathBuf>>,
    /// The ask rule whose card this is ([`crate::policy::Verdict::asking_rule`]).
    asking_rule: Option<String>,
    /// For a command tried on a copy first ([`super::try_first`]): whether with the network
    /// (the card before the try asked about its use of it).
    try_first: Option<bool>,
}

/// The arguments of a call of `tool` the person may change on its card before saying yes
/// ([`askfirst_protocol::ApprovalRequest::editable`]): the file name and the text of a write,
/// the file name and the new text of an edit, the destination of a move, the command line of
/// a command. Another program's tool (an MCP server's) offers none: Ask First cannot tell
/// what its arguments mean.
pub(super) fn editable(tool: &dyn Tool) -> Vec<String> {
    if tool.mcp_server().is_some() {
        return Vec::new();
    }
    let names: &[&str] = match tool.name() {
        "write_file" => &["path", "content"],
        "edit_file" => &["path", "new_text"],
        "move_path" => &["to"],
        "run_command" => &["command"],
        _ => &[],
    };
    names.iter().map(|name| (*name).to_owned()).collect()
}

/// Where each path argument of a call leads on disk ([`MainArgument::resolved`]), in order.
fn leads_to(main_arguments: &[MainArgument]) -> Vec<Option<std::path::PathBuf>> {
    main_arguments.iter().map(|a| a.resolved.clone()).collect()
}

/// Where the call's paths lead now, read off the async workers.
async fn leads_to_now(
    tool: &Arc<dyn Tool>,
    arguments_json: &str,
    ws: &Workspace,
) -> Option<Vec<Option<std::path::PathBuf>>> {
    let (tool, arguments, ws) = (Arc::clone(tool), arguments_json.to_owned(), ws.clone());
    off_worker(move || leads_to(&tool.main_arguments(&arguments, &ws))).await
}

/// Runs `work` on the blocking pool. A panic in it goes on in the caller (the run's
/// supervisor then ends the run); `None` when the runtime is shutting down.
pub(super) async fn off_worker<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    match tokio::task::spawn_blocking(work).await {
        Ok(value) => Some(value),
        Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
        Err(_) => None,
    }
}

/// The tool's description of the call and the arguments the policy looks at, read off the
/// async workers.
async fn describe(
    tool: &Arc<dyn Tool>,
    arguments_json: &str,
    ws: &Workspace,
    undo: Option<&UndoStore>,
) -> Option<(Result<CallDescription, ToolError>, Vec<MainArgument>)> {
    let (tool, arguments, ws) = (Arc::clone(tool), arguments_json.to_owned(), ws.clone());
    let undo = undo.cloned();
    off_worker(move || describe_now(&tool, &arguments, &ws, undo.as_ref())).await
}

/// [`describe`] on this thread (it may read files).
fn describe_now(
    tool: &Arc<dyn Tool>,
    arguments: &str,
    ws: &Workspace,
    undo: Option<&UndoStore>,
) -> (Result<CallDescription, ToolError>, Vec<MainArgument>) {
    let mut description = tool.describe(arguments, ws);
    // A change that cannot be undone says so on its card, before it is approved.
    if let (Ok(description), Some(store)) = (&mut description, undo) {
        if let Some(note) = tool
            .planned_change(arguments, ws)
            .and_then(|planned| crate::undo::card_note(store, &planned))
        {
            description.effects.push(note);
        }
    }
    let main = match &description {
        Ok(_) => tool.main_arguments(arguments, ws),
        Err(_) => Vec::new(),
    };
    (description, main)
}

/// The card's effects: the tool's, and, for a command shut in, a sentence naming the rules
/// whose places are hidden from it and one naming those whose places it may only read (up to
/// three each, then how many more). `asking_rule`: the ask rule whose card this is, which opens
/// what it keeps once approved, so it is not named (see
/// [`crate::policy::Policy::hidden_from_command`]).
pub(super) fn card_effects(
    policy: &crate::policy::Policy,
    tool: &dyn Tool,
    mut effects: Vec<String>,
    asking_rule: Option<&str>,
    tried_first: bool,
) -> Vec<String> {
    use crate::policy::kept::Keep;
    const NAMED: usize = 3;
    if tool.name() != "run_command" || !crate::tools::sandbox::Confinement::detected().is_confined()
    {
        return effects;
    }
    let rules = if tried_first {
        policy.kept_from_tried_command(asking_rule)
    } else {
        policy.kept_from_command(asking_rule)
    };
    for (keep, key, key_more) in [
        (Keep::Hidden, "confinement-kept", "confinement-kept_more"),
        (
            Keep::ReadOnly,
            "confinement-read_only",
            "confinement-read_only_more",
        ),
    ] {
        let rules: Vec<&str> = rules
            .iter()
            .filter(|(k, _)| *k == keep)
            .map(|(_, sentence)| sentence.as_str())
            .collect();
        if rules.is_empty() {
            continue;
        }
        let named = Arg::from(rules[..rules.len().min(NAMED)].join("; "));
        effects.push(if rules.len() > NAMED {
            tr(
                key_more,
                &[("rules", named), ("more", Arg::from(rules.len() - NAMED))],
            )
        } else {
            tr(key, &[("rules", named)])
        });
    }
    effects
}

/// What the policy decides about a described call: the one place its facts are gathered,
/// for the call's first look ([`Run::prepare_call`]) and for its card's words made again
/// ([`Shown::reword`]). `canonical`: the arguments' canonical JSON, if they have one.
fn judge(
    policy: &crate::policy::Policy,
    tool: &dyn Tool,
    description: &CallDescription,
    main_arguments: &[MainArgument],
    canonical: Option<&str>,
) -> crate::policy::Verdict {
    policy.decide(&CallFacts {
        tool_name: tool.name(),
        read_only: tool.read_only(),
        risk: description.risk,
        main_arguments,
        canonical_arguments: canonical,
        mcp_server: tool.mcp_server(),
        fingerprint: description.fingerprint.as_deref(),
    })
}

/// What a waiting card of this call needs to say it again in another language.
struct Shown {
    tool: Arc<dyn Tool>,
    arguments_json: String,
    workspace: Workspace,
    undo: Option<UndoStore>,
    policy: Arc<crate::policy::Policy>,
    /// The facts the card's words were made from: the new words are taken only when the
    /// call is described with the same ones.
    preview: Option<String>,
    fingerprint: Option<String>,
    risk: askfirst_protocol::Risk,
    layer: PolicyLayer,
    grantable: bool,
    /// The ask rule whose card this is ([`crate::policy::Verdict::asking_rule`]).
    asking_rule: Option<String>,
}

impl Shown {
    /// The card's words made again in the current language, as [`Run::prepare_call`] made
    /// them: `None` when the call's target is no longer what the card shows (another preview
    /// or fingerprint), or the policy would no longer ask in the same way (the card then keeps
    /// its words; the check before running still catches a changed target).
    fn reword(&self) -> Option<CardWords> {
        let (described, main_arguments) = describe_now(
            &self.tool,
            &self.arguments_json,
            &self.workspace,
            self.undo.as_ref(),
        );
        let description = described.ok()?;
        if description.preview != self.preview
            || description.fingerprint != self.fingerprint
            || description.risk != self.risk
        {
            return None;
        }
        let canonical = canonical_json(&self.arguments_json);
        let verdict = judge(
            &self.policy,
            self.tool.as_ref(),
            &description,
            &main_arguments,
            canonical.as_deref(),
        );
        let PolicyDecision::Ask { reason } = verdict.decision else {
            return None;
        };
        (verdict.layer == self.layer).then(|| CardWords {
            summary: description.summary,
            reason,
            effects: card_effects(
                &self.policy,
                self.tool.as_ref(),
                description.effects,
                self.asking_rule.as_deref(),
                false,
            ),
            grant_scope: self.grantable.then(wording::grant_scope),
            detail: description.detail,
        })
    }
}

/// The call's target as it is now ([`Tool::fingerprint`]), read off the async workers.
async fn fingerprint(tool: &Arc<dyn Tool>, arguments_json: &str, ws: &Workspace) -> Option<String> {
    let (tool, arguments, ws) = (Arc::clone(tool), arguments_json.to_owned(), ws.clone());
    off_worker(move || tool.fingerprint(&arguments, &ws))
        .await
        .flatten()
}

impl Run {
    /// Says that the model proposed `call` (its `ToolCallProposed`), or, when `asked` holds the
    /// model's own arguments, that the person changed it to `call` (its `ToolCallChanged`).
    fn propose(&self, call: &ToolCall, summary: String, asked: Option<&str>) {
        self.emit(match asked {
            None => askfirst_protocol::AgentEvent::ToolCallProposed {
                run_id: self.id,
                tool_call_id: call.id.clone(),
                tool_name: call.name.clone(),
                arguments_json: call.arguments_json.clone(),
                summary,
            },
            Some(asked) => askfirst_protocol::AgentEvent::ToolCallChanged {
                run_id: self.id,
                tool_call_id: call.id.clone(),
                tool_name: call.name.clone(),
                asked_arguments_json: asked.to_owned(),
                arguments_json: call.arguments_json.clone(),
                summary,
            },
        });
    }

    /// First half of one tool call: describe it, ask the policy, and when it asks, register
    /// the approval (so every card of a turn shows at once). Nothing runs here. `asked`: the
    /// model's own arguments, when `call` is the person's change of them (judged from
    /// scratch all the same: description, policy, confinement, diff, fingerprints, the try).
    pub(super) async fn prepare_call(
        &mut self,
        call: &ToolCall,
        tools: &ToolSet,
        asked: Option<&str>,
    ) -> Prepared {
        let ws = self.workspace.clone();
        // The folder went away during the run (deleted, moved, a disk unplugged): nothing is
        // described or asked about there ("outside your work folder" would be the wrong reason);
        // the run ends with a sentence, and the window offers another folder.
        if ws.is_gone() {
            let _ = self.rt.folder();
            self.propose(call, wording::use_the_tool(&call.name), asked);
            return Prepared::Done(self.folder_gone());
        }
        let tool = tools.get(&call.name);
        let described = match &tool {
            Some(tool) => {
                describe(
                    tool,
                    &call.arguments_json,
                    &ws,
                    self.rt.config.undo.as_ref(),
                )
                .await
            }
            None => None,
        };
        let summary = match &described {
            Some((Ok(d), _)) => d.summary.clone(),
            _ => wording::use_the_tool(&call.name),
        };
        self.propose(call, summary.clone(), asked);
        let (tool, description, main_arguments) = match (tool, described) {
            (Some(tool), Some((Ok(description), main))) => (tool, description, main),
            (Some(_), Some((Err(e), _))) => {
                return Prepared::Done(CallResult::tool_failed(&e, None))
            }
            (None, _) | (Some(_), None) => {
                // A tool of an MCP server that is not working: say why, not just "no such tool".
                let (model, person) = match self.rt.catalog.server_failure(&call.name) {
                    Some((for_model, for_person)) => (
                        wording::server_down(&call.name, &for_model),
                        wording::server_down_for_person(&call.name, &for_person),
                    ),
                    None => {
                        let names: Vec<String> =
                            tools.names().into_iter().map(str::to_owned).collect();
                        (
                            wording::no_such_tool(&call.name, &names),
                            wording::no_such_tool_for_person(&call.name),
                        )
                    }
                };
                return Prepared::Done(CallResult::failed(model, person));
            }
        };
        let canonical = canonical_json(&call.arguments_json);
        // A call without a canonical form is remembered by its exact text.
        let key = DenialKey::of(call, canonical.as_deref());
        if let Some(repeat) = self.denied.repeat(&key, &summary) {
            return Prepared::Done(repeat);
        }
        let verdict = judge(
            &self.rt.config.policy,
            tool.as_ref(),
            &description,
            &main_arguments,
            canonical.as_deref(),
        );
        let layer = verdict.layer;
        let asking_rule = verdict.asking_rule.clone();
        // A command is tried on a copy of the folder first, where this computer can make one:
        // its card, if any, shows what it did. Only an ask rule's card, one about the internet
        // (the try has none), or one whose words reach outside the folder (what it reads there
        // would reach the model with no card) comes before the try.
        let (try_first, outside) = if call.name == "run_command" {
            let (arguments, ws) = (call.arguments_json.clone(), ws.clone());
            off_worker(move || {
                if !crate::tools::copy::available(&ws) {
                    return (None, false);
                }
                let said = crate::tools::before_trying(&arguments, &ws);
                (Some(said.network), said.outside)
            })
            .await
            .unwrap_or((None, false))
        } else {
            (None, false)
        };
        let pending = match verdict.decision {
            PolicyDecision::Allow => {
                self.decided(call, true, layer, &verdict.note);
                None
            }
            // Its card comes after the try (or none, if it changes nothing): an ordinary
            // command, or one an ask rule about changing files is about (that rule asks on
            // the card of its changes).
            PolicyDecision::Ask { .. }
                if try_first == Some(false)
                    && !outside
                    && match (&asking_rule, layer) {
                        (None, PolicyLayer::ToolDefault) => true,
                        (Some(rule), PolicyLayer::UserRule) => {
                            self.rt.config.policy.asks_only_about_changes(rule)
                        }
                        _ => false,
                    } =>
            {
                self.decided(
                    call,
                    true,
                    layer,
                    "tried on a copy of the folder first; its changes, if any, are asked about",
                );
                None
            }
            PolicyDecision::Deny { reason, wording } => {
                self.decided(call, false, layer, &reason);
                let wording = Some(wording);
                let reason = if layer == PolicyLayer::HardDenial {
                    NotRun::HardDenial { reason, wording }
                } else {
                    NotRun::DeniedByRule {
                        reason: Some(reason),
                        wording,
                    }
                };
                return Prepared::Done(self.denied.remember(key, reason, layer));
            }
            PolicyDecision::Ask { reason } => {
                // A grant only helps where grants are consulted: not past an "ask" rule or a
                // broken rules file, which sit above grants.
                let grantable = canonical.is_some() && layer == PolicyLayer::ToolDefault;
                let shown = Shown {
                    tool: Arc::clone(&tool),
                    arguments_json: call.arguments_json.clone(),
                    workspace: ws.clone(),
                    undo: self.rt.config.undo.clone(),
                    policy: Arc::clone(&self.rt.config.policy),
                    preview: description.preview.clone(),
                    fingerprint: description.fingerprint.clone(),
                    risk: description.risk,
                    layer,
                    grantable,
                    asking_rule: asking_rule.clone(),
                };
                let request = NewApproval {
                    run_id: self.id,
                    tool_call_id: call.id.clone(),
                    tool_name: call.name.clone(),
                    arguments_json: call.arguments_json.clone(),
                    summary: summary.clone(),
                    reason,
                    risk: description.risk,
                    policy_layer: layer,
                    grant_scope: grantable.then(wording::grant_scope),
                    preview: description.preview.clone(),
                    effects: card_effects(
                        &self.rt.config.policy,
                        tool.as_ref(),
                        description.effects.clone(),
                        asking_rule.as_deref(),
                        false,
                    ),
                    detail: description.detail.clone(),
                    change: description.change,
                    reword: Some(Reword::new(move || shown.reword())),
                    resumed: false,
                    // Another agent's call is not changed on its card: its model could not be
                    // told that what it wrote is not what it sent.
                    editable: if self.agent.is_some() {
                        Vec::new()
                    } else {
                        editable(tool.as_ref())
                    },
                    agent: self.agent.clone(),
                };
                match self.register(request, &key, layer) {
                    Ok(pending) => Some(pending),
                    Err(done) => return Prepared::Done(*done),
                }
            }
        };
        Prepared::Ready(Box::new(ReadyCall {
            tool,
            pending,
            layer,
            canonical,
            summary,
            key,
            fingerprint: description.fingerprint,
            leads_to: leads_to(&main_arguments),
            asking_rule,
            try_first,
        }))
    }

    /// Second half of one tool call: wait for its approval (if it asked), then run it.
    /// The result of a call whose folder went away during the run: not done, and the run
    /// stops with a sentence that says why; the window's folder line says it is gone.
    fn folder_gone(&self) -> CallResult {
        let _ = self.rt.folder();
        let shown = crate::app::folder::display_path(self.workspace.root(), own_home().as_deref());
        let mut result = CallResult::failed(
            wording::folder_gone_for_model(),
            wording::folder_gone(&shown),
        );
        result.stop_run = Some(wording::run_folder_gone(&shown));
        result
    }

    /// Second half of one tool call (see [`Self::complete_prepared`]); when the person changes
    /// the call on its card, the changed call is prepared and completed in its place, as a new
    /// proposal (its own card or refusal), as often as they change it. The result of a
    /// changed call tells the model first that the person changed it, and to what.
    pub(super) async fn complete_call(
        &mut self,
        call: &ToolCall,
        prepared: Prepared,
        tools: &ToolSet,
    ) -> CallResult {
        let mut prepared = prepared;
        // The person's latest change of the call, once there is one.
        let mut changed: Option<ToolCall> = None;
        loop {
            let this = changed.as_ref().unwrap_or(call);
            let mut result = self.complete_prepared(this, prepared).await;
            let Some(arguments_json) = result.changed_to.take() else {
                if let Some(changed) = &changed {
                    result.model_note = Some(wording::changed_call_for_model(
                        changed,
                        result.status == ToolCallStatus::Succeeded,
                    ));
                }
                return result;
            };
            let next = ToolCall {
                arguments_json,
                ..call.clone()
            };
            prepared = self
                .prepare_call(&next, tools, Some(&call.arguments_json))
                .await;
            changed = Some(next);
        }
    }

    /// Waits for the prepared call's answer and runs it (or says why not); a change the person
    /// made on its card comes back as [`CallResult::changed_to`].
    async fn complete_prepared(&mut self, call: &ToolCall, prepared: Prepared) -> CallResult {
        let ready = match prepared {
            Prepared::Done(result) => return result,
            Prepared::Ready(ready) => *ready,
        };
        let ReadyCall {
            tool,
            pending,
            layer,
            canonical,
            summary,
            key,
            fingerprint: shown,
            leads_to: led_to,
            asking_rule,
            try_first,
        } = ready;
        let config = &self.rt.config;
        let ws = &self.workspace;
        let mut approved = false;
        if let Some(pending) = pending {
            // Stop reaches a waiting approval through the registry (`cancel_run` settles it as
            // Cancelled{run_aborted}), so the outcome the waiter gets is always the one that
            // was recorded and announced.
            match pending.wait().await {
                Outcome::Approved { scope, source } => {
                    approved = true;
                    if let (ApprovalScope::Session, ApprovalSource::User, Some(canonical)) =
                        (scope, source, &canonical)
                    {
                        self.grant(call, canonical, shown.as_deref(), &summary);
                    }
                }
                Outcome::Denied {
                    source,
                    reason,
                    wording,
                } => {
                    let reason = wording::denial(source, reason.as_deref(), wording.as_ref());
                    return self.denied.remember(key, reason, layer);
                }
                Outcome::Cancelled { cause } => {
                    return CallResult::not_run(
                        ToolCallStatus::Cancelled,
                        NotRun::Cancelled { cause },
                        Some(layer),
                    )
                }
                Outcome::Changed { arguments_json, .. } => {
                    return CallResult::changed(arguments_json, layer)
                }
            }
        }
        // A call the person approved runs even if Stop came after the approval (the tool runs
        // if and only if the outcome is Approved); a call allowed without asking does not
        // start once the run is stopped.
        if self.token.is_cancelled() && !approved {
            let cause = self.rt.stop_cause();
            return CallResult::not_run(
                ToolCallStatus::Cancelled,
                NotRun::Cancelled { cause },
                Some(layer),
            );
        }
        // Nor where the folder went away while the card waited.
        if ws.is_gone() {
            return self.folder_gone();
        }
        // What was shown (and approved) must still be what would happen: a file edited by the
        // person, or by an earlier call, while the card waited is not overwritten, and a folder
        // that filled up meanwhile is not moved to the trash.
        if let Some(expected) = &shown {
            if fingerprint(&tool, &call.arguments_json, ws)
                .await
                .as_deref()
                != Some(expected.as_str())
            {
                return CallResult::not_run(
                    ToolCallStatus::Failed,
                    NotRun::ChangedAfterShown { summary },
                    Some(layer),
                );
            }
        }
        // Nor does it run where the card did not say: a folder on the way replaced by a link
        // since (by an earlier call of the turn) would take it elsewhere, past what the card
        // said and what the policy decided on, though the file there looks the same. (A
        // command is shut in by the kernel without what the rules keep from it, wherever its
        // words lead; a link an earlier command of the turn made for it is no reason to stop.)
        if call.name != "run_command"
            && leads_to_now(&tool, &call.arguments_json, ws).await.as_ref() != Some(&led_to)
        {
            return CallResult::not_run(
                ToolCallStatus::Failed,
                NotRun::ChangedAfterShown { summary },
                Some(layer),
            );
        }
        // A command is shut in without what the person's rules keep (read now: the rules in
        // force for this run): what a deny rule is about, and what an ask rule is about, except
        // the one ask rule whose card the person approved for this very command (its card
        // named the rule; an ordinary command card did not say the command could reach it).
        let for_commands;
        let ws = if call.name == "run_command" {
            let opened = asking_rule.clone().filter(|_| approved);
            // Looking through the workspace for glob rules reads the disk: off the workers.
            let (policy, root) = (Arc::clone(&config.policy), ws.root().to_owned());
            let hidden = off_worker(move || {
                if try_first.is_some() {
                    policy.hidden_from_tried_command(&root, opened.as_deref())
                } else {
                    policy.hidden_from_command(&root, opened.as_deref())
                }
            })
            .await
            .unwrap_or(Err(HiddenError::TooBig {
                cap: crate::policy::kept::LOOK_CAP,
            }));
            match hidden {
                Ok(hidden) => {
                    for_commands = ws.clone().hiding_from_commands(hidden);
                    &for_commands
                }
                Err(error) => {
                    let words = || error.for_person();
                    return CallResult::failed(with_language(Language::En, words), words());
                }
            }
        } else {
            ws
        };
        if let Some(network) = try_first {
            let ws = ws.clone();
            let opened = asking_rule.filter(|_| approved);
            return self
                .try_command(call, &ws, layer, network, key, opened.as_deref())
                .await;
        }
        // What the call will change is kept, and recorded, before it takes effect; a change
        // whose before-copy cannot be kept is not made.
        let kept = match self.keep_for_undo(&tool, call).await {
            Ok(kept) => kept,
            Err((model, person)) => return CallResult::failed(model, person),
        };
        self.emit(askfirst_protocol::AgentEvent::ToolCallStarted {
            run_id: self.id,
            tool_call_id: call.id.clone(),
        });
        // Stop while a tool runs: what happens, and what is said, depends on the tool
        // (`OnStop`): a command's whole process group is killed; a file write is let finish
        // and reported as it ended; an MCP server's answer is no longer waited for.
        let execution = tool.execute(&call.arguments_json, ws);
        tokio::pin!(execution);
        let mut stopped_while_running = false;
        let executed = tokio::select! {
            biased;
            result = &mut execution => result,
            () = self.token.cancelled() => {
                let cause = self.rt.stop_cause();
                match tool.on_stop() {
                    OnStop::Finish => {
                        stopped_while_running = true;
                        execution.await
                    }
                    OnStop::Interrupt => {
                        return CallResult::not_run(
                            ToolCallStatus::Cancelled,
                            NotRun::Interrupted { cause },
                            Some(layer),
                        )
                    }
                    // Not "not done": it may have been.
                    OnStop::Abandon => {
                        return CallResult::not_run(
                            ToolCallStatus::Failed,
                            NotRun::NoLongerAwaited { cause },
                            Some(layer),
                        )
                    }
                }
            }
        };
        // Let finish after a Stop: said, so nobody wonders why it ran after the Stop.
        let after_stop = |text: String| {
            if stopped_while_running {
                wording::finished_after_stop(&text)
            } else {
                text
            }
        };
        let finished_after_stop = stopped_while_running.then(|| summary.clone());
        // A grant covers the state its card showed, and, for a call whose repeat changes
        // nothing (a write), the state this very action left: the same write again still runs
        // without asking, but a file changed by anything else asks again, and so does an edit
        // whose text would match again (found by an attacker: 1 → 10 → 100 → 1000).
        if let (Ok(_), Some(canonical), true) =
            (&executed, &canonical, tool.repeat_changes_nothing())
        {
            let now = fingerprint(&tool, &call.arguments_json, ws).await;
            config
                .policy
                .grant_state_now(&call.name, canonical, now.as_deref());
        }
        if let (Ok(_), Some((change_id, change))) = (&executed, kept) {
            self.change_applied(change_id, change).await;
        }
        let (status, said) = match executed {
            Ok(output) => (ToolCallStatus::Succeeded, Said::Output(after_stop(output))),
            // The person is told of the stop at the run's end.
            Err(e) => (
                ToolCallStatus::Failed,
                Said::Failed {
                    model: after_stop(e.to_string()),
                    person: e.for_person(),
                },
            ),
        };
        CallResult {
            status,
            said,
            layer: Some(layer),
            stop_run: None,
            finished_after_stop,
            changed_to: None,
            model_note: None,
        }
    }

    /// Registers the approval `request` of a call (its denial key `key`, decided at `layer`):
    /// the pending approval, or the call's result when it cannot be asked (Ask First is
    /// shutting down, or no one can answer). Stop may have come while the call was described
    /// (off the workers), after `cancel_run` ended what was waiting: this one is ended the
    /// same way, so it is not left waiting for a run that has stopped.
    pub(super) fn register(
        &mut self,
        mut request: NewApproval,
        key: &DenialKey,
        layer: PolicyLayer,
    ) -> Result<PendingApproval, Box<CallResult>> {
        // What the run needs to go on after a restart is in the log already; the mark says
        // there is something to go on with.
        self.leave_mark();
        request.resumed = self.resuming.get(&request.tool_call_id) == Some(&request.arguments_json);
        match self.rt.registry.request(request) {
            Ok(pending) => {
                if self.token.is_cancelled() {
                    self.rt.registry.cancel_run(self.id);
                }
                Ok(pending)
            }
            Err(ApprovalError::ShuttingDown) => Err(Box::new(CallResult::shut_down(layer))),
            Err(error) => {
                let why = error.to_string();
                let reason = wording::denial(
                    DenialSource::Unavailable,
                    Some(&why),
                    error.wording().as_ref(),
                );
                Err(Box::new(self.denied.remember(key.clone(), reason, layer)))
            }
        }
    }

    /// Keeps what the call will change (a before-copy) and records it, synced, before the
    /// call runs ([`crate::undo`]). `Ok(None)`: nothing to keep. `Err`: the sentence for the
    /// model (English) and for the person; the change is then not made.
    async fn keep_for_undo(
        &self,
        tool: &Arc<dyn Tool>,
        call: &ToolCall,
    ) -> Result<Option<(String, Change)>, (String, String)> {
        let Some(store) = self.rt.config.undo.clone() else {
            return Ok(None);
        };
        let (tool, arguments, ws) = (
            Arc::clone(tool),
            call.arguments_json.clone(),
            self.workspace.clone(),
        );
        let captured = off_worker(move || {
            let planned = tool.planned_change(&arguments, &ws)?;
            Some(crate::undo::capture(&store, &ws, &planned).map(|change| (change, ws)))
        })
        .await
        .flatten();
        let (change, ws) = match captured {
            None => return Ok(None),
            Some(Ok(captured)) => captured,
            Some(Err(error)) => {
                eprintln!("askfirst: {error}");
                return Err((
                    crate::undo::words::copy_refused_in(crate::i18n::Language::En, &error.file),
                    crate::undo::words::copy_refused_in(crate::i18n::language(), &error.file),
                ));
            }
        };
        let change_id = uuid::Uuid::new_v4().to_string();
        let record = AuditRecord::ChangeSaved {
            change_id: change_id.clone(),
            run_id: self.id,
            tool_call_id: call.id.clone(),
            folder: ws.root().to_owned(),
            folder_id: crate::undo::folder_identity(ws.root()),
            change: change.clone(),
            at: crate::unix_millis_now(),
        };
        if let Err(error) = self.rt.config.log.append(&record) {
            eprintln!("askfirst: {error}");
            return Err((
                crate::undo::words::not_recorded_in(crate::i18n::Language::En),
                crate::undo::words::not_recorded_in(crate::i18n::language()),
            ));
        }
        Ok(Some((change_id, change)))
    }

    /// Records that a kept change took effect, with a hash of what it left.
    async fn change_applied(&self, change_id: String, change: Change) {
        let ws = self.workspace.clone();
        let after_sha256 = off_worker(move || crate::undo::after_hash(&ws, &change))
            .await
            .flatten();
        self.audit(AuditRecord::ChangeApplied {
            change_id,
            after_sha256,
            at: crate::unix_millis_now(),
        });
    }

    /// "Allow for this session": the grant, its record, and the identical calls already
    /// waiting (parallel calls of one turn) answered by it instead of left asking.
    fn grant(&self, call: &ToolCall, canonical: &str, shown: Option<&str>, summary: &str) {
        self.rt
            .config
            .policy
            .grant(&call.name, canonical, shown, summary);
        self.audit(AuditRecord::GrantCreated {
            tool_name: call.name.clone(),
            canonical_arguments: canonical.to_owned(),
            at: crate::unix_millis_now(),
        });
        self.rt.registry.approve_covered(|request| {
            request.grant_scope.is_some()
                && request.tool_name == call.name
                && canonical_json(&request.arguments_json).as_deref() == Some(canonical)
        });
    }
}

/// The person's home folder (`$HOME`), to write paths as they read them (`~/Taxes`).
fn own_home() -> Option<std::path::PathBuf> {
    std::env::var_os("HOME").map(std::path::PathBuf::from)
}
