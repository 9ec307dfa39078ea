//! How long the reading takes on hostile lines (DESIGN.md §7.5: parsed in linear time): 1 MB
//! of words, of commands, of one quoted word, of braces, of redirections; 10,000 nested `$(`
//! and `(`, 10,000 backquotes and `eval`s; and the longest plain line (64 KiB, the most the
//! bash grammar is given). Each line is read by every user of the reading: the strict reading, the lenient
//! one, the hard denials, the card's effects and every reading of another agent's line.
//! Figures: BENCHMARKS.md ("Reading a command line").

use askfirst_shell_line::{
    all_simple_commands, effects, every_reading, hard_denial, plain_commands, Place,
};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

const MB: usize = 1 << 20;

/// `piece` repeated until the line is `len` bytes long (about).
fn repeated(piece: &str, len: usize) -> String {
    piece.repeat(len / piece.len())
}

fn lines() -> Vec<(&'static str, String)> {
    let nested =
        |open: &str, close: &str, n: usize| format!("{}echo x{}", open.repeat(n), close.repeat(n));
    vec![
        ("1MB of words", repeated("word ", MB)),
        ("1MB of commands", repeated("ls a && ", MB)),
        ("1MB quoted", format!("echo '{}'", "x".repeat(MB))),
        ("1MB of braces", repeated("{a,", MB)),
        ("1MB of redirections", repeated("> a ", MB)),
        ("10k nested $(", nested("echo $(", ")", 10_000)),
        ("10k nested (", nested("(", ")", 10_000)),
        ("10k backquotes", repeated("`echo ", 10_000 * 6)),
        ("10k eval", repeated("eval ", 10_000 * 5)),
        // The longest lines the strict reading (and so the bash grammar) reads at all, and
        // half of it: plain, so that both the hand-written check and the grammar read them.
        (
            "32KiB plain line",
            format!("{}ls a", repeated("ls a && ", 32 * 1024 - 16)),
        ),
        (
            "64KiB plain line",
            format!("{}ls a", repeated("ls a && ", 64 * 1024 - 16)),
        ),
        (
            "64KiB one command",
            format!("ls {}", repeated("a ", 64 * 1024 - 16)),
        ),
    ]
}

fn hostile(c: &mut Criterion) {
    let place = Place {
        root: "/nowhere/ws".into(),
        home: Some("/nowhere/home".into()),
        confined: true,
    };
    let mut group = c.benchmark_group("hostile");
    group.sample_size(10);
    for (name, line) in lines() {
        group.bench_function(format!("plain/{name}"), |b| {
            b.iter(|| plain_commands(black_box(&line)))
        });
        group.bench_function(format!("lenient/{name}"), |b| {
            b.iter(|| all_simple_commands(black_box(&line)))
        });
        group.bench_function(format!("hard/{name}"), |b| {
            b.iter(|| hard_denial(black_box(&line)))
        });
        group.bench_function(format!("effects/{name}"), |b| {
            b.iter(|| effects(black_box(&line), &place))
        });
        group.bench_function(format!("every_reading/{name}"), |b| {
            b.iter(|| every_reading(black_box(&line)))
        });
    }
    group.finish();
}

criterion_group!(benches, hostile);
criterion_main!(benches);
