//! The catalogues (`locales/*/app.ftl`) and the current language: every key in every language,
//! every key used by the code and every key the code uses in the catalogues, no parameter
//! dropped by a translation, sentences checked by name in Simplified Chinese and Brazilian
//! Portuguese, numbers and plurals for the language, untrusted text passed through unchanged.

use askfirst_core::agent::wording::{self, person_text};
use askfirst_core::i18n::{
    self, tr_in, with_language, wording_in, Arg, Language, CATALOGUES, LANGUAGES,
};
use askfirst_protocol::{NotRun, Wording};
use pretty_assertions::assert_eq;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each message of a catalogue with the `$parameters` its text names (select arms included).
fn parameters(source: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in source.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if !line.starts_with(' ') {
            if let Some((key, _)) = line.split_once(" = ") {
                current = Some(key.trim().to_owned());
            } else if let Some(key) = line.strip_suffix(" =") {
                current = Some(key.trim().to_owned());
            }
        }
        let Some(key) = &current else { continue };
        let names = out.entry(key.clone()).or_default();
        let mut rest = line;
        while let Some(at) = rest.find('$') {
            let name: String = rest[at + 1..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                .collect();
            names.insert(name);
            rest = &rest[at + 1..];
        }
    }
    out
}

fn catalogue(language: Language) -> &'static str {
    CATALOGUES
        .iter()
        .find(|(l, _)| *l == language)
        .map(|(_, s)| *s)
        .unwrap()
}

#[test]
fn every_catalogue_parses_without_a_key_twice() {
    assert_eq!(i18n::catalogue_problems(), vec![]);
    for language in LANGUAGES {
        let keys = i18n::keys(language);
        let unique: BTreeSet<&String> = keys.iter().collect();
        assert_eq!(unique.len(), keys.len(), "{language:?} has a key twice");
        assert!(keys.len() > 100, "{language:?}: {} keys", keys.len());
    }
}

#[test]
fn every_language_has_exactly_the_english_keys() {
    let english: BTreeSet<String> = i18n::keys(Language::En).into_iter().collect();
    for language in [Language::ZhCn, Language::PtBr] {
        let theirs: BTreeSet<String> = i18n::keys(language).into_iter().collect();
        let missing: Vec<&String> = english.difference(&theirs).collect();
        let extra: Vec<&String> = theirs.difference(&english).collect();
        assert_eq!(
            (missing, extra),
            (vec![], vec![]),
            "{language:?}: keys missing, and keys English does not have"
        );
    }
}

#[test]
fn no_translation_drops_or_invents_a_parameter() {
    let english = parameters(catalogue(Language::En));
    assert!(english["not_run-too_many_calls"].contains("left_out"));
    for language in [Language::ZhCn, Language::PtBr] {
        let theirs = parameters(catalogue(language));
        for (key, names) in &english {
            assert_eq!(
                theirs.get(key),
                Some(names),
                "{language:?} {key}: the parameters differ from the English"
            );
        }
    }
}

fn rust_sources() -> Vec<PathBuf> {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The shell-line crate names the hard denials' sentence keys that the core words.
    let mut todo = vec![
        core.join("src"),
        core.join("../src"),
        core.join("../shell-line/src"),
    ];
    let mut files = Vec::new();
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 50, "found {} sources", files.len());
    files
}

/// Every string literal of the Rust sources of the core, the shell and the shell-line crate.
fn literals() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for file in rust_sources() {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut parts = text.split('"');
        parts.next();
        // Odd pieces are inside quotes (good enough for keys, which have no quotes or escapes).
        while let Some(inside) = parts.next() {
            out.insert(inside.to_owned());
            parts.next();
        }
    }
    out
}

/// A catalogue key as the code writes it: itself, or (for a sentence sent as a [`Wording`])
/// with dots for dashes.
fn used(key: &str, literals: &BTreeSet<String>) -> bool {
    literals.contains(key) || literals.contains(&key.replace('-', "."))
}

