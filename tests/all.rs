//! Tests of the desktop shell on tauri's MockRuntime (no display): commands through the real
//! IPC path and ACL, events out of the bridge.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod shell {
    pub mod commands;
    pub mod folder;
    pub mod ipc;
    pub mod language;
}
