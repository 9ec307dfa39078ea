//! `run_command` shut in by the kernel (DESIGN §7.2): what a hostile but approved command tried
//! — writing outside the workspace, reading the home folder, changing Ask First's rules and
//! session logs wherever its data folder lies, reading the API key from its environment or its
//! parent's, leaving a `setsid` child behind that writes later, sharing /tmp — fails; a normal
//! command still works; the card says whether the command runs shut in.
//!
//! These tests need bubblewrap (`make setup` installs it); without it they fail, on purpose.

use super::support::{all_gone, processes_with, unique_sleep};
use askfirst_core::policy::kept::KeptPlaces;
use askfirst_core::tools::sandbox::Confinement;
use askfirst_core::tools::{Tool, ToolError, ToolSet, Workspace};
use askfirst_protocol::Risk;
use pretty_assertions::assert_eq;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The card's sentence for a command that runs shut in (in English, the tests' language).
const CONFINED: &str = "It runs shut in: it can change only files in your workspace folder, \
     cannot see the rest of your home folder or Ask First's files, and everything it starts is \
     stopped when it ends. It can use the internet.";
/// … and for one that cannot be shut in.
const UNCONFINED: &str = "It is not shut in on this computer: it can read and change any of \
     your files, including Ask First's own, and anything it starts in the background may keep \
     running. Approve it only if you trust this command.";

/// What the card says `make` does, beside its line.
const MAKE_RUNS_STEPS: &str = "Runs the project's build steps (make), whose steps Ask First \
     cannot see.";

/// The English sentences of a command card's detail.
fn command_effects(described: &askfirst_core::tools::CallDescription) -> Vec<&str> {
    match &described.detail {
        Some(askfirst_core::tools::CallDetail::Command { effects, .. }) => {
            effects.iter().map(|e| e.text.as_str()).collect()
        }
        Some(askfirst_core::tools::CallDetail::External { .. }) | None => Vec::new(),
    }
}

fn run_command() -> Arc<dyn Tool> {
    ToolSet::builtin().get("run_command").unwrap()
}

/// Fails the test (instead of passing it unconfined) where bwrap cannot run.
fn confined() {
    assert!(
        Confinement::detected().is_confined(),
        "bubblewrap must work here for these tests: {:?}",
        Confinement::detected()
    );
}

/// Runs `command` and returns its result text, success or failure alike.
async fn run(command: &str, ws: &Workspace) -> String {
    let raw = json!({ "command": command }).to_string();
    match run_command().execute(&raw, ws).await {
        Ok(text) | Err(ToolError::Failed(text) | ToolError::Said { model: text, .. }) => text,
        Err(other) => panic!("{other:?}"),
    }
}

/// A workspace folder `work` inside a temporary folder, and the temporary folder.
fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("work")).unwrap();
    let ws = Workspace::open(&dir.path().join("work")).unwrap();
    (dir, ws)
}

#[tokio::test]
async fn a_normal_command_still_works_shut_in() {
    confined();
    let (_dir, ws) = workspace();
    let out = run(
        "echo hi > a.txt; cat a.txt; mkdir -p sub; echo x > sub/b",
        &ws,
    )
    .await;
    assert_eq!(
        out,
        "The command finished successfully (exit code 0).\nOutput:\nhi\n"
    );
    assert_eq!(
        std::fs::read_to_string(ws.root().join("a.txt")).unwrap(),
        "hi\n"
    );
    assert_eq!(
        std::fs::read_to_string(ws.root().join("sub/b")).unwrap(),
        "x\n"
    );
}

#[tokio::test]
async fn a_command_cannot_write_outside_the_workspace() {
    confined();
    let (dir, ws) = workspace();
    let elsewhere = tempfile::tempdir().unwrap();
    let sibling = dir.path().join("sibling.txt");
    let far = elsewhere.path().join("far.txt");
    for target in [
        "../sibling.txt".to_owned(),
        sibling.display().to_string(),
        far.display().to_string(),
    ] {
        // It fails, or lands in the command's private /tmp (these lie under /tmp), gone after.
        run(&format!("echo bad > '{target}'"), &ws).await;
    }
    assert!(!sibling.exists());
    assert!(!far.exists());
    // A folder outside /tmp that the host could write to: the command cannot.
    // (The target folder, or the home folder where the tests run as a user who cannot write
    // to the target folder: `make test-unprivileged`.)
    let outside = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .or_else(|_| tempfile::tempdir_in(std::env::var_os("HOME").expect("HOME is set")))
        .unwrap();
    let target = outside.path().join("escape.txt");
    let out = run(&format!("echo bad > '{}'", target.display()), &ws).await;
    assert!(
        out.starts_with("The command failed with exit code 2."),
        "{out}"
    );
    assert!(!target.exists());
    // Nor anywhere else on the system it could otherwise write to.
    let out = run("touch /usr/askfirst-escape /etc/askfirst-escape", &ws).await;
    assert!(
        out.starts_with("The command failed with exit code"),
        "{out}"
    );
    assert!(!Path::new("/usr/askfirst-escape").exists());
    assert!(!Path::new("/etc/askfirst-escape").exists());
}

