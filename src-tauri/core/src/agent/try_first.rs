//! `run_command`, tried first (DESIGN.md §7.4, "effects, not words"): the command runs on a
//! copy-on-write copy of the folder ([`crate::tools::copy`]), without the network unless the
//! person approved its use of it; then what it actually did ([`crate::changes`]) decides:
//!
//! - it changed nothing: its output goes to the model, with no card;
//! - a "never" rule (or a hard denial) forbids one of its changes: nothing is applied, and the
//!   rule is named to the person and the model;
//! - every change is in a place a rule allows changes in: they are applied;
//! - otherwise a card lists the changes; Approve applies exactly them (the command is not run
//!   again), Deny discards them.
//!
//! Applying keeps before-copies in the undo store, and the session log records the command's
//! changes as one change, so Activity's Undo takes the whole command back.

use super::call::{card_effects, off_worker, CallResult, DenialKey, Said};
use super::run::Run;
use super::wording;
use crate::approvals::{CardWords, NewApproval, Reword};
use crate::audit::{AuditRecord, AuditSink as _};
use crate::i18n::{tr, with_language, Arg, Language};
use crate::policy::{CallFacts, ChangeShape, PolicyDecision};
use crate::provider::ToolCall;
use crate::tools::copy::CopyFolder;
use crate::tools::{CallDetail, ToolError, Workspace};
use askfirst_protocol::{
    ApprovalScope, ApprovalSource, ChangeKind, FileChange, NotRun, Outcome, PolicyLayer, Risk,
    ToolCallStatus, TriedCommand, Wording,
};

/// The most changes one try may make (files and folders created, changed or deleted); past
/// it, nothing is applied and the person is told.
pub const CHANGE_CAP: usize = 200_000;

/// How many changes the model is told of by name after they were applied.
const NAMED_TO_MODEL: usize = 20;

/// What the rules say about a try's changes.
enum ChangesVerdict {
    /// A rule or a hard denial forbids the change at `path`.
    Forbidden {
        path: String,
        change: ChangeKind,
        reason: String,
        wording: Wording,
        layer: PolicyLayer,
    },
    /// Every change is in a place a rule allows changes in.
    Allowed,
    /// The person must see them; `rule`: the reason of the first ask rule that names one of
    /// them (the card says it), if one does.
    Ask { rule: Option<String> },
}

/// The file tools whose rules a change is judged by: what a "never write" (`write_file`),
/// "never change" (`edit_file`), "never delete" (`delete_path`) or "never move into"
/// (`move_path`, when the command also deleted something: a move shows as delete and create)
/// rule is about.
fn judged_as(change: &FileChange, moves: bool) -> Vec<(&'static str, serde_json::Value)> {
    let path = serde_json::Value::String(change.path.clone());
    let write = || {
        (
            "write_file",
            serde_json::json!({"path": path, "content": ""}),
        )
    };
    match change.change {
        ChangeKind::Created | ChangeKind::Link => {
            let mut tools = vec![write()];
            if moves {
                tools.push(("move_path", serde_json::json!({"from": path, "to": path})));
            }
            tools
        }
        ChangeKind::Changed | ChangeKind::Mode | ChangeKind::Moved => vec![
            write(),
            (
                "edit_file",
                serde_json::json!({"path": path, "old_text": "", "new_text": ""}),
            ),
        ],
        ChangeKind::Deleted => vec![("delete_path", serde_json::json!({"path": path}))],
    }
}

