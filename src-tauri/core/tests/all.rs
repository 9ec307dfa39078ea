//! Integration tests of askfirst-core (one binary, modules below).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod all {
    pub mod agent;
    pub mod app;
    pub mod approvals;
    pub mod audit;
    pub mod call_detail;
    pub mod card_truth;
    pub mod case_insensitive;
    pub mod changes;
    pub mod error_catalogue;
    pub mod error_examples;
    pub mod flood;
    pub mod folders;
    pub mod history;
    pub mod hostile_try_first;
    pub mod i18n;
    pub mod i18n_words;
    pub mod identity;
    pub mod keyring;
    pub mod keys;
    pub mod language;
    pub mod mcp;
    pub mod mcp_runs;
    pub mod mcp_supervision;
    pub mod misbehaving;
    pub mod notify_answers;
    pub mod place;
    pub mod policy;
    pub mod policy_runs;
    pub mod probe;
    pub mod probe_edges;
    pub mod providers;
    pub mod race;
    pub mod reword;
    pub mod rules_commands;
    pub mod rules_contents;
    pub mod rules_editor;
    pub mod rules_meaning;
    pub mod rules_window;
    pub mod sandbox;
    pub mod sessions;
    pub mod sessions_index;
    pub mod stop;
    pub mod supervision;
    pub mod support;
    pub mod tools;
    pub mod tools_builtin;
    pub mod tools_command;
    pub mod tools_fetch;
    pub mod try_first;
    pub mod undo;
    pub mod undo_attack;
    pub mod wording;
}
