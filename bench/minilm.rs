//! The native half of bench/minilm.mjs: the time to load the model, to
//! embed a 12-word question (the median of 21), and to embed every item of
//! a memory from scratch (the best of 3, the items in one call, their
//! tokens packed into forward passes), one thread, printed as JSON with the
//! token ids (the reference runtime's input) and the question's vector.
//! Times are the thread's CPU time (`clock_gettime`, in nanoseconds), as
//! the other runtimes' in that benchmark: the machine may be shared.
//!
//!   cargo run --release -p memdoc-minilm --example minilm -- QUESTION MEMORY.md

use memdoc_minilm::{Arithmetic, MiniLm};

#[path = "cpu_time.rs"]
mod cpu_time;
use cpu_time::cpu_ms;

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
    let started = cpu_ms();
    let model = MiniLm::load(&weights, &tokenizer).expect("loads");
    let load_ms = cpu_ms() - started;
    let question_ms = median(
        (0..21)
            .map(|_| {
                let t = cpu_ms();
                std::hint::black_box(model.embed(question));
                cpu_ms() - t
            })
            .collect(),
    );
    let items = items(&memory);
    let ids: Vec<Vec<u32>> = items.iter().map(|i| model.tokens(i)).collect();
    let tokens: usize = ids.iter().map(Vec::len).sum();
    let index_ms = (0..3)
        .map(|_| {
            let t = cpu_ms();
            std::hint::black_box(model.embed_batch(&items, Arithmetic::Fast));
            cpu_ms() - t
        })
        .fold(f64::INFINITY, f64::min);
    // Every core the machine gives, wall-clock time (CPU time would add
    // the threads' times up).
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let index_threads_ms = (0..3)
        .map(|_| {
            let t = std::time::Instant::now();
            std::hint::black_box(model.embed_parallel(&items, Arithmetic::Fast, threads));
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min);
    let json = |ids: &[u32]| {
        let list: Vec<String> = ids.iter().map(u32::to_string).collect();
        format!("[{}]", list.join(","))
    };
    let item_ids: Vec<String> = ids.iter().map(|i| json(i)).collect();
    let vector: Vec<String> = model.embed(question).iter().map(f32::to_string).collect();
    println!(
        "{{\"loadMs\":{load_ms:.1},\"questionMs\":{question_ms:.2},\"questionTokens\":{},\"items\":{},\"tokens\":{tokens},\"indexMs\":{index_ms:.1},\"threads\":{threads},\"indexThreadsMs\":{index_threads_ms:.1},\"ids\":{{\"question\":{},\"items\":[{}]}},\"questionVector\":[{}]}}",
        model.tokens(question).len(),
        items.len(),
        json(&model.tokens(question)),
        item_ids.join(","),
        vector.join(",")
    );
}
