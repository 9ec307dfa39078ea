//! The settings domain, named once: where each setting comes from (the environment over
//! `settings.json` over the defaults: [`ENVIRONMENT`] is the one precedence table), the ranges a
//! setting accepts, and [`AppConfig`], the settings the app starts with (DESIGN.md §6, the
//! automation contract).
//!
//! - `ASKFIRST_DATA_DIR`: all state; default the platform's data folder + `askfirst`.
//! - `ASKFIRST_WORKSPACE`: the folder tools may work in, for every conversation of the launch
//!   (it wins over the folder chosen in the window, `settings.json`'s `workspace`); default that
//!   chosen folder, else the demo folder (`<data dir>/Demo folder`, or its name in the language
//!   in force when it is first made: [`demo_folder_in`]), created with a few sample files on
//!   first launch.
//! - `ASKFIRST_PROVIDER`: `demo` (default), `scripted:<path to scenario file>`, or a provider of
//!   the catalogue (`super::catalog::CATALOGUE`: `openai`, `ollama`, `anthropic`), with its
//!   address, key and model from the variables of its family in [`ENVIRONMENT`].
//! - `ASKFIRST_APPROVAL_TIMEOUT_SECS`: seconds a request waits (default 120; the rule is
//!   [`APPROVAL_TIMEOUT_SECS`]).
//! - `ASKFIRST_NOTIFY`: `always`, `unfocused` (default) or `never`.
//! - `ASKFIRST_TASK`: a task to start at launch.
//! - The language: `settings.json`'s `language`, else the desktop's ([`desktop_language`]:
//!   `LANGUAGE`, then `LC_ALL`, `LC_MESSAGES`, `LANG`).

use super::catalog::{provider_choice, ApiFamily, ProviderChoice, UnknownProvider};
use crate::approvals::DEFAULT_APPROVAL_TIMEOUT;
use crate::config::SettingsFile;
use askfirst_protocol::{Language, NotifyWhen, WholeRange};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The approval timeout rule, one for every way it is set. A person chooses from 10 s (time to
/// read a card) to 3600 s (an hour) in the settings screen, and that is what the screen, the
/// `save_settings` command and the window's field accept. The environment variable
/// `ASKFIRST_APPROVAL_TIMEOUT_SECS` and a hand-edited `settings.json` are the automation
/// contract: they may go down to [`APPROVAL_TIMEOUT_MIN_AUTOMATED_SECS`] (1 s, so tests of a
/// timeout need not wait), never above the same 3600 s.
pub const APPROVAL_TIMEOUT_SECS: WholeRange = WholeRange { min: 10, max: 3600 };

/// The shortest approval timeout the environment or `settings.json` may set (see
/// [`APPROVAL_TIMEOUT_SECS`]).
pub const APPROVAL_TIMEOUT_MIN_AUTOMATED_SECS: u64 = 1;

/// A setting the environment may fix, by its name in `SettingsView::set_by_environment`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// `provider`.
    Provider,
    /// `base_url`.
    BaseUrl,
    /// `model`.
    Model,
    /// `api_key`.
    ApiKey,
    /// `approval_timeout_secs`.
    ApprovalTimeoutSecs,
    /// `notify`.
    Notify,
}

impl Setting {
    /// Its name, as in `settings.json` and `SettingsView::set_by_environment`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Provider => "provider",
            Self::BaseUrl => "base_url",
            Self::Model => "model",
            Self::ApiKey => "api_key",
            Self::ApprovalTimeoutSecs => "approval_timeout_secs",
            Self::Notify => "notify",
        }
    }
}

/// The environment variables that win over one setting: `common` first, then those of the
/// provider's family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnvOverride {
    /// The setting.
    pub setting: Setting,
    /// Variables for every provider, in order.
    pub common: &'static [&'static str],
    /// Variables of OpenAI-compatible providers.
    pub openai: &'static [&'static str],
    /// Variables of Anthropic.
    pub anthropic: &'static [&'static str],
}

impl EnvOverride {
    /// The variables in precedence order for a provider of `family`; `None` (no HTTP provider
    /// in force) lists every family's.
    pub fn vars(&self, family: Option<ApiFamily>) -> Vec<&'static str> {
        let by_family: &[&[&'static str]] = match family {
            Some(ApiFamily::OpenAi) => &[self.openai],
            Some(ApiFamily::Anthropic) => &[self.anthropic],
            None => &[self.openai, self.anthropic],
        };
        let mut out = self.common.to_vec();
        out.extend(by_family.iter().flat_map(|v| v.iter().copied()));
        out
    }
}

