//! Rules in the window: each rule as a sentence, the form's choices written into `rules.toml`
//! (the person's comments and other rules kept byte for byte), plain refusals of what the
//! form cannot mean, and a rule added from the window applying to the next call.

use askfirst_core::policy::editor::{self, checked_rule, choice_of, rule_actions, RuleEditError};
use askfirst_core::policy::{
    ArgumentKind, CallFacts, MainArgument, Policy, PolicyDecision, Rule, RuleKind, Rules,
};
use askfirst_protocol::{Risk, RuleChoice, RuleEffect, RuleScope};
use pretty_assertions::assert_eq;
use std::path::Path;

fn sentence(kind: RuleKind, tool: &str, pattern: Option<&str>) -> String {
    Rule::new(tool, pattern).unwrap().sentence(kind)
}

#[test]
fn each_kind_of_rule_is_said_in_a_sentence() {
    use RuleKind::{Allow, Ask, Deny};
    let said: Vec<String> = [
        (Deny, "*", Some("Private/**")),
        (Allow, "read_file", None),
        (Ask, "run_command", None),
        (Allow, "fetch_url", Some("*://example.com/*")),
        (Deny, "fetch_url", Some("*://*.ads.net/*")),
        (Allow, "run_command", Some("git status *")),
        (Ask, "run_command", Some("git push")),
        (Deny, "run_command", Some("Private/**")),
        (Deny, "write_file", Some("Taxes/**")),
        (Ask, "list_directory", Some("Private/**")),
        (Allow, "edit_file", Some("Drafts/**")),
        (Deny, "move_path", None),
        (Ask, "delete_path", Some("Photos/**")),
        (Deny, "everything__echo", None),
        (Ask, "everything__echo", Some("Private/**")),
        (Deny, "*", None),
        (Ask, "*", None),
        (Allow, "*", None),
        (Allow, "*", Some("Drafts/**")),
        // Written by hand in ways the form does not write.
        (Allow, "write_file", Some("hello.txt")),
        (Deny, "*", Some("Taxes")),
        (Allow, "write_file", Some("Drafts/*.txt")),
        (Allow, "run_command", Some("git status*")),
        (Allow, "fetch_url", Some("https://example.com/docs/*")),
        (Deny, "*", Some("*.key")),
        (Allow, "read_file", Some("*")),
    ]
    .into_iter()
    .map(|(kind, tool, pattern)| sentence(kind, tool, pattern))
    .collect();
    assert_eq!(
        said,
        vec![
            "Never touch anything in Private",
            "Always allow reading files",
            "Ask before running commands",
            "Always allow downloading from example.com",
            "Never download from ads.net and its sub-domains",
            "Always allow running the command “git status” (with anything after it)",
            "Ask before running the command “git push”",
            "Never run commands that touch Private",
            "Never write files in Taxes",
            "Ask before listing folders in Private",
            "Always allow changing files in Drafts",
            "Never move or rename files and folders",
            "Ask before deleting files and folders in Photos",
            "Never use the tool “echo” of the MCP server “everything”",
            "Ask before using the tool “echo” of the MCP server “everything” on anything in Private",
            "Never do anything (every action is refused)",
            "Ask before anything",
            "Always allow everything, without asking",
            "Always allow anything in Drafts",
            "Always allow writing hello.txt",
            "Never touch Taxes",
            "Always allow writing files matching “Drafts/*.txt”",
            "Always allow running commands matching “git status*”",
            "Always allow downloading from addresses matching “https://example.com/docs/*”",
            "Never touch anything matching “*.key”",
            "Always allow reading files",
        ]
    );
}

#[test]
fn the_reasons_quote_the_rule_s_sentence() {
    let rules = Rules::parse(
        "[[deny]]\ntool = \"*\"\nmatch = \"Private/**\"\n",
        Path::new("rules.toml"),
    );
    let policy = Policy::new(rules, None);
    let args = [MainArgument {
        kind: ArgumentKind::Path,
        text: "Private/a.txt".into(),
        alias: None,
        resolved: Some("Private/a.txt".into()),
    }];
    let verdict = policy.decide(&facts(&args));
    assert!(
        matches!(&verdict.decision, PolicyDecision::Deny { reason, .. }
            if reason == "Your rule “Never touch anything in Private” forbids this."),
        "{:?}",
        verdict.decision
    );
}

pub fn facts(args: &[MainArgument]) -> CallFacts<'_> {
    CallFacts {
        tool_name: "write_file",
        read_only: false,
        risk: Risk::Medium,
        main_arguments: args,
        canonical_arguments: Some("{}"),
        mcp_server: None,
        fingerprint: None,
    }
}

