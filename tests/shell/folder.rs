//! The folder picker and the welcome through the real IPC path and ACL of a mock window. The
//! picker is answered by the automation hook `ASKFIRST_TEST_PICK_FOLDER` (DESIGN.md §6).

use askfirst_core::app::{App, AppConfig, Environment};
use askfirst_protocol::{CommandError, ErrorCode, FolderView, PickFolderResponse, WelcomeView};
use pretty_assertions::assert_eq;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{get_ipc_response, mock_builder, MockRuntime, INVOKE_KEY};
use tauri::webview::InvokeRequest;
use tauri::WebviewWindow;

struct Fixture {
    _dir: tempfile::TempDir,
    data: PathBuf,
    _app: tauri::App<MockRuntime>,
    window: WebviewWindow<MockRuntime>,
}

/// An app on a fresh data folder (the demo folder, no ASKFIRST_WORKSPACE unless `vars` says)
/// whose picker answers `picked`.
fn fixture(picked: &str, vars: &[(&str, &str)]) -> (Fixture, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let data = root.join("data");
    let taxes = root.join("Taxes");
    std::fs::create_dir_all(&taxes).unwrap();
    let picked = picked
        .replace("{taxes}", &taxes.display().to_string())
        .replace("{data}", &data.display().to_string());
    let mut env: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| {
            (
                (*k).to_owned(),
                v.replace("{taxes}", &taxes.display().to_string()),
            )
        })
        .collect();
    env.insert("ASKFIRST_DATA_DIR".into(), data.display().to_string());
    env.insert("ASKFIRST_TEST_PICK_FOLDER".into(), picked);
    let config = AppConfig::resolve(Environment::fixed(env), None).unwrap();
    let handle = tauri::async_runtime::block_on(async { tokio::runtime::Handle::current() });
    let (backend, events) = App::build(config, handle).unwrap();
    let app = askfirst_lib::build_app(
        mock_builder(),
        std::sync::Arc::new(backend),
        events,
        tauri::generate_context!(),
    )
    .unwrap();
    let window = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .unwrap();
    (
        Fixture {
            _dir: dir,
            data,
            _app: app,
            window,
        },
        taxes,
    )
}

fn invoke<T: serde::de::DeserializeOwned>(
    window: &WebviewWindow<MockRuntime>,
    cmd: &str,
) -> Result<T, CommandError> {
    get_ipc_response(
        window,
        InvokeRequest {
            cmd: cmd.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: InvokeBody::Json(json!({})),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        },
    )
    .map(|body| serde_json::from_value(body.deserialize::<Value>().unwrap()).unwrap())
    .map_err(|error| serde_json::from_value(error).unwrap())
}

#[test]
fn the_picked_folder_becomes_the_agent_s_and_is_remembered() {
    let (f, taxes) = fixture("{taxes}", &[]);
    let before: FolderView = invoke(&f.window, "get_folder").unwrap();
    assert!(before.is_demo && !before.set_by_environment);
    let picked: PickFolderResponse = invoke(&f.window, "pick_folder").unwrap();
    assert!(picked.chosen);
    assert_eq!(picked.folder.path, taxes.display().to_string());
    assert!(!picked.folder.is_demo);
    assert_eq!(
        invoke::<FolderView>(&f.window, "get_folder").unwrap(),
        picked.folder
    );
    let saved = std::fs::read_to_string(f.data.join("settings.json")).unwrap();
    assert!(saved.contains(&taxes.display().to_string()), "{saved}");
    let demo: FolderView = invoke(&f.window, "use_demo_folder").unwrap();
    assert!(demo.is_demo);
}

#[test]
fn a_closed_picker_changes_nothing() {
    let (f, _) = fixture("-", &[]);
    let before: FolderView = invoke(&f.window, "get_folder").unwrap();
    let picked: PickFolderResponse = invoke(&f.window, "pick_folder").unwrap();
    assert_eq!(
        picked,
        PickFolderResponse {
            folder: before,
            chosen: false
        }
    );
}

#[test]
fn picking_the_data_folder_is_refused_with_a_sentence() {
    let (f, _) = fixture("{data}", &[]);
    let error = invoke::<PickFolderResponse>(&f.window, "pick_folder").unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidRequest);
    assert_eq!(
        error.message,
        "That folder holds Ask First's own files (its settings, keys and history), which the \
         agent must never change. Choose another folder."
    );
    assert!(
        invoke::<FolderView>(&f.window, "get_folder")
            .unwrap()
            .is_demo
    );
}

#[test]
fn with_askfirst_workspace_the_picker_is_refused_and_no_welcome_shows() {
    let (f, taxes) = fixture("{taxes}", &[("ASKFIRST_WORKSPACE", "{taxes}")]);
    let folder: FolderView = invoke(&f.window, "get_folder").unwrap();
    assert!(folder.set_by_environment);
    assert_eq!(folder.path, taxes.display().to_string());
    let error = invoke::<PickFolderResponse>(&f.window, "pick_folder").unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidRequest);
    assert!(
        error.message.contains("ASKFIRST_WORKSPACE"),
        "{}",
        error.message
    );
    assert_eq!(
        invoke::<WelcomeView>(&f.window, "get_welcome").unwrap(),
        WelcomeView { show: false }
    );
}

#[test]
fn the_welcome_shows_once_until_it_is_finished() {
    let (f, _) = fixture("-", &[]);
    assert_eq!(
        invoke::<WelcomeView>(&f.window, "get_welcome").unwrap(),
        WelcomeView { show: true }
    );
    assert_eq!(
        invoke::<WelcomeView>(&f.window, "finish_welcome").unwrap(),
        WelcomeView { show: false }
    );
    assert_eq!(
        invoke::<WelcomeView>(&f.window, "get_welcome").unwrap(),
        WelcomeView { show: false }
    );
}
