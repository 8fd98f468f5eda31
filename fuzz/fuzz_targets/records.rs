//! The store's JSON reader at the door of the host: a memory of two
//! revisions whose head or first snapshot is replaced by an edited copy of
//! itself (bytes inserted, removed or replaced) or by free text, then read
//! (`load`, `history`, `revision`) and saved over. Nothing panics; every
//! error is `store/corrupt-record` or `store/unsupported-format`; what is
//! read is JSON to `serde_json` too, and the content read is the string
//! `serde_json` reads in the record's `content`; a save over a head that
//! reads is saved, and one over a head that does not is refused with the
//! same error and writes nothing.
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use memdoc::store::{block_on, MemoryHost, MemoryRef, MemoryStore, StoreOptions, StoreSaveOptions};
use memdoc::Scope;

#[derive(Arbitrary, Debug)]
enum Edit {
    Insert { at: u16, byte: u8 },
    Remove { at: u16, len: u8 },
    Replace { at: u16, byte: u8 },
}

#[derive(Arbitrary, Debug)]
struct Input {
    /// The snapshot of revision 1 rather than the head.
    snapshot: bool,
    edits: Vec<Edit>,
    /// Free text instead of an edited record.
    free: Option<String>,
}

/// The `content` of `text` as `serde_json` reads it, when `text` is a JSON
/// object with a string there.
fn content(text: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    value.get("content")?.as_str().map(str::to_owned)
}

fn coded(code: &str) -> bool {
    matches!(code, "store/corrupt-record" | "store/unsupported-format")
}

fuzz_target!(|input: Input| {
    let host = MemoryHost::new();
    let store = MemoryStore::new(
        &host,
        StoreOptions {
            now: Some(Box::new(|| "2025-01-01T00:00:00.000Z".to_owned())),
            ..StoreOptions::default()
        },
    )
    .expect("options");
    let r = MemoryRef::new::<()>(Scope::Team, "fuzz").expect("id");
    let first = "## Facts\n- 2025-01-01: \"quoted\" \\ tab\t é 😀";
    let second = format!("{first}\n- 2025-01-02: second");
    for (base, text) in [(0, first.to_owned()), (1, second.clone())] {
        let options = StoreSaveOptions {
            base_revision: base,
            actor: Some("fuzz".to_owned()),
            ..StoreSaveOptions::default()
        };
        block_on(store.save(&r, &text, &options)).expect("a save without faults");
    }
    let head_key = "memdoc/team/fuzz";
    let key = if input.snapshot {
        host.keys()
            .into_iter()
            .find(|k| k.contains("/rev/1/"))
            .expect("the first snapshot")
    } else {
        head_key.to_owned()
    };
    let mut bytes = host.peek(&key).expect("stored").value.into_bytes();
    for edit in input.edits.iter().take(8) {
        let at = |at: u16| usize::from(at) % (bytes.len() + 1);
        match *edit {
            Edit::Insert { at: i, byte } => {
                let i = at(i);
                bytes.insert(i, byte);
            }
            Edit::Remove { at: i, len } => {
                let i = at(i);
                let end = (i + usize::from(len % 8)).min(bytes.len());
                bytes.drain(i..end);
            }
            Edit::Replace { at: i, byte } => {
                let i = at(i);
                if i < bytes.len() {
                    bytes[i] = byte;
                }
            }
        }
    }
    let text = input
        .free
        .unwrap_or_else(|| String::from_utf8_lossy(&bytes).into_owned());
    host.set(&key, &text);
    let json = serde_json::from_str::<serde_json::Value>(&text).is_ok();

    if input.snapshot {
        match block_on(store.revision(&r, 1)) {
            Ok(Some(read)) => {
                assert!(json, "read a snapshot serde_json refuses: {text:?}");
                assert_eq!(Some(read), content(&text), "{text:?}");
            }
            Ok(None) => panic!("revision 1 is kept"),
            Err(e) => assert!(coded(e.code()), "{}: {text:?}", e.code()),
        }
        // The head is untouched: the memory still reads.
        assert_eq!(block_on(store.load(&r)).expect("the head").content, second);
        return;
    }
    let third = |base: u64| {
        let options = StoreSaveOptions {
            base_revision: base,
            ..StoreSaveOptions::default()
        };
        block_on(store.save(&r, "## Facts\n- 2025-01-03: third", &options))
    };
    match block_on(store.load(&r)) {
        Ok(l) => {
            assert!(json, "read a head serde_json refuses: {text:?}");
            assert_eq!(Some(l.content), content(&text), "{text:?}");
            assert!(block_on(store.history(&r)).is_ok(), "{text:?}");
            let saved = third(l.revision).expect("a save over a head that reads");
            assert!(saved.revision > l.revision, "{text:?}");
        }
        Err(e) => {
            assert!(coded(e.code()), "{}: {text:?}", e.code());
            let others = [
                block_on(store.history(&r)).err(),
                block_on(store.revision(&r, 1)).err(),
                third(2).err(),
            ];
            for other in others {
                assert_eq!(other.map(|o| o.code()), Some(e.code()), "{text:?}");
            }
            assert_eq!(
                host.peek(head_key).expect("the head").value,
                text,
                "a refused head was overwritten"
            );
        }
    }
});
