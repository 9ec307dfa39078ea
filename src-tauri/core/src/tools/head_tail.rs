//! [`HeadTail`]: the start and end of output that may be huge, in bounded memory, cut at whole
//! UTF-8 characters.

use std::collections::VecDeque;

/// Bytes kept from text that may be huge: the first and the last `cap / 2` bytes, and how many
/// there were in all. Fed in pieces with [`HeadTail::push`]; memory stays within `cap`.
#[derive(Debug, Clone)]
pub(crate) struct HeadTail {
    half: usize,
    head: Vec<u8>,
    tail: VecDeque<u8>,
    total: u64,
}

impl HeadTail {
    /// Keeps at most `cap` bytes (half from the start, half from the end).
    pub(crate) fn new(cap: usize) -> Self {
        Self {
            half: cap / 2,
            head: Vec::new(),
            tail: VecDeque::new(),
            total: 0,
        }
    }

    /// Built from a start and an end already read, out of `total` bytes (for a file read with
    /// a seek rather than in full). `head` and `tail` must not overlap.
    pub(crate) fn from_parts(head: Vec<u8>, tail: Vec<u8>, total: u64) -> Self {
        Self {
            half: head.len().max(tail.len()),
            head,
            tail: tail.into(),
            total,
        }
    }

    /// Adds the next piece.
    pub(crate) fn push(&mut self, chunk: &[u8]) {
        self.total = self.total.saturating_add(chunk.len() as u64);
        let room = self.half.saturating_sub(self.head.len());
        let (to_head, rest) = chunk.split_at(room.min(chunk.len()));
        self.head.extend_from_slice(to_head);
        if rest.len() >= self.half {
            self.tail.clear();
            self.tail.extend(&rest[rest.len() - self.half..]);
        } else {
            self.tail.extend(rest);
            let excess = self.tail.len().saturating_sub(self.half);
            self.tail.drain(..excess);
        }
    }

    /// How many bytes were pushed in all.
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// Whether any kept byte is NUL, the usual sign of binary (non-text) content.
    pub(crate) fn looks_binary(&self) -> bool {
        self.head.contains(&0) || self.tail.contains(&0)
    }

    /// Whether some kept bytes are not UTF-8 (and so will show as U+FFFD).
    pub(crate) fn has_invalid_utf8(&self) -> bool {
        let (front, back) = self.tail.as_slices();
        let mut tail = front.to_vec();
        tail.extend_from_slice(back);
        if ((self.head.len() + tail.len()) as u64) < self.total {
            std::str::from_utf8(whole_chars_at_end(&self.head)).is_err()
                || std::str::from_utf8(whole_chars_at_start(&tail)).is_err()
        } else {
            let mut all = self.head.clone();
            all.extend_from_slice(&tail);
            std::str::from_utf8(&all).is_err()
        }
    }

    /// The kept text (invalid UTF-8 shown as U+FFFD), with a line `[… N bytes cut …]` where
    /// the middle was dropped. A character split by the cut is dropped whole.
    pub(crate) fn into_text(self) -> String {
        let tail: Vec<u8> = self.tail.into();
        let kept = (self.head.len() + tail.len()) as u64;
        if kept >= self.total {
            let mut all = self.head;
            all.extend_from_slice(&tail);
            return String::from_utf8_lossy(&all).into_owned();
        }
        let head = whole_chars_at_end(&self.head);
        let tail = whole_chars_at_start(&tail);
        let cut = self.total - (head.len() + tail.len()) as u64;
        let cut = if cut == 1 {
            "1 byte".to_owned()
        } else {
            format!("{cut} bytes")
        };
        format!(
            "{}\n[… {cut} cut …]\n{}",
            String::from_utf8_lossy(head),
            String::from_utf8_lossy(tail)
        )
    }
}

/// `bytes` without a UTF-8 character left incomplete at its end.
fn whole_chars_at_end(bytes: &[u8]) -> &[u8] {
    match std::str::from_utf8(bytes) {
        Err(e) if e.error_len().is_none() => &bytes[..e.valid_up_to()],
        Ok(_) | Err(_) => bytes,
    }
}

/// `bytes` without the continuation bytes of a UTF-8 character that began before it.
fn whole_chars_at_start(bytes: &[u8]) -> &[u8] {
    let skip = bytes
        .iter()
        .take(3)
        .take_while(|b| (**b & 0b1100_0000) == 0b1000_0000)
        .count();
    &bytes[skip..]
}