/// Judges every change by the same rules and path matching the file tools use (each change
/// as the file tool call that would make it). Reads the disk (rules with globs look through
/// folders): off the async workers.
fn judge_changes(
    policy: &crate::policy::Policy,
    ws: &Workspace,
    changes: &[FileChange],
) -> ChangesVerdict {
    let tools = crate::tools::ToolSet::builtin();
    let moves = changes.iter().any(|c| c.change == ChangeKind::Deleted);
    let mut all_allowed = true;
    let mut rule = None;
    for change in changes {
        for (tool_name, arguments) in judged_as(change, moves) {
            let Some(tool) = tools.get(tool_name) else {
                all_allowed = false;
                continue;
            };
            let arguments = arguments.to_string();
            let main_arguments = tool.main_arguments(&arguments, ws);
            if main_arguments.is_empty() {
                all_allowed = false;
                continue;
            }
            let verdict = policy.decide(&CallFacts {
                tool_name,
                read_only: false,
                risk: Risk::Medium,
                main_arguments: &main_arguments,
                canonical_arguments: None,
                mcp_server: None,
                fingerprint: None,
            });
            match verdict.decision {
                PolicyDecision::Deny { reason, wording } => {
                    return ChangesVerdict::Forbidden {
                        path: change.path.clone(),
                        change: change.change,
                        reason,
                        wording,
                        layer: verdict.layer,
                    }
                }
                PolicyDecision::Allow if verdict.layer == PolicyLayer::UserRule => {}
                PolicyDecision::Ask { reason } if verdict.layer == PolicyLayer::UserRule => {
                    all_allowed = false;
                    rule.get_or_insert(reason);
                }
                PolicyDecision::Allow | PolicyDecision::Ask { .. } => all_allowed = false,
            }
        }
    }
    if all_allowed {
        ChangesVerdict::Allowed
    } else {
        ChangesVerdict::Ask { rule }
    }
}

/// What a command printed, from the tool's text for the model (`…\nOutput:\n<what it
/// printed>`).
fn printed(model_text: &str) -> String {
    model_text
        .split_once("\nOutput:\n")
        .map(|(_, output)| output.to_owned())
        .unwrap_or_default()
}

/// The card's sentence for how the try ended, in the person's language.
fn ended(result: &Result<String, ToolError>) -> String {
    match result {
        Ok(_) => tr("tried-ended_ok", &[]),
        Err(error) => error
            .for_person()
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned(),
    }
}

/// The English list of changes for the model, up to [`NAMED_TO_MODEL`] by name.
fn changes_for_model(changes: &[FileChange], total: usize) -> String {
    let mut said: Vec<String> = changes
        .iter()
        .take(NAMED_TO_MODEL)
        .map(|c| format!("{} {}", kind_word(c.change), c.path))
        .collect();
    if total > said.len() {
        said.push(format!("and {} more", total - said.len()));
    }
    said.join(", ")
}

impl Run {
    /// Records, without a card, what the policy decided about `call` (before a card would be
    /// shown, or after its try).
    pub(super) fn decided(&self, call: &ToolCall, allowed: bool, layer: PolicyLayer, reason: &str) {
        self.audit(AuditRecord::PolicyDecided {
            run_id: self.id,
            tool_call_id: call.id.clone(),
            tool_name: call.name.clone(),
            arguments_sha256: crate::approvals::sha256_hex(call.arguments_json.as_bytes()),
            allowed,
            policy_layer: layer,
            reason: reason.to_owned(),
            at: crate::unix_millis_now(),
        });
    }