#[test]
fn every_key_is_used_by_the_code() {
    let literals = literals();
    let unused: Vec<String> = i18n::keys(Language::En)
        .into_iter()
        .filter(|key| !used(key, &literals))
        .collect();
    assert_eq!(unused, Vec::<String>::new(), "keys no code renders");
}

#[test]
fn every_key_the_code_renders_is_in_the_catalogue() {
    let english: BTreeSet<String> = i18n::keys(Language::En).into_iter().collect();
    let mut asked = BTreeSet::new();
    for file in rust_sources() {
        let text = std::fs::read_to_string(&file).unwrap();
        // Code only: a comment may show an example key.
        let text: String = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for (at, _) in text.match_indices("tr(\"") {
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue; // another function, such as `attr("…")`
            }
            let key: String = text[at + 4..].chars().take_while(|c| *c != '"').collect();
            asked.insert(key);
        }
        for stem in ["\"not_run.", "\"command."] {
            for (at, _) in text.match_indices(stem) {
                let key: String = text[at + 1..].chars().take_while(|c| *c != '"').collect();
                asked.insert(i18n::fluent_key(&key));
            }
        }
    }
    assert!(asked.len() > 80, "found {} keys in the code", asked.len());
    let missing: Vec<&String> = asked.difference(&english).collect();
    assert_eq!(missing, Vec::<&String>::new(), "keys the catalogue lacks");
}

#[test]
fn no_sentence_shows_a_raw_key_or_an_unfilled_parameter_in_any_language() {
    for (language, source) in CATALOGUES {
        for (key, names) in parameters(source) {
            let args: Vec<(&str, Arg)> = names
                .iter()
                .map(|n| match n.as_str() {
                    "count" | "asked" | "limit" | "left_out" | "limit_mb" | "max_steps" => {
                        (n.as_str(), Arg::from(3u32))
                    }
                    _ => (n.as_str(), Arg::from("x")),
                })
                .collect();
            let text = tr_in(language, &key, &args);
            assert!(!text.trim().is_empty(), "{language:?} {key}: empty");
            assert_ne!(text, key, "{language:?} {key}: not found");
            assert!(!text.contains('{'), "{language:?} {key}: unfilled: {text}");
        }
    }
}

#[test]
fn a_reason_a_call_did_not_run_is_said_in_chinese_and_portuguese() {
    let note = NotRun::DeniedByPerson {
        note: Some("use the copy".into()),
    };
    assert_eq!(
        with_language(Language::ZhCn, || person_text(&NotRun::TimedOut)),
        "你没有及时回答，所以它没有执行。"
    );
    assert_eq!(
        with_language(Language::PtBr, || person_text(&note)),
        "Você disse não, com a observação: \"use the copy\". A ação não foi feita."
    );
    // What the model is told stays English whatever the person's language.
    assert_eq!(
        with_language(Language::PtBr, || wording::for_model(&NotRun::TimedOut)),
        wording::for_model(&NotRun::TimedOut)
    );
    assert!(wording::for_model(&NotRun::TimedOut).starts_with("The user did not answer"));
    // And English is the default.
    assert_eq!(
        person_text(&NotRun::TimedOut),
        "You did not answer in time, so it was not performed."
    );
}

