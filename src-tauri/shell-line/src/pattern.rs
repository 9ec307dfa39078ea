//! Rules' command patterns ([`CommandPattern`]): one glob per word of a command.

use super::*;
use globset::{GlobBuilder, GlobMatcher};

/// A rule's `match` for `run_command`, read as words: `git status*`, `git status *`,
/// `npm test`, `ls *`, `rm *`.
///
/// The pattern is cut at whitespace; each word is a glob ([`globset`], `\` escapes, a `*`
/// never crosses into the next word) on the argv word at the same place. A trailing `*` — as
/// a word of its own (`git status *`) or at the end of the last word (`git status*`) — also
/// lets any number of further words follow (none too); otherwise the number of words must be
/// the same.
///
/// - `git status*` matches `git status`, `git status --short`, `git statusx`; not `git log`.
/// - `npm test` matches `npm test` only (not `npm test --watch`).
/// - `ls *` matches `ls`, `ls -la src`.
///
/// For a whole line: [`CommandPattern::allows`] (allow rules, strict) and
/// [`CommandPattern::matches_any`] (deny and ask rules, lenient).
#[derive(Debug, Clone)]
pub struct CommandPattern {
    /// The pattern as written.
    pattern: String,
    words: Vec<GlobMatcher>,
    /// Whether further words may follow the ones matched by `words`.
    open: bool,
    /// The pattern as one glob over the whole line: its meaning before patterns were read as
    /// words, kept so that a deny or ask rule never matches less than it used to.
    whole_line: GlobMatcher,
}

impl CommandPattern {
    /// Reads a rule's `match`.
    ///
    /// # Errors
    /// A sentence when the pattern has no words or a word is not a valid glob.
    pub fn parse(pattern: &str) -> Result<CommandPattern, String> {
        let glob = |text: &str| {
            GlobBuilder::new(text)
                .literal_separator(false)
                .backslash_escape(true)
                .build()
                .map(|g| g.compile_matcher())
                .map_err(|e| format!("The pattern `{pattern}` is not a valid glob: {e}"))
        };
        let mut texts: Vec<&str> = pattern.split_whitespace().collect();
        if texts.is_empty() {
            return Err("A command pattern needs at least one word.".to_owned());
        }
        let mut open = false;
        if texts.last() == Some(&"*") {
            texts.pop();
            open = true;
        } else if let Some(&last) = texts.last() {
            // `status*` (but not `status\*`, a literal star) is `status` followed by any
            // further words: never `statusx` (`ls*` must not allow `lsof` or `lsblk`). A last
            // word with other glob characters stays a glob on that word.
            let stem = last.trim_end_matches('*');
            let stars = last.len() - stem.len();
            let escaped = stem.ends_with('\\') && stars == 1;
            open = stars > 0 && !escaped;
            if open && !stem.is_empty() && !stem.contains(['*', '?', '[', ']', '{', '}', '\\']) {
                if let Some(slot) = texts.last_mut() {
                    *slot = stem;
                }
            }
        }
        let words = texts.into_iter().map(glob).collect::<Result<Vec<_>, _>>()?;
        Ok(CommandPattern {
            pattern: pattern.to_owned(),
            words,
            open,
            whole_line: glob(pattern)?,
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.pattern
    }

    /// Whether one simple command's words (program first) match.
    pub fn matches(&self, words: &[String]) -> bool {
        let count_fits = if self.open {
            words.len() >= self.words.len()
        } else {
            words.len() == self.words.len()
        };
        count_fits
            && !words.is_empty()
            && self
                .words
                .iter()
                .zip(words)
                .all(|(glob, word)| glob.is_match(word))
    }

    /// For an allow rule: whether [`plain_commands`] reads `line` and EVERY one of its simple
    /// commands matches. `git status*` allows `git status && git status -s`, never
    /// `git status; echo PWNED > pwned.txt` or `git status $(id)`.
    pub fn allows(&self, line: &str) -> bool {
        plain_commands(line).is_some_and(|commands| commands.iter().all(|c| self.matches(c)))
    }

    /// For a deny or ask rule: whether ANY of [`all_simple_commands`] (as written, without the
    /// program's folder, with wrappers stripped, inside `sh -c`, …) matches — or the pattern,
    /// read as one glob over the whole line as it was before patterns were read as words,
    /// does. `rm *` matches `sh -c 'rm x'`, `sudo /bin/rm x`, `find . -exec rm {} \;`.
    pub fn matches_any(&self, line: &str) -> bool {
        self.whole_line.is_match(line) || all_simple_commands(line).iter().any(|c| self.matches(c))
    }
}
