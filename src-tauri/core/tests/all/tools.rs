//! The file tools and the workspace confinement.

use askfirst_core::scripted::{demo_scenario, ensure_demo_folder, DEMO_FILES};
use askfirst_core::tools::{ToolError, ToolSet, Workspace};
use pretty_assertions::assert_eq;

fn ws() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path()).unwrap();
    (dir, ws)
}

#[test]
fn paths_outside_the_workspace_are_refused() {
    let (dir, ws) = ws();
    for bad in ["../x", "a/../../x", "/etc/passwd", "a/../../../etc"] {
        assert!(
            matches!(ws.resolve(bad), Err(ToolError::OutsideWorkspace { .. })),
            "{bad} must be refused"
        );
    }
    assert_eq!(ws.resolve(".").unwrap(), ws.root());
    assert_eq!(
        ws.resolve("new/deeper/file.txt").unwrap(),
        ws.root().join("new/deeper/file.txt")
    );

    #[cfg(unix)]
    {
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link-out")).unwrap();
        assert!(matches!(
            ws.resolve("link-out/secret.txt"),
            Err(ToolError::OutsideWorkspace { .. })
        ));
        std::fs::create_dir(dir.path().join("inside")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("inside"), dir.path().join("link-in")).unwrap();
        assert_eq!(
            ws.resolve("link-in/a.txt").unwrap(),
            ws.root().join("inside/a.txt")
        );
    }
}

#[tokio::test]
async fn write_file_describes_and_writes_atomically() {
    let (dir, ws) = ws();
    let tools = ToolSet::builtin();
    let write = tools.get("write_file").unwrap();
    let raw = r#"{"path": "notes/today.txt", "content": "one\ntwo\n"}"#;
    let described = write.describe(raw, &ws).unwrap();
    assert_eq!(
        described.summary,
        "Create the file notes/today.txt (2 lines)"
    );
    write.execute(raw, &ws).await.unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes/today.txt")).unwrap(),
        "one\ntwo\n"
    );
    assert_eq!(
        write.describe(raw, &ws).unwrap().summary,
        "Replace everything in notes/today.txt with new text (2 lines)"
    );
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path().join("notes"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, vec!["today.txt"]);
}

#[tokio::test]
async fn move_path_moves_into_a_folder_and_never_overwrites() {
    let (dir, ws) = ws();
    std::fs::write(dir.path().join("a.txt"), "A").unwrap();
    std::fs::write(dir.path().join("b.txt"), "B").unwrap();
    let tools = ToolSet::builtin();
    let mv = tools.get("move_path").unwrap();
    let raw = r#"{"from": "a.txt", "to": "Archive/"}"#;
    assert_eq!(
        mv.describe(raw, &ws).unwrap().summary,
        "Move a.txt to Archive/a.txt"
    );
    mv.execute(raw, &ws).await.unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("Archive/a.txt")).unwrap(),
        "A"
    );
    let clobber = r#"{"from": "b.txt", "to": "Archive/a.txt"}"#;
    assert!(mv.execute(clobber, &ws).await.is_err());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("Archive/a.txt")).unwrap(),
        "A"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("b.txt")).unwrap(),
        "B"
    );
}

#[test]
fn the_demo_is_valid_and_its_folder_is_made_once() {
    use askfirst_core::i18n::{with_language, Language};
    assert_eq!(demo_scenario().turns.len(), 4);
    // It speaks the person's language; its summary names the files as they are.
    let said = |language| {
        with_language(language, || {
            demo_scenario()
                .turns
                .iter()
                .map(|turn| {
                    let content = turn.tool_calls.iter().find_map(|c| {
                        let args: serde_json::Value =
                            serde_json::from_str(c.arguments.as_ref()?.get()).unwrap();
                        args["content"].as_str().map(str::to_owned)
                    });
                    (turn.say.clone().unwrap_or_default(), content)
                })
                .collect::<Vec<_>>()
        })
    };
    let english = said(Language::En);
    assert_eq!(english.len(), 4);
    assert!(english[0].0.starts_with("Hello! I'm the demo agent."));
    assert_eq!(
        english[1].1.as_deref(),
        Some(
            "Summary of your folder\n\
             - shopping-list.txt: five things to buy (milk, eggs, bread, tomatoes, coffee).\n\
             - meeting-notes.txt: the budget review moved to Thursday; holiday plans are due \
             Friday.\n\
             - old-report.txt: last year's draft report, out of date.\n"
        )
    );
    let chinese = said(Language::ZhCn);
    assert!(
        chinese[0].0.starts_with("你好！我是演示助手。"),
        "{chinese:?}"
    );
    let summary = chinese[1].1.clone().unwrap();
    assert!(
        summary.starts_with("你的文件夹摘要\n- shopping-list.txt："),
        "{summary}"
    );
    assert!(summary.ends_with("已经过时。\n"), "{summary}");
    let portuguese = said(Language::PtBr);
    assert!(portuguese[3]
        .0
        .starts_with("Era tudo o que eu tinha planejado."));
    assert_eq!(
        portuguese.iter().map(|t| t.1.is_some()).collect::<Vec<_>>(),
        vec![false, true, false, false]
    );
    let dir = tempfile::tempdir().unwrap();
    let demo = dir.path().join("Demo folder");
    ensure_demo_folder(&demo).unwrap();
    for (name, content) in DEMO_FILES {
        assert_eq!(std::fs::read_to_string(demo.join(name)).unwrap(), *content);
    }
    std::fs::remove_file(demo.join("shopping-list.txt")).unwrap();
    ensure_demo_folder(&demo).unwrap();
    assert!(
        !demo.join("shopping-list.txt").exists(),
        "the user's changes are kept"
    );
}
