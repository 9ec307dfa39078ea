//! API keys in a real desktop keyring: this test binary runs itself again inside a private
//! D-Bus session (`dbus-run-session`, the bus's socket in a folder commands could otherwise see)
//! with `gnome-keyring-daemon` unlocked on an empty password, keyrings in a temporary folder.
//! There a key saved in the settings screen is in the keyring (read back with `secret-tool`),
//! not in `settings.json`; the provider gets it; a key of an earlier version moves there; a
//! command the agent runs, shut in, cannot ask the keyring for it; and removing it removes it.
//!
//! Needs `dbus-run-session`, `gnome-keyring-daemon` and `secret-tool` (Debian: dbus,
//! gnome-keyring, libsecret-tools; `make test` installs them). Without them the test is skipped
//! with a message, unless `ASKFIRST_REQUIRE_KEYRING_TESTS` is set (as `make test` does): then
//! it fails.

use super::keys::{key_sent, save_openai};
use askfirst_core::app::secrets::KEYRING_SERVICE;
use askfirst_core::app::{AppConfig, Backend, Environment};
use askfirst_core::config::SettingsFile;
use askfirst_core::tools::{Tool, ToolError, ToolSet, Workspace};
use askfirst_protocol::KeyPlace;
use pretty_assertions::assert_eq;
use serde_json::json;
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};

/// Set (to anything but `0`) where missing keyring programs must fail the test.
const REQUIRE_KEYRING_TESTS: &str = "ASKFIRST_REQUIRE_KEYRING_TESTS";

/// The programs the test needs.
const PROGRAMS: [&str; 3] = ["dbus-run-session", "gnome-keyring-daemon", "secret-tool"];

/// The name of the half that runs inside the session.
const INSIDE: &str = "all::keyring::inside_a_keyring_session";

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// `secret-tool lookup` of Ask First's key for `address`, as any program of the person's
/// session could ask it; `None` when the keyring has none.
fn keyring_lookup(address: &str) -> Option<String> {
    let out = Command::new("secret-tool")
        .args(["lookup", "service", KEYRING_SERVICE, "username", address])
        .stderr(Stdio::inherit())
        .output()
        .unwrap();
    out.status
        .success()
        .then(|| String::from_utf8(out.stdout).unwrap())
}

