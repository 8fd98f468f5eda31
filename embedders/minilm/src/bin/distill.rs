//! Writes the static embedder's table (memdoc_minilm::static_table),
//! distilled from the all-MiniLM-L6-v2 weights `bash scripts/setup`
//! fetched, and checks it against the SHA-256 committed in
//! embedders/minilm/static.sha256 (exit status 1 when it differs):
//!
//!   cargo run --release -p memdoc-minilm --bin distill -- OUT
use memdoc_minilm::MiniLm;
use std::fmt::Write as _;
use std::process::Command;

const MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../target/models/all-MiniLM-L6-v2"
);
const SHA256: &str = include_str!("../../static.sha256");

fn main() {
    let out = std::env::args().nth(1).expect("usage: distill OUT");
    let weights = std::fs::read(format!("{MODEL}/model.safetensors"))
        .expect("the weights: run bash scripts/setup");
    let tokenizer =
        std::fs::read_to_string(format!("{MODEL}/tokenizer.json")).expect("the tokenizer");
    let model = MiniLm::load(&weights, &tokenizer).expect("the model");
    let table = model.distill_static();
    let tmp = format!("{out}.tmp");
    std::fs::write(&tmp, &table).expect("the table");
    let sum = Command::new("sha256sum")
        .arg(&tmp)
        .output()
        .expect("sha256sum");
    let sum = String::from_utf8_lossy(&sum.stdout);
    let sum = sum.split_whitespace().next().unwrap_or_default();
    let expected = SHA256.split_whitespace().next().unwrap_or_default();
    let mut line = String::new();
    let _ = write!(line, "{out}: {} bytes, sha256 {sum}", table.len());
    println!("{line}");
    if sum != expected {
        eprintln!("distill: sha256 {sum}, expected {expected} (embedders/minilm/static.sha256)");
        std::process::exit(1);
    }
    std::fs::rename(&tmp, &out).expect("the table in place");
}
