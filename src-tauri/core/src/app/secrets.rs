//! API keys: where they are kept, and the one way to find the key of a service.
//!
//! - Where a desktop keyring runs (the Secret Service over D-Bus: GNOME Keyring, KWallet,
//!   KeePassXC), each key goes there through the `keyring` crate: service [`KEYRING_SERVICE`],
//!   user the service's address ([`key_address`], its origin), so a key is only ever found for,
//!   and sent to, the address it was saved for.
//! - Where none runs (no session bus, no Secret Service, no default collection, or one the
//!   commands the agent runs could reach: [`crate::tools::session_bus`]), keys stay in the
//!   owner-only `settings.json` ([`SettingsFile::api_keys`], by address), as before.
//! - A key of an earlier version (`api_key`, for whichever service was chosen) is bound to the
//!   address in force, and every key in the file moves to the keyring once one is available,
//!   leaving the file only after the keyring gives it back: when the app has found where keys
//!   are kept, just after its window starts to open ([`KeyStore::find`]), and at every save of
//!   the settings ([`KeyStore::move_saved_keys`]).
//! - The environment (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`: `super::settings::ENVIRONMENT`)
//!   still wins over both.
//!
//! A key never leaves this module towards the window or a log: the settings screen gets a
//! [`KeyStorage`] (whether and where, in a sentence), messages name the address, never the key.
//! Every keyring call is bounded by [`KEYRING_TIMEOUT`] (a locked keyring asks the person for
//! their password, and may wait for an answer that never comes).

use super::catalog::{key_address_in_force, ApiFamily, ProviderChoice};
use super::settings::{Environment, Setting, ENVIRONMENT};
use crate::config::SettingsFile;
use crate::i18n::{tr, Arg};
use crate::providers::ApiKey;
use crate::tools::sandbox::{scopes_enforced, Confinement};
use crate::tools::session_bus::SessionBus;
use askfirst_protocol::{KeyPlace, KeyStorage};
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// The keyring's service name for Ask First's keys (the `service` attribute of its items).
pub const KEYRING_SERVICE: &str = "Ask First";

/// The longest a keyring call may take, an unlock prompt included, before Ask First gives up
/// on it for now and keeps the key in the settings file. Why 20 s: a call takes milliseconds;
/// typing the keyring's password into the desktop's prompt takes a few seconds.
pub const KEYRING_TIMEOUT: Duration = Duration::from_secs(20);

/// The settings screen's sentence for a key kept in the desktop's keyring, as a sentence key
/// of `locales/*/app.ftl` (rendered with [`crate::i18n::tr`] in the person's language).
pub const IN_KEYRING: &str = "key_place-keyring";
/// … for a key kept in the settings file because no keyring is available.
pub const IN_FILE_NO_KEYRING: &str = "key_place-file_no_keyring";
/// … for a key kept in the settings file although a keyring is available (it refused it).
pub const IN_FILE_KEYRING_REFUSED: &str = "key_place-file_keyring_refused";
/// … for no key yet, with a keyring.
pub const NONE_KEYRING: &str = "key_place-none_keyring";
/// … for no key yet, without a keyring.
pub const NONE_NO_KEYRING: &str = "key_place-none_no_keyring";
/// … when the keyring did not answer.
pub const KEYRING_SILENT: &str = "key_place-keyring_silent";

/// The address a key belongs to: the origin (`scheme://host[:port]`, RFC 6454) of the
/// service's base URL, e.g. `https://api.openai.com`; an address that is not a URL with a
/// host, trimmed, as written.
pub fn key_address(base_url: &str) -> String {
    match url::Url::parse(base_url.trim()) {
        Ok(url) if url.has_host() => url.origin().ascii_serialization(),
        _ => base_url.trim().trim_end_matches('/').to_owned(),
    }
}

/// Where this app keeps API keys: the desktop's keyring, or (with the reason) the settings
/// file. Found once, the first time it is needed ([`KeyStore::find`]): finding it asks the
/// machine (a `bwrap` run and a D-Bus call that may start the keyring's service, ~0.1 s on a
/// fresh session), which the app does beside its window opening rather than before it
/// (BENCHMARKS.md, "Start: where the floor's time goes").
#[derive(Debug)]
pub struct KeyStore {
    /// The environment whose session bus the keyring would be reached on.
    env: Environment,
    /// The settings file whose keys move to the keyring when the store is found; `None` for a
    /// store that moves none ([`KeyStore::for_environment`], [`KeyStore::settings_file_only`]).
    settings_path: Option<PathBuf>,
    /// Why the keyring is not used (`None` when it is), once found.
    no_keyring: OnceLock<Option<String>>,
}

