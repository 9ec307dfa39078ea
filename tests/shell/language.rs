//! The shell's own words (notifications, the tray menu) in the language set with
//! `askfirst_core::i18n::set_language`. The language is the whole process's, so the check runs
//! in a process of its own (this test binary again, with only [`in_portuguese_child`]), and the
//! other tests keep reading English.

use askfirst_core::i18n::{self, Language};
use askfirst_lib::{notify, tray};
use pretty_assertions::assert_eq;

const CHILD: &str = "ASKFIRST_TEST_SHELL_LANGUAGE_CHILD";

#[test]
fn notifications_and_the_tray_are_worded_in_portuguese_after_set_language() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "shell::language::in_portuguese_child",
            "--exact",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && said.contains("1 passed") && said.contains("child: checked"),
        "{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn in_portuguese_child() {
    if std::env::var_os(CHILD).is_none() {
        return; // run by the test above, in a process of its own
    }
    let english = notify::Words::for_approval("Delete the file a.txt", "Folder: Taxes", false);
    assert_eq!(english.title, "Ask First needs your OK");
    assert_eq!(
        (english.open, english.deny, english.approve),
        ("Open".into(), "Deny".into(), "Approve once".into())
    );
    i18n::set_language(Language::PtBr);
    // From another thread too, as the notifications' own thread shows them.
    let words = std::thread::spawn(|| {
        let folder = askfirst_core::i18n::tr(
            "notify-folder",
            &[("folder", askfirst_core::i18n::Arg::from("<Impostos>"))],
        );
        notify::Words::for_approval("Delete <the> file a.txt", &folder, true)
    })
    .join()
    .unwrap();
    assert_eq!(
        words,
        notify::Words {
            title: "O Ask First precisa da sua aprovação".into(),
            // The summary is the tool's, as it came (escaped for a markup body).
            // Then the folder's line, escaped the same way.
            body: "Delete &lt;the&gt; file a.txt\nPasta: &lt;Impostos&gt;".into(),
            open: "Abrir".into(),
            deny: "Recusar".into(),
            approve: "Aprovar uma vez".into(),
        }
    );
    assert_eq!(
        notify::Words::still_running().title,
        "O Ask First continua aberto"
    );
    assert_eq!(tray::pending_label(1), "1 aprovação esperando");
    assert_eq!(tray::pending_label(3), "3 aprovações esperando");
    assert_eq!(tray::pending_label(0), "Nenhuma aprovação esperando");
    assert_eq!(tray::more_label(13).as_deref(), Some("…e mais 3 na janela"));
    assert_eq!(tray::show_label(), "Mostrar o Ask First");
    assert_eq!(tray::quit_label(), "Sair");
    assert_eq!(
        tray::title(1),
        "Ask First — 1 pedido esperando sua aprovação"
    );
    assert_eq!(
        tray::title(2),
        "Ask First — 2 pedidos esperando sua aprovação"
    );
    i18n::set_language(Language::ZhCn);
    assert_eq!(
        notify::Words::for_approval("x", "y", false).title,
        "Ask First 需要你的同意"
    );
    assert_eq!(tray::pending_label(2), "2 个请求等待批准");
    assert_eq!(tray::title(2), "Ask First — 2 个请求等待你的同意");
    println!("child: checked");
}