    /// Tries the `run_command` call on a copy of `ws`'s folder (with the network when
    /// `network`: the person approved its use of it on a card), then judges, shows and applies
    /// what it did (see the module comment). `layer`: the policy layer that let it run.
    pub(super) async fn try_command(
        &mut self,
        call: &ToolCall,
        ws: &Workspace,
        layer: PolicyLayer,
        network: bool,
        key: DenialKey,
        opened_rule: Option<&str>,
    ) -> CallResult {
        let copy = {
            let ws = ws.clone();
            off_worker(move || CopyFolder::make(&ws)).await
        };
        let copy = match copy {
            Some(Ok(copy)) => copy,
            Some(Err(no_copy)) => return no_copy_result(&no_copy),
            None => return CallResult::shut_down(layer),
        };
        // Files of the folder changed while it ran (by the person) are not overwritten by
        // what it made of them: their status-change time is after this.
        let started_ns = unix_nanos_now();
        self.emit(askfirst_protocol::AgentEvent::ToolCallStarted {
            run_id: self.id,
            tool_call_id: call.id.clone(),
        });
        // Stop while it runs on the copy: every process of it is killed (the future is
        // dropped), and nothing of it reaches the folder.
        let tried = tokio::select! {
            biased;
            tried = crate::tools::try_on_copy(&call.arguments_json, ws, &copy, network) => tried,
            () = self.token.cancelled() => {
                let cause = self.rt.stop_cause();
                return CallResult::not_run(
                    ToolCallStatus::Cancelled,
                    NotRun::Interrupted { cause },
                    Some(layer),
                );
            }
        };
        let result = match tried {
            Ok(result) => result,
            Err(no_copy) => return no_copy_result(&no_copy),
        };
        // It wrote past its bounds and was stopped: nothing of it is read or applied.
        if copy.overflowed() {
            return command_result(result, None, layer);
        }
        let root = ws.root().to_path_buf();
        let upper = copy.upper();
        let read = {
            let (root, upper) = (root.clone(), upper.clone());
            off_worker(move || {
                crate::changes::read(&root, &upper, CHANGE_CAP).map(|set| {
                    let mut cards = set.for_card(&root);
                    // The riskiest first (deletions, permissions, links out), so that what a
                    // long list leaves unnamed is only what it makes new.
                    cards.sort_by_key(risk_rank);
                    let trees = deleted_trees(&root, &set);
                    ((set, trees), cards)
                })
            })
            .await
        };
        let ((set, trees), changes) = match read {
            Some(Ok(read)) => read,
            Some(Err(error)) => {
                let words = |language| {
                    with_language(language, || {
                        tr("tried-unreadable", &[("why", Arg::from(error.to_string()))])
                    })
                };
                return CallResult::failed(words(Language::En), words(crate::i18n::language()));
            }
            None => return CallResult::shut_down(layer),
        };
        // It changed nothing: as a read, no card.
        if set.is_empty() {
            return command_result(result, None, layer);
        }
        if let Some(changed) = set.entries.iter().find(|entry| {
            entry
                .lower
                .as_ref()
                .is_some_and(|l| l.ctime_ns >= started_ns)
        }) {
            let name = changed.path.display().to_string();
            let words = |language| {
                with_language(language, || {
                    tr("tried-conflict", &[("name", Arg::from(name.as_str()))])
                })
            };
            return CallResult::failed(words(Language::En), words(crate::i18n::language()));
        }
        let verdict = {
            let (policy, ws, changes) = (
                std::sync::Arc::clone(&self.rt.config.policy),
                ws.clone(),
                changes.clone(),
            );
            off_worker(move || judge_changes(&policy, &ws, &changes)).await
        };
        let needs_card = match verdict {
            None => Some(None),
            Some(ChangesVerdict::Forbidden {
                path,
                change,
                reason,
                wording,
                layer,
            }) => {
                let rule = wording.args.get("rule").cloned().unwrap_or_default();
                let kind = kind_word(change);
                let reason = format!(
                    "The command was tried on a copy of the folder first. It would have \
                     {kind} {path}, which is refused ({reason}). Nothing it did was applied."
                );
                self.decided(call, false, layer, &reason);
                let wording = crate::policy::refusal(
                    "refusal.command_change",
                    [("name", path), ("rule", rule), ("change", kind.to_owned())],
                );
                return self.denied.remember(
                    key,
                    NotRun::DeniedByRule {
                        reason: Some(reason),
                        wording: Some(wording),
                    },
                    layer,
                );
            }
            Some(ChangesVerdict::Allowed) => {
                self.decided(
                    call,
                    true,
                    PolicyLayer::UserRule,
                    "its changes are all in places a rule allows changes in",
                );
                None
            }
            Some(ChangesVerdict::Ask { rule }) => Some(rule),
        };
        // "Allow in this conversation" on an earlier card of the same command covers changes
        // among those it showed, while the files its words name (a script) are as they were.
        // Not past an ask rule, which sits above grants.
        let canonical = crate::canonical::canonical_json(&call.arguments_json);
        let shape = {
            let (line, ws, changes) = (
                command_line(&call.arguments_json),
                ws.clone(),
                changes.clone(),
            );
            off_worker(move || change_shape(&line, &ws, &changes))
                .await
                .unwrap_or_default()
        };
        let needs_card = match (needs_card, &canonical) {
            (Some(None), Some(canonical))
                if self
                    .rt
                    .config
                    .policy
                    .command_changes_granted(canonical, &shape) =>
            {
                self.decided(
                    call,
                    true,
                    PolicyLayer::SessionGrant,
                    "its changes are among those allowed in this conversation",
                );
                None
            }
            (needs_card, _) => needs_card,
        };
        if let Some(asking_rule) = needs_card {
            let grantable = canonical.is_some() && asking_rule.is_none();
            let tried = TriedCommand {
                more: changes
                    .len()
                    .saturating_sub(TriedCommand::SHOWN_CAP)
                    .try_into()
                    .unwrap_or(u64::MAX),
                changes: changes
                    .iter()
                    .take(TriedCommand::SHOWN_CAP)
                    .cloned()
                    .collect(),
                output: match &result {
                    Ok(text) => printed(text),
                    Err(error) => printed(&error.to_string()),
                },
                ended: ended(&result),
            };
            match self
                .ask_about_changes(
                    call,
                    ws,
                    (layer, grantable, changes_risk(&changes)),
                    tried,
                    &key,
                    (opened_rule, asking_rule),
                )
                .await
            {
                Err(done) => return done,
                Ok(true) => {
                    if let Some(canonical) = &canonical {
                        let summary = tr(
                            "card-command-tried-granted",
                            &[(
                                "command",
                                Arg::from(command_line(&call.arguments_json).as_str()),
                            )],
                        );
                        self.rt
                            .config
                            .policy
                            .grant_command_changes(canonical, shape, &summary);
                        self.audit(AuditRecord::GrantCreated {
                            tool_name: call.name.clone(),
                            canonical_arguments: canonical.clone(),
                            at: crate::unix_millis_now(),
                        });
                    }
                }
                Ok(false) => {}
            }
        }
        // Approved, or allowed by the rules: applied exactly, with before-copies, recorded
        // (synced) in the session log before the folder changes.
        let change_id = uuid::Uuid::new_v4().to_string();
        let applied = {
            let store = self.rt.config.undo.clone();
            let (root, upper) = (root.clone(), upper.clone());
            let log = std::sync::Arc::clone(&self.rt.config.log);
            let saved = AuditRecord::ChangeSaved {
                change_id: change_id.clone(),
                run_id: self.id,
                tool_call_id: call.id.clone(),
                folder: root.clone(),
                folder_id: crate::undo::folder_identity(&root),
                change: crate::undo::Change::Command {
                    line: command_line(&call.arguments_json),
                    files: Vec::new(),
                },
                at: crate::unix_millis_now(),
            };
            off_worker(move || {
                // A folder the command deleted holds just what it held when the card was made
                // (a file saved into it since is not deleted unseen).
                if let Some(path) = trees
                    .iter()
                    .find(|(rel, print)| tree_print(&root.join(rel)) != *print)
                    .map(|(rel, _)| rel.clone())
                {
                    return Err(crate::changes::ApplyError::Conflict { path });
                }
                crate::changes::apply_recorded(&set, &root, &upper, store.as_ref(), &mut |undo| {
                    let mut saved = saved.clone();
                    if let AuditRecord::ChangeSaved {
                        change: crate::undo::Change::Command { files, .. },
                        ..
                    } = &mut saved
                    {
                        files.clone_from(undo);
                    }
                    log.append(&saved)
                        .map_err(|e| std::io::Error::other(e.to_string()))
                })
            })
            .await
        };
        drop(copy);
        match applied {
            Some(Ok(_applied)) => {
                self.audit(AuditRecord::ChangeApplied {
                    change_id,
                    after_sha256: None,
                    at: crate::unix_millis_now(),
                });
                let note = format!(
                    "It was tried on a copy of the folder first; its changes were then applied \
                     to the folder: {}.",
                    changes_for_model(&changes, changes.len())
                );
                command_result(result, Some(note), layer)
            }
            Some(Err(error)) => {
                let words = |language| {
                    with_language(language, || crate::changes::words::apply_failed(&error))
                };
                CallResult::failed(words(Language::En), words(crate::i18n::language()))
            }
            None => CallResult::shut_down(layer),
        }
    }

