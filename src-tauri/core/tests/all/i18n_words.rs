//! The sentences about rules, rule editor refusals, MCP settings, conversations and lists in
//! Simplified Chinese and Brazilian Portuguese: each language writes its whole sentences; the
//! names in them (folders, commands, sites, tools) go through as they are; what reaches the
//! model stays English.

use super::rules_editor::{expected, facts, said};
use askfirst_core::app::Worded;
use askfirst_core::i18n::{join_list, join_separated, with_language, Language, LANGUAGES};
use askfirst_core::mcp::McpConfigError;
use askfirst_core::policy::editor::RuleEditError;
use askfirst_core::policy::Contents;
use askfirst_core::policy::{ArgumentKind, MainArgument, Policy, PolicyDecision, Rules};
use askfirst_core::sessions::SessionError;
use pretty_assertions::assert_eq;
use std::path::Path;

#[test]
fn rules_are_whole_sentences_in_chinese_and_portuguese() {
    assert_eq!(said(Language::ZhCn), expected(1));
    assert_eq!(said(Language::PtBr), expected(2));
}

#[test]
fn the_add_a_rule_choices_are_in_the_language() {
    use askfirst_core::policy::words::action_label;
    let labels = |language| {
        with_language(language, || {
            ["*", "write_file", "everything__echo"].map(action_label)
        })
    };
    assert_eq!(
        labels(Language::En),
        [
            "Anything",
            "Writing files (new or replaced)",
            "The tool “echo” of the MCP server “everything”"
        ]
    );
    assert_eq!(
        labels(Language::ZhCn),
        [
            "任何操作",
            "写入文件（新建或替换）",
            "MCP 服务器“everything”的工具“echo”"
        ]
    );
    assert_eq!(
        labels(Language::PtBr),
        [
            "Qualquer coisa",
            "Escrever arquivos (novos ou substituídos)",
            "A ferramenta “echo” do servidor MCP “everything”"
        ]
    );
}

#[test]
fn a_rule_s_reason_on_a_card_is_in_the_language_and_a_refusal_for_the_model_stays_english() {
    let rules = Rules::parse(
        "[[deny]]\ntool = \"*\"\nmatch = \"Private/**\"\n\n[[ask]]\ntool = \"write_file\"\nmatch = \"Drafts/**\"\n",
        Path::new("rules.toml"),
    );
    let policy = Policy::new(rules, None);
    let arg = |text: &str| {
        [MainArgument {
            kind: ArgumentKind::Path,
            text: text.into(),
            alias: None,
            resolved: Some(text.into()),
            contents: Contents::No,
        }]
    };
    let (private, drafts) = (arg("Private/a.txt"), arg("Drafts/a.txt"));
    let decide = |language, args: &[MainArgument]| {
        with_language(language, || policy.decide(&facts(args)).decision)
    };
    assert_eq!(
        decide(Language::ZhCn, &drafts),
        PolicyDecision::Ask {
            reason: "你的规则“写入 Drafts 中的文件前先问我”要求先问你。".into()
        }
    );
    assert_eq!(
        decide(Language::PtBr, &drafts),
        PolicyDecision::Ask {
            reason: "Sua regra “Perguntar antes de escrever arquivos em Drafts” diz para perguntar a você antes.".into()
        }
    );
    assert_eq!(
        decide(Language::En, &drafts),
        PolicyDecision::Ask {
            reason: "Your rule “Ask before writing files in Drafts” says to ask you first.".into()
        }
    );
    let broken = Policy::new(
        Rules::parse("[[deny]\n", Path::new("/data/rules.toml")),
        None,
    );
    let reason = with_language(Language::PtBr, || broken.decide(&facts(&drafts)).decision);
    assert!(
        matches!(&reason, PolicyDecision::Ask { reason } if reason.starts_with(
            "O arquivo de regras /data/rules.toml tem um erro: ")
            && reason.ends_with("Até isso ser corrigido, o Ask First pergunta antes de cada ação.")),
        "{reason:?}"
    );
    // The refusal's reason is what the model is told (NotRun): English in every language; its
    // wording is what the person reads, in theirs.
    for language in LANGUAGES {
        let PolicyDecision::Deny { reason, wording } = decide(language, &private) else {
            panic!("refused in {language:?}");
        };
        assert_eq!(
            reason,
            "Your rule “Never touch anything in Private” forbids this."
        );
        let shown = askfirst_core::i18n::wording_in(language, &wording);
        match language {
            Language::En => assert_eq!(shown, reason),
            Language::ZhCn => assert!(
                shown.starts_with("你的规则“")
                    && shown.contains("Private")
                    && !shown.contains("Never"),
                "{shown}"
            ),
            Language::PtBr => assert!(
                shown.starts_with("Sua regra “")
                    && shown.ends_with("” proíbe isto.")
                    && !shown.contains("Never"),
                "{shown}"
            ),
        }
    }
}