#[tokio::test]
async fn a_command_cannot_see_the_home_folder() {
    confined();
    let home = std::env::var_os("HOME").expect("HOME is set");
    // A file in the real home folder of the user the tests run as, removed when dropped.
    let mut secret = tempfile::Builder::new()
        .prefix("askfirst-sandbox-test-")
        .tempfile_in(&home)
        .unwrap();
    std::io::Write::write_all(&mut secret, b"home-secret-7f3a").unwrap();
    let name = secret
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let (_dir, ws) = workspace();
    let out = run(
        &format!(
            "cat '{}'; cat ~/'{name}'; echo changed > '{}'",
            secret.path().display(),
            secret.path().display()
        ),
        &ws,
    )
    .await;
    assert!(!out.contains("home-secret-7f3a"), "{out}");
    let listed = run(&format!("ls -a ~ '{}'", Path::new(&home).display()), &ws).await;
    assert!(!listed.contains(&name), "{listed}");
    assert_eq!(
        std::fs::read_to_string(secret.path()).unwrap(),
        "home-secret-7f3a"
    );
}

/// Ask First's data folder with a rules file and a session log in it.
fn fill_data(data: &Path) {
    std::fs::create_dir_all(data.join("sessions")).unwrap();
    std::fs::write(data.join("rules.toml"), "# rules-secret-91b2\n").unwrap();
    std::fs::write(data.join("sessions/s1.jsonl"), "log-secret-91b2\n").unwrap();
}

/// Tries to read, list and change the data folder at `data` (as the command would name it);
/// returns what reading and what listing printed.
async fn attack_data(data: &str, ws: &Workspace) -> (String, String) {
    let read = run(
        &format!(
            "cat {data}/rules.toml {data}/sessions/s1.jsonl; \
             printf '[[allow]]\\ntool = \"*\"\\n' >> {data}/rules.toml; \
             echo forged > {data}/sessions/s1.jsonl; rm -f {data}/rules.toml"
        ),
        ws,
    )
    .await;
    let listed = run(&format!("ls -a {data} {data}/*"), ws).await;
    (read, listed)
}

fn assert_data_untouched(data: &Path, (read, listed): &(String, String)) {
    assert!(!read.contains("secret-91b2"), "{read}");
    assert!(!listed.contains("rules.toml"), "{listed}");
    assert!(!listed.contains("s1.jsonl"), "{listed}");
    assert_eq!(
        std::fs::read_to_string(data.join("rules.toml")).unwrap(),
        "# rules-secret-91b2\n"
    );
    assert_eq!(
        std::fs::read_to_string(data.join("sessions/s1.jsonl")).unwrap(),
        "log-secret-91b2\n"
    );
}

#[tokio::test]
async fn ask_first_data_folder_is_hidden_inside_the_workspace() {
    confined();
    let (_dir, ws) = workspace();
    let data = ws.root().join(".askfirst");
    fill_data(&data);
    let ws = ws.with_own_data(&data);
    let out = attack_data(".askfirst", &ws).await;
    assert_data_untouched(&data, &out);
    // The rest of the workspace stays writable.
    run("echo ok > beside.txt", &ws).await;
    assert!(ws.root().join("beside.txt").exists());
}

/// Found by an attacker: with the data folder deeper inside the workspace (the workspace is the
/// home folder, the data folder `~/.local/share/askfirst`), moving a folder above it carried
/// the real data folder out from under its hiding place.
#[tokio::test]
async fn ask_first_data_folder_deep_inside_the_workspace_cannot_be_carried_away() {
    confined();
    let (_dir, ws) = workspace();
    let data = ws.root().join(".local/share/askfirst");
    fill_data(&data);
    let ws = ws.with_own_data(&data);
    let out = run(
        "mv .local .cache-old; mv .local/share .local/old; rm -rf .local; \
         mkdir -p .local/share/askfirst; \
         printf '[[allow]]\\ntool = \"*\"\\n' > .local/share/askfirst/rules.toml; \
         cat .cache-old/share/askfirst/rules.toml .local/old/askfirst/rules.toml; \
         ls -aR .local .cache-old .local/old",
        &ws,
    )
    .await;
    assert!(!ws.root().join(".cache-old").exists(), "{out}");
    let listed = run("ls -a .local/share/askfirst", &ws).await;
    assert_data_untouched(&data, &(out, listed));
    // The rest of those folders is the person's to change.
    run("mkdir .local/share/other && echo ok > .local/note.txt", &ws).await;
    assert!(ws.root().join(".local/note.txt").exists());
}

