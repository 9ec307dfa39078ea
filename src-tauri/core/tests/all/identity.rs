//! Identity, not spelling (issue "Keep the promise"): rules, the own-files denial and grants
//! compare what a path is on disk — another spelling, a second name (hard link), a bind mount
//! or an MCP tool's argument reach the same verdict as the plain path.

use askfirst_core::policy::{CallFacts, Policy, PolicyDecision, Rules};
use askfirst_core::tools::{Tool, ToolSet, Workspace};
use askfirst_protocol::PolicyLayer;
use pretty_assertions::assert_eq;
use serde_json::json;
use std::path::{Path, PathBuf};

/// A workspace and a data folder under one temporary folder; `data_inside` puts the data
/// folder inside the workspace (as `ws/data`).
pub struct Place {
    _dir: Option<tempfile::TempDir>,
    pub ws: PathBuf,
    pub data: PathBuf,
}

impl Place {
    pub fn new(data_inside: bool) -> Place {
        let dir = tempfile::tempdir().unwrap();
        let mut place = Place::under(dir.path(), data_inside);
        place._dir = Some(dir);
        place
    }

    /// The same, made in the folder `root` (which must exist and outlive the place).
    pub fn under(root: &Path, data_inside: bool) -> Place {
        let root = root.canonicalize().unwrap();
        let ws = root.join("ws");
        let data = if data_inside {
            ws.join("data")
        } else {
            root.join("data")
        };
        std::fs::create_dir_all(&ws).unwrap();
        std::fs::create_dir_all(data.join("sessions")).unwrap();
        std::fs::write(data.join("settings.json"), "{\"api_key\": \"sk-secret\"}").unwrap();
        std::fs::write(data.join("rules.toml"), "").unwrap();
        Place {
            _dir: None,
            ws,
            data,
        }
    }

    pub fn workspace(&self) -> Workspace {
        Workspace::open(&self.ws).unwrap().with_own_data(&self.data)
    }

    pub fn policy(&self, rules: &str) -> Policy {
        Policy::new(
            Rules::parse(rules, Path::new("rules.toml")),
            Some((self.data.as_path(), self.ws.as_path())),
        )
    }
}

/// What the policy decides about `tool` with `arguments`, with the tool's own facts.
pub fn verdict(
    policy: &Policy,
    ws: &Workspace,
    tool: &dyn Tool,
    arguments: &serde_json::Value,
) -> (PolicyDecision, PolicyLayer) {
    let raw = arguments.to_string();
    let (risk, fingerprint) = match tool.describe(&raw, ws) {
        Ok(d) => (d.risk, d.fingerprint),
        Err(_) => (askfirst_protocol::Risk::High, None),
    };
    let canonical = askfirst_core::canonical::canonical_json(&raw);
    let v = policy.decide(&CallFacts {
        tool_name: tool.name(),
        read_only: tool.read_only(),
        risk,
        main_arguments: &tool.main_arguments(&raw, ws),
        canonical_arguments: canonical.as_deref(),
        mcp_server: tool.mcp_server(),
        fingerprint: fingerprint.as_deref(),
    });
    (v.decision, v.layer)
}

pub fn builtin(name: &str) -> std::sync::Arc<dyn Tool> {
    ToolSet::builtin().get(name).unwrap()
}

fn is_hard_denial(v: &(PolicyDecision, PolicyLayer)) -> bool {
    matches!(v, (PolicyDecision::Deny { .. }, PolicyLayer::HardDenial))
}

