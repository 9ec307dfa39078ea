//! The JSONL audit log: records survive, torn lines are skipped, orphans are closed.

use askfirst_core::audit::{read_log, recover_orphans, AuditRecord, AuditSink, JsonlLog};
use askfirst_protocol::{ApprovalId, CancelCause, Outcome, PolicyLayer, Risk, RunId};
use pretty_assertions::assert_eq;
use std::io::Write;

fn asked(id: ApprovalId, run: RunId) -> AuditRecord {
    AuditRecord::ApprovalAsked {
        approval_id: id,
        run_id: run,
        tool_call_id: "call_1".into(),
        tool_name: "write_file".into(),
        arguments_json: "{\"path\":\"a\"}".into(),
        arguments_sha256: "00".into(),
        summary: "Create a".into(),
        risk: Risk::Medium,
        reason: "r".into(),
        policy_layer: PolicyLayer::ToolDefault,
        at: 1,
        expires_at: 2,
    }
}

#[test]
fn a_torn_last_line_is_skipped_and_nothing_before_it_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sessions/s.jsonl");
    let log = JsonlLog::open(&path).unwrap();
    let (a, run) = (ApprovalId::new(), RunId::new());
    log.append(&asked(a, run)).unwrap();
    drop(log);
    // The app dies halfway through writing the next record.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    file.write_all(b"{\"type\":\"approval_decided\",\"appro")
        .unwrap();
    drop(file);

    let contents = read_log(&path).unwrap();
    assert_eq!(contents.records.len(), 1);
    assert_eq!(contents.warnings.len(), 1);
    assert!(
        contents.warnings[0].contains("line 2"),
        "{:?}",
        contents.warnings
    );

    // Recovery closes the orphan on a line of its own; the torn line stays skipped.
    let (closed, _) = recover_orphans(path.parent().unwrap()).unwrap();
    assert_eq!(closed, 1);
    let contents = read_log(&path).unwrap();
    let records: Vec<AuditRecord> = contents
        .records
        .into_iter()
        .map(|r| serde_json::from_value(r).unwrap())
        .collect();
    assert_eq!(records[0], asked(a, run));
    assert!(matches!(
        &records[1],
        AuditRecord::ApprovalDecided { approval_id, outcome: Outcome::Cancelled { cause: CancelCause::AppShutdown }, .. }
            if *approval_id == a
    ));
    // A second recovery finds nothing left to close.
    assert_eq!(recover_orphans(path.parent().unwrap()).unwrap().0, 0);
}

#[test]
fn a_missing_sessions_folder_is_fine() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(recover_orphans(&dir.path().join("nope")).unwrap().0, 0);
}

#[cfg(unix)]
#[test]
fn a_read_only_folder_is_a_clear_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    // Root ignores permissions; only check when they apply.
    if std::fs::write(ro.join("probe"), b"x").is_err() {
        assert!(JsonlLog::open(&ro.join("s.jsonl")).is_err());
    }
}
