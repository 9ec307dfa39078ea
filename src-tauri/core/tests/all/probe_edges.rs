//! "Test the connection" at its edges: hostile servers (an endless body, a slow drip, headers
//! that never come, a redirect away) must end the test quickly with a sentence, never hang it;
//! the test uses the settings on screen; the Ollama finder says plainly what it found.

use super::misbehaving::server::{head, read_request, serve, trickle};
use super::probe::{http, openai_answer, route, JSON, WITHIN};
use askfirst_core::app::probe::{find_local_models, probe_target, test_connection, ConnectionTest};
use askfirst_core::app::secrets::KeyStore;
use askfirst_core::app::{AppConfig, Environment};
use askfirst_core::config::SettingsFile;
use askfirst_protocol::{ConnectionOutcome, ProviderKind, TestConnectionRequest};
use pretty_assertions::assert_eq;
use std::collections::HashMap;
use std::time::Duration;
use tokio::io::AsyncWriteExt;

#[tokio::test]
async fn hostile_servers_end_the_test_quickly_with_a_sentence() {
    // An endless JSON body: cut at the bound.
    let endless = serve(|_, socket| {
        trickle(
            socket,
            head(200, &[("Content-Type", JSON)]),
            std::iter::repeat(vec![b' '; 64 * 1024]),
            Duration::ZERO,
        )
    })
    .await;
    let test = test_connection(
        ProviderKind::OpenAi,
        &http(&endless.base, None, "m"),
        Duration::from_secs(10),
    )
    .await;
    assert_eq!(
        test.outcome(),
        ConnectionOutcome::NotAnAiService,
        "{test:?}"
    );
    assert_eq!(test.detail().as_deref(), Some("reply over 262144 bytes"));
    // A body dripped a byte at a time: stopped at the deadline.
    let drip = serve(|_, socket| {
        trickle(
            socket,
            head(200, &[("Content-Type", JSON)]),
            std::iter::repeat(vec![b' ']),
            Duration::from_millis(50),
        )
    })
    .await;
    let started = std::time::Instant::now();
    let test = test_connection(ProviderKind::OpenAi, &http(&drip.base, None, "m"), WITHIN).await;
    assert_eq!(test.outcome(), ConnectionOutcome::TooSlow, "{test:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    // Headers that never come.
    let silent = serve(|_, mut socket| async move {
        read_request(&mut socket).await;
        tokio::time::sleep(Duration::from_secs(60)).await;
    })
    .await;
    let test = test_connection(ProviderKind::Ollama, &http(&silent.base, None, "m"), WITHIN).await;
    assert_eq!(test.outcome(), ConnectionOutcome::TooSlow, "{test:?}");
    assert!(
        test.sentence().contains("did not answer within"),
        "{}",
        test.sentence()
    );
    // A very long message is kept to one bounded line in the detail.
    let long = format!(
        r#"{{"error":{{"message":"{}\n{}"}}}}"#,
        "x".repeat(40_000),
        "y".repeat(10)
    );
    let (wordy, _) = route(move |_| (401, JSON, long.clone())).await;
    let test = test_connection(ProviderKind::OpenAi, &http(&wordy.base, None, "m"), WITHIN).await;
    let detail = test.detail().unwrap();
    assert!(
        detail.chars().count() <= 301 && !detail.contains('\n'),
        "{}",
        detail.len()
    );
}

#[tokio::test]
async fn a_redirect_is_not_followed_so_the_key_goes_nowhere_else() {
    let (elsewhere, seen_elsewhere) = route(|_| (200, JSON, openai_answer("stolen"))).await;
    let target = format!("{}/v1/chat/completions", elsewhere.base);
    let redirect = serve(move |_, mut socket| {
        let target = target.clone();
        async move {
            read_request(&mut socket).await;
            let head = head(302, &[("Location", &target), ("Content-Length", "0")]);
            let _ = socket.write_all(head.as_bytes()).await;
        }
    })
    .await;
    let test = test_connection(
        ProviderKind::Anthropic,
        &http(&redirect.base, Some("sk-secret"), "m"),
        WITHIN,
    )
    .await;
    assert_eq!(
        test.outcome(),
        ConnectionOutcome::NotAnAiService,
        "{test:?}"
    );
    assert!(seen_elsewhere.lock().unwrap().is_empty());
}

fn config(data: &std::path::Path, vars: &[(&str, &str)]) -> AppConfig {
    let mut all: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    all.insert("ASKFIRST_DATA_DIR".into(), data.to_str().unwrap().into());
    AppConfig::resolve(Environment::fixed(all), None).unwrap()
}

fn on_screen(
    provider: ProviderKind,
    base_url: &str,
    api_key: Option<&str>,
    clear: bool,
) -> TestConnectionRequest {
    TestConnectionRequest {
        provider,
        base_url: base_url.into(),
        model: String::new(),
        api_key: api_key.map(str::to_owned),
        clear_api_key: clear,
    }
}

#[test]
fn the_test_uses_the_settings_on_screen_with_the_saved_key_unless_another_is_typed() {
    let data = tempfile::tempdir().unwrap();
    let file = SettingsFile {
        provider: Some("openai".into()),
        base_url: Some("http://saved.example/v1".into()),
        api_key: Some("sk-saved".into()),
        ..SettingsFile::default()
    };
    file.save(&data.path().join("settings.json")).unwrap();
    let app = config(data.path(), &[]);
    let keys =
        KeyStore::settings_file_only("no keyring in this test", data.path().join("settings.json"));
    let key = |r: &TestConnectionRequest| {
        let (_, http) = probe_target(&app, &keys, r).unwrap();
        (
            http.base_url.clone(),
            http.model.clone(),
            http.api_key.map(|k| k.expose().to_owned()),
        )
    };
    // Not saved yet: the address on screen, the model's default, the saved key.
    assert_eq!(
        key(&on_screen(
            ProviderKind::OpenAi,
            "http://typed.example/v1/",
            None,
            false
        )),
        (
            "http://typed.example/v1".into(),
            "gpt-4o-mini".into(),
            Some("sk-saved".into())
        )
    );
    assert_eq!(
        key(&on_screen(
            ProviderKind::OpenAi,
            "",
            Some(" sk-typed "),
            false
        )),
        (
            "https://api.openai.com/v1".into(),
            "gpt-4o-mini".into(),
            Some("sk-typed".into())
        )
    );
    assert_eq!(
        key(&on_screen(ProviderKind::Ollama, "", None, true)).2,
        None
    );
    assert_eq!(
        probe_target(&app, &keys, &on_screen(ProviderKind::Demo, "", None, false)).unwrap_err(),
        ConnectionTest::NoServiceNeeded
    );
    let bad = probe_target(
        &app,
        &keys,
        &on_screen(ProviderKind::OpenAi, "api.example.com", None, false),
    )
    .unwrap_err();
    assert_eq!(
        bad.sentence(),
        "\"api.example.com\" is not a web address. It should look like https://api.example.com/v1."
    );
    // The environment wins where it fixes a setting, as it does for a task.
    let fixed = config(
        data.path(),
        &[
            ("OPENAI_BASE_URL", "http://env.example/v1"),
            ("OPENAI_API_KEY", "sk-env"),
        ],
    );
    let (_, http) = probe_target(
        &fixed,
        &keys,
        &on_screen(
            ProviderKind::OpenAi,
            "http://typed.example/v1",
            Some("sk-typed"),
            false,
        ),
    )
    .unwrap();
    assert_eq!(
        (http.base_url.as_str(), http.api_key.unwrap().expose()),
        ("http://env.example/v1", "sk-env")
    );
}

#[tokio::test]
async fn the_ollama_finder_lists_installed_models_or_says_plainly_there_is_none() {
    let (ollama, seen) = route(|path| match path {
        "/api/tags" => (
            200,
            JSON,
            r#"{"models":[{"name":"llama3.2:latest"},{"name":"mistral:7b\u202e"}]}"#.into(),
        ),
        _ => (404, JSON, "{}".into()),
    })
    .await;
    let found = find_local_models(&format!("{}/v1", ollama.base), WITHIN).await;
    assert!(found.running);
    assert_eq!(found.models, vec!["llama3.2:latest", "mistral:7b\\u202E"]);
    assert_eq!(
        found.sentence,
        "Ollama is running with 2 models. Choose which one answers."
    );
    assert!(seen.lock().unwrap()[0].starts_with("GET /api/tags "));

    let (empty, _) = route(|_| (200, JSON, r#"{"models":[]}"#.into())).await;
    let found = find_local_models(&empty.base, WITHIN).await;
    assert!(found.running && found.models.is_empty());
    assert!(
        found.sentence.contains("it has no models yet"),
        "{}",
        found.sentence
    );

    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let nothing = find_local_models(&format!("http://127.0.0.1:{port}/v1"), WITHIN).await;
    assert!(!nothing.running);
    assert_eq!(
        nothing.sentence,
        "No local model is running on this computer. Install Ollama (ollama.com) and start it, or \
         choose another way to answer."
    );

    let (page, _) = route(|_| (200, "text/html", "<html>router admin</html>".into())).await;
    let other = find_local_models(&page.base, WITHIN).await;
    assert!(!other.running);
    assert_eq!(
        other.sentence,
        format!(
            "Something answers at 127.0.0.1:{}, but it is not Ollama. Check the address, or \
             choose another way to answer.",
            page.port
        )
    );
}