#[test]
fn the_data_folder_inside_the_workspace_cannot_be_read() {
    let place = Place::new(true);
    let ws = place.workspace();
    let policy = place.policy("");
    let read = builtin("read_file");
    let list = builtin("list_directory");
    for path in [
        "data/settings.json",
        "data/rules.toml",
        "./data/settings.json",
    ] {
        let v = verdict(&policy, &ws, &*read, &json!({ "path": path }));
        assert!(is_hard_denial(&v), "{path}: {v:?}");
    }
    assert!(is_hard_denial(&verdict(
        &policy,
        &ws,
        &*list,
        &json!({"path": "data"})
    )));
    assert!(is_hard_denial(&verdict(
        &policy,
        &ws,
        &*list,
        &json!({"path": "data/sessions"})
    )));
    // The workspace itself is the agent's to list.
    assert_eq!(
        verdict(&policy, &ws, &*list, &json!({"path": "."})).0,
        PolicyDecision::Allow
    );
}

#[test]
fn a_second_name_of_an_own_file_is_an_own_file() {
    for inside in [true, false] {
        let place = Place::new(inside);
        std::fs::hard_link(
            place.data.join("settings.json"),
            place.ws.join("notes.json"),
        )
        .unwrap();
        std::fs::write(place.ws.join("other.json"), "{}").unwrap();
        let ws = place.workspace();
        let policy = place.policy("");
        let read = builtin("read_file");
        let v = verdict(&policy, &ws, &*read, &json!({"path": "notes.json"}));
        assert!(is_hard_denial(&v), "inside={inside}: {v:?}");
        let write = builtin("write_file");
        let v = verdict(
            &policy,
            &ws,
            &*write,
            &json!({"path": "notes.json", "content": "{}"}),
        );
        assert!(is_hard_denial(&v), "inside={inside}: {v:?}");
        assert_eq!(
            verdict(&policy, &ws, &*read, &json!({"path": "other.json"})).0,
            PolicyDecision::Allow
        );
    }
}

#[test]
fn the_demo_workspace_inside_the_data_folder_stays_usable() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().canonicalize().unwrap();
    let demo = data.join("demo");
    std::fs::create_dir_all(&demo).unwrap();
    std::fs::write(data.join("settings.json"), "{}").unwrap();
    std::fs::write(demo.join("plan.txt"), "x").unwrap();
    let ws = Workspace::open(&demo).unwrap().with_own_data(&data);
    let policy = Policy::new(Rules::default(), Some((data.as_path(), demo.as_path())));
    assert_eq!(
        verdict(
            &policy,
            &ws,
            &*builtin("read_file"),
            &json!({"path": "plan.txt"})
        )
        .0,
        PolicyDecision::Allow
    );
    assert!(matches!(
        verdict(
            &policy,
            &ws,
            &*builtin("write_file"),
            &json!({"path": "plan.txt", "content": "y"})
        ),
        (PolicyDecision::Ask { .. }, PolicyLayer::ToolDefault)
    ));
}

#[test]
fn a_backslash_is_part_of_a_name_not_a_folder() {
    let place = Place::new(false);
    let ws = place.workspace();
    let policy = place.policy("[[allow]]\ntool = \"write_file\"\nmatch = \"Folder/*.txt\"\n");
    let write = builtin("write_file");
    let v = verdict(
        &policy,
        &ws,
        &*write,
        &json!({"path": "Folder\\x.txt", "content": "hi"}),
    );
    assert!(matches!(v.0, PolicyDecision::Ask { .. }), "{v:?}");
    // The rule still allows what it names.
    std::fs::create_dir(place.ws.join("Folder")).unwrap();
    let v = verdict(
        &policy,
        &ws,
        &*write,
        &json!({"path": "Folder/x.txt", "content": "hi"}),
    );
    assert_eq!(v.0, PolicyDecision::Allow);
}

