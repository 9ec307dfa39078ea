//! The person's sentences in their language: one Project Fluent catalogue per language
//! (`locales/<tag>/app.ftl` at the top of the repository, embedded in the binary), the current
//! language, and the one way a sentence is rendered ([`tr`], or [`wording`] for a sentence sent
//! as a key and values).
//!
//! To add a sentence: give it a key in `locales/en/app.ftl` (`my-key = The words, with { $name }.`),
//! the same key in `locales/zh-CN/app.ftl` and `locales/pt-BR/app.ftl`, and render it with
//! `i18n::tr("my-key", &[("name", Arg::from(value))])`. `tests/all/i18n.rs` fails when a key is
//! missing in a language, is not used by the code, or a translation drops a parameter.
//!
//! Text for the model is never rendered here: it stays English. Untrusted text (file names,
//! what a model wrote) goes in as a parameter and comes out as it went in; Fluent's bidi
//! isolation marks (U+2068 … U+2069) are turned off, because the cleaners of `crate::text`
//! already show control and bidi characters visibly, and invisible marks around a parameter
//! would hide what the person should see.
//!
//! Spec: Project Fluent syntax 1.0 (<https://projectfluent.org/fluent/guide/>); plural
//! categories from CLDR through `intl_pluralrules`.

mod numbers;

pub use askfirst_protocol::Language;
use askfirst_protocol::Wording;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::cell::Cell;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

/// Every language, in the order the catalogues are listed (English first: the fallback).
pub const LANGUAGES: [Language; 3] = [Language::En, Language::ZhCn, Language::PtBr];

/// The catalogues as a translator edits them: `(language, file text)`.
pub const CATALOGUES: [(Language, &str); 3] = [
    (Language::En, include_str!("../../../../locales/en/app.ftl")),
    (
        Language::ZhCn,
        include_str!("../../../../locales/zh-CN/app.ftl"),
    ),
    (
        Language::PtBr,
        include_str!("../../../../locales/pt-BR/app.ftl"),
    ),
];

/// Names of [`Wording`] values that are counts: rendered as numbers (plural forms, the
/// locale's digit grouping). Every other value is text and goes in exactly as it is.
pub const NUMBER_ARGS: &[&str] = &["asked", "limit", "left_out", "limit_mb", "count"];

static CURRENT: AtomicU8 = AtomicU8::new(0);

thread_local! {
    static OVERRIDE: Cell<Option<Language>> = const { Cell::new(None) };
}

fn index(language: Language) -> u8 {
    match language {
        Language::En => 0,
        Language::ZhCn => 1,
        Language::PtBr => 2,
    }
}

/// Makes `language` the language of every sentence rendered after this call, on every thread
/// (a thread inside [`with_language`] keeps its own until it leaves).
pub fn set_language(language: Language) {
    CURRENT.store(index(language), Ordering::SeqCst);
}

/// The current language: English until [`set_language`] says otherwise.
pub fn language() -> Language {
    if let Some(language) = OVERRIDE.with(Cell::get) {
        return language;
    }
    match CURRENT.load(Ordering::SeqCst) {
        1 => Language::ZhCn,
        2 => Language::PtBr,
        _ => Language::En,
    }
}

/// Runs `body` with `language` as this thread's language (for tests and for rendering one text
/// in a language other than the current one), then restores what was there.
pub fn with_language<T>(language: Language, body: impl FnOnce() -> T) -> T {
    struct Restore(Option<Language>);
    impl Drop for Restore {
        fn drop(&mut self) {
            OVERRIDE.with(|cell| cell.set(self.0));
        }
    }
    let _restore = Restore(OVERRIDE.with(|cell| cell.replace(Some(language))));
    body()
}

/// A parameter of a sentence: text (inserted exactly as it is) or a count (formatted for the
/// language, and choosing the plural form).
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// Text, such as a file name or what a model wrote.
    Text(String),
    /// A number.
    Number(f64),
}

impl From<&str> for Arg {
    fn from(text: &str) -> Self {
        Arg::Text(text.to_owned())
    }
}

impl From<String> for Arg {
    fn from(text: String) -> Self {
        Arg::Text(text)
    }
}

impl From<&String> for Arg {
    fn from(text: &String) -> Self {
        Arg::Text(text.clone())
    }
}

macro_rules! number_arg {
    ($($t:ty),*) => { $(impl From<$t> for Arg {
        #[allow(clippy::cast_precision_loss, clippy::cast_lossless)]
        fn from(n: $t) -> Self { Arg::Number(n as f64) }
    })* };
}
number_arg!(u8, u16, u32, u64, usize, i32, i64, f64);

/// One loaded catalogue.
type Bundle = FluentBundle<FluentResource>;

/// The loaded catalogues (in [`LANGUAGES`]' order) and the problems found loading them.
type Loaded = ([Bundle; 3], Vec<(Language, String)>);

/// The problems found while loading the catalogues: `(language, what)`; empty when every
/// catalogue parses and has no key twice. A test asserts it is empty.
pub fn catalogue_problems() -> Vec<(Language, String)> {
    bundles().1.clone()
}