#[test]
fn lists_are_joined_in_the_language_s_way_and_names_stay_as_they_are() {
    let names = ["a.txt", "b.txt", "c.txt"];
    let list = |language, items: &[&str]| with_language(language, || join_list(items));
    assert_eq!(list(Language::En, &names), "a.txt, b.txt, c.txt");
    assert_eq!(list(Language::ZhCn, &names), "a.txt、b.txt 和 c.txt");
    assert_eq!(list(Language::PtBr, &names), "a.txt, b.txt e c.txt");
    assert_eq!(list(Language::PtBr, &names[..2]), "a.txt e b.txt");
    assert_eq!(list(Language::ZhCn, &names[..1]), "a.txt");
    assert_eq!(list(Language::ZhCn, &[]), "");
    assert_eq!(
        with_language(Language::ZhCn, || join_separated(&names)),
        "a.txt、b.txt、c.txt"
    );
    // A name that looks like a list pattern or a placeable is data.
    assert_eq!(
        list(Language::PtBr, &["{ $first }", "x, e y"]),
        "{ $first } e x, e y"
    );
}

/// Every refusal of the rule editor, the MCP settings and the conversations a person can see.
fn errors() -> Vec<(String, Box<dyn Fn() -> String>)> {
    let rule_edits = [
        RuleEditError::UnknownAction("x".into()),
        RuleEditError::ScopeNotForAction("x".into()),
        RuleEditError::AllowByFolder("x".into()),
        RuleEditError::FolderMissing,
        RuleEditError::FolderNotInside,
        RuleEditError::FolderPattern,
        RuleEditError::FolderNotFound("x".into()),
        RuleEditError::NotAFolder("x".into()),
        RuleEditError::CommandMissing,
        RuleEditError::CommandPattern,
        RuleEditError::SiteInvalid("x".into()),
        RuleEditError::SiteMissing,
        RuleEditError::AlreadyThere("x".into()),
        RuleEditError::NoSuchRule("x".into()),
        RuleEditError::File(askfirst_core::policy::RulesError::Invalid {
            path: "rules.toml".into(),
            detail: "x".into(),
        }),
    ];
    let mcp = [
        McpConfigError::NameLength,
        McpConfigError::NameCharacters,
        McpConfigError::NoLongerSaved {
            previous: "x".into(),
        },
        McpConfigError::NameTaken { other: "x".into() },
        McpConfigError::UnclosedQuote,
        McpConfigError::NoProgram,
        McpConfigError::VariableName { name: "x".into() },
        McpConfigError::VariableValue { name: "x".into() },
        McpConfigError::VariableTwice { name: "x".into() },
    ];
    let sessions = [SessionError::Busy, SessionError::FolderFixed];
    let settings = askfirst_core::app::SettingsError::TimeoutOutOfRange(5);
    let mut out: Vec<(String, Box<dyn Fn() -> String>)> = Vec::new();
    for e in rule_edits {
        out.push((format!("{e:?}"), Box::new(move || e.message())));
    }
    for e in mcp {
        out.push((format!("{e:?}"), Box::new(move || e.sentence())));
    }
    for e in sessions {
        out.push((format!("{e:?}"), Box::new(move || e.message())));
    }
    out.push((
        format!("{settings:?}"),
        Box::new(move || settings.message()),
    ));
    out
}

#[test]
fn every_refusal_a_person_sees_is_said_in_chinese_and_portuguese() {
    for (name, message) in errors() {
        let english = with_language(Language::En, &message);
        for language in [Language::ZhCn, Language::PtBr] {
            let theirs = with_language(language, &message);
            assert_ne!(theirs, english, "{language:?} {name}: still English");
            assert!(!theirs.contains('{'), "{language:?} {name}: {theirs}");
        }
    }
    // The English sentences are the ones they were (`Display`, for logs, is English).
    let e = McpConfigError::NameLength;
    assert_eq!(e.sentence(), e.to_string());
    let e = RuleEditError::FolderNotFound("Taxes".into());
    assert_eq!(e.message(), e.to_string());
}

