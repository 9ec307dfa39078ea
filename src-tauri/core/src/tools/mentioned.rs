//! The paths an MCP tool's arguments (any shape) may name, so that path rules and the own-files
//! denial hold for MCP tools too, whatever an argument is called (DESIGN.md §7: identity, not
//! spelling). Bounded in count and length (§7.4).

use super::Workspace;
use crate::policy::{ArgumentKind, Contents, MainArgument};
use askfirst_shell_line::path::{
    home_rest, lexical, resolved_as_far_as_it_exists, through_proc, with_glued_values,
};

/// The most texts of one call's arguments that [`mentioned_paths`] looks at.
const MENTIONED_MAX_COUNT: usize = 1024;
/// The longest path the kernel takes (Linux's `PATH_MAX`). A longer text may still name one
/// once `./` and `a/..` are taken away by the letters (as Node's `path.resolve` does), so texts
/// up to [`MENTIONED_MAX_SCANNED`] are normalised so before they are judged.
const MENTIONED_MAX_LEN: usize = 4096;
/// Texts without a line break longer than this are not looked at, and the call is refused as
/// naming more than can be checked; texts with a line break are not paths.
const MENTIONED_MAX_SCANNED: usize = 1024 * 1024;

/// Every text in `arguments` (an MCP tool's arguments, any shape) that could name a path, as
/// the policy sees it ([`ArgumentKind::MentionedPath`]): a path relative to the workspace, an
/// absolute path, or a `file://` address. Inside the workspace its `text` is relative (so path
/// rules apply to it); outside, `text` is the absolute path (no rule matches it, but the
/// own-files denial still compares it). At most [`MENTIONED_MAX_COUNT`] texts are looked at;
/// past that one argument with an empty `text` and no `resolved` path says so, and every deny
/// or ask rule with a pattern matches it (refusing is the safe side).
pub(crate) fn mentioned_paths(arguments: &serde_json::Value, ws: &Workspace) -> Vec<MainArgument> {
    let mut texts = Vec::new();
    let mut too_many = false;
    let mut stack = vec![arguments];
    while let Some(value) = stack.pop() {
        match value {
            serde_json::Value::String(text) => {
                if texts.len() >= MENTIONED_MAX_COUNT {
                    too_many = true;
                } else if text.len() <= MENTIONED_MAX_SCANNED || text.contains('\n') {
                    texts.push(text.as_str());
                } else {
                    too_many = true;
                }
            }
            serde_json::Value::Array(items) => stack.extend(items.iter()),
            serde_json::Value::Object(map) => {
                // Keys can name paths too (`{"Private/diary.txt": true}`).
                for (key, item) in map {
                    if texts.len() >= MENTIONED_MAX_COUNT {
                        too_many = true;
                    } else if key.len() <= MENTIONED_MAX_SCANNED || key.contains('\n') {
                        texts.push(key.as_str());
                    } else {
                        too_many = true;
                    }
                    stack.push(item);
                }
            }
            serde_json::Value::Null | serde_json::Value::Bool(_) | serde_json::Value::Number(_) => {
            }
        }
    }
    mentioned_paths_in(texts, too_many, ws)
}

/// The texts of `texts` that could name a path, as in [`mentioned_paths`]; `too_many` says
/// that some were left out (then the whole workspace counts as mentioned).
pub(crate) fn mentioned_paths_in<'a>(
    texts: impl IntoIterator<Item = &'a str>,
    mut too_many: bool,
    ws: &Workspace,
) -> Vec<MainArgument> {
    let mut found = Vec::new();
    for (i, text) in texts.into_iter().enumerate() {
        if i >= MENTIONED_MAX_COUNT {
            too_many = true;
            break;
        }
        if text.len() <= MENTIONED_MAX_SCANNED {
            for part in with_glued_values(text) {
                for argument in mentioned_path(part, ws) {
                    if !found.contains(&argument) {
                        found.push(argument);
                    }
                }
            }
        } else if !text.contains('\n') {
            too_many = true;
        }
    }
    if too_many {
        found.push(MainArgument {
            kind: ArgumentKind::MentionedPath,
            text: String::new(),
            alias: None,
            resolved: None,
            contents: Contents::No,
        });
    }
    found
}

