//! The TypeScript bindings in `ui/src/lib/bindings/` must be exactly what `ts-rs` generates
//! from this crate. `UPDATE_BINDINGS=1 cargo test -p askfirst-protocol --test bindings` (or
//! `make bindings`) rewrites them.

#![allow(clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn read_dir_files(dir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return files;
    };
    for entry in entries {
        let path = entry.expect("read dir entry").path();
        if path.extension().is_some_and(|e| e == "ts") {
            let name = path
                .file_name()
                .expect("file name")
                .to_string_lossy()
                .into_owned();
            files.insert(name, std::fs::read_to_string(&path).expect("read binding"));
        }
    }
    files
}

#[test]
fn bindings_are_current() {
    let committed: PathBuf =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/lib/bindings");
    let generated_dir =
        std::env::temp_dir().join(format!("askfirst-bindings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&generated_dir);
    askfirst_protocol::export_bindings(&generated_dir).expect("export bindings");
    let generated = read_dir_files(&generated_dir);
    let _ = std::fs::remove_dir_all(&generated_dir);
    assert!(
        generated.len() > 10,
        "expected the protocol's types, got {:?}",
        generated.keys()
    );

    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        let _ = std::fs::remove_dir_all(&committed);
        std::fs::create_dir_all(&committed).expect("create bindings dir");
        for (name, text) in &generated {
            std::fs::write(committed.join(name), text).expect("write binding");
        }
        return;
    }
    let current = read_dir_files(&committed);
    pretty_assertions::assert_eq!(
        current,
        generated,
        "ui/src/lib/bindings is out of date: run `make bindings` and commit the result"
    );
}

#[test]
fn provider_setting_ts_type_lists_every_kind() {
    use ts_rs::TS;
    let ts = askfirst_protocol::ProviderSetting::inline(&ts_rs::Config::default());
    for kind in askfirst_protocol::ProviderKind::ALL {
        assert!(
            ts.contains(&format!("\"{}\"", kind.as_str())),
            "{ts} lacks {}",
            kind.as_str()
        );
    }
    // And the wire strings round-trip.
    for text in [
        "demo",
        "openai",
        "ollama",
        "anthropic",
        "scripted:/tmp/s.json",
    ] {
        let value: askfirst_protocol::ProviderSetting =
            serde_json::from_value(serde_json::json!(text)).expect("parses");
        assert_eq!(serde_json::to_value(&value).expect("serialises"), text);
    }
    assert!(
        serde_json::from_value::<askfirst_protocol::ProviderSetting>(serde_json::json!("gemini"))
            .is_err()
    );
}
