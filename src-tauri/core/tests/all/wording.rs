//! Every reason a tool call did not run, worded once for the model and once for the person:
//! none empty, the person never addressed as "the user" nor told what the model must do.

use askfirst_core::agent::wording::{
    english, for_model, for_person, person_text, DONT_ASK_ME_NOW, USER_DENIAL_TAIL,
};
use askfirst_core::agent::MAX_TOOL_CALLS_PER_TURN;
use askfirst_protocol::{CancelCause, NotRun, Wording};
use pretty_assertions::assert_eq;

/// One example of every variant (also used by `error_catalogue.rs`). The match has no `_`
/// arm, so a new variant does not compile until it has an example here (and so a row in the
/// table below).
pub fn examples() -> Vec<NotRun> {
    let all = vec![
        NotRun::DeniedByPerson { note: None },
        NotRun::DeniedByPerson {
            note: Some("Not that file, please".into()),
        },
        NotRun::TimedOut,
        NotRun::DeniedByRule {
            reason: None,
            wording: None,
        },
        NotRun::DeniedByRule {
            reason: Some("a rule says no".into()),
            wording: None,
        },
        NotRun::HardDenial {
            reason: "It would delete the whole home folder.".into(),
            wording: None,
        },
        NotRun::Unavailable {
            reason: None,
            wording: None,
        },
        NotRun::Unavailable {
            reason: Some("the log is full".into()),
            wording: None,
        },
        NotRun::Cancelled {
            cause: CancelCause::RunAborted,
        },
        NotRun::Cancelled {
            cause: CancelCause::AppShutdown,
        },
        NotRun::Interrupted {
            cause: CancelCause::RunAborted,
        },
        NotRun::Interrupted {
            cause: CancelCause::AppShutdown,
        },
        NotRun::NoLongerAwaited {
            cause: CancelCause::RunAborted,
        },
        NotRun::NoLongerAwaited {
            cause: CancelCause::AppShutdown,
        },
        NotRun::ChangedAfterShown {
            summary: "Replace notes.txt".into(),
        },
        NotRun::Repeated {
            earlier: Box::new(NotRun::DeniedByPerson { note: None }),
        },
        NotRun::RunEndedBefore,
        NotRun::OutputLimit { limit_mb: 8 },
        NotRun::TooManyCalls {
            asked: 70,
            limit: 64,
            left_out: 6,
        },
        NotRun::ClosedBeforeStart,
        NotRun::MayHaveRun,
        NotRun::RefusedEndNotSaved,
        NotRun::EndNotSaved,
        // Ask First's own reason, kept as a sentence key beside the English: the model gets
        // the English, the person the sentence.
        NotRun::Unavailable {
            reason: Some("Ask First could not save your answer".into()),
            wording: Some(Wording {
                key: "refusal.answer_not_saved".into(),
                args: Default::default(),
            }),
        },
    ];
    for reason in &all {
        match reason {
            NotRun::DeniedByPerson { .. }
            | NotRun::TimedOut
            | NotRun::DeniedByRule { .. }
            | NotRun::HardDenial { .. }
            | NotRun::Unavailable { .. }
            | NotRun::Cancelled { .. }
            | NotRun::Interrupted { .. }
            | NotRun::NoLongerAwaited { .. }
            | NotRun::ChangedAfterShown { .. }
            | NotRun::Repeated { .. }
            | NotRun::RunEndedBefore
            | NotRun::OutputLimit { .. }
            | NotRun::TooManyCalls { .. }
            | NotRun::ClosedBeforeStart
            | NotRun::MayHaveRun
            | NotRun::RefusedEndNotSaved
            | NotRun::EndNotSaved => {}
        }
    }
    all
}

#[test]
fn every_reason_has_a_model_text_and_a_person_text_in_the_persons_words() {
    for reason in examples() {
        let model = for_model(&reason);
        let wording = for_person(&reason);
        let person = english(&wording);
        assert!(!model.trim().is_empty(), "{reason:?}");
        assert!(!person.trim().is_empty(), "{reason:?}");
        assert_ne!(
            person, wording.key,
            "no English sentence for {}",
            wording.key
        );
        assert!(!person.contains('{'), "a value left out: {person:?}");
        let lower = person.to_lowercase();
        for model_only in ["the user", "do not retry", "final answer"] {
            assert!(!lower.contains(model_only), "{person:?} ({reason:?})");
        }
    }
}

