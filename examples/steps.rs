//! The native half of `node benches/steps.mjs --native`: times one
//! operation on each of the given files, with the options
//! benches/growth.mjs gives it through the package, and prints one JSON
//! line per file: `{"file", "ms", "faults"}`, `ms` the best of five calls,
//! `faults` the minor page faults of those five calls (the pages the C
//! library's allocator gave back to the kernel and asked for again).
//!
//! `cargo run --profile bench --example steps -- OP FILE...`, OP one of
//! parse, render, validate, planSave, merge, compact, recall. A merge's
//! other two texts are read from `FILE.ours` and `FILE.theirs`.

use std::hint::black_box;
use std::time::Instant;

use memdoc::{
    compact, merge, parse, plan_save, recall, render, validate, CompactOptions, RecallOptions,
    SaveOptions, Scope, ValidateOptions,
};

/// This process's minor page faults so far (`/proc/self/stat`, field 10).
fn minor_faults() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The command name, field 2, is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    rest.split_whitespace()
        .nth(7)
        .and_then(|f| f.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let op = args.next().expect("usage: steps OP FILE...");
    let read = |file: &str| std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
    for file in args {
        let text = read(&file);
        let [ours, theirs] = if op == "merge" {
            [
                read(&format!("{file}.ours")),
                read(&format!("{file}.theirs")),
            ]
        } else {
            Default::default()
        };
        let units = text.encode_utf16().count();
        let team = ValidateOptions {
            scope: Scope::Team,
            ..ValidateOptions::default()
        };
        let save = SaveOptions {
            validate: ValidateOptions {
                previous: Some(text.clone()),
                ..ValidateOptions::default()
            },
            allow_erase: false,
        };
        let compaction = CompactOptions {
            scope: Scope::Team,
            target: units / 3,
            today: None,
        };
        let recalling = RecallOptions {
            scope: Scope::Team,
            budget: units / 4,
            ..RecallOptions::default()
        };
        let mut call: Box<dyn FnMut()> = match op.as_str() {
            "parse" => Box::new(|| drop(black_box(parse(black_box(&text))))),
            "render" => Box::new(|| drop(black_box(render(black_box(&text))))),
            "validate" => Box::new(|| drop(black_box(validate(black_box(&text), &team)))),
            "planSave" => Box::new(|| drop(black_box(plan_save(black_box(&text), &save)))),
            "merge" => Box::new(|| drop(black_box(merge(black_box(&text), &ours, &theirs)))),
            "compact" => Box::new(|| drop(black_box(compact(black_box(&text), &compaction)))),
            "recall" => Box::new(|| {
                drop(black_box(recall(
                    black_box(&text),
                    "entry line e1 word",
                    &recalling,
                )));
            }),
            _ => panic!(
                "no operation {op}: parse, render, validate, planSave, merge, compact or recall"
            ),
        };
        call();
        let faults = minor_faults();
        let mut best = f64::INFINITY;
        for _ in 0..5 {
            let start = Instant::now();
            call();
            best = best.min(start.elapsed().as_secs_f64() * 1e3);
        }
        let faults = minor_faults() - faults;
        println!("{{\"file\":{file:?},\"ms\":{best},\"faults\":{faults}}}");
    }
}
