//! The packed format's writer checked against what its reader makes.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{json, Value};

use super::*;
use crate::js::compact::CompactionView;
use crate::js::merge::MergeResultView;
use crate::js::view::{DocumentView, ReportView, SavePlanView};

/// The value the numbers describe, read as packed.js reads them
/// (its numbers as indices: exact, as written).
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn read(packed: &Packed, names: &mut Vec<String>) -> Value {
    struct Reader<'a> {
        units: Vec<u16>,
        numbers: &'a [f64],
        at: usize,
        names: &'a mut Vec<String>,
    }
    impl Reader<'_> {
        fn next(&mut self) -> f64 {
            self.at += 1;
            self.numbers[self.at - 1]
        }
        fn string(&mut self) -> String {
            let (start, end) = (self.next() as usize, self.next() as usize);
            String::from_utf16(&self.units[start..end]).unwrap()
        }
        fn name(&mut self) -> String {
            let k = self.next() as usize;
            self.names[k].clone()
        }
        fn value(&mut self) -> Value {
            let tag = self.next();
            match tag {
                t if t == NULL => Value::Null,
                t if t == FALSE => Value::Bool(false),
                t if t == TRUE => Value::Bool(true),
                t if t == NUMBER => json!(self.next()),
                t if t == STRING => Value::String(self.string()),
                t if t == NAME => Value::String(self.name()),
                t if t == ARRAY => {
                    let count = self.next() as usize;
                    Value::Array((0..count).map(|_| self.value()).collect())
                }
                t if t == OBJECT || t == MAP => {
                    let count = self.next() as usize;
                    let mut object = serde_json::Map::new();
                    for _ in 0..count {
                        let key = if t == OBJECT {
                            self.name()
                        } else {
                            self.value().as_str().unwrap().to_owned()
                        };
                        let value = self.value();
                        object.insert(key, value);
                    }
                    Value::Object(object)
                }
                other => panic!("no tag {other}"),
            }
        }
    }
    let units: Vec<u16> = packed.strings.encode_utf16().collect();
    for fresh in packed.fresh.chunks(3) {
        let (k, start, end) = (fresh[0] as usize, fresh[1] as usize, fresh[2] as usize);
        names.resize(names.len().max(k + 1), String::new());
        names[k] = String::from_utf16(&units[start..end]).unwrap();
    }
    let mut reader = Reader {
        units,
        numbers: &packed.numbers,
        at: 0,
        names,
    };
    let value = reader.value();
    assert_eq!(reader.at, packed.numbers.len(), "every number read");
    value
}

/// `serde_json` writes a whole number as an integer, the reader as a float.
pub(crate) fn floats(value: Value) -> Value {
    match value {
        Value::Number(n) => n.as_f64().map_or(Value::Number(n), |f| json!(f)),
        Value::Array(a) => Value::Array(a.into_iter().map(floats).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, floats(v))).collect()),
        other => other,
    }
}

/// A writer's names and its reader's, kept from value to value.
#[derive(Default)]
struct Both(Names, Vec<String>);

impl Both {
    fn same<T: Serialize>(&mut self, value: &T) {
        let expected = floats(serde_json::to_value(value).unwrap());
        let packed = Packed::of(value, &mut self.0).unwrap();
        assert_eq!(read(&packed, &mut self.1), expected);
    }
}

