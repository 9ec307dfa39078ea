//! The bash grammar's reading of a plain line ([`plain_commands`]): tree-sitter-bash, as
//! codex-rs reads the lines it runs without asking (`try_parse_word_only_commands_sequence`
//! in `codex-rs/core/src/bash.rs`). It is the second, independent reading behind
//! [`crate::plain_commands`]: a line is plain only when the hand-written check and the grammar
//! both read it, into the same words, so that a construct one of them misses never makes a
//! line plain.
//!
//! The grammar is stricter than bash in a few places, and such a line is then not plain (an
//! allow rule asks instead): a program name with `@` or `%` or one like `x+:` (`node@18`,
//! `a%b`), which tree-sitter-bash reads as a broken assignment; a program named `-`; `==`
//! as the first argument (`echo ==`).
//!
//! Bounded: it is only given lines the hand-written check already found plain (at most
//! 64 KiB, no substitution, group or quote a shell reads inside), and the tree is walked with
//! a cursor, without recursion.

use tree_sitter::{Node, Parser, TreeCursor};

/// The kinds of named nodes a plain line may hold.
const PLAIN_KINDS: &[&str] = &[
    "program",
    "list",
    "pipeline",
    "command",
    "command_name",
    "word",
    "number",
    "string",
    "string_content",
    "raw_string",
    "concatenation",
];

/// The tokens a plain line may hold besides its words.
const PLAIN_TOKENS: &[&str] = &["&&", "||", ";", "|", "\"", "'"];

/// The simple commands of `line`, each as its words with quotes removed, when the bash
/// grammar reads the whole line (no error, no missing part) as plain words joined by `&&`,
/// `||`, `;` and `|`; `None` for anything else, and when the grammar cannot be loaded.
pub(crate) fn plain_commands(line: &str) -> Option<Vec<Vec<String>>> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .ok()?;
    let tree = parser.parse(line, None)?;
    let root = tree.root_node();
    if root.has_error() || root.kind() != "program" {
        return None;
    }
    let mut commands = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.is_missing() || node.is_error() {
            return None;
        }
        let allowed = if node.is_named() {
            PLAIN_KINDS.contains(&node.kind())
        } else {
            PLAIN_TOKENS.contains(&node.kind()) || is_equals_word(node)
        };
        if !allowed {
            return None;
        }
        if node.kind() == "command" {
            commands.push(command_words(node, line)?);
        }
        if !next_in_order(&mut cursor) {
            break;
        }
    }
    (!commands.is_empty()).then_some(commands)
}

/// Moves `cursor` to the next node in document order (pre-order); `false` at the end.
fn next_in_order(cursor: &mut TreeCursor<'_>) -> bool {
    if cursor.goto_first_child() {
        return true;
    }
    loop {
        if cursor.goto_next_sibling() {
            return true;
        }
        if !cursor.goto_parent() {
            return false;
        }
    }
}

/// Whether `node` is a `==` the grammar reads as an operator of `test` among a command's
/// arguments (`test a == b`), where bash reads a word like any other.
fn is_equals_word(node: Node<'_>) -> bool {
    !node.is_named() && node.kind() == "==" && node.parent().is_some_and(|p| p.kind() == "command")
}

/// The words of one `command` node: its name and arguments, quotes removed.
fn command_words(command: Node<'_>, line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut cursor = command.walk();
    for child in command.children(&mut cursor) {
        let word = match child.kind() {
            "command_name" => word_text(child.named_child(0)?, line)?,
            _ if is_equals_word(child) => "==".to_owned(),
            _ if !child.is_named() => return None,
            _ => word_text(child, line)?,
        };
        words.push(word);
    }
    Some(words)
}