    /// Shows the card of a try's changes and waits for the answer: `Ok` when approved (the
    /// caller applies them; `true` for "Allow in this conversation"), else the call's result
    /// (denied, cancelled, or no one to ask). `grantable`: whether the card offers "Allow in
    /// this conversation".
    async fn ask_about_changes(
        &mut self,
        call: &ToolCall,
        ws: &Workspace,
        (layer, grantable, risk): (PolicyLayer, bool, Risk),
        tried: TriedCommand,
        key: &DenialKey,
        (opened_rule, asking_rule): (Option<&str>, Option<String>),
    ) -> Result<bool, CallResult> {
        let line = command_line(&call.arguments_json);
        let count = tried.changes.len() as u64 + tried.more;
        // What the line's words say it would do is not on this card: what it did is.
        let effects = Vec::new();
        let detail = CallDetail::Command {
            line: line.clone(),
            working_folder: ws.root().to_string_lossy().into_owned(),
            effects,
            tried: Some(Box::new(tried)),
        };
        // The card's words, made again when the person changes the language while it waits
        // (the changes, the output and how it ended are facts and stay as they are).
        let words = {
            let policy = std::sync::Arc::clone(&self.rt.config.policy);
            let opened_rule = opened_rule.map(str::to_owned);
            let detail = detail.clone();
            move || CardWords {
                summary: tr(
                    "card-command-tried",
                    &[
                        ("command", Arg::from(line.as_str())),
                        ("count", Arg::from(count)),
                    ],
                ),
                reason: match &asking_rule {
                    Some(rule) => format!("{rule} {}", tr("card-command-tried-reason", &[])),
                    None => tr("card-command-tried-reason", &[]),
                },
                effects: card_words(&policy, opened_rule.as_deref()),
                grant_scope: grantable.then(|| tr("card-command-tried-grant_scope", &[])),
                detail: Some(detail.clone()),
            }
        };
        let now = words();
        let request = NewApproval {
            change: None,
            run_id: self.id,
            tool_call_id: call.id.clone(),
            tool_name: call.name.clone(),
            arguments_json: call.arguments_json.clone(),
            summary: now.summary,
            reason: now.reason,
            risk,
            policy_layer: layer,
            grant_scope: now.grant_scope,
            preview: None,
            effects: now.effects,
            detail: now.detail,
            reword: Some(Reword::new(move || Some(words()))),
            resumed: false,
            // Its command line may be changed too: the changed command is tried again.
            editable: super::call::editable(&crate::tools::RunCommand),
            agent: self.agent.clone(),
        };
        let pending = self.register(request, key, layer).map_err(|done| *done)?;
        match pending.wait().await {
            Outcome::Approved { scope, source } => Ok(matches!(
                (scope, source),
                (ApprovalScope::Session, ApprovalSource::User)
            )),
            Outcome::Denied {
                source,
                reason,
                wording,
            } => {
                let reason = wording::denial(source, reason.as_deref(), wording.as_ref());
                Err(self.denied.remember(key.clone(), reason, layer))
            }
            Outcome::Cancelled { cause } => Err(CallResult::not_run(
                ToolCallStatus::Cancelled,
                NotRun::Cancelled { cause },
                Some(layer),
            )),
            // What it did on the copy is dropped; the changed command is judged and tried anew.
            Outcome::Changed { arguments_json, .. } => {
                Err(CallResult::changed(arguments_json, layer))
            }
        }
    }
}

