//! Throughput of the core operations on a 1 KB, a 25,000-character (the
//! default hard limit) and a 1 MB memory document.
//!
//! `cargo bench --bench engine -- --warm-up-time 1 --measurement-time 3`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use memdoc::{parse, plan_save, render, validate, SaveOptions, Scope, ValidateOptions};

/// A realistic team memory of at least `chars` code points: sections of
/// dated entries with some legacy entries, prose, a code fence and
/// non-ASCII text, cut at a line boundary.
fn document(chars: usize) -> String {
    let mut out = String::new();
    let mut section = 0;
    while out.chars().count() < chars {
        out.push_str(&format!("## Section {section}: Engineering Conventions\n"));
        for i in 0..12 {
            let line = match i {
                3 => format!("- (2024-11-{:02}) [fact] Legacy fact {i} from the old system\n", i + 1),
                7 => "Some prose under the entries, with é, 中文 and 😀.\n".to_owned(),
                9 => "```sh\n## not a heading\ncargo test --workspace\n```\n".to_owned(),
                _ => format!("- 2025-03-{:02}: Services use PostgreSQL 16; decision {section}.{i} recorded\n", i + 1),
            };
            out.push_str(&line);
        }
        out.push('\n');
        section += 1;
    }
    let cut: String = out.chars().take(chars).collect();
    match cut.rfind('\n') {
        Some(end) => cut[..end].to_owned(),
        None => cut,
    }
}

fn engine(c: &mut Criterion) {
    let sizes = [("1KB", 1_000), ("25k", 25_000), ("1MB", 1_000_000)];
    let mut group = c.benchmark_group("engine");
    for (label, chars) in sizes {
        let text = document(chars);
        let previous = text.replacen("decision 0.0", "decision zero", 1);
        let options = ValidateOptions {
            scope: Scope::Team,
            previous: Some(previous),
            ..ValidateOptions::default()
        };
        let save = SaveOptions {
            validate: options.clone(),
            allow_erase: false,
        };
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("parse", label), &text, |b, t| {
            b.iter(|| parse(black_box(t)))
        });
        group.bench_with_input(BenchmarkId::new("render", label), &text, |b, t| {
            b.iter(|| render(black_box(t)))
        });
        group.bench_with_input(BenchmarkId::new("validate", label), &text, |b, t| {
            b.iter(|| validate(black_box(t), &options));
        });
        group.bench_with_input(BenchmarkId::new("plan_save", label), &text, |b, t| {
            b.iter(|| plan_save(black_box(t), &save));
        });
    }
    group.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);
