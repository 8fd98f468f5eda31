//! Prints, as JSON, every item's measures for every question of the recall
//! evaluation sets (tests/recall/eval: `questions.json`, then
//! `heldout.json`), as hybrid recall with MiniLM (or, given `static`, the
//! static table) scores them: BM25 and its relevance, the cosine, recency,
//! priority, the query words held, the cost in code points. What
//! tests/recall/eval/methods.py replays to compare ways of saying "nothing
//! relevant":
//!
//!     cargo run --release --example recall_features > minilm.json
//!     cargo run --release --example recall_features static > static.json
//!     python3 tests/recall/eval/methods.py minilm.json static.json
#![cfg(not(target_arch = "wasm32"))]

#[path = "eval.rs"]
mod eval;

use serde_json::{json, Value};

fn main() {
    let mut embedder = if std::env::args().nth(1).as_deref() == Some("static") {
        eval::Embedder::load_static()
    } else {
        eval::Embedder::load()
    };
    let mut out = Vec::new();
    for (set, questions) in [
        ("calibration", eval::questions()),
        ("heldout", eval::heldout()),
    ] {
        for q in &questions {
            let r = embedder.hybrid(q, usize::MAX);
            let selected = r
                .selected
                .iter()
                .map(|i| (&i.text, &i.section, &i.date, &i.range, &i.why));
            let omitted = r
                .omitted
                .iter()
                .map(|i| (&i.text, &i.section, &i.date, &i.range, &i.why));
            let items: Vec<Value> = selected
                .chain(omitted)
                .map(|(text, section, date, range, why)| {
                    json!({
                        "text": text,
                        "section": section,
                        "line": range.start.line,
                        "cost": text.chars().count() + if date.is_some() { 15 } else { 1 },
                        "lexical": why.lexical.normalized,
                        "cosine": why.semantic.map_or(0.0, |s| s.raw),
                        "recency": why.recency.normalized,
                        "priority": why.priority.normalized,
                        "terms": why.terms.len(),
                    })
                })
                .collect();
            out.push(json!({
                "set": set,
                "kind": q.kind,
                "question": q.question,
                "answer": q.answer,
                "items": items,
            }));
        }
    }
    println!("{}", Value::Array(out));
}
