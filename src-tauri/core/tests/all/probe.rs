//! "Test the connection" (`askfirst_core::app::probe`) against local fake servers: every
//! outcome a person can meet, worded once, with its detail kept apart. Hostile servers, the
//! settings a test uses and the Ollama finder are in `probe_edges.rs`.

use super::misbehaving::server::{head, read_request, serve, Server};
use askfirst_core::app::probe::{test_connection, ConnectionTest};
use askfirst_core::provider::ConnectFailure;
use askfirst_core::providers::{ApiKey, HttpSettings};
use askfirst_protocol::{ConnectionOutcome, ProviderKind};
use pretty_assertions::assert_eq;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncWriteExt;

pub const WITHIN: Duration = Duration::from_millis(800);

/// A server answering each request by its path (`POST /v1/chat/completions` → `/v1/chat/completions`)
/// with `(status, content type, body)`; it records every request.
pub async fn route(
    answer: impl Fn(&str) -> (u16, &'static str, String) + Send + Sync + 'static,
) -> (Server, Arc<Mutex<Vec<String>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let answer = Arc::new(answer);
    let server = serve(move |_, mut socket| {
        let (answer, log) = (Arc::clone(&answer), Arc::clone(&log));
        async move {
            let request = read_request(&mut socket).await;
            let path = request.split(' ').nth(1).unwrap_or("").to_owned();
            log.lock().unwrap().push(request);
            let (status, content_type, body) = answer(&path);
            let head = head(status, &[("Content-Type", content_type)]);
            let _ = socket.write_all(head.as_bytes()).await;
            let _ = socket.write_all(body.as_bytes()).await;
            let _ = socket.shutdown().await;
        }
    })
    .await;
    (server, seen)
}

pub fn http(base: &str, key: Option<&str>, model: &str) -> HttpSettings {
    HttpSettings::new(base, key.map(ApiKey::new), model)
}

pub const JSON: &str = "application/json";

pub fn openai_answer(model: &str) -> String {
    format!(
        r#"{{"id":"x","model":"{model}","choices":[{{"index":0,"message":{{"role":"assistant","content":"OK"}}}}]}}"#
    )
}

#[tokio::test]
async fn an_openai_compatible_service_that_answers_works_and_names_its_model() {
    let (server, seen) = route(|path| match path {
        "/v1/chat/completions" => (200, JSON, openai_answer("fake-model-2024")),
        _ => (404, JSON, "{}".into()),
    })
    .await;
    let base = format!("{}/v1", server.base);
    let test = test_connection(
        ProviderKind::OpenAi,
        &http(&base, Some("sk-good"), "fake-model"),
        WITHIN,
    )
    .await;
    let host = format!("127.0.0.1:{}", server.port);
    assert_eq!(
        test,
        ConnectionTest::Works {
            host: host.clone(),
            model: "fake-model-2024".into()
        }
    );
    assert_eq!(
        test.sentence(),
        format!("It works: fake-model-2024 at {host} answered.")
    );
    let result = test.to_result();
    assert_eq!(result.outcome, ConnectionOutcome::Works);
    assert_eq!(result.model.as_deref(), Some("fake-model-2024"));
    let requests = seen.lock().unwrap();
    assert_eq!(requests.len(), 1, "one tiny request, no retries");
    let request = requests[0].to_lowercase();
    assert!(
        request.contains("authorization: bearer sk-good"),
        "{request}"
    );
    assert!(
        request.contains(r#""max_tokens":16"#) && request.contains(r#""stream":false"#),
        "{request}"
    );
}

#[tokio::test]
async fn anthropic_that_answers_works_with_its_key_header() {
    let (server, seen) = route(|path| match path {
        "/v1/messages" => (
            200,
            JSON,
            r#"{"id":"m","type":"message","model":"claude-test-1","content":[{"type":"text","text":"OK"}]}"#.into(),
        ),
        _ => (404, JSON, "{}".into()),
    })
    .await;
    let test = test_connection(
        ProviderKind::Anthropic,
        &http(&server.base, Some("sk-ant"), "claude-test"),
        WITHIN,
    )
    .await;
    assert_eq!(test.outcome(), ConnectionOutcome::Works, "{test:?}");
    assert_eq!(test.to_result().model.as_deref(), Some("claude-test-1"));
    let request = seen.lock().unwrap()[0].to_lowercase();
    assert!(
        request.contains("x-api-key: sk-ant") && request.contains("anthropic-version: 2023-06-01")
    );
}

#[tokio::test]
async fn a_refused_key_says_so_with_the_services_message_one_click_away() {
    for status in [401, 403] {
        let (server, _) = route(move |_| {
            (
                status,
                JSON,
                r#"{"error":{"message":"Incorrect API key provided: sk-bad"}}"#.into(),
            )
        })
        .await;
        let base = format!("{}/v1", server.base);
        let test = test_connection(
            ProviderKind::OpenAi,
            &http(&base, Some("sk-bad"), "m"),
            WITHIN,
        )
        .await;
        let host = format!("127.0.0.1:{}", server.port);
        assert_eq!(test.outcome(), ConnectionOutcome::KeyRefused);
        assert_eq!(
            test.sentence(),
            format!(
                "The key was refused by {host}. Check that you copied the whole key and that it \
                 is still valid."
            )
        );
        assert_eq!(
            test.detail().as_deref(),
            Some(format!("HTTP {status}: Incorrect API key provided: sk-bad").as_str())
        );
    }
}

#[tokio::test]
async fn nothing_listening_is_nothing_answers_and_for_ollama_here_says_how_to_get_one() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let base = format!("http://127.0.0.1:{port}/v1");
    let test = test_connection(ProviderKind::OpenAi, &http(&base, None, "m"), WITHIN).await;
    match &test {
        ConnectionTest::NothingAnswers { reason, .. } => {
            assert_eq!(*reason, ConnectFailure::Refused)
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        test.sentence(),
        format!("Nothing answers at 127.0.0.1:{port}. Check the address, and that the service is running.")
    );
    let ollama =
        test_connection(ProviderKind::Ollama, &http(&base, None, "llama3.1"), WITHIN).await;
    assert_eq!(
        ollama.sentence(),
        "No local model is running on this computer. Install Ollama (ollama.com) and start it, \
         or choose another way to answer."
    );
    assert!(
        ollama.detail().unwrap().starts_with("Refused: "),
        "{:?}",
        ollama.detail()
    );
}

#[tokio::test]
async fn a_name_that_cannot_be_found_is_nothing_answers() {
    let test = test_connection(
        ProviderKind::OpenAi,
        &http("http://no-such-host.invalid/v1", None, "m"),
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(
        test.outcome(),
        ConnectionOutcome::NothingAnswers,
        "{test:?}"
    );
    assert!(
        test.sentence()
            .starts_with("The address no-such-host.invalid could not be found."),
        "{}",
        test.sentence()
    );
}

#[tokio::test]
async fn a_web_page_or_other_json_is_not_an_ai_service() {
    let (page, _) = route(|_| {
        (
            200,
            "text/html; charset=utf-8",
            "<!doctype html><title>Sign in to the Wi-Fi</title>".into(),
        )
    })
    .await;
    let test = test_connection(ProviderKind::OpenAi, &http(&page.base, None, "m"), WITHIN).await;
    assert_eq!(
        test,
        ConnectionTest::NotAnAiService {
            host: format!("127.0.0.1:{}", page.port),
            web_page: true,
            detail: "Content-Type: text/html".into()
        }
    );
    assert!(
        test.sentence().contains("answered with a web page"),
        "{}",
        test.sentence()
    );
    let (other, _) = route(|_| (200, JSON, r#"{"hello":"world"}"#.into())).await;
    let test = test_connection(
        ProviderKind::Anthropic,
        &http(&other.base, Some("k"), "m"),
        WITHIN,
    )
    .await;
    assert_eq!(
        test.outcome(),
        ConnectionOutcome::NotAnAiService,
        "{test:?}"
    );
    assert!(test
        .sentence()
        .contains("it is not an AI service Ask First can use"));
    assert_eq!(
        test.detail().as_deref(),
        Some(r#"JSON without the API's answer: {"hello":"world"}"#)
    );
    // An address without the API (a 404 that is not about the model) is not one either.
    let (missing, _) = route(|_| (404, "text/plain", "404 page not found".into())).await;
    let test = test_connection(
        ProviderKind::OpenAi,
        &http(&missing.base, None, "m"),
        WITHIN,
    )
    .await;
    assert_eq!(
        test.outcome(),
        ConnectionOutcome::NotAnAiService,
        "{test:?}"
    );
    assert_eq!(
        test.detail().as_deref(),
        Some("HTTP 404: 404 page not found")
    );
}

#[tokio::test]
async fn an_unknown_model_lists_the_models_each_service_has() {
    let (openai, _) = route(|path| match path {
        "/v1/models" => (
            200,
            JSON,
            r#"{"object":"list","data":[{"id":"gpt-a"},{"id":"gpt-b"}]}"#.into(),
        ),
        _ => (
            404,
            JSON,
            r#"{"error":{"message":"The model `nope` does not exist","code":"model_not_found"}}"#
                .into(),
        ),
    })
    .await;
    let base = format!("{}/v1", openai.base);
    let test = test_connection(
        ProviderKind::OpenAi,
        &http(&base, Some("k"), "nope"),
        WITHIN,
    )
    .await;
    let host = format!("127.0.0.1:{}", openai.port);
    assert_eq!(
        test,
        ConnectionTest::ModelNotFound {
            host: host.clone(),
            model: "nope".into(),
            models: vec!["gpt-a".into(), "gpt-b".into()],
            detail: "The model `nope` does not exist".into()
        }
    );
    assert_eq!(
        test.sentence(),
        format!("{host} has no model called \"nope\". Choose one it has: gpt-a, gpt-b.")
    );
    assert_eq!(test.to_result().models, vec!["gpt-a", "gpt-b"]);

    let (anthropic, _) = route(|path| match path {
        "/v1/models" => (
            200,
            JSON,
            r#"{"data":[{"type":"model","id":"claude-real"}],"has_more":false}"#.into(),
        ),
        _ => (
            404,
            JSON,
            r#"{"type":"error","error":{"type":"not_found_error","message":"model: claude-nope"}}"#
                .into(),
        ),
    })
    .await;
    let test = test_connection(
        ProviderKind::Anthropic,
        &http(&anthropic.base, Some("k"), "claude-nope"),
        WITHIN,
    )
    .await;
    assert_eq!(test.to_result().models, vec!["claude-real"], "{test:?}");

    let (ollama, _) = route(|path| match path {
        "/api/tags" => (
            200,
            JSON,
            r#"{"models":[{"name":"llama3.2:latest","size":1},{"name":"qwen2.5:7b"}]}"#.into(),
        ),
        _ => (
            404,
            JSON,
            r#"{"error":{"message":"model \"llama9\" not found, try pulling it first"}}"#.into(),
        ),
    })
    .await;
    let base = format!("{}/v1", ollama.base);
    let test = test_connection(ProviderKind::Ollama, &http(&base, None, "llama9"), WITHIN).await;
    assert_eq!(
        test.to_result().models,
        vec!["llama3.2:latest", "qwen2.5:7b"],
        "{test:?}"
    );
}

#[tokio::test]
async fn too_many_requests_and_no_credit_are_told_apart() {
    let cases: [(u16, &str, ConnectionOutcome); 4] = [
        (
            429,
            r#"{"error":{"message":"Rate limit reached for requests"}}"#,
            ConnectionOutcome::RateLimited,
        ),
        (
            429,
            r#"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota"}}"#,
            ConnectionOutcome::OutOfCredit,
        ),
        (
            402,
            r#"{"error":{"message":"Payment required"}}"#,
            ConnectionOutcome::OutOfCredit,
        ),
        (
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API."}}"#,
            ConnectionOutcome::OutOfCredit,
        ),
    ];
    for (status, body, outcome) in cases {
        let (server, seen) = route(move |_| (status, JSON, body.into())).await;
        let test =
            test_connection(ProviderKind::OpenAi, &http(&server.base, None, "m"), WITHIN).await;
        assert_eq!(test.outcome(), outcome, "{status} {body}: {test:?}");
        assert_eq!(seen.lock().unwrap().len(), 1, "a test is never retried");
    }
    let (server, _) = route(|_| (429, JSON, "{}".into())).await;
    let test = test_connection(ProviderKind::OpenAi, &http(&server.base, None, "m"), WITHIN).await;
    assert!(test
        .sentence()
        .ends_with("too many requests right now. Wait a minute and test again."));
}

#[tokio::test]
async fn trouble_on_the_services_side_and_other_refusals() {
    let (server, _) = route(|_| (503, JSON, r#"{"error":{"message":"overloaded"}}"#.into())).await;
    let test = test_connection(ProviderKind::OpenAi, &http(&server.base, None, "m"), WITHIN).await;
    let host = format!("127.0.0.1:{}", server.port);
    assert_eq!(
        test,
        ConnectionTest::ServiceTrouble {
            host: host.clone(),
            status: Some(503),
            detail: "overloaded".into()
        }
    );
    assert_eq!(
        test.sentence(),
        format!("{host} is having trouble on its side (error 503). Try again later.")
    );
    let (server, _) = route(|_| (422, JSON, r#"{"error":{"message":"bad field"}}"#.into())).await;
    let test = test_connection(ProviderKind::OpenAi, &http(&server.base, None, "m"), WITHIN).await;
    assert_eq!(test.outcome(), ConnectionOutcome::Refused);
    assert_eq!(test.detail().as_deref(), Some("HTTP 422: bad field"));
}

#[tokio::test]
async fn a_missing_key_is_said_before_anything_is_sent() {
    let test = test_connection(
        ProviderKind::Anthropic,
        &http("http://127.0.0.1:9/", None, "claude"),
        WITHIN,
    )
    .await;
    assert_eq!(
        test,
        ConnectionTest::MissingKey {
            host: "127.0.0.1:9".into()
        }
    );
    assert_eq!(
        test.sentence(),
        "127.0.0.1:9 needs an API key. Paste your key above, then test again."
    );
    assert_eq!(test.detail(), None);
}
