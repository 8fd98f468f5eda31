//! The native half of bench/e5.mjs: the time to load the model file, to
//! embed a 12-word question, and to embed every item of a memory from
//! scratch (packed into forward passes together, as the package embeds
//! them), printed as JSON (the memory's items as bench/minilm.mjs
//! gives them, one a line, newlines as "\n").
//!
//! Times are the thread's CPU time (bench/cpu_time.rs), as MiniLM's: the
//! machine may be shared.
//!
//!   cargo run --release -p memdoc-e5 --example e5 -- QUESTION ITEMS.txt

use memdoc_e5::{Role, E5};

#[path = "cpu_time.rs"]
mod cpu_time;
use cpu_time::cpu_ms;

const MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../target/models/multilingual-e5-small/e5-small-q4.bin"
);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, question, items] = &args[..] else {
        panic!("usage: bench QUESTION ITEMS.txt")
    };
    let items: Vec<String> = std::fs::read_to_string(items)
        .expect("the items")
        .lines()
        .map(|l| l.replace("\\n", "\n"))
        .collect();
    let bytes = std::fs::read(MODEL).expect("bash scripts/setup fetches the model");
    let started = cpu_ms();
    let model = E5::load(bytes).expect("loads");
    let load_ms = cpu_ms() - started;
    let mut samples: Vec<f64> = (0..21)
        .map(|_| {
            let t = cpu_ms();
            std::hint::black_box(model.embed(question, Role::Query));
            cpu_ms() - t
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    let tokens: usize = items
        .iter()
        .map(|i| model.tokens(i, Role::Passage).len() + 2)
        .sum();
    let t = cpu_ms();
    std::hint::black_box(model.embed_batch(&items, Role::Passage));
    let index_ms = cpu_ms() - t;
    println!(
        "{{\"loadMs\":{load_ms:.1},\"questionMs\":{:.2},\"questionTokens\":{},\"items\":{},\"tokens\":{tokens},\"indexMs\":{index_ms:.1}}}",
        samples[samples.len() / 2],
        model.tokens(question, Role::Query).len() + 2,
        items.len()
    );
}
