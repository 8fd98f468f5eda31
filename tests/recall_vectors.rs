//! Hybrid recall's result for fixed vectors, pinned in
//! tests/recall/vectors.json: test-js/hybrid-recall.test.mjs gets the same
//! bytes through the package's WebAssembly (`recallWithVectors`), so native
//! and wasm score alike. `MEMDOC_UPDATE_FIXTURES=1 cargo test --test
//! recall_vectors` writes the file again.
#![cfg(not(target_arch = "wasm32"))]

use memdoc::{
    hybrid_recall, recall_items, ItemVectors, PreparedMemory, RecallOptions, RecallVectors, Scope,
};
use serde_json::{json, Value};

const MEMORY: &str = "## Engineering Decisions
- 2025-01-10: Services use PostgreSQL 16
- 2025-03-02: Production releases only ship on Tuesdays and Thursdays
- 2025-05-20: Services use PostgreSQL 17

## Facts
- 2025-02-14: The weekly sync is Monday at 10:00 in room Fjord
Loose note without a date
- 2024-11-01: The office is in Oslo";

const DIMENSIONS: usize = 16;

/// Values with few bits, exact in `f32`, `f64` and JSON.
#[allow(clippy::cast_precision_loss)]
fn vector(seed: usize, step: usize) -> Vec<f32> {
    (0..DIMENSIONS)
        .map(|d| ((seed * 7 + d * step) % 17) as f32 / 16.0 - 0.5)
        .collect()
}

#[test]
fn fixed_vectors_give_the_pinned_result() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recall/vectors.json");
    let count = recall_items(MEMORY).len();
    let query = vector(1, 3);
    let items: Vec<f32> = (0..count).flat_map(|i| vector(i + 1, 3 + i % 2)).collect();
    let options = RecallOptions {
        scope: Scope::Team,
        budget: 120,
        today: Some("2025-06-01".into()),
        ..RecallOptions::default()
    };
    let query_text = "which relational database do we run?";
    let vectors = RecallVectors {
        embedder: "all-MiniLM-L6-v2",
        query: &query,
        items: &items,
    };
    let result = hybrid_recall(MEMORY, query_text, &options, &vectors).unwrap();
    assert!(result.selected.iter().all(|s| s.why.semantic.is_some()));
    // The newer entry on the same subject supersedes the older one.
    let all = hybrid_recall(
        MEMORY,
        "postgresql version",
        &RecallOptions {
            budget: 4_000,
            ..options.clone()
        },
        &vectors,
    )
    .unwrap();
    let older = all
        .selected
        .iter()
        .find(|s| s.text.ends_with("16"))
        .unwrap();
    assert_eq!(older.why.superseded_by, Some(4));
    let fixture = json!({
        "memory": MEMORY,
        "query": query_text,
        "options": {"scope": "team", "budget": 120, "today": "2025-06-01"},
        "embedder": "all-MiniLM-L6-v2",
        "queryVector": query,
        "itemVectors": items,
        "expected": serde_json::to_value(&result).unwrap(),
    });
    if std::env::var_os("MEMDOC_UPDATE_FIXTURES").is_some() {
        std::fs::write(
            &path,
            serde_json::to_string_pretty(&fixture).unwrap() + "\n",
        )
        .unwrap();
    }
    let pinned: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(pinned, fixture, "should give the pinned result");
}

#[test]
fn vectors_that_do_not_fit_are_a_coded_error() {
    let options = RecallOptions::default();
    let query = vector(1, 3);
    let count = recall_items(MEMORY).len();
    let items: Vec<f32> = (0..count).flat_map(|i| vector(i, 5)).collect();
    let bad = |query: &[f32], items: &[f32]| {
        let v = RecallVectors {
            embedder: "x",
            query,
            items,
        };
        hybrid_recall(MEMORY, "q", &options, &v).unwrap_err().code()
    };
    assert_eq!(bad(&[], &[]), "options/invalid-vectors");
    assert_eq!(bad(&query, &items[1..]), "options/invalid-vectors");
    let mut nan = items.clone();
    nan[3] = f32::NAN;
    assert_eq!(bad(&query, &nan), "options/invalid-vectors");
}

