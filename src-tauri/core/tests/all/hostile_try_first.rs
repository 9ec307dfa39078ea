//! Hostile review of "tried first": each test fails when a promise is broken.

use super::policy::{rules, TIMEOUT};
use super::support::{finished, harness_with, Harness};
use super::try_first::{commands, tried_first};
use askfirst_core::approvals::AnswerMode;
use askfirst_protocol::{
    AgentEvent, ApprovalRequest, CallDetail, ChangeKind, Decision, FileChange,
};
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;

fn shown(card: &ApprovalRequest) -> (Vec<FileChange>, u64) {
    let Some(CallDetail::Command {
        tried: Some(tried), ..
    }) = &card.detail
    else {
        return (Vec::new(), 0);
    };
    (tried.changes.clone(), tried.more)
}

/// Runs the run; approves every card (collecting them) until the run ends.
async fn approve_all(h: &mut Harness) -> Vec<ApprovalRequest> {
    let mut cards = Vec::new();
    loop {
        let ev = tokio::time::timeout(std::time::Duration::from_secs(60), async {
            loop {
                let all = h.events.all();
                let seen = all
                    .iter()
                    .filter(|e| matches!(e, AgentEvent::ApprovalRequired(_)))
                    .count();
                if seen > cards.len() {
                    if let Some(AgentEvent::ApprovalRequired(r)) = all
                        .iter()
                        .filter(|e| matches!(e, AgentEvent::ApprovalRequired(_)))
                        .nth(cards.len())
                    {
                        return Some(r.clone());
                    }
                }
                if all
                    .iter()
                    .any(|e| matches!(e, AgentEvent::RunFinished { .. }))
                {
                    return None;
                }
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
        })
        .await
        .expect("run did not end");
        match ev {
            Some(card) => {
                h.runtime
                    .resolve_approval(card.approval_id, Decision::Approve)
                    .unwrap();
                cards.push(card);
            }
            None => return cards,
        }
    }
}

fn overlay_xattrs(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(p) = todo.pop() {
        if let Ok(names) = xattr::list(&p) {
            for n in names {
                if n.as_bytes().starts_with(b"user.overlay.") {
                    out.push(format!("{} {:?}", p.display(), n));
                }
            }
        }
        if std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_dir()) {
            for c in std::fs::read_dir(&p).unwrap().flatten() {
                todo.push(c.path());
            }
        }
    }
    out
}

/// (xattrs) A command forges overlay marks on what it makes and on a real folder.
#[tokio::test]
async fn forged_overlay_marks_delete_or_hide_nothing() {
    let py = r#"/usr/bin/python3 -c '
import os
def s(p,n,v):
    try: os.setxattr(p,n,v); print("set",p,n)
    except Exception as e: print("no",p,n,e)
open("fake","w").close(); s("fake","user.overlay.whiteout",b"")
s("fake","trusted.overlay.whiteout",b"")
os.mkdir("E"); s("E","user.overlay.opaque",b"y")
s("D","user.overlay.opaque",b"y")
s("D","user.overlay.redirect",b"/X")
open("keep.txt","a").write("more")
s("keep.txt","user.overlay.metacopy",b"")
s("keep.txt","user.overlay.whiteout",b"")
'"#;
    let mut h = harness_with(commands(&[py]), TIMEOUT, rules(""), AnswerMode::Interactive);
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    std::fs::write(root.join("keep.txt"), "keep").unwrap();
    std::fs::create_dir(root.join("D")).unwrap();
    std::fs::write(root.join("D/f"), "f").unwrap();
    h.runtime.start_run("forge").unwrap();
    let cards = approve_all(&mut h).await;
    let done = finished(&h.events.all());
    eprintln!("cards: {:?}", cards.iter().map(shown).collect::<Vec<_>>());
    eprintln!("done: {:?}", done[0]);
    assert_eq!(std::fs::read_to_string(root.join("D/f")).unwrap(), "f");
    assert!(root.join("keep.txt").exists());
    let marks = overlay_xattrs(&root);
    assert!(
        marks.is_empty(),
        "overlay marks reached the real folder: {marks:?}"
    );
}

