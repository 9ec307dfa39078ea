//! Generates the Tauri context (tauri.conf.json) of the floor app.
fn main() {
    tauri_build::build()
}