#[test]
fn card_lines_are_said_in_chinese_and_portuguese_with_numbers_for_the_language() {
    let deletes = Wording {
        key: "command.deletes_file".into(),
        args: [("name".to_owned(), "notas.txt".to_owned())].into(),
    };
    assert_eq!(
        wording_in(Language::PtBr, &deletes),
        "Apaga o arquivo notas.txt para sempre (não vai para a lixeira)."
    );
    assert_eq!(
        wording_in(Language::ZhCn, &deletes),
        "永久删除文件 notas.txt（不会进入回收站）。"
    );
    assert_eq!(
        with_language(Language::PtBr, || wording::too_many_summary(12000, 11990)),
        format!(
            "O assistente pediu 12.000 ações de uma vez; as 11.990 depois das primeiras {} não \
             foram feitas",
            askfirst_core::agent::MAX_TOOL_CALLS_PER_TURN
        )
    );
    assert!(wording::too_many_summary(12000, 11990).starts_with("The agent asked for 12000 "));
    let scope = with_language(Language::PtBr, wording::grant_scope);
    assert!(
        scope.contains("Enquanto esta conversa estiver aberta")
            && scope.contains("quando você começar ou abrir outra conversa, ou fechar o Ask First"),
        "{scope}"
    );
    let scope = with_language(Language::ZhCn, wording::grant_scope);
    assert!(
        scope.contains("开始或打开另一个对话，或关闭 Ask First"),
        "{scope}"
    );
    assert_eq!(wording::grant_scope(), wording::GRANT_SCOPE);
}

#[test]
fn plurals_follow_the_language() {
    let pending =
        |language, count: usize| tr_in(language, "tray-pending", &[("count", Arg::from(count))]);
    assert_eq!(pending(Language::En, 0), "No approvals waiting");
    assert_eq!(pending(Language::En, 1), "1 approval waiting");
    assert_eq!(pending(Language::En, 1500), "1500 approvals waiting");
    assert_eq!(pending(Language::PtBr, 1), "1 aprovação esperando");
    assert_eq!(pending(Language::PtBr, 2), "2 aprovações esperando");
    assert_eq!(pending(Language::PtBr, 1500), "1.500 aprovações esperando");
    assert_eq!(pending(Language::ZhCn, 1), "1 个请求等待批准");
    assert_eq!(pending(Language::ZhCn, 0), "没有等待批准的请求");
}

#[test]
fn untrusted_text_goes_through_as_it_is_without_invisible_isolation_marks() {
    // A name as the cleaners leave it (its bidi override shown as a code), and one with a raw
    // override (the cleaners run before; this pins that nothing is added or taken away here).
    for name in [
        "invoice\\u202Etxt.exe",
        "invoice\u{202E}txt.exe",
        "{ $name } & <b>",
    ] {
        for language in LANGUAGES {
            let text = tr_in(
                language,
                "command-deletes_file",
                &[("name", Arg::from(name))],
            );
            assert!(text.contains(name), "{language:?}: {text:?}");
            assert!(
                !text.contains('\u{2068}') && !text.contains('\u{2069}'),
                "{language:?}: isolation marks in {text:?}"
            );
        }
    }
    // A Wording value that reads as a number but is not a count stays as written.
    let named = Wording {
        key: "command.deletes_file".into(),
        args: [("name".to_owned(), "20240101".to_owned())].into(),
    };
    assert!(wording_in(Language::PtBr, &named).contains("20240101"));
}

/// The variable that makes [`set_language_child`] do its work (in a process of its own, since
/// the language is the whole process's and the other tests read English).
const CHILD: &str = "ASKFIRST_TEST_SET_LANGUAGE_CHILD";

#[test]
fn set_language_changes_every_sentence_after_it_on_every_thread() {
    super::support::in_a_child_process("all::i18n::set_language_child", CHILD);
}

#[test]
fn set_language_child() {
    if std::env::var_os(CHILD).is_none() {
        return; // run by the test above, in a process of its own
    }
    assert_eq!(i18n::language(), Language::En);
    i18n::set_language(Language::PtBr);
    assert_eq!(i18n::language(), Language::PtBr);
    let elsewhere = std::thread::spawn(|| person_text(&NotRun::TimedOut))
        .join()
        .unwrap();
    assert_eq!(
        elsewhere,
        "Você não respondeu a tempo, então a ação não foi feita."
    );
    // A thread inside with_language keeps its own, and gets the process's back after.
    assert_eq!(
        with_language(Language::ZhCn, || person_text(&NotRun::TimedOut)),
        "你没有及时回答，所以它没有执行。"
    );
    assert_eq!(i18n::language(), Language::PtBr);
    i18n::set_language(Language::En);
    assert_eq!(
        person_text(&NotRun::TimedOut),
        "You did not answer in time, so it was not performed."
    );
    println!("child: checked");
}

