//! The native half of benches/minilm.mjs: the time to load the model, to
//! embed a 12-word question, and to embed every item of a memory from
//! scratch, printed as JSON.
//!
//!   cargo run --release -p memdoc-minilm --example bench -- QUESTION MEMORY.md

use memdoc_minilm::MiniLm;
use std::time::Instant;

const MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../target/models/all-MiniLM-L6-v2"
);

/// The memory's items: each `- ` line with the indented lines under it.
fn items(text: &str) -> Vec<String> {
    let mut items: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("- ") {
            items.push(line.to_string());
        } else if line.starts_with("  ") && !items.is_empty() {
            let last = items.last_mut().expect("an item");
            last.push('\n');
            last.push_str(line);
        }
    }
    items
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, question, memory] = &args[..] else {
        panic!("usage: bench QUESTION MEMORY.md")
    };
    let memory = std::fs::read_to_string(memory).expect("the memory");
    let weights = std::fs::read(format!("{MODEL}/model.safetensors"))
        .expect("bash scripts/setup fetches the model");
    let tokenizer =
        std::fs::read_to_string(format!("{MODEL}/tokenizer.json")).expect("tokenizer.json");
    let started = Instant::now();
    let model = MiniLm::load(&weights, &tokenizer).expect("loads");
    let load_ms = started.elapsed().as_secs_f64() * 1e3;
    let question_ms = median(
        (0..21)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(model.embed(question));
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    );
    let items = items(&memory);
    let tokens: usize = items.iter().map(|i| model.tokens(i).len()).sum();
    let t = Instant::now();
    for item in &items {
        std::hint::black_box(model.embed(item));
    }
    let index_ms = t.elapsed().as_secs_f64() * 1e3;
    println!(
        "{{\"loadMs\":{load_ms:.1},\"questionMs\":{question_ms:.2},\"questionTokens\":{},\"items\":{},\"tokens\":{tokens},\"indexMs\":{index_ms:.1}}}",
        model.tokens(question).len(),
        items.len()
    );
}
