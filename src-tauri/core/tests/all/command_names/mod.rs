//! The names our own command gives of files that do not exist yet (`policy::new_names`):
//! under a rule about writing or moving into a place, the sandbox keeps only what exists
//! read-only, so a command that would make a file the rule is about by naming it is refused.
//! Each test makes, in `sh` (dash, and bash with `+B`), exactly what its comment says; most
//! were written by hostile reviews, each failing on the code before its mend.

mod after_cd_and_bash;
mod copies_and_folders;
mod made;
mod read_as_sh;

use askfirst_core::policy::{CallFacts, Policy, PolicyDecision, Rules};
use askfirst_core::tools::{RunCommand, Tool, Workspace};
use askfirst_protocol::Risk;
use std::path::Path;

/// What the policy decides about our own `run_command` with `line`, in a workspace with
/// `Work/`, `notes.txt` and `existing` (a path ending in `/` is a folder, `LINK:a->b` makes
/// the symbolic link `a` to `b`), under `rules` plus `allow run_command` (so that a rule that
/// does not hold shows as Allow); `$WS` in `line` is the workspace's path. With `ASKFIRST_TEST_TIMES` set, prints how long the
/// arguments took to read and the decision to take.
pub(crate) fn decide_with(rules: &str, existing: &[&str], line: &str) -> PolicyDecision {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let (root, data) = (base.join("ws"), base.join("data"));
    std::fs::create_dir_all(root.join("Work")).unwrap();
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(root.join("notes.txt"), "notes").unwrap();
    for file in existing {
        if let Some(link) = file.strip_prefix("LINK:") {
            let (from, to) = link.split_once("->").unwrap();
            std::os::unix::fs::symlink(to, root.join(from)).unwrap();
            continue;
        }
        let path = root.join(file);
        if file.ends_with('/') {
            std::fs::create_dir_all(&path).unwrap();
        } else {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
    }
    let ws = Workspace::open(&root).unwrap().with_own_data(&data);
    let rules = format!("{rules}[[allow]]\ntool = \"run_command\"\n");
    let policy = Policy::new(
        Rules::parse(&rules, Path::new("rules.toml")),
        Some((data.as_path(), root.as_path())),
    );
    // An absolute path into the workspace is spelled with the workspace's own path.
    let line = line.replace("$WS", &root.display().to_string());
    let raw = serde_json::json!({ "command": line }).to_string();
    let started = std::time::Instant::now();
    let arguments = RunCommand.main_arguments(&raw, &ws);
    let read = started.elapsed();
    let decision = policy
        .decide(&CallFacts {
            tool_name: "run_command",
            read_only: false,
            risk: Risk::High,
            main_arguments: &arguments,
            canonical_arguments: None,
            mcp_server: None,
            fingerprint: None,
        })
        .decision;
    if std::env::var_os("ASKFIRST_TEST_TIMES").is_some() {
        println!(
            "  arguments read in {read:?}, decided in {:?}",
            started.elapsed() - read
        );
    }
    decision
}

pub(crate) const NO_PDF: &str = "[[deny]]\ntool = \"write_file\"\nmatch = \"**/*.pdf\"\n";
pub(crate) const NO_PDF_IN_WORK: &str = "[[deny]]\ntool = \"write_file\"\nmatch = \"Work/*.pdf\"\n";
pub(crate) const NO_MOVE_INTO_REPORTS: &str =
    "[[deny]]\ntool = \"move_path\"\nmatch = \"Reports/**\"\n";

/// The lines of `cases` (files that exist, line) not refused under `rules`.
pub(crate) fn not_denied<'a>(rules: &str, cases: &[(&'a [&'a str], &'a str)]) -> Vec<&'a str> {
    cases
        .iter()
        .filter(|(existing, line)| {
            !matches!(
                decide_with(rules, existing, line),
                PolicyDecision::Deny { .. }
            )
        })
        .map(|(_, line)| *line)
        .collect()
}

/// The lines of `cases` (files that exist, line) refused under `rules`.
pub(crate) fn denied<'a>(rules: &str, cases: &[(&'a [&'a str], &'a str)]) -> Vec<&'a str> {
    cases
        .iter()
        .filter(|(existing, line)| is_deny(&decide_with(rules, existing, line)))
        .map(|(_, line)| *line)
        .collect()
}

/// Whether `decision` refuses.
pub(crate) fn is_deny(decision: &PolicyDecision) -> bool {
    matches!(decision, PolicyDecision::Deny { .. })
}
