//! The production wiring (`askfirst_core::app`): the backend built from a settings value, the
//! environment precedence table, and the settings screen's rules.

use askfirst_core::app::catalog::{provider_choice, ProviderChoice};
use askfirst_core::app::settings::APPROVAL_TIMEOUT_SECS;
use askfirst_core::app::{AppConfig, Backend, Environment, SettingsError};
use askfirst_core::config::SettingsFile;
use askfirst_protocol::{
    AgentEvent, Decision, ErrorCode, NotifyWhen, ProviderKind, ProviderSetting, RunStatus,
    SaveSettingsRequest, SequencedEvent,
};
use pretty_assertions::assert_eq;
use std::collections::HashMap;
use std::time::Duration;

fn env(vars: &[(&str, &str)]) -> Environment {
    Environment::fixed(
        vars.iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect::<HashMap<_, _>>(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_backend_built_from_settings_runs_the_demo_and_logs_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let config =
        AppConfig::resolve(env(&[("ASKFIRST_DATA_DIR", data.to_str().unwrap())]), None).unwrap();
    assert!(config.workspace_is_demo);
    assert!(matches!(config.provider, ProviderChoice::Demo));
    let backend = Backend::build(config, tokio::runtime::Handle::current()).unwrap();
    assert!(backend.instance_lock.is_some());
    let Backend {
        runtime,
        history,
        mut events,
        ..
    } = backend;
    let started = tokio::task::spawn_blocking({
        let runtime = runtime.clone();
        move || runtime.start_run("Tidy up my folder").unwrap()
    })
    .await
    .unwrap();
    let mut seen = Vec::new();
    let status = tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let event = events.recv().await.unwrap();
            seen.push(event.clone());
            match event.event {
                AgentEvent::ApprovalRequired(request) => {
                    let runtime = runtime.clone();
                    tokio::task::spawn_blocking(move || {
                        runtime
                            .resolve_approval(request.approval_id, Decision::Approve)
                            .unwrap()
                    })
                    .await
                    .unwrap();
                }
                AgentEvent::RunFinished { status, .. } => break status,
                _ => {}
            }
        }
    })
    .await
    .unwrap();
    assert_eq!(status, RunStatus::Completed);
    // Numbered without gaps, and the history a reloaded window reads is the same list.
    assert_eq!(
        seen.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (0..seen.len() as u64).collect::<Vec<_>>()
    );
    let replayed: Vec<SequencedEvent> = history
        .snapshot()
        .unwrap()
        .iter()
        .map(|json| serde_json::from_str(json.get()).unwrap())
        .collect();
    assert_eq!(replayed, seen);
    // The demo's approved write happened, in the demo folder the build created.
    let summary = data.join("Demo folder").join("summary.txt");
    assert!(std::fs::read_to_string(summary)
        .unwrap()
        .starts_with("Summary of your folder"));
    // The session log (through the production logging sink) holds each asked/decided pair in
    // order, and the events the window saw.
    let log = data
        .join("sessions")
        .join(format!("{}.jsonl", started.session_id));
    let records: Vec<serde_json::Value> = std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = records
        .iter()
        .filter_map(|r| r["type"].as_str())
        .filter(|t| t.starts_with("approval_"))
        .collect();
    assert_eq!(
        kinds,
        [
            "approval_asked",
            "approval_decided",
            "approval_asked",
            "approval_decided"
        ]
    );
    assert!(records
        .iter()
        .any(|r| r["type"] == "event" && r["event"]["type"] == "run_finished"));
}

#[test]
fn the_environment_wins_over_the_file_by_one_table() {
    let file = SettingsFile {
        provider: Some("anthropic".into()),
        base_url: Some("https://file.test".into()),
        model: Some("file-model".into()),
        api_key: Some("file-key".into()),
        ..SettingsFile::default()
    };
    // Anthropic's own variables win; OpenAI's are not Anthropic's.
    let e = env(&[
        ("ANTHROPIC_BASE_URL", "https://env.test"),
        ("OPENAI_MODEL", "not-for-anthropic"),
    ]);
    let ProviderChoice::Http { kind, http } = provider_choice(&e, &file).unwrap() else {
        panic!("an HTTP provider")
    };
    assert_eq!(kind, ProviderKind::Anthropic);
    assert_eq!(http.model, "file-model");
    assert_eq!(
        e.set_by_environment(Some(askfirst_core::app::catalog::ApiFamily::Anthropic)),
        ["base_url"]
    );
    // ASKFIRST_MODEL wins over every family's own variable; blank values count as unset.
    let e = env(&[
        ("ASKFIRST_MODEL", "m"),
        ("ANTHROPIC_MODEL", "x"),
        ("ASKFIRST_PROVIDER", " "),
    ]);
    let ProviderChoice::Http { http, .. } = provider_choice(&e, &file).unwrap() else {
        panic!("an HTTP provider")
    };
    assert_eq!(http.model, "m");
    // The catalogue's defaults fill what neither sets.
    let ProviderChoice::Http { http, .. } = provider_choice(
        &env(&[("ASKFIRST_PROVIDER", "ollama")]),
        &SettingsFile::default(),
    )
    .unwrap() else {
        panic!("an HTTP provider")
    };
    assert_eq!(http.model, "llama3.1");
    assert!(provider_choice(&env(&[("ASKFIRST_PROVIDER", "gemini")]), &file).is_err());
}

