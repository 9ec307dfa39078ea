//! An opt-in measurement of how long the GUI thread is kept from its event loop (for
//! `tests/bench/gui_stall.py` and BENCHMARKS.md, "The GUI thread").
//!
//! With `ASKFIRST_STALL_PROBE=<file>` set, a background thread posts a no-op to the main thread
//! (`AppHandle::run_on_main_thread`), waits until it has run, sleeps 2 ms and posts the next, so
//! one probe is in flight at a time and each sample is one stall, not a queue of them. Each
//! sample is appended to `<file>` as one line `<posted at, Unix µs> <late by, µs>`; lines are
//! written in batches every 250 ms and once more when the app exits, so a bench can read the
//! samples of a time window while the app runs. Unset, nothing is started (no cost).

use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tauri::{AppHandle, Runtime};

/// The environment variable that switches the probe on and names its output file.
pub const ENV: &str = "ASKFIRST_STALL_PROBE";

/// The pause between one probe having run and the next being posted.
const INTERVAL: Duration = Duration::from_millis(2);

/// How often the samples so far are appended to the file.
const FLUSH_EVERY: Duration = Duration::from_millis(250);

/// Starts the probe thread when [`ENV`] names a file; otherwise does nothing. The thread ends
/// when the main thread no longer accepts work (the app is quitting).
pub fn start_if_asked<R: Runtime>(app: &AppHandle<R>) {
    let Some(path) = std::env::var_os(ENV).filter(|v| !v.is_empty()) else {
        return;
    };
    let app = app.clone();
    let spawned = std::thread::Builder::new()
        .name("askfirst-stall-probe".into())
        .spawn(move || probe(&app, PathBuf::from(path)));
    if let Err(error) = spawned {
        eprintln!("askfirst: could not start the stall probe: {error}");
    }
}

fn unix_micros() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_micros())
        .unwrap_or(0)
}

fn probe<R: Runtime>(app: &AppHandle<R>, path: PathBuf) {
    let mut file = match std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
    {
        Ok(file) => file,
        Err(error) => {
            eprintln!(
                "askfirst: the stall probe cannot write {}: {error}",
                path.display()
            );
            return;
        }
    };
    let mut batch = String::new();
    let mut flushed = Instant::now();
    loop {
        let (ran, has_run) = mpsc::sync_channel::<Instant>(1);
        let posted_at = unix_micros();
        let posted = Instant::now();
        if app
            .run_on_main_thread(move || {
                let _ = ran.send(Instant::now());
            })
            .is_err()
        {
            break;
        }
        // The closure is dropped unrun when the event loop ends: that ends the probe too.
        let Ok(ran_at) = has_run.recv() else {
            break;
        };
        let late = ran_at.saturating_duration_since(posted).as_micros();
        batch.push_str(&format!("{posted_at} {late}\n"));
        if flushed.elapsed() >= FLUSH_EVERY {
            let _ = file.write_all(batch.as_bytes());
            batch.clear();
            flushed = Instant::now();
        }
        std::thread::sleep(INTERVAL);
    }
    let _ = file.write_all(batch.as_bytes());
}