#[test]
fn card_summaries_of_the_built_in_tools_are_said_in_chinese_and_portuguese() {
    use askfirst_core::tools::{ToolSet, Workspace};
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path()).unwrap();
    std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").unwrap();
    std::fs::create_dir(dir.path().join("Photos")).unwrap();
    let tools = ToolSet::builtin();
    let summary = |language, tool: &str, raw: &str| {
        with_language(language, || {
            tools.get(tool).unwrap().describe(raw, &ws).unwrap().summary
        })
    };
    let create = r#"{"path": "notas.txt", "content": "um\n"}"#;
    assert_eq!(
        summary(Language::PtBr, "write_file", create),
        "Criar o arquivo notas.txt (1 linha)"
    );
    assert_eq!(
        summary(Language::ZhCn, "write_file", create),
        "新建文件 notas.txt（1 行）"
    );
    assert_eq!(
        summary(Language::En, "write_file", create),
        "Create the file notas.txt (1 line)"
    );
    let folder = r#"{"path": "Photos"}"#;
    assert_eq!(
        summary(Language::PtBr, "delete_path", folder),
        "Mover a pasta Photos para a lixeira, ela está vazia (dá para restaurar)"
    );
    let edit = r#"{"path": "a.txt", "old_text": "two\n", "new_text": ""}"#;
    assert_eq!(
        summary(Language::PtBr, "edit_file", edit),
        "Remover 1 linha de a.txt"
    );
    assert_eq!(
        summary(Language::ZhCn, "edit_file", edit),
        "从 a.txt 中删除 1 行"
    );
    let command = r#"{"command": "ls", "timeout_secs": 1}"#;
    assert_eq!(
        summary(Language::PtBr, "run_command", command),
        "Executar o comando `ls` na sua pasta de trabalho (parar se demorar mais de 1 segundo)"
    );
    // What the model is told after an edit stays English.
    let done = with_language(Language::PtBr, || {
        tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(tools.get("edit_file").unwrap().execute(edit, &ws))
            .unwrap()
    });
    assert_eq!(done, "Removed 1 line from a.txt.");
}

#[test]
fn a_model_service_failure_is_said_in_chinese_and_portuguese() {
    use askfirst_core::provider::ProviderError;
    let error = ProviderError::Auth {
        host: "api.example.com".into(),
        status: 401,
        detail: "invalid key".into(),
    };
    assert_eq!(
        with_language(Language::PtBr, || error.to_string()),
        "A chave de API foi recusada por api.example.com. Confira a chave nas configurações."
    );
    assert_eq!(
        with_language(Language::ZhCn, || error.to_string()),
        "api.example.com 拒绝了这个 API 密钥。请检查设置中的密钥。"
    );
    assert_eq!(
        error.to_string(),
        "The API key was refused by api.example.com. Check the key in the settings."
    );
    let idle = ProviderError::IdleTimeout {
        host: "localhost:11434".into(),
        waited: std::time::Duration::from_secs(1),
    };
    assert!(with_language(Language::PtBr, || idle.to_string()).contains("por 1 segundo,"));
}

#[test]
fn test_the_connection_answers_in_chinese_and_portuguese() {
    use askfirst_core::app::probe::ConnectionTest;
    let missing = ConnectionTest::MissingKey {
        host: "api.openai.com".into(),
    };
    assert_eq!(
        with_language(Language::PtBr, || missing.sentence()),
        "api.openai.com precisa de uma chave de API. Cole a sua chave acima e teste de novo."
    );
    assert_eq!(
        with_language(Language::ZhCn, || missing.sentence()),
        "api.openai.com 需要 API 密钥。请把密钥粘贴到上面，然后再测试。"
    );
    assert_eq!(
        missing.sentence(),
        "api.openai.com needs an API key. Paste your key above, then test again."
    );
}