/// A server that writes a line and ends: its state in Settings is in the person's language,
/// what it wrote as it wrote it (the English the model is told is pinned in `mcp_runs`).
#[cfg(unix)]
#[test]
fn an_mcp_server_s_state_is_said_in_the_person_s_language() {
    use askfirst_core::mcp::{McpClients, McpServerConfig, McpServerStatus, McpTimeouts};
    use std::collections::BTreeMap;
    use std::time::Duration;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let quits = McpServerConfig {
        name: "quits".into(),
        command: "sh".into(),
        args: vec!["-c".into(), "echo 'missing API token' >&2; exit 3".into()],
        env: BTreeMap::new(),
        trusted: false,
    };
    // The current-thread runtime runs the start on this thread, inside `with_language`.
    let (statuses, tools) = with_language(Language::ZhCn, || {
        runtime.block_on(async {
            let no_command = McpServerConfig {
                name: "nocmd".into(),
                command: " ".into(),
                args: vec![],
                env: BTreeMap::new(),
                trusted: false,
            };
            let clients = McpClients::with_timeouts(
                vec![quits, no_command],
                McpTimeouts {
                    start: Duration::from_secs(5),
                    call: Duration::from_secs(1),
                    retry_failed_start: Duration::from_secs(30),
                },
            );
            let tools = clients.tools().await;
            let statuses = clients.statuses();
            clients.shutdown().await;
            (statuses, tools)
        })
    });
    assert!(tools.is_empty());
    assert!(
        matches!(
            &statuses[0].status,
            McpServerStatus::Failed { message, .. } if message ==
                "MCP 服务器“quits”无法启动：它在准备好之前就停止了。它说：“missing API token”。\
                 请在设置中检查它的命令；下次需要它时会再试一次，最早在 30 秒后。"
        ),
        "{:?}",
        statuses[0].status
    );
    assert_eq!(
        statuses[1].status,
        McpServerStatus::Failed {
            message:
                "MCP 服务器“nocmd”在设置中没有命令，所以无法启动。请在设置中（编辑）给它一个命令。"
                    .into(),
            for_model: "The MCP server \"nocmd\" has no command in the settings, so it cannot \
                        be started. Give it one in Settings (Edit)."
                .into(),
            detail: None,
        }
    );
}

#[test]
fn a_refusal_is_told_to_the_model_in_english_and_to_the_person_in_their_language() {
    use askfirst_core::agent::wording::{for_model, person_text};
    use askfirst_protocol::NotRun;
    let policy = Policy::new(Rules::default(), None);
    let args = [MainArgument {
        kind: ArgumentKind::Command,
        text: "sudo reboot".into(),
        alias: None,
        resolved: None,
        contents: Contents::No,
    }];
    let mut facts = facts(&args);
    facts.tool_name = "run_command";
    for language in [Language::ZhCn, Language::PtBr] {
        let PolicyDecision::Deny { reason, wording } =
            with_language(language, || policy.decide(&facts).decision)
        else {
            panic!("a reboot is refused");
        };
        assert_eq!(
            reason,
            "This command would shut down or restart the computer."
        );
        let not_run = NotRun::HardDenial {
            reason,
            wording: Some(wording),
        };
        let (model, person) =
            with_language(language, || (for_model(&not_run), person_text(&not_run)));
        assert!(
            model.starts_with("Ask First never allows this: This command would shut down"),
            "{model}"
        );
        let expected = match language {
            Language::ZhCn => "Ask First 从不允许这样做：这个命令会关闭或重启电脑。 它没有执行。",
            _ => "O Ask First nunca permite isto: Este comando desligaria ou reiniciaria o computador. Não foi feito.",
        };
        assert_eq!(person, expected);
    }
}