/// Places the rules keep beside the data folder (under the same folders above it): pinning
/// their folders must not bind the data folder's folders from outside again over where it is
/// hidden, nor one kept place's over another's.
#[tokio::test]
async fn places_kept_beside_the_data_folder_leave_it_and_each_other_hidden() {
    confined();
    let (_dir, ws) = workspace();
    let data = ws.root().join(".local/share/askfirst");
    fill_data(&data);
    std::fs::create_dir_all(ws.root().join(".local/share/keys")).unwrap();
    std::fs::write(
        ws.root().join(".local/share/keys/bank.key"),
        "key-secret-91b2",
    )
    .unwrap();
    std::fs::create_dir_all(ws.root().join(".local/state/Private")).unwrap();
    std::fs::write(
        ws.root().join(".local/state/Private/diary.txt"),
        "diary-secret-91b2",
    )
    .unwrap();
    let root = ws.root().to_path_buf();
    let ws = ws.with_own_data(&data).hiding_from_commands(KeptPlaces {
        hidden: vec![
            root.join(".local/state/Private"),
            root.join(".local/share/keys/bank.key"),
        ],
        read_only: Vec::new(),
        workspace: None,
    });
    let out = attack_data(".local/share/askfirst", &ws).await;
    assert_data_untouched(&data, &out);
    let read = run(
        "cat .local/state/Private/diary.txt .local/share/keys/bank.key; ls .local/state/Private",
        &ws,
    )
    .await;
    assert!(!read.contains("secret-91b2"), "{read}");
}

#[tokio::test]
async fn a_place_kept_read_only_can_be_read_and_not_changed_moved_or_deleted() {
    confined();
    let (_dir, ws) = workspace();
    let root = ws.root().to_path_buf();
    std::fs::create_dir_all(root.join("Albums/Photos/Private")).unwrap();
    std::fs::write(root.join("Albums/Photos/cat.jpg"), "photo-91b2").unwrap();
    std::fs::write(root.join("Albums/Photos/Private/me.jpg"), "private-91b2").unwrap();
    std::fs::write(root.join("list.txt"), "list-91b2").unwrap();
    let ws = ws.hiding_from_commands(KeptPlaces {
        hidden: vec![root.join("Albums/Photos/Private")],
        read_only: vec![root.join("Albums/Photos"), root.join("list.txt")],
        workspace: None,
    });
    // Read: yes, except what is hidden inside.
    let read = run(
        "cat Albums/Photos/cat.jpg list.txt; cat Albums/Photos/Private/me.jpg; ls Albums/Photos/Private",
        &ws,
    )
    .await;
    assert!(
        read.contains("photo-91b2") && read.contains("list-91b2"),
        "{read}"
    );
    assert!(!read.contains("private-91b2"), "{read}");
    // Changed, moved, deleted, planted beside: no, by any road.
    run(
        "echo x > Albums/Photos/cat.jpg; echo x >> list.txt; rm -rf Albums/Photos/cat.jpg; \
         rm -rf Albums; mv Albums/Photos elsewhere; mv Albums gone; mv list.txt moved.txt; \
         rm -f list.txt; touch Albums/Photos/new.jpg; find . -delete",
        &ws,
    )
    .await;
    assert_eq!(
        std::fs::read_to_string(root.join("Albums/Photos/cat.jpg")).unwrap(),
        "photo-91b2"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("Albums/Photos/Private/me.jpg")).unwrap(),
        "private-91b2"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("list.txt")).unwrap(),
        "list-91b2"
    );
    assert!(!root.join("Albums/Photos/new.jpg").exists());
    // The rest of the workspace is still the command's to change.
    run("echo made > made.txt", &ws).await;
    assert!(root.join("made.txt").exists());
}

#[tokio::test]
async fn ask_first_data_folder_not_yet_made_inside_the_workspace_cannot_be_planted() {
    confined();
    let (_dir, ws) = workspace();
    let data = ws.root().join(".askfirst");
    let ws = ws.with_own_data(&data);
    run(
        "mkdir -p .askfirst && echo '[[allow]]' > .askfirst/rules.toml",
        &ws,
    )
    .await;
    assert!(!data.join("rules.toml").exists());
}

