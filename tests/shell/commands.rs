//! The table of the window's commands, kept in step in the four places that name them: the
//! handler (`tauri::generate_handler!` in `src-tauri/src/lib.rs`), the permissions made for them
//! (`COMMANDS` in `src-tauri/build.rs`), the window's capability (`tauri.conf.json`) and the one
//! place the UI calls them (`ui/src/lib/ipc.ts`). A command renamed, added or dropped in one
//! and not the others fails here, at `cargo test`, instead of as a refused call in the window.

use pretty_assertions::assert_eq;
use std::collections::BTreeSet;
use std::path::Path;

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The text between `start` (excluded) and the first `end` after it.
fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text.find(start).unwrap_or_else(|| panic!("no {start:?}")) + start.len();
    let len = text[from..]
        .find(end)
        .unwrap_or_else(|| panic!("no {end:?} after {start:?}"));
    &text[from..from + len]
}

/// Every string that follows `prefix` in `text`, up to the next quote.
fn quoted_after(text: &str, prefix: &str) -> BTreeSet<String> {
    text.match_indices(prefix)
        .map(|(at, _)| {
            let rest = &text[at + prefix.len()..];
            let end = rest.find(['\'', '"']).expect("a closing quote");
            rest[..end].to_owned()
        })
        .collect()
}

/// The commands `tauri::generate_handler!` registers: the last segment of each path.
fn handler() -> BTreeSet<String> {
    let lib = read("src-tauri/src/lib.rs");
    between(&lib, "tauri::generate_handler![", "]")
        .split(',')
        .map(str::trim)
        .filter(|path| !path.is_empty())
        .map(|path| path.rsplit("::").next().unwrap_or(path).to_owned())
        .collect()
}

/// The commands `build.rs` makes permissions for.
fn permissions() -> BTreeSet<String> {
    let build = read("src-tauri/build.rs");
    between(&build, "const COMMANDS: &[&str] = &[", "];")
        .split(',')
        .map(|name| name.trim().trim_matches('"'))
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The app's own commands the main window's capability allows (`allow-start-run` is
/// `start_run`; Tauri's own `core:` permissions are not commands of ours).
fn capability() -> BTreeSet<String> {
    let conf: serde_json::Value = serde_json::from_str(&read("tauri.conf.json")).unwrap();
    let capabilities = conf["app"]["security"]["capabilities"].as_array().unwrap();
    let main = capabilities
        .iter()
        .find(|c| c["identifier"] == "main-window")
        .expect("the main window's capability");
    main["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p.as_str())
        .filter_map(|p| p.strip_prefix("allow-"))
        .map(|p| p.replace('-', "_"))
        .collect()
}

/// The commands the UI calls (`call('start_run', …)` in `ipc.ts`, its only way to Tauri).
fn ui_calls() -> BTreeSet<String> {
    quoted_after(&read("ui/src/lib/ipc.ts"), "call('")
}

#[test]
fn the_handler_the_permissions_the_capability_and_ipc_ts_name_the_same_commands() {
    let handler = handler();
    assert!(handler.len() > 30, "the handler's table was not found");
    assert_eq!(
        permissions(),
        handler,
        "build.rs COMMANDS vs generate_handler!"
    );
    assert_eq!(
        capability(),
        handler,
        "tauri.conf.json vs generate_handler!"
    );
    assert_eq!(
        ui_calls(),
        handler,
        "ui/src/lib/ipc.ts vs generate_handler!"
    );
}