/// A file the person wrote: comments, odd spacing, rules of each kind.
const HAND_WRITTEN: &str = "# My rules — keep the taxes away\n\n[[deny]]\ntool   =   \"*\"   # no agent in there\nmatch = \"Taxes/**\"\n\n# drafts are fine\n[[allow]]\ntool = \"write_file\"\nmatch = \"Drafts/*.txt\"\n# the end\n";

#[test]
fn adding_appends_and_keeps_every_byte_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rules.toml");
    std::fs::write(&path, HAND_WRITTEN).unwrap();
    editor::add_rule(&path, RuleKind::Deny, "*", Some("Private/**")).unwrap();
    let after = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        after,
        format!("{HAND_WRITTEN}\n[[deny]]\ntool = \"*\"\nmatch = \"Private/**\"\n")
    );
    let policy = Policy::new(Rules::load(&path), None);
    assert_eq!(
        policy.rules_summary(),
        vec![
            r#"deny * "Taxes/**""#,
            r#"deny * "Private/**""#,
            r#"allow write_file "Drafts/*.txt""#
        ]
    );
    // Owner-only, and no temporary file left beside it.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    // The same rule again is refused in a sentence; the file stays.
    let again = editor::add_rule(&path, RuleKind::Deny, "*", Some("Private/**")).unwrap_err();
    assert_eq!(
        again.to_string(),
        "You already have this rule: Never touch anything in Private. Use its Change button to make it different."
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), after);
    // Removing what was added gives back the file as the person wrote it.
    assert!(askfirst_core::policy::remove_rule(&path, r#"deny * "Private/**""#).unwrap());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), HAND_WRITTEN);
}

#[test]
fn adding_to_a_missing_file_starts_from_the_explained_template() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rules.toml");
    editor::add_rule(&path, RuleKind::Allow, "read_file", None).unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!(
            "{}\n[[allow]]\ntool = \"read_file\"\n",
            askfirst_core::policy::RULES_TEMPLATE
        )
    );
}

#[test]
fn changing_edits_the_rule_in_place_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rules.toml");
    std::fs::write(&path, HAND_WRITTEN).unwrap();
    // Same list: the table is edited where it is, its comment and spacing kept.
    editor::change_rule(
        &path,
        r#"deny * "Taxes/**""#,
        RuleKind::Deny,
        "write_file",
        Some("Private/**"),
    )
    .unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        HAND_WRITTEN.replace(
            "tool   =   \"*\"   # no agent in there\nmatch = \"Taxes/**\"",
            "tool   =   \"write_file\"   # no agent in there\nmatch = \"Private/**\""
        )
    );
    // Another list: it leaves its place and is added at the end; the rest stays.
    editor::change_rule(
        &path,
        r#"deny write_file "Private/**""#,
        RuleKind::Ask,
        "write_file",
        None,
    )
    .unwrap();
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(
        after.starts_with("# My rules — keep the taxes away\n")
            && after.contains("# drafts are fine\n[[allow]]\ntool = \"write_file\"\nmatch = \"Drafts/*.txt\"\n# the end\n")
            && after.ends_with("\n[[ask]]\ntool = \"write_file\"\n")
            && !after.contains("[[deny]]"),
        "{after}"
    );
    // A rule that is not (or no longer) there.
    let gone =
        editor::change_rule(&path, "deny * \"Nope/**\"", RuleKind::Deny, "*", None).unwrap_err();
    assert!(matches!(gone, RuleEditError::NoSuchRule(_)));
}

#[test]
fn the_form_reads_back_exactly_the_rules_it_writes() {
    let choices = [
        (
            RuleKind::Deny,
            "*",
            RuleScope::Folder {
                folder: "My Taxes/2024".into(),
            },
        ),
        (RuleKind::Allow, "read_file", RuleScope::Everywhere),
        (
            RuleKind::Allow,
            "run_command",
            RuleScope::Command {
                words: "git status".into(),
                and_more: true,
            },
        ),
        (
            RuleKind::Ask,
            "fetch_url",
            RuleScope::Site {
                host: "example.com".into(),
                sub_domains: true,
            },
        ),
    ];
    for (kind, tool, scope) in choices {
        let pattern = editor::pattern_of(&scope);
        assert_eq!(
            choice_of(kind, tool, pattern.as_deref()),
            Some(RuleChoice {
                effect: editor::effect_of(kind),
                tool: tool.into(),
                scope
            })
        );
    }
    // Hand-written shapes the form does not write are not read as its choices.
    for (tool, pattern) in [
        ("write_file", "Drafts/*.txt"),
        ("write_file", "hello.txt"),
        ("run_command", "git status*"),
        ("fetch_url", "https://example.com/*"),
        ("write_file", "../x/**"),
        ("fetch_url", "Private/**"),
    ] {
        assert_eq!(
            choice_of(RuleKind::Allow, tool, Some(pattern)),
            None,
            "{pattern}"
        );
    }
}

