//! Rules and grants in the running app: a rule added from the settings screen applies to the
//! next call and is logged; a grant lasts while its conversation is open, as the card says.

use super::rules_editor::facts;
use askfirst_core::app::{AppConfig, Backend, Environment};
use askfirst_core::policy::editor::RuleEditError;
use askfirst_core::policy::Contents;
use askfirst_core::policy::{ArgumentKind, MainArgument, PolicyDecision};
use askfirst_protocol::{PolicyLayer, RuleChoice, RuleEffect, RuleScope};
use pretty_assertions::assert_eq;
use std::collections::HashMap;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_added_in_the_window_applies_to_the_next_call_and_is_logged() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(ws.join("Private")).unwrap();
    let vars: HashMap<String, String> = [
        ("ASKFIRST_DATA_DIR", data.to_str().unwrap()),
        ("ASKFIRST_WORKSPACE", ws.to_str().unwrap()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    let config = AppConfig::resolve(Environment::fixed(vars), None).unwrap();
    let backend = Backend::build(config, tokio::runtime::Handle::current()).unwrap();
    let (runtime, screen) = (backend.runtime, backend.settings);
    let before = std::fs::read_to_string(data.join("rules.toml")).unwrap();
    let view = screen
        .add_rule(
            &runtime,
            &RuleChoice {
                effect: RuleEffect::Never,
                tool: "*".into(),
                scope: RuleScope::Folder {
                    folder: "Private".into(),
                },
            },
        )
        .unwrap();
    assert_eq!(
        view.rules
            .iter()
            .map(|r| (r.sentence.as_str(), r.line.as_str()))
            .collect::<Vec<_>>(),
        vec![("Never touch anything in Private", r#"deny * "Private/**""#)]
    );
    let listed = &view.rules[0];
    let file_line = listed.file_line.unwrap() as usize;
    let after = std::fs::read_to_string(data.join("rules.toml")).unwrap();
    assert_eq!(after.lines().nth(file_line - 1), Some("[[deny]]"));
    assert!(after.starts_with(&before));
    // The next call: refused with the rule's sentence, without a new task starting.
    let real = std::fs::canonicalize(&ws)
        .unwrap()
        .join("Private")
        .join("a.txt");
    let args = [MainArgument {
        kind: ArgumentKind::Path,
        text: "Private/a.txt".into(),
        alias: None,
        resolved: Some(real),
        contents: Contents::No,
    }];
    let verdict = runtime.policy().decide(&facts(&args));
    assert_eq!(verdict.layer, PolicyLayer::UserRule);
    assert!(
        matches!(&verdict.decision, PolicyDecision::Deny { reason, .. }
            if reason == "Your rule “Never touch anything in Private” forbids this."),
        "{:?}",
        verdict.decision
    );
    // Changed from the window: now it asks.
    let view = screen
        .change_rule(
            &runtime,
            r#"deny * "Private/**""#,
            &RuleChoice {
                effect: RuleEffect::Ask,
                tool: "*".into(),
                scope: RuleScope::Folder {
                    folder: "Private".into(),
                },
            },
        )
        .unwrap();
    assert_eq!(view.rules[0].sentence, "Ask before anything in Private");
    assert!(matches!(
        runtime.policy().decide(&facts(&args)).decision,
        PolicyDecision::Ask { .. }
    ));
    // A change made by hand shows once Settings is opened.
    std::fs::write(
        data.join("rules.toml"),
        "[[allow]]\ntool = \"write_file\"\nmatch = \"*.md\"\n",
    )
    .unwrap();
    let view = screen.rules_view(&runtime);
    assert_eq!(
        view.rules[0].sentence,
        "Always allow writing files matching “*.md”"
    );
    assert_eq!(view.rules[0].choice, None);
    assert_eq!(view.rules[0].file_line, Some(1));
    assert!(view.folders.contains(&"Private".to_owned()));
    // A file with a mistake is never rewritten from the window.
    std::fs::write(data.join("rules.toml"), "[[deny]\n").unwrap();
    let refused = screen
        .add_rule(
            &runtime,
            &RuleChoice {
                effect: RuleEffect::Never,
                tool: "*".into(),
                scope: RuleScope::Everywhere,
            },
        )
        .unwrap_err();
    assert!(matches!(refused, RuleEditError::File(_)));
    assert_eq!(
        std::fs::read_to_string(data.join("rules.toml")).unwrap(),
        "[[deny]\n"
    );
    // Each change from the window is in the conversation's log.
    backend.log.flush();
    let log = std::fs::read_to_string(
        data.join("sessions")
            .join(format!("{}.jsonl", runtime.session_id())),
    )
    .unwrap();
    let changes: Vec<serde_json::Value> = log
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|r| r["type"] == "rule_changed")
        .map(|mut r| {
            r.as_object_mut().unwrap().remove("at");
            r
        })
        .collect();
    assert_eq!(
        changes,
        vec![
            serde_json::json!({"type": "rule_changed", "after": "deny * \"Private/**\""}),
            serde_json::json!({"type": "rule_changed", "before": "deny * \"Private/**\"", "after": "ask * \"Private/**\""}),
        ]
    );
}

/// "Allow in this conversation" means what it says: the grant holds while this conversation
/// is open, ends when another one is started or opened, and does not come back when the
/// conversation is reopened, neither in the same run of Ask First nor after a restart.
#[tokio::test]
async fn a_grant_lasts_while_its_conversation_is_open_and_never_comes_back() {
    use askfirst_protocol::Decision;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(&workspace).unwrap();
    let write =
        serde_json::json!({"name": "write_file", "arguments": {"path": "a.txt", "content": "A"}});
    let scenario = serde_json::json!({"turns": [
        {"say": "Writing.", "tool_calls": [write]},
        {"say": "Done."},
        {"say": "Again.", "tool_calls": [write]},
        {"say": "Done again."}
    ]});
    let (first, mut events) = super::sessions::app_runtime(&data, &workspace, scenario.clone());
    let conversation = first.session_id();
    first.start_run("Write a.txt").unwrap();
    let request = events.approval_required().await;
    assert!(request.grant_scope.as_deref().is_some_and(|s| s
        .starts_with("While this conversation is open")
        && s.contains("It ends when you start or open another conversation, or close Ask First.")));
    first
        .resolve_approval(request.approval_id, Decision::ApproveForSession)
        .unwrap();
    events.run_finished().await;
    assert_eq!(first.grants().len(), 1);
    // Kept while the conversation is open: the same call runs without asking.
    first.start_run("Again").unwrap();
    events.run_finished().await;
    assert_eq!(first.grants().len(), 1);
    // Another conversation: gone; back to the first: still gone.
    first.new_session().unwrap();
    assert_eq!(first.grants(), vec![]);
    first.open_session(conversation).unwrap();
    assert_eq!(first.grants(), vec![]);
    drop(first);
    // After a restart, reopening the conversation does not bring it back either.
    let (second, _events) = super::sessions::app_runtime(&data, &workspace, scenario);
    second.open_session(conversation).unwrap();
    assert_eq!(second.grants(), vec![]);
}