impl KeyStore {
    /// The store for `env`, found when first needed: the keyring when `env` names a session
    /// bus (no bus is ever started for it), the command sandbox keeps commands off that bus,
    /// and the Secret Service answers; else the settings file. The keyring client connects to
    /// the bus of the process's environment, so `env` is the process's in the app; a fixed
    /// environment without `DBUS_SESSION_BUS_ADDRESS` (tests) always gets the settings file.
    pub fn for_environment(env: &Environment) -> Self {
        Self {
            env: env.clone(),
            settings_path: None,
            no_keyring: OnceLock::new(),
        }
    }

    /// As [`KeyStore::for_environment`], and when found, the keys `settings_path` holds move
    /// to the keyring (a key of an earlier version bound to the address in force first:
    /// [`KeyStore::move_saved_keys`]); a file with a mistake is left alone.
    pub fn for_settings(env: &Environment, settings_path: PathBuf) -> Self {
        Self {
            settings_path: Some(settings_path),
            ..Self::for_environment(env)
        }
    }

    /// A store that keeps keys in the settings file at `settings_path` only (none are moved);
    /// `why` is the technical reason.
    pub fn settings_file_only(why: &str, settings_path: PathBuf) -> Self {
        let store = Self {
            settings_path: Some(settings_path),
            ..Self::for_environment(&Environment::fixed(Default::default()))
        };
        let _ = store.no_keyring.set(Some(why.to_owned()));
        store
    }

    /// Finds where keys are kept, the first time it is called (later calls return at once,
    /// and a call made while another thread finds it waits for that one). Every method that
    /// needs the answer calls it, and [`KeyStore::load`] calls it before reading the settings
    /// file, so the file's keys have moved before anyone reads them and no two writers of the
    /// file overlap. The app calls it on a thread of its own once its window starts to open.
    pub fn find(&self) -> &Self {
        let _ = self.why();
        self
    }

    /// Reads the store's settings file ([`KeyStore::for_settings`]) once where keys are kept
    /// has been found and the file's keys moved there: the only way to get the
    /// [`KeyedSettings`] that the methods reading or changing keys take, so none of them can
    /// see a file read before its keys moved (and write keys back that have left it). A store
    /// without a settings file gives an empty one.
    ///
    /// # Errors
    /// [`SettingsFile::load`]'s sentence: a file that cannot be read, or has a mistake.
    pub fn load(&self) -> Result<KeyedSettings, String> {
        self.find();
        match &self.settings_path {
            Some(path) => SettingsFile::load(path).map(KeyedSettings),
            None => Ok(KeyedSettings::empty()),
        }
    }

    fn why(&self) -> Option<&str> {
        self.no_keyring
            .get_or_init(|| {
                let why = Self::decide(&self.env);
                if let Some(why) = &why {
                    eprintln!(
                        "askfirst: API keys are kept in the settings file, not the desktop's \
                         keyring ({why})"
                    );
                }
                if let Some(path) = &self.settings_path {
                    move_file_keys(&self.env, path, why.is_none());
                }
                why
            })
            .as_deref()
    }

    /// Why `env`'s keyring cannot be used, or `None` when it can (see
    /// [`KeyStore::for_environment`]).
    fn decide(env: &Environment) -> Option<String> {
        let bus = SessionBus::from_vars(
            env.var("DBUS_SESSION_BUS_ADDRESS").as_deref(),
            env.var("XDG_RUNTIME_DIR").as_deref(),
        );
        if !bus.is_present() {
            return Some(
                "no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set and there is no \
                 $XDG_RUNTIME_DIR/bus"
                    .to_owned(),
            );
        }
        if let Some(why) = bus.open_to_commands(Confinement::detected(), scopes_enforced()) {
            return Some(format!(
                "the commands the agent runs could reach the keyring: {why}"
            ));
        }
        keyring::probe()
            .err()
            .map(|why| format!("the Secret Service: {why}"))
    }

    /// Whether keys go to the desktop's keyring.
    pub fn uses_keyring(&self) -> bool {
        self.why().is_none()
    }

