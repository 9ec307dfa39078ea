//! Every sentence the agent loop says: to the model (with what it should do next) and to the
//! person (the same facts, without the model's instructions, as a key plus values).
//!
//! Change the denial text here and nowhere else: [`for_model`] words a [`NotRun`] for the
//! model (always in English), [`for_person`] for the person (as a [`Wording`], rendered in the
//! person's language by [`text`]; the sentences themselves are in `locales/*/app.ftl`). The
//! model's texts are part of how models behave after a denial; change them with care (the
//! tests in `tests/all/agent.rs` pin the important ones).

use super::{MAX_RUN_OUTPUT_BYTES, MAX_TOOL_CALLS_PER_TURN};
use crate::i18n::{self, Arg, Language};
use askfirst_protocol::{CancelCause, DenialSource, NotRun, Wording};
use std::collections::BTreeMap;

/// What the model is told when a call was denied by the user, after the facts.
pub const USER_DENIAL_TAIL: &str = "The action was not performed. Do not retry the same call; \
     take a different approach or explain what you need in the final answer.";

/// The note of the denials given all at once by "Don't ask me now" to the requests already
/// waiting: the words of the switch the person turned on.
pub const DONT_ASK_ME_NOW: &str = "Don't ask me now: refuse whatever needs my OK";

/// What the model is told about a call of a reopened session whose result is not in the log.
pub const UNRECORDED_RESULT: &str = "Ask First has no record of how this action ended (it was \
     closed, or could not save its history, before that was written down), so it may not have \
     been performed. Check before relying on it.";

/// What a reopened session shows for a call whose end is missing from a log with a gap.
pub const UNRECORDED_CALL: &str = "How this ended was not saved (Ask First could not write its \
     history then), so it is not known whether it was done.";

/// What a reopened session shows for a call that was allowed to run but whose end is missing.
pub const MAY_HAVE_RUN: &str = "Ask First stopped while this was running, so it may have been \
     done, in part or in full. Check before relying on it.";

/// What a reopened session shows for a call that was allowed to run but had not started when
/// Ask First stopped (its log is whole and shows no start).
pub const ALLOWED_NOT_STARTED: &str = "It was allowed, but Ask First was closed before it \
     started, so it was not performed.";

/// What a reopened session shows for a run whose end is missing from a log with a gap.
pub const UNRECORDED_RUN: &str = "Part of this task could not be saved (the disk was full or \
     could not be written), so how it ended is not known.";

/// What a reopened session shows for a run that never ended in a whole log, and the end of a
/// run stopped by the app closing.
pub const CLOSED_WHILE_WORKING: &str = "Ask First was closed while the agent was working.";

/// The end of a run the person stopped.
pub const YOU_STOPPED: &str = "You stopped the agent.";

/// The [`NotRun`] of an approval denied with `source`, `reason` (the person's note, or Ask
/// First's reason in English) and `wording` (Ask First's reason as a sentence key).
pub fn denial(source: DenialSource, reason: Option<&str>, wording: Option<&Wording>) -> NotRun {
    let reason = reason.map(str::to_owned);
    let wording = wording.cloned();
    match source {
        DenialSource::User => NotRun::DeniedByPerson { note: reason },
        DenialSource::Timeout => NotRun::TimedOut,
        DenialSource::Policy => NotRun::DeniedByRule { reason, wording },
        DenialSource::Unavailable => NotRun::Unavailable { reason, wording },
    }
}

/// What the model is told when a call did not run because it was denied.
pub fn denial_text(source: DenialSource, reason: Option<&str>) -> String {
    for_model(&denial(source, reason, None))
}

/// What the model is told when a call did not run because the run or the app stopped.
pub fn cancelled_text(cause: CancelCause) -> String {
    for_model(&NotRun::Cancelled { cause })
}

/// What the model is told for each call past [`MAX_TOOL_CALLS_PER_TURN`] in one turn.
pub fn too_many_calls_text() -> String {
    format!(
        "Not performed: too many actions at once (limit {MAX_TOOL_CALLS_PER_TURN} per reply). \
         Ask for fewer at a time."
    )
}

