//! The settings screen's checks of "who answers": `test_connection` (one tiny request with the
//! settings on screen) and `find_local_models` (is Ollama running here, with which models).
//! Each only parses, calls `askfirst_core::app::probe` and returns its value; the requests run
//! on the async runtime, never on the GUI thread, and the settings file is read on the blocking
//! pool.

use askfirst_core::app::probe::{self, ConnectionTest};
use askfirst_core::app::{internal_error, App};
use askfirst_protocol::{
    CommandError, ConnectionTestResult, FindLocalModelsRequest, LocalModels, TestConnectionRequest,
};
use std::sync::Arc;
use tauri::State;

/// Sends one tiny request with the provider settings on screen (not yet saved; a key not typed
/// is the saved one) and says what happened in one sentence, within
/// [`probe::TEST_TIME`]. JS: `invoke('test_connection', { request })`.
///
/// # Errors
/// `internal` only if the settings file could not be read off the GUI thread; every outcome
/// of the test itself (a refused key, nothing at the address, …) is a result, not an error.
#[tauri::command]
pub async fn test_connection(
    app: State<'_, Arc<App>>,
    request: TestConnectionRequest,
) -> Result<ConnectionTestResult, CommandError> {
    let app = Arc::clone(&app);
    let target = tauri::async_runtime::spawn_blocking(move || app.connection_target(&request))
        .await
        .map_err(|error| internal_error(format!("the connection test did not start: {error}")))?;
    let outcome: ConnectionTest = match target {
        Ok((kind, http)) => probe::test_connection(kind, &http, probe::TEST_TIME).await,
        Err(outcome) => outcome,
    };
    Ok(outcome.to_result())
}

/// Whether Ollama answers at the address on screen ("" for `127.0.0.1:11434`) and which models
/// it has, within [`probe::FIND_LOCAL_TIME`]. JS: `invoke('find_local_models', { request })`.
#[tauri::command]
pub async fn find_local_models(request: FindLocalModelsRequest) -> LocalModels {
    probe::find_local_models(&request.base_url, probe::FIND_LOCAL_TIME).await
}
