//! API keys where no keyring runs (`askfirst_core::app::secrets`): an environment without a
//! session bus keeps them in the owner-only settings file, by address; a key is given only to
//! the address it was saved for; a key of an earlier version is bound to the address in force;
//! the settings screen says where the key is and never shows it. The same with a real keyring:
//! `keyring.rs`.

use askfirst_core::app::catalog::{provider_choice, ProviderChoice};
use askfirst_core::app::secrets::key_address;
use askfirst_core::app::{AppConfig, Backend, Environment, KeyStore};
use askfirst_core::config::SettingsFile;
use askfirst_protocol::{KeyPlace, NotifyWhen, ProviderKind, ProviderSetting, SaveSettingsRequest};
use pretty_assertions::assert_eq;
use std::collections::HashMap;

fn env(vars: &[(&str, &str)]) -> Environment {
    Environment::fixed(
        vars.iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect::<HashMap<_, _>>(),
    )
}

/// The saving request of the settings screen for an OpenAI-compatible service at `base_url`.
pub fn save_openai(base_url: &str, api_key: Option<&str>, clear: bool) -> SaveSettingsRequest {
    SaveSettingsRequest {
        provider: ProviderSetting::Kind(ProviderKind::OpenAi),
        base_url: base_url.to_owned(),
        model: "m".to_owned(),
        api_key: api_key.map(str::to_owned),
        clear_api_key: clear,
        approval_timeout_secs: 60,
        notify: NotifyWhen::Never,
        language: None,
    }
}

