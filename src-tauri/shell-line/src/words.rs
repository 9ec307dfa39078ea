//! A line cut into words as `sh` cuts them ([`words`]): quotes and backslashes removed,
//! nothing expanded, no operator read — the argv of one program (an MCP server's command line,
//! one reading of another agent's line). And words quoted back into one line
//! ([`quoted_line`]), as `sh` would read them again.

/// A line that does not cut into words: a quote left open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnclosedQuote;

impl std::fmt::Display for UnclosedQuote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a quote is left open")
    }
}

impl std::error::Error for UnclosedQuote {}

/// The words of `line` as POSIX `sh` cuts them: at unquoted blanks, with single quotes,
/// double quotes and backslashes removed (a backslash-newline joins lines); `#` at the start
/// of a word begins a comment. No variable, pattern or `~` is expanded and `;`, `|`, `&`, `>`
/// are letters of words here (use [`crate::all_simple_commands`] for a line of commands).
///
/// # Errors
/// [`UnclosedQuote`] when a quote is left open or the line ends in a lone backslash.
///
/// ```
/// use askfirst_shell_line::words::words;
/// assert_eq!(words("npx -y 'my server' \"--dir=a b\"").unwrap(), ["npx", "-y", "my server", "--dir=a b"]);
/// assert!(words("echo 'open").is_err());
/// ```
pub fn words(line: &str) -> Result<Vec<String>, UnclosedQuote> {
    shell_words::split(line).map_err(|_| UnclosedQuote)
}

/// `words` quoted where needed and joined by spaces, so that [`words`] (and `sh`) reads the
/// same words back: for showing a command as one line, and for another agent's list of words.
///
/// ```
/// use askfirst_shell_line::words::{quoted_line, words};
/// let line = quoted_line(["rm", "-rf", "my files", "$HOME"]);
/// assert_eq!(line, "rm -rf 'my files' '$HOME'");
/// assert_eq!(words(&line).unwrap(), ["rm", "-rf", "my files", "$HOME"]);
/// ```
pub fn quoted_line<I, S>(words: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    shell_words::join(words)
}
