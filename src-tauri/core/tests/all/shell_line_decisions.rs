//! The differential check of how a command line is read (issue 42, point 1): every text of the
//! adversarial tables (`command_line/tests.rs`, `command_line/effect_tests.rs`,
//! `inbox/policy_tests.rs`, `tests/all/rules_commands.rs`, `tests/all/hostile_try_first.rs`,
//! `tests/all/tools_command.rs`), and variants of each (after `sudo`, inside `sh -c '…'`, after
//! a pipe, with a redirection, after `cd ..`, on a second line), judged by every user of the
//! reading: the strict and lenient readings, the names a line mentions, the hard denials, the
//! card's effects, rules' command patterns, the policy's decision for `run_command` under a
//! few rule sets, the paths our command's words name, and the inbox's judgement of another
//! agent's command.
//!
//! Each case's answers are kept as a short digest in `shell_line_decisions.txt`, made with the
//! code before the reading moved into its own crate; a changed answer fails with the case and
//! what it is now. `ASKFIRST_DECISIONS_OUT=<file>` writes every case's answers in full (to
//! compare two versions of the code by hand). Run by hand (it is ignored by `cargo test`): the
//! answers of `/proc/self/cwd/../..` cases name the folder above the checkout, so the digests
//! hold for a checkout at the path they were made in; compare full dumps across two paths (the
//! rewrite's proof was made so: the only lines that differ are those paths).

use askfirst_core::command_line::{
    all_simple_commands, effects, hard_denial, names_in, plain_commands, redirection_targets,
    CommandPattern, Place,
};
use askfirst_core::inbox::{card, policy as inbox_policy};
use askfirst_core::policy::{ArgumentKind, CallFacts, Contents, MainArgument, Policy, Rules};
use askfirst_core::tools::{RunCommand, Tool, Workspace};
use askfirst_protocol::{ExternalAgent, InboxRequest};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The tables whose texts are the corpus, by file (unchanged by the rewrite: the proof).
const TABLES: &[(&str, &str)] = &[
    (
        "command_line/tests.rs",
        include_str!("../../src/command_line/tests.rs"),
    ),
    (
        "command_line/effect_tests.rs",
        include_str!("../../src/command_line/effect_tests.rs"),
    ),
    (
        "inbox/policy_tests.rs",
        include_str!("../../src/inbox/policy_tests.rs"),
    ),
    ("rules_commands.rs", include_str!("rules_commands.rs")),
    ("hostile_try_first.rs", include_str!("hostile_try_first.rs")),
    ("tools_command.rs", include_str!("tools_command.rs")),
];

/// The committed digests: one line per case, in the order of [`cases`].
const EXPECTED: &str = include_str!("shell_line_decisions.txt");

