//! Rules in the window: each rule as a sentence, the form's choices written into `rules.toml`
//! (the person's comments and other rules kept byte for byte), plain refusals of what the
//! form cannot mean, and a rule added from the window applying to the next call.

use askfirst_core::i18n::{with_language, Language};
use askfirst_core::policy::editor::{self, checked_rule, choice_of, rule_actions, RuleEditError};
use askfirst_core::policy::Contents;
use askfirst_core::policy::{
    ArgumentKind, CallFacts, MainArgument, Policy, PolicyDecision, Rule, RuleKind, Rules,
};
use askfirst_protocol::{Risk, RuleChoice, RuleEffect, RuleScope};
use pretty_assertions::assert_eq;
use std::path::Path;

/// A rule of each kind, tool family and shape, and its sentence in English, Simplified
/// Chinese and Brazilian Portuguese (`i18n_words` checks the last two).
#[allow(clippy::type_complexity)]
pub const RULES: &[(RuleKind, &str, Option<&str>, [&str; 3])] = {
    use RuleKind::{Allow, Ask, Deny};
    &[
        (Deny, "*", Some("Private/**"), [
            "Never touch anything in Private",
            "禁止操作 Private 中的任何内容",
            "Nunca mexer em nada em Private",
        ]),
        (Allow, "read_file", None, [
            "Always allow reading files",
            "始终允许读取文件",
            "Sempre permitir ler arquivos",
        ]),
        (Ask, "run_command", None, [
            "Ask before running commands",
            "运行命令前先问我",
            "Perguntar antes de executar comandos",
        ]),
        (Allow, "fetch_url", Some("*://example.com/*"), [
            "Always allow downloading from example.com",
            "始终允许从 example.com 下载",
            "Sempre permitir baixar de example.com",
        ]),
        (Deny, "fetch_url", Some("*://*.ads.net/*"), [
            "Never download from ads.net and its sub-domains",
            "禁止从 ads.net 及其子域名下载",
            "Nunca baixar de ads.net e dos seus subdomínios",
        ]),
        (Allow, "run_command", Some("git status *"), [
            "Always allow running the command “git status” (with anything after it)",
            "始终允许运行命令“git status”（后面跟任何内容都算）",
            "Sempre permitir executar o comando “git status” (com qualquer coisa depois)",
        ]),
        (Ask, "run_command", Some("git push"), [
            "Ask before running the command “git push”",
            "运行命令“git push”前先问我",
            "Perguntar antes de executar o comando “git push”",
        ]),
        (Deny, "run_command", Some("Private/**"), [
            "Never run commands that touch Private",
            "禁止运行涉及 Private 的命令",
            "Nunca executar comandos que mexem em Private",
        ]),
        (Deny, "write_file", Some("Taxes/**"), [
            "Never write files in Taxes",
            "禁止写入 Taxes 中的文件",
            "Nunca escrever arquivos em Taxes",
        ]),
        (Ask, "list_directory", Some("Private/**"), [
            "Ask before listing folders in Private",
            "列出 Private 中的文件夹的内容前先问我",
            "Perguntar antes de listar o conteúdo de pastas em Private",
        ]),
        (Allow, "edit_file", Some("Drafts/**"), [
            "Always allow changing files in Drafts",
            "始终允许修改 Drafts 中的文件",
            "Sempre permitir alterar arquivos em Drafts",
        ]),
        (Deny, "move_path", None, [
            "Never move or rename files and folders",
            "禁止移动或重命名文件和文件夹",
            "Nunca mover ou renomear arquivos e pastas",
        ]),
        (Ask, "delete_path", Some("Photos/**"), [
            "Ask before deleting files and folders in Photos",
            "删除 Photos 中的文件和文件夹前先问我",
            "Perguntar antes de apagar arquivos e pastas em Photos",
        ]),
        (Deny, "everything__echo", None, [
            "Never use the tool “echo” of the MCP server “everything”",
            "禁止使用 MCP 服务器“everything”的工具“echo”",
            "Nunca usar a ferramenta “echo” do servidor MCP “everything”",
        ]),
        (Ask, "everything__echo", Some("Private/**"), [
            "Ask before using the tool “echo” of the MCP server “everything” on anything in Private",
            "对 Private 中的任何内容使用 MCP 服务器“everything”的工具“echo”前先问我",
            "Perguntar antes de usar a ferramenta “echo” do servidor MCP “everything” em qualquer coisa em Private",
        ]),
        (Deny, "*", None, [
            "Never do anything (every action is refused)",
            "什么都不许做（每个操作都会被拒绝）",
            "Nunca fazer nada (toda ação é recusada)",
        ]),
        (Ask, "*", None, [
            "Ask before anything",
            "做任何事之前都先问我",
            "Perguntar antes de qualquer coisa",
        ]),
        (Allow, "*", None, [
            "Always allow everything, without asking",
            "始终允许一切，不用问我",
            "Sempre permitir tudo, sem perguntar",
        ]),
        (Allow, "*", Some("Drafts/**"), [
            "Always allow anything in Drafts",
            "始终允许操作 Drafts 中的任何内容",
            "Sempre permitir qualquer coisa em Drafts",
        ]),
        // Written by hand in ways the form does not write.
        (Allow, "write_file", Some("hello.txt"), [
            "Always allow writing hello.txt",
            "始终允许写入 hello.txt",
            "Sempre permitir escrever hello.txt",
        ]),
        (Deny, "*", Some("Taxes"), [
            "Never touch Taxes",
            "禁止操作 Taxes",
            "Nunca mexer em Taxes",
        ]),
        (Allow, "write_file", Some("Drafts/*.txt"), [
            "Always allow writing files matching “Drafts/*.txt”",
            "始终允许写入匹配“Drafts/*.txt”的文件",
            "Sempre permitir escrever arquivos que correspondem a “Drafts/*.txt”",
        ]),
        (Allow, "run_command", Some("git status*"), [
            "Always allow running commands matching “git status*”",
            "始终允许运行匹配“git status*”的命令",
            "Sempre permitir executar comandos que correspondem a “git status*”",
        ]),
        (Allow, "fetch_url", Some("https://example.com/docs/*"), [
            "Always allow downloading from addresses matching “https://example.com/docs/*”",
            "始终允许从匹配“https://example.com/docs/*”的网址下载",
            "Sempre permitir baixar de endereços que correspondem a “https://example.com/docs/*”",
        ]),
        (Deny, "*", Some("*.key"), [
            "Never touch anything matching “*.key”",
            "禁止操作匹配“*.key”的任何内容",
            "Nunca mexer em nada que corresponda a “*.key”",
        ]),
        (Allow, "read_file", Some("*"), [
            "Always allow reading files",
            "始终允许读取文件",
            "Sempre permitir ler arquivos",
        ]),
    ]
};