fn mb(bytes: usize) -> usize {
    bytes / (1024 * 1024)
}

/// Who ended the run, as the model is told it.
fn who_for_model(cause: CancelCause) -> &'static str {
    match cause {
        CancelCause::RunAborted => "The user stopped the run",
        CancelCause::AppShutdown => "The app was closed",
    }
}

/// What the model is told about a call that did not run (or was not seen through), in its
/// next request. These texts are what the model has always been told: keep them stable.
pub fn for_model(reason: &NotRun) -> String {
    match reason {
        NotRun::DeniedByPerson { note: Some(note) } => format!(
            "The user denied this action and said: \"{note}\". Follow the user's instruction. \
             {USER_DENIAL_TAIL}"
        ),
        NotRun::DeniedByPerson { note: None } => {
            format!("The user denied this action. {USER_DENIAL_TAIL}")
        }
        NotRun::TimedOut => "The user did not answer the request for approval in time, so the \
             action was not performed. Do not retry it now; say in the final answer what you \
             wanted to do."
            .to_owned(),
        NotRun::DeniedByRule { reason, .. } => format!(
            "This action is not allowed by the user's settings{}. It was not performed. Do not \
             retry it; take a different approach.",
            in_brackets(reason.as_deref())
        ),
        NotRun::HardDenial { reason, .. } => format!(
            "Ask First never allows this: {reason} It was not performed. Do not retry it; take \
             a different approach."
        ),
        NotRun::Unavailable { reason, .. } => format!(
            "This action could not be approved{}, so it was not performed. Say in the final \
             answer what you wanted to do.",
            in_brackets(reason.as_deref())
        ),
        NotRun::Cancelled { cause } => match cause {
            CancelCause::RunAborted => "The user stopped the run; this action was not performed.",
            CancelCause::AppShutdown => "The app was closed; this action was not performed.",
        }
        .to_owned(),
        NotRun::Interrupted { cause } => format!(
            "{} while this action was running; it was stopped before it finished.",
            who_for_model(*cause)
        ),
        NotRun::NoLongerAwaited { cause } => format!(
            "{} while this action was running. Ask First stopped waiting for it, so whether it \
             was done is not known.",
            who_for_model(*cause)
        ),
        NotRun::ChangedAfterShown { summary } => changed_after_shown(summary),
        NotRun::Repeated { earlier } => for_model(earlier),
        NotRun::RunEndedBefore => {
            "The run was stopped before this action; it was not performed.".to_owned()
        }
        NotRun::OutputLimit { .. } => output_limit_text(),
        NotRun::TooManyCalls { .. } => too_many_calls_text(),
        NotRun::ClosedBeforeStart
        | NotRun::MayHaveRun
        | NotRun::RefusedEndNotSaved
        | NotRun::EndNotSaved => UNRECORDED_RESULT.to_owned(),
    }
}

/// A sentence as it stands inside parentheses in another: without its final full stop
/// ("… forbids this." in "… not allowed by your settings (… forbids this). It was …").
fn in_parentheses(sentence: &str) -> String {
    sentence.trim_end().trim_end_matches(['.', '。']).to_owned()
}

fn in_brackets(reason: Option<&str>) -> String {
    reason.map(|r| format!(" ({r})")).unwrap_or_default()
}

fn changed_after_shown(summary: &str) -> String {
    format!(
        "Not done: the file or folder changed after this was shown for approval \
         (\"{summary}\"), so it would no longer do what was shown. Nothing was changed; ask \
         again with it as it is now."
    )
}

/// What the model is told, and the person sees, when the run's tool output reached
/// [`MAX_RUN_OUTPUT_BYTES`].
fn output_limit_text() -> String {
    format!(
        "The actions of this task have produced {} MB of output, the most Ask First passes on \
         in one task (limit {} MB), so the task ends here; this action was not performed.",
        mb(MAX_RUN_OUTPUT_BYTES),
        mb(MAX_RUN_OUTPUT_BYTES)
    )
}