fn bundles() -> &'static Loaded {
    static BUNDLES: OnceLock<Loaded> = OnceLock::new();
    BUNDLES.get_or_init(|| {
        let mut problems = Vec::new();
        let bundles = CATALOGUES.map(|(language, source)| {
            let mut bundle = Bundle::new_concurrent(vec![numbers::langid(language)]);
            bundle.set_use_isolating(false);
            bundle.set_formatter(Some(numbers::formatter(language)));
            let resource = match FluentResource::try_new(source.to_owned()) {
                Ok(resource) => resource,
                Err((resource, errors)) => {
                    problems.extend(errors.iter().map(|e| (language, format!("{e:?}"))));
                    resource
                }
            };
            if let Err(errors) = bundle.add_resource(resource) {
                problems.extend(errors.iter().map(|e| (language, format!("{e:?}"))));
            }
            bundle
        });
        (bundles, problems)
    })
}

/// The keys of `language`'s catalogue, in the file's order.
pub fn keys(language: Language) -> Vec<String> {
    let source = CATALOGUES
        .iter()
        .find(|(l, _)| *l == language)
        .map(|(_, s)| *s)
        .unwrap_or_default();
    let resource = match FluentResource::try_new(source.to_owned()) {
        Ok(resource) | Err((resource, _)) => resource,
    };
    resource
        .entries()
        .filter_map(|entry| match entry {
            fluent_syntax::ast::Entry::Message(message) => Some(message.id.name.to_owned()),
            _ => None,
        })
        .collect()
}

/// The sentence `key` in the current language with `args` filled in.
///
/// A key the current language lacks falls back to English; a key no catalogue has comes out as
/// the key itself (so a gap shows instead of vanishing). A parameter the sentence names but
/// `args` lacks comes out as `{$name}`.
pub fn tr(key: &str, args: &[(&str, Arg)]) -> String {
    tr_in(language(), key, args)
}

/// [`tr`] in `language`.
pub fn tr_in(language: Language, key: &str, args: &[(&str, Arg)]) -> String {
    let (bundles, _) = bundles();
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        match value {
            Arg::Text(text) => fluent_args.set(*name, FluentValue::from(text.as_str())),
            Arg::Number(n) => fluent_args.set(*name, FluentValue::from(*n)),
        }
    }
    let order = [index(language), 0];
    for i in order {
        let Some(bundle) = bundles.get(usize::from(i)) else {
            continue;
        };
        let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) else {
            continue;
        };
        let mut errors = Vec::new();
        return bundle
            .format_pattern(pattern, Some(&fluent_args), &mut errors)
            .into_owned();
    }
    key.to_owned()
}

/// The catalogue key of a [`Wording`] key: its dots become dashes (`not_run.timed_out` →
/// `not_run-timed_out`), since a Fluent identifier has no dots.
pub fn fluent_key(wording_key: &str) -> String {
    wording_key.replace('.', "-")
}

/// `wording` in the current language: its key's sentence with its values, the ones named in
/// [`NUMBER_ARGS`] that read as numbers as counts, every other one as text.
pub fn wording(wording: &Wording) -> String {
    wording_in(language(), wording)
}

/// [`wording`] in `language`.
pub fn wording_in(language: Language, wording: &Wording) -> String {
    let args: Vec<(&str, Arg)> = wording
        .args
        .iter()
        .map(|(name, value)| {
            let number = NUMBER_ARGS
                .contains(&name.as_str())
                .then(|| value.parse::<u64>().ok())
                .flatten();
            let arg = match number {
                Some(n) => Arg::from(n),
                None => Arg::from(value),
            };
            (name.as_str(), arg)
        })
        .collect();
    let key = fluent_key(&wording.key);
    let text = tr_in(language, &key, &args);
    if text == key {
        wording.key.clone()
    } else {
        text
    }
}

/// `items` as a list in the current language, every one kept as it is (names are data, never
/// translated): "a.txt, b.txt, c.txt" in English, "a.txt、b.txt 和 c.txt" in Simplified
/// Chinese, "a.txt, b.txt e c.txt" in Brazilian Portuguese. Empty for no items.
///
/// Fluent has no list formatter, so the list's pattern is two messages each language writes:
/// `list-join` (the first item and the rest) and `list-pair` (the last two).
pub fn join_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_owned(),
        [start @ .., before_last, last] => {
            let pair = tr(
                "list-pair",
                &[
                    ("first", Arg::from(before_last.as_ref())),
                    ("second", Arg::from(last.as_ref())),
                ],
            );
            joined(start, pair)
        }
    }
}

/// `items` one after the other with the current language's separator only, no "and": for a
/// list that goes on ("a, b, c and 3 more") or one to choose from ("choose one of: a, b").
pub fn join_separated<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [start @ .., last] => joined(start, last.as_ref().to_owned()),
    }
}

/// `start` before `rest`, each joined with `list-join`.
fn joined<S: AsRef<str>>(start: &[S], rest: String) -> String {
    start.iter().rev().fold(rest, |rest, first| {
        tr(
            "list-join",
            &[
                ("first", Arg::from(first.as_ref())),
                ("rest", Arg::from(rest)),
            ],
        )
    })
}
