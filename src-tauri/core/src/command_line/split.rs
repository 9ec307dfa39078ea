//! Cutting a line into simple commands, their words and redirections ([`split`]), for the
//! lenient reading: everything that might separate commands cuts.

/// How a redirection uses the word after it.
#[derive(Clone, Copy)]
pub(super) enum Redirect {
    /// `>`, `>|`, `>>` (appends), `&>`, `<>`: writes the file.
    Write { appends: bool },
    /// `<`: reads it.
    Read,
    /// `<<<`: the word is the input (to a shell: commands).
    HereString,
    /// `>&N`, `<&N`: another descriptor (or a file, for `>&file`).
    Duplicate,
    /// `<<END`: the end marker of a here-document.
    HereDocument,
}

pub(super) struct Split {
    pub(super) commands: Vec<Vec<String>>,
    pub(super) writes: Vec<(String, bool)>,
    pub(super) here_strings: Vec<String>,
}

/// The lenient splitter's state while it reads one line.
#[derive(Default)]
pub(super) struct Splitter {
    commands: Vec<Vec<String>>,
    words: Vec<String>,
    word: String,
    in_word: bool,
    /// Whether a quote was part of the current word (`'2'>` is no descriptor number).
    quoted: bool,
    pending: Option<Redirect>,
    writes: Vec<(String, bool)>,
    here_strings: Vec<String>,
}

impl Splitter {
    fn push(&mut self, c: char) {
        self.word.push(c);
        self.in_word = true;
    }

    fn end_word(&mut self) {
        if !self.in_word {
            return;
        }
        let word = std::mem::take(&mut self.word);
        self.in_word = false;
        self.quoted = false;
        match self.pending.take() {
            None => self.words.push(word),
            Some(Redirect::Write { appends }) => self.writes.push((word, appends)),
            Some(Redirect::Duplicate) => {
                if word != "-" && !word.chars().all(|c| c.is_ascii_digit()) {
                    self.writes.push((word, false));
                }
            }
            Some(Redirect::HereString) => self.here_strings.push(word),
            Some(Redirect::Read | Redirect::HereDocument) => {}
        }
    }

    fn end_command(&mut self) {
        self.end_word();
        self.pending = None;
        let words = std::mem::take(&mut self.words);
        if !words.is_empty() {
            self.commands.push(words);
        }
    }
}

/// The simple commands of `line` (lenient, one level), each as its words with quotes removed,
/// and the files its redirections write.
pub(super) fn split(line: &str) -> Split {
    let mut s = Splitter::default();
    let mut chars = line.chars().peekable();
    let mut single = false;
    let mut double = false;
    // Unquoted `{` still open, so that `{reboot,}` cuts at the comma.
    let mut braces = 0usize;
    // Open parentheses and substitutions: whether a double quote was open outside each (to
    // go back into it when it closes) and the character that closes it.
    let mut open: Vec<(bool, char)> = Vec::new();
    while let Some(c) = chars.next() {
        if single {
            if c == '\'' {
                single = false;
            } else {
                s.push(c);
            }
            continue;
        }
        let closes_backquote = c == '`' && open.last().is_some_and(|(_, close)| *close == '`');
        let opens = (c == '`' && !closes_backquote) || (c == '$' && chars.peek() == Some(&'('));
        if opens {
            // Command substitution runs a command, even inside double quotes: what is inside
            // is a command of its own, read unquoted.
            if c == '$' {
                chars.next();
            }
            open.push((double, if c == '`' { '`' } else { ')' }));
            double = false;
            s.end_command();
            continue;
        }
        if closes_backquote || (c == ')' && !double) {
            if let Some((was_double, _)) = open.pop() {
                double = was_double;
            }
            s.end_command();
            if double {
                s.in_word = true;
            }
            continue;
        }
        if double {
            match c {
                '"' => double = false,
                '\\' => {
                    if let Some(next) = chars.next() {
                        s.push(next);
                    }
                }
                _ => s.push(c),
            }
            continue;
        }
        match c {
            '\'' => {
                single = true;
                s.in_word = true;
                s.quoted = true;
            }
            '"' => {
                double = true;
                s.in_word = true;
                s.quoted = true;
            }
            '\\' => {
                if let Some(next) = chars.next() {
                    if next != '\n' {
                        s.push(next);
                        s.quoted = true;
                    }
                }
            }
            '{' if chars.peek() == Some(&'}') => {
                // `{}` is a word (find's and xargs' placeholder), not a group.
                chars.next();
                s.push('{');
                s.push('}');
            }
            '{' => {
                braces += 1;
                s.end_command();
            }
            '}' => {
                braces = braces.saturating_sub(1);
                s.end_command();
            }
            ',' if braces > 0 => s.end_command(),
            '(' => {
                open.push((false, ')'));
                s.end_command();
            }
            '>' | '<' if chars.peek() == Some(&'(') => {
                // Process substitution: the `(` that follows opens a command of its own.
                s.end_command();
            }
            '>' | '<' => {
                let descriptor =
                    s.in_word && !s.quoted && s.word.chars().all(|c| c.is_ascii_digit());
                if descriptor {
                    s.word.clear();
                    s.in_word = false;
                } else {
                    s.end_word();
                }
                let kind = if c == '>' {
                    if chars.next_if_eq(&'>').is_some() {
                        Redirect::Write { appends: true }
                    } else if chars.next_if_eq(&'&').is_some() {
                        Redirect::Duplicate
                    } else {
                        chars.next_if_eq(&'|');
                        Redirect::Write { appends: false }
                    }
                } else if chars.next_if_eq(&'<').is_some() {
                    if chars.next_if_eq(&'<').is_some() {
                        Redirect::HereString
                    } else {
                        chars.next_if_eq(&'-');
                        Redirect::HereDocument
                    }
                } else if chars.next_if_eq(&'&').is_some() {
                    Redirect::Read
                } else if chars.next_if_eq(&'>').is_some() {
                    Redirect::Write { appends: false }
                } else {
                    Redirect::Read
                };
                s.pending = Some(kind);
            }
            '&' if chars.peek() == Some(&'>') => {
                chars.next();
                s.end_word();
                let appends = chars.next_if_eq(&'>').is_some();
                s.pending = Some(Redirect::Write { appends });
            }
            ';' | '&' | '|' | '\n' => s.end_command(),
            c if c.is_whitespace() => s.end_word(),
            _ => s.push(c),
        }
    }
    s.end_command();
    Split {
        commands: s.commands,
        writes: s.writes,
        here_strings: s.here_strings,
    }
}