/// What the person is told about a call that did not run: a key of the catalogues
/// (`locales/*/app.ftl`, keys `not_run-…`, written here with dots) and the values it names. A repeat is worded as the call it repeats.
pub fn for_person(reason: &NotRun) -> Wording {
    let by_cause = |cause: &CancelCause, run_aborted: &str, app_shutdown: &str| match cause {
        CancelCause::RunAborted => run_aborted.to_owned(),
        CancelCause::AppShutdown => app_shutdown.to_owned(),
    };
    let (key, args): (String, Vec<(&str, String)>) = match reason {
        NotRun::DeniedByPerson { note: Some(note) } => (
            "not_run.denied_by_person_with_note".into(),
            vec![("note", note.clone())],
        ),
        NotRun::DeniedByPerson { note: None } => ("not_run.denied_by_person".into(), vec![]),
        NotRun::TimedOut => ("not_run.timed_out".into(), vec![]),
        // The policy's own words for the reason, in the person's language, where it kept
        // them; else the English reason as it was given (older logs).
        NotRun::DeniedByRule {
            wording: Some(w), ..
        } => (
            "not_run.denied_by_rule_with_reason".into(),
            vec![("reason", in_parentheses(&text(w)))],
        ),
        NotRun::DeniedByRule {
            reason: Some(r),
            wording: None,
        } => (
            "not_run.denied_by_rule_with_reason".into(),
            vec![("reason", in_parentheses(r))],
        ),
        NotRun::DeniedByRule {
            reason: None,
            wording: None,
        } => ("not_run.denied_by_rule".into(), vec![]),
        NotRun::HardDenial { reason, wording } => (
            "not_run.hard_denial".into(),
            vec![(
                "reason",
                wording.as_ref().map_or_else(|| reason.clone(), text),
            )],
        ),
        NotRun::Unavailable {
            wording: Some(w), ..
        } => (
            "not_run.unavailable_with_reason".into(),
            vec![("reason", text(w))],
        ),
        NotRun::Unavailable {
            reason: Some(r),
            wording: None,
        } => (
            "not_run.unavailable_with_reason".into(),
            vec![("reason", r.clone())],
        ),
        NotRun::Unavailable {
            reason: None,
            wording: None,
        } => ("not_run.unavailable".into(), vec![]),
        NotRun::Cancelled { cause } => (
            by_cause(
                cause,
                "not_run.cancelled.run_aborted",
                "not_run.cancelled.app_shutdown",
            ),
            vec![],
        ),
        NotRun::Interrupted { cause } => (
            by_cause(
                cause,
                "not_run.interrupted.run_aborted",
                "not_run.interrupted.app_shutdown",
            ),
            vec![],
        ),
        NotRun::NoLongerAwaited { cause } => (
            by_cause(
                cause,
                "not_run.no_longer_awaited.run_aborted",
                "not_run.no_longer_awaited.app_shutdown",
            ),
            vec![],
        ),
        NotRun::ChangedAfterShown { summary } => (
            "not_run.changed_after_shown".into(),
            vec![("summary", summary.clone())],
        ),
        NotRun::Repeated { earlier } => return for_person(earlier),
        NotRun::RunEndedBefore => ("not_run.run_ended_before".into(), vec![]),
        NotRun::OutputLimit { limit_mb } => (
            "not_run.output_limit".into(),
            vec![("limit_mb", limit_mb.to_string())],
        ),
        NotRun::TooManyCalls {
            asked,
            limit,
            left_out,
        } => (
            "not_run.too_many_calls".into(),
            vec![
                ("asked", asked.to_string()),
                ("limit", limit.to_string()),
                ("left_out", left_out.to_string()),
            ],
        ),
        NotRun::ClosedBeforeStart => ("not_run.closed_before_start".into(), vec![]),
        NotRun::MayHaveRun => ("not_run.may_have_run".into(), vec![]),
        NotRun::RefusedEndNotSaved => ("not_run.refused_end_not_saved".into(), vec![]),
        NotRun::EndNotSaved => ("not_run.end_not_saved".into(), vec![]),
    };
    Wording {
        key,
        args: args
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect::<BTreeMap<_, _>>(),
    }
}

/// The English text of `wording` (its key's sentence in `locales/en/app.ftl` with its values
/// filled in; a value that itself contains `{…}` is inserted as it is). A key the catalogue
/// does not have is returned as the key itself, so a gap shows instead of vanishing.
pub fn english(wording: &Wording) -> String {
    i18n::wording_in(Language::En, wording)
}