/// A service that needs a key and has none is refused before any request, with the variable
/// that would hold it, as its own error (the window can tell it from other failures).
#[test]
fn a_missing_key_is_its_own_error_naming_the_service_and_the_variable() {
    for (provider, host, var) in [
        ("anthropic", "api.anthropic.com", "ANTHROPIC_API_KEY"),
        ("openai", "api.openai.com", "OPENAI_API_KEY"),
    ] {
        let file = SettingsFile {
            provider: Some(provider.into()),
            ..SettingsFile::default()
        };
        let choice = provider_choice(&env(&[]), &file).unwrap();
        let Err(error) = askfirst_core::app::catalog::make_provider(&choice) else {
            panic!("{provider} without a key was built")
        };
        assert_eq!(
            error.code(),
            askfirst_core::provider::ProviderErrorCode::MissingKey
        );
        assert_eq!(
            error.to_string(),
            format!("Add your API key for {host} in the settings (or {var}).")
        );
    }
}

#[test]
fn the_approval_timeout_has_one_rule() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let at = |secs: &str| {
        AppConfig::resolve(
            env(&[
                ("ASKFIRST_DATA_DIR", data.to_str().unwrap()),
                ("ASKFIRST_APPROVAL_TIMEOUT_SECS", secs),
            ]),
            None,
        )
        .map(|c| c.approval_timeout)
    };
    // The automation contract goes down to 1 s; never above the person's maximum.
    assert_eq!(at("1").unwrap(), Duration::from_secs(1));
    assert_eq!(at("3600").unwrap(), Duration::from_secs(3600));
    assert!(at("0").is_err());
    assert!(at("3601").is_err());
    assert!(at("soon").is_err());
    assert_eq!(
        (APPROVAL_TIMEOUT_SECS.min, APPROVAL_TIMEOUT_SECS.max),
        (10, 3600)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_settings_screen_saves_inside_the_range_and_refuses_outside() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let config =
        AppConfig::resolve(env(&[("ASKFIRST_DATA_DIR", data.to_str().unwrap())]), None).unwrap();
    let backend = Backend::build(config, tokio::runtime::Handle::current()).unwrap();
    let (runtime, screen) = (backend.runtime, backend.settings);
    let request = |secs| SaveSettingsRequest {
        provider: ProviderSetting::Kind(ProviderKind::Ollama),
        base_url: String::new(),
        model: String::new(),
        api_key: None,
        clear_api_key: false,
        approval_timeout_secs: secs,
        notify: NotifyWhen::Never,
        language: None,
    };
    let refused = screen.save(&runtime, request(9)).unwrap_err();
    assert!(matches!(refused, SettingsError::TimeoutOutOfRange(9)));
    assert_eq!(refused.code(), ErrorCode::InvalidRequest);
    assert!(!data.join("settings.json").exists());
    let scripted = SaveSettingsRequest {
        provider: ProviderSetting::Scripted("/tmp/x.json".into()),
        ..request(60)
    };
    assert!(matches!(
        screen.save(&runtime, scripted).unwrap_err(),
        SettingsError::UnknownProvider(_)
    ));
    let view = screen.save(&runtime, request(10)).unwrap();
    assert_eq!(view.provider, ProviderSetting::Kind(ProviderKind::Ollama));
    assert_eq!(view.approval_timeout_secs, 10);
    assert_eq!(view.notify, NotifyWhen::Never);
    assert_eq!(screen.notify_when(), NotifyWhen::Never);
    assert_eq!(view.approval_timeout_range, APPROVAL_TIMEOUT_SECS);
    assert_eq!(
        view.providers.iter().map(|p| p.kind).collect::<Vec<_>>(),
        ProviderKind::ALL
    );
    assert_eq!(runtime.approvals().timeout(), Duration::from_secs(10));
    let saved = SettingsFile::load(&data.join("settings.json")).unwrap();
    assert_eq!(saved.provider.as_deref(), Some("ollama"));
    assert_eq!(saved.notify.as_deref(), Some("never"));
    // A broken file is never overwritten: a storage error, nothing changes.
    std::fs::write(data.join("settings.json"), "{ not json").unwrap();
    let error = screen.save(&runtime, request(20)).unwrap_err();
    assert_eq!(error.code(), ErrorCode::Storage);
    assert_eq!(
        std::fs::read_to_string(data.join("settings.json")).unwrap(),
        "{ not json"
    );
}