/// The result of a command whose changes (if any) are applied: its own result, with `note`
/// (English, for the model) after its output.
fn command_result(
    result: Result<String, ToolError>,
    note: Option<String>,
    layer: PolicyLayer,
) -> CallResult {
    let with_note = |text: String| match &note {
        Some(note) => format!("{text}\n{note}"),
        None => text,
    };
    match result {
        Ok(output) => CallResult {
            status: ToolCallStatus::Succeeded,
            said: Said::Output(with_note(output)),
            layer: Some(layer),
            stop_run: None,
            finished_after_stop: None,
            changed_to: None,
            model_note: None,
        },
        Err(error) => CallResult {
            status: ToolCallStatus::Failed,
            said: Said::Failed {
                model: with_note(error.to_string()),
                person: error.for_person(),
            },
            layer: Some(layer),
            stop_run: None,
            finished_after_stop: None,
            changed_to: None,
            model_note: None,
        },
    }
}

/// The result of a command that could not be tried on a copy: nothing ran.
fn no_copy_result(no_copy: &crate::tools::copy::NoCopy) -> CallResult {
    eprintln!("askfirst: {no_copy}");
    let words = |language| {
        with_language(language, || {
            tr(
                "tried-no_copy",
                &[("why", Arg::from(no_copy.reason.clone()))],
            )
        })
    };
    CallResult::failed(words(Language::En), words(crate::i18n::language()))
}

