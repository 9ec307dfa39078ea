//! The policy layers, user rules and session grants, decided alone (`policy_runs`: through
//! the agent loop).

use askfirst_core::canonical::canonical_json;
use askfirst_core::policy::Contents;
use askfirst_core::policy::{ArgumentKind, CallFacts, MainArgument, Policy, PolicyDecision, Rules};
use askfirst_protocol::{PolicyLayer, Risk, SessionPolicy};
use pretty_assertions::assert_eq;
use std::path::Path;
use std::time::Duration;

pub const TIMEOUT: Duration = Duration::from_secs(120);

pub fn rules(text: &str) -> Rules {
    Rules::parse(text, Path::new("rules.toml"))
}

fn path(text: &str) -> MainArgument {
    MainArgument {
        alias: None,
        kind: ArgumentKind::Path,
        text: text.into(),
        resolved: Some(text.into()),
        contents: Contents::No,
    }
}

fn decide(
    policy: &Policy,
    tool: &str,
    read_only: bool,
    args: &[MainArgument],
) -> (PolicyDecision, PolicyLayer) {
    let v = policy.decide(&CallFacts {
        fingerprint: None,
        tool_name: tool,
        read_only,
        risk: if read_only { Risk::Low } else { Risk::Medium },
        main_arguments: args,
        canonical_arguments: Some("{}"),
        mcp_server: None,
    });
    (v.decision, v.layer)
}