/// Every string literal of Rust source `text` (plain `"…"` with escapes, and raw `r#"…"#`),
/// decoded; characters and comments are passed over.
fn string_literals(text: &str) -> Vec<String> {
    let b: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            '/' if b.get(i + 1) == Some(&'/') => {
                while i < b.len() && b[i] != '\n' {
                    i += 1;
                }
            }
            '\'' => {
                // A character literal ('x', '\n', '\'') or a lifetime: skip a character
                // literal whole so that `'"'` opens no string.
                if b.get(i + 1) == Some(&'\\') {
                    let mut j = i + 2;
                    while j < b.len() && b[j] != '\'' {
                        j += 1;
                    }
                    i = j + 1;
                } else if b.get(i + 2) == Some(&'\'') {
                    i += 3;
                } else {
                    i += 1;
                }
            }
            'r' if (b.get(i + 1) == Some(&'#') || b.get(i + 1) == Some(&'"'))
                && (i == 0 || !(b[i - 1].is_alphanumeric() || b[i - 1] == '_')) =>
            {
                let mut j = i + 1;
                let mut hashes = 0;
                while b.get(j) == Some(&'#') {
                    hashes += 1;
                    j += 1;
                }
                if b.get(j) != Some(&'"') {
                    i += 1;
                    continue;
                }
                j += 1;
                let start = j;
                loop {
                    if j >= b.len() {
                        break;
                    }
                    if b[j] == '"' && (1..=hashes).all(|k| b.get(j + k) == Some(&'#')) {
                        break;
                    }
                    j += 1;
                }
                out.push(b[start..j.min(b.len())].iter().collect());
                i = j + 1 + hashes;
            }
            '"' => {
                let mut s = String::new();
                let mut j = i + 1;
                while j < b.len() && b[j] != '"' {
                    if b[j] == '\\' {
                        j += 1;
                        match b.get(j) {
                            Some('n') => s.push('\n'),
                            Some('t') => s.push('\t'),
                            Some('r') => s.push('\r'),
                            Some('0') => s.push('\0'),
                            Some('\\') => s.push('\\'),
                            Some('"') => s.push('"'),
                            Some('\'') => s.push('\''),
                            Some('x') => {
                                let hex: String = b[j + 1..(j + 3).min(b.len())].iter().collect();
                                if let Ok(v) = u8::from_str_radix(&hex, 16) {
                                    s.push(char::from(v));
                                }
                                j += 2;
                            }
                            Some('u') => {
                                let end = (j..b.len()).find(|&k| b[k] == '}').unwrap_or(j);
                                let hex: String = b[(j + 2).min(end)..end].iter().collect();
                                if let Some(c) =
                                    u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32)
                                {
                                    s.push(c);
                                }
                                j = end;
                            }
                            Some('\n') => {
                                // A line continuation: the next line's leading blanks go.
                                while b.get(j + 1).is_some_and(|c| c.is_whitespace()) {
                                    j += 1;
                                }
                            }
                            Some(other) => s.push(*other),
                            None => {}
                        }
                    } else {
                        s.push(b[j]);
                    }
                    j += 1;
                }
                out.push(s);
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// `text` quoted for `sh` in single quotes.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The variants of one table text that are judged as well.
fn variants(line: &str) -> Vec<String> {
    vec![
        line.to_owned(),
        format!("sudo {line}"),
        format!("sh -c {}", quoted(line)),
        format!("echo x | {line}"),
        format!("{line} > out.txt"),
        format!("cd .. && {line}"),
        format!("ls\n{line}"),
    ]
}

/// The folders every case is judged in: a home folder with Ask First's data folder, the
/// person's folder (`Documents`, with `Private/diary.txt`, `notes/`, `sub/`), a folder
/// elsewhere and Claude Code's settings (as in `inbox/policy_tests.rs`).
struct Folders {
    _root: tempfile::TempDir,
    home: PathBuf,
    data: PathBuf,
    person: PathBuf,
    elsewhere: PathBuf,
}

fn folders() -> Folders {
    let root = tempfile::tempdir().expect("root");
    let home = std::fs::canonicalize(root.path()).expect("canonical");
    let data = home.join(".local/share/askfirst");
    let person = home.join("Documents");
    let elsewhere = home.join("projects/site");
    for dir in [
        data.clone(),
        person.join("Private"),
        person.join("notes"),
        person.join("sub"),
        person.join("Work/Contracts"),
        elsewhere.join("Private"),
        home.join(".claude"),
    ] {
        std::fs::create_dir_all(dir).expect("dir");
    }
    std::fs::write(data.join("settings.json"), "{}").expect("settings");
    std::fs::write(person.join("Private/diary.txt"), "dear diary").expect("diary");
    std::fs::write(person.join("notes.txt"), "notes").expect("notes");
    std::fs::write(person.join("invoice.pdf"), "%PDF").expect("pdf");
    std::fs::write(home.join(".claude/settings.json"), "{}").expect("claude settings");
    Folders {
        _root: root,
        home,
        data,
        person,
        elsewhere,
    }
}

/// The rule sets each line's `run_command` is decided under.
const RULE_SETS: &[&str] = &[
    "",
    "[[allow]]\ntool = \"run_command\"\nmatch = \"git status*\"\n\
     [[allow]]\ntool = \"run_command\"\nmatch = \"ls *\"\n",
    "[[deny]]\ntool = \"run_command\"\nmatch = \"rm *\"\n\
     [[ask]]\ntool = \"run_command\"\nmatch = \"curl *\"\n\
     [[allow]]\ntool = \"run_command\"\n",
    "[[deny]]\ntool = \"*\"\nmatch = \"Private/**\"\n\
     [[ask]]\ntool = \"*\"\nmatch = \"notes/**\"\n\
     [[deny]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n\
     [[allow]]\ntool = \"run_command\"\n",
    "[[deny]]\ntool = \"delete_path\"\n",
];

/// The command patterns each line is matched against, as allow and as deny rules.
const PATTERNS: &[&str] = &[
    "rm *",
    "git status*",
    "git *",
    "curl *",
    "ls *",
    "sh *",
    "cat *",
    "echo *",
    "*",
];

/// Every answer the users of the reading give about `line`, as text; `root` is replaced by
/// `<root>` so that the text does not depend on the temporary folder,
fn answers(line: &str, f: &Folders, policies: &[Policy], ws: &Workspace) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "plain {:?}", plain_commands(line));
    let _ = writeln!(out, "all {:?}", all_simple_commands(line));
    let _ = writeln!(out, "redirected {:?}", redirection_targets(line));
    let _ = writeln!(out, "names {:?}", names_in(line));
    let _ = writeln!(out, "hard {:?}", hard_denial(line));
    for confined in [true, false] {
        let place = Place {
            root: f.person.clone(),
            home: Some(f.home.clone()),
            confined,
        };
        let _ = writeln!(out, "effects {confined} {:?}", effects(line, &place));
    }
    for pattern in PATTERNS {
        let p = CommandPattern::parse(pattern).expect("pattern");
        let _ = writeln!(
            out,
            "pattern {pattern:?} allows {} any {}",
            p.allows(line),
            p.matches_any(line)
        );
    }
    let raw = serde_json::json!({ "command": line }).to_string();
    let arguments = RunCommand.main_arguments(&raw, ws);
    let _ = writeln!(out, "arguments {arguments:?}");
    for (i, policy) in policies.iter().enumerate() {
        let verdict = policy.decide(&CallFacts {
            tool_name: "run_command",
            read_only: false,
            risk: askfirst_protocol::Risk::High,
            main_arguments: &arguments,
            canonical_arguments: None,
            mcp_server: None,
            fingerprint: None,
        });
        let _ = writeln!(out, "decided {i} {verdict:?}");
        // The command line alone, as another caller gives it.
        let only_line = [MainArgument {
            kind: ArgumentKind::Command,
            text: line.to_owned(),
            alias: None,
            resolved: None,
            contents: Contents::No,
        }];
        let verdict = policy.decide(&CallFacts {
            tool_name: "run_command",
            read_only: false,
            risk: askfirst_protocol::Risk::High,
            main_arguments: &only_line,
            canonical_arguments: None,
            mcp_server: None,
            fingerprint: None,
        });
        let _ = writeln!(out, "decided-line {i} {verdict:?}");
    }
    for (cwd, tool, input) in [
        (&f.person, "Bash", serde_json::json!({ "command": line })),
        (&f.elsewhere, "Bash", serde_json::json!({ "command": line })),
        (
            &f.person,
            "shell",
            serde_json::json!({ "command": ["bash", "-lc", line] }),
        ),
    ] {
        let request = InboxRequest {
            agent: ExternalAgent::ClaudeCode,
            hook_event: "PreToolUse".into(),
            session_id: "s".into(),
            cwd: cwd.display().to_string(),
            tool_name: tool.into(),
            tool_input_json: input.to_string(),
        };
        let card = card::describe(&request, Some(&f.home));
        for (i, policy) in policies.iter().enumerate() {
            let judged = inbox_policy::judge(policy, &request, &card, Some(ws), Some(&f.home));
            let _ = writeln!(out, "inbox {tool} {i} {judged:?}");
        }
    }
    // Nor on this process's number (`/proc/self` resolves to it), nor on the folder the tests
    // run in (`/proc/self/cwd` leads there: the checkout's path).
    let cwd = std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    out.replace(&f.home.display().to_string(), "<root>")
        .replace(&format!("/proc/{}/", std::process::id()), "/proc/<self>/")
        .replace(&cwd, "<cwd>")
}