#[test]
fn item_vectors_held_recall_as_the_vectors_given_and_only_the_query_is_checked_again() {
    let prepared = PreparedMemory::new(MEMORY);
    let count = recall_items(MEMORY).len();
    let items: Vec<f32> = (0..count).flat_map(|i| vector(i + 2, 5)).collect();
    let held = ItemVectors::new(&prepared, items.clone(), DIMENSIONS).unwrap();
    assert_eq!(held.dimensions(), DIMENSIONS);
    for (n, (query, budget)) in [("which database?", 60), ("office", 400), ("", 200)]
        .into_iter()
        .enumerate()
    {
        for embedder in ["all-MiniLM-L6-v2", "multilingual-e5-small-q4", "x"] {
            let options = RecallOptions {
                scope: Scope::Team,
                budget,
                today: Some("2025-06-01".into()),
                ..RecallOptions::default()
            };
            let query_vector = vector(n + 1, 3);
            let given = RecallVectors {
                embedder,
                query: &query_vector,
                items: &items,
            };
            assert_eq!(
                prepared.recall_with_item_vectors(query, &options, embedder, &query_vector, &held),
                hybrid_recall(MEMORY, query, &options, &given),
                "should recall as with the vectors given: {query} {embedder}"
            );
        }
    }
    let code = |r: Result<ItemVectors, memdoc::Error>| r.unwrap_err().code();
    assert_eq!(
        code(ItemVectors::new(&prepared, items[1..].to_vec(), DIMENSIONS)),
        "options/invalid-vectors"
    );
    assert_eq!(
        code(ItemVectors::new(&prepared, items.clone(), 0)),
        "options/invalid-vectors"
    );
    let mut nan = items.clone();
    nan[count * DIMENSIONS - 1] = f32::INFINITY;
    assert_eq!(
        code(ItemVectors::new(&prepared, nan, DIMENSIONS)),
        "options/invalid-vectors"
    );
    let options = RecallOptions::default();
    let recall = |query: &[f32]| {
        prepared
            .recall_with_item_vectors("q", &options, "x", query, &held)
            .unwrap_err()
            .code()
    };
    assert_eq!(
        recall(&vector(1, 3)[1..]),
        "options/invalid-vectors",
        "should refuse a query of other dimensions"
    );
    assert_eq!(recall(&[f32::NAN; DIMENSIONS]), "options/invalid-vectors");
    assert_eq!(recall(&[]), "options/invalid-vectors");
    let other = PreparedMemory::new("## Facts\n- 2025-01-01: one item");
    let bad = other
        .recall_with_item_vectors("q", &options, "x", &vector(1, 3), &held)
        .unwrap_err()
        .code();
    assert_eq!(
        bad, "options/invalid-vectors",
        "should refuse another memory's vectors"
    );
}

#[test]
fn under_minilm_query_floor_nothing_answers_unless_words_do() {
    let options = RecallOptions {
        budget: 4_000,
        ..RecallOptions::default()
    };
    let count = recall_items(MEMORY).len();
    // Every item at a cosine of 0.12 to the query: above MiniLM's item
    // floor (0.10), under its query floor (0.15).
    let (c, s) = (0.12_f32, (1.0_f32 - 0.12 * 0.12).sqrt());
    let items: Vec<f32> = (0..count).flat_map(|_| [c, s]).collect();
    let recall_with = |embedder: &str, query: &str| {
        let vectors = RecallVectors {
            embedder,
            query: &[1.0, 0.0],
            items: &items,
        };
        hybrid_recall(MEMORY, query, &options, &vectors).unwrap()
    };
    let none = recall_with("all-MiniLM-L6-v2", "who is the head of legal?");
    assert_eq!(
        (none.totals.relevant, none.selected.len()),
        (0, 0),
        "should say nothing answers"
    );
    assert!(none.omitted.iter().all(|o| o.reason.as_str() == "no-match"));
    let words = recall_with("all-MiniLM-L6-v2", "weekly sync room");
    assert_eq!(
        words.selected.len(),
        count,
        "a match by words answers the query, and the item floor fills the budget"
    );
    // Nearer than the query floor, the same items answer.
    let near = 0.2_f32;
    let items: Vec<f32> = (0..count)
        .flat_map(|_| [near, (1.0 - near * near).sqrt()])
        .collect();
    let vectors = RecallVectors {
        embedder: "all-MiniLM-L6-v2",
        query: &[1.0, 0.0],
        items: &items,
    };
    let r = hybrid_recall(MEMORY, "who is the head of legal?", &options, &vectors).unwrap();
    assert_eq!(
        r.totals.relevant, count,
        "should answer above the query floor"
    );
}

#[test]
fn a_fact_stated_at_several_dates_ranks_at_the_mean_of_its_statements() {
    let memory = "## Facts
- 2025-01-01: Lunch order is pizza on Monday
- 2025-02-01: Lunch order is pizza on Tuesday
- 2025-03-01: Lunch order is pizza on Friday
- 2025-03-01: Guests sign in at the front desk";
    // Cosines to the query: one stale statement near it (0.6), the other
    // and the current one far (0.15); the other fact between (0.4).
    let cosines = [0.6_f32, 0.15, 0.15, 0.4];
    let items: Vec<f32> = cosines
        .iter()
        .flat_map(|&c| [c, (1.0 - c * c).sqrt()])
        .collect();
    let vectors = RecallVectors {
        embedder: "all-MiniLM-L6-v2",
        query: &[1.0, 0.0],
        items: &items,
    };
    let recall_within = |budget: usize| {
        let options = RecallOptions {
            budget,
            today: Some("2025-03-01".into()),
            ..RecallOptions::default()
        };
        hybrid_recall(memory, "where do visitors register?", &options, &vectors).unwrap()
    };
    // Room for one entry: the fact nearer the query than its mean (0.3),
    // not the one with the best statement.
    let one = recall_within(60);
    assert_eq!(
        one.content,
        "## Facts\n- 2025-03-01: Guests sign in at the front desk"
    );
    // With room, the current statement comes before its stale ones, which
    // say what replaced them.
    let all = recall_within(4_000);
    assert_eq!(all.selected.len(), 4);
    let stale: Vec<Option<usize>> = all.selected[..2]
        .iter()
        .map(|s| s.why.superseded_by)
        .collect();
    assert_eq!(stale, [Some(4), Some(4)]);
}