#[test]
fn canonical_json_is_exact() {
    assert_eq!(
        canonical_json(r#"{ "b": 1, "a": [true, null] }"#).as_deref(),
        Some(r#"{"a":[true,null],"b":1}"#)
    );
    assert_eq!(
        canonical_json(r#"{"a":"\u0041"}"#),
        canonical_json(r#"{"a":"A"}"#)
    );
    // Big integers keep their digits: these two must never be "the same call".
    assert_ne!(
        canonical_json(r#"{"n":12345678901234567890}"#),
        canonical_json(r#"{"n":12345678901234567891}"#)
    );
    assert_eq!(
        canonical_json(r#"{"a":1,"a":2}"#),
        None,
        "duplicate keys have no canonical form"
    );
    assert_eq!(canonical_json(r#"{"a":"#), None);
    assert_eq!(
        canonical_json(&("[".repeat(10_000) + &"]".repeat(10_000))),
        None
    );
}

#[test]
fn deny_beats_ask_beats_allow_and_allow_needs_every_argument() {
    let policy = Policy::new(
        rules(
            r#"
            [[allow]]
            tool = "write_file"
            match = "Drafts/*.txt"
            [[allow]]
            tool = "move_path"
            match = "Drafts/**"
            [[ask]]
            tool = "write_file"
            match = "Drafts/secret*"
            [[deny]]
            tool = "*"
            match = "Taxes/**"
            "#,
        ),
        None,
    );
    assert!(matches!(
        decide(&policy, "write_file", false, &[path("Drafts/a.txt")]),
        (PolicyDecision::Allow, PolicyLayer::UserRule)
    ));
    assert!(matches!(
        decide(&policy, "write_file", false, &[path("Drafts/secret.txt")]),
        (PolicyDecision::Ask { .. }, PolicyLayer::UserRule)
    ));
    // `*` stays inside one folder for paths.
    assert!(matches!(
        decide(&policy, "write_file", false, &[path("Drafts/sub/a.txt")]),
        (PolicyDecision::Ask { .. }, PolicyLayer::ToolDefault)
    ));
    assert!(matches!(
        decide(&policy, "list_directory", true, &[path("Taxes/2025")]),
        (PolicyDecision::Deny { .. }, PolicyLayer::UserRule)
    ));
    // A move out of Drafts is not covered by an allow for Drafts: every argument must match.
    assert!(matches!(
        decide(
            &policy,
            "move_path",
            false,
            &[path("Drafts/a.txt"), path("Public/a.txt")]
        ),
        (PolicyDecision::Ask { .. }, PolicyLayer::ToolDefault)
    ));
    // …and a move into Taxes is denied: any argument suffices for deny.
    assert!(matches!(
        decide(
            &policy,
            "move_path",
            false,
            &[path("Drafts/a.txt"), path("Taxes/a.txt")]
        ),
        (PolicyDecision::Deny { .. }, PolicyLayer::UserRule)
    ));
}

#[test]
fn a_broken_rules_file_asks_for_everything_never_allows() {
    for text in [
        "[[allow]]\ntool = ",
        "[[allow]]\ntool = \"x\"\nmatch = \"[\"",
        "[[permit]]\ntool = \"x\"",
    ] {
        let policy = Policy::new(rules(text), None);
        assert!(policy.rules_error().is_some(), "{text}");
        let (decision, layer) = decide(&policy, "list_directory", true, &[path(".")]);
        assert!(
            matches!(decision, PolicyDecision::Ask { ref reason } if reason.contains("rules file")),
            "{decision:?}"
        );
        assert_eq!(layer, PolicyLayer::UserRule);
    }
}

#[test]
fn hard_denials_beat_rules_and_session_never_turns_asks_into_denials() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let workspace = data.join("Demo folder");
    std::fs::create_dir_all(&workspace).unwrap();
    let policy = Policy::new(
        rules("[[allow]]\ntool = \"*\""),
        Some((data.as_path(), workspace.as_path())),
    );
    let rules_file = MainArgument {
        alias: None,
        kind: ArgumentKind::Path,
        text: "../rules.toml".into(),
        resolved: Some(std::fs::canonicalize(&data).unwrap().join("rules.toml")),
        contents: Contents::No,
    };
    assert!(matches!(
        decide(&policy, "write_file", false, &[rules_file]),
        (PolicyDecision::Deny { .. }, PolicyLayer::HardDenial)
    ));
    let outside = MainArgument {
        alias: None,
        kind: ArgumentKind::Path,
        text: "../x".into(),
        resolved: None,
        contents: Contents::No,
    };
    assert!(matches!(
        decide(&policy, "write_file", false, &[outside]),
        (PolicyDecision::Deny { .. }, PolicyLayer::HardDenial)
    ));
    // Even with a rule allowing every command, these never run, however they are hidden.
    for line in [
        "sudo  rm -rf /",
        "ls; shutdown now",
        "echo ok && poweroff",
        "echo \"$(reboot)\"",
        "sh -c 'mkfs.ext4 /dev/sda1'",
    ] {
        let command = MainArgument {
            alias: None,
            kind: ArgumentKind::Command,
            text: line.into(),
            resolved: None,
            contents: Contents::No,
        };
        assert!(
            matches!(
                decide(&policy, "run_command", false, &[command]),
                (PolicyDecision::Deny { .. }, PolicyLayer::HardDenial)
            ),
            "{line}"
        );
    }
    let fine = MainArgument {
        alias: None,
        kind: ArgumentKind::Command,
        text: "rm -rf build/".into(),
        resolved: None,
        contents: Contents::No,
    };
    assert!(matches!(
        decide(&policy, "run_command", false, &[fine]),
        (PolicyDecision::Allow, PolicyLayer::UserRule)
    ));

    let plain = Policy::new(Rules::default(), None);
    plain.set_session_policy(SessionPolicy::Never);
    assert!(matches!(
        decide(&plain, "write_file", false, &[path("a.txt")]),
        (PolicyDecision::Deny { .. }, PolicyLayer::SessionPolicy)
    ));
    assert!(matches!(
        decide(&plain, "list_directory", true, &[path(".")]),
        (PolicyDecision::Allow, PolicyLayer::ToolDefault)
    ));
}

#[test]
fn a_folder_rule_covers_the_folder_itself_and_moves_are_judged_by_their_real_target() {
    use askfirst_core::tools::{ToolSet, Workspace};
    let policy = Policy::new(
        rules("[[deny]]\ntool = \"*\"\nmatch = \"Taxes/**\"\n[[allow]]\ntool = \"move_path\""),
        None,
    );
    assert!(matches!(
        decide(&policy, "list_directory", true, &[path("Taxes")]),
        (PolicyDecision::Deny { .. }, PolicyLayer::UserRule)
    ));
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("Taxes")).unwrap();
    std::fs::write(dir.path().join("a.txt"), "a").unwrap();
    let ws = Workspace::open(dir.path()).unwrap();
    let mv = ToolSet::builtin().get("move_path").unwrap();
    let args = mv.main_arguments(r#"{"from":"a.txt","to":"Taxes"}"#, &ws);
    assert_eq!(
        args.iter().map(|a| a.text.as_str()).collect::<Vec<_>>(),
        vec!["a.txt", "Taxes/a.txt"]
    );
    assert!(matches!(
        decide(&policy, "move_path", false, &args),
        (PolicyDecision::Deny { .. }, PolicyLayer::UserRule)
    ));
}

#[test]
fn the_data_folder_inside_the_workspace_is_still_protected() {
    let dir = tempfile::tempdir().unwrap();
    let workspace = std::fs::canonicalize(dir.path()).unwrap();
    let data = workspace.join(".local/share/askfirst");
    std::fs::create_dir_all(&data).unwrap();
    let policy = Policy::new(
        rules("[[allow]]\ntool = \"*\""),
        Some((data.as_path(), workspace.as_path())),
    );
    let arg = |p: &Path| MainArgument {
        alias: None,
        kind: ArgumentKind::Path,
        text: "x".into(),
        resolved: Some(p.to_owned()),
        contents: Contents::No,
    };
    assert!(matches!(
        decide(
            &policy,
            "write_file",
            false,
            &[arg(&data.join("rules.toml"))]
        ),
        (PolicyDecision::Deny { .. }, PolicyLayer::HardDenial)
    ));
    // Moving a folder that contains it would move it too.
    assert!(matches!(
        decide(
            &policy,
            "move_path",
            false,
            &[arg(&workspace.join(".local")), arg(&workspace.join("x"))]
        ),
        (PolicyDecision::Deny { .. }, PolicyLayer::HardDenial)
    ));
    // Reading the workspace is fine; so is writing elsewhere in it.
    assert!(matches!(
        decide(&policy, "list_directory", true, &[arg(&workspace)]),
        (PolicyDecision::Allow, _)
    ));
    assert!(matches!(
        decide(
            &policy,
            "write_file",
            false,
            &[arg(&workspace.join("notes.txt"))]
        ),
        (PolicyDecision::Allow, PolicyLayer::UserRule)
    ));
}

#[test]
fn removing_a_rule_keeps_the_rest_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rules.toml");
    let text = "# my notes\n[[deny]]\ntool = \"*\"\nmatch = \"Taxes/**\"\n\n# drafts are fine\n[[allow]]\ntool = \"write_file\"\nmatch = \"Drafts/*.txt\"\n";
    std::fs::write(&path, text).unwrap();
    let policy = Policy::new(Rules::load(&path), None);
    assert_eq!(
        policy.rules_summary(),
        vec![r#"deny * "Taxes/**""#, r#"allow write_file "Drafts/*.txt""#]
    );
    assert!(askfirst_core::policy::remove_rule(&path, r#"deny * "Taxes/**""#).unwrap());
    assert!(!askfirst_core::policy::remove_rule(&path, r#"deny * "Taxes/**""#).unwrap());
    let after = std::fs::read_to_string(&path).unwrap();
    // A rule's own comment goes with it; the other rules and their comments stay.
    assert!(
        after.contains("# drafts are fine") && !after.contains("Taxes"),
        "{after}"
    );
    let policy = Policy::new(Rules::load(&path), None);
    assert_eq!(
        policy.rules_summary(),
        vec![r#"allow write_file "Drafts/*.txt""#]
    );
}

/// A rule whose tool name has spaces around it is listed without them, and the line listed is
/// the line that removes it (the listing trimmed the name but the removal did not, so such a
/// rule could be seen in Settings and never removed).
#[test]
fn a_rule_listed_with_its_tool_name_trimmed_can_be_removed_by_that_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rules.toml");
    let text = "[[deny]]\ntool = \" write_file \"\nmatch = \"Taxes/**\"\n\n[[ask]]\ntool = \"\trun_command \"\n";
    std::fs::write(&path, text).unwrap();
    let listed = Policy::new(Rules::load(&path), None).rules_summary();
    assert_eq!(
        listed,
        vec![r#"deny write_file "Taxes/**""#, "ask run_command"]
    );
    for line in &listed {
        assert!(
            askfirst_core::policy::remove_rule(&path, line).unwrap(),
            "{line}"
        );
    }
    assert_eq!(
        Policy::new(Rules::load(&path), None).rules_summary(),
        Vec::<String>::new()
    );
}

/// False refusal found by a hostile review: `Rule::holds_for_unseen` (rules.rs) lets a rule
/// about changing files hold for every MCP tool, whatever the call does, so an MCP tool the
/// call's facts say only reads (a filesystem server's `read_text_file`, an image describer) is
/// refused a photo by "Never delete files in Photos".
#[test]
fn hostile_a_never_delete_rule_refuses_a_read_only_mcp_tool() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir_all(root.join("Photos")).unwrap();
    std::fs::write(root.join("Photos/cat.jpg"), "photo").unwrap();
    let policy = Policy::new(
        rules("[[deny]]\ntool = \"delete_path\"\nmatch = \"Photos/**\"\n"),
        None,
    );
    let photo = MainArgument {
        alias: None,
        kind: ArgumentKind::MentionedPath,
        text: "Photos/cat.jpg".into(),
        resolved: Some(root.join("Photos/cat.jpg")),
        contents: Contents::No,
    };
    let (decision, layer) = decide(&policy, "files__read_text_file", true, &[photo]);
    assert!(
        !matches!(decision, PolicyDecision::Deny { .. }),
        "{decision:?} ({layer:?})"
    );
}

/// Found by a third hostile review: hand-written rules Settings listed that matched nothing
/// (`./Secret/**`, `/Taxes/**`, `Bank/`, `Medical/**/`). They are read as a person means them:
/// the folder of that name in the person's folder, with everything in it.
#[test]
fn a_rule_written_with_a_leading_dot_slash_or_a_trailing_slash_means_that_folder() {
    let policy = Policy::new(
        rules(
            "[[deny]]\ntool = \"read_file\"\nmatch = \"./Secret/**\"\n\
             [[deny]]\ntool = \"read_file\"\nmatch = \"/Taxes/**\"\n\
             [[deny]]\ntool = \"read_file\"\nmatch = \"Bank/\"\n\
             [[deny]]\ntool = \"read_file\"\nmatch = \"Medical/**/\"\n\
             [[deny]]\ntool = \"read_file\"\nmatch = \".//Deep/./\"\n",
        ),
        None,
    );
    for file in [
        "Secret/a.txt",
        "Taxes/2024/return.txt",
        "Bank/statement.pdf",
        "Medical/x-ray.png",
    ] {
        let (decision, layer) = decide(&policy, "read_file", true, &[path(file)]);
        assert!(
            matches!(decision, PolicyDecision::Deny { .. }) && layer == PolicyLayer::UserRule,
            "{file}: {decision:?}"
        );
    }
    // Other folders are not touched by them.
    let (decision, _) = decide(&policy, "read_file", true, &[path("Notes/a.txt")]);
    assert_eq!(decision, PolicyDecision::Allow);
}