/// One text as a path, if it can be one (see [`mentioned_paths`]): where it leads when `..`
/// is resolved as the kernel does (after symlinks) and, where that differs, as the letters say
/// (`a/../b` is `b`, as Node's `path.resolve` and many MCP servers do), so that rules about
/// either apply.
fn mentioned_path(text: &str, ws: &Workspace) -> Vec<MainArgument> {
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.contains(['\n', '\0']) {
        return Vec::new();
    }
    let decoded;
    let spelled = match trimmed.strip_prefix("file://") {
        Some(rest) => {
            decoded = percent_decoded(rest.strip_prefix("localhost").unwrap_or(rest));
            decoded.as_str()
        }
        None => trimmed,
    };
    // `~/…` and `$HOME/…`, as a server or a shell would read them.
    let home_expanded;
    let spelled = match home_rest(spelled) {
        Some(rest) => match std::env::var_os("HOME") {
            Some(home) => {
                home_expanded = std::path::Path::new(&home).join(rest);
                home_expanded.to_str().unwrap_or(spelled)
            }
            None => spelled,
        },
        None => spelled,
    };
    let mut found = spelled_path(spelled, ws);
    // Where it leads for a program working in the workspace, as well as for Ask First (an MCP
    // server or another agent works in a folder of its own: both are judged).
    // (`/proc/<number>/cwd` too: the MCP server's or the agent's own process.)
    if let Some(through) = through_proc(spelled).map(|t| t.lead_from(ws.root())) {
        if let Some(through) = through.to_str() {
            for argument in spelled_path(through, ws) {
                if !found.contains(&argument) {
                    found.push(argument);
                }
            }
        }
    }
    found
}

/// [`mentioned_path`] of a text once `file://`, `~` and `$HOME` are read.
fn spelled_path(spelled: &str, ws: &Workspace) -> Vec<MainArgument> {
    let given = std::path::Path::new(spelled);
    // A bare word (`status`, `-la`) names a path only if something by that name exists.
    if !given.is_absolute()
        && !spelled.contains('/')
        && std::fs::symlink_metadata(ws.root().join(given)).is_err()
    {
        return Vec::new();
    }
    let joined = if given.is_absolute() {
        given.to_path_buf()
    } else {
        ws.root().join(given)
    };
    let mut found: Vec<MainArgument> = Vec::new();
    // Where the kernel would lead it (only for what it could take), where the letters lead it
    // and, for a relative text, where it leads from each folder above the workspace and the
    // data folder: a server resolves relative paths against folders of its own.
    let mut candidates = vec![Some(lexical(&joined))];
    if spelled.len() <= MENTIONED_MAX_LEN {
        candidates.insert(0, resolved_as_far_as_it_exists(&joined));
    }
    if !given.is_absolute() {
        let above = ws
            .root()
            .ancestors()
            .skip(1)
            .chain(
                ws.own_data()
                    .into_iter()
                    .flat_map(|d| d.ancestors().skip(1)),
            )
            .take(64);
        for folder in above {
            let from_there = lexical(&folder.join(given));
            let lands_inside = from_there.starts_with(ws.root())
                || ws.own_data().is_some_and(|d| from_there.starts_with(d));
            if lands_inside {
                candidates.push(Some(from_there));
            }
        }
    }
    for candidate in candidates {
        let Some(resolved) = candidate else {
            continue;
        };
        let argument = match resolved.strip_prefix(ws.root()) {
            Ok(relative) => MainArgument {
                kind: ArgumentKind::MentionedPath,
                text: crate::identity::real_spelling(ws.root(), relative),
                alias: None,
                resolved: Some(resolved),
                contents: Contents::No,
            },
            // Outside the workspace (`../data/rules.toml`): no rule is about it, but the
            // own-files denial still compares it.
            Err(_) => MainArgument {
                kind: ArgumentKind::MentionedPath,
                text: resolved.display().to_string(),
                alias: None,
                resolved: Some(resolved),
                contents: Contents::No,
            },
        };
        if argument.text.len() <= MENTIONED_MAX_LEN && !found.contains(&argument) {
            found.push(argument);
        }
    }
    found
}

