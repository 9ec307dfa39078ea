//! Names made after `cd`, with `..`, quoted, or starting with a dash: a review of eb2a863
//! (holes in how our own command's names of files that do not exist yet were read). The sandbox can keep only what exists read-only, so for a
//! rule like `deny write_file "**/*.pdf"` (or one about a folder not made yet) these names
//! are the only guard. Each case below makes, in `sh`, exactly the file or folder the rule
//! forbids, yet the decision is Allow (with `allow run_command`), or, without that allow
//! rule, a card that does not name the person's rule. The same answers were given at
//! caa379b: these are not regressions of eb2a863, but holes in the code it moved.
//! The right answer in every case is the rule's: Deny (or Ask naming the rule).

use super::*;

/// What the policy decides about our own `run_command` with `line`, in a workspace with
/// `Work/` and `notes.txt` (nothing the rules are about exists yet), under `rules` plus
/// `allow run_command` (so that a rule that does not hold shows as Allow).
fn decide(rules: &str, line: &str) -> PolicyDecision {
    decide_with(rules, &[], line)
}

/// The lines of `cases` (rules, line) that are not refused.
fn not_denied_each<'a>(cases: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    cases
        .iter()
        .copied()
        .filter(|(rules, line)| !matches!(decide(rules, line), PolicyDecision::Deny { .. }))
        .collect()
}