/// The command line of a `run_command` call's arguments (empty when they have none).
fn command_line(arguments_json: &str) -> String {
    serde_json::from_str::<serde_json::Value>(arguments_json)
        .ok()
        .and_then(|v| v.get("command").and_then(|c| c.as_str()).map(str::to_owned))
        .unwrap_or_default()
}

/// The effects of the card of a try's changes, in the current language: what Approve and
/// Deny do, and the rules whose places were hidden from the command or read-only
/// ([`card_effects`]; `opened_rule`: the ask rule whose card opened its place).
fn card_words(policy: &crate::policy::Policy, opened_rule: Option<&str>) -> Vec<String> {
    card_effects(
        policy,
        &crate::tools::RunCommand,
        vec![tr("card-command-tried-apply", &[])],
        opened_rule,
        true,
    )
}

/// Now, in nanoseconds since 1970 (as file times are kept).
fn unix_nanos_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

/// The shape of a try's changes, for "Allow in this conversation" ([`ChangeShape`]): each
/// change's kind and path, and a fingerprint of the files in the folder the command's words
/// name (a script it runs: edited since, the grant no longer covers it). Reads files (up to
/// 8 MB each are hashed; larger ones by size and time).
fn change_shape(line: &str, ws: &Workspace, changes: &[FileChange]) -> ChangeShape {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    const HASHED: u64 = 8 << 20;
    const WORDS: usize = 256;
    let mut inputs = std::collections::BTreeMap::new();
    let words = crate::command_line::all_simple_commands(line);
    for word in words.iter().flatten().take(WORDS) {
        let Ok(path) = ws.resolve(word) else { continue };
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.is_file() {
            continue;
        }
        let print = if meta.len() <= HASHED {
            let mut bytes = Vec::new();
            match std::fs::File::open(&path).and_then(|f| f.take(HASHED).read_to_end(&mut bytes)) {
                Ok(_) => crate::approvals::sha256_hex(&bytes),
                Err(_) => continue,
            }
        } else {
            use std::os::unix::fs::MetadataExt;
            format!("{}:{}:{}", meta.len(), meta.mtime(), meta.mtime_nsec())
        };
        inputs.insert(path, print);
    }
    let mut hasher = Sha256::new();
    for (path, print) in &inputs {
        hasher.update(path.as_os_str().as_encoded_bytes());
        hasher.update([0]);
        hasher.update(print.as_bytes());
        hasher.update([0]);
    }
    ChangeShape {
        changes: changes
            .iter()
            .map(|c| {
                let kind = serde_json::to_value(c.change)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                (kind, c.path.clone())
            })
            .collect(),
        inputs: hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    }
}