#[derive(Serialize)]
enum Kind {
    Unit,
    Newtype(u8),
    Tuple(i64, char),
    Struct { a: Option<f32>, b: () },
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Every {
    flag: bool,
    off: bool,
    small: i8,
    large: u64,
    negative: i32,
    float: f64,
    text: &'static str,
    empty: String,
    none: Option<String>,
    kinds: Vec<Kind>,
    tuple: (u16, &'static str),
    map: BTreeMap<String, Vec<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<u8>,
    unit_struct: Unit,
    nested: Vec<Vec<Every>>,
}

#[derive(Serialize)]
struct Unit;

fn every(nested: Vec<Vec<Every>>) -> Every {
    Every {
        flag: true,
        off: false,
        small: -5,
        large: 1 << 52,
        negative: -70_000,
        float: 0.125,
        text: "é 😀 記憶 \u{fffd}",
        empty: String::new(),
        none: None,
        kinds: vec![
            Kind::Unit,
            Kind::Newtype(7),
            Kind::Tuple(-1, '😀'),
            Kind::Struct {
                a: Some(1.5),
                b: (),
            },
            Kind::Unit,
        ],
        tuple: (3, "x"),
        map: BTreeMap::from([
            ("__proto__".to_owned(), vec![1, 2]),
            ("😀".to_owned(), vec![]),
        ]),
        skipped: None,
        unit_struct: Unit,
        nested,
    }
}

#[test]
fn every_kind_of_value_reads_back_as_serde_json_writes_it() {
    let mut both = Both::default();
    both.same(&every(vec![vec![every(vec![])], vec![]]));
    both.same(&Vec::<u8>::new());
    both.same(&"just a string");
    both.same(&Option::<u8>::None);
    // The names again, sent before: by their indices only.
    let before = Packed::of(&every(vec![]), &mut Names::default()).unwrap();
    let again = Packed::of(&every(vec![]), &mut both.0).unwrap();
    assert!(again.strings.len() < before.strings.len());
    both.same(&every(vec![]));
    // A reader that starts again (a fresh instance) with a writer that
    // starts again.
    Both::default().same(&every(vec![vec![every(vec![])]]));
}

#[test]
fn a_map_key_that_is_not_a_string_is_an_error() {
    let map = BTreeMap::from([(1, 2)]);
    let mut names = Names::default();
    assert!(Packed::of(&map, &mut names).is_err());
    assert_eq!(names.len, 0, "no name is taken as sent after an error");
    assert!(Packed::of(&serde_bytes_like(), &mut Names::default()).is_err());
}

#[test]
fn names_keep_their_indices_as_the_table_grows() {
    let texts: Vec<&'static str> = (0..1000)
        .map(|i| &*Box::leak(format!("name {i}").into_boxed_str()))
        .collect();
    let mut names = Names::default();
    for (i, text) in texts.iter().enumerate() {
        assert_eq!(names.index(text), (i, true));
        assert_eq!(names.index(texts[i / 2]), (i / 2, false));
    }
    for (i, text) in texts.iter().enumerate() {
        assert_eq!(names.index(text), (i, false));
    }
    // The same text at another address is another name.
    let copy: &'static str = Box::leak(texts[3].to_owned().into_boxed_str());
    assert_eq!(names.index(copy), (1000, true));
    assert_eq!(names.len, 1001);
}

/// A value that serializes as bytes.
fn serde_bytes_like() -> impl Serialize {
    struct Bytes;
    impl Serialize for Bytes {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(b"ab")
        }
    }
    Bytes
}

#[test]
fn the_views_of_the_api_read_back_as_serde_json_writes_them() {
    let base = "intro\n## Work 😀\n- 2025-01-01: ships memdoc\n- (2025-01-02) [fact] legacy\n```\ncode\n## Work 😀\n- 2025-01-01: ships memdoc\n## Personal\n- 2025-01-03: likes tea";
    let ours = format!("{base}\n- 2025-02-01: ours");
    let theirs = base.replace("likes tea", "likes coffee");
    let mut both = Both::default();
    let doc = memdoc::parse(base);
    both.same(&DocumentView::new(&doc, base));
    let options = memdoc::ValidateOptions {
        scope: memdoc::Scope::Team,
        previous: Some(theirs.clone()),
        ..memdoc::ValidateOptions::default()
    };
    both.same(&ReportView::new(memdoc::validate(&ours, &options), &ours));
    let save = memdoc::SaveOptions {
        validate: options,
        allow_erase: false,
    };
    both.same(&SavePlanView::new(memdoc::plan_save(&ours, &save), &ours));
    let merged = memdoc::merge(base, &ours, &theirs);
    both.same(&MergeResultView::new(&merged, base, &ours, &theirs));
    let conflict = memdoc::merge(base, &base.replace("tea", "water"), &theirs);
    both.same(&MergeResultView::new(&conflict, base, &ours, &theirs));
    let compact_options = memdoc::CompactOptions {
        target: 40,
        ..memdoc::CompactOptions::default()
    };
    let compaction = memdoc::compact(base, &compact_options);
    both.same(&CompactionView::new(&compaction, base));
    both.same(&memdoc::recall(
        base,
        "memdoc",
        &memdoc::RecallOptions::default(),
    ));
    both.same(&memdoc::usage(base, memdoc::Limits::default()));
}
