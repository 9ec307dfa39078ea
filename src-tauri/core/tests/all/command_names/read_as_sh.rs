//! Words read as `sh` reads them: patterns, quoting, links and `cd`s, and cost: a hostile
//! review of 98cb934. Each test failed there; its comment says what was wrong and the right
//! answer. Every "makes" claim was checked by running
//! the line with `dash` (Debian's `/bin/sh`, which our command runs through `sh -c`).
//!
//! Where commands run shut in (bubblewrap found), a rule such as `deny write_file "**/*.pdf"`
//! leaves existing PDFs to the sandbox (read-only) and only judges the names of what does not
//! exist yet (`rules::names_not_yet_there`, `Sandboxed::ButNames`). The rewrite added an
//! exception: an unquoted pattern that `shell_expands` to existing files is no name. The tests
//! show words for which that exception is taken but `sh` keeps the word literal (and so makes
//! the file the rule forbids), and places the same command writes to that the reading misses.

use super::*;

/// HOLE the rewrite claims to close but keeps open (also open at eb2a863, where every
/// pattern word was skipped; the commit's own test only covers a pattern matching nothing).
/// `sh` never expands a pattern in a redirection's
/// target (POSIX; dash and `bash --posix` both): `echo hi > *.pdf` makes the file `*.pdf` even
/// though `a.pdf` exists, and `>> [a].pdf` makes `[a].pdf`. `names_not_yet_there` runs
/// redirection targets through the same `shell_expands` test as words and skips them, and
/// they are no mentioned paths, so the line is allowed under "Never write PDF files".
/// Right answer: Deny — a redirection target is a name as it is, pattern or not.
#[test]
fn a_pattern_in_a_redirection_target_is_never_expanded_by_sh() {
    let a: &[&str] = &["a.pdf"];
    let allowed = not_denied(
        NO_PDF,
        &[
            (a, "echo hi > *.pdf"),
            (a, "echo hi >> [a].pdf"),
            (a, "cat notes.txt 1> ?.pdf"),
        ],
    );
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// HOLE kept open by the `shell_expands` exception, and REOPENED for a word with a `/`
/// (`set -f; touch ./*.pdf` was refused at eb2a863 as a mentioned path; now allowed). `set -f` (or `set -o noglob`) turns pathname expansion off for the rest of the
/// line: `set -f; touch *.pdf` makes `*.pdf` while `a.pdf` exists, but the word is judged as
/// if `sh` expanded it to `a.pdf` (which the sandbox keeps) and the line is allowed.
/// Right answer: Deny — after `set -f`/`set -o noglob` (or with any `set` whose options cannot
/// be read), an unquoted pattern is a name as it is.
#[test]
fn after_set_f_a_pattern_is_a_name_as_it_is() {
    let a: &[&str] = &["a.pdf"];
    let allowed = not_denied(
        NO_PDF,
        &[
            (a, "set -f; touch *.pdf"),
            (a, "set -o noglob; touch *.pdf"),
            (a, "set -f\ntouch *.pdf"),
            (a, "set -euf; cp notes.txt *.pdf"),
            (a, "set -f; touch ./*.pdf"),
        ],
    );
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// HOLE kept open by the `shell_expands` exception (also open at eb2a863, where pattern words
/// were skipped). `sh` expands a word as a whole; the value glued to an option is not a word of its
/// own. `sort -o*.pdf notes.txt`: no file is named `-o…`, so `sh` passes `-o*.pdf` as it is
/// and sort writes the file `*.pdf` (checked with dash). The glued value `*.pdf` is tested with
/// `shell_expands` on its own, which finds `a.pdf`, so it is skipped (both in
/// `names_not_yet_there` and in the `ButNames` branch) and the line is allowed.
/// Right answer: Deny — a glued value with a pattern expands only if the whole word does.
#[test]
fn a_pattern_glued_to_an_option_is_not_expanded_on_its_own() {
    let a: &[&str] = &["a.pdf"];
    let allowed = not_denied(
        NO_PDF,
        &[
            (a, "sort -o*.pdf notes.txt"),
            (a, "sort --output=*.pdf notes.txt"),
            (a, "sort -o[a].pdf notes.txt"),
        ],
    );
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// HOLE (`[^b]`, `[a\]` also open at eb2a863; `mkdir *.pdf/` was refused there: a REGRESSION
/// of the `ButNames` exception): `shell_expands` (globset) and `sh` (dash) do not read the same patterns.
/// - `[^b]`: globset takes `^` as negation and finds `a.pdf`; dash takes `^` as a plain letter
///   (only `!` negates), finds nothing, and `touch [^b].pdf` makes `[^b].pdf`.
/// - `[a\]`: the escaped `]` does not close the bracket for dash, so the word matches nothing
///   and `touch [a\].pdf` makes `[a].pdf`; the splitter drops the backslash without recording
///   it (`]` is not in `push_quoted`'s set), so `[a].pdf` is expanded to `a.pdf` and skipped.
/// - A trailing `/` matches only folders in `sh`; `Path::components` drops it, so `*.pdf/`
///   "expands" to the file `a.pdf`, and `mkdir *.pdf/` makes the folder `*.pdf` (a plain
///   `mkdir new.pdf` is refused under the same rule).
///
/// Right answer: Deny — where our matcher and `sh` may differ, the word is a name as it is
/// (the safe side): `[^`, a backslash inside brackets, a trailing `/`.
#[test]
fn patterns_that_globset_expands_but_sh_keeps_literal() {
    let a: &[&str] = &["a.pdf"];
    let allowed = not_denied(
        NO_PDF,
        &[
            (a, "touch [^b].pdf"),
            (a, "touch [a\\].pdf"),
            (a, "mkdir *.pdf/"),
        ],
    );
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// HOLE (`L/../*.pdf` is a REGRESSION: refused at eb2a863, allowed since the `ButNames`
/// exception; the two lines without a pattern were open before too) (`..` is read by name, but the kernel reads it after links). `ln -s Work/Deep L;
/// touch L/../*.pdf`: `L/..` is `Work` to the kernel, `Work` holds no PDF, so `sh` keeps the
/// word and touch makes `Work/*.pdf` (checked with dash). `name_within` reads `L/../*.pdf` as
/// `*.pdf`, which expands to the existing `a.pdf`, and the line is allowed. The same with no
/// pattern under "Never write PDFs in Work": `touch L/../x.pdf` makes `Work/x.pdf` but is read
/// as `x.pdf`; and plainly writing through the link the command made: `ln -s Work L && touch
/// L/a.pdf`. Right answer: Deny — a name through a link the line itself may make (any `ln`, or
/// any part that does not exist yet followed by `..`) cannot be read by letters alone.
#[test]
fn a_link_made_by_the_same_command_leads_the_name_elsewhere() {
    let allowed = not_denied(
        NO_PDF,
        &[(
            &["a.pdf", "Work/Deep/"],
            "ln -s Work/Deep L; touch L/../*.pdf",
        )],
    );
    let allowed_in_work = not_denied(
        NO_PDF_IN_WORK,
        &[
            (&["Work/Deep/"], "ln -s Work/Deep L; touch L/../x.pdf"),
            (&[], "ln -s Work L && touch L/a.pdf"),
        ],
    );
    assert!(
        allowed.is_empty() && allowed_in_work.is_empty(),
        "not refused: {allowed:#?} {allowed_in_work:#?}"
    );
}

/// HOLE in the new `cd` reading (open at eb2a863 too): a base is followed by its letters, never through a link.
/// With `L -> Work` already in the folder, `touch L/a.pdf` is refused (mentioned paths are
/// resolved on disk) but `cd L && touch a.pdf` makes the same `Work/a.pdf` and is allowed: the
/// name is read as `L/a.pdf`. Right answer: Deny — a `cd` base is resolved as far as it exists,
/// as mentioned paths are.
#[test]
fn cd_into_a_link_is_followed_to_where_it_leads() {
    let allowed = not_denied(
        NO_PDF_IN_WORK,
        &[
            (&["LINK:L->Work"], "cd L && touch a.pdf"),
            (&[], "ln -s Work L && cd L && touch a.pdf"),
        ],
    );
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// HOLE in the new `cd` reading, open at eb2a863 too (the commit says names are read "from every folder `cd` leads
/// to"): only `cd`'s first word is taken as the folder, by its letters.
/// - `cd -P Work`, `cd -L Work`, `cd -- Work`: the base becomes `-P`/`-L`/`--`, not `Work`.
/// - `cd Wor?`, `cd W*`: `sh` expands the pattern to `Work`; the base stays `Wor?`.
/// - `cd "$(echo Work)"`, `d=Work; cd $d`: the base cannot be read, and the names after it are
///   read only from the workspace, as if the `cd` were not there.
/// - `env -C Work touch a.pdf` / `env --chdir=Work …` (GNU env) run the command in `Work`.
///
/// Each makes `Work/a.pdf` under "Never write PDFs in Work" and is allowed.
/// Right answer: Deny — read `cd`'s options and patterns as `sh` does, and where a `cd`'s
/// folder cannot be read, judge the names after it as if they could be anywhere (or ask).
#[test]
fn cd_with_an_option_a_pattern_or_a_variable_is_still_followed() {
    let none: &[&str] = &[];
    let allowed = not_denied(
        NO_PDF_IN_WORK,
        &[
            (none, "cd -P Work && touch a.pdf"),
            (none, "cd -L Work && touch a.pdf"),
            (none, "cd -- Work && touch a.pdf"),
            (none, "cd Wor? && touch a.pdf"),
            (none, "cd W* && touch a.pdf"),
            (none, "cd \"$(echo Work)\" && touch a.pdf"),
            (none, "d=Work; cd $d && touch a.pdf"),
            (none, "env -C Work touch a.pdf"),
            (none, "env --chdir=Work touch a.pdf"),
        ],
    );
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

// Brace expansion where `sh` is bash (`touch x.{pdf,txt}` made `x.pdf`) is turned off where
// commands run (`tools::sandbox::BEFORE_COMMAND`, tested by
// `a_command_runs_without_brace_expansion_in_bash_and_dash`): the command makes the one file
// `x.{pdf,txt}`, as under dash, which is no PDF.

/// HOLE (there before 98cb934 too): a copy into a folder that exists makes a file whose name
/// no word gives. `cp a.pdf Work/` makes `Work/a.pdf` under "Never write PDF files"; the words
/// `a.pdf` and `Work/` both exist, so nothing is judged. Right answer: Deny (or Ask) — a copy
/// or move into an existing folder names `folder/basename` of each source.
#[test]
fn a_copy_into_an_existing_folder_makes_a_new_pdf() {
    let a: &[&str] = &["a.pdf"];
    let allowed = not_denied(
        NO_PDF,
        &[
            (a, "cp a.pdf Work/"),
            (a, "cp *.pdf Work"),
            (a, "cp -t Work a.pdf"),
        ],
    );
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// FALSE REFUSALS the rewrite introduced (allowed at eb2a863, where a word with a pattern
/// character was skipped): a quoted pattern is now always a new name, and an unquoted one is
/// also read from the workspace folder after a `cd`. Under "Never write PDF files", with PDFs
/// in the folder, these read-only lines a person runs every day are refused:
/// - `find . -name '*.pdf'` and `grep -rl invoice --include='*.pdf' .` (listing/searching
///   PDFs: the quoted `*.pdf` is taken as the new file `*.pdf`);
/// - `sh -c 'ls *.pdf'` (the outer word `ls *.pdf` is itself taken as a file name);
/// - `cd Invoices && ls *.pdf` (`*.pdf` expands in `Invoices`, where the command is, but is
///   also read from the workspace folder, where it matches nothing, so it is a "new name").
///
/// Right answer: not refused. (The first two are hard to tell from `touch '*.pdf'` without
/// knowing the program; an Ask naming the rule would be acceptable, a Deny is not. The last
/// two are plain mistakes: a word with a space is no file a shell word makes, and a `cd`
/// that fails stops an `&&` chain.)
#[test]
fn reading_pdfs_with_a_pattern_is_not_refused() {
    let existing: &[&str] = &["a.pdf", "Invoices/march.pdf"];
    let refused = denied(
        NO_PDF,
        &[
            (existing, "find . -name '*.pdf'"),
            (existing, "grep -rl invoice --include='*.pdf' ."),
            (existing, "sh -c 'ls *.pdf'"),
            (existing, "cd Invoices && ls *.pdf"),
        ],
    );
    assert!(refused.is_empty(), "refused: {refused:#?}");
}

/// COST (measurement, not a failing test: run with --nocapture). `names_not_yet_there` pushes
/// one name per (word, base) pair, checks each against every name so far (`names.iter().any`)
/// and stats each on disk; every sequential `cd` adds a base one level deeper (`d0/d1/…/dN`),
/// so the work grows with words × cds × (words × cds + path length). At 98cb934 on the
/// reviewer's machine (debug build, 2 CPUs, other builds running): 20 cds × 20 words (305
/// bytes) 0.1 s; 50 × 50 (785 bytes) 0.6 s; 100 × 100 (1.6 KB) 8.3 s;
/// 200 × 200 (3.4 KB) 101 s. A 100 KB line would not finish. There is no cap on bases, names or line length
/// (EXPANSION_CAP bounds only one word's directory reads).
#[test]
fn cost_of_many_cds_and_words() {
    for (cds, words) in [
        (20usize, 20usize),
        (50, 50),
        (100, 100),
        (200, 200),
        (2000, 10000),
    ] {
        let mut line = String::new();
        for i in 0..cds {
            line.push_str(&format!("cd d{i}; "));
        }
        line.push_str("touch");
        for i in 0..words {
            line.push_str(&format!(" w{i}.pdf"));
        }
        let started = std::time::Instant::now();
        let decision = decide_with(NO_PDF, &[], &line);
        println!(
            "cds={cds} words={words} bytes={} deny={} took {:?}",
            line.len(),
            is_deny(&decision),
            started.elapsed()
        );
    }
}

/// COST (measurement, run with --nocapture): many patterns against a folder of many files.
/// Each folder is listed once per decision and matched once per pattern (`new_names::Folders`).
#[test]
fn cost_of_many_patterns_in_a_big_folder() {
    let files: Vec<String> = (0..9000).map(|i| format!("f{i}.txt")).collect();
    let existing: Vec<&str> = files.iter().map(String::as_str).collect();
    for patterns in [10usize, 100, 1000] {
        let line = format!(
            "ls {}",
            (0..patterns)
                .map(|i| format!("f{i}*.txt"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let started = std::time::Instant::now();
        let decision = decide_with(NO_PDF, &existing, &line);
        println!(
            "patterns={patterns} files=9000 bytes={} deny={} took {:?}",
            line.len(),
            is_deny(&decision),
            started.elapsed()
        );
    }
}
