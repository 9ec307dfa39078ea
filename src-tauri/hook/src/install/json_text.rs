//! Adding or removing one member or element of a JSON document by editing its text at that
//! spot, so every other byte (whitespace, key order) stays as it was.
//!
//! The spans come from `jsonc_parser`'s syntax tree, read as strict JSON. Each change is
//! checked against what `serde_json` reads before and after it: when the document means
//! anything other than the old one with exactly that member or element added or removed, the
//! change is refused and the text is left as it was.
//!
//! An item is added at the end of its object or array in the style of the items before it: the
//! same separator after the comma, so the same line breaks and indentation, and one line for a
//! list written on one line. In an empty object or array the item goes on a line of its own,
//! indented one step (the document's first indentation) further than the line that opens it,
//! unless the document is written on one line. Removing the last item takes away the comma and
//! separator before it, which is exactly what adding it put there; so adding an item and then
//! removing it gives back the same text. Removing the only item leaves the whitespace the
//! caller says was inside the empty container before ([`empty_inside`] of the old text).

use jsonc_parser::ast;
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions};
use serde::Serialize;
use serde_json::Value;
use std::ops::Range;

/// One step of a path into a document: an object's member or an array's element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step<'a> {
    /// The member with this key.
    Key(&'a str),
    /// The element at this index (from 0).
    Index(usize),
}

/// Why a document could not be read or changed; the text is then unchanged.
#[derive(Debug, thiserror::Error)]
pub(super) enum EditError {
    /// The text is not a JSON object.
    #[error("{0}")]
    NotJson(String),
    /// A key on the path appears more than once in its object (readers disagree on which
    /// one counts).
    #[error("{0} appears more than once")]
    DuplicateKey(String),
    /// The path leads nowhere, or to something other than an object or array.
    #[error("{0} is not an object or list where one was expected")]
    Shape(String),
    /// The change would have meant something other than the one member or element.
    #[error("a change at {0} would have changed other settings too")]
    Unexpected(String),
}

/// A JSON document whose top level is an object, as text.
#[derive(Debug, Clone)]
pub(super) struct JsonText {
    text: String,
}

impl JsonText {
    /// `text`, when it is one JSON object.
    ///
    /// # Errors
    /// [`EditError::NotJson`] when `text` is not strict JSON or not an object.
    pub(super) fn new(text: String) -> Result<Self, EditError> {
        let document = Self { text };
        match document.value()? {
            Value::Object(_) => {}
            _ => return Err(EditError::NotJson("it is not a JSON object".into())),
        }
        parse(&document.text)?;
        Ok(document)
    }

    /// The text.
    pub(super) fn as_str(&self) -> &str {
        &self.text
    }

    /// What the text means, as `serde_json` reads it.
    ///
    /// # Errors
    /// [`EditError::NotJson`] (not after [`JsonText::new`] succeeded).
    pub(super) fn value(&self) -> Result<Value, EditError> {
        serde_json::from_str(&self.text).map_err(|e| EditError::NotJson(e.to_string()))
    }

