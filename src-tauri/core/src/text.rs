//! Small text helpers shared by the core and the shell: the one sanitiser for untrusted text
//! shown on a single line ([`display_label`]) and the few phrases every sentence builds on
//! ([`plural`], [`seconds`], [`truncate_text`]).
//!
//! Where the denial text, the timeout sentences or the card summaries are *worded* is not here:
//! this module only cleans and cuts text, so every place that shows a name, a title or a summary
//! from a model, a tool or an MCP server on one line (the card summary, the tray menu, a
//! notification, a server's stderr in a message) treats it the same way.

use std::time::Duration;
use unicode_segmentation::UnicodeSegmentation;

/// The mark put where text was cut.
pub const ELLIPSIS: char = '…';

/// Untrusted `text` made into one line for a person, at most `max_chars` characters (Unicode
/// scalar values) plus a final [`ELLIPSIS`] where it was cut:
///
/// - every whitespace character (space, tab, CR, LF, U+2028/U+2029, no-break spaces, …) becomes
///   a space, runs of them one space, and none is left at either end;
/// - other control characters (Unicode `Cc`: NUL, ESC, DEL, C1 controls) and invisible format
///   characters ([`is_invisible_format`]: bidi overrides and isolates, zero-width spaces and
///   joiners, the BOM, soft hyphen, tag characters) are shown as their code, `\u202E` (the
///   window's `VisibleText` spelling), so the text can neither hide part of itself nor reorder
///   what is shown around it, and the person still sees that something was there;
/// - a cut falls between two user-perceived characters (extended grapheme clusters, UAX #29),
///   never inside one: an emoji with its skin-tone modifier or a flag's two halves stay whole,
///   so the result may be a little shorter than `max_chars`.
///
/// `max_chars == 0` gives an empty string for empty input and `…` otherwise.
pub fn display_label(text: &str, max_chars: usize) -> String {
    let mut joined = String::with_capacity(text.len().min(max_chars.saturating_mul(4) + 8));
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            pending_space = !joined.is_empty();
            continue;
        }
        if pending_space {
            joined.push(' ');
            pending_space = false;
        }
        if c.is_control() || is_invisible_format(c) {
            joined.push_str(&visible_code(c));
        } else {
            joined.push(c);
        }
    }
    if joined.chars().count() <= max_chars {
        return joined;
    }
    let mut cut = String::new();
    let mut count = 0;
    for grapheme in joined.graphemes(true) {
        let chars = grapheme.chars().count();
        if count + chars > max_chars {
            break;
        }
        count += chars;
        cut.push_str(grapheme);
    }
    // A cut right after a space would show "word …".
    let mut cut = cut.trim_end().to_owned();
    cut.push(ELLIPSIS);
    cut
}

/// `c` spelled as its code point for a person: `\u` and at least four upper-case hex digits
/// (`\u202E`, `\uE0041`), as the window's escapes are written.
pub fn visible_code(c: char) -> String {
    format!("\\u{:04X}", u32::from(c))
}

/// Whether `c` is a format character that shows nothing itself but can hide or reorder text
/// around it (Unicode general category `Cf`, the ones that matter on one line): the bidi marks,
/// embeddings, overrides and isolates (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069),
/// zero-width space, non-joiner and joiner (U+200B–U+200D), word joiner and invisible operators
/// (U+2060–U+2064), the Mongolian vowel separator (U+180E), the byte-order mark (U+FEFF),
/// interlinear annotation marks (U+FFF9–U+FFFB), the soft hyphen (U+00AD) and tag characters
/// (U+E0000–U+E007F).
pub fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}'
        | '\u{E0000}'..='\u{E007F}')
}

/// `text` cut to at most `max_bytes` bytes at a character boundary, with [`ELLIPSIS`] after the
/// cut (so the result may be up to 3 bytes longer than `max_bytes`); unchanged when it fits.
/// Unlike [`display_label`] it keeps line breaks and every other character: it bounds text
/// passed on to the model, such as an MCP tool's description.
pub fn truncate_text(text: &str, max_bytes: usize) -> String {
    if text.len() <= max_bytes {
        return text.to_owned();
    }
    let mut end = max_bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{ELLIPSIS}", &text[..end])
}