async fn delete_folder_with_pdf(name: &[u8]) -> (bool, Vec<ApprovalRequest>) {
    let mut h = harness_with(
        commands(&["rm -rf ./Docs*"]),
        TIMEOUT,
        rules("[[deny]]\ntool = \"delete_path\"\nmatch = \"**/*.pdf\"\n"),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return (true, Vec::new());
    }
    let docs = root.join(std::ffi::OsStr::from_bytes(name));
    std::fs::create_dir(&docs).unwrap();
    std::fs::write(docs.join("a.pdf"), "%PDF").unwrap();
    h.runtime.start_run("rm").unwrap();
    let cards = approve_all(&mut h).await;
    eprintln!("cards: {:?}", cards.iter().map(shown).collect::<Vec<_>>());
    eprintln!("done: {:?}", finished(&h.events.all())[0]);
    (docs.join("a.pdf").exists(), cards)
}

/// (never rule) control: a plain folder holding a PDF is not deleted past "never delete *.pdf".
#[tokio::test]
async fn never_delete_pdf_holds_for_a_plain_folder() {
    let (kept, _) = delete_folder_with_pdf(b"Docs").await;
    assert!(kept, "a PDF was deleted past a never rule");
}

/// (never rule) the folder's name is not UTF-8: the card/judge see `Docs\u{FFFD}`.
#[tokio::test]
async fn never_delete_pdf_holds_for_a_folder_with_a_non_utf8_name() {
    let (kept, cards) = delete_folder_with_pdf(b"Docs\xff").await;
    assert!(
        kept,
        "a PDF was deleted past a never rule; cards: {:?}",
        cards.iter().map(shown).collect::<Vec<_>>()
    );
}

