//! A node's config schema as data: each section's [`Shape`], checked on a JSON tree with one
//! located diagnostic per problem (a wrong type, a field the node's strict objects refuse, a
//! missing one, a value outside its set or its pattern). The tables are the nodes' own zod schemas
//! written as data, one per node and version (`node_config.rs`, `feed_config.rs`,
//! `signed_api.rs`).

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::pointer;

/// What a value must be.
pub(super) enum Shape {
    Any,
    String,
    Bool,
    Number,
    Integer,
    PositiveInteger,
    NonNegativeInteger,
    OneOf(&'static [&'static str]),
    Text(fn(&str) -> bool, &'static str),
    Array(&'static Shape),
    /// An array with at least one item (zod's `nonempty()`).
    NonEmpty(&'static Shape),
    /// `null`, or the shape (zod's `nullable()`).
    Nullable(&'static Shape),
    /// Exactly this string (zod's `literal`), or the other shape (zod's `union`).
    LiteralOr(&'static str, &'static Shape),
    Record(&'static Shape),
    Object(&'static [Field]),
    /// Objects told apart by the value of one key (zod's `discriminatedUnion`).
    Tagged(&'static str, &'static [(Tag, &'static [Field])]),
}

pub(super) enum Tag {
    Bool(bool),
    Text(&'static str),
}

pub(super) struct Field {
    pub(super) name: &'static str,
    pub(super) shape: &'static Shape,
    required: bool,
}

pub(super) const fn required(name: &'static str, shape: &'static Shape) -> Field {
    Field { name, shape, required: true }
}

pub(super) const fn optional(name: &'static str, shape: &'static Shape) -> Field {
    Field { name, shape, required: false }
}

pub(super) static STRING: Shape = Shape::String;
pub(super) static BOOL: Shape = Shape::Bool;
pub(super) static ANY: Shape = Shape::Any;
pub(super) static NUMBER: Shape = Shape::Number;
pub(super) static INTEGER: Shape = Shape::Integer;
pub(super) static POSITIVE: Shape = Shape::PositiveInteger;
pub(super) static STRINGS: Shape = Shape::Array(&STRING);

/// Whether `text` is an absolute URL (zod's `url()`).
pub(super) fn is_url(text: &str) -> bool {
    url::Url::parse(text).is_ok()
}

/// Whether `text` is one `${NAME}` and nothing else.
pub(super) fn is_placeholder(text: &str) -> bool {
    text.strip_prefix("${").and_then(|rest| rest.strip_suffix('}')).is_some_and(crate::node::is_secret_name)
}

pub(super) fn shape(value: &Value, expected: &Shape, at: &mut String, diagnostics: &mut Vec<Diagnostic>) {
    let wrong = |what: &str| Diagnostic::new(Code::WrongType, at.as_str(), format!("must be {what}"));
    match expected {
        Shape::Any => {}
        Shape::String if !value.is_string() => diagnostics.push(wrong("a string")),
        Shape::Bool if !value.is_boolean() => diagnostics.push(wrong("true or false")),
        Shape::Number if !value.is_number() => diagnostics.push(wrong("a number")),
        Shape::Integer if !is_integer(value) => diagnostics.push(wrong("an integer")),
        Shape::PositiveInteger if !(is_integer(value) && value.as_f64().is_some_and(|n| n > 0.0)) => {
            diagnostics.push(wrong("a positive integer"));
        }
        Shape::NonNegativeInteger if !(is_integer(value) && value.as_f64().is_some_and(|n| n >= 0.0)) => {
            diagnostics.push(wrong("a whole number, 0 or more"));
        }
        Shape::NonEmpty(items) => match value.as_array() {
            Some(list) if list.is_empty() => {
                diagnostics.push(Diagnostic::new(Code::WrongType, at.as_str(), "must hold at least one item"));
            }
            Some(_) => shape(value, items, at, diagnostics),
            None => diagnostics.push(wrong("an array")),
        },
        Shape::Nullable(inner) if !value.is_null() => shape(value, inner, at, diagnostics),
        Shape::LiteralOr(literal, other) if value.as_str() != Some(literal) => shape(value, other, at, diagnostics),
        Shape::OneOf(allowed) if !value.as_str().is_some_and(|text| allowed.contains(&text)) => {
            let listed: Vec<String> = allowed.iter().map(|a| format!("\"{a}\"")).collect();
            diagnostics.push(Diagnostic::new(
                Code::BadEnumValue,
                at.as_str(),
                format!("must be one of {} (it is {value})", listed.join(", ")),
            ));
        }
        Shape::Text(rule, what) => match value.as_str() {
            Some(text) if rule(text) => {}
            // A `${SECRET}` is filled when the node loads the config: its value is not known here.
            Some(text) if is_placeholder(text) => {}
            Some(_) => diagnostics.push(wrong(what)),
            None => diagnostics.push(wrong("a string")),
        },
        Shape::Array(items) => match value.as_array() {
            Some(list) => {
                for (index, item) in list.iter().enumerate() {
                    within(at, &index.to_string(), |at| shape(item, items, at, diagnostics));
                }
            }
            None => diagnostics.push(wrong("an array")),
        },
        Shape::Record(items) => match value.as_object() {
            Some(object) => {
                for (key, item) in object {
                    within(at, key, |at| shape(item, items, at, diagnostics));
                }
            }
            None => diagnostics.push(wrong("an object")),
        },
        Shape::Object(fields) => object(value, fields, at, diagnostics),
        Shape::Tagged(key, variants) => {
            let tag = value.get(key);
            let chosen = variants.iter().find(|(variant, _)| match (variant, tag) {
                (Tag::Bool(b), Some(Value::Bool(given))) => b == given,
                (Tag::Text(t), Some(Value::String(given))) => t == given,
                _ => false,
            });
            match chosen {
                Some((_, fields)) => object(value, fields, at, diagnostics),
                None if !value.is_object() => diagnostics.push(wrong("an object")),
                None => {
                    let tags: Vec<String> = variants
                        .iter()
                        .map(|(tag, _)| match tag {
                            Tag::Bool(b) => b.to_string(),
                            Tag::Text(t) => format!("\"{t}\""),
                        })
                        .collect();
                    let mut key_at = at.clone();
                    pointer::push(&mut key_at, key);
                    diagnostics.push(Diagnostic::new(
                        Code::BadEnumValue,
                        key_at,
                        format!("\"{key}\" must be one of {}", tags.join(", ")),
                    ));
                }
            }
        }
        _ => {}
    }
}

fn object(value: &Value, fields: &[Field], at: &mut String, diagnostics: &mut Vec<Diagnostic>) {
    let Some(object) = value.as_object() else {
        diagnostics.push(Diagnostic::new(Code::WrongType, at.as_str(), "must be an object"));
        return;
    };
    for key in object.keys().filter(|key| !fields.iter().any(|field| field.name == key.as_str())) {
        let allowed: Vec<&str> = fields.iter().map(|field| field.name).collect();
        let mut key_at = at.clone();
        pointer::push(&mut key_at, key);
        diagnostics.push(
            Diagnostic::new(Code::UnknownField, key_at, format!("the field \"{key}\" is not allowed here"))
                .with_help(format!("allowed fields: {}", allowed.join(", "))),
        );
    }
    for field in fields {
        match object.get(field.name) {
            Some(item) => within(at, field.name, |at| shape(item, field.shape, at, diagnostics)),
            None if field.required => diagnostics.push(Diagnostic::new(
                Code::MissingField,
                at.as_str(),
                format!("the required field \"{}\" is missing", field.name),
            )),
            None => {}
        }
    }
}

fn within(at: &mut String, token: &str, check: impl FnOnce(&mut String)) {
    let length = at.len();
    pointer::push(at, token);
    check(at);
    at.truncate(length);
}

fn is_integer(value: &Value) -> bool {
    value.as_f64().is_some_and(|n| n.fract() == 0.0)
}

/// Each item of the list at `list` whose `key` repeats an earlier item's: an error at the repeat,
/// `message` saying what of it (zod's `uniqBy` refinements). One pass, whatever the list's size.
pub(super) fn unique_by(
    config: &Value,
    list: &str,
    key: &str,
    message: impl Fn(&str) -> String,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let items = config.pointer(list).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let mut seen = std::collections::HashSet::new();
    for (index, item) in items.iter().enumerate() {
        let Some(value) = item.get(key).and_then(Value::as_str) else { continue };
        if !seen.insert(value) {
            diagnostics.push(Diagnostic::new(Code::DuplicateEntry, format!("{list}/{index}/{key}"), message(value)));
        }
    }
}