fn digest(text: &str) -> String {
    let hash = Sha256::digest(text.as_bytes());
    hash[..6].iter().map(|b| format!("{b:02x}")).collect()
}

/// Every case: (table, case number in it, line).
fn cases() -> Vec<(&'static str, usize, String)> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (table, text) in TABLES {
        let mut n = 0;
        for literal in string_literals(text) {
            // Texts of up to 4 KiB (the long-line tests build theirs with `repeat`).
            if literal.is_empty() || literal.len() > 4096 {
                continue;
            }
            for line in variants(&literal) {
                if seen.insert(line.clone()) {
                    out.push((*table, n, line));
                    n += 1;
                }
            }
        }
    }
    out
}

#[test]
#[ignore = "the differential check of a change to how command lines are read (65-95 s in a debug \
            build): run it by hand before and after such a change, `cargo test -p askfirst-core \
            --test all -- --ignored shell_line_decisions`; after a table gained cases or an \
            answer changed on purpose, ASKFIRST_DECISIONS_OUT=<file> writes <file>.digests to \
            put in shell_line_decisions.txt"]
fn every_reading_of_the_tables_decides_as_before() {
    let f = folders();
    let policies: Vec<Policy> = RULE_SETS
        .iter()
        .map(|rules| {
            let rules = Rules::parse(rules, Path::new("rules.toml"));
            assert!(matches!(rules, Rules::Loaded(_)), "{rules:?}");
            Policy::new(rules, Some((f.data.as_path(), f.person.as_path())))
        })
        .collect();
    let ws = Workspace::open(&f.person)
        .expect("workspace")
        .with_own_data(&f.data);
    let cases = cases();
    let mut dump = String::new();
    let mut found = String::new();
    for (table, n, line) in &cases {
        let answers = answers(line, &f, &policies, &ws);
        let _ = writeln!(found, "{}", digest(&answers));
        let _ = writeln!(dump, "== {table} {n} {line:?}\n{answers}");
    }
    if let Some(out) = std::env::var_os("ASKFIRST_DECISIONS_OUT") {
        std::fs::write(&out, &dump).expect("dump");
        std::fs::write(PathBuf::from(&out).with_extension("digests"), &found).expect("digests");
    }
    let expected: Vec<&str> = EXPECTED.lines().collect();
    let now: Vec<&str> = found.lines().collect();
    let changed: Vec<String> = cases
        .iter()
        .zip(&now)
        .enumerate()
        .filter(|(i, _)| expected.get(*i) != now.get(*i))
        .map(|(i, ((table, n, line), digest))| {
            format!(
                "{table} case {n} {line:?}: {digest} (was {:?}):\n{}",
                expected.get(i),
                answers(line, &f, &policies, &ws)
            )
        })
        .take(20)
        .collect();
    assert_eq!(expected.len(), now.len(), "the number of cases changed");
    assert!(
        changed.is_empty(),
        "{} of {} cases decide differently:\n{}",
        changed.len(),
        cases.len(),
        changed.join("\n")
    );
}