    /// Why the keyring is not used, in technical words; `None` when it is.
    pub fn why_no_keyring(&self) -> Option<&str> {
        self.why()
    }

    /// The key saved for `address` and where it is: the settings file first (a key lands
    /// there only when the keyring could not take it, so it is the newer one), then the
    /// keyring; a key of an earlier version not yet bound to an address counts for any.
    pub fn saved_key(&self, file: &KeyedSettings, address: &str) -> Option<(ApiKey, KeyPlace)> {
        self.lookup(file, address).ok().flatten()
    }

    /// As [`KeyStore::saved_key`], with the keyring's failure (a message without the key).
    fn lookup(
        &self,
        file: &KeyedSettings,
        address: &str,
    ) -> Result<Option<(ApiKey, KeyPlace)>, String> {
        let in_file = file.api_keys.get(address).or(file.api_key.as_ref());
        if let Some(key) = in_file.filter(|k| !k.trim().is_empty()) {
            return Ok(Some((ApiKey::new(key), KeyPlace::SettingsFile)));
        }
        if !self.uses_keyring() {
            return Ok(None);
        }
        match keyring::get(address) {
            Ok(found) => Ok(found
                .filter(|k| !k.trim().is_empty())
                .map(|k| (ApiKey::new(&k), KeyPlace::Keyring))),
            Err(why) => {
                eprintln!("askfirst: the desktop's keyring could not be read for {address}: {why}");
                Err(why)
            }
        }
    }

    /// `choice` with the key saved for its address ([`KeyStore::saved_key`]) when the
    /// environment gave it none.
    pub fn with_saved_key(&self, choice: ProviderChoice, file: &KeyedSettings) -> ProviderChoice {
        match choice {
            ProviderChoice::Http { kind, mut http } => {
                if http.api_key.is_none() {
                    http.api_key = self
                        .saved_key(file, &key_address(&http.base_url))
                        .map(|(key, _)| key);
                }
                ProviderChoice::Http { kind, http }
            }
            other @ (ProviderChoice::Demo | ProviderChoice::Scripted(_)) => other,
        }
    }

    /// Saves `key` for `address`: into the keyring, checked by reading it back, and then out
    /// of `file`; where that fails, into `file` (for the caller to save). Returns where it is.
    pub fn save_key(&self, file: &mut KeyedSettings, address: &str, key: &str) -> KeyPlace {
        let key = key.trim();
        if self.uses_keyring() {
            match keyring::set_and_check(address, key) {
                Ok(()) => {
                    file.api_keys.remove(address);
                    return KeyPlace::Keyring;
                }
                Err(why) => eprintln!(
                    "askfirst: the desktop's keyring did not take the key for {address} ({why}); \
                     it is kept in the settings file"
                ),
            }
        }
        file.api_keys.insert(address.to_owned(), key.to_owned());
        KeyPlace::SettingsFile
    }

    /// Removes the key for `address` from `file` (and a key of an earlier version) and from
    /// the keyring.
    ///
    /// # Errors
    /// The keyring's failure, a message without the key; `file` is changed even then.
    pub fn remove_key(&self, file: &mut KeyedSettings, address: &str) -> Result<(), String> {
        file.api_keys.remove(address);
        file.api_key = None;
        if self.uses_keyring() {
            keyring::delete(address)?;
        }
        Ok(())
    }

    /// Binds a key of an earlier version to `address_in_force` (the address it was being sent
    /// to), and moves every key of `file` into the keyring when one is used: a key leaves the
    /// file only once the keyring gives it back. Returns whether `file` changed (for the caller
    /// to save).
    pub fn move_saved_keys(
        &self,
        file: &mut KeyedSettings,
        address_in_force: Option<&str>,
    ) -> bool {
        move_keys(&mut file.0, address_in_force, self.uses_keyring())
    }

