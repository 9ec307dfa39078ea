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
    /// The files read by `<` (and `<>`'s reading is its writing: in `writes`).
    pub(super) reads: Vec<String>,
    pub(super) here_strings: Vec<String>,
    /// The words (also redirection targets) in which every pattern character (`*`, `?`, `[`)
    /// was quoted or escaped, so that the shell does not expand it: `'invoice[1].pdf'`.
    pub(super) quoted_patterns: Vec<String>,
    /// The words in which some pattern characters were quoted and others not (`'*'*.pdf`).
    pub(super) mixed_patterns: Vec<String>,
    /// The words in which every `$` and backquote was quoted or escaped, so that the shell
    /// takes them as letters: `'$a.pdf'`.
    pub(super) quoted_dollars: Vec<String>,
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
    /// Whether a pattern character of the current word was quoted or escaped, and whether
    /// one was not.
    pattern_quoted: bool,
    pattern_live: bool,
    /// Whether a `$` or backquote of the current word was quoted or escaped, and whether one
    /// was read by the shell (unquoted or inside double quotes).
    dollar_quoted: bool,
    dollar_live: bool,
    pending: Option<Redirect>,
    writes: Vec<(String, bool)>,
    reads: Vec<String>,
    here_strings: Vec<String>,
    quoted_patterns: Vec<String>,
    mixed_patterns: Vec<String>,
    quoted_dollars: Vec<String>,
}

impl Splitter {
    fn push(&mut self, c: char) {
        self.pattern_live |= matches!(c, '*' | '?' | '[');
        self.dollar_live |= matches!(c, '$' | '`');
        self.word.push(c);
        self.in_word = true;
    }

    /// Pushes `c`, quoted or escaped: a pattern character, a `$` or a backquote stays a plain
    /// letter.
    fn push_quoted(&mut self, c: char) {
        self.pattern_quoted |= matches!(c, '*' | '?' | '[');
        self.dollar_quoted |= matches!(c, '$' | '`');
        self.word.push(c);
        self.in_word = true;
    }

    /// Pushes `c` inside double quotes: a pattern character is a plain letter, a `$` is still
    /// the shell's.
    fn push_double_quoted(&mut self, c: char) {
        if matches!(c, '$' | '`') {
            self.push(c);
        } else {
            self.push_quoted(c);
        }
    }

    fn end_word(&mut self) {
        if !self.in_word {
            return;
        }
        let word = std::mem::take(&mut self.word);
        self.in_word = false;
        self.quoted = false;
        match (
            std::mem::take(&mut self.pattern_quoted),
            std::mem::take(&mut self.pattern_live),
        ) {
            (true, false) => self.quoted_patterns.push(word.clone()),
            (true, true) => self.mixed_patterns.push(word.clone()),
            _ => {}
        }
        if std::mem::take(&mut self.dollar_quoted) && !std::mem::take(&mut self.dollar_live) {
            self.quoted_dollars.push(word.clone());
        }
        self.dollar_live = false;
        match self.pending.take() {
            None => self.words.push(word),
            Some(Redirect::Write { appends }) => self.writes.push((word, appends)),
            Some(Redirect::Duplicate) => {
                if word != "-" && !word.chars().all(|c| c.is_ascii_digit()) {
                    self.writes.push((word, false));
                }
            }
            Some(Redirect::HereString) => self.here_strings.push(word),
            Some(Redirect::Read) => self.reads.push(word),
            Some(Redirect::HereDocument) => {}
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
                s.push_quoted(c);
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
                        s.push_quoted(next);
                    }
                }
                _ => s.push_double_quoted(c),
            }
            continue;
        }
        match c {
            '$' if chars.peek() == Some(&'\'') => {
                // ANSI-C quoting: `$'\x63url'` is the word `curl` to bash, so it is to rules.
                chars.next();
                for decoded in ansi_c_quoted(&mut chars).chars() {
                    s.push_quoted(decoded);
                }
                s.in_word = true;
                s.quoted = true;
            }
            '$' if chars.peek() == Some(&'"') => {
                // `$"…"` (a string for translation) reads as `"…"`.
                chars.next();
                double = true;
                s.in_word = true;
                s.quoted = true;
            }
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
                        s.push_quoted(next);
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
        reads: s.reads,
        here_strings: s.here_strings,
        quoted_patterns: s.quoted_patterns,
        mixed_patterns: s.mixed_patterns,
        quoted_dollars: s.quoted_dollars,
    }
}

