//! What shutting a command in costs: `run_command {"command": "true"}` through the tool
//! (bubblewrap when this machine has it, see `tools::sandbox`), against `sh -c true` spawned
//! and waited for directly with the same clean environment (what an unconfined command costs
//! at the least). Figures and method are in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use askfirst_core::tools::sandbox::{command_env, Confinement};
use askfirst_core::tools::{ToolSet, Workspace};
use criterion::{criterion_group, criterion_main, Criterion};

fn spawn(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("askfirst-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ws = Workspace::open(&dir).unwrap();
    let tool = ToolSet::builtin().get("run_command").unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    eprintln!("confinement: {:?}", Confinement::detected());
    let mut group = c.benchmark_group("run_command_true");
    group.bench_function("shut_in_when_available", |b| {
        b.iter(|| {
            runtime
                .block_on(tool.execute(r#"{"command": "true"}"#, &ws))
                .unwrap()
        })
    });
    group.bench_function("sh_c_true_unconfined", |b| {
        b.iter(|| {
            std::process::Command::new("sh")
                .args(["-c", "true"])
                .current_dir(&dir)
                .env_clear()
                .envs(command_env(None, None))
                .status()
                .unwrap()
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, spawn);
criterion_main!(benches);