/// The environment precedence table: for each setting of the settings screen, the variables
/// that win over `settings.json`, first found wins.
pub const ENVIRONMENT: [EnvOverride; 6] = [
    EnvOverride {
        setting: Setting::Provider,
        common: &["ASKFIRST_PROVIDER"],
        openai: &[],
        anthropic: &[],
    },
    EnvOverride {
        setting: Setting::BaseUrl,
        common: &[],
        openai: &["OPENAI_BASE_URL"],
        anthropic: &["ANTHROPIC_BASE_URL"],
    },
    EnvOverride {
        setting: Setting::Model,
        common: &["ASKFIRST_MODEL"],
        openai: &["OPENAI_MODEL"],
        anthropic: &["ANTHROPIC_MODEL"],
    },
    EnvOverride {
        setting: Setting::ApiKey,
        common: &[],
        openai: &["OPENAI_API_KEY"],
        anthropic: &["ANTHROPIC_API_KEY"],
    },
    EnvOverride {
        setting: Setting::ApprovalTimeoutSecs,
        common: &["ASKFIRST_APPROVAL_TIMEOUT_SECS"],
        openai: &[],
        anthropic: &[],
    },
    EnvOverride {
        setting: Setting::Notify,
        common: &["ASKFIRST_NOTIFY"],
        openai: &[],
        anthropic: &[],
    },
];

fn row(setting: Setting) -> &'static EnvOverride {
    match setting {
        Setting::Provider => &ENVIRONMENT[0],
        Setting::BaseUrl => &ENVIRONMENT[1],
        Setting::Model => &ENVIRONMENT[2],
        Setting::ApiKey => &ENVIRONMENT[3],
        Setting::ApprovalTimeoutSecs => &ENVIRONMENT[4],
        Setting::Notify => &ENVIRONMENT[5],
    }
}

/// The environment the settings are read from: the process's, or a fixed map in tests. Blank
/// values count as unset.
#[derive(Clone)]
pub struct Environment(Arc<Lookup>);

/// Reads one variable.
type Lookup = dyn Fn(&str) -> Option<String> + Send + Sync;

impl std::fmt::Debug for Environment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Environment")
    }
}

impl Environment {
    /// The process environment.
    pub fn process() -> Self {
        Self(Arc::new(|name| std::env::var(name).ok()))
    }

    /// A fixed environment (for tests and other front ends).
    pub fn fixed(vars: HashMap<String, String>) -> Self {
        Self(Arc::new(move |name| vars.get(name).cloned()))
    }

    /// The value of `name`, if set and not blank.
    pub fn var(&self, name: &str) -> Option<String> {
        (self.0)(name).filter(|v| !v.trim().is_empty())
    }

    /// The first value set among the variables of `setting` for `family` ([`ENVIRONMENT`]).
    pub fn first(&self, setting: Setting, family: Option<ApiFamily>) -> Option<String> {
        row(setting)
            .vars(family)
            .into_iter()
            .find_map(|name| self.var(name))
    }

    /// The settings the environment fixes now, by name, in table order.
    pub fn set_by_environment(&self, family: Option<ApiFamily>) -> Vec<String> {
        ENVIRONMENT
            .iter()
            .filter(|r| r.vars(family).iter().any(|v| self.var(v).is_some()))
            .map(|r| r.setting.as_str().to_owned())
            .collect()
    }
}

/// Why the settings could not be resolved at start.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// No data folder on this platform and no `ASKFIRST_DATA_DIR`.
    #[error("this system has no data folder; set ASKFIRST_DATA_DIR")]
    NoDataDir,
    /// An unknown provider name.
    #[error(transparent)]
    UnknownProvider(#[from] UnknownProvider),
    /// A timeout that is not a whole number in the automation range.
    #[error(
        "ASKFIRST_APPROVAL_TIMEOUT_SECS must be a whole number of seconds from \
         {APPROVAL_TIMEOUT_MIN_AUTOMATED_SECS} to {max}, not {value:?}", max = APPROVAL_TIMEOUT_SECS.max, value = .0
    )]
    Timeout(String),
    /// An unknown notification setting.
    #[error("ASKFIRST_NOTIFY must be always, unfocused or never, not {0:?}")]
    Notify(String),
}

/// The settings the app starts with.
#[derive(Debug, Clone)]
pub struct AppConfig {
    /// All state lives here.
    pub data_dir: PathBuf,
    /// The folder tools work in.
    pub workspace: PathBuf,
    /// Whether `workspace` is the demo folder (created with sample files when missing).
    pub workspace_is_demo: bool,
    /// Which model answers.
    pub provider: ProviderChoice,
    /// Whether `provider` is fixed for the whole launch (set by `ASKFIRST_PROVIDER`); when
    /// not, each run reads the settings file again, so the settings screen applies.
    pub provider_fixed: bool,
    /// How long a request waits.
    pub approval_timeout: Duration,
    /// A task to start at launch.
    pub autostart_task: Option<String>,
    /// When to send notifications.
    pub notify_when: NotifyWhen,
    /// The most bytes the before-copies of Undo may take together (`settings.json`'s
    /// `undo_cap_bytes`; default [`crate::undo::DEFAULT_UNDO_CAP_BYTES`], 1 GB); over it the
    /// oldest copies are cleared, and a file over a quarter of it is not copied.
    pub undo_cap_bytes: u64,
    /// Where the settings were read from (read again for the settings screen).
    pub env: Environment,
}