    /// Whether a key is set for the service in force (`address`, `None` for none; `family`
    /// for its environment variables) and where it is kept, for the settings screen.
    pub fn storage(
        &self,
        env: &Environment,
        family: Option<ApiFamily>,
        file: &KeyedSettings,
        address: Option<&str>,
    ) -> (bool, KeyStorage) {
        let from_env = ENVIRONMENT
            .iter()
            .filter(|row| row.setting == Setting::ApiKey)
            .flat_map(|row| row.vars(family))
            .find(|name| env.var(name).is_some());
        if let Some(name) = from_env {
            let sentence = tr("key_place-environment", &[("name", Arg::from(name))]);
            return (true, self.view(KeyPlace::Environment, sentence, None));
        }
        let found = address.map(|a| self.lookup(file, a)).unwrap_or(Ok(None));
        let (has_key, place, sentence, problem) = match found {
            Ok(Some((_, KeyPlace::Keyring))) => (true, KeyPlace::Keyring, IN_KEYRING, None),
            Ok(Some((_, _))) if self.uses_keyring() => {
                (true, KeyPlace::SettingsFile, IN_FILE_KEYRING_REFUSED, None)
            }
            Ok(Some((_, _))) => (true, KeyPlace::SettingsFile, IN_FILE_NO_KEYRING, None),
            Ok(None) if self.uses_keyring() => (false, KeyPlace::Keyring, NONE_KEYRING, None),
            Ok(None) => (false, KeyPlace::SettingsFile, NONE_NO_KEYRING, None),
            Err(why) => (false, KeyPlace::Keyring, KEYRING_SILENT, Some(why)),
        };
        (has_key, self.view(place, tr(sentence, &[]), problem))
    }

    fn view(&self, place: KeyPlace, sentence: String, problem: Option<String>) -> KeyStorage {
        KeyStorage {
            place,
            sentence,
            detail: problem.or_else(|| self.why().map(str::to_owned)),
        }
    }
}

/// The settings file as read by [`KeyStore::load`], after its keys moved to where keys are
/// kept; it reads and changes as a [`SettingsFile`] (and is saved as one).
#[derive(Debug)]
pub struct KeyedSettings(SettingsFile);

impl KeyedSettings {
    /// An empty file (no key in it to be stale), for a reader that goes on without the file.
    pub(crate) fn empty() -> Self {
        Self(SettingsFile::default())
    }

    /// The file itself.
    pub fn into_inner(self) -> SettingsFile {
        self.0
    }
}

impl Deref for KeyedSettings {
    type Target = SettingsFile;
    fn deref(&self) -> &SettingsFile {
        &self.0
    }
}

impl DerefMut for KeyedSettings {
    fn deref_mut(&mut self) -> &mut SettingsFile {
        &mut self.0
    }
}

/// [`KeyStore::move_saved_keys`] with the keyring's use already found (`keyring_used`).
fn move_keys(file: &mut SettingsFile, address_in_force: Option<&str>, keyring_used: bool) -> bool {
    let mut changed = false;
    if let (Some(key), Some(address)) = (file.api_key.clone(), address_in_force) {
        file.api_keys.entry(address.to_owned()).or_insert(key);
        file.api_key = None;
        changed = true;
    }
    if keyring_used {
        for (address, key) in file.api_keys.clone() {
            match keyring::set_and_check(&address, &key) {
                Ok(()) => {
                    file.api_keys.remove(&address);
                    changed = true;
                }
                Err(why) => eprintln!(
                    "askfirst: the key for {address} stays in the settings file: the \
                     desktop's keyring did not take it ({why})"
                ),
            }
        }
    }
    changed
}

/// [`move_keys`] for the settings file at `path`, saved when it changed (a file that cannot
/// be read, or has a mistake, is left alone; one that cannot be saved is said on stderr).
fn move_file_keys(env: &Environment, path: &Path, keyring_used: bool) {
    let Ok(mut file) = SettingsFile::load(path) else {
        return;
    };
    let address = key_address_in_force(env, &file);
    if move_keys(&mut file, address.as_deref(), keyring_used) {
        if let Err(error) = file.save(path) {
            eprintln!(
                "askfirst: the settings file {} could not be saved: {error}",
                path.display()
            );
        }
    }
}

/// The desktop's keyring through the `keyring` crate (Secret Service over D-Bus, libdbus),
/// each call on a thread of its own, bounded by [`KEYRING_TIMEOUT`].
#[cfg(target_os = "linux")]
mod keyring {
    use super::{KEYRING_SERVICE, KEYRING_TIMEOUT};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{mpsc, Arc, Mutex};

    /// Keyring calls that outlived [`KEYRING_TIMEOUT`] and still wait (for a prompt); while
    /// one does, the keyring counts as silent rather than stacking more waiting threads.
    static WAITING: AtomicUsize = AtomicUsize::new(0);

    /// The user name of the item that [`probe`] looks for (never created).
    const PROBE_USER: &str = "askfirst-keyring-check";

