//! The store's JSON against `serde_json`: the same bytes written, the same
//! values read, and every text that is not a record's JSON refused.

use proptest::prelude::*;
use serde::{Deserialize, Serialize};

use super::{from_json, plain_prefix, to_json};
use crate::store::record::{HeadRecord, SnapshotRecord, SnapshotRef};
use crate::store::{ArchivedEntry, AuditEntry};

/// The shapes records are made of, in one struct.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Shapes {
    text: String,
    maybe: Option<String>,
    count: u64,
    delta: i64,
    flag: bool,
    list: Vec<String>,
    nested: Vec<Vec<u64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    skipped: Vec<u64>,
}

fn shapes(text: &str) -> Shapes {
    Shapes {
        text: text.to_owned(),
        maybe: Some(text.to_owned()),
        count: u64::MAX,
        delta: i64::MIN,
        flag: true,
        list: vec![String::new(), text.to_owned()],
        nested: vec![vec![], vec![0, 1]],
        skipped: vec![],
    }
}

fn head() -> HeadRecord {
    HeadRecord {
        format: "memdoc/1".to_owned(),
        kind: "head".to_owned(),
        scope: "team".to_owned(),
        id: "eng".to_owned(),
        revision: 2,
        content: "## Facts\n- 2025-03-16: Says \"hi\" \\ back\tslash \u{7} bell café 記憶 😀 \u{7f}\u{2028}".to_owned(),
        updated_at: "2025-06-01T00:00:01.000Z".to_owned(),
        updated_by: None,
        snapshots: vec![
            SnapshotRef { revision: 2, key: "memdoc/team/eng/rev/2/3cdcefb73e29f758".to_owned() },
            SnapshotRef { revision: 1, key: "memdoc/team/eng/rev/1/cc0341cc2b18cbef".to_owned() },
        ],
        audit: vec![
            AuditEntry {
                revision: 2,
                at: "2025-06-01T00:00:01.000Z".to_owned(),
                actor: None,
                chars: 148,
                delta: -109,
                codes: vec![],
                archived: vec![ArchivedEntry {
                    section: "Facts".to_owned(),
                    date: "2025-01-01".to_owned(),
                    text: "old \u{0}".to_owned(),
                }],
            },
            AuditEntry {
                revision: 1,
                at: "2025-06-01T00:00:00.000Z".to_owned(),
                actor: Some("agent".to_owned()),
                chars: 39,
                delta: 39,
                codes: vec!["structure/preamble".to_owned()],
                archived: vec![],
            },
        ],
    }
}

#[test]
fn records_are_written_as_serde_json_writes_them_and_read_back() {
    let head = head();
    let text = to_json(&head);
    assert_eq!(text, serde_json::to_string(&head).unwrap());
    assert_eq!(from_json::<HeadRecord>(&text).unwrap(), head);
    let snapshot = SnapshotRecord {
        format: head.format.clone(),
        kind: "snapshot".to_owned(),
        scope: head.scope.clone(),
        id: head.id.clone(),
        revision: 2,
        content: head.content.clone(),
        at: head.updated_at.clone(),
        actor: Some("a \"quoted\" actor".to_owned()),
    };
    let text = to_json(&snapshot);
    assert_eq!(text, serde_json::to_string(&snapshot).unwrap());
    assert_eq!(from_json::<SnapshotRecord>(&text).unwrap(), snapshot);
}

#[test]
fn every_control_character_is_escaped_as_serde_json_escapes_it() {
    let all: String = (0..0x80u8).map(char::from).collect();
    let value = shapes(&all);
    assert_eq!(to_json(&value), serde_json::to_string(&value).unwrap());
    assert_eq!(from_json::<Shapes>(&to_json(&value)).unwrap(), value);
}

#[test]
fn any_json_text_of_the_shapes_is_read_as_serde_json_reads_it() {
    let text = " {\n \"text\" : \"a\\/b\\u00e9\\uD83D\\ude00\\\"\\\\\\b\\f\\n\\r\\t\" ,\r\n\t\"maybe\":null,\"count\":0,\"delta\":-1,\"flag\":false,\"list\":[ ],\"nested\":[[1],[ 2 , 3 ]],\"skipped\":[7]} ";
    let expected: Shapes = serde_json::from_str(text).unwrap();
    assert_eq!(from_json::<Shapes>(text).unwrap(), expected);
    assert_eq!(expected.text, "a/bé😀\"\\\u{8}\u{c}\n\r\t");
}