/// `n` with the word for one or many: `plural(1, "line", "lines")` is "1 line",
/// `plural(3, "line", "lines")` is "3 lines", and 0 takes the plural ("0 lines").
pub fn plural<N: std::fmt::Display + PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    if n == N::from(1) {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A duration in whole seconds (rounded down) for a sentence: "1 second", "20 seconds",
/// "0 seconds".
pub fn seconds(duration: Duration) -> String {
    plural(duration.as_secs(), "second", "seconds")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_bidi_override_cannot_reorder_the_label() {
        // "invoice" U+202E "txt.exe" would show as "invoiceexe.txt" with the override kept.
        assert_eq!(
            display_label("invoice\u{202E}txt.exe", 80),
            "invoice\\u202Etxt.exe"
        );
        assert_eq!(
            display_label(
                "a\u{2066}b\u{2067}c\u{2068}d\u{2069}e\u{202A}f\u{200E}g\u{061C}h",
                80
            ),
            "a\\u2066b\\u2067c\\u2068d\\u2069e\\u202Af\\u200Eg\\u061Ch"
        );
    }

    #[test]
    fn zero_width_and_other_invisible_characters_are_shown_as_codes() {
        assert_eq!(
            display_label("pay\u{200B}pal\u{FEFF}\u{00AD}", 80),
            "pay\\u200Bpal\\uFEFF\\u00AD"
        );
        // A tag character spells hidden ASCII ("\u{E0041}" is a hidden "A").
        assert_eq!(display_label("ok\u{E0041}", 80), "ok\\uE0041");
    }

    #[test]
    fn line_breaks_and_runs_of_whitespace_become_one_space() {
        assert_eq!(
            display_label("  one\r\ntwo\rthree\n\n\tfour  ", 80),
            "one two three four"
        );
        assert_eq!(
            display_label("line\u{2028}sep\u{2029}para\u{85}nel", 80),
            "line sep para nel"
        );
        assert_eq!(display_label(" \r\n\t ", 80), "");
    }

    #[test]
    fn other_control_characters_are_shown_as_codes() {
        assert_eq!(
            display_label("\u{1b}[2J\u{7}red\u{0}\u{7f}\u{9b}x", 80),
            "\\u001B[2J\\u0007red\\u0000\\u007F\\u009Bx"
        );
    }

    #[test]
    fn a_long_text_is_cut_with_a_visible_ellipsis() {
        assert_eq!(display_label("abcdef", 6), "abcdef");
        assert_eq!(display_label("abcdefg", 6), "abcdef…");
        // Counted after cleaning: a hidden character takes the room of its code.
        assert_eq!(display_label("a\u{200B}bc", 8), "a\\u200Bb…");
        // Never "word …".
        assert_eq!(display_label("abc def", 4), "abc…");
        assert_eq!(display_label("abc", 0), "…");
        assert_eq!(display_label("", 0), "");
    }

    #[test]
    fn an_emoji_at_the_cut_is_kept_whole_or_left_out_whole() {
        // 👍🏽 is two characters (thumb and skin tone), one grapheme.
        assert_eq!(display_label("ab👍🏽cd", 3), "ab…");
        assert_eq!(display_label("ab👍🏽cd", 4), "ab👍🏽…");
        // A flag is two regional indicators.
        assert_eq!(display_label("x🇫🇷y", 2), "x…");
        assert_eq!(display_label("x🇫🇷y", 3), "x🇫🇷…");
        // Multi-byte characters are never split.
        assert_eq!(display_label("ééééé", 3), "ééé…");
    }

    #[test]
    fn truncate_text_cuts_at_a_character_boundary() {
        assert_eq!(truncate_text("hello", 5), "hello");
        assert_eq!(truncate_text("hello", 4), "hell…");
        // "é" is two bytes: a cut at byte 2 of "aé" would split it.
        assert_eq!(truncate_text("aéb", 2), "a…");
        assert_eq!(truncate_text("line\nbreak", 20), "line\nbreak");
    }

    #[test]
    fn plural_and_seconds_say_one_and_many() {
        assert_eq!(plural(1usize, "line", "lines"), "1 line");
        assert_eq!(plural(0usize, "line", "lines"), "0 lines");
        assert_eq!(plural(12u64, "byte", "bytes"), "12 bytes");
        assert_eq!(seconds(Duration::from_secs(1)), "1 second");
        assert_eq!(seconds(Duration::from_millis(20_900)), "20 seconds");
    }
}