/// The text of one word node (`word`, `number`, `string`, `raw_string`, `concatenation` of
/// them), quotes removed; `None` where a letter of it means more to a shell (a pattern, `~`,
/// `$`, a backquote, a backslash, `!`) or is a control character, as in the hand-written check.
fn word_text(node: Node<'_>, line: &str) -> Option<String> {
    let text = node.utf8_text(line.as_bytes()).ok()?;
    match node.kind() {
        // The grammar reads `*`, `~` or `[` as letters of a word; the shell expands them.
        "word" | "number" => text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:,+=@%".contains(c))
            .then(|| text.to_owned()),
        "raw_string" => text
            .strip_prefix('\'')
            .and_then(|t| t.strip_suffix('\''))
            .filter(|t| !t.contains(char::is_control))
            .map(str::to_owned),
        "string" => {
            // The text between the quotes as written: the grammar leaves blanks at either end
            // of a string out of its `string_content` nodes (`" "` has none).
            let inner = text.strip_prefix('"')?.strip_suffix('"')?;
            let mut cursor = node.walk();
            let only_content = node
                .named_children(&mut cursor)
                .all(|part| part.kind() == "string_content");
            let plain = !inner.contains(|c: char| "$`\\!\"".contains(c) || c.is_control());
            (only_content && plain).then(|| inner.to_owned())
        }
        "concatenation" => {
            let mut out = String::new();
            let mut cursor = node.walk();
            for part in node.named_children(&mut cursor) {
                if part.kind() == "concatenation" {
                    return None;
                }
                out.push_str(&word_text(part, line)?);
            }
            Some(out)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::plain_commands;

    fn words(commands: &[&str]) -> Vec<Vec<String>> {
        commands
            .iter()
            .map(|c| c.split(' ').map(str::to_owned).collect())
            .collect()
    }

    #[test]
    fn the_grammar_reads_plain_words_and_operators() {
        assert_eq!(
            plain_commands("git status && 'git' \"log\" -1 | head; r''m x"),
            Some(words(&["git status", "git log -1", "head", "rm x"]))
        );
        assert_eq!(
            plain_commands("echo \"a b\" '' \" x \""),
            Some(vec![vec![
                "echo".into(),
                "a b".into(),
                String::new(),
                " x ".into()
            ]])
        );
        // `==` is a word to bash, and to a plain line (tree-sitter-bash reads `test`'s operator).
        assert_eq!(plain_commands("test a == b"), Some(words(&["test a == b"])));
    }

    /// Everyday lines stay plain through both readings (so an allow rule still allows them):
    /// each agrees with the hand-written check.
    #[test]
    fn everyday_lines_read_the_same_by_hand_and_by_the_grammar() {
        for line in [
            "git status --short && git log -n5 --pretty=%s",
            "git commit -m \"fix the bug \"",
            "git push origin HEAD:main",
            "git clone git@github.com:x/y",
            "npm i -D a@1.2 && npx create-app@latest my-app",
            "pip install x==1.0",
            "cargo test -p x; go test ./...",
            "g++ -o x x.c | clang++ a.cc",
            "python3.11 -V || x86_64-linux-gnu-gcc -v",
            "date +%Y-%m-%d",
            "dd if=a of=b bs=1M",
            "kubectl get pods -l app=x",
            "docker run -p 80:80 -e A=b img",
            "sort -t= -k2 f",
            "test a == b",
            "echo 'a\"b' \"a'b\" ''",
            "ls\t-la",
        ] {
            let by_hand = crate::plain::plain_by_hand(line);
            assert!(by_hand.is_some(), "{line}");
            assert_eq!(plain_commands(line), by_hand, "{line}");
        }
    }

    #[test]
    fn the_grammar_finds_no_plain_line_in_what_a_shell_reads_more_into() {
        for line in [
            "git status; echo PWNED > pwned.txt",
            "git status $(rm -rf x)",
            "echo `id`",
            "ls *",
            "x=1 ls",
            "ls &",
            "(ls)",
            "{ ls; }",
            "ls 'open",
            "if true; then ls; fi",
            "echo \"$HOME\"",
            "ls ~",
            "cat <<< x",
            "ls # comment",
            "",
        ] {
            assert_eq!(plain_commands(line), None, "{line}");
        }
    }
}