/// `wording` in the current language ([`i18n::language`]), as the person reads it.
pub fn text(wording: &Wording) -> String {
    i18n::wording(wording)
}

/// [`for_person`] in the current language.
pub fn person_text(reason: &NotRun) -> String {
    text(&for_person(reason))
}

/// The end of a stopped run: by the person, or by the app closing.
pub fn run_stopped(cause: CancelCause) -> String {
    match cause {
        CancelCause::AppShutdown => i18n::tr("run-closed_while_working", &[]),
        CancelCause::RunAborted => i18n::tr("run-you_stopped", &[]),
    }
}

/// What a reopened session shows for a run whose end is missing from a log with a gap
/// ([`UNRECORDED_RUN`] in the current language).
pub fn run_unrecorded() -> String {
    i18n::tr("run-unrecorded", &[])
}

/// The end of a run that never ended in a whole log ([`CLOSED_WHILE_WORKING`] in the current
/// language).
pub fn run_closed_while_working() -> String {
    i18n::tr("run-closed_while_working", &[])
}

/// The end of a run that stopped without saying how ([`RUN_BROKE`] in the current language).
pub fn run_broke() -> String {
    i18n::tr("run-broke", &[])
}

/// The card's scope line of "Allow in this conversation" ([`GRANT_SCOPE`] in the current
/// language).
pub fn grant_scope() -> String {
    i18n::tr("card-grant_scope", &[])
}

/// The end of a stopped run while a call was let finish (`summary` is that call's).
pub fn run_stopped_after_finishing(why: &str, summary: &str) -> String {
    i18n::tr(
        "run-stopped_after_finishing",
        &[("why", Arg::from(why)), ("summary", Arg::from(summary))],
    )
}

/// The end of a run whose tool output passed [`MAX_RUN_OUTPUT_BYTES`].
pub fn run_output_limit() -> String {
    i18n::tr(
        "run-output_limit",
        &[("limit_mb", Arg::from(mb(MAX_RUN_OUTPUT_BYTES)))],
    )
}

/// Appended to the last result the model gets when the run's output reached its limit.
pub fn output_limit_note_for_model(content: &str) -> String {
    format!(
        "{content}\n[Ask First: the actions of this task have now produced the most output it \
         passes on in one task (limit {} MB), so the task ends here.]",
        mb(MAX_RUN_OUTPUT_BYTES)
    )
}

/// The end of a run that used all its steps.
pub fn run_out_of_steps(max_steps: usize) -> String {
    i18n::tr("run-out_of_steps", &[("max_steps", Arg::from(max_steps))])
}

/// The result the model gets for a call made after the folder went away.
pub fn folder_gone_for_model() -> String {
    "The folder you work in is no longer there (it was moved or deleted). Nothing was done; \
     the task ends here."
        .to_owned()
}

/// The person's line for a call made after the folder (`folder`, as they read it) went away.
pub fn folder_gone(folder: &str) -> String {
    i18n::tr("not_run-folder_gone", &[("folder", Arg::from(folder))])
}

/// The end of a run whose folder (`folder`, as the person reads it) went away while it ran.
pub fn run_folder_gone(folder: &str) -> String {
    i18n::tr("run-folder_gone", &[("folder", Arg::from(folder))])
}

/// The end of a run whose model kept asking for what was refused (`summary` is the call's).
pub fn run_kept_asking(summary: &str) -> String {
    i18n::tr("run-kept_asking", &[("summary", Arg::from(summary))])
}

/// The end of a run that stopped without saying how: its task panicked, or ended without its
/// end (a fault in Ask First, not in anything the person did).
pub const RUN_BROKE: &str = "Something went wrong inside Ask First and this task stopped. \
     Nothing more will be done for it; you can start a new task.";

/// The summary of the one line standing for the calls past [`MAX_TOOL_CALLS_PER_TURN`].
pub fn too_many_summary(asked: usize, left_out: usize) -> String {
    i18n::tr(
        "card-too_many_summary",
        &[
            ("asked", Arg::from(asked)),
            ("left_out", Arg::from(left_out)),
            ("limit", Arg::from(MAX_TOOL_CALLS_PER_TURN)),
        ],
    )
}