/// The text of an ANSI-C quoted string (`$'…'`, after its `$'`) up to its closing quote,
/// decoded as bash decodes it (bash(1), "QUOTING"): `\a \b \e \E \f \n \r \t \v \\ \' \" \?`,
/// `\nnn` (octal, 1–3 digits), `\xHH` (1–2), `\uHHHH` (1–4), `\UHHHHHHHH` (1–8), `\cx` (the
/// control character). A NUL ends the text, as it ends a string in bash; the rest up to the
/// quote is dropped. An unknown escape stays as written, backslash included.
fn ansi_c_quoted(line: &mut std::iter::Peekable<std::str::Chars<'_>>) -> String {
    // Where the string ends is found first, as bash finds it: at the first quote that no
    // backslash escapes (a backslash takes the character after it along, whatever it is), so
    // no escape can read past the end and put the rest of the line out of step.
    let mut raw = String::new();
    while let Some(c) = line.next() {
        match c {
            '\'' => break,
            '\\' => {
                raw.push(c);
                if let Some(next) = line.next() {
                    raw.push(next);
                }
            }
            other => raw.push(other),
        }
    }
    let mut chars = raw.chars().peekable();
    let chars = &mut chars;
    let mut out = String::new();
    let mut ended = false;
    let mut push = |out: &mut String, c: char| {
        if c == '\0' {
            ended = true;
        }
        if !ended {
            out.push(c);
        }
    };
    let number = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>, radix: u32, most: usize| {
        let mut value = 0u32;
        let mut digits = 0;
        while digits < most {
            let Some(d) = chars.peek().and_then(|c| c.to_digit(radix)) else {
                break;
            };
            chars.next();
            value = value.saturating_mul(radix).saturating_add(d);
            digits += 1;
        }
        (digits > 0).then_some(value)
    };
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(e) = chars.next() else {
                    push(&mut out, '\\');
                    break;
                };
                let decoded = match e {
                    'a' => Some('\u{7}'),
                    'b' => Some('\u{8}'),
                    'e' | 'E' => Some('\u{1b}'),
                    'f' => Some('\u{c}'),
                    'n' => Some('\n'),
                    'r' => Some('\r'),
                    't' => Some('\t'),
                    'v' => Some('\u{b}'),
                    '\\' | '\'' | '"' | '?' => Some(e),
                    '0'..='7' => {
                        // `e` is the first digit; up to two more follow.
                        let mut value = e.to_digit(8).unwrap_or(0);
                        for _ in 0..2 {
                            match chars.peek().and_then(|c| c.to_digit(8)) {
                                Some(d) => {
                                    chars.next();
                                    value = value * 8 + d;
                                }
                                None => break,
                            }
                        }
                        char::from_u32(value & 0xff)
                    }
                    'x' => number(chars, 16, 2).and_then(char::from_u32),
                    'u' => number(chars, 16, 4).map(|v| char::from_u32(v).unwrap_or('\u{fffd}')),
                    'U' => number(chars, 16, 8).map(|v| char::from_u32(v).unwrap_or('\u{fffd}')),
                    'c' => chars
                        .next()
                        .map(|x| char::from_u32(u32::from(x) & 0x1f).unwrap_or('\u{fffd}')),
                    _ => None,
                };
                match decoded {
                    Some(d) => push(&mut out, d),
                    None => {
                        push(&mut out, '\\');
                        push(&mut out, e);
                    }
                }
            }
            other => push(&mut out, other),
        }
    }
    out
}
