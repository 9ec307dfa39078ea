//! Benchmarks of provider input: the SSE parser's throughput on 64 MiB of ordinary delta
//! events and on one 64 MiB line (both fed in 16 KiB pieces, as a socket delivers them), and
//! a whole step against a local server that sends one 64 MB line (it must end at the line
//! bound, quickly). `make bench` runs it; figures and method are in BENCHMARKS.md
//! ("Provider input").

#![allow(clippy::unwrap_used, clippy::expect_used)]

use askfirst_core::provider::{Message, Provider, ProviderError};
use askfirst_core::providers::http::{MAX_EVENT_BYTES, MAX_LINE_BYTES};
use askfirst_core::providers::openai::OpenAiProvider;
use askfirst_core::providers::sse::SseParser;
use askfirst_core::providers::HttpSettings;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const SIXTY_FOUR_MB: usize = 64 * 1024 * 1024;
const PIECE: usize = 16 * 1024;

/// Feeds `bytes` in pieces; returns how many events came out.
fn parse(parser: &mut SseParser, bytes: &[u8]) -> usize {
    let mut events = 0;
    for piece in bytes.chunks(PIECE) {
        parser.feed(piece).unwrap();
        while parser.next_event().is_some() {
            events += 1;
        }
    }
    events
}

fn sse(c: &mut Criterion) {
    let event = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello there, \
                 this is one token or three\"}}]}\n\n";
    let events = event.repeat(SIXTY_FOUR_MB / event.len());
    let mut line = b"data: ".to_vec();
    line.resize(SIXTY_FOUR_MB, b'a');

    let mut group = c.benchmark_group("sse");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(events.len() as u64));
    group.bench_function("64 MiB of delta events", |b| {
        b.iter(|| {
            let mut parser = SseParser::new(MAX_LINE_BYTES, MAX_EVENT_BYTES);
            black_box(parse(&mut parser, events.as_bytes()))
        })
    });
    group.throughput(Throughput::Bytes(line.len() as u64));
    group.bench_function("one 64 MiB line, bounds lifted", |b| {
        b.iter(|| {
            // Bounds above the line: every byte is scanned and kept, to show the work is
            // linear in the line's length.
            let mut parser = SseParser::new(2 * SIXTY_FOUR_MB, 2 * SIXTY_FOUR_MB);
            black_box(parse(&mut parser, &line))
        })
    });
    group.finish();
}

/// A server that answers every request with headers and then one 64 MB line, in 64 KiB
/// writes, until the client goes.
async fn endless_line_server() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut request = vec![0u8; 64 * 1024];
                let _ = socket.read(&mut request).await;
                let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                            Connection: close\r\n\r\ndata: ";
                if socket.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                let piece = vec![b'a'; 64 * 1024];
                for _ in 0..SIXTY_FOUR_MB / piece.len() {
                    if socket.write_all(&piece).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    base
}

fn step(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let base = runtime.block_on(endless_line_server());
    let provider = OpenAiProvider::new(HttpSettings::new(&base, None, "m"));
    let conversation = vec![Message::User { text: "hi".into() }];
    let mut group = c.benchmark_group("provider step");
    group.sample_size(10);
    group.bench_function("a 64 MB line, to the error", |b| {
        b.iter(|| {
            let result = runtime.block_on(provider.step(&conversation, &[], &|_: &str| {}));
            assert!(matches!(result, Err(ProviderError::TooLarge { .. })));
        })
    });
    group.finish();
}

criterion_group!(benches, sse, step);
criterion_main!(benches);