#[test]
fn what_the_form_cannot_mean_is_refused_in_a_plain_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(ws.join("Private")).unwrap();
    std::fs::write(ws.join("notes.txt"), "n").unwrap();
    std::fs::create_dir_all(dir.path().join("outside")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("outside"), ws.join("link")).unwrap();
    let actions = rule_actions(
        &["read_file", "write_file", "run_command", "fetch_url"],
        &[],
    );
    let refusal = |effect, tool: &str, scope| {
        checked_rule(
            &RuleChoice {
                effect,
                tool: tool.into(),
                scope,
            },
            &actions,
            &ws,
        )
        .unwrap_err()
        .to_string()
    };
    let folder = |f: &str| RuleScope::Folder { folder: f.into() };
    let never = RuleEffect::Never;
    let outside = dir.path().join("outside").display().to_string();
    assert_eq!(
        vec![
            refusal(never, "launch_rockets", RuleScope::Everywhere),
            refusal(never, "fetch_url", folder("Private")),
            refusal(RuleEffect::Allow, "run_command", folder("Private")),
            refusal(never, "*", folder("  ")),
            refusal(never, "*", folder("../outside")),
            refusal(never, "*", folder(&outside)),
            refusal(never, "*", folder("link")),
            refusal(never, "*", folder("Priv*")),
            refusal(never, "*", folder("Privat")),
            refusal(never, "*", folder("notes.txt")),
            refusal(never, "run_command", RuleScope::Command { words: " ".into(), and_more: false }),
            refusal(never, "run_command", RuleScope::Command { words: "rm -rf *".into(), and_more: false }),
            refusal(never, "fetch_url", RuleScope::Site { host: "".into(), sub_domains: false }),
            refusal(never, "fetch_url", RuleScope::Site { host: "not a site".into(), sub_domains: false }),
            refusal(never, "fetch_url", RuleScope::Site { host: "ftp://example.com".into(), sub_domains: false }),
        ],
        vec![
            "Ask First has no action “launch_rockets” to make a rule about. Choose one from the list.",
            "This kind of place cannot be chosen for downloading from the internet. Choose another one from the list.",
            "Running commands cannot be allowed by folder, because Ask First cannot be sure where they act. Choose “Always ask” or “Never”, or allow them everywhere.",
            "Choose a folder, or choose “Everywhere”.",
            "Write the folder as it is inside your folder, like Private or Photos/2024 (without “..”).",
            "Write the folder as it is inside your folder, like Private or Photos/2024 (without “..”).",
            "Write the folder as it is inside your folder, like Private or Photos/2024 (without “..”).",
            "A folder name with pattern characters (such as * or ?) cannot be used here. Write such a rule by hand in the rules file instead.",
            "There is no folder “Privat” in your folder. Check its name, or choose one from the list.",
            "The name “notes.txt” is a file, not a folder. Choose a folder instead.",
            "Type the command's first words, for example “git status”.",
            "Type the command's words as they are, without pattern characters (such as * or ?) or quotes. Write such a rule by hand in the rules file instead.",
            "Type the web site's name, for example “example.com”.",
            "The name “not a site” is not a web site. Type one like example.com.",
            "The name “ftp://example.com” is not a web site. Type one like example.com.",
        ]
    );
    // What is fine is cleaned: a folder given by its full path inside, a site by an address.
    let inside = ws.join("Private").display().to_string();
    assert_eq!(
        checked_rule(
            &RuleChoice {
                effect: never,
                tool: "*".into(),
                scope: folder(&format!("{inside}/"))
            },
            &actions,
            &ws
        )
        .unwrap(),
        (
            RuleKind::Deny,
            "*".to_owned(),
            Some("Private/**".to_owned())
        )
    );
    assert_eq!(
        checked_rule(
            &RuleChoice {
                effect: RuleEffect::Allow,
                tool: "fetch_url".into(),
                scope: RuleScope::Site {
                    host: "https://Www.Example.COM/page?x=1".into(),
                    sub_domains: false
                }
            },
            &actions,
            &ws
        )
        .unwrap(),
        (
            RuleKind::Allow,
            "fetch_url".to_owned(),
            Some("*://www.example.com/*".to_owned())
        )
    );
}
