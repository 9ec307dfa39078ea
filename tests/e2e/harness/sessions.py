"""Reading the session logs the app writes: one JSON Lines file per session under
<data>/sessions, one record a line ({"type": "approval_asked" | "approval_decided" | …}).
A line that does not parse is a torn write (a power cut, a full disk): readers skip it."""
import json
import os

# Every record type the app writes (src-tauri/core's session log).
KNOWN_RECORDS = {"approval_asked", "approval_extended", "approval_decided", "policy_decided",
                 "grant_created", "grant_revoked", "rule_changed", "session_policy_changed",
                 "message", "unrecorded", "event", "folder_chosen",
                 "change_saved", "change_applied", "undo_requested", "undo_done", "undo_failed"}


def log_names(data):
    """The session logs' file names in data folder `data`, sorted: `<session id>.jsonl` (the
    folder also holds the sessions index, `index.json`, which is not a log)."""
    folder = os.path.join(data, "sessions")
    if not os.path.isdir(folder):
        return []
    return sorted(name for name in os.listdir(folder) if name.endswith(".jsonl"))


def session_logs(data):
    """{file name: raw bytes} of every session log in data folder `data` ({} if none)."""
    folder = os.path.join(data, "sessions")
    out = {}
    for name in log_names(data):
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = f.read()
    return out


def newest_log(data):
    """The path of the session log written last in data folder `data`."""
    folder = os.path.join(data, "sessions")
    names = sorted(log_names(data), key=lambda n: os.path.getmtime(os.path.join(folder, n)))
    return os.path.join(folder, names[-1])


def parse_log(raw):
    """(records, damaged lines as (line number, bytes)). Blank lines are skipped, as the app does.
    Fails (AssertionError) on a line that parses but is not one whole known record."""
    records, damaged = [], []
    for number, line in enumerate(raw.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            damaged.append((number, line))
            continue
        # A line that parses must be one whole record, not two glued together or a fragment.
        assert isinstance(value, dict) and value.get("type") in KNOWN_RECORDS, (number, line[:200])
        records.append(value)
    return records, damaged


def decided(records, approval_id):
    """The outcomes recorded for `approval_id`, in order (one, if all is well)."""
    return [r["outcome"] for r in records if r["type"] == "approval_decided" and r["approval_id"] == approval_id]
