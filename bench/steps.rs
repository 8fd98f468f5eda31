//! The native half of `node bench/steps.mjs --native`: times one
//! operation on each of the given files and prints one JSON line per file:
//! `{"file", "ms", "faults"}`, `ms` the best of five calls, `faults` the
//! minor page faults of those five calls (the pages the C library's
//! allocator gave back to the kernel and asked for again).
//!
//! `cargo run -p memdoc-wasm --profile bench --example steps -- OP FILE...`, OP one of the
//! exports of bench/growth.mjs's `argumentsOf`. The arguments after the
//! text are read from `FILE.OP.json`, a JSON array of what the package is
//! given, by the readers the package's options go through (`memdoc_wasm::js::input`).

use std::hint::black_box;
use std::time::Instant;

use memdoc::{compact, expire, injection_block, merge, parse, plan_save, recall, render, validate};
use memdoc_wasm::js::input::{
    CompactOptionsInput, ExpireOptionsInput, OptionsInput, RecallOptionsInput,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

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

fn read(file: &str) -> String {
    std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Argument `at` after the text, as the package reads it; absent, its
/// default.
fn argument<T: DeserializeOwned + Default>(args: &[Value], at: usize) -> T {
    args.get(at).map_or_else(T::default, |value| {
        serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("argument {at}: {e}"))
    })
}

fn main() {
    let mut args = std::env::args().skip(1);
    let op = args.next().expect("usage: steps OP FILE...");
    for file in args {
        let text = read(&file);
        let given: Vec<Value> = serde_json::from_str(&read(&format!("{file}.{op}.json")))
            .unwrap_or_else(|e| panic!("{file}.{op}.json: {e}"));
        let options = || argument::<OptionsInput>(&given, 0);
        let mut call: Box<dyn FnMut()> = match op.as_str() {
            "parse" => Box::new(move || drop(black_box(parse(black_box(&text))))),
            "render" => Box::new(move || drop(black_box(render(black_box(&text))))),
            "validate" => {
                let options = options().validate_options().expect("validate's options");
                Box::new(move || drop(black_box(validate(black_box(&text), &options))))
            }
            "planSave" => {
                let options = options().save_options().expect("planSave's options");
                Box::new(move || drop(black_box(plan_save(black_box(&text), &options))))
            }
            "merge" => {
                let [ours, theirs]: [String; 2] = [argument(&given, 0), argument(&given, 1)];
                Box::new(move || drop(black_box(merge(black_box(&text), &ours, &theirs))))
            }
            "compact" => {
                let options = argument::<CompactOptionsInput>(&given, 0)
                    .resolve()
                    .expect("compact's options");
                Box::new(move || drop(black_box(compact(black_box(&text), &options))))
            }
            "injectionBlock" => {
                let options = options()
                    .inject_options()
                    .expect("injectionBlock's options");
                Box::new(move || drop(black_box(injection_block(black_box(&text), &options))))
            }
            "recall" => {
                let query: String = argument(&given, 0);
                let options = argument::<RecallOptionsInput>(&given, 1)
                    .resolve()
                    .expect("recall's options");
                Box::new(move || drop(black_box(recall(black_box(&text), &query, &options))))
            }
            "expire" => {
                let options = argument::<ExpireOptionsInput>(&given, 0)
                    .resolve()
                    .expect("expire's options");
                Box::new(move || drop(black_box(expire(black_box(&text), &options))))
            }
            _ => panic!("no operation {op}"),
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