/// (card = apply) a deletion sorted after 2000 harmless creations.
#[tokio::test]
async fn a_deletion_past_the_cards_list_is_named() {
    let mut h = harness_with(
        commands(&["i=0; while [ $i -le 2000 ]; do : > a$i; i=$((i+1)); done; rm zz-thesis.doc"]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    std::fs::write(root.join("zz-thesis.doc"), "years of work").unwrap();
    h.runtime.start_run("many").unwrap();
    let cards = approve_all(&mut h).await;
    let listed = cards.iter().any(|c| {
        shown(c)
            .0
            .iter()
            .any(|f| f.path == "zz-thesis.doc" && f.change == ChangeKind::Deleted)
    });
    let more: Vec<u64> = cards.iter().map(|c| shown(c).1).collect();
    assert!(
        root.join("zz-thesis.doc").exists() || listed,
        "zz-thesis.doc was deleted but the card did not name it (more = {more:?})"
    );
}

/// (card = apply) a new file's setuid / world-writable mode.
#[tokio::test]
async fn a_new_files_dangerous_mode_is_on_the_card() {
    use std::os::unix::fs::PermissionsExt as _;
    let mut h = harness_with(
        commands(&["echo 'echo hi' > run.sh; chmod 4777 run.sh; mkdir pub; chmod 1777 pub"]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    h.runtime.start_run("mode").unwrap();
    let cards = approve_all(&mut h).await;
    let changes: Vec<FileChange> = cards.iter().flat_map(|c| shown(c).0).collect();
    eprintln!("{changes:?}");
    for (name, bits) in [("run.sh", 0o4002), ("pub", 0o1002)] {
        let Ok(meta) = std::fs::metadata(root.join(name)) else {
            continue;
        };
        let mode = meta.permissions().mode() & 0o7777;
        if mode & bits != 0 {
            let on_card = changes
                .iter()
                .any(|c| c.path == name && c.mode == Some(mode));
            assert!(
                on_card,
                "{name} applied with mode {mode:o}, which the card did not show"
            );
        }
    }
}

/// (outside) a folder on the way becomes a link out of the folder between card and Approve.
#[tokio::test]
async fn a_folder_replaced_by_a_link_before_approve_writes_nothing_outside() {
    let mut h = harness_with(
        commands(&["echo x > Sub/new.txt; mkdir Sub/deep; echo y > Sub/deep/f"]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir(root.join("Sub")).unwrap();
    h.runtime.start_run("link").unwrap();
    let card = h.events.approval_required().await;
    std::fs::rename(root.join("Sub"), root.join("Sub.old")).unwrap();
    std::os::unix::fs::symlink(outside.path(), root.join("Sub")).unwrap();
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    let left: Vec<_> = std::fs::read_dir(outside.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "written outside the folder: {left:?}");
}

/// (outside / upper) the command looks for its own upper folder and Ask First's runs.
#[tokio::test]
async fn the_command_cannot_reach_the_upper_or_work_folders() {
    let uid = nix::unistd::getuid().as_raw();
    let tmp = std::fs::canonicalize(std::env::temp_dir()).unwrap();
    let runs = tmp.join(format!("askfirst-runs-{uid}"));
    let line = format!(
        "ls -d {r}/*/upper 2>/dev/null | wc -l | sed 's/^/SEEN=/'; for u in {r}/*/upper {r}/*/work; do echo pwn > $u/pwn.txt 2>/dev/null && echo WROTE; done; \
         grep overlay /proc/self/mountinfo; ls -la /proc/1/cwd/ 2>&1 | head -3; echo pwn > /proc/1/cwd/via-proc.txt 2>&1; echo hi > now.txt",
        r = runs.display()
    );
    let mut h = harness_with(
        commands(&[&line]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    h.runtime.start_run("upper").unwrap();
    let cards = approve_all(&mut h).await;
    let all: Vec<(ChangeKind, String)> = cards
        .iter()
        .flat_map(|c| shown(c).0)
        .map(|c| (c.change, c.path))
        .collect();
    let output: Vec<String> = cards
        .iter()
        .filter_map(|c| match &c.detail {
            Some(CallDetail::Command { tried: Some(t), .. }) => Some(t.output.clone()),
            _ => None,
        })
        .collect();
    eprintln!("cards: {all:?}\noutput: {output:?}");
    assert!(
        output
            .iter()
            .all(|o| !o.contains("WROTE") && !o.contains("SEEN=1")),
        "{output:?}"
    );
    // Whatever reached the real folder was on the card.
    for e in std::fs::read_dir(&root).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        assert!(
            all.iter().any(|(_, p)| *p == name),
            "{name} reached the folder without being listed"
        );
    }
}

/// (reading) a place hidden from reading never reaches the model nor the folder by a try.
#[tokio::test]
async fn a_hidden_file_never_reaches_the_model_through_a_try() {
    let line = "cat Private/secret.txt; cp -a Private Copy 2>&1; ln Private/secret.txt hl 2>&1; mv Private Moved 2>&1; \
                rm -rf Private 2>&1; cat /proc/1/root$PWD/Private/secret.txt 2>&1; ls Private; echo done > out.txt";
    let mut h = harness_with(
        commands(&[
            line,
            "cat Copy/secret.txt Moved/secret.txt hl 2>&1; ls -la Private",
        ]),
        TIMEOUT,
        rules("[[deny]]\ntool = \"read_file\"\nmatch = \"Private/**\"\n"),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    std::fs::create_dir(root.join("Private")).unwrap();
    std::fs::write(root.join("Private/secret.txt"), "TOPSECRET-42").unwrap();
    h.runtime.start_run("leak").unwrap();
    let cards = approve_all(&mut h).await;
    eprintln!("cards: {:?}", cards.iter().map(shown).collect::<Vec<_>>());
    let sent = format!("{:?}", h.requests.lock().unwrap());
    assert!(!sent.contains("TOPSECRET"), "the secret reached the model");
    for c in &cards {
        assert!(
            !format!("{c:?}").contains("TOPSECRET"),
            "card shows the secret: {c:?}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(root.join("Private/secret.txt")).unwrap(),
        "TOPSECRET-42"
    );
}

/// (never rule) "never write *.pdf": a PDF made by renaming a file the command made.
#[tokio::test]
async fn never_write_pdf_holds_for_links_modes_and_folders() {
    let line =
        "mkdir -p N/M && echo x > N/M/b.pdf; ln -s keep.txt l.pdf; chmod 600 old.pdf; : > C.PDF";
    let mut h = harness_with(
        commands(&[line]),
        TIMEOUT,
        rules("[[deny]]\ntool = \"write_file\"\nmatch = \"**/*.pdf\"\n"),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    std::fs::write(root.join("keep.txt"), "k").unwrap();
    std::fs::write(root.join("old.pdf"), "%PDF").unwrap();
    h.runtime.start_run("pdf").unwrap();
    let cards = approve_all(&mut h).await;
    eprintln!("cards: {:?}", cards.iter().map(shown).collect::<Vec<_>>());
    assert!(!root.join("N/M/b.pdf").exists() && !root.join("l.pdf").exists());
    use std::os::unix::fs::PermissionsExt as _;
    assert_ne!(
        std::fs::metadata(root.join("old.pdf"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777,
        0o600
    );
}

/// (card = apply, never rule) the person saves a PDF into a subfolder of a folder the command
/// deleted, between the card and Approve; and edits a file in it.
#[tokio::test]
async fn a_file_saved_into_a_deleted_folder_after_the_card_is_not_deleted() {
    let mut h = harness_with(
        commands(&["rm -rf Docs"]),
        TIMEOUT,
        rules("[[deny]]\ntool = \"delete_path\"\nmatch = \"**/*.pdf\"\n"),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    std::fs::create_dir_all(root.join("Docs/sub")).unwrap();
    std::fs::write(root.join("Docs/sub/old.txt"), "old").unwrap();
    h.runtime.start_run("rm").unwrap();
    let card = h.events.approval_required().await;
    eprintln!("card: {:?}", shown(&card));
    std::fs::write(root.join("Docs/sub/new.pdf"), "%PDF saved meanwhile").unwrap();
    std::fs::write(root.join("Docs/sub/old.txt"), "edited meanwhile").unwrap();
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    eprintln!("done: {:?}", finished(&h.events.all())[0]);
    assert!(
        root.join("Docs/sub/new.pdf").exists(),
        "a PDF saved after the card was deleted by Approve (never listed, and past the never rule)"
    );
}

/// (never rule) each trick alone: upper-case extension, a link named .pdf, a mode change.
#[tokio::test]
async fn never_write_pdf_each_trick_alone() {
    use std::os::unix::fs::PermissionsExt as _;
    for (line, check) in [
        ("ln -s keep.txt l.pdf", "l.pdf"),
        ("chmod 600 old.pdf 2>&1", "old.pdf"),
        ("mkdir x.pdf", "x.pdf"),
        ("cp keep.txt k.pdf && mv k.pdf k2.pdf", "k2.pdf"),
    ] {
        let mut h = harness_with(
            commands(&[line]),
            TIMEOUT,
            rules("[[deny]]\ntool = \"write_file\"\nmatch = \"**/*.pdf\"\n"),
            AnswerMode::Interactive,
        );
        let root = std::fs::canonicalize(h.dir.path()).unwrap();
        if !tried_first(&root) {
            return;
        }
        std::fs::write(root.join("keep.txt"), "k").unwrap();
        std::fs::write(root.join("old.pdf"), "%PDF").unwrap();
        std::fs::set_permissions(root.join("old.pdf"), std::fs::Permissions::from_mode(0o644))
            .unwrap();
        h.runtime.start_run("pdf").unwrap();
        let cards = approve_all(&mut h).await;
        eprintln!(
            "{line}: cards {:?} done {:?}",
            cards.iter().map(shown).collect::<Vec<_>>(),
            finished(&h.events.all())[0]
        );
        if check == "old.pdf" {
            assert_eq!(
                std::fs::metadata(root.join("old.pdf"))
                    .unwrap()
                    .permissions()
                    .mode()
                    & 0o777,
                0o644,
                "{line}"
            );
        } else {
            assert!(
                std::fs::symlink_metadata(root.join(check)).is_err(),
                "{line}: {check} was made past the never rule"
            );
        }
    }
}

/// (mounts) the command unmounts or mounts in its namespace.
#[tokio::test]
async fn mounting_inside_the_try_changes_nothing_real() {
    let line = "umount -l \"$PWD\" 2>&1; umount -l /tmp 2>&1; mount -t tmpfs x Sub 2>&1; unshare -Urm true 2>&1; echo direct > Sub/direct.txt 2>&1; echo ok > ok.txt";
    let mut h = harness_with(
        commands(&[line]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    std::fs::create_dir(root.join("Sub")).unwrap();
    h.runtime.start_run("mount").unwrap();
    let card = h.events.approval_required().await;
    let (changes, _) = shown(&card);
    eprintln!("{changes:?}");
    h.runtime
        .resolve_approval(card.approval_id, Decision::Deny { note: None })
        .unwrap();
    h.events.run_finished().await;
    assert!(!root.join("Sub/direct.txt").exists() && !root.join("ok.txt").exists());
}