/// A change's kind as a past participle, in English (and, for `refusal.command_change`'s
/// selector, the wire name where it has one).
fn kind_word(change: ChangeKind) -> &'static str {
    match change {
        ChangeKind::Created => "created",
        ChangeKind::Changed => "changed",
        ChangeKind::Deleted => "deleted",
        ChangeKind::Moved => "moved",
        ChangeKind::Mode => "changed the permissions of",
        ChangeKind::Link => "made the link",
    }
}

/// How risky a try's changes are, on their card: new files, and files changed in the folder
/// (which Undo takes back), are [`Risk::Medium`], as the file tools that make them; a
/// deletion, a permission change or a link out of the folder is [`Risk::High`].
fn changes_risk(changes: &[FileChange]) -> Risk {
    let high = changes.iter().any(|c| {
        matches!(
            c.change,
            ChangeKind::Deleted | ChangeKind::Mode | ChangeKind::Moved
        ) || c.outside
    });
    if high {
        Risk::High
    } else {
        Risk::Medium
    }
}

/// Where a change comes on the card: deletions first, then permission changes, links out of
/// the folder, changed files, and what is new last.
fn risk_rank(change: &FileChange) -> u8 {
    match change.change {
        ChangeKind::Deleted => 0,
        ChangeKind::Mode => 1,
        ChangeKind::Link if change.outside => 2,
        ChangeKind::Changed => 3,
        ChangeKind::Moved => 4,
        ChangeKind::Link => 5,
        ChangeKind::Created => 6,
    }
}

/// The folders a try deleted whole, each with a print of everything in it now
/// ([`tree_print`]), to check before applying that it still holds just that.
fn deleted_trees(
    root: &std::path::Path,
    set: &crate::changes::ChangeSet,
) -> Vec<(std::path::PathBuf, String)> {
    set.entries
        .iter()
        .filter(|e| matches!(e.kind, crate::changes::EntryKind::Deleted { folder: true }))
        .map(|e| (e.path.clone(), tree_print(&root.join(&e.path))))
        .collect()
}

/// A print of a folder and everything in it (each entry's name, kind, identity, size and
/// times; links not followed), up to 200,000 entries: any file saved, changed, added or
/// removed in it changes the print.
fn tree_print(folder: &std::path::Path) -> String {
    use sha2::{Digest, Sha256};
    use std::os::unix::fs::MetadataExt;
    const ENTRIES: usize = 200_000;
    let mut hasher = Sha256::new();
    let mut stack = vec![folder.to_path_buf()];
    let mut seen = 0_usize;
    while let Some(path) = stack.pop() {
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            hasher.update(b"gone\0");
            continue;
        };
        hasher.update(path.as_os_str().as_encoded_bytes());
        for n in [
            meta.mode().into(),
            meta.ino(),
            meta.size(),
            meta.mtime().unsigned_abs(),
            meta.mtime_nsec().unsigned_abs(),
            meta.ctime().unsigned_abs(),
            meta.ctime_nsec().unsigned_abs(),
        ] {
            hasher.update(n.to_le_bytes());
        }
        seen += 1;
        if seen > ENTRIES {
            hasher.update(b"more\0");
            break;
        }
        if meta.is_dir() {
            let Ok(listing) = std::fs::read_dir(&path) else {
                hasher.update(b"unreadable\0");
                continue;
            };
            let mut names: Vec<_> = listing.flatten().map(|e| e.path()).collect();
            names.sort();
            stack.extend(names.into_iter().rev());
        }
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
