//! Every sentence the agent loop says: to the model (with what it should do next) and to the
//! person (the same facts, without the model's instructions, as a key plus values).
//!
//! Change the denial text here and nowhere else: [`for_model`] words a [`NotRun`] for the
//! model, [`for_person`] for the person (as a [`Wording`], whose English is [`english`]). The
//! model's texts are part of how models behave after a denial; change them with care (the
//! tests in `tests/all/agent.rs` pin the important ones).

use super::{MAX_RUN_OUTPUT_BYTES, MAX_TOOL_CALLS_PER_TURN};
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

/// The [`NotRun`] of an approval denied with `source` and `reason`.
pub fn denial(source: DenialSource, reason: Option<&str>) -> NotRun {
    let reason = reason.map(str::to_owned);
    match source {
        DenialSource::User => NotRun::DeniedByPerson { note: reason },
        DenialSource::Timeout => NotRun::TimedOut,
        DenialSource::Policy => NotRun::DeniedByRule { reason },
        DenialSource::Unavailable => NotRun::Unavailable { reason },
    }
}

/// What the model is told when a call did not run because it was denied.
pub fn denial_text(source: DenialSource, reason: Option<&str>) -> String {
    for_model(&denial(source, reason))
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
        NotRun::DeniedByRule { reason } => format!(
            "This action is not allowed by the user's settings{}. It was not performed. Do not \
             retry it; take a different approach.",
            in_brackets(reason.as_deref())
        ),
        NotRun::HardDenial { reason } => format!(
            "Ask First never allows this: {reason} It was not performed. Do not retry it; take \
             a different approach."
        ),
        NotRun::Unavailable { reason } => format!(
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

/// The English sentences for the person, by key; `{name}` is replaced by the value `name`.
/// One row per sentence: a translation is this table in another language.
const ENGLISH: &[(&str, &str)] = &[
    (
        "not_run.denied_by_person",
        "You said no. The action was not performed.",
    ),
    (
        "not_run.denied_by_person_with_note",
        "You said no, with the note: \"{note}\". The action was not performed.",
    ),
    (
        "not_run.timed_out",
        "You did not answer in time, so it was not performed.",
    ),
    (
        "not_run.denied_by_rule",
        "This action is not allowed by your settings. It was not performed.",
    ),
    (
        "not_run.denied_by_rule_with_reason",
        "This action is not allowed by your settings ({reason}). It was not performed.",
    ),
    (
        "not_run.hard_denial",
        "Ask First never allows this: {reason} It was not performed.",
    ),
    (
        "not_run.unavailable",
        "This action could not be approved, so it was not performed.",
    ),
    (
        "not_run.unavailable_with_reason",
        "This action could not be approved ({reason}), so it was not performed.",
    ),
    (
        "not_run.cancelled.run_aborted",
        "You stopped the run; this action was not performed.",
    ),
    (
        "not_run.cancelled.app_shutdown",
        "The app was closed; this action was not performed.",
    ),
    (
        "not_run.interrupted.run_aborted",
        "You stopped the run while this action was running; it was stopped before it finished.",
    ),
    (
        "not_run.interrupted.app_shutdown",
        "The app was closed while this action was running; it was stopped before it finished.",
    ),
    (
        "not_run.no_longer_awaited.run_aborted",
        "You stopped the run while this action was running. Ask First stopped waiting for it, \
         so whether it was done is not known.",
    ),
    (
        "not_run.no_longer_awaited.app_shutdown",
        "The app was closed while this action was running. Ask First stopped waiting for it, \
         so whether it was done is not known.",
    ),
    (
        "not_run.changed_after_shown",
        "Not done: the file or folder changed after this was shown for approval (\"{summary}\"), \
         so it would no longer do what was shown. Nothing was changed; ask again with it as it \
         is now.",
    ),
    (
        "not_run.run_ended_before",
        "The run was stopped before this action; it was not performed.",
    ),
    (
        "not_run.output_limit",
        "The actions of this task have produced {limit_mb} MB of output, the most Ask First \
         passes on in one task (limit {limit_mb} MB), so the task ends here; this action was \
         not performed.",
    ),
    (
        "not_run.too_many_calls",
        "Not done: the agent asked for {asked} actions at once, and Ask First does at most \
         {limit} at a time, so the other {left_out} were not looked at, asked about or \
         performed. It was told to ask for fewer.",
    ),
    ("not_run.closed_before_start", ALLOWED_NOT_STARTED),
    ("not_run.may_have_run", MAY_HAVE_RUN),
    (
        "not_run.refused_end_not_saved",
        "This action was not performed.",
    ),
    ("not_run.end_not_saved", UNRECORDED_CALL),
];

/// What the person is told about a call that did not run: a key of [`english`]'s table and the
/// values it names. A repeat is worded as the call it repeats.
pub fn for_person(reason: &NotRun) -> Wording {
    let cause_key = |stem: &str, cause: &CancelCause| match cause {
        CancelCause::RunAborted => format!("{stem}.run_aborted"),
        CancelCause::AppShutdown => format!("{stem}.app_shutdown"),
    };
    let (key, args): (String, Vec<(&str, String)>) = match reason {
        NotRun::DeniedByPerson { note: Some(note) } => (
            "not_run.denied_by_person_with_note".into(),
            vec![("note", note.clone())],
        ),
        NotRun::DeniedByPerson { note: None } => ("not_run.denied_by_person".into(), vec![]),
        NotRun::TimedOut => ("not_run.timed_out".into(), vec![]),
        NotRun::DeniedByRule { reason: Some(r) } => (
            "not_run.denied_by_rule_with_reason".into(),
            vec![("reason", r.clone())],
        ),
        NotRun::DeniedByRule { reason: None } => ("not_run.denied_by_rule".into(), vec![]),
        NotRun::HardDenial { reason } => (
            "not_run.hard_denial".into(),
            vec![("reason", reason.clone())],
        ),
        NotRun::Unavailable { reason: Some(r) } => (
            "not_run.unavailable_with_reason".into(),
            vec![("reason", r.clone())],
        ),
        NotRun::Unavailable { reason: None } => ("not_run.unavailable".into(), vec![]),
        NotRun::Cancelled { cause } => (cause_key("not_run.cancelled", cause), vec![]),
        NotRun::Interrupted { cause } => (cause_key("not_run.interrupted", cause), vec![]),
        NotRun::NoLongerAwaited { cause } => {
            (cause_key("not_run.no_longer_awaited", cause), vec![])
        }
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

/// The English text of `wording`: its sentence with each `{name}` replaced by its value, in one
/// pass (a value that itself contains `{…}` is inserted as it is). A key this table does not
/// have is returned as the key itself, so a gap shows instead of vanishing.
pub fn english(wording: &Wording) -> String {
    english_in(ENGLISH, wording)
}

/// The English text of `wording` from `table` (key → sentence with `{name}` places), as
/// [`english`] does for this module's table; other tables of person's words (the command
/// effects of `crate::command_line::effect_words`) fill theirs through here too.
pub fn english_in(table: &[(&str, &str)], wording: &Wording) -> String {
    let Some((_, template)) = table.iter().find(|(key, _)| *key == wording.key) else {
        return wording.key.clone();
    };
    let mut out = String::with_capacity(template.len());
    let mut rest = *template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if wording.args.contains_key(&after[..close]) => {
                if let Some(value) = wording.args.get(&after[..close]) {
                    out.push_str(value);
                }
                rest = &after[close + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// [`for_person`] in English.
pub fn person_text(reason: &NotRun) -> String {
    english(&for_person(reason))
}

/// The end of a stopped run: by the person, or by the app closing.
pub fn run_stopped(cause: CancelCause) -> &'static str {
    match cause {
        CancelCause::AppShutdown => CLOSED_WHILE_WORKING,
        CancelCause::RunAborted => YOU_STOPPED,
    }
}

/// The end of a stopped run while a call was let finish (`summary` is that call's).
pub fn run_stopped_after_finishing(why: &str, summary: &str) -> String {
    format!(
        "{why} What was already being done was finished, since stopping it halfway could have \
         left it half done: {summary}."
    )
}

/// The end of a run whose tool output passed [`MAX_RUN_OUTPUT_BYTES`].
pub fn run_output_limit() -> String {
    format!(
        "The agent was stopped: its actions in this task produced more than {} MB of output, \
         the most Ask First allows in one task. Send a new message to go on.",
        mb(MAX_RUN_OUTPUT_BYTES)
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
    format!(
        "The agent stopped after {max_steps} steps without finishing. Send a new message to let \
         it go on, or give it a smaller task."
    )
}

/// The end of a run whose model kept asking for what was refused (`summary` is the call's).
pub fn run_kept_asking(summary: &str) -> String {
    format!(
        "The agent kept asking to do something that was already refused (\"{summary}\"), so it \
         was stopped. Send a new message to tell it what to do instead."
    )
}

/// The end of a run that stopped without saying how: its task panicked, or ended without its
/// end (a fault in Ask First, not in anything the person did).
pub const RUN_BROKE: &str = "Something went wrong inside Ask First and this task stopped. \
     Nothing more will be done for it; you can start a new task.";

/// The summary of the one line standing for the calls past [`MAX_TOOL_CALLS_PER_TURN`].
pub fn too_many_summary(asked: usize, left_out: usize) -> String {
    format!(
        "The agent asked for {asked} actions at once; the {left_out} after the first \
         {MAX_TOOL_CALLS_PER_TURN} were not done"
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

/// The result of a call of a tool that does not exist (`names` are the tools on offer).
pub fn no_such_tool(name: &str, names: &[String]) -> String {
    format!(
        "There is no tool named \"{name}\". The tools are: {}.",
        names.join(", ")
    )
}

/// The result of a call of a tool whose MCP server is not working (`why` is its status).
pub fn server_down(name: &str, why: &str) -> String {
    format!("The tool \"{name}\" cannot be used now. {why}")
}

/// The summary of a call whose tool could not describe it.
pub fn use_the_tool(name: &str) -> String {
    format!("Use the tool \"{name}\"")
}
