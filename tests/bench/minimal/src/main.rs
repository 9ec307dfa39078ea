//! The floor for Ask First's memory and size figures: a Tauri 2 window showing one static page
//! and nothing else (no commands, no tray, no plugins). BENCHMARKS.md compares the two.
#![forbid(unsafe_code)]

fn main() {
    if let Err(error) = tauri::Builder::default().run(tauri::generate_context!()) {
        eprintln!("askfirst-floor: {error}");
        std::process::exit(1);
    }
}