/// Sentences the settings screen, a command's card and the conversation showed in English
/// whatever the language (found walking the app in Chinese and Portuguese): where commands run,
/// and who answers.
#[test]
fn command_cards_and_who_answers_are_said_in_the_language() {
    use askfirst_core::provider::Provider;
    use askfirst_core::scripted::{Scenario, ScriptedProvider};
    use askfirst_core::tools::sandbox::Confinement;
    let shut_in = |language| with_language(language, || Confinement::detected().card_sentence());
    let pt = shut_in(Language::PtBr);
    assert!(
        pt.starts_with("Ele roda isolado: só pode alterar arquivos da sua pasta de trabalho")
            || pt.starts_with("Neste computador ele não roda isolado"),
        "{pt}"
    );
    let zh = shut_in(Language::ZhCn);
    assert!(
        zh.starts_with("它在隔离中运行") || zh.starts_with("在这台电脑上它没有被隔离"),
        "{zh}"
    );
    let demo = ScriptedProvider::demo();
    assert_eq!(
        [Language::En, Language::PtBr, Language::ZhCn]
            .map(|language| with_language(language, || demo.display_name())),
        [
            "Demo agent (offline, follows a fixed script)",
            "Agente de demonstração (offline, segue um roteiro fixo)",
            "演示助手（离线，按固定脚本进行）"
        ]
        .map(str::to_owned)
    );
    let scenario: Scenario = serde_json::from_str(r#"{"turns": [{"say": "hi"}]}"#).unwrap();
    let file = ScriptedProvider::from_file(Path::new("/tmp/s.json"), &scenario);
    assert_eq!(
        with_language(Language::ZhCn, || file.display_name()),
        "固定脚本（/tmp/s.json）"
    );
}

/// Found by newcomers (the first hour): the Portuguese window called Ask First's agent
/// "assistente" and the folder picker "agente", the Chinese one "助手" and "智能助手". Each
/// language names it one way in the app's and the window's catalogues alike; "agente" and
/// "智能体" are kept for the other agents on the computer (the inbox, Settings' "Other agents").
#[test]
fn ask_firsts_own_agent_has_one_name_in_each_language() {
    let window = |tag: &str| {
        std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../locales/{tag}/window.ftl")),
        )
        .unwrap()
    };
    let about_other_agents = |line: &str| {
        [
            "inbox-",
            "error-connect-",
            "other-agents-",
            "external-",
            "acp-",
            "worker-",
            "#",
        ]
        .iter()
        .any(|start| line.starts_with(start))
            || line.contains("{ $agent }")
    };
    for (tag, text) in [
        (
            "pt-BR",
            catalogue(Language::PtBr).to_owned() + &window("pt-BR"),
        ),
        (
            "zh-CN",
            catalogue(Language::ZhCn).to_owned() + &window("zh-CN"),
        ),
    ] {
        for line in text.lines().filter(|line| !about_other_agents(line)) {
            let other_name = match tag {
                "pt-BR" => ["o agente", "ao agente", "do agente", "O agente"]
                    .iter()
                    .any(|name| line.contains(name)),
                _ => line.contains("智能助手"),
            };
            assert!(!other_name, "{tag}: {line}");
        }
    }
}

/// Found by newcomers (the first hour): a rule's refusal in parentheses ended in a full stop
/// inside them (`proíbe isto.). Ela não foi feita.`). The sentence in parentheses loses its
/// own stop, in every language.
#[test]
fn a_rules_reason_in_parentheses_has_no_stop_of_its_own() {
    let refused = NotRun::DeniedByRule {
        reason: Some("Your rule forbids this.".into()),
        wording: Some(Wording {
            key: "refusal.rule_forbids".into(),
            args: [(
                "rule".to_owned(),
                "Never touch anything in Private".to_owned(),
            )]
            .into(),
        }),
    };
    for language in LANGUAGES {
        let said = with_language(language, || person_text(&refused));
        assert!(
            !said.contains(".)") && !said.contains("。）"),
            "{language:?}: {said}"
        );
    }
}