/// The key the provider in force gets, from the saved settings (`None`: no key).
pub fn key_sent(env: &Environment, keys: &KeyStore) -> Option<String> {
    // As the provider factory does: the file's keys have moved before it is read.
    let file = keys.load().unwrap();
    match keys.with_saved_key(provider_choice(env, &file).unwrap(), &file) {
        ProviderChoice::Http { http, .. } => http.api_key.map(|k| k.expose().to_owned()),
        other => panic!("not an HTTP provider: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_session_bus_keys_stay_in_the_settings_file_for_their_address() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let e = env(&[("ASKFIRST_DATA_DIR", data.to_str().unwrap())]);
    let config = AppConfig::resolve(e.clone(), None).unwrap();
    let backend = Backend::build(config, tokio::runtime::Handle::current()).unwrap();
    let (runtime, screen) = (backend.runtime, backend.settings);
    assert!(!screen.keys().uses_keyring());

    let view = screen
        .save(&runtime, save_openai("https://one.test/v1", None, false))
        .unwrap();
    assert!(!view.has_api_key);
    assert_eq!(
        (view.key_storage.place, view.key_storage.sentence.as_str()),
        (KeyPlace::SettingsFile, "No keyring is available on this computer, so a key you save here is kept in Ask First's settings file, readable only by you.")
    );
    assert!(view
        .key_storage
        .detail
        .unwrap()
        .contains("DBUS_SESSION_BUS_ADDRESS"));

    let view = screen
        .save(
            &runtime,
            save_openai("https://one.test/v1", Some(" sk-one "), false),
        )
        .unwrap();
    assert!(view.has_api_key);
    assert_eq!(
        (view.key_storage.place, view.key_storage.sentence.as_str()),
        (KeyPlace::SettingsFile, "No keyring is available on this computer, so your key is kept in Ask First's settings file, readable only by you.")
    );
    // The view never carries the key.
    assert!(!serde_json::to_string(&view).unwrap().contains("sk-one"));
    let file = SettingsFile::load(&data.join("settings.json")).unwrap();
    assert_eq!(
        file.api_keys,
        [("https://one.test".to_owned(), "sk-one".to_owned())].into()
    );
    assert_eq!(file.api_key, None);
    assert!(
        !format!("{file:?}").contains("sk-one"),
        "Debug shows the key"
    );
    assert_eq!(key_sent(&e, screen.keys()).as_deref(), Some("sk-one"));

    // Another address does not get it, and keeps its own.
    let view = screen
        .save(&runtime, save_openai("https://two.test/v1", None, false))
        .unwrap();
    assert!(!view.has_api_key);
    assert_eq!(key_sent(&e, screen.keys()), None);
    screen
        .save(
            &runtime,
            save_openai("https://two.test", Some("sk-two"), false),
        )
        .unwrap();
    assert_eq!(key_sent(&e, screen.keys()).as_deref(), Some("sk-two"));
    screen
        .save(&runtime, save_openai("https://one.test/v1/", None, false))
        .unwrap();
    assert_eq!(key_sent(&e, screen.keys()).as_deref(), Some("sk-one"));

    // Removing it removes this address's key only.
    let view = screen
        .save(&runtime, save_openai("https://one.test/v1", None, true))
        .unwrap();
    assert!(!view.has_api_key);
    assert_eq!(key_sent(&e, screen.keys()), None);
    let file = SettingsFile::load(&data.join("settings.json")).unwrap();
    assert_eq!(
        file.api_keys.keys().collect::<Vec<_>>(),
        ["https://two.test"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_of_an_earlier_version_is_bound_to_the_address_in_force() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let old = SettingsFile {
        provider: Some("anthropic".into()),
        api_key: Some("sk-old".into()),
        ..SettingsFile::default()
    };
    old.save(&data.join("settings.json")).unwrap();
    let e = env(&[("ASKFIRST_DATA_DIR", data.to_str().unwrap())]);
    let config = AppConfig::resolve(e.clone(), None).unwrap();
    let backend = Backend::build(config, tokio::runtime::Handle::current()).unwrap();
    // Building the backend does not look for the keyring (a `bwrap` run and a D-Bus call):
    // the app finds where keys are kept while its window opens, and the key is bound then.
    let before = SettingsFile::load(&data.join("settings.json")).unwrap();
    assert_eq!(before.api_key.as_deref(), Some("sk-old"));
    backend.settings.keys().find();
    let file = SettingsFile::load(&data.join("settings.json")).unwrap();
    assert_eq!(file.api_key, None);
    assert_eq!(
        file.api_keys,
        [("https://api.anthropic.com".to_owned(), "sk-old".to_owned())].into()
    );
    assert_eq!(
        key_sent(&e, backend.settings.keys()).as_deref(),
        Some("sk-old")
    );
    // Pointed elsewhere, the old key is not sent there.
    backend
        .settings
        .save(
            &backend.runtime,
            save_openai("https://elsewhere.test/v1", None, false),
        )
        .unwrap();
    assert_eq!(key_sent(&e, backend.settings.keys()), None);
}

#[test]
fn the_environment_s_key_still_wins_and_the_screen_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let file = SettingsFile {
        provider: Some("openai".into()),
        api_keys: [(
            key_address("https://api.openai.com/v1"),
            "sk-file".to_owned(),
        )]
        .into(),
        ..SettingsFile::default()
    };
    file.save(&data.join("settings.json")).unwrap();
    let e = env(&[
        ("ASKFIRST_DATA_DIR", data.to_str().unwrap()),
        ("OPENAI_API_KEY", "sk-env"),
    ]);
    let keys = KeyStore::for_settings(&e, data.join("settings.json"));
    assert_eq!(key_sent(&e, &keys).as_deref(), Some("sk-env"));
    let (has_key, storage) = keys.storage(
        &e,
        Some(askfirst_core::app::catalog::ApiFamily::OpenAi),
        &keys.load().unwrap(),
        Some("https://api.openai.com"),
    );
    assert!(has_key);
    assert_eq!(storage.place, KeyPlace::Environment);
    assert_eq!(
        storage.sentence,
        "Your key comes from the environment variable OPENAI_API_KEY, which wins over the \
         settings."
    );
}

/// The settings screen says where the key is in the person's language (it was English in
/// every language): a key to be saved in the settings file, in Portuguese; a key from the
/// environment, in Chinese, naming the variable as it is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn where_the_key_is_kept_is_said_in_the_persons_language() {
    use askfirst_core::i18n::{with_language, Language};
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let e = env(&[("ASKFIRST_DATA_DIR", data.to_str().unwrap())]);
    let backend = Backend::build(
        AppConfig::resolve(e, None).unwrap(),
        tokio::runtime::Handle::current(),
    )
    .unwrap();
    let view = with_language(Language::PtBr, || {
        backend
            .settings
            .save(
                &backend.runtime,
                save_openai("https://one.test/v1", None, false),
            )
            .unwrap()
    });
    assert_eq!(
        view.key_storage.sentence,
        "Não há nenhum chaveiro neste computador, então uma chave que você salvar aqui fica \
         guardada no arquivo de configurações do Ask First, que só você pode ler."
    );

    let data = dir.path().join("data-env");
    let e = env(&[
        ("ASKFIRST_DATA_DIR", data.to_str().unwrap()),
        ("OPENAI_API_KEY", "sk-from-env"),
    ]);
    let backend = Backend::build(
        AppConfig::resolve(e, None).unwrap(),
        tokio::runtime::Handle::current(),
    )
    .unwrap();
    let view = with_language(Language::ZhCn, || {
        backend
            .settings
            .save(
                &backend.runtime,
                save_openai("https://one.test/v1", None, false),
            )
            .unwrap()
    });
    assert_eq!(
        (view.key_storage.place, view.key_storage.sentence.as_str()),
        (
            KeyPlace::Environment,
            "你的密钥来自环境变量 OPENAI_API_KEY，它优先于设置中的密钥。"
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changes_saved_side_by_side_never_bring_back_a_replaced_key() {
    // The window's commands run side by side: a key saved while the welcome is marked done
    // (another change of the same file) must not be undone by a copy read before it.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let e = env(&[("ASKFIRST_DATA_DIR", data.to_str().unwrap())]);
    let config = AppConfig::resolve(e.clone(), None).unwrap();
    let backend =
        std::sync::Arc::new(Backend::build(config, tokio::runtime::Handle::current()).unwrap());
    let other = {
        let backend = backend.clone();
        std::thread::spawn(move || {
            for _ in 0..300 {
                backend.settings.finish_welcome().unwrap();
            }
        })
    };
    for i in 0..300 {
        let key = format!("sk-{i}");
        backend
            .settings
            .save(
                &backend.runtime,
                save_openai("https://api.openai.com/v1", Some(&key), false),
            )
            .unwrap();
        // Whatever the other change does meanwhile, the key just saved is the one in force.
        assert_eq!(
            key_sent(&e, backend.settings.keys()).as_deref(),
            Some(key.as_str())
        );
    }
    other.join().unwrap();
    assert_eq!(
        key_sent(&e, backend.settings.keys()).as_deref(),
        Some("sk-299")
    );
}