#[test]
fn what_is_not_a_records_json_is_refused() {
    let good = to_json(&shapes("x"));
    assert!(from_json::<Shapes>(&good).is_ok());
    let with = |from: &str, to: &str| {
        assert!(good.contains(from), "{from}");
        good.replacen(from, to, 1)
    };
    for bad in [
        String::new(),
        " ".to_owned(),
        format!("{good}x"),
        format!("{good}{good}"),
        good[..good.len() - 1].to_owned(),
        with("\"count\":18446744073709551615", "\"count\":1.5"),
        with("\"count\":18446744073709551615", "\"count\":1e3"),
        with("\"count\":18446744073709551615", "\"count\":1E3"),
        with(
            "\"count\":18446744073709551615",
            "\"count\":18446744073709551616",
        ),
        with("\"count\":18446744073709551615", "\"count\":01"),
        with("\"count\":18446744073709551615", "\"count\":-1"),
        with("\"count\":18446744073709551615", "\"count\":+1"),
        with("\"count\":18446744073709551615", "\"count\":\"1\""),
        with(
            "\"delta\":-9223372036854775808",
            "\"delta\":-9223372036854775809",
        ),
        with("\"delta\":-9223372036854775808", "\"delta\":-"),
        with("\"delta\":-9223372036854775808", "\"delta\":-0"),
        with("\"text\":\"x\"", "\"text\":\"\\ud800\""),
        with("\"text\":\"x\"", "\"text\":\"\\udc00\""),
        with("\"text\":\"x\"", "\"text\":\"\\ud800\\u0041\""),
        with("\"text\":\"x\"", "\"text\":\"\\u12\""),
        with("\"text\":\"x\"", "\"text\":\"\\u+123\""),
        with("\"text\":\"x\"", "\"text\":\"\\x\""),
        with("\"text\":\"x\"", "\"text\":\"\n\""),
        with("\"text\":\"x\"", "\"text\":'x'"),
        with("\"text\":\"x\"", "\"text\":\"x\",\"text\":\"y\""),
        with("\"text\":\"x\"", "\"text\":\"x\",\"extra\":1"),
        with("\"text\":\"x\",", ""),
        with("\"flag\":true", "\"flag\":tru"),
        with("\"flag\":true", "\"flag\":null"),
        with("\"maybe\":\"x\"", "\"maybe\":nul"),
        with("\"list\":[\"\",\"x\"]", "\"list\":[\"\",\"x\",]"),
        with("\"list\":[\"\",\"x\"]", "\"list\":[,\"x\"]"),
        with("\"list\":[\"\",\"x\"]", "\"list\":[\"\" \"x\"]"),
        with("\"list\":[\"\",\"x\"]", "\"list\":{}"),
        with("{\"text\"", "{text"),
        with("{\"text\"", "{,\"text\""),
        with("]]}", "]],}"),
        with("]]}", "]]"),
    ] {
        assert!(from_json::<Shapes>(&bad).is_err(), "{bad}");
        assert!(
            serde_json::from_str::<Shapes>(&bad).is_err(),
            "serde_json reads {bad}"
        );
    }
}

#[test]
fn deep_nesting_is_refused_without_exhausting_the_stack() {
    for depth in [17, 100_000] {
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let error = from_json::<serde::de::IgnoredAny>(&text).unwrap_err();
        assert!(error.contains("nested too deeply"), "{error}");
    }
    let text = format!("{}{}", "[".repeat(16), "]".repeat(16));
    assert!(from_json::<serde::de::IgnoredAny>(&text).is_ok());
}

#[test]
fn errors_say_where() {
    assert_eq!(
        from_json::<Shapes>("{\"text\":1.5}").unwrap_err(),
        "a number that is not whole at byte 9"
    );
    let error = from_json::<Shapes>("{\"extra\":1}").unwrap_err();
    assert!(error.starts_with("unknown field `extra`"), "{error}");
    let error = from_json::<Shapes>("{\"text\":1}").unwrap_err();
    assert_eq!(error, "invalid type: integer `1`, expected a string");
}

proptest! {
    #[test]
    fn the_plain_prefix_ends_at_the_first_byte_a_string_escapes(
        bytes in proptest::collection::vec(prop_oneof![Just(b'"'), Just(b'\\'), 0u8..0x20, 0x20u8..=0xff, Just(b'a')], 0..40),
        start in 0usize..12,
    ) {
        let bytes: Vec<u8> = std::iter::repeat(b'a').take(start).chain(bytes).collect();
        let expected = bytes.iter().position(|&b| b < 0x20 || b == b'"' || b == b'\\').unwrap_or(bytes.len());
        prop_assert_eq!(plain_prefix(&bytes), expected);
    }

    #[test]
    fn any_text_is_written_as_serde_json_writes_it_and_read_back(text in any::<String>()) {
        let value = shapes(&text);
        let written = to_json(&value);
        prop_assert_eq!(&written, &serde_json::to_string(&value).unwrap());
        prop_assert_eq!(from_json::<Shapes>(&written).unwrap(), value.clone());
        // serde_json's pretty form, with its whitespace, reads the same.
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        prop_assert_eq!(from_json::<Shapes>(&pretty).unwrap(), value);
    }

    #[test]
    fn any_text_never_panics_and_is_read_as_serde_json_reads_it(text in "[\\[\\]{}\",:0-9a-z\\\\ .eE+-]{0,40}") {
        let ours = from_json::<serde_json::Value>(&text);
        let theirs = serde_json::from_str::<serde_json::Value>(&text);
        if let Ok(value) = ours {
            prop_assert_eq!(Some(value), theirs.ok());
        }
    }
}