/// `%XX` sequences of a `file://` address decoded (invalid ones kept as written).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied(),
            bytes.get(i + 2).copied(),
        ) {
            (b'%', Some(h), Some(l)) if hex(h).is_some() && hex(l).is_some() => {
                let value = hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0);
                out.push(u8::try_from(value).unwrap_or(b'?'));
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use crate::policy::{CallFacts, Policy, PolicyDecision, Rules};
    use crate::tools::Workspace;
    use askfirst_protocol::PolicyLayer;

    /// Found by a hostile review: `/proc/self/cwd/…` read only as a command would (the
    /// workspace) let an MCP tool, which works in Ask First's own folder, name Ask First's
    /// data folder past the own-files refusal. Both readings are judged. The check runs in a
    /// test process of its own working in the folder that holds the data folder (as Ask First
    /// works in the home folder above `~/.local/share/askfirst`).
    #[test]
    fn proc_self_cwd_is_judged_as_ask_first_and_a_command_would_read_it() {
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path().canonicalize().expect("canonical");
        std::fs::create_dir_all(root.join("ws")).expect("ws");
        std::fs::create_dir_all(root.join("data")).expect("data");
        std::fs::write(root.join("data/settings.json"), "{}").expect("settings");
        let out = std::process::Command::new(std::env::current_exe().expect("exe"))
            .args([
                "--exact",
                "tools::mentioned::tests::proc_self_cwd_child",
                "--ignored",
                "--test-threads=1",
            ])
            .current_dir(&root)
            .output()
            .expect("child");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("1 passed"), "{text}");
    }

    #[test]
    #[ignore = "run by proc_self_cwd_is_judged_as_ask_first_and_a_command_would_read_it"]
    fn proc_self_cwd_child() {
        let root = std::env::current_dir().expect("cwd");
        let (ws_dir, data) = (root.join("ws"), root.join("data"));
        let ws = Workspace::open(&ws_dir)
            .expect("workspace")
            .with_own_data(&data);
        let policy = Policy::new(
            Rules::parse("", std::path::Path::new("rules.toml")),
            Some((data.as_path(), ws_dir.as_path())),
        );
        let arguments = super::mentioned_paths(
            &serde_json::json!({ "path": "/proc/self/cwd/data/settings.json" }),
            &ws,
        );
        let verdict = policy.decide(&CallFacts {
            tool_name: "files__read_text_file",
            read_only: true,
            risk: askfirst_protocol::Risk::Low,
            main_arguments: &arguments,
            canonical_arguments: None,
            mcp_server: Some("files"),
            fingerprint: None,
        });
        assert!(
            matches!(verdict.decision, PolicyDecision::Deny { .. }),
            "{verdict:?}"
        );
        assert_eq!(verdict.layer, PolicyLayer::HardDenial);
    }

    /// False refusal found by a hostile review: `Rule::holds_everywhere_for_unseen` (rules.rs)
    /// refuses an MCP tool under "Never delete files and folders" as soon as any text of its
    /// arguments has a `/`, which [`super::mentioned_paths`] reads as a path: a browser told to
    /// open a web page, a message saying "and/or". Neither names a file of the person's.
    #[test]
    fn hostile3_never_delete_refuses_an_mcp_tool_given_a_web_address_or_a_slash() {
        let dir = tempfile::tempdir().expect("dir");
        let ws = Workspace::open(dir.path()).expect("workspace");
        std::fs::write(ws.root().join("notes.txt"), "notes").expect("notes");
        let policy = Policy::new(
            Rules::parse(
                "[[deny]]\ntool = \"delete_path\"\n",
                std::path::Path::new("rules.toml"),
            ),
            None,
        );
        let mut refused = Vec::new();
        for (tool, input) in [
            (
                "browser__navigate",
                serde_json::json!({ "url": "https://example.com/docs/intro" }),
            ),
            (
                "chat__send_message",
                serde_json::json!({ "text": "Lunch at 12:30 and/or a walk?" }),
            ),
        ] {
            let arguments = super::mentioned_paths(&input, &ws);
            let verdict = policy.decide(&CallFacts {
                tool_name: tool,
                read_only: false,
                risk: askfirst_protocol::Risk::Medium,
                main_arguments: &arguments,
                canonical_arguments: None,
                mcp_server: Some(tool.split("__").next().unwrap_or(tool)),
                fingerprint: None,
            });
            if matches!(verdict.decision, PolicyDecision::Deny { .. }) {
                refused.push(format!("{tool} {input}: {verdict:?}"));
            }
        }
        assert!(refused.is_empty(), "{}", refused.join("\n"));
    }

    /// Found by a hostile review: `Rule::holds_everywhere_for_unseen` (rules.rs) holds "Never
    /// delete files and folders" for an MCP tool only when a text of its arguments reads as a
    /// path, so an MCP server's command tool (a desktop or shell server) given `find . -delete`
    /// (no `/`, no name of a file) is let through, and an allow rule for it then runs it
    /// unasked: it deletes everything in the folder, where our own `run_command` under the same
    /// rules runs with the folder read-only.
    #[test]
    #[ignore = "not decided yet: what an MCP tool does with a text that names no path cannot be read, and the person's allow rule for that very tool is trusted"]
    fn hostile3_never_delete_lets_an_allowed_mcp_command_tool_delete_everything() {
        let dir = tempfile::tempdir().expect("dir");
        let ws = Workspace::open(dir.path()).expect("workspace");
        std::fs::write(ws.root().join("notes.txt"), "notes").expect("notes");
        let policy = Policy::new(
            Rules::parse(
                "[[deny]]\ntool = \"delete_path\"\n\
                 [[allow]]\ntool = \"desktop__execute_command\"\n",
                std::path::Path::new("rules.toml"),
            ),
            None,
        );
        for line in ["find . -delete", "rm -rf notes.txt"] {
            let arguments = super::mentioned_paths(&serde_json::json!({ "command": line }), &ws);
            let verdict = policy.decide(&CallFacts {
                tool_name: "desktop__execute_command",
                read_only: false,
                risk: askfirst_protocol::Risk::High,
                main_arguments: &arguments,
                canonical_arguments: None,
                mcp_server: Some("desktop"),
                fingerprint: None,
            });
            assert!(
                !matches!(verdict.decision, crate::policy::PolicyDecision::Allow),
                "{line}: {verdict:?}"
            );
        }
    }
}