#[test]
fn the_keyring_keeps_keys_and_commands_cannot_ask_it() {
    if let Some(missing) = PROGRAMS.iter().find(|p| !on_path(p)) {
        let required = std::env::var_os(REQUIRE_KEYRING_TESTS).is_some_and(|v| v != "0");
        assert!(
            !required,
            "{missing} is not installed, and {REQUIRE_KEYRING_TESTS} is set"
        );
        eprintln!(
            "SKIPPED the keyring test: {missing} is not installed (Debian: dbus, gnome-keyring, \
             libsecret-tools; `make test` installs them; set {REQUIRE_KEYRING_TESTS}=1 to fail \
             instead of skipping)."
        );
        return;
    }
    // Outside /tmp, so the command sandbox must hide the bus's socket itself.
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let run = dir.path().join("run");
    std::fs::create_dir(&run).unwrap();
    std::fs::set_permissions(&run, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    let socket = dir.path().join("bus");
    let config = dir.path().join("session.conf");
    std::fs::write(
        &config,
        format!(
            r#"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={}</listen>
  <standard_session_servicedirs/>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"#,
            socket.display()
        ),
    )
    .unwrap();
    let status = Command::new("dbus-run-session")
        .arg(format!("--config-file={}", config.display()))
        .args([
            "--",
            "sh",
            "-c",
            r#"printf '\n' | gnome-keyring-daemon --unlock --components=secrets >/dev/null &&
               exec "$0" --exact "$1" --ignored --nocapture --test-threads=1"#,
        ])
        .arg(std::env::current_exe().unwrap())
        .arg(INSIDE)
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .env("XDG_RUNTIME_DIR", &run)
        .env("ASKFIRST_KEYRING_TEST_DIR", dir.path())
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .status()
        .unwrap();
    assert!(
        status.success(),
        "the test inside the keyring session failed"
    );
}

/// Runs `command` shut in, as the agent's `run_command`, and returns its result text.
async fn run_confined(command: &str, ws: &Workspace) -> String {
    let raw = json!({ "command": command }).to_string();
    let tool: std::sync::Arc<dyn Tool> = ToolSet::builtin().get("run_command").unwrap();
    match tool.execute(&raw, ws).await {
        Ok(text) | Err(ToolError::Failed(text) | ToolError::Said { model: text, .. }) => text,
        Err(other) => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "runs inside the session the_keyring_keeps_keys_and_commands_cannot_ask_it starts"]
async fn inside_a_keyring_session() {
    let dir = std::env::var("ASKFIRST_KEYRING_TEST_DIR")
        .expect("started by the_keyring_keeps_keys_and_commands_cannot_ask_it");
    let bus = std::env::var("DBUS_SESSION_BUS_ADDRESS").unwrap();
    let data = Path::new(&dir).join("askfirst");
    std::fs::create_dir_all(&data).unwrap();
    // A key saved by an earlier version, for the service in force.
    SettingsFile {
        provider: Some("openai".into()),
        base_url: Some("http://127.0.0.1:9/v1".into()),
        api_key: Some("sk-earlier".into()),
        ..SettingsFile::default()
    }
    .save(&data.join("settings.json"))
    .unwrap();
    let vars: HashMap<String, String> = [
        ("ASKFIRST_DATA_DIR", data.to_str().unwrap().to_owned()),
        ("DBUS_SESSION_BUS_ADDRESS", bus),
        ("XDG_RUNTIME_DIR", std::env::var("XDG_RUNTIME_DIR").unwrap()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let e = Environment::fixed(vars);
    let config = AppConfig::resolve(e.clone(), None).unwrap();
    let backend = Backend::build(config, tokio::runtime::Handle::current()).unwrap();
    let (runtime, screen) = (backend.runtime, backend.settings);
    assert!(
        screen.keys().uses_keyring(),
        "{:?}",
        screen.keys().why_no_keyring()
    );
    // The earlier key moved to the keyring, and left the file.
    assert_eq!(
        keyring_lookup("http://127.0.0.1:9").as_deref(),
        Some("sk-earlier")
    );
    let text = std::fs::read_to_string(data.join("settings.json")).unwrap();
    assert!(!text.contains("sk-earlier"), "{text}");
    assert_eq!(key_sent(&e, screen.keys()).as_deref(), Some("sk-earlier"));

    // A key saved in the settings screen: in the keyring, not in the file; the provider gets it.
    let view = screen
        .save(
            &runtime,
            save_openai("https://keys.test/v1", Some("sk-keyring-5d1e"), false),
        )
        .unwrap();
    assert!(view.has_api_key);
    assert_eq!(
        (
            view.key_storage.place,
            view.key_storage.sentence.as_str(),
            view.key_storage.detail
        ),
        (
            KeyPlace::Keyring,
            "Your key is kept in the desktop's keyring.",
            None
        )
    );
    assert_eq!(
        keyring_lookup("https://keys.test").as_deref(),
        Some("sk-keyring-5d1e")
    );
    let text = std::fs::read_to_string(data.join("settings.json")).unwrap();
    assert!(!text.contains("sk-keyring"), "{text}");
    assert_eq!(
        key_sent(&e, screen.keys()).as_deref(),
        Some("sk-keyring-5d1e")
    );

    // A command the agent runs, shut in, cannot ask the keyring for it: neither through the
    // bus's socket nor through the keyring's control socket in $XDG_RUNTIME_DIR.
    let ws_dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(ws_dir.path()).unwrap();
    let ask = format!(
        "DBUS_SESSION_BUS_ADDRESS='{}' secret-tool lookup service '{KEYRING_SERVICE}' \
         username https://keys.test; ls -A \"{}\"",
        std::env::var("DBUS_SESSION_BUS_ADDRESS").unwrap(),
        std::env::var("XDG_RUNTIME_DIR").unwrap(),
    );
    let out = run_confined(&ask, &ws).await;
    assert!(!out.contains("sk-keyring"), "{out}");
    assert!(!out.contains("keyring\n"), "{out}");
    // The same line outside the sandbox does get it (so the test shows the sandbox at work).
    let outside = Command::new("sh").args(["-c", &ask]).output().unwrap();
    let outside = String::from_utf8_lossy(&outside.stdout);
    assert!(outside.contains("sk-keyring-5d1e"), "{outside}");

    // Removed in the settings screen: gone from the keyring.
    let view = screen
        .save(&runtime, save_openai("https://keys.test/v1", None, true))
        .unwrap();
    assert!(!view.has_api_key);
    assert_eq!(keyring_lookup("https://keys.test"), None);
    assert_eq!(key_sent(&e, screen.keys()), None);
}
