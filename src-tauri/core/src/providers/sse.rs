//! A server-sent events parser that works in linear time and bounded memory.
//!
//! Source: the WHATWG HTML standard, "Server-sent events", section "Interpreting an event
//! stream": lines end in CRLF, LF or CR; a line starting with `:` is a comment; `field: value`
//! (one space after the colon dropped) sets `event` or appends to `data` (joined with LF); an
//! empty line dispatches the event unless its data is empty; a leading byte-order mark is
//! dropped; an event not finished by an empty line when the stream ends is dropped. `id` and
//! `retry` only matter to a client that reconnects, which a model request never does, so they
//! are read and ignored.
//!
//! Why not the `eventsource-stream` crate: it parses its whole buffer again for every piece
//! that arrives, so one long line costs time that grows with the square of its length (a
//! 64 MB line sent in small pieces kept a core busy for minutes), and it takes lines of any
//! size. Here each byte is looked at once: a new piece is scanned only from where the last one
//! ended, and a line or event past its bound is an error before it is buffered.

use std::collections::VecDeque;

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event:` field, empty when the server sent none (the standard's "message").
    pub event: String,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

/// A bound the stream broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SseError {
    /// One line grew past the line bound (in bytes) without a line break.
    #[error("one line of the stream is longer than {0} bytes")]
    LineTooLong(usize),
    /// One event's data grew past the event bound (in bytes) before the empty line that ends it.
    #[error("one event of the stream is larger than {0} bytes")]
    EventTooLarge(usize),
}

/// Turns bytes, in pieces of any size split anywhere, into [`SseEvent`]s.
#[derive(Debug)]
pub struct SseParser {
    max_line: usize,
    max_event: usize,
    /// The bytes of the line not yet ended (never more than `max_line`).
    line: Vec<u8>,
    /// The last piece ended in CR: an LF at the start of the next one belongs to it.
    after_cr: bool,
    /// No line has been read yet (a byte-order mark may start it).
    first_line: bool,
    event: String,
    data: String,
    /// Whether a `data` field was seen since the last dispatch (data may be empty).
    has_data: bool,
    ready: VecDeque<SseEvent>,
}

impl SseParser {
    /// A parser that refuses lines longer than `max_line` bytes (without the line break) and
    /// events whose data is larger than `max_event` bytes.
    pub fn new(max_line: usize, max_event: usize) -> Self {
        Self {
            max_line,
            max_event,
            line: Vec::new(),
            after_cr: false,
            first_line: true,
            event: String::new(),
            data: String::new(),
            has_data: false,
            ready: VecDeque::new(),
        }
    }

    /// Takes the next piece of the stream. Events it completes are queued for
    /// [`Self::next_event`].
    ///
    /// # Errors
    /// [`SseError`] when a line or an event breaks its bound; the parser should then be dropped.
    pub fn feed(&mut self, mut bytes: &[u8]) -> Result<(), SseError> {
        if bytes.is_empty() {
            return Ok(());
        }
        if self.after_cr {
            self.after_cr = false;
            if let Some(rest) = bytes.strip_prefix(b"\n") {
                bytes = rest;
            }
        }
        while let Some(end) = bytes.iter().position(|b| *b == b'\n' || *b == b'\r') {
            let (content, rest) = bytes.split_at(end);
            if self.line.is_empty() {
                self.check_line(content.len())?;
                self.take_line(content)?;
            } else {
                self.check_line(self.line.len() + content.len())?;
                let mut line = std::mem::take(&mut self.line);
                line.extend_from_slice(content);
                self.take_line(&line)?;
                line.clear();
                self.line = line; // keep the allocation
            }
            // `rest` starts with the line break: CR, LF, or CR LF.
            bytes = match rest {
                [b'\r', b'\n', tail @ ..] => tail,
                [b'\r'] => {
                    self.after_cr = true;
                    &[]
                }
                [_, tail @ ..] => tail,
                [] => &[],
            };
        }
        self.check_line(self.line.len() + bytes.len())?;
        self.line.extend_from_slice(bytes);
        Ok(())
    }

    /// The next complete event, oldest first.
    pub fn next_event(&mut self) -> Option<SseEvent> {
        self.ready.pop_front()
    }

    fn check_line(&self, len: usize) -> Result<(), SseError> {
        if len > self.max_line {
            return Err(SseError::LineTooLong(self.max_line));
        }
        Ok(())
    }

    fn take_line(&mut self, mut line: &[u8]) -> Result<(), SseError> {
        if std::mem::take(&mut self.first_line) {
            line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        }
        if line.is_empty() {
            self.dispatch();
            return Ok(());
        }
        if line.starts_with(b":") {
            return Ok(()); // a comment, e.g. a keep-alive
        }
        let (field, value) = match line.iter().position(|b| *b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        match field {
            b"event" => self.event = String::from_utf8_lossy(value).into_owned(),
            b"data" => {
                if self.data.len() + value.len() + 1 > self.max_event {
                    return Err(SseError::EventTooLarge(self.max_event));
                }
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(&String::from_utf8_lossy(value));
                self.has_data = true;
            }
            _ => {} // id, retry and unknown fields
        }
        Ok(())
    }

    fn dispatch(&mut self) {
        let event = std::mem::take(&mut self.event);
        if std::mem::take(&mut self.has_data) {
            self.ready.push_back(SseEvent {
                event,
                data: std::mem::take(&mut self.data),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use pretty_assertions::assert_eq;

    fn events(pieces: &[&[u8]]) -> Vec<SseEvent> {
        let mut parser = SseParser::new(64, 128);
        let mut out = Vec::new();
        for piece in pieces {
            parser.feed(piece).unwrap();
            while let Some(event) = parser.next_event() {
                out.push(event);
            }
        }
        out
    }

    fn event(event: &str, data: &str) -> SseEvent {
        SseEvent {
            event: event.into(),
            data: data.into(),
        }
    }

    #[test]
    fn the_standards_examples_in_every_split() {
        let stream: &[u8] = b"\xEF\xBB\xBF: a comment\r\nevent: add\ndata: one\rdata:two\r\n\r\
            data\n\nid: 3\nretry: 10\nunknown: x\ndata:  spaced\n\nevent: lost\n\ndata: tail";
        let want = vec![
            event("add", "one\ntwo"),
            event("", ""),
            event("", " spaced"),
        ];
        assert_eq!(events(&[stream]), want);
        for cut in 0..stream.len() {
            let (a, b) = stream.split_at(cut);
            assert_eq!(events(&[a, b]), want, "split at {cut}");
        }
        let bytes: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(events(&bytes), want);
    }

    #[test]
    fn a_cr_lf_split_between_pieces_is_one_line_break() {
        assert_eq!(
            events(&[b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"]),
            vec![event("", "a\nb")]
        );
    }

    #[test]
    fn a_line_or_an_event_past_its_bound_is_an_error_before_it_is_kept() {
        let mut parser = SseParser::new(64, 128);
        parser.feed(&[b'a'; 60]).unwrap();
        assert_eq!(parser.feed(&[b'a'; 5]), Err(SseError::LineTooLong(64)));
        let mut parser = SseParser::new(64, 128);
        assert_eq!(parser.feed(&[b'a'; 65]), Err(SseError::LineTooLong(64)));
        let mut parser = SseParser::new(64, 128);
        let line = format!("data: {}\n", "b".repeat(50));
        parser.feed(line.as_bytes()).unwrap();
        parser.feed(line.as_bytes()).unwrap();
        assert_eq!(
            parser.feed(line.as_bytes()),
            Err(SseError::EventTooLarge(128))
        );
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        assert_eq!(
            events(&[b"data: a\xFFb\n\n"]),
            vec![event("", "a\u{FFFD}b")]
        );
    }
}