#[tokio::test]
async fn ask_first_data_folder_is_hidden_around_the_workspace() {
    confined();
    // As with the demo workspace: `<data dir>/Demo folder`.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    fill_data(&data);
    std::fs::create_dir(data.join("Demo folder")).unwrap();
    let ws = Workspace::open(&data.join("Demo folder"))
        .unwrap()
        .with_own_data(&data);
    let out = attack_data("..", &ws).await;
    assert_data_untouched(&data, &out);
    let out = attack_data(&format!("'{}'", data.display()), &ws).await;
    assert_data_untouched(&data, &out);
    // The workspace itself still works.
    run("echo ok > inside.txt", &ws).await;
    assert!(data.join("Demo folder/inside.txt").exists());
}

#[tokio::test]
async fn ask_first_data_folder_is_hidden_elsewhere() {
    confined();
    let (_dir, ws) = workspace();
    let elsewhere = tempfile::tempdir().unwrap();
    let data = elsewhere.path().join("askfirst");
    fill_data(&data);
    let ws = ws.with_own_data(&data);
    let out = attack_data(&format!("'{}'", data.display()), &ws).await;
    assert_data_untouched(&data, &out);
}

#[tokio::test]
async fn a_command_gets_a_clean_environment_and_no_secret_of_ask_first() {
    confined();
    // Names no other test uses; the first is one of Ask First's settings (ASKFIRST_*), the
    // second an ordinary variable outside the allow list.
    std::env::set_var("ASKFIRST_SANDBOX_TEST_KEY", "sk-sandbox-must-not-leak");
    std::env::set_var("SANDBOX_TEST_UNLISTED", "unlisted-must-not-pass");
    let (_dir, ws) = workspace();
    let out = run(
        "env; cat /proc/$PPID/environ /proc/1/environ; \
         for p in /proc/[0-9]*; do cat $p/environ; done; echo; echo \"TMPDIR=$TMPDIR\"",
        &ws,
    )
    .await;
    assert!(!out.contains("must-not-leak"), "{out}");
    assert!(!out.contains("must-not-pass"), "{out}");
    assert!(out.contains("PATH="), "{out}");
    assert!(out.contains("TMPDIR=/tmp\n"), "{out}");
}

#[tokio::test]
async fn tmp_is_a_private_folder_of_each_command() {
    confined();
    let (_dir, ws) = workspace();
    let name = format!("askfirst-sandbox-tmp-{}", unique_sleep());
    let out = run(&format!("echo x > /tmp/{name} && cat /tmp/{name}"), &ws).await;
    assert_eq!(
        out,
        "The command finished successfully (exit code 0).\nOutput:\nx\n"
    );
    assert!(!Path::new("/tmp").join(&name).exists());
    // A second command does not see the first one's temporary files.
    let out = run(&format!("ls /tmp/{name}"), &ws).await;
    assert!(
        out.starts_with("The command failed with exit code"),
        "{out}"
    );
}

