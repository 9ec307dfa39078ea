//! Benchmark of one policy decision about a folder that goes with its contents (a `move_path`
//! of a folder of 20,000 files, [`Contents::Yes`]): the glob rules ("never touch `**/*.key`",
//! "always ask about `**/*.pdf`", …) look through what is inside it, and none matches, so the
//! whole folder is looked through. With no glob rule, one, and six. And what a command
//! starting in that workspace is shut in without (`Policy::hidden_from_command`), with the
//! same rules, in that workspace and in one ten times bigger (200,000 files, as many as that
//! look reads: `kept::LOOK_CAP`). `make bench` runs it; figures are in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use askfirst_core::policy::{ArgumentKind, CallFacts, Contents, MainArgument, Policy, Rules};
use askfirst_protocol::Risk;
use criterion::{criterion_group, criterion_main, Criterion};
use std::path::Path;

/// Folders and files in each: 200 × 100 = 20,000 files, two levels deep, like a few years of
/// scanned letters and invoices.
const FOLDERS: usize = 200;
const FILES: usize = 100;

const GLOB_RULES: [&str; 6] = [
    "[[deny]]\ntool = \"*\"\nmatch = \"**/*.key\"\n",
    "[[ask]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n",
    "[[deny]]\ntool = \"*\"\nmatch = \"**/.ssh/**\"\n",
    "[[ask]]\ntool = \"*\"\nmatch = \"**/secret*\"\n",
    "[[deny]]\ntool = \"*\"\nmatch = \"**/*.kdbx\"\n",
    "[[ask]]\ntool = \"*\"\nmatch = \"**/Tax*/**\"\n",
];

fn write_folder(root: &Path, folders: usize) {
    for f in 0..folders {
        let folder = root
            .join("Docs")
            .join(format!("{}-{:02}", 2000 + f / 12, f % 12));
        std::fs::create_dir_all(&folder).unwrap();
        for n in 0..FILES {
            std::fs::write(folder.join(format!("letter-{n:03}.txt")), "").unwrap();
        }
    }
}

fn policy_with(rules: usize, root: &Path) -> Policy {
    let mut text = String::from("[[allow]]\ntool = \"move_path\"\n");
    for rule in GLOB_RULES.iter().take(rules) {
        text.push_str(rule);
    }
    Policy::new(Rules::parse(&text, &root.join("rules.toml")), None)
}

fn bench_policy(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    write_folder(&root, FOLDERS);
    let arguments = [
        MainArgument {
            kind: ArgumentKind::Path,
            text: "Docs".into(),
            alias: None,
            resolved: Some(root.join("Docs")),
            contents: Contents::Yes,
        },
        MainArgument {
            kind: ArgumentKind::Path,
            text: "Old".into(),
            alias: None,
            resolved: Some(root.join("Old")),
            contents: Contents::No,
        },
    ];
    let facts = CallFacts {
        tool_name: "move_path",
        read_only: false,
        risk: Risk::Medium,
        main_arguments: &arguments,
        canonical_arguments: None,
        mcp_server: None,
        fingerprint: None,
    };
    let mut group = c.benchmark_group("decide_move_of_20000_files");
    group.sample_size(10);
    for rules in [0, 1, 6] {
        let policy = policy_with(rules, &root);
        // Each rule set lets the move go (none of its rules is about anything inside).
        assert!(policy.decide(&facts).decision == askfirst_core::policy::PolicyDecision::Allow);
        group.bench_function(format!("{rules}_glob_rules"), |b| {
            b.iter(|| policy.decide(&facts))
        });
    }
    group.finish();
    // What a command starting in that workspace is shut in without: the same rules, looked
    // for once across the whole workspace (none matches, so nothing is hidden).
    let mut group = c.benchmark_group("kept_from_a_command_in_20000_files");
    group.sample_size(10);
    for rules in [0, 1, 6] {
        let policy = policy_with(rules, &root);
        assert_eq!(
            policy.hidden_from_command(&root, None),
            Ok(Default::default())
        );
        group.bench_function(format!("{rules}_glob_rules"), |b| {
            b.iter(|| policy.hidden_from_command(&root, None))
        });
    }
    group.finish();
    // The same in a workspace as big as the look reads before the command is not run
    // (`kept::LOOK_CAP` entries, folders counted: 1,979 folders of 100 files, 199,880 entries).
    let big = tempfile::tempdir().unwrap();
    let big_root = std::fs::canonicalize(big.path()).unwrap();
    let folders = askfirst_core::policy::kept::LOOK_CAP / (FILES + 1) - 1;
    write_folder(&big_root, folders);
    let mut group = c.benchmark_group(format!("kept_from_a_command_in_{}_files", folders * FILES));
    group.sample_size(10);
    for rules in [1, 6] {
        let policy = policy_with(rules, &big_root);
        assert_eq!(
            policy.hidden_from_command(&big_root, None),
            Ok(Default::default())
        );
        group.bench_function(format!("{rules}_glob_rules"), |b| {
            b.iter(|| policy.hidden_from_command(&big_root, None))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_policy);
criterion_main!(benches);