#[test]
fn a_grant_covers_only_the_state_its_card_showed() {
    let place = Place::new(false);
    std::fs::create_dir(place.ws.join("scratch")).unwrap();
    std::fs::write(place.ws.join("scratch/one.txt"), "1").unwrap();
    let ws = place.workspace();
    let policy = place.policy("");
    let delete = builtin("delete_path");
    let arguments = json!({"path": "scratch"});
    let raw = arguments.to_string();
    let shown = delete.describe(&raw, &ws).unwrap();
    assert!(shown.summary.contains("1 item"), "{}", shown.summary);
    let canonical = askfirst_core::canonical::canonical_json(&raw).unwrap();
    policy.grant(
        "delete_path",
        &canonical,
        shown.fingerprint.as_deref(),
        &shown.summary,
    );
    assert_eq!(
        verdict(&policy, &ws, &*delete, &arguments),
        (PolicyDecision::Allow, PolicyLayer::SessionGrant)
    );
    for n in 2..=5 {
        std::fs::write(place.ws.join(format!("scratch/{n}.txt")), "n").unwrap();
    }
    let v = verdict(&policy, &ws, &*delete, &arguments);
    assert!(
        matches!(v, (PolicyDecision::Ask { .. }, PolicyLayer::ToolDefault)),
        "{v:?}"
    );
    // A file with other content than shown asks again too.
    std::fs::write(place.ws.join("a.txt"), "old").unwrap();
    let write = builtin("write_file");
    let arguments = json!({"path": "a.txt", "content": "new"});
    let raw = arguments.to_string();
    let shown = write.describe(&raw, &ws).unwrap();
    policy.grant(
        "write_file",
        &askfirst_core::canonical::canonical_json(&raw).unwrap(),
        shown.fingerprint.as_deref(),
        &shown.summary,
    );
    assert_eq!(
        verdict(&policy, &ws, &*write, &arguments).1,
        PolicyLayer::SessionGrant
    );
    std::fs::write(place.ws.join("a.txt"), "changed by the person").unwrap();
    assert_eq!(
        verdict(&policy, &ws, &*write, &arguments).1,
        PolicyLayer::ToolDefault
    );
}

/// Runs `mount` with `args`; whether it worked (it needs root, as on CI).
fn mount(args: &[&str]) -> bool {
    std::process::Command::new("mount")
        .args(args)
        .status()
        .is_ok_and(|s| s.success())
}

fn unmount(path: &Path) {
    let _ = std::process::Command::new("umount").arg(path).status();
}

fn is_root() -> bool {
    nix_uid() == 0
}

fn nix_uid() -> u32 {
    std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m))
        .unwrap_or(u32::MAX)
}

#[test]
fn a_bind_mounted_alias_is_the_folder_it_shows() {
    if !is_root() {
        eprintln!("SKIPPED a_bind_mounted_alias_is_the_folder_it_shows: mounting needs root");
        return;
    }
    let place = Place::new(false);
    std::fs::create_dir_all(place.ws.join("Taxes")).unwrap();
    std::fs::write(place.ws.join("Taxes/2025.pdf"), "secret").unwrap();
    std::fs::create_dir_all(place.ws.join("Alias")).unwrap();
    std::fs::create_dir_all(place.ws.join("DATA")).unwrap();
    let taxes = place.ws.join("Taxes");
    let alias = place.ws.join("Alias");
    let data_alias = place.ws.join("DATA");
    assert!(mount(&[
        "--bind",
        taxes.to_str().unwrap(),
        alias.to_str().unwrap()
    ]));
    assert!(mount(&[
        "--bind",
        place.data.to_str().unwrap(),
        data_alias.to_str().unwrap()
    ]));
    let ws = place.workspace();
    let policy = place.policy("[[deny]]\ntool = \"*\"\nmatch = \"Taxes/**\"\n");
    let read = builtin("read_file");
    let taxes_verdict = verdict(&policy, &ws, &*read, &json!({"path": "Alias/2025.pdf"}));
    let own_verdict = verdict(&policy, &ws, &*read, &json!({"path": "DATA/settings.json"}));
    unmount(&alias);
    unmount(&data_alias);
    assert!(
        matches!(
            taxes_verdict,
            (PolicyDecision::Deny { .. }, PolicyLayer::UserRule)
        ),
        "{taxes_verdict:?}"
    );
    assert!(is_hard_denial(&own_verdict), "{own_verdict:?}");
}

