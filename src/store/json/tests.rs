//! The store's JSON against `serde_json`: the same bytes written, the same
//! values and records read, and every text that is not a record's JSON
//! refused (records derive `Deserialize` in tests only, for `serde_json`).

use proptest::prelude::*;

use super::{from_json, plain_prefix, Value};
use crate::store::record::{HeadRecord, SnapshotRecord, SnapshotRef};
use crate::store::{ArchivedEntry, AuditEntry};

/// The head record in `text`, as the store reads it.
fn read_head(text: &str) -> Result<HeadRecord, String> {
    from_json(text).and_then(HeadRecord::read)
}

/// The snapshot record in `text`, as the store reads it.
fn read_snapshot(text: &str) -> Result<SnapshotRecord, String> {
    from_json(text).and_then(SnapshotRecord::read)
}

fn snapshot(content: &str) -> SnapshotRecord {
    SnapshotRecord {
        format: "memdoc/1".to_owned(),
        kind: "snapshot".to_owned(),
        scope: "team".to_owned(),
        id: "eng".to_owned(),
        revision: u64::MAX,
        content: content.to_owned(),
        at: "2025-06-01T00:00:01.000Z".to_owned(),
        actor: Some("a \"quoted\" actor".to_owned()),
    }
}

/// `value` as `serde_json` holds it.
fn json(value: Value<'_>) -> serde_json::Value {
    match value {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => b.into(),
        Value::Str(text) => text.into_owned().into(),
        Value::Whole(n) => n.into(),
        Value::Negative(n) => n.into(),
        Value::Array(items) => items.into_iter().map(json).collect(),
        Value::Object(entries) => serde_json::Value::Object(
            entries
                .into_iter()
                .map(|(k, v)| (k.into_owned(), json(v)))
                .collect(),
        ),
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
    let text = head.encode_with(None);
    assert_eq!(text, serde_json::to_string(&head).unwrap());
    assert_eq!(read_head(&text).unwrap(), head);
    let snapshot = snapshot(&head.content);
    let (text, content) = snapshot.encode_marked();
    assert_eq!(text, serde_json::to_string(&snapshot).unwrap());
    assert_eq!(read_snapshot(&text).unwrap(), snapshot);
    // The mark is where the content's JSON string starts; the head written
    // with it is the head written alone.
    let content = &text[content];
    assert_eq!(content, serde_json::to_string(&head.content).unwrap());
    assert_eq!(head.encode_with(Some(content)), head.encode_with(None));
}

#[test]
fn every_control_character_is_escaped_as_serde_json_escapes_it() {
    let all: String = (0..0x80u8).map(char::from).collect();
    let value = snapshot(&all);
    assert_eq!(
        value.encode_marked().0,
        serde_json::to_string(&value).unwrap()
    );
    assert_eq!(read_snapshot(&value.encode_marked().0).unwrap(), value);
}

#[test]
fn any_json_text_of_a_record_is_read_as_serde_json_reads_it() {
    let head = HeadRecord {
        content: "PLACE".to_owned(),
        ..head()
    };
    let escapes = r#""a\/b\u00e9\uD83D\ude00\"\\\b\f\n\r\t""#;
    let text = serde_json::to_string_pretty(&head).unwrap().replacen(
        "\"content\": \"PLACE\"",
        &format!("\"content\" :\r\n\t{escapes} "),
        1,
    );
    let expected: HeadRecord = serde_json::from_str(&text).unwrap();
    assert_eq!(read_head(&text).unwrap(), expected);
    assert_eq!(expected.content, "a/bé😀\"\\\u{8}\u{c}\n\r\t");
}

#[test]
fn what_is_not_a_records_json_is_refused() {
    let good = head().encode_with(None);
    assert!(read_head(&good).is_ok());
    let with = |from: &str, to: &str| {
        assert!(good.contains(from), "{from}");
        good.replacen(from, to, 1)
    };
    let revision = "\"revision\":2";
    let delta = "\"delta\":-109";
    let id = "\"id\":\"eng\"";
    let codes = "\"codes\":[\"structure/preamble\"]";
    for bad in [
        String::new(),
        " ".to_owned(),
        "[]".to_owned(),
        "\"memdoc/1\"".to_owned(),
        format!("{good}x"),
        format!("{good}{good}"),
        good[..good.len() - 1].to_owned(),
        with(revision, "\"revision\":1.5"),
        with(revision, "\"revision\":1e3"),
        with(revision, "\"revision\":1E3"),
        with(revision, "\"revision\":18446744073709551616"),
        with(revision, "\"revision\":01"),
        with(revision, "\"revision\":-1"),
        with(revision, "\"revision\":+1"),
        with(revision, "\"revision\":\"2\""),
        with(revision, "\"revision\":null"),
        with(delta, "\"delta\":-9223372036854775809"),
        with(delta, "\"delta\":9223372036854775808"),
        with(delta, "\"delta\":-"),
        with(delta, "\"delta\":-0"),
        with(delta, "\"delta\":\"-109\""),
        with("\"chars\":148", "\"chars\":-148"),
        with("\"chars\":148", "\"chars\":18446744073709551616"),
        with(id, "\"id\":\"\\ud800\""),
        with(id, "\"id\":\"\\udc00\""),
        with(id, "\"id\":\"\\ud800\\u0041\""),
        with(id, "\"id\":\"\\u12\""),
        with(id, "\"id\":\"\\u+123\""),
        with(id, "\"id\":\"\\x\""),
        with(id, "\"id\":\"\n\""),
        with(id, "\"id\":'eng'"),
        with(id, "\"id\":eng"),
        with(id, "\"id\":true"),
        with(id, "\"id\":[]"),
        with(id, "\"id\":{}"),
        with(id, "\"id\":\"eng\",\"id\":\"x\""),
        with(id, "\"id\":\"eng\",\"extra\":1"),
        with(&format!("{id},"), ""),
        with("\"updatedBy\":null", "\"updatedBy\":nul"),
        with("\"updatedBy\":null", "\"updatedBy\":1"),
        with("\"text\":\"old \\u0000\"", "\"text\":\"old\",\"extra\":1"),
        with("\"key\":\"memdoc", "\"x\":1,\"key\":\"memdoc"),
        with(codes, "\"codes\":[\"structure/preamble\",]"),
        with(codes, "\"codes\":[,\"structure/preamble\"]"),
        with(codes, "\"codes\":[\"a\" \"b\"]"),
        with(codes, "\"codes\":{}"),
        with(codes, "\"codes\":[1]"),
        with(codes, "\"codes\":\"structure/preamble\""),
        with("{\"content\"", "{content"),
        with("{\"content\"", "{,\"content\""),
        with("{\"content\"", "{\"content\" \"x\",\"y\""),
        with("]}", "],}"),
        with("]}", "]"),
    ] {
        assert!(read_head(&bad).is_err(), "{bad}");
        assert!(
            serde_json::from_str::<HeadRecord>(&bad).is_err(),
            "serde_json reads {bad}"
        );
    }
}

#[test]
fn deep_nesting_is_refused_without_exhausting_the_stack() {
    for depth in [17, 100_000] {
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let error = from_json(&text).unwrap_err();
        assert!(error.contains("nested too deeply"), "{error}");
    }
    let text = format!("{}{}", "[".repeat(16), "]".repeat(16));
    assert!(from_json(&text).is_ok());
}

#[test]
fn errors_say_where_and_what() {
    assert_eq!(
        from_json("{\"text\":1.5}").unwrap_err(),
        "a number that is not whole at byte 9"
    );
    let good = head().encode_with(None);
    let error = read_head(&good.replacen("\"kind\"", "\"extra\":1,\"kind\"", 1)).unwrap_err();
    assert!(
        error.starts_with("unknown field `extra`, expected one of `content`, `format`, `kind`,"),
        "{error}"
    );
    let error = read_head(&good.replacen("\"key\"", "\"x\":1,\"key\"", 1)).unwrap_err();
    assert_eq!(error, "unknown field `x`, expected `revision` or `key`");
    let error = read_head(&good.replacen("\"id\":\"eng\"", "\"id\":1", 1)).unwrap_err();
    assert_eq!(error, "invalid type: integer `1`, expected a string");
    let error = read_head(&good.replacen("\"id\":\"eng\"", "\"id\":null", 1)).unwrap_err();
    assert_eq!(error, "invalid type: null, expected a string");
    let error = read_head(&good.replacen("\"id\":\"eng\",", "", 1)).unwrap_err();
    assert_eq!(error, "missing field `id`");
    let error = read_head(&good.replacen("\"id\":\"eng\"", "\"id\":\"eng\",\"id\":\"eng\"", 1))
        .unwrap_err();
    assert_eq!(error, "duplicate field `id`");
    let error = read_head(&good.replacen("\"revision\":2", "\"revision\":-2", 1)).unwrap_err();
    assert_eq!(error, "invalid value: integer `-2`, expected u64");
    let error = read_head(&good.replacen("\"delta\":-109", "\"delta\":9223372036854775808", 1))
        .unwrap_err();
    assert_eq!(
        error,
        "invalid value: integer `9223372036854775808`, expected i64"
    );
    let error = read_head(&good.replacen("\"codes\":[]", "\"codes\":{}", 1)).unwrap_err();
    assert_eq!(error, "invalid type: map, expected a sequence");
    let error = read_head("[]").unwrap_err();
    assert_eq!(error, "invalid type: sequence, expected struct HeadRecord");
    // `archived` may be absent; `codes` may not.
    assert!(!good.contains("\"archived\":[]"));
    let error = read_head(&good.replacen("\"codes\":[],", "", 1)).unwrap_err();
    assert_eq!(error, "missing field `codes`");
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
        let value = snapshot(&text);
        let (written, content) = value.encode_marked();
        prop_assert_eq!(&written, &serde_json::to_string(&value).unwrap());
        prop_assert_eq!(&written[content], serde_json::to_string(&text).unwrap());
        prop_assert_eq!(read_snapshot(&written).unwrap(), value.clone());
        // serde_json's pretty form, with its whitespace, reads the same.
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        prop_assert_eq!(read_snapshot(&pretty).unwrap(), value);
    }

    #[test]
    fn any_numbers_are_written_as_serde_json_writes_them(
        revision in prop_oneof![any::<u64>(), 0u64..1000],
        chars in prop_oneof![any::<usize>(), 0usize..1000],
        delta in prop_oneof![any::<i64>(), -1000i64..1000, Just(i64::MIN), Just(0)],
    ) {
        let mut head = head();
        head.revision = revision;
        head.snapshots[0].revision = revision;
        head.audit[0].revision = revision;
        head.audit[0].chars = chars;
        head.audit[0].delta = delta;
        prop_assert_eq!(head.encode_with(None), serde_json::to_string(&head).unwrap());
    }

    #[test]
    fn any_text_never_panics_and_is_read_as_serde_json_reads_it(text in "[\\[\\]{}\",:0-9a-z\\\\ .eE+-]{0,40}") {
        let ours = from_json(&text);
        let theirs = serde_json::from_str::<serde_json::Value>(&text);
        if let Ok(value) = ours {
            prop_assert_eq!(Some(json(value)), theirs.ok());
        }
    }
}
