//! Integration tests of askfirst-core (one binary, modules below).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod all {
    pub mod agent;
    pub mod app;
    pub mod approvals;
    pub mod audit;
    pub mod case_insensitive;
    pub mod flood;
    pub mod history;
    pub mod identity;
    pub mod mcp;
    pub mod policy;
    pub mod providers;
    pub mod race;
    pub mod rules_meaning;
    pub mod sandbox;
    pub mod sessions;
    pub mod support;
    pub mod tools;
    pub mod tools_builtin;
}