/// Waits `for_how_long` and says whether `path` appeared meanwhile.
async fn appears_within(path: &Path, for_how_long: Duration) -> bool {
    let deadline = Instant::now() + for_how_long;
    while Instant::now() < deadline {
        if path.exists() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    path.exists()
}

/// Starts a `setsid` child and a double-forked one, each writing a file 2 seconds later.
fn escapers(sleep: &str) -> String {
    format!(
        "setsid sh -c 'sleep 2; touch escaped1; sleep {sleep}' >/dev/null 2>&1 & \
         (sh -c 'sleep 2; touch escaped2; sleep {sleep}' >/dev/null 2>&1 &) ; "
    )
}

#[tokio::test]
async fn nothing_a_command_starts_outlives_it_setsid_included() {
    confined();
    let (_dir, ws) = workspace();
    let sleep = unique_sleep();
    let out = run(&format!("{}echo started", escapers(&sleep)), &ws).await;
    assert_eq!(
        out,
        "The command finished successfully (exit code 0). It left programs running in the \
         background; they were stopped.\nOutput:\nstarted\n"
    );
    assert!(!appears_within(&ws.root().join("escaped1"), Duration::from_secs(4)).await);
    assert!(!ws.root().join("escaped2").exists());
    assert!(all_gone(&sleep).await);
}

#[tokio::test]
async fn nothing_a_command_starts_outlives_its_timeout() {
    confined();
    let (_dir, ws) = workspace();
    let sleep = unique_sleep();
    let raw = json!({ "command": format!("{}sleep {sleep}", escapers(&sleep)), "timeout_secs": 1 })
        .to_string();
    // The time limit passes before the children write (2 s after they start).
    let _ = run_command().execute(&raw, &ws).await.unwrap_err();
    assert!(!appears_within(&ws.root().join("escaped1"), Duration::from_secs(4)).await);
    assert!(!ws.root().join("escaped2").exists());
    assert!(all_gone(&sleep).await);
}

#[tokio::test]
async fn nothing_a_command_starts_outlives_stop() {
    confined();
    let (_dir, ws) = workspace();
    let sleep = unique_sleep();
    let raw = json!({ "command": format!("{}echo > started; sleep {sleep}", escapers(&sleep)) })
        .to_string();
    let running = {
        let ws = ws.clone();
        tokio::spawn(async move { run_command().execute(&raw, &ws).await })
    };
    assert!(appears_within(&ws.root().join("started"), Duration::from_secs(20)).await);
    assert!(processes_with(&sleep) > 0);
    // Stop: the call's future is dropped.
    running.abort();
    assert!(running.await.unwrap_err().is_cancelled());
    assert!(all_gone(&sleep).await, "some of its processes still run");
    assert!(!appears_within(&ws.root().join("escaped1"), Duration::from_secs(3)).await);
    assert!(!ws.root().join("escaped2").exists());
}

#[test]
fn the_card_says_the_command_runs_shut_in() {
    confined();
    let (_dir, ws) = workspace();
    let described = run_command()
        .describe(r#"{"command": "make"}"#, &ws)
        .unwrap();
    // What confinement it gets; beside the line, what its parts do (make runs steps of its own).
    assert_eq!(
        (
            described.risk,
            described.effects.first().map(String::as_str)
        ),
        (Risk::High, Some(CONFINED))
    );
    assert_eq!(described.effects.len(), 1, "{:?}", described.effects);
    assert_eq!(command_effects(&described), vec![MAKE_RUNS_STEPS]);
}

/// Runs [`where_bwrap_is_unavailable_child`] in a test process of its own with
/// `ASKFIRST_SANDBOX=off` (the detection is made once per process).
#[test]
fn the_card_says_so_where_commands_cannot_be_shut_in() {
    super::support::ignored_test_in_child(
        "all::sandbox::where_bwrap_is_unavailable_child",
        &[],
        |child| {
            child.env("ASKFIRST_SANDBOX", "off");
        },
    );
}

#[tokio::test]
#[ignore = "run by the_card_says_so_where_commands_cannot_be_shut_in, with ASKFIRST_SANDBOX=off"]
async fn where_bwrap_is_unavailable_child() {
    assert_eq!(
        Confinement::detected(),
        &Confinement::Unavailable {
            reason: "ASKFIRST_SANDBOX=off is set".into()
        }
    );
    let (_dir, ws) = workspace();
    let described = run_command()
        .describe(r#"{"command": "make"}"#, &ws)
        .unwrap();
    // What confinement it gets; beside the line, what its parts do (make runs steps of its own).
    assert_eq!(
        (
            described.risk,
            described.effects.first().map(String::as_str)
        ),
        (Risk::High, Some(UNCONFINED))
    );
    assert_eq!(described.effects.len(), 1, "{:?}", described.effects);
    assert_eq!(command_effects(&described), vec![MAKE_RUNS_STEPS]);
    // It still runs (the person approved it knowing), with a clean environment.
    let out = run("echo hi; env", &ws).await;
    assert!(out.contains("hi\n"), "{out}");
    assert!(!out.contains("ASKFIRST_SANDBOX"), "{out}");
}

/// Found by an attacker: the network is kept, and with it the abstract Unix sockets of
/// programs outside (the X display's `@/tmp/.X11-unix/X0`: a command could read the screen and
/// type into other windows). Landlock's scopes close them where the kernel has them.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_command_cannot_reach_the_abstract_sockets_of_programs_outside() {
    use std::os::linux::net::SocketAddrExt;
    confined();
    assert!(
        askfirst_core::tools::sandbox::scopes_enforced(),
        "this kernel has no Landlock scopes (ABI 6): the test cannot show anything here"
    );
    let name = format!("askfirst-test-{}", std::process::id());
    let address = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).unwrap();
    let listener = std::os::unix::net::UnixListener::bind_addr(&address).unwrap();
    listener.set_nonblocking(true).unwrap();
    let (_dir, ws) = workspace();
    let out = run(
        &format!(
            "python3 -c \"import socket; s = socket.socket(socket.AF_UNIX); \
             s.connect('\\0{name}'); print('connected')\""
        ),
        &ws,
    )
    .await;
    assert!(!out.contains("connected"), "{out}");
    assert!(listener.accept().is_err(), "the command reached the socket");
    // Inside, a command's own programs still talk over abstract sockets with each other.
    let own = run(
        "python3 -c \"import socket, threading; l = socket.socket(socket.AF_UNIX); \
         l.bind('\\0inner'); l.listen(1); c = socket.socket(socket.AF_UNIX); \
         c.connect('\\0inner'); print('inner ok')\"",
        &ws,
    )
    .await;
    assert!(own.contains("inner ok"), "{own}");
}

/// A deny rule on a folder holds inside a command too, however the command reaches it (a glob,
/// `cd`): the folder is not there for it. (A command whose words name it is refused before.)
#[tokio::test]
async fn a_folder_a_deny_rule_names_is_not_there_for_a_command() {
    use askfirst_core::approvals::AnswerMode;
    use askfirst_core::policy::Rules;
    use askfirst_protocol::{Decision, RunStatus};
    confined();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("Private")).unwrap();
    std::fs::write(root.join("Private/diary.txt"), "dear diary").unwrap();
    std::fs::write(root.join("Taxes.pdf"), "tax secret").unwrap();
    let line = "cat Priv*/diary.txt > out.txt; (cd Priv?te && cat *) >> out.txt; \
                cat Tax*.pdf >> out.txt; mv Priv* moved; echo done >> out.txt";
    let scenario = json!({"turns": [
        {"tool_calls": [{"name": "run_command", "arguments": {"command": line}}]},
        {"say": "done"}
    ]});
    let rules = Rules::parse(
        "[[deny]]\ntool = \"*\"\nmatch = \"Private/**\"\n\n[[deny]]\ntool = \"*\"\nmatch = \"Taxes.pdf\"\n",
        Path::new("rules.toml"),
    );
    let mut h = super::support::harness_in(
        dir,
        scenario,
        Duration::from_secs(120),
        rules,
        AnswerMode::Interactive,
        None,
    );
    h.runtime.start_run("look").unwrap();
    let request = h.events.approval_required().await;
    h.runtime
        .resolve_approval(request.approval_id, Decision::Approve)
        .unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    let out = std::fs::read_to_string(root.join("out.txt")).unwrap();
    assert!(out.contains("done"), "{out}");
    assert!(
        !out.contains("dear diary") && !out.contains("tax secret"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("Private/diary.txt")).unwrap(),
        "dear diary"
    );
    assert!(!root.join("moved").exists());
}