#[test]
fn a_grant_follows_the_state_its_own_action_left() {
    let place = Place::new(false);
    let ws = place.workspace();
    let policy = place.policy("");
    let write = builtin("write_file");
    let arguments = json!({"path": "date.txt", "content": "today"});
    let raw = arguments.to_string();
    let canonical = askfirst_core::canonical::canonical_json(&raw).unwrap();
    let shown = write.describe(&raw, &ws).unwrap();
    policy.grant(
        "write_file",
        &canonical,
        shown.fingerprint.as_deref(),
        &shown.summary,
    );
    // The granted write ran and created the file: repeating it runs without asking…
    std::fs::write(place.ws.join("date.txt"), "today").unwrap();
    policy.grant_state_now(
        "write_file",
        &canonical,
        write.fingerprint(&raw, &ws).as_deref(),
    );
    assert_eq!(
        verdict(&policy, &ws, &*write, &arguments).1,
        PolicyLayer::SessionGrant
    );
    // …but once someone else changed the file, it asks again.
    std::fs::write(place.ws.join("date.txt"), "the person's own notes").unwrap();
    assert_eq!(
        verdict(&policy, &ws, &*write, &arguments).1,
        PolicyLayer::ToolDefault
    );
}

#[test]
fn the_data_folder_moved_away_is_still_ask_firsts_own() {
    let place = Place::new(true);
    let ws = place.workspace();
    let policy = place.policy("");
    // Something (not the agent's tools) renamed the data folder after start.
    std::fs::rename(&place.data, place.ws.join("old")).unwrap();
    let v = verdict(
        &policy,
        &ws,
        &*builtin("read_file"),
        &json!({"path": "old/settings.json"}),
    );
    assert!(is_hard_denial(&v), "{v:?}");
}

#[test]
fn a_second_name_of_a_file_in_a_denied_folder_is_denied_too() {
    let place = Place::new(false);
    std::fs::create_dir_all(place.ws.join("Private")).unwrap();
    std::fs::write(place.ws.join("Private/diary.txt"), "dear diary").unwrap();
    std::fs::hard_link(place.ws.join("Private/diary.txt"), place.ws.join("pub.txt")).unwrap();
    let ws = place.workspace();
    let policy = place.policy("[[deny]]\ntool = \"*\"\nmatch = \"Private/**\"\n");
    let v = verdict(
        &policy,
        &ws,
        &*builtin("read_file"),
        &json!({"path": "pub.txt"}),
    );
    assert!(
        matches!(v, (PolicyDecision::Deny { .. }, PolicyLayer::UserRule)),
        "{v:?}"
    );
    // A file of its own beside it is not.
    std::fs::write(place.ws.join("mine.txt"), "x").unwrap();
    assert_eq!(
        verdict(
            &policy,
            &ws,
            &*builtin("read_file"),
            &json!({"path": "mine.txt"})
        )
        .0,
        PolicyDecision::Allow
    );
}

#[test]
fn a_decomposed_spelling_of_a_denied_folder_is_denied() {
    let place = Place::new(false);
    std::fs::create_dir_all(place.ws.join("Priv\u{e9}")).unwrap();
    let ws = place.workspace();
    let policy = place.policy("[[deny]]\ntool = \"*\"\nmatch = \"Priv\u{e9}/**\"\n");
    // On a file system that does not normalise, `Prive\u{301}` is another (new) folder; a
    // server that normalises reads the denied one. Refusing is the safe side.
    let v = verdict(
        &policy,
        &ws,
        &*builtin("write_file"),
        &json!({"path": "Prive\u{301}/diary.txt", "content": "x"}),
    );
    assert!(matches!(v.0, PolicyDecision::Deny { .. }), "{v:?}");
}