fn assert_denied(rules: &str, lines: &[&str]) {
    let cases: Vec<(&str, &str)> = lines.iter().map(|line| (rules, *line)).collect();
    let allowed = not_denied_each(&cases);
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// A name quoted in the command (or a pattern that matches nothing, which `sh` keeps as it
/// is) is skipped when it holds `[ ] * ? { } $ \``: `touch 'invoice[1].pdf'` makes the file
/// `invoice[1].pdf` under "Never write PDFs" and is allowed. Right answer: Deny — after the
/// shell's quotes are taken away these characters are plain letters of the name.
#[test]
fn a_quoted_name_with_brackets_or_a_question_mark_is_still_a_new_pdf() {
    assert_denied(
        NO_PDF,
        &[
            "touch 'invoice[1].pdf'",
            "echo hi > 'invoice[1].pdf'",
            "touch \"why?.pdf\"",
            "touch 'report {final}.pdf'",
            // No file matches `r*.pdf`: sh passes the word as it is and touch makes `r*.pdf`.
            "touch r*.pdf",
            "echo hi > r*.pdf",
        ],
    );
}

/// A word with `..` is skipped, even after `cd` into a folder of the workspace, where `..`
/// leads back inside it: `cd Work && echo hi > ../invoice.pdf` makes `invoice.pdf` in the
/// person's folder, and `cd Work && mkdir ../Reports && mv ../notes.txt ../Reports/` moves a
/// file into `Reports`. Right answer: Deny (read `../x` from the folder `cd` went to).
#[test]
fn a_name_with_dot_dot_after_cd_into_a_folder_is_still_a_new_name() {
    let allowed = not_denied_each(&[
        (NO_PDF, "cd Work && echo hi > ../invoice.pdf"),
        (
            "[[deny]]\ntool = \"move_path\"\nmatch = \"Reports/**\"\n",
            "cd Work && mkdir ../Reports && mv ../notes.txt ../Reports/",
        ),
        (
            "[[deny]]\ntool = \"write_file\"\nmatch = \"Out/**\"\n",
            "cd Work && mkdir ../Out && echo hi > ../Out/x.txt",
        ),
    ]);
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// `cd` is followed only into a folder that exists when the command is judged, so a folder
/// the same command makes first is not a base: `mkdir -p Work/New && cd Work/New && touch
/// a.pdf` writes `Work/New/a.pdf` under "Never write `Work/New/*.pdf`" and is allowed (the
/// sandbox cannot keep `Work/New` read-only: it is not there yet). Right answer: Deny (a
/// `cd` target the line itself names as new is a base too).
#[test]
fn cd_into_a_folder_the_same_command_makes_is_followed() {
    assert_denied(
        "[[deny]]\ntool = \"write_file\"\nmatch = \"Work/New/*.pdf\"\n",
        &[
            "mkdir -p Work/New && cd Work/New && touch a.pdf",
            "mkdir -p Work/New; cd Work/New; echo hi > a.pdf",
        ],
    );
}

/// `./` is cut from a word before it is checked for being an option, so `./-x.pdf` — the
/// usual way to name a file whose name starts with `-` — is skipped as if it were an option
/// (`echo hi > -x.pdf` is refused, `echo hi > ./-x.pdf` is allowed). Right answer: Deny.
#[test]
fn a_dot_slash_name_starting_with_a_dash_is_not_an_option() {
    assert_denied(NO_PDF, &["echo hi > ./-x.pdf"]);
}

// ---- siblings of the holes above, found while mending them

/// `cd` after `cd` goes on from where the first led, and an absolute `cd` into the person's
/// folder is followed too.
#[test]
fn cd_after_cd_and_an_absolute_cd_into_the_folder_are_followed() {
    let rules = "[[deny]]\ntool = \"write_file\"\nmatch = \"Work/New/*.pdf\"\n";
    for line in [
        "cd Work && cd New && touch a.pdf",
        "mkdir -p Work/New; cd Work; cd New; echo hi > a.pdf",
        "cd $WS/Work/New && touch a.pdf",
        "cd Work/Old/.. && cd New && touch a.pdf",
    ] {
        assert!(
            matches!(decide_with(rules, &[], line), PolicyDecision::Deny { .. }),
            "not refused: {line}"
        );
    }
}

/// A pattern the shell expands to files that exist names only them (which the sandbox keeps
/// read-only), so reading PDFs under "Never write PDFs" is not refused; quoted, the same
/// pattern is a new name.
#[test]
fn a_pattern_that_matches_existing_files_is_read_not_refused_but_quoted_it_is_a_name() {
    let existing = ["a.pdf", "Work/b.pdf"];
    for line in [
        "cat *.pdf > all.txt",
        "ls -l Work/*.pdf",
        "cd Work && wc -c *.pdf",
    ] {
        assert!(
            !matches!(
                decide_with(NO_PDF, &existing, line),
                PolicyDecision::Deny { .. }
            ),
            "refused: {line}"
        );
    }
    for line in [
        // Quoted, beside no PDF: a name as it is (beside PDFs it is read as a pattern given
        // to a program: `a_quoted_wildcard_beside_matching_files_is_read_as_a_pattern`).
        "touch '*.pdf'",
        "touch '[a].pdf'",
        "echo > Work/\\*.pdf",
    ] {
        assert!(
            matches!(decide_with(NO_PDF, &[], line), PolicyDecision::Deny { .. }),
            "not refused: {line}"
        );
    }
    for line in [
        // Only a hidden file matches: `sh` does not expand `*` to it, so `*.txt.pdf` is made.
        "touch Work/*.txt.pdf",
        // Strict on purpose: shells read brackets differently (`[^a]`, `[a\]`), so a word with
        // one is a name as it is, even where it would match `a.pdf`.
        "cat [a].pdf",
    ] {
        assert!(
            matches!(
                decide_with(NO_PDF, &["a.pdf", "Work/.x.txt.pdf"], line),
                PolicyDecision::Deny { .. }
            ),
            "not refused: {line}"
        );
    }
}

/// Not covered, on purpose: a quoted `*` or `?` that matches files in the folder is read as a
/// pattern given to a program (`find . -name '*.pdf'`, `grep --include='*.pdf'`, which list
/// and search PDFs every day), so `touch '*.pdf'` beside `a.pdf` makes the file `*.pdf` under
/// "Never write PDF files" unrefused. Telling the two apart needs each program's meaning of
/// its words. (A bracket, `touch 'a[1].pdf'`, is always a name.)
#[test]
#[ignore = "not covered: a quoted wildcard beside files it matches is read as a pattern"]
fn a_quoted_wildcard_beside_matching_files_is_read_as_a_pattern() {
    assert!(matches!(
        decide_with(NO_PDF, &["a.pdf"], "touch '*.pdf'"),
        PolicyDecision::Deny { .. }
    ));
}

/// A variable elsewhere in a line with a `cd` does not make every folder a place names are
/// read from (in a folder of more folders than are looked at, every command with a `cd` and
/// a `$` would otherwise be refused under "Never write PDF files").
#[test]
fn a_variable_beside_a_cd_is_not_a_folder_gone_to() {
    let folders: Vec<String> = (0..100).map(|i| format!("Year {i}/x.txt")).collect();
    let existing: Vec<&str> = folders.iter().map(String::as_str).collect();
    for line in ["cd Work && ls -la \"$PWD\"", "cd 'Year 1' && echo $HOME"] {
        assert!(
            !matches!(
                decide_with(NO_PDF, &existing, line),
                PolicyDecision::Deny { .. }
            ),
            "refused: {line}"
        );
    }
    // A folder gone to by a variable may be any: a new PDF in any of them is refused.
    assert!(matches!(
        decide_with(
            "[[deny]]\ntool = \"write_file\"\nmatch = \"Work/*.pdf\"\n",
            &[],
            "d=Work; cd \"$d\" && touch a.pdf"
        ),
        PolicyDecision::Deny { .. }
    ));
}
