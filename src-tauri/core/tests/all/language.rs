//! The language setting: the desktop's language read the way gettext reads it, and the choice
//! in the settings screen saved, shown and undone.

use askfirst_core::app::settings::{
    desktop_language, effective_language, language_tag, locale_language, parse_language_tag,
    LANGUAGES,
};
use askfirst_core::app::{AppConfig, Backend, Environment};
use askfirst_core::config::SettingsFile;
use askfirst_protocol::{Language, NotifyWhen, ProviderKind, ProviderSetting, SaveSettingsRequest};
use pretty_assertions::assert_eq;
use std::collections::HashMap;

fn env(vars: &[(&str, &str)]) -> Environment {
    Environment::fixed(
        vars.iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect::<HashMap<_, _>>(),
    )
}

#[test]
fn locale_names_map_to_the_languages_spoken() {
    let cases = [
        ("zh_CN.UTF-8", Some(Language::ZhCn)),
        ("zh_SG", Some(Language::ZhCn)),
        ("zh-Hans", Some(Language::ZhCn)),
        ("zh", Some(Language::ZhCn)),
        ("pt_BR.UTF-8", Some(Language::PtBr)),
        ("pt", Some(Language::PtBr)),
        ("pt-BR", Some(Language::PtBr)),
        ("en_GB.UTF-8@euro", Some(Language::En)),
        ("en", Some(Language::En)),
        ("zh_TW.UTF-8", None),
        ("pt_PT", None),
        ("fr_FR.UTF-8", None),
        ("C", None),
        ("C.UTF-8", None),
        ("POSIX", None),
        ("", None),
    ];
    for (locale, expected) in cases {
        assert_eq!(locale_language(locale), expected, "{locale:?}");
    }
}

#[test]
fn the_desktop_language_follows_the_posix_order() {
    let at = |vars: &[(&str, &str)]| desktop_language(&env(vars));
    assert_eq!(at(&[]), Language::En);
    assert_eq!(at(&[("LANG", "zh_CN.UTF-8")]), Language::ZhCn);
    assert_eq!(at(&[("LANG", "pt_BR.UTF-8")]), Language::PtBr);
    assert_eq!(at(&[("LANG", "fr_FR.UTF-8")]), Language::En);
    // LC_MESSAGES over LANG, LC_ALL over both.
    assert_eq!(
        at(&[("LANG", "en_US.UTF-8"), ("LC_MESSAGES", "pt_BR.UTF-8")]),
        Language::PtBr
    );
    assert_eq!(
        at(&[
            ("LANG", "en_US.UTF-8"),
            ("LC_MESSAGES", "pt_BR.UTF-8"),
            ("LC_ALL", "zh_CN.UTF-8")
        ]),
        Language::ZhCn
    );
    // A blank variable counts as unset.
    assert_eq!(
        at(&[("LANG", "pt_BR.UTF-8"), ("LC_ALL", " ")]),
        Language::PtBr
    );
    // LANGUAGE's list comes first, in order, skipping what Ask First does not speak.
    assert_eq!(
        at(&[("LANG", "en_US.UTF-8"), ("LANGUAGE", "fr:pt_BR:zh_CN")]),
        Language::PtBr
    );
    assert_eq!(
        at(&[("LANG", "zh_CN.UTF-8"), ("LANGUAGE", "fr:de")]),
        Language::ZhCn
    );
    // ... but gettext ignores it under the C locale.
    assert_eq!(at(&[("LANG", "C"), ("LANGUAGE", "pt_BR")]), Language::En);
}

#[test]
fn tags_round_trip_and_match_the_wire() {
    for language in LANGUAGES {
        let tag = language_tag(language);
        assert_eq!(parse_language_tag(tag), Some(language));
        assert_eq!(
            serde_json::to_string(&language).unwrap(),
            format!("\"{tag}\"")
        );
    }
    assert_eq!(parse_language_tag("zh_CN"), None);
    let desktop = env(&[("LANG", "pt_BR.UTF-8")]);
    assert_eq!(effective_language(None, &desktop), Language::PtBr);
    assert_eq!(effective_language(Some("zh-CN"), &desktop), Language::ZhCn);
    assert_eq!(
        effective_language(Some("klingon"), &desktop),
        Language::PtBr
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_settings_screen_saves_the_language_and_follows_the_desktop_again() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let vars = [
        ("ASKFIRST_DATA_DIR", data.to_str().unwrap()),
        ("LANG", "pt_BR.UTF-8"),
    ];
    let config = AppConfig::resolve(env(&vars), None).unwrap();
    let backend = Backend::build(config, tokio::runtime::Handle::current()).unwrap();
    let (runtime, screen) = (backend.runtime, backend.settings);
    let before = screen.view(&runtime);
    assert_eq!(
        (before.language, before.effective_language),
        (None, Language::PtBr)
    );
    let request = |language| SaveSettingsRequest {
        provider: ProviderSetting::Kind(ProviderKind::Demo),
        base_url: String::new(),
        model: String::new(),
        api_key: None,
        clear_api_key: false,
        approval_timeout_secs: 60,
        notify: NotifyWhen::Never,
        language,
    };
    let chosen = screen
        .save(&runtime, request(Some(Language::ZhCn)))
        .unwrap();
    assert_eq!(
        (chosen.language, chosen.effective_language),
        (Some(Language::ZhCn), Language::ZhCn)
    );
    let saved = SettingsFile::load(&data.join("settings.json")).unwrap();
    assert_eq!(saved.language.as_deref(), Some("zh-CN"));
    assert_eq!(screen.language(), Language::ZhCn);
    let desktop = screen.save(&runtime, request(None)).unwrap();
    assert_eq!(
        (desktop.language, desktop.effective_language),
        (None, Language::PtBr)
    );
    let saved = SettingsFile::load(&data.join("settings.json")).unwrap();
    assert_eq!(saved.language, None);
    assert_eq!(screen.language(), Language::PtBr);
}