/// The rarer failures of the built-in tools — a special file, a file too large to edit, an
/// answer with an error status — are said in the person's language; the model is told the
/// same English as ever.
#[cfg(unix)]
#[test]
fn the_rarer_tool_failures_are_said_in_the_person_s_language() {
    use super::tools_builtin::{tool, ws};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (dir, ws) = ws();
    nix::unistd::mkfifo(
        &dir.path().join("pipe"),
        nix::sys::stat::Mode::from_bits_truncate(0o600),
    )
    .unwrap();
    let big = std::fs::File::create(dir.path().join("big.txt")).unwrap();
    big.set_len(11 * 1024 * 1024).unwrap();
    let port = super::tools_fetch::serve();
    let calls = [
        ("read_file", r#"{"path": "pipe"}"#.to_owned()),
        (
            "edit_file",
            r#"{"path": "big.txt", "old_text": "a", "new_text": "b"}"#.to_owned(),
        ),
        (
            "fetch_url",
            format!(r#"{{"url": "http://127.0.0.1:{port}/missing"}}"#),
        ),
    ];
    // The edit's check runs on a blocking thread when it executes, outside the language
    // this thread is set to, so its card's description (the same check) is what is asked.
    let fail = |language: Language, name: &str, raw: &str| {
        with_language(language, || match name {
            "edit_file" => tool(name).describe(raw, &ws).map(|_| String::new()),
            _ => runtime.block_on(tool(name).execute(raw, &ws)),
        })
        .expect_err(name)
    };
    let said: Vec<[String; 3]> = calls
        .iter()
        .map(|(name, raw)| {
            let [en, zh, pt] =
                [Language::En, Language::ZhCn, Language::PtBr].map(|l| fail(l, name, raw));
            assert_eq!(
                zh.to_string(),
                en.to_string(),
                "{name}: the model's English"
            );
            assert_eq!(
                pt.to_string(),
                en.to_string(),
                "{name}: the model's English"
            );
            [en.for_person(), zh.for_person(), pt.for_person()]
        })
        .collect();
    assert_eq!(
        said[0],
        [
            "pipe is not an ordinary file (it is a named pipe), so Ask First does not open it.",
            "pipe 不是普通文件（它是命名管道），所以 Ask First 不会打开它。",
            "pipe não é um arquivo comum (é um pipe nomeado), então o Ask First não o abre.",
        ]
    );
    assert_eq!(
        said[1],
        [
            "big.txt is too large to edit: the limit is 10 MB.",
            "big.txt 太大，无法编辑：上限是 10 MB。",
            "big.txt é grande demais para ser editado: o limite é 10 MB.",
        ]
    );
    let missing = format!("http://127.0.0.1:{port}/missing");
    assert_eq!(
        said[2],
        [
            format!("{missing} answered with an error (HTTP status 404).\nWhat it sent:\nnot here"),
            format!("{missing} 回答了一个错误（HTTP 状态码 404）。\n它发来的内容：\nnot here"),
            format!("{missing} respondeu com um erro (código HTTP 404).\nO que veio:\nnot here"),
        ]
    );
}

#[test]
fn a_conversation_too_long_or_over_the_plan_names_the_window_s_own_buttons_in_each_language() {
    // The sentence tells the person what to click; the window's labels are its own words
    // (locales/*/window.ftl), which must be the ones named.
    use askfirst_core::provider::ProviderError;
    let label = |folder: &str, key: &str| {
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../locales")
                .join(folder)
                .join("window.ftl"),
        )
        .unwrap();
        text.lines()
            .find_map(|line| line.strip_prefix(&format!("{key} = ")))
            .unwrap_or_else(|| panic!("{folder}: no {key}"))
            .to_owned()
    };
    let too_long = ProviderError::ContextTooLong {
        host: "api.example.com".into(),
        status: Some(400),
        detail: "prompt is too long".into(),
    };
    let over_plan = ProviderError::OverPlanLimit {
        host: "api.example.com".into(),
        status: 429,
        detail: "Request too large".into(),
    };
    for (error, keys) in [
        (
            too_long,
            &["app-conversations", "sessions-new", "app-settings"][..],
        ),
        (over_plan, &["app-conversations", "sessions-new"][..]),
    ] {
        for (language, folder) in [
            (Language::En, "en"),
            (Language::ZhCn, "zh-CN"),
            (Language::PtBr, "pt-BR"),
        ] {
            let said = with_language(language, || error.to_string());
            for key in keys {
                let words = label(folder, key);
                assert!(said.contains(&words), "{folder}: {words:?} not in {said:?}");
            }
        }
    }
}

/// The choices of who answers (the welcome, Settings) are in the window's language: every
/// label comes from the catalogues, none is left in English.
#[test]
fn who_answers_is_offered_in_the_language() {
    use askfirst_core::app::catalog::provider_infos;
    let labels = |language| {
        with_language(language, || {
            provider_infos()
                .into_iter()
                .map(|info| info.label)
                .collect::<Vec<_>>()
        })
    };
    let english = labels(Language::En);
    assert_eq!(english[0], "The demo (no AI, for trying Ask First out)");
    for language in [Language::ZhCn, Language::PtBr] {
        let said = labels(language);
        assert_eq!(said.len(), english.len());
        for (label, in_english) in said.iter().zip(&english) {
            assert_ne!(label, in_english, "{language:?}");
            assert!(!label.is_empty() && !label.contains("provider-"), "{label}");
        }
    }
}