/// Parses an approval timeout from the environment or `settings.json`
/// ([`APPROVAL_TIMEOUT_SECS`], [`APPROVAL_TIMEOUT_MIN_AUTOMATED_SECS`]).
///
/// # Errors
/// [`ConfigError::Timeout`].
pub fn automated_timeout(text: &str) -> Result<Duration, ConfigError> {
    match text.trim().parse::<u64>() {
        Ok(secs)
            if (APPROVAL_TIMEOUT_MIN_AUTOMATED_SECS..=APPROVAL_TIMEOUT_SECS.max)
                .contains(&secs) =>
        {
            Ok(Duration::from_secs(secs))
        }
        _ => Err(ConfigError::Timeout(text.to_owned())),
    }
}

/// The demo folder inside `data_dir`, in the language in force now ([`demo_folder_in`]).
pub fn demo_folder(data_dir: &std::path::Path) -> PathBuf {
    demo_folder_in(data_dir, crate::i18n::language())
}

/// The demo folder inside `data_dir`: the one already there under any language's name
/// (`demo-folder-name` in `locales/*/app.ftl`, English's `Demo folder` first, so every folder
/// made before the names were translated stays where it is), else `<data dir>/<its name in
/// language>` for one to be made. It is named once, when it is made: a later change of
/// language does not move it (the conversations remember its path).
pub fn demo_folder_in(data_dir: &std::path::Path, language: Language) -> PathBuf {
    demo_folder_names()
        .map(|name| data_dir.join(name))
        .find(|dir| dir.is_dir())
        .unwrap_or_else(|| data_dir.join(demo_folder_name(language)))
}

/// The demo folder's name in `language`: one path component (a catalogue's text that is not
/// one falls back to English's; a test checks every catalogue).
pub fn demo_folder_name(language: Language) -> String {
    let name = crate::i18n::tr_in(language, "demo-folder-name", &[]);
    if is_one_component(&name) {
        name
    } else {
        "Demo folder".to_owned()
    }
}

/// Every language's name for the demo folder, English first.
fn demo_folder_names() -> impl Iterator<Item = String> {
    LANGUAGES.into_iter().map(demo_folder_name)
}

fn is_one_component(name: &str) -> bool {
    let mut parts = std::path::Path::new(name).components();
    matches!(
        (parts.next(), parts.next()),
        (Some(std::path::Component::Normal(_)), None)
    ) && !name.contains(['/', '\\'])
}

impl AppConfig {
    /// Whether `ASKFIRST_WORKSPACE` fixes the folder for the whole launch (every conversation
    /// works there; the window cannot change it and says so).
    pub fn workspace_fixed(&self) -> bool {
        self.env.var("ASKFIRST_WORKSPACE").is_some()
    }

    /// The demo folder of this data folder ([`demo_folder_in`]): a new one is named in the
    /// language in force (`settings.json`'s, else the desktop's).
    pub fn demo_folder(&self) -> PathBuf {
        let file = SettingsFile::load(&self.settings_path()).unwrap_or_default();
        demo_folder_in(
            &self.data_dir,
            effective_language(file.language.as_deref(), &self.env),
        )
    }

    /// Where the settings file is.
    pub fn settings_path(&self) -> PathBuf {
        self.data_dir.join("settings.json")
    }

    /// Where the rules file is.
    pub fn rules_path(&self) -> PathBuf {
        self.data_dir.join("rules.toml")
    }

