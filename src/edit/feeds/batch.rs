//! A batch: feeds of one vendor path made one call, each made to read its own element of the
//! one answer (by its own key, its place in the listed values, or a field naming it), or refused.

use serde_json::{Map, Value};

use super::{each_once, refuse, shown};
use crate::diagnostic::Diagnostic;
use crate::edit::note;
use crate::ois::feeds::{self, Feed};

/// Makes the feeds `names` one call; the note says which parameters became lists.
pub(super) fn batch(
    list: &mut [Feed],
    names: &[String],
    answer: Option<&Value>,
    find: impl Fn(&[Feed], &str) -> Result<usize, Diagnostic>,
) -> Result<Diagnostic, Diagnostic> {
    if names.len() < 2 {
        return Err(refuse("a batch is two feeds or more".to_owned()));
    }
    let indexes = names.iter().map(|name| find(list, name)).collect::<Result<Vec<_>, _>>()?;
    let members: Vec<Feed> = indexes.iter().filter_map(|&i| list.get(i).cloned()).collect();
    let Some(first) = members.first() else { return Err(refuse("a batch is two feeds or more".to_owned())) };
    if let Some(other) = members.iter().find(|f| f.path != first.path) {
        return Err(refuse(format!(
            "feeds \"{}\" and \"{}\" call different paths ({} and {}): one call answers feeds of one path",
            shown(&first.name),
            shown(&other.name),
            shown(&first.path),
            shown(&other.path)
        )));
    }
    let mut merged = Map::new();
    let mut listed = Vec::new();
    for key in each_once(members.iter().flat_map(|m| m.parameters.keys().cloned())) {
        let values: Vec<&Value> = members.iter().filter_map(|m| m.parameters.get(&key)).collect();
        let first_value = values.first().copied().cloned().unwrap_or(Value::Null);
        if values.len() == members.len() && values.iter().all(|v| **v == first_value) {
            merged.insert(key, first_value);
            continue;
        }
        if let Some(value) = values.iter().find(|v| !matches!(v, Value::String(_) | Value::Number(_))) {
            return Err(refuse(format!(
                "the feeds differ in \"{}\", which holds {}: only text becomes a list of every feed's value (a JSON body's object or array cannot be merged into one call)",
                shown(&key),
                crate::emit::printable(&value.to_string())
            )));
        }
        let texts: Vec<String> =
            values.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned)).collect();
        let items = each_once(
            texts.iter().flat_map(|text| text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned)),
        );
        listed.push(key.clone());
        merged.insert(key, Value::String(items.join(",")));
    }
    let read = own_elements(&members, &merged, &listed, answer)?;
    for (&i, parser) in indexes.iter().zip(read.parsers) {
        if let Some(member) = list.get_mut(i) {
            member.parameters = merged.clone();
            member.parser = parser;
        }
    }
    let what = if listed.is_empty() {
        "they already ask the same".to_owned()
    } else {
        format!("{} now list(s) every feed's value", listed.join(", "))
    };
    Ok(note(
        String::new(),
        format!(
            "{} feeds answered by one call ({what}); a trigger of their templates makes one API call; {}",
            names.len(),
            read.evidence.join(", ")
        ),
    ))
}

/// The field every element of `answer` (an array of objects) has that names each feed's own
/// element: for each of `owns`, exactly one element's field equals it (as text, any case). The
/// first such field of the first element, or none.
fn naming_field(answer: &Value, owns: &[Option<String>]) -> Option<String> {
    let elements = answer.as_array()?;
    let owns: Vec<&str> = owns.iter().map(|own| own.as_deref()).collect::<Option<_>>()?;
    let first = elements.first()?.as_object()?;
    let names = |element: &Value, field: &str| match element.get(field) {
        Some(Value::String(text)) => Some(text.clone()),
        Some(Value::Number(number)) => Some(number.to_string()),
        _ => None,
    };
    first
        .keys()
        .find(|field| {
            owns.iter().all(|own| {
                elements.iter().filter(|e| names(e, field).is_some_and(|n| n.eq_ignore_ascii_case(own))).count() == 1
            })
        })
        .cloned()
}

/// How each feed of a batch reads its own value from the one answer: its parser, and what says
/// the value is its own.
struct OwnElements {
    parsers: Vec<Option<String>>,
    evidence: Vec<String>,
}