/// The system prompt that starts every conversation; `workspace` is the folder's path.
pub fn system_prompt(workspace: &std::path::Path) -> String {
    format!(
        "You are the assistant inside Ask First, a desktop app. You help a person who is not a \
         programmer with files in their workspace folder ({}). Use the tools to look before \
         you change anything. Every change waits for the person's OK; if they deny an action, \
         do not try it again unchanged: take another approach or explain what you need. Paths \
         are relative to the workspace folder. Answer in plain words.",
        workspace.display()
    )
}

/// The card's scope line of "Allow in this conversation" (a grant is kept in memory while this
/// conversation is open: starting or opening another one, or closing Ask First, ends it, and
/// reopening the conversation later does not bring it back).
pub const GRANT_SCOPE: &str = "While this conversation is open, this exact action (same tool, \
     same details) will run again without asking, as long as what it works on is as shown here \
     or as this action leaves it. Anything different still asks. It ends when you start or open \
     another conversation, or close Ask First.";

/// Appended to a tool's output when Stop came while it ran and it was let finish.
pub fn finished_after_stop(output: &str) -> String {
    format!(
        "{output} (The run was stopped while this was being done; it was finished, since \
         stopping it halfway could have left it half done.)"
    )
}

/// How many bytes of a changed call's arguments the model is told back (the start and the
/// end are kept, the cut said): a changed text of megabytes is not sent to it twice.
pub const CHANGED_ARGUMENTS_TOLD: usize = 4096;

/// The first sentence of the model's result for a call the person changed on its card before
/// it could run (`ran`: the changed call ran and succeeded): that the person changed it, and
/// to what (its tool and arguments, cut to [`CHANGED_ARGUMENTS_TOLD`] bytes).
pub fn changed_call_for_model(changed: &crate::provider::ToolCall, ran: bool) -> String {
    let mut told = crate::tools::HeadTail::new(CHANGED_ARGUMENTS_TOLD);
    told.push(changed.arguments_json.as_bytes());
    let call = format!("{} {}", changed.name, told.into_text());
    if ran {
        format!("The person changed this call before approving it; what ran was: {call}")
    } else {
        format!(
            "The person changed this call before approving it, to: {call}. That changed call \
             did not run as follows:"
        )
    }
}

/// The result of a call of a tool that does not exist (`names` are the tools on offer).
pub fn no_such_tool(name: &str, names: &[String]) -> String {
    format!(
        "There is no tool named \"{name}\". The tools are: {}.",
        names.join(", ")
    )
}

/// [`no_such_tool`] for the person, in their language.
pub fn no_such_tool_for_person(name: &str) -> String {
    i18n::tr("tool_failed-no_such_tool", &[("tool", Arg::from(name))])
}

/// The result of a call of a tool whose MCP server is not working (`why` is its status, in
/// English).
pub fn server_down(name: &str, why: &str) -> String {
    format!("The tool \"{name}\" cannot be used now. {why}")
}

/// [`server_down`] for the person (`why` is the server's status in their language).
pub fn server_down_for_person(name: &str, why: &str) -> String {
    i18n::tr(
        "tool_failed-server_down",
        &[("tool", Arg::from(name)), ("why", Arg::from(why))],
    )
}

/// The summary of a call whose tool could not describe it.
pub fn use_the_tool(name: &str) -> String {
    // Ask First's own tools are said in words; only another program's tool (an MCP server's)
    // is named, as nothing else is known of it.
    let key = match name {
        "read_file" => "card-use-read_file",
        "list_directory" => "card-use-list_directory",
        "write_file" => "card-use-write_file",
        "edit_file" => "card-use-edit_file",
        "move_path" => "card-use-move_path",
        "delete_path" => "card-use-delete_path",
        "run_command" => "card-use-run_command",
        "fetch_url" => "card-use-fetch_url",
        _ => return i18n::tr("card-use_the_tool", &[("name", Arg::from(name))]),
    };
    i18n::tr(key, &[])
}
