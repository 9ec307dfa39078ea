//! After a `cd`, in `env`, in a line given to `bash -c`, and a long line: a hostile review
//! of 8e52497 (holes, false refusals and a cost), each failing before its mend. Every creation was checked by running the line with `dash -c` in a folder `ws` with
//! `Work/`.
use super::*;

/// HOLE: GNU `env` reads `-iC Work` as `-i -C Work` (a cluster) and takes unambiguous
/// abbreviations of long options (`--ch=Work`, `--chd Work` for `--chdir`): each line makes
/// `Work/a.pdf` under dash, as `env -C Work touch a.pdf` does (refused). `folder_gone_to`
/// only knows `-C`, `-CDIR`, `--chdir`, `--chdir=`; the module claims `env -C` is followed.
/// Right answer: refused under "Never write PDFs in Work".
#[test]
fn env_chdir_in_a_cluster_or_abbreviated_is_followed() {
    let cases: &[(&[&str], &str)] = &[
        (&[], "env -iC Work touch a.pdf"),
        (&[], "env --ch=Work touch a.pdf"),
        (&[], "env --chd Work touch a.pdf"),
    ];
    assert_eq!(not_denied(NO_PDF_IN_WORK, cases), Vec::<&str>::new());
}

/// HOLE: a redirection target that goes up out of the workspace and back into it
/// (`../ws/up.pdf`, where `ws` is the workspace's own folder, or `~/..…$WS/…`) makes the file
/// in the workspace (the sandbox binds the workspace at its own path, and the home folder is
/// an empty folder at its path). The same names as words (`touch ../ws/up.pdf`) are refused;
/// as redirection targets they are read as "outside, our command cannot write there".
/// Right answer: refused under "Never write PDF files" / "Never write PDFs in Work".
#[test]
fn a_redirection_that_comes_back_into_the_workspace_is_read() {
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let ups = "/..".repeat(Path::new(&home).components().count().saturating_sub(1));
    let tilde = format!("echo hi > ~{ups}$WS/up.pdf");
    let cases: &[(&[&str], &str)] = &[
        (&[], "echo hi > ../ws/up.pdf"),
        (&[], "echo hi >> ../ws/up.pdf"),
        (&[], tilde.as_str()),
    ];
    assert_eq!(not_denied(NO_PDF, cases), Vec::<&str>::new());
    let cases: &[(&[&str], &str)] = &[
        (&[], "echo hi > ../ws/Work/up.pdf"),
        (&[], "echo hi > Work/../../ws/Work/up.pdf"),
    ];
    assert_eq!(not_denied(NO_PDF_IN_WORK, cases), Vec::<&str>::new());
}

/// HOLE (bash everywhere, not only where `sh` is bash): a line run by `bash -c` (or
/// `bash -xc`) has brace expansion on whatever `sh` is; under dash,
/// `bash -c 'touch x.{pdf,txt}'` makes `x.pdf` and `x.txt`. The inner line is read with
/// braces as letters. Right answer: refused under "Never write PDF files". (Where `sh` is
/// bash, `sh -c 'touch x.{pdf,txt}'` and `set -B; touch x.{pdf,txt}` do the same: `+B` is
/// given to the outer `sh` only.)
#[test]
fn brace_expansion_in_a_line_bash_runs_is_read() {
    let cases: &[(&[&str], &str)] = &[
        (&[], "bash -c 'touch x.{pdf,txt}'"),
        (&[], "bash -xc 'touch x.{pdf,txt}'"),
    ];
    assert_eq!(not_denied(NO_PDF, cases), Vec::<&str>::new());
}

/// FALSE REFUSAL: after `cd Reports`, every word of the line (the program's own name `ls`,
/// `cd`, `Reports`, `.`) is read as a new name in Reports (`Reports/ls`), so listing or
/// reading in the folder is refused under "Never move files into Reports" (and under
/// `deny write_file "Work/**"` for `cd Work && ls`). Nothing is made or moved. Right answer:
/// not refused.
#[test]
fn listing_or_reading_inside_a_protected_folder_after_cd_is_not_refused() {
    let cases: &[(&[&str], &str)] = &[
        (&["Reports/q1.xlsx"], "cd Reports && ls"),
        (&["Reports/q1.xlsx"], "cd Reports && du -sh ."),
        (&["Reports/q1.xlsx"], "cd Reports && cat q1.xlsx"),
    ];
    assert_eq!(denied(NO_MOVE_INTO_REPORTS, cases), Vec::<&str>::new());
    let no_write_in_work = "[[deny]]\ntool = \"write_file\"\nmatch = \"Work/**\"\n";
    let cases: &[(&[&str], &str)] = &[
        (&["Work/r.txt"], "cd Work && ls"),
        (&["Work/r.txt"], "cd Work && wc -w r.txt"),
    ];
    assert_eq!(denied(no_write_in_work, cases), Vec::<&str>::new());
}

/// FALSE REFUSAL: reading or converting a PDF that exists in the folder a `cd &&` went to
/// is refused under "Never write PDF files": `a.pdf` is also read from the workspace, where
/// it does not exist, as a new PDF. After `cd Docs &&` (Docs exists), the shell reads `a.pdf`
/// only in Docs. Right answer: not refused.
#[test]
fn reading_a_pdf_after_cd_into_its_folder_is_not_refused() {
    let cases: &[(&[&str], &str)] = &[
        (&["Docs/a.pdf"], "cd Docs && pdftotext a.pdf a.txt"),
        (&["Docs/a.pdf"], "cd Docs && pdfinfo a.pdf"),
        (&["Docs/a.pdf"], "cd Docs && ls -l a.pdf"),
    ];
    assert_eq!(denied(NO_PDF, cases), Vec::<&str>::new());
}

/// COST: `goes_to_a_variable` walks, for every `-C` (or `cd`, `--chdir`) that starts a word,
/// past all the option-like words after it, so a line with many ` -C` (here inside one quoted
/// text, so the 1024-texts bound does not stop it) costs the square of its length: 30 KB
/// took 15 s, 60 KB 57 s, 120 KB 253 s (debug build, 8e52497); a 1 MB text is allowed.
/// Right answer: linear, well under a second.
#[test]
fn many_dash_c_words_cost_linear_time() {
    let line = format!("echo '{}'", " -C".repeat(10_000));
    let started = std::time::Instant::now();
    let _ = decide_with(NO_PDF, &[], &line);
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(2), "took {took:?}");
}