#[test]
fn each_sentence_once() {
    let table: Vec<(String, String, String)> = examples()
        .iter()
        .map(|r| (for_person(r).key, for_model(r), person_text(r)))
        .collect();
    let row = |i: usize| table[i].clone();
    let s = |t: &str| t.to_owned();
    assert_eq!(
        row(0),
        (
            s("not_run.denied_by_person"),
            format!("The user denied this action. {USER_DENIAL_TAIL}"),
            s("You said no. The action was not performed."),
        )
    );
    assert_eq!(
        row(1),
        (
            s("not_run.denied_by_person_with_note"),
            format!(
                "The user denied this action and said: \"Not that file, please\". Follow the \
                 user's instruction. {USER_DENIAL_TAIL}"
            ),
            s(
                "You said no, with the note: \"Not that file, please\". The action was not \
               performed."
            ),
        )
    );
    assert_eq!(
        row(2),
        (
            s("not_run.timed_out"),
            s(
                "The user did not answer the request for approval in time, so the action was \
               not performed. Do not retry it now; say in the final answer what you wanted to \
               do."
            ),
            s("You did not answer in time, so it was not performed."),
        )
    );
    assert_eq!(
        row(4),
        (
            s("not_run.denied_by_rule_with_reason"),
            s(
                "This action is not allowed by the user's settings (a rule says no). It was not \
               performed. Do not retry it; take a different approach."
            ),
            s(
                "This action is not allowed by your settings (a rule says no). It was not \
               performed."
            ),
        )
    );
    assert_eq!(
        row(5).2,
        "Ask First never allows this: It would delete the whole home folder. It was not \
         performed."
    );
    assert_eq!(
        row(7),
        (
            s("not_run.unavailable_with_reason"),
            s(
                "This action could not be approved (the log is full), so it was not performed. \
               Say in the final answer what you wanted to do."
            ),
            s("This action could not be approved (the log is full), so it was not performed."),
        )
    );
    assert_eq!(
        (row(8).1, row(8).2),
        (
            s("The user stopped the run; this action was not performed."),
            s("You stopped the run; this action was not performed."),
        )
    );
    assert_eq!(
        (row(9).1, row(9).2),
        (
            s("The app was closed; this action was not performed."),
            s("The app was closed; this action was not performed."),
        )
    );
    assert_eq!(
        (row(10).1, row(10).2),
        (
            s(
                "The user stopped the run while this action was running; it was stopped before \
               it finished."
            ),
            s(
                "You stopped the run while this action was running; it was stopped before it \
               finished."
            ),
        )
    );
    // A repeat is told exactly what the first one was told.
    assert_eq!((row(15).1, row(15).2), (row(0).1, row(0).2));
    assert_eq!(
        row(18).2,
        format!(
            "Not done: the agent asked for 70 actions at once, and Ask First does at most \
             {MAX_TOOL_CALLS_PER_TURN} at a time, so the other 6 were not looked at, asked \
             about or performed. It was told to ask for fewer."
        )
    );
    // Ask First's own reason: the model gets the English, the person the sentence.
    let last = table.last().unwrap();
    assert_eq!(
        (last.1.as_str(), last.2.as_str()),
        (
            "This action could not be approved (Ask First could not save your answer), so it \
             was not performed. Say in the final answer what you wanted to do.",
            "This action could not be approved (your answer could not be saved in Ask First's \
             history, perhaps because the disk is full, so to be safe nothing was run), so it \
             was not performed."
        )
    );
}

#[test]
fn values_are_inserted_as_they_are_in_one_pass() {
    let note = "keep {note} and {reason} as typed";
    let reason = NotRun::DeniedByPerson {
        note: Some(note.into()),
    };
    assert_eq!(
        person_text(&reason),
        format!("You said no, with the note: \"{note}\". The action was not performed.")
    );
    // "Don't ask me now" denies as the person, with the switch's words.
    let said = person_text(&NotRun::DeniedByPerson {
        note: Some(DONT_ASK_ME_NOW.into()),
    });
    assert!(said.starts_with("You said no, with the note: \"Don't ask me now"));
    // A key without a sentence shows as itself rather than as nothing.
    let unknown = Wording {
        key: "not_run.something_new".into(),
        args: Default::default(),
    };
    assert_eq!(english(&unknown), "not_run.something_new");
}