/// The sentence of each rule of `RULES` in `language`.
pub fn said(language: Language) -> Vec<String> {
    with_language(language, || {
        RULES
            .iter()
            .map(|(kind, tool, pattern, _)| Rule::new(tool, *pattern).unwrap().sentence(*kind))
            .collect()
    })
}

/// The sentences `RULES` gives in its column `column` (0 English, 1 Chinese, 2 Portuguese).
pub fn expected(column: usize) -> Vec<&'static str> {
    RULES.iter().map(|(.., words)| words[column]).collect()
}

#[test]
fn each_kind_of_rule_is_said_in_a_sentence() {
    assert_eq!(said(Language::En), expected(0));
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
        contents: Contents::No,
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
    // A folder whose name ends with a space keeps it (found by a third hostile review: the
    // form wrote `Spaced/**`, a rule for another folder); spaces the person typed around a
    // name go.
    std::fs::create_dir_all(ws.join("Spaced ")).unwrap();
    for (typed, written) in [("Spaced ", "Spaced /**"), ("  Private  ", "Private/**")] {
        assert_eq!(
            checked_rule(
                &RuleChoice {
                    effect: never,
                    tool: "*".into(),
                    scope: folder(typed)
                },
                &actions,
                &ws
            )
            .unwrap()
            .2,
            Some(written.to_owned()),
            "{typed:?}"
        );
    }
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
