//! The strict reading of a command line ([`plain_commands`]), for allow rules: only plain
//! words joined by `&&`, `||`, `;` and `|`.

/// The longest line [`plain_commands`] reads (64 KiB); a longer one is not plain.
const MAX_PLAIN_BYTES: usize = 64 * 1024;

/// The simple commands of `line`, each as its words with quotes removed, when the line is made
/// only of plain words joined by `&&`, `||`, `;` and `|`; `None` when a shell could make the
/// line mean something that cannot be read from its text.
///
/// Plain words are made of unquoted ASCII letters, digits and `-_./:,+=@%`, single-quoted
/// strings and double-quoted strings without `$`, backquotes, backslashes or `!`; pieces next
/// to each other make one word (`r''m` is `rm`). Spaces and tabs separate words.
///
/// `None` for: `$` outside single quotes, backquotes, backslashes, redirections (`>`, `<`,
/// `2>&1`, `&>`), a single `&`, parentheses, braces, globs (`*`, `?`, `[`), `~`, `#`, `!`,
/// `^`, newlines and other control characters (also inside quotes), non-ASCII characters
/// outside quotes, a leading `NAME=value` (or any first word with `=`), a reserved word (`if`,
/// `for`, `{`, …) as a program, an empty program, an empty command (`a ;; b`, a trailing `&&`)
/// and lines over 64 KiB. The same check as Codex's word-only `bash -lc` test
/// (`codex-rs/core/src/bash.rs`), made twice: by hand (linear) and by the bash grammar
/// (tree-sitter-bash, `grammar.rs`); a line is plain only when both read the same words.
///
/// ```
/// use askfirst_shell_line::plain_commands;
/// let words = |c: &[&str]| c.iter().map(|w| w.to_string()).collect::<Vec<_>>();
/// assert_eq!(
///     plain_commands("git status && 'git' \"log\" -1 | head"),
///     Some(vec![words(&["git", "status"]), words(&["git", "log", "-1"]), words(&["head"])])
/// );
/// assert_eq!(plain_commands("git status; echo PWNED > pwned.txt"), None);
/// assert_eq!(plain_commands("git status $(rm -rf x)"), None);
/// ```
pub fn plain_commands(line: &str) -> Option<Vec<Vec<String>>> {
    let by_hand = plain_by_hand(line)?;
    // The bash grammar must read the same line into the same words: a line one of the two
    // readings cannot fully read is not plain.
    let by_grammar = crate::grammar::plain_commands(line)?;
    (by_hand == by_grammar).then_some(by_hand)
}

/// The hand-written check of [`plain_commands`] (linear, one pass).
pub(crate) fn plain_by_hand(line: &str) -> Option<Vec<Vec<String>>> {
    if line.len() > MAX_PLAIN_BYTES {
        return None;
    }
    let mut commands = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '\'' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c if c.is_control() => return None,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '$' | '`' | '\\' | '!' => return None,
                        c if c.is_control() => return None,
                        c => word.push(c),
                    }
                }
            }
            '&' | '|' | ';' => {
                words.extend(word.take());
                match c {
                    '&' => {
                        chars.next_if_eq(&'&')?;
                    }
                    '|' => {
                        chars.next_if_eq(&'|');
                    }
                    _ => {}
                }
                // `|&`, `;;`, `&&&`, `;&`: not a plain operator.
                if matches!(chars.peek(), Some('&' | '|' | ';')) {
                    return None;
                }
                commands.push(plain_command(std::mem::take(&mut words))?);
            }
            c if c.is_ascii_alphanumeric() || "-_./:,+=@%".contains(c) => {
                word.get_or_insert_with(String::new).push(c);
            }
            _ => return None,
        }
    }
    words.extend(word.take());
    commands.push(plain_command(words)?);
    Some(commands)
}

/// One command of a plain line, or `None` when it is empty or starts with something a shell
/// reads as more than a program name.
fn plain_command(words: Vec<String>) -> Option<Vec<String>> {
    const RESERVED: &[&str] = &[
        "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
        "in", "select", "function", "time", "coproc", "{", "}", "!", "[[", "]]",
    ];
    let program = words.first()?;
    if program.is_empty() || program.contains('=') || RESERVED.contains(&program.as_str()) {
        return None;
    }
    Some(words)
}