/// The places `rules` keep from a command in `ws` (Ask First's data folder at `data`), as the
/// policy finds them when a command starts.
fn kept_by(rules: &str, ws: &Workspace, data: &Path) -> KeptPlaces {
    use askfirst_core::policy::{Policy, Rules};
    let rules = Rules::parse(rules, Path::new("rules.toml"));
    assert!(matches!(rules, Rules::Loaded(_)), "{rules:?}");
    Policy::new(rules, Some((data, ws.root())))
        .hidden_from_command(ws.root(), None)
        .unwrap()
}

/// Found by a hostile review: `confined_command` binds a place kept read-only after it has
/// hidden Ask First's data folder inside the workspace, and bwrap binds from the system's own
/// view, so a "never delete/change" rule whose place holds the data folder (`.local/**`), or a
/// glob that matches a file in it (`**/*.json`: settings.json, where the API key is kept
/// without a keyring), shows Ask First's files to the command again.
#[tokio::test]
async fn hostile_a_place_kept_read_only_brings_back_ask_firsts_data_folder() {
    confined();
    let mut shown = Vec::new();
    for rule in [
        "[[deny]]\ntool = \"delete_path\"\nmatch = \"**/*.toml\"\n",
        "[[deny]]\ntool = \"write_file\"\nmatch = \".local/**\"\n",
    ] {
        let (_dir, ws) = workspace();
        let data = ws.root().join(".local/share/askfirst");
        fill_data(&data);
        let kept = kept_by(rule, &ws, &data);
        let ws = ws.with_own_data(&data).hiding_from_commands(kept);
        let out = attack_data(".local/share/askfirst", &ws).await;
        if out.0.contains("secret-91b2") || out.1.contains("rules.toml") {
            shown.push(format!("{rule}: {out:?}"));
        }
    }
    assert!(shown.is_empty(), "{}", shown.join("\n"));
}

