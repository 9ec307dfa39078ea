//! Canonical JSON for comparing tool calls: the same call written with other spacing or key
//! order gives the same text; anything that could make two different calls look the same does
//! not. Numbers keep their exact digits (no rounding through `f64`), strings are compared after
//! decoding escapes, and an object with a duplicate key has no canonical form at all (its
//! meaning depends on the reader), so it never matches a grant or a remembered denial.

use std::collections::BTreeMap;

enum Node {
    Null,
    Bool(bool),
    /// The number's text exactly as written (validated as JSON number syntax).
    Number(String),
    String(String),
    Array(Vec<Node>),
    Object(BTreeMap<String, Node>),
}

/// The canonical text of `raw`, or `None` when it is not JSON or has a duplicate key.
///
/// Deep nesting is handled without recursion in the parser's caller stack beyond 512 levels:
/// deeper input has no canonical form.
pub fn canonical_json(raw: &str) -> Option<String> {
    let mut parser = Parser {
        bytes: raw.as_bytes(),
        text: raw,
        pos: 0,
    };
    let node = parser.value(0)?;
    parser.ws();
    if parser.pos != raw.len() {
        return None;
    }
    let mut out = String::with_capacity(raw.len());
    write(&node, &mut out);
    Some(out)
}

const MAX_DEPTH: usize = 512;

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.ws();
        match self.bytes.get(self.pos)? {
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            b'"' => self.string().map(Node::String),
            b'-' | b'0'..=b'9' => self.number(),
            _ => {
                for (word, node) in [
                    ("true", Node::Bool(true)),
                    ("false", Node::Bool(false)),
                    ("null", Node::Null),
                ] {
                    if self.text[self.pos..].starts_with(word) {
                        self.pos += word.len();
                        return Some(node);
                    }
                }
                None
            }
        }
    }

    fn object(&mut self, depth: usize) -> Option<Node> {
        self.pos += 1;
        let mut map = BTreeMap::new();
        self.ws();
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Some(Node::Object(map));
        }
        loop {
            self.ws();
            if self.bytes.get(self.pos) != Some(&b'"') {
                return None;
            }
            let key = self.string()?;
            self.ws();
            if self.bytes.get(self.pos) != Some(&b':') {
                return None;
            }
            self.pos += 1;
            let value = self.value(depth + 1)?;
            if map.insert(key, value).is_some() {
                return None; // duplicate key
            }
            self.ws();
            match self.bytes.get(self.pos)? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    return Some(Node::Object(map));
                }
                _ => return None,
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<Node> {
        self.pos += 1;
        let mut items = Vec::new();
        self.ws();
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Some(Node::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.ws();
            match self.bytes.get(self.pos)? {
                b',' => self.pos += 1,
                b']' => {
                    self.pos += 1;
                    return Some(Node::Array(items));
                }
                _ => return None,
            }
        }
    }

    fn number(&mut self) -> Option<Node> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let from = p.pos;
            while let Some(b'0'..=b'9') = p.bytes.get(p.pos) {
                p.pos += 1;
            }
            p.pos > from
        };
        if self.bytes.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        if self.bytes.get(self.pos) == Some(&b'0') {
            self.pos += 1;
        } else if !digits(self) {
            return None;
        }
        if self.bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if !digits(self) {
                return None;
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            if !digits(self) {
                return None;
            }
        }
        Some(Node::Number(self.text[start..self.pos].to_owned()))
    }

    /// Reads a string literal (at its opening quote) with serde_json, which decodes escapes
    /// and rejects invalid ones and lone surrogates.
    fn string(&mut self) -> Option<String> {
        let start = self.pos;
        self.pos += 1;
        loop {
            match self.bytes.get(self.pos)? {
                b'"' => break,
                b'\\' => self.pos += 2,
                _ => self.pos += 1,
            }
        }
        self.pos += 1;
        serde_json::from_str::<String>(self.text.get(start..self.pos)?).ok()
    }
}

fn write(node: &Node, out: &mut String) {
    match node {
        Node::Null => out.push_str("null"),
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Number(n) => out.push_str(n),
        Node::String(s) => push_string(s, out),
        Node::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        Node::Object(map) => {
            out.push('{');
            for (i, (key, value)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_string(key, out);
                out.push(':');
                write(value, out);
            }
            out.push('}');
        }
    }
}

fn push_string(s: &str, out: &mut String) {
    // serde_json's string encoding is canonical for a given string.
    out.push_str(&serde_json::Value::String(s.to_owned()).to_string());
}
/// The first integer written in `raw` (outside strings) that a 64-bit integer cannot hold:
/// serde_json would round it through `f64`, so the server would get another number than the
/// one shown.
pub fn oversized_integer(raw: &str) -> Option<&str> {
    let bytes = raw.as_bytes();
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 2,
                b'"' => {
                    in_string = false;
                    i += 1;
                }
                _ => i += 1,
            }
            continue;
        }
        match b {
            b'"' => {
                in_string = true;
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < bytes.len()
                    && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                let literal = &raw[start..i];
                let integer = !literal.contains(['.', 'e', 'E']);
                if integer && literal.parse::<i64>().is_err() && literal.parse::<u64>().is_err() {
                    return Some(literal);
                }
            }
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_integer_beyond_64_bits_is_found_outside_strings_only() {
        assert_eq!(oversized_integer(r#"{"n": 9223372036854775807}"#), None);
        assert_eq!(oversized_integer(r#"{"n": 18446744073709551615}"#), None);
        assert_eq!(oversized_integer(r#"{"n": -9223372036854775808}"#), None);
        assert_eq!(
            oversized_integer(r#"{"n": 18446744073709551616}"#),
            Some("18446744073709551616")
        );
        assert_eq!(
            oversized_integer(r#"[1, -9223372036854775809]"#),
            Some("-9223372036854775809")
        );
        // Written in a string, or as a float, it passes on as written.
        assert_eq!(oversized_integer(r#"{"n": "18446744073709551616"}"#), None);
        assert_eq!(oversized_integer(r#"{"n": 18446744073709551616.0}"#), None);
        assert_eq!(oversized_integer(r#"{"a\"": 1e400}"#), None);
    }
}