    /// The settings from `env` over `settings.json` over the defaults. A settings file with a
    /// mistake does not keep the app from opening: the defaults are used, the settings screen
    /// says what is wrong, and a task that needs the file stops with that message.
    ///
    /// `platform_data_dir` is the platform's folder for application data (the shell passes
    /// `dirs::data_dir()`), used when `ASKFIRST_DATA_DIR` is not set.
    ///
    /// # Errors
    /// [`ConfigError`].
    pub fn resolve(
        env: Environment,
        platform_data_dir: Option<PathBuf>,
    ) -> Result<Self, ConfigError> {
        let data_dir = match env.var("ASKFIRST_DATA_DIR") {
            Some(dir) => PathBuf::from(dir),
            None => platform_data_dir
                .ok_or(ConfigError::NoDataDir)?
                .join("askfirst"),
        };
        let file = SettingsFile::load(&data_dir.join("settings.json")).unwrap_or_else(|error| {
            eprintln!("askfirst: {error}; starting with the default settings");
            SettingsFile::default()
        });
        let (workspace, workspace_is_demo) =
            match (env.var("ASKFIRST_WORKSPACE"), file.workspace.clone()) {
                (Some(dir), _) => (PathBuf::from(dir), false),
                (None, Some(chosen)) => (chosen, false),
                (None, None) => (
                    demo_folder_in(
                        &data_dir,
                        effective_language(file.language.as_deref(), &env),
                    ),
                    true,
                ),
            };
        let approval_timeout = match env
            .first(Setting::ApprovalTimeoutSecs, None)
            .or(file.approval_timeout_secs.map(|s| s.to_string()))
        {
            None => DEFAULT_APPROVAL_TIMEOUT,
            Some(secs) => automated_timeout(&secs)?,
        };
        let notify_when = match env.first(Setting::Notify, None).or(file.notify.clone()) {
            None => NotifyWhen::default(),
            Some(value) => NotifyWhen::parse(value.trim()).ok_or(ConfigError::Notify(value))?,
        };
        Ok(Self {
            provider: provider_choice(&env, &file)?,
            provider_fixed: env.first(Setting::Provider, None).is_some(),
            autostart_task: env.var("ASKFIRST_TASK"),
            data_dir,
            workspace,
            workspace_is_demo,
            approval_timeout,
            notify_when,
            undo_cap_bytes: file
                .undo_cap_bytes
                .unwrap_or(crate::undo::DEFAULT_UNDO_CAP_BYTES),
            env,
        })
    }
}

/// Every language Ask First speaks, English first (the one used when nothing else fits).
pub const LANGUAGES: [Language; 3] = [Language::En, Language::ZhCn, Language::PtBr];

/// The BCP 47 tag of `language` (`en`, `zh-CN`, `pt-BR`), as in `settings.json` and on the wire.
pub fn language_tag(language: Language) -> &'static str {
    match language {
        Language::En => "en",
        Language::ZhCn => "zh-CN",
        Language::PtBr => "pt-BR",
    }
}

/// The language whose tag is exactly `tag` ([`language_tag`]), if Ask First speaks it.
pub fn parse_language_tag(tag: &str) -> Option<Language> {
    LANGUAGES.into_iter().find(|l| language_tag(*l) == tag)
}

/// The language of one POSIX locale name or BCP 47 tag (`zh_CN.UTF-8`, `pt_BR`, `zh-Hans`,
/// `en_GB.UTF-8@euro`): Simplified Chinese for `zh`, `zh_CN`, `zh_SG` and `zh-Hans…`; Brazilian
/// Portuguese for `pt_BR` and plain `pt`; English for `en…`. `None` for anything else (`C`,
/// `POSIX`, `fr_FR`, `zh_TW`, `pt_PT`), so a caller can go on to the next candidate.
pub fn locale_language(locale: &str) -> Option<Language> {
    let name = locale.split(['.', '@']).next().unwrap_or_default();
    let name = name.trim().replace('-', "_").to_ascii_lowercase();
    let mut parts = name.split('_');
    let lang = parts.next().unwrap_or_default();
    let region = parts.next();
    match (lang, region) {
        ("zh", None | Some("cn" | "sg" | "hans")) => Some(Language::ZhCn),
        ("pt", None | Some("br")) => Some(Language::PtBr),
        ("en", _) => Some(Language::En),
        _ => None,
    }
}

/// The desktop's language, the way gettext reads it: the locale for messages is the first of
/// `LC_ALL`, `LC_MESSAGES`, `LANG` that is set; unless that locale is `C`/`POSIX`, the
/// colon-separated list in `LANGUAGE` is tried first, in order. The first name Ask First speaks
/// ([`locale_language`]) wins; English when none does.
pub fn desktop_language(env: &Environment) -> Language {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .into_iter()
        .find_map(|name| env.var(name));
    let plain_c = locale
        .as_deref()
        .map(|l| matches!(l.split('.').next(), Some("C" | "POSIX")))
        .unwrap_or(false);
    let listed = env.var("LANGUAGE").filter(|_| !plain_c).unwrap_or_default();
    listed
        .split(':')
        .chain(locale.as_deref())
        .find_map(locale_language)
        .unwrap_or(Language::En)
}

/// The language in force: the one saved in `settings.json` (`chosen`, a tag), else the
/// desktop's ([`desktop_language`]). A tag Ask First does not speak counts as not chosen.
pub fn effective_language(chosen: Option<&str>, env: &Environment) -> Language {
    chosen
        .and_then(parse_language_tag)
        .unwrap_or_else(|| desktop_language(env))
}