    /// Adds the member `key: value` at the end of the object at `object`.
    ///
    /// # Errors
    /// [`EditError`]; `key` already there is [`EditError::DuplicateKey`].
    pub(super) fn insert_member(
        &mut self,
        object: &[Step<'_>],
        key: &str,
        value: &impl Serialize,
    ) -> Result<(), EditError> {
        let container = Container::at(&self.text, object)?;
        if container.keys.is_none() {
            return Err(EditError::Shape(shown(object)));
        }
        let mut path = object.to_vec();
        path.push(Step::Key(key));
        if container.position(Step::Key(key)).is_some() {
            return Err(EditError::DuplicateKey(shown(&path)));
        }
        let style = Style::of(&self.text)?;
        let colon = container
            .colons
            .last()
            .map_or(style.colon.as_str(), |colon| &self.text[colon.clone()])
            .to_owned();
        let quoted = serde_json::to_string(key).map_err(|_| EditError::Unexpected(shown(&path)))?;
        let (span, replacement) = container.insertion(&self.text, &style, |indent| {
            Ok(format!("{quoted}{colon}{}", style.render(value, indent)?))
        })?;
        let added = serde_json::to_value(value).map_err(|_| EditError::Unexpected(shown(&path)))?;
        self.apply(span, &replacement, &path, |document| {
            value_at(document, object)?
                .as_object_mut()?
                .insert(key.to_owned(), added);
            Some(())
        })
    }

    /// Adds `value` at the end of the array at `array`.
    ///
    /// # Errors
    /// [`EditError`].
    pub(super) fn append_element(
        &mut self,
        array: &[Step<'_>],
        value: &impl Serialize,
    ) -> Result<(), EditError> {
        let container = Container::at(&self.text, array)?;
        if container.keys.is_some() {
            return Err(EditError::Shape(shown(array)));
        }
        let style = Style::of(&self.text)?;
        let (span, replacement) =
            container.insertion(&self.text, &style, |indent| style.render(value, indent))?;
        let added = serde_json::to_value(value).map_err(|_| EditError::Unexpected(shown(array)))?;
        self.apply(span, &replacement, array, |document| {
            value_at(document, array)?.as_array_mut()?.push(added);
            Some(())
        })
    }

    /// Removes `item` (a member's key or an element's index) from the object or array at
    /// `container`. When it is the only item, `emptied` is put between the brackets (the
    /// whitespace that was there before anything was added).
    ///
    /// # Errors
    /// [`EditError`]; an item not there is [`EditError::Shape`].
    pub(super) fn remove(
        &mut self,
        container: &[Step<'_>],
        item: Step<'_>,
        emptied: &str,
    ) -> Result<(), EditError> {
        let mut path = container.to_vec();
        path.push(item);
        let found = Container::at(&self.text, container)?;
        let index = found
            .position(item)
            .ok_or_else(|| EditError::Shape(shown(&path)))?;
        let items = &found.items;
        let span = match (index.checked_sub(1), items.get(index + 1)) {
            (_, Some(next)) => items[index].start..next.start,
            (Some(before), None) => items[before].end..items[index].end,
            (None, None) => found.inside(),
        };
        let replacement = if items.len() == 1 { emptied } else { "" };
        self.apply(span, replacement, &path, |document| {
            match (value_at(document, container)?, item) {
                (Value::Object(object), Step::Key(key)) => object.remove(key).map(drop),
                (Value::Array(array), Step::Index(index)) if index < array.len() => {
                    array.remove(index);
                    Some(())
                }
                _ => None,
            }
        })
    }

    /// Replaces `span` with `replacement` when the result means what `expect` makes of the
    /// current meaning, and is still readable for the next change.
    fn apply(
        &mut self,
        span: Range<usize>,
        replacement: &str,
        path: &[Step<'_>],
        expect: impl FnOnce(&mut Value) -> Option<()>,
    ) -> Result<(), EditError> {
        let unexpected = || EditError::Unexpected(shown(path));
        let mut expected = self.value()?;
        expect(&mut expected).ok_or_else(unexpected)?;
        let mut text = self.text.clone();
        if !text.is_char_boundary(span.start) || !text.is_char_boundary(span.end) {
            return Err(unexpected());
        }
        text.replace_range(span, replacement);
        let changed: Value = serde_json::from_str(&text).map_err(|_| unexpected())?;
        if changed != expected || parse(&text).is_err() {
            return Err(unexpected());
        }
        self.text = text;
        Ok(())
    }
}

/// The whitespace between the brackets of the empty object or array at `path` in `text`;
/// `None` when `text` is not JSON or there is no empty object or array there.
pub(super) fn empty_inside(text: &str, path: &[Step<'_>]) -> Option<String> {
    let container = Container::at(text, path).ok()?;
    container
        .items
        .is_empty()
        .then(|| text[container.inside()].to_owned())
}

/// Whether `text` is JSON with something (anything) at `path`.
pub(super) fn has(text: &str, path: &[Step<'_>]) -> bool {
    serde_json::from_str::<Value>(text)
        .ok()
        .is_some_and(|mut value| value_at(&mut value, path).is_some())
}

/// Where an object or array and its items are in the text.
struct Container {
    /// The byte of the opening bracket.
    open: usize,
    /// The byte of the closing bracket.
    close: usize,
    /// Each item's span: a member from its key to the end of its value.
    items: Vec<Range<usize>>,
    /// An object's keys, in order; `None` for an array.
    keys: Option<Vec<String>>,
    /// An object's spans between each key and its value (the colon and spaces).
    colons: Vec<Range<usize>>,
}

impl Container {
    /// The object or array at `path` in `text`.
    fn at(text: &str, path: &[Step<'_>]) -> Result<Self, EditError> {
        let root = parse(text)?;
        let mut node = &root;
        for (depth, step) in path.iter().enumerate() {
            let here = || shown(&path[..=depth]);
            node = match (step, node) {
                (Step::Key(key), ast::Value::Object(object)) => {
                    let mut found = object.properties.iter().filter(|p| name(p) == *key);
                    let first = found.next().ok_or_else(|| EditError::Shape(here()))?;
                    if found.next().is_some() {
                        return Err(EditError::DuplicateKey(here()));
                    }
                    &first.value
                }
                (Step::Index(index), ast::Value::Array(array)) => array
                    .elements
                    .get(*index)
                    .ok_or_else(|| EditError::Shape(here()))?,
                _ => return Err(EditError::Shape(here())),
            };
        }
        let range = node.range();
        let (items, keys, colons) = match node {
            ast::Value::Object(object) => (
                object
                    .properties
                    .iter()
                    .map(|p| p.range.start..p.range.end)
                    .collect(),
                Some(
                    object
                        .properties
                        .iter()
                        .map(|p| name(p).to_owned())
                        .collect(),
                ),
                object
                    .properties
                    .iter()
                    .map(|p| p.name.range().end..p.value.range().start)
                    .collect(),
            ),
            ast::Value::Array(array) => (
                array.elements.iter().map(|e| e.start()..e.end()).collect(),
                None,
                Vec::new(),
            ),
            _ => return Err(EditError::Shape(shown(path))),
        };
        Ok(Self {
            open: range.start,
            close: range.end.saturating_sub(1),
            items,
            keys,
            colons,
        })
    }

    /// The span between the brackets.
    fn inside(&self) -> Range<usize> {
        self.open + 1..self.close
    }

    /// The index of `item` among the items (a key must appear once).
    fn position(&self, item: Step<'_>) -> Option<usize> {
        match (&self.keys, item) {
            (Some(keys), Step::Key(key)) => {
                let mut found = keys.iter().enumerate().filter(|(_, k)| *k == key);
                let (index, _) = found.next()?;
                found.next().is_none().then_some(index)
            }
            (None, Step::Index(index)) => (index < self.items.len()).then_some(index),
            _ => None,
        }
    }

    /// The span to replace and its new text for adding the item `render` makes (given the
    /// indentation of its line, `None` for one line) at the end.
    fn insertion(
        &self,
        text: &str,
        style: &Style,
        render: impl FnOnce(Option<&str>) -> Result<String, EditError>,
    ) -> Result<(Range<usize>, String), EditError> {
        let Some(last) = self.items.last() else {
            if style.one_line_at(text, self.open) {
                return Ok((self.inside(), render(None)?));
            }
            let outer = line_indent(text, self.open);
            let inner = format!("{outer}{}", style.unit);
            let newline = style.newline;
            let item = render(Some(&inner))?;
            return Ok((
                self.inside(),
                format!("{newline}{inner}{item}{newline}{outer}"),
            ));
        };
        // The whitespace after the comma before the last item (or after the bracket).
        let separator = match self.items.as_slice() {
            [.., before, last] => {
                let between = &text[before.end..last.start];
                between.split_once(',').map_or(between, |(_, after)| after)
            }
            _ => &text[self.open + 1..last.start],
        };
        let indent = separator.rfind('\n').map(|at| &separator[at + 1..]);
        let item = render(indent)?;
        Ok((last.end..last.end, format!(",{separator}{item}")))
    }
}

/// How the document is laid out, for an item added where no item shows the way.
struct Style {
    /// `"\r\n"` when the document uses it, else `"\n"`.
    newline: &'static str,
    /// One step of indentation: that of the top-level object's first member, else two spaces.
    unit: String,
    /// Between a key and its value: that of the top-level object's first member, else `": "`.
    colon: String,
    /// The top-level object's opening bracket.
    root_open: usize,
    /// Whether the top-level object has members.
    root_has_members: bool,
}

impl Style {
    fn of(text: &str) -> Result<Self, EditError> {
        let root = Container::at(text, &[])?;
        let root_has_members = !root.items.is_empty();
        let unit = root
            .items
            .first()
            .and_then(|first| {
                let before = &text[root.open + 1..first.start];
                before.rfind('\n').map(|at| &before[at + 1..])
            })
            .filter(|unit| !unit.is_empty())
            .unwrap_or("  ");
        let colon = root
            .colons
            .first()
            .map_or(": ", |colon| &text[colon.clone()]);
        Ok(Self {
            newline: if text.contains("\r\n") { "\r\n" } else { "\n" },
            unit: unit.to_owned(),
            colon: colon.to_owned(),
            root_open: root.open,
            root_has_members,
        })
    }

    /// Whether an item added to the empty container opening at byte `open` goes on the same
    /// line: when that is the first line of a top-level object with members (a document on
    /// one line, or a first line that goes on); an empty top-level object is laid out over
    /// lines, as the agents write theirs.
    fn one_line_at(&self, text: &str, open: usize) -> bool {
        self.root_has_members && !text[self.root_open..open].contains('\n')
    }

    /// `value` as JSON: on one line when `indent` is `None`, else pretty-printed with this
    /// style's indentation, its later lines starting with `indent`.
    fn render(&self, value: &impl Serialize, indent: Option<&str>) -> Result<String, EditError> {
        let failed = |_| EditError::Unexpected("a value to add".into());
        let Some(indent) = indent else {
            return serde_json::to_string(value).map_err(failed);
        };
        let mut out = Vec::new();
        let formatter = serde_json::ser::PrettyFormatter::with_indent(self.unit.as_bytes());
        value
            .serialize(&mut serde_json::Serializer::with_formatter(
                &mut out, formatter,
            ))
            .map_err(failed)?;
        let pretty =
            String::from_utf8(out).map_err(|_| EditError::Unexpected("a value to add".into()))?;
        Ok(pretty.replace('\n', &format!("{}{indent}", self.newline)))
    }
}

/// `text` as a strict-JSON syntax tree.
fn parse(text: &str) -> Result<ast::Value<'_>, EditError> {
    let strict = ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &strict)
        .map_err(|e| EditError::NotJson(e.to_string()))?
        .value
        .ok_or_else(|| EditError::NotJson("it is empty".into()))
}

fn name<'t>(property: &'t ast::ObjectProp<'_>) -> &'t str {
    match &property.name {
        ast::ObjectPropName::String(string) => &string.value,
        ast::ObjectPropName::Word(word) => word.value,
    }
}

/// The spaces and tabs that start the line holding byte `at`.
fn line_indent(text: &str, at: usize) -> &str {
    let start = text[..at].rfind('\n').map_or(0, |newline| newline + 1);
    let line = &text[start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

fn value_at<'v>(mut value: &'v mut Value, path: &[Step<'_>]) -> Option<&'v mut Value> {
    for step in path {
        value = match step {
            Step::Key(key) => value.as_object_mut()?.get_mut(*key)?,
            Step::Index(index) => value.as_array_mut()?.get_mut(*index)?,
        };
    }
    Some(value)
}

/// `path` as a reader would write it: `hooks.PreToolUse[0].hooks`.
fn shown(path: &[Step<'_>]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(key) if out.is_empty() => out.push_str(key),
            Step::Key(key) => {
                out.push('.');
                out.push_str(key);
            }
            Step::Index(index) => out.push_str(&format!("[{index}]")),
        }
    }
    if out.is_empty() {
        out.push_str("the top level");
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_change_that_would_mean_more_than_its_one_item_is_refused_and_the_text_kept() {
        let text = "{\"hooks\": {\"PreToolUse\": [1]}}";
        let mut document = JsonText::new(text.to_owned()).expect("json");
        let list = [Step::Key("hooks"), Step::Key("PreToolUse")];
        // Something other than whitespace left in the emptied list would add an element.
        assert!(matches!(
            document.remove(&list, Step::Index(0), "2"),
            Err(EditError::Unexpected(_))
        ));
        assert_eq!(document.as_str(), text);
        document.remove(&list, Step::Index(0), " ").expect("remove");
        assert_eq!(document.as_str(), "{\"hooks\": {\"PreToolUse\": [ ]}}");
        assert_eq!(empty_inside(document.as_str(), &list).as_deref(), Some(" "));
        assert!(matches!(
            document.insert_member(&[], "hooks", &1),
            Err(EditError::DuplicateKey(_))
        ));
    }
}