/// Found by a hostile review: a place kept read-only that lies outside the workspace (where a
/// link in it leads) is bound read-only from the system's view, over the empty folders the
/// sandbox shows instead of the home folder, `/tmp`, `/media`, `/mnt` and `/run`. A command
/// plants `ln -s ../elsewhere keys.jpg`; under "Never delete .jpg files" (`**/*.jpg`) the next
/// command reads what the link leads to, which it could not before the rule.
#[tokio::test]
async fn hostile_a_link_kept_read_only_shows_what_the_sandbox_hides_outside_the_workspace() {
    confined();
    let (dir, ws) = workspace();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(elsewhere.join(".ssh")).unwrap();
    std::fs::write(elsewhere.join(".ssh/id_ed25519"), "key-secret-91b2").unwrap();
    run("ln -s ../elsewhere keys.jpg", &ws).await;
    let attack = "cat keys.jpg/.ssh/id_ed25519";
    // Without the rule, the link leads into the empty /tmp of the sandbox.
    assert!(!run(attack, &ws).await.contains("secret-91b2"));
    let data = dir.path().join("data");
    fill_data(&data);
    let kept = kept_by(
        "[[deny]]\ntool = \"delete_path\"\nmatch = \"**/*.jpg\"\n",
        &ws,
        &data,
    );
    let ws = ws.with_own_data(&data).hiding_from_commands(kept);
    let out = run(attack, &ws).await;
    assert!(!out.contains("secret-91b2"), "{out}");
}

/// Found by a red team (round three): with `XDG_RUNTIME_DIR` inside the workspace, a command
/// shut in reached Ask First's inbox socket and put a card of "another agent" in front of the
/// person: the runtime folder was hidden before the workspace was bound, and the bind brought
/// it back. Each hidden place (the runtime folder, the home folder), with the workspace above
/// it, equal to it and below it, in a test process of its own whose `XDG_RUNTIME_DIR`, `HOME`
/// and session bus are inside a temporary folder.
#[test]
fn hidden_places_stay_hidden_with_the_workspace_above_equal_or_below() {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().canonicalize().unwrap();
    let runtime = top.join("rt");
    std::fs::create_dir_all(runtime.join("askfirst")).unwrap();
    std::fs::create_dir_all(runtime.join("inside")).unwrap();
    std::fs::create_dir_all(top.join("home/inside")).unwrap();
    std::fs::write(runtime.join("secret"), "RUNTIME-SECRET\n").unwrap();
    std::fs::write(top.join("home/secret"), "HOME-SECRET\n").unwrap();
    let _inbox =
        std::os::unix::net::UnixListener::bind(runtime.join("askfirst/inbox.sock")).unwrap();
    let _bus = std::os::unix::net::UnixListener::bind(top.join("bus")).unwrap();
    super::support::ignored_test_in_child(
        "all::sandbox::hidden_places_stay_hidden_child",
        &[],
        |child| {
            child
                .env("XDG_RUNTIME_DIR", &runtime)
                .env("HOME", top.join("home"))
                .env(
                    "DBUS_SESSION_BUS_ADDRESS",
                    format!("unix:path={}", top.join("bus").display()),
                )
                .env("ASKFIRST_TEST_TOP", &top);
        },
    );
}

#[tokio::test]
#[ignore = "run by hidden_places_stay_hidden_with_the_workspace_above_equal_or_below"]
async fn hidden_places_stay_hidden_child() {
    confined();
    let top = std::path::PathBuf::from(std::env::var_os("ASKFIRST_TEST_TOP").unwrap());
    let rt = top.join("rt");
    let home = top.join("home");
    // What a command sees of each place: a secret's text, and whether a socket is a socket.
    let look = format!(
        "cat {rt}/secret {home}/secret; \
         for s in {rt}/askfirst/inbox.sock {top}/bus; do test -S $s && echo SOCKET:$s; done; true",
        rt = rt.display(),
        home = home.display(),
        top = top.display()
    );
    let seen = |out: &str| {
        let mut seen = Vec::new();
        for (mark, name) in [
            ("RUNTIME-SECRET", "runtime"),
            ("HOME-SECRET", "home"),
            ("inbox.sock", "inbox"),
            ("/bus", "bus"),
        ] {
            if out
                .lines()
                .any(|line| line.contains(mark) && !line.contains("No such"))
            {
                seen.push(name);
            }
        }
        seen
    };
    // The workspace holds both: neither is there for the command, nor are the sockets.
    let above = Workspace::open(&top).unwrap();
    let out = run(&look, &above).await;
    assert_eq!(seen(&out), Vec::<&str>::new(), "above: {out}");
    // The workspace is the runtime folder itself (the person chose it): its files are the
    // person's folder, but Ask First's inbox and the bus stay out of reach.
    let equal = Workspace::open(&rt).unwrap();
    let out = run(&look, &equal).await;
    assert_eq!(seen(&out), ["runtime"], "equal: {out}");
    // Inside each: the rest of the place stays hidden.
    for below in [rt.join("inside"), home.join("inside")] {
        let ws = Workspace::open(&below).unwrap();
        let out = run(&look, &ws).await;
        assert_eq!(seen(&out), Vec::<&str>::new(), "{}: {out}", below.display());
    }
}