    /// Runs `call` on its own thread and waits at most [`KEYRING_TIMEOUT`].
    fn bounded<T: Send + 'static>(
        call: impl FnOnce() -> Result<T, String> + Send + 'static,
    ) -> Result<T, String> {
        if WAITING.load(Ordering::SeqCst) > 0 {
            return Err("an earlier request is still waiting for the keyring".to_owned());
        }
        // (done, abandoned): whoever comes second settles the count of waiting calls.
        let state = Arc::new(Mutex::new((false, false)));
        let (reply, answer) = mpsc::channel();
        let thread_state = Arc::clone(&state);
        std::thread::Builder::new()
            .name("askfirst-keyring".into())
            .spawn(move || {
                let _ = reply.send(call());
                if let Ok(mut state) = thread_state.lock() {
                    state.0 = true;
                    if state.1 {
                        WAITING.fetch_sub(1, Ordering::SeqCst);
                    }
                }
            })
            .map_err(|e| format!("no thread for the keyring: {e}"))?;
        match answer.recv_timeout(KEYRING_TIMEOUT) {
            Ok(result) => result,
            Err(_) => {
                if let Ok(mut state) = state.lock() {
                    if !state.0 {
                        state.1 = true;
                        WAITING.fetch_add(1, Ordering::SeqCst);
                    }
                }
                Err(format!(
                    "no answer within {} s (it may be waiting for its password)",
                    KEYRING_TIMEOUT.as_secs()
                ))
            }
        }
    }

    /// The keyring's error in words, never with a secret in it.
    fn words(error: &keyring::Error) -> String {
        match error {
            keyring::Error::BadEncoding(_) => "the item is not text".to_owned(),
            other => other.to_string(),
        }
    }

    fn entry(user: &str) -> Result<keyring::Entry, String> {
        keyring::Entry::new(KEYRING_SERVICE, user).map_err(|e| words(&e))
    }

    /// Reads the key for `user`; `None` when there is none.
    pub fn get(user: &str) -> Result<Option<String>, String> {
        let user = user.to_owned();
        bounded(move || match entry(&user)?.get_password() {
            Ok(key) => Ok(Some(key)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(words(&e)),
        })
    }

    /// Whether the Secret Service answers a search and has a default collection to keep keys
    /// in (looking for an item that is never created).
    pub fn probe() -> Result<(), String> {
        get(PROBE_USER).map(|_| ())
    }

    /// Writes the key for `user` and reads it back.
    pub fn set_and_check(user: &str, key: &str) -> Result<(), String> {
        let (user, key) = (user.to_owned(), key.to_owned());
        bounded(move || {
            let entry = entry(&user)?;
            entry.set_password(&key).map_err(|e| words(&e))?;
            match entry.get_password() {
                Ok(back) if back == key => Ok(()),
                Ok(_) => Err("it gave back a different key".to_owned()),
                Err(e) => Err(format!("it did not give the key back: {}", words(&e))),
            }
        })
    }

    /// Deletes the key for `user` (none is fine).
    pub fn delete(user: &str) -> Result<(), String> {
        let user = user.to_owned();
        bounded(move || match entry(&user)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(words(&e)),
        })
    }
}

/// No keyring client is built for this system: keys stay in the settings file.
#[cfg(not(target_os = "linux"))]
mod keyring {
    const NONE: &str = "Ask First has no keyring client for this system";

    pub fn get(_user: &str) -> Result<Option<String>, String> {
        Err(NONE.to_owned())
    }
    pub fn probe() -> Result<(), String> {
        Err(NONE.to_owned())
    }
    pub fn set_and_check(_user: &str, _key: &str) -> Result<(), String> {
        Err(NONE.to_owned())
    }
    pub fn delete(_user: &str) -> Result<(), String> {
        Err(NONE.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_belongs_to_the_origin_of_its_address() {
        assert_eq!(
            key_address("https://api.openai.com/v1/"),
            "https://api.openai.com"
        );
        assert_eq!(
            key_address("HTTPS://API.OpenAI.com:443/v1"),
            "https://api.openai.com"
        );
        assert_eq!(
            key_address("http://127.0.0.1:11434/v1"),
            "http://127.0.0.1:11434"
        );
        assert_ne!(
            key_address("https://api.openai.com.evil.test/v1"),
            key_address("https://api.openai.com/v1")
        );
        assert_eq!(key_address(" not a url/ "), "not a url");
    }
}
