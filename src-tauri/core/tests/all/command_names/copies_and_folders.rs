//! Copies and moves into folders, folders gone to, quoting, and cost: a hostile review of
//! b4165b5. Each test failed there (except the cost test, which only prints); its comment says
//! what was wrong and the right answer. Every "makes" claim was
//! checked by running the line with `dash -c` and with `bash -c` after the prefix
//! `[ -z "${BASH_VERSION-}" ] || set +B; ` in a temporary folder (GNU coreutils).

use super::*;

/// HOLE in "a copy, move or link into a folder that exists (`mv -t Work a.pdf`) names
/// `Work/a.pdf`": `operands_and_folder` only knows `-t DIR`, `-tDIR` and the full
/// `--target-directory[=]DIR`. GNU tools also take `-t` inside a cluster (`-at Work`,
/// `-vtWork`, `install -Dt Work`, `ln -st Work`) and any unambiguous abbreviation of the long
/// option (`--target=Work`, `--targ Work`). Then `Work` is read as a source and the last
/// operand (`a.pdf`, a file) as the folder, so nothing is named: each line makes `Work/a.pdf`
/// (checked: dash and bash) and is allowed under "Never write PDFs in Work".
/// Right answer: Deny — read `t` in an option cluster (its value glued or the next word) and
/// any prefix of `--target-directory` of at least `--t`.
#[test]
fn copy_into_a_folder_given_by_a_clustered_or_abbreviated_t() {
    let a: &[&str] = &["a.pdf"];
    let allowed = not_denied(
        NO_PDF_IN_WORK,
        &[
            (a, "cp -at Work a.pdf"),
            (a, "cp -vtWork a.pdf"),
            (a, "cp --target=Work a.pdf"),
            (a, "cp --targ Work a.pdf"),
            (a, "mv --target=Work a.pdf"),
            (a, "install -Dt Work a.pdf"),
            (a, "ln -st Work ../a.pdf"),
        ],
    );
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// HOLE in the same claim: the folder operand is only tried by name (`root.join(into)
/// .is_dir()`), never expanded as a pattern, and through a link it names the link's path, not
/// where the file lands. `cp a.pdf W*`, `cp a.pdf Wor?/` and `cp a.pdf */` all make
/// `Work/a.pdf` (the shell expands the last word to `Work`); `cp a.pdf L/` with `L -> Work`
/// makes `Work/a.pdf` but names `L/a.pdf`, which "Work/*.pdf" does not match. All allowed.
/// Right answer: Deny — expand an unquoted folder operand as `word` does (every folder it
/// matches), and name the made file through links as far as they exist (`through_links`).
#[test]
fn copy_into_a_folder_given_by_a_pattern_or_a_link() {
    let a: &[&str] = &["a.pdf"];
    let linked: &[&str] = &["a.pdf", "LINK:L->Work"];
    let allowed = not_denied(
        NO_PDF_IN_WORK,
        &[
            (a, "cp a.pdf W*"),
            (a, "cp a.pdf Wor?/"),
            (a, "cp a.pdf */"),
            (linked, "cp a.pdf L/"),
            (linked, "mv a.pdf L"),
        ],
    );
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// HOLE in "every folder a `cd` (or `pushd`, `env -C`) leads to":
/// - `folder_gone_to` stops at the first word of `env` that is not an option and has no `=`,
///   taking it as the command; but `-u NAME` (and `-S`, `--unset NAME`) take a value, so in
///   `env -u X -C Work touch a.pdf` the `-C Work` is never seen: makes `Work/a.pdf`;
/// - `cd -` goes to `$OLDPWD`, which the line may set plainly: `OLDPWD=Work; cd -; touch
///   a.pdf` makes `Work/a.pdf` (no `$` on the line, so not even `every_folder_a_base`).
///
/// Both allowed under "Never write PDFs in Work".
/// Right answer: Deny — skip the values of env's value-taking options; read `cd -` (and
/// `popd`, `cd` with `CDPATH`/`OLDPWD` set on the line) as every folder, as a `cd "$D"` is.
#[test]
fn folders_gone_to_after_env_u_and_cd_minus() {
    let none: &[&str] = &[];
    let allowed = not_denied(
        NO_PDF_IN_WORK,
        &[
            (none, "env -u X -C Work touch a.pdf"),
            (none, "env --unset X --chdir=Work touch a.pdf"),
            (none, "OLDPWD=Work; cd - ; touch a.pdf"),
        ],
    );
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// HOLE: braces. The commit turns brace expansion off so that "the names read are the names
/// made", but the reading still cuts a word at an unquoted brace (`part_glob`'s comment: "the
/// lenient reading cuts at unquoted braces"), so `touch Work/x{y}.pdf` — which dash, and bash
/// after `set +B`, run as the one file `Work/x{y}.pdf` — is read as `Work/x` and allowed under
/// "Never write PDFs in Work" (`**/*.pdf` happens to refuse `touch x{y}.pdf`).
/// Right answer: Deny — with braces literal, a word with braces is a name with braces.
#[test]
fn a_word_with_braces_is_the_name_it_makes() {
    let none: &[&str] = &[];
    let allowed = not_denied(
        NO_PDF_IN_WORK,
        &[
            (none, "touch Work/x{y}.pdf"),
            (none, "echo hi > Work/{draft}.pdf"),
        ],
    );
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// HOLE in "a quoted pattern is a name as it is, unless it matches something in the
/// workspace" (the README's exception is only for a quoted pattern *beside files it
/// matches*):
/// - `matches_in_workspace` tests only the part after the last `=`: `touch 'x=*.pdf'` beside
///   `a.pdf` makes `x=*.pdf`, which matches nothing there, yet `*.pdf` does;
/// - a word with a quoted and an unquoted `*` (`touch '*'*.pdf`) is read as the quoted
///   pattern `**.pdf` (which matches `a.pdf`), but `sh` expands it as "names starting with
///   `*`", finds none, and makes `**.pdf`.
///
/// Both allowed under "Never write PDF files".
/// Right answer: Deny — test the whole word, with only its quoted characters literal (and
/// only strip `--opt=` when the word is an option).
#[test]
fn a_quoted_pattern_that_matches_nothing_as_written() {
    let a: &[&str] = &["a.pdf"];
    let allowed = not_denied(NO_PDF, &[(a, "touch 'x=*.pdf'"), (a, "touch '*'*.pdf")]);
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// HOLE in "not ... a word with a variable or substitution": a quoted or escaped `$` is no
/// variable. `touch '$a.pdf'` and `touch \$a.pdf` make the file `$a.pdf` (dash and bash) and
/// are allowed under "Never write PDF files", since `named` and `word` skip every word with a
/// `$` in it, quoted or not.
/// Right answer: Deny — a `$` the shell does not expand is a letter of the name.
#[test]
fn a_quoted_dollar_is_a_letter() {
    let none: &[&str] = &[];
    let allowed = not_denied(
        NO_PDF,
        &[(none, "touch '$a.pdf'"), (none, "touch \\$a.pdf")],
    );
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// HOLE against "read as `sh` (dash) reads the line, and on the safe side where the reading
/// cannot tell": a pattern counts as expanded when it matches in *any* folder of the line,
/// also one the command is not in. In `cd Work && touch *.pdf` with `a.pdf` only at the top,
/// `touch` runs in `Work`, where `*.pdf` matches nothing, so it makes `Work/*.pdf`; the same
/// for `cd Work && cp ../notes.txt *.pdf`. With the pattern quoted (`'*.pdf'`) the
/// `matches_in_workspace` exception takes a PDF anywhere in the workspace, not beside the
/// word, and `Work/*.pdf` is made too. All allowed under "Never write PDFs in Work".
/// Right answer: Deny — a command after the `cd`s reads a pattern from the folders it can be
/// in (or, where that cannot be told, counts it as a name as it is), and a quoted pattern is
/// taken as given to a program only where it matches beside where it would be made.
///
/// Not covered, on purpose (README): which command of a line runs in which folder is not
/// read (`&&`, `;`, `||` and subshells decide it), and reading a pattern as a name wherever it
/// does not match refuses `cd Invoices && ls *.pdf` (PDFs only in `Invoices`), the everyday
/// read a first review found refused. The file this makes is literally named `*.pdf`.
#[test]
#[ignore = "not covered: a pattern that matches in one folder the line reaches counts as expanded"]
fn a_pattern_is_expanded_in_the_folder_the_command_is_in() {
    let a: &[&str] = &["a.pdf"];
    let allowed = not_denied(
        NO_PDF_IN_WORK,
        &[
            (a, "cd Work && touch *.pdf"),
            (a, "cd Work && cp ../notes.txt *.pdf"),
            (a, "cd Work && touch '*.pdf'"),
        ],
    );
    assert!(allowed.is_empty(), "not refused: {allowed:#?}");
}

/// FALSE REFUSAL, ordinary work: a line with any `$` and any `cd` makes every folder of the
/// workspace (at any depth) a folder names are read from, and past 64 folders the reading
/// gives up and every write/move rule holds. In a folder of 70 subfolders (a modest Documents
/// folder), `cd Work && for f in *.txt; do wc -l "$f"; done` — which only reads — is refused
/// under "Never write PDF files" and under "Never move files into Reports" (it is allowed
/// with few folders). So is `for d in */; do (cd "$d" && ls); done`.
/// Right answer: Allow — these lines name nothing new; giving up should only hold for a word
/// that could name something new from an unknown folder (here there is none: `"$f"` and
/// `"$d"` are variables, which the reading does not judge anyway).
#[test]
fn a_variable_and_a_cd_in_a_folder_of_many_folders_are_not_refused() {
    let many: Vec<String> = (0..70).map(|i| format!("d{i}/")).collect();
    let mut existing: Vec<&str> = many.iter().map(String::as_str).collect();
    existing.push("Work/a.txt");
    let existing: &[&str] = &existing;
    let refused: Vec<&str> = [
        (NO_PDF, "cd Work && for f in *.txt; do wc -l \"$f\"; done"),
        (NO_PDF, "for d in */; do (cd \"$d\" && ls); done"),
        (
            NO_MOVE_INTO_REPORTS,
            "cd Work && for f in *.txt; do wc -l \"$f\"; done",
        ),
    ]
    .into_iter()
    .filter(|(rules, line)| {
        matches!(
            decide_with(rules, existing, line),
            PolicyDecision::Deny { .. }
        )
    })
    .map(|(_, line)| line)
    .collect();
    assert!(refused.is_empty(), "refused: {refused:#?}");
}

/// COST (prints only; run with --nocapture): `matches_in_workspace` walks every path of the
/// workspace (up to 50,000) once per quoted pattern word, with no bound on how many words do
/// so (it counts against neither `MATCHES_CAP` nor `NAMES_CAP`). Measured (debug, 40,000
/// files): 200 quoted patterns (a 3.7 KB line of `--include='*.xN'`) 15.7–21 s; 1,000 (19 KB)
/// 88 s, under the policy's lock, for one decision. The other shapes tried stay bounded:
/// `cd` into a 25,000-part path 0.7–1.1 s, 10,000 `ln` 29–57 ms, 5,000 `cp` into a folder
/// after 63 `cd`s 13–22 ms, 40,000 `a/..` 0.4–0.5 s, `cd "$D"` in 49,000 files 0.16–0.24 s.
/// Here (20,000 files, setup included): 20 patterns 4.7 s, 100 patterns 19 s.
/// Right answer: the quoted-pattern matches count against `MATCHES_CAP` (or one pass over the
/// workspace for all quoted patterns), so a decision stays well under a second.
#[test]
fn cost_of_quoted_patterns_in_a_big_workspace() {
    let big: Vec<String> = (0..200)
        .flat_map(|d| (0..100).map(move |f| format!("f{d}/{f}.txt")))
        .collect();
    let existing: Vec<&str> = big.iter().map(String::as_str).collect();
    for n in [20usize, 100] {
        let pats: Vec<String> = (0..n).map(|i| format!("--include='*.x{i}'")).collect();
        let line = format!("grep -r x {} .", pats.join(" "));
        let started = std::time::Instant::now();
        let decision = decide_with(NO_PDF, &existing, &line);
        println!(
            "{n} quoted patterns, 20,000 files: {:?} (incl. setup) -> {}",
            started.elapsed(),
            matches!(decision, PolicyDecision::Deny { .. })
        );
    }
}

/// Where `sh` is bash, commands run as `sh +B -c …` (`tools::sandbox::shell_options`; at
/// b4165b5 a prefix line, `[ -z "${BASH_VERSION-}" ] || set +B; `, which changed `$_` and
/// was quoted back in every syntax error of the first line). With the option, nothing the
/// command sees changes but brace expansion.
#[test]
fn the_brace_option_changes_nothing_but_braces_in_bash() {
    if std::process::Command::new("bash")
        .arg("-c")
        .arg("true")
        .status()
        .is_err()
    {
        return;
    }
    let run = |options: &[&str], line: &str| {
        let out = std::process::Command::new("bash")
            .args(options)
            .arg("-c")
            .arg(line)
            .output()
            .unwrap();
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    let differ: Vec<(String, String)> = ["echo \"$_\"", "echo (", "echo \"$0 $#\"; false; echo $?"]
        .into_iter()
        .map(|line| (run(&[], line), run(&["+B"], line)))
        .filter(|(plain, with)| plain != with)
        .collect();
    assert!(differ.is_empty(), "differ: {differ:#?}");
    assert_eq!(run(&["+B"], "echo x{a,b}"), "x{a,b}\n");
}