/// Red team, round four: a hidden place brought back by the workspace bind was hidden again
/// and Ask First's inbox socket covered, but neither was pinned: unlike
/// Ask First's data folder and the places rules keep, the folders above them inside the
/// workspace can be renamed by a command. The hiding mounts move with the renamed folder in
/// that command, and the *next* command is built from the old names: `runtime_dir()` no longer
/// resolves, so the runtime folder is neither hidden nor has its inbox socket covered. Two
/// commands the person approves one by one (`mv a b`, then anything) and the second reaches the
/// inbox (a card of "another agent") and every socket and file of the runtime folder.
/// Also with the workspace *equal* to the runtime folder (the case the round-three test allows):
/// `mv askfirst x` carries the covered socket away from its cover.
#[test]
fn hostile4_a_hidden_place_moved_by_one_command_is_open_to_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().canonicalize().unwrap();
    let runtime = top.join("a/rt");
    std::fs::create_dir_all(runtime.join("askfirst")).unwrap();
    std::fs::create_dir_all(top.join("home")).unwrap();
    std::fs::write(runtime.join("secret"), "RUNTIME-SECRET\n").unwrap();
    let _inbox =
        std::os::unix::net::UnixListener::bind(runtime.join("askfirst/inbox.sock")).unwrap();
    super::support::ignored_test_in_child(
        "all::sandbox::hostile4_a_hidden_place_moved_child",
        &[],
        |child| {
            child
                .env("XDG_RUNTIME_DIR", &runtime)
                .env("HOME", top.join("home"))
                .env_remove("DBUS_SESSION_BUS_ADDRESS")
                .env("ASKFIRST_TEST_TOP", &top);
        },
    );
}

#[tokio::test]
#[ignore = "run by hostile4_a_hidden_place_moved_by_one_command_is_open_to_the_next"]
async fn hostile4_a_hidden_place_moved_child() {
    confined();
    let top = std::path::PathBuf::from(std::env::var_os("ASKFIRST_TEST_TOP").unwrap());
    // What a command sees at `rt`: the secret, the socket as a socket, a connection to it.
    let look = |rt: &Path| {
        format!(
            "cat {rt}/secret; test -S {rt}/askfirst/inbox.sock && echo SOCKET; \
             test -S {rt}/x/inbox.sock && echo SOCKET; \
             python3 -c 'import socket,sys\nfor p in sys.argv[1:]:\n  try:\n    s=socket.socket(socket.AF_UNIX); s.connect(p); print(\"CONNECTED\")\n  except OSError: pass' \
             {rt}/askfirst/inbox.sock {rt}/x/inbox.sock; true",
            rt = rt.display()
        )
    };
    let seen = |out: &str| {
        ["RUNTIME-SECRET", "SOCKET", "CONNECTED"]
            .into_iter()
            .filter(|mark| out.lines().any(|line| line.trim() == *mark))
            .collect::<Vec<_>>()
    };
    let mut found = Vec::new();
    // The workspace above: `a` holds the runtime folder, which is hidden again in it.
    let above = Workspace::open(&top).unwrap();
    let before = run(&look(&top.join("a/rt")), &above).await;
    assert_eq!(
        seen(&before),
        Vec::<&str>::new(),
        "hidden at first: {before}"
    );
    let moved = run("mv a b && echo MOVED", &above).await;
    let after = run(&look(&top.join("b/rt")), &above).await;
    if !seen(&after).is_empty() {
        found.push(format!("above, after `mv a b` ({moved}): {after}"));
    }
    if top.join("b").exists() {
        std::fs::rename(top.join("b"), top.join("a")).unwrap();
    }
    // The workspace is the runtime folder: the socket is covered where it lies.
    let equal = Workspace::open(&top.join("a/rt")).unwrap();
    let moved = run("mv askfirst x && echo MOVED", &equal).await;
    let after = run(&look(&top.join("a/rt")), &equal).await;
    if seen(&after).iter().any(|mark| *mark != "RUNTIME-SECRET") {
        found.push(format!("equal, after `mv askfirst x` ({moved}): {after}"));
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
