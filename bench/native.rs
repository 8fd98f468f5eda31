//! The native half of `npm run bench` (bench/all.mjs): times parse,
//! render, validate, plan_save, merge, compact and recall on the documents the script
//! wrote, the same way the script times the npm package, and prints one JSON
//! object: `{"results": [{"chars", "op", "ns", "samples", "batch"}]}`, `ns`
//! being the median time of one call.
//!
//! `cargo run --profile bench --example native -- target/bench/cases.json [OP]`
//! (with `OP`, only that operation: for profiling one of them with `perf`)

use std::hint::black_box;
use std::time::Instant;

use memdoc::{
    compact, merge, parse, plan_save, recall, render, validate, CompactOptions, Limits,
    RecallOptions, SaveOptions, Scope, ValidateOptions,
};
use serde::Deserialize;

/// One document size, as bench/all.mjs describes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Case {
    chars: usize,
    text: String,
    previous: String,
    ours: String,
    theirs: String,
    soft: usize,
    hard: usize,
    target: usize,
    today: String,
    query: String,
    budget: usize,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Cases {
    budget_ms: f64,
    cases: Vec<Case>,
}

/// The median of `samples` timings of one call, each sample a batch of calls
/// lasting about a millisecond; about `budget_ms` in all, at least 3 samples.
fn time(budget_ms: f64, mut call: impl FnMut()) -> (f64, usize, usize) {
    let start = Instant::now();
    call();
    let once = start.elapsed().as_secs_f64() * 1e3;
    let batch = (1.0 / once.max(1e-6)).ceil().clamp(1.0, 10_000.0) as usize;
    let samples = (budget_ms / (once * batch as f64))
        .floor()
        .clamp(3.0, 100_000.0) as usize;
    let mut times: Vec<f64> = (0..samples)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..batch {
                call();
            }
            start.elapsed().as_secs_f64() * 1e9 / batch as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[samples / 2], samples, batch)
}

/// One timed operation on one case.
type Call<'a> = Box<dyn FnMut() + 'a>;

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: bench <cases.json> [OP]");
    let only = args.next();
    let cases: Cases = serde_json::from_str(&read(&path)).expect("cases.json");
    let mut results = Vec::new();
    for case in &cases.cases {
        let text = read(&case.text);
        let previous = read(&case.previous);
        let ours = read(&case.ours);
        let theirs = read(&case.theirs);
        let validate_options = ValidateOptions {
            scope: Scope::Team,
            previous: Some(previous),
            limits: Limits {
                soft: case.soft,
                hard: case.hard,
            },
            ..ValidateOptions::default()
        };
        let save_options = SaveOptions {
            validate: validate_options.clone(),
            allow_erase: false,
        };
        let compact_options = CompactOptions {
            scope: Scope::Team,
            target: case.target,
            today: Some(case.today.clone()),
        };
        let recall_options = RecallOptions {
            scope: Scope::Team,
            budget: case.budget,
            today: Some(case.today.clone()),
            ..RecallOptions::default()
        };
        let budget = cases.budget_ms;
        let ops: [(&str, Call<'_>); 7] = [
            (
                "parse",
                Box::new(|| drop(black_box(parse(black_box(&text))))),
            ),
            (
                "render",
                Box::new(|| drop(black_box(render(black_box(&text))))),
            ),
            (
                "validate",
                Box::new(|| drop(black_box(validate(black_box(&text), &validate_options)))),
            ),
            (
                "planSave",
                Box::new(|| drop(black_box(plan_save(black_box(&text), &save_options)))),
            ),
            (
                "merge",
                Box::new(|| drop(black_box(merge(black_box(&text), &ours, &theirs)))),
            ),
            (
                "compact",
                Box::new(|| drop(black_box(compact(black_box(&text), &compact_options)))),
            ),
            (
                "recall",
                Box::new(|| {
                    drop(black_box(recall(
                        black_box(&text),
                        &case.query,
                        &recall_options,
                    )));
                }),
            ),
        ];
        for (op, mut call) in ops {
            if only.as_deref().is_some_and(|o| o != op) {
                continue;
            }
            let (ns, samples, batch) = time(budget, &mut call);
            results.push(serde_json::json!({
                "chars": case.chars, "op": op, "ns": ns, "samples": samples, "batch": batch,
            }));
        }
    }
    println!("{}", serde_json::json!({ "results": results }));
}