/// Each feed's reader of the batch's one answer, made to read the feed's own element: a value
/// path through the feed's own value of the listed parameter (`bitcoin.usd`) is kept; one that
/// starts at an array index (`0.data.last`) is moved to the feed's place in the listed values,
/// the order the vendor answers an array in. Two feeds left reading the same value are refused:
/// every one of them would publish it.
fn own_elements(
    members: &[Feed],
    merged: &Map<String, Value>,
    listed: &[String],
    answer: Option<&Value>,
) -> Result<OwnElements, Diagnostic> {
    let items_of = |value: &Value| -> Vec<String> {
        let text = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
        text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect()
    };
    // The one listed parameter each feed asks one value of, and the values in request order.
    let single = match listed {
        [key] => merged.get(key).map(|all| (key, items_of(all))),
        _ => None,
    };
    let owns: Vec<Option<String>> = members
        .iter()
        .map(|member| {
            let (key, _) = single.as_ref()?;
            let items = items_of(member.parameters.get(key.as_str())?);
            match items.as_slice() {
                [one] => Some(one.clone()),
                _ => None,
            }
        })
        .collect();
    let naming = answer.and_then(|answer| naming_field(answer, &owns));
    let mut parsers = Vec::with_capacity(members.len());
    let mut evidence = Vec::with_capacity(members.len());
    for (member, own) in members.iter().zip(&owns) {
        let Some(path) = member.value_path() else {
            evidence.push(format!("{} by its parser", shown(&member.name)));
            parsers.push(member.parser.clone());
            continue;
        };
        let mut segments = crate::ois::reserved::escape_aware_split(&path, '.');
        let place = own.as_ref().zip(single.as_ref()).and_then(|(own, (_, all))| all.iter().position(|v| v == own));
        let keyed = own.as_ref().is_some_and(|own| segments.iter().any(|segment| segment == own));
        let indexed =
            segments.first().is_some_and(|first| !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()));
        match (keyed, indexed, place, single.as_ref()) {
            (false, true, Some(_), Some(_)) if let (Some(field), Some(own)) = (&naming, own) => {
                let rest =
                    segments.get(1..).unwrap_or_default().iter().map(|s| s.replace('.', "\\.")).collect::<Vec<_>>();
                evidence.push(format!(
                    "{} in the element whose {} is {}",
                    shown(&member.name),
                    shown(field),
                    shown(own)
                ));
                parsers.push(Some(feeds::parser_finding(field, own, &rest.join("."))?));
            }
            (true, _, _, Some((key, _))) => {
                evidence.push(format!("{} at {} (its own {key})", shown(&member.name), shown(&path)));
                parsers.push(member.parser.clone());
            }
            (false, true, Some(place), Some((key, _))) => {
                if let Some(first) = segments.first_mut() {
                    *first = place.to_string();
                }
                let moved = segments.iter().map(|s| s.replace('.', "\\.")).collect::<Vec<_>>().join(".");
                evidence.push(format!(
                    "{} at {} (element {place} of the answer, as {key} lists it)",
                    shown(&member.name),
                    shown(&moved)
                ));
                parsers.push(Some(feeds::parser_for(&moved)?));
            }
            _ => {
                evidence.push(format!("{} at {}", shown(&member.name), shown(&path)));
                parsers.push(member.parser.clone());
            }
        }
    }
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (at, parser) in parsers.iter().enumerate() {
        let Some(parser) = parser else { continue };
        let read_as = Feed { parser: Some(parser.clone()), ..Feed::new("", "") };
        let Some(key) = read_as.same_value_key() else { continue };
        let Some(earlier) = seen.insert(key, at) else { continue };
        let (Some(first), Some(second)) = (members.get(earlier), members.get(at)) else { continue };
        let read = feeds::value_path_of(parser).unwrap_or_else(|| "the same parser".to_owned());
        return Err(refuse(format!(
            "feeds \"{}\" and \"{}\" would read the same value of the one answer ({}): both would publish it. \
             Give each the value of its own element: a value path through its own key (`bitcoin.usd`), or \
             starting at its position in the answer's array (`0.…`, in the order of the listed values), or \
             a parser that finds it (`response.find((item) => item.symbol === \"silver\")`)",
            shown(&first.name),
            shown(&second.name),
            shown(&read)
        )));
    }
    Ok(OwnElements { parsers, evidence })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// How a feed was given its value before the batch.
    #[derive(Clone, Debug)]
    enum Given {
        /// Through its own key: `{own}.price`.
        Keyed,
        /// At some index of an array: `{index}.price`.
        Indexed(usize),
        /// The same path as every other feed given so: `data.price`.
        Shared,
    }

    fn read<'v>(answer: &'v Value, path: &str) -> Option<&'v Value> {
        path.split('.').try_fold(answer, |value, segment| match value {
            Value::Array(items) => items.get(segment.parse::<usize>().ok()?),
            Value::Object(members) => members.get(segment),
            _ => None,
        })
    }

    proptest! {
        /// A batch of distinct feeds over an answer keyed by the listed parameter, or an array in
        /// its order: after `feed batch`, every feed reads its own element's value (or none: a
        /// path that finds nothing fails its call), or the batch is refused. No feed ever reads
        /// another's.
        #[test]
        fn after_a_batch_every_feed_reads_its_own_value_or_the_batch_is_refused(
            given in prop::collection::vec(prop_oneof![
                Just(Given::Keyed), (0usize..6).prop_map(Given::Indexed), Just(Given::Shared)
            ], 2..6),
            keyed_answer in any::<bool>(),
            named in any::<bool>(),
        ) {
            let owns: Vec<String> = (0..given.len()).map(|i| format!("asset{i}")).collect();
            let mut list: Vec<Feed> = given.iter().zip(&owns).enumerate().map(|(i, (how, own))| {
                let mut feed = Feed::new(format!("F{i}/USD"), "spot");
                feed.parameters.insert("assets".into(), Value::from(own.as_str()));
                feed.parameters.insert("quote".into(), Value::from("usd"));
                let path = match how {
                    Given::Keyed => format!("{own}.price"),
                    Given::Indexed(index) => format!("{index}.price"),
                    Given::Shared => "data.price".to_owned(),
                };
                feed.parser = Some(feeds::parser_for(&path).unwrap());
                feed
            }).collect();
            // The vendor answers in request order, each asset's price its index plus one.
            let answer = if keyed_answer {
                Value::Object(owns.iter().enumerate().map(|(i, own)| (own.clone(), json!({"price": i + 1}))).collect())
            } else {
                Value::Array(owns.iter().enumerate().map(|(i, own)| json!({"symbol": own, "price": i + 1})).collect())
            };
            // With a sample of the answer, a feed may find its element by the field naming it.
            let sample = named.then_some(&answer);
            let names: Vec<String> = list.iter().map(|f| f.name.clone()).collect();
            let find = |list: &[Feed], name: &str| {
                list.iter().position(|f| f.name == name).ok_or_else(|| refuse(name.to_owned()))
            };
            if batch(&mut list, &names, sample, find).is_err() {
                return Ok(());
            }
            prop_assert_eq!(&list[0].parameters["assets"], &Value::from(owns.join(",")));
            for (index, feed) in list.iter().enumerate() {
                match feed.value_path() {
                    Some(path) => {
                        if let Some(value) = read(&answer, &path) {
                            prop_assert_eq!(value, &json!(index + 1), "{} reads {}", feed.name, path);
                        }
                    }
                    None => {
                        let parser = feed.parser.as_deref().unwrap_or_default();
                        prop_assert!(parser.contains(&format!("item.symbol === \"asset{index}\")")), "{}", parser);
                    }
                }
            }
        }
    }

    #[test]
    fn a_batch_moves_array_indexes_to_each_feed_s_place_and_refuses_one_shared_path() {
        let feed = |name: &str, metal: &str, path: &str| {
            let mut feed = Feed::new(name, "spot/summary");
            feed.parameters.insert("metals".into(), Value::from(metal));
            feed.parser = Some(feeds::parser_for(path).unwrap());
            feed
        };
        let find =
            |list: &[Feed], name: &str| list.iter().position(|f| f.name == name).ok_or_else(|| refuse(name.to_owned()));
        let names: Vec<String> = ["XAU/USD", "XAG/USD", "XPT/USD"].map(String::from).to_vec();
        let mut list = vec![
            feed("XAU/USD", "gold", "0.data.last"),
            feed("XAG/USD", "silver", "0.data.last"),
            feed("XPT/USD", "platinum", "0.data.last"),
        ];
        let note = batch(&mut list, &names, None, find).unwrap();
        let paths: Vec<String> = list.iter().filter_map(Feed::value_path).collect();
        assert_eq!(paths, ["0.data.last", "1.data.last", "2.data.last"]);
        assert!(
            note.message.contains("XAG/USD at 1.data.last (element 1 of the answer, as metals lists it)"),
            "{}",
            note.message
        );
        let mut list = vec![
            feed("XAU/USD", "gold", "data.last"),
            feed("XAG/USD", "silver", "data.last"),
            feed("XPT/USD", "platinum", "data.last"),
        ];
        let refused = batch(&mut list, &names, None, find).unwrap_err();
        assert!(
            refused.message.contains("\"XAU/USD\" and \"XAG/USD\" would read the same value"),
            "{}",
            refused.message
        );
    }
}
