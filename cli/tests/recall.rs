//! `memdoc recall` by meaning, the Rust binary with the real files setup
//! leaves in target/models (the static table, multilingual-e5-small): a
//! question worded apart from its answer finds it, a Chinese memory is
//! recalled with e5, `--embedder none` is by words, and without files the
//! recall is by words with a hint on standard error (docs/CLI.md).
//! test-js/cli-recall.test.mjs runs the same through both front ends and
//! checks them against `hybridRecall`, over the same memories
//! (tests/recall/cli/).

use std::path::{Path, PathBuf};
use std::process::Command;

const ENGLISH: &str = include_str!("../../tests/recall/cli/english.md");

const CHINESE: &str = include_str!("../../tests/recall/cli/chinese.md");

struct Ran {
    stdout: String,
    stderr: String,
    status: i32,
}

/// A folder of its own under the target folder, with `memory` as M.md.
fn folder(name: &str, memory: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).expect("a test folder");
    std::fs::write(dir.join("M.md"), memory).expect("the memory");
    dir
}

fn models() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/models");
    assert!(
        dir.join("static").is_dir() && dir.join("multilingual-e5-small").is_dir(),
        "{} lacks the embedders' files: run `bash scripts/setup embedders`",
        dir.display()
    );
    dir
}

fn recall(dir: &Path, args: &[&str], models: &Path) -> Ran {
    let out = Command::new(env!("CARGO_BIN_EXE_memdoc"))
        .current_dir(dir)
        .env("MEMDOC_MODELS", models)
        .arg("recall")
        .arg("M.md")
        .args(args)
        .output()
        .expect("the binary runs");
    Ran {
        stdout: String::from_utf8(out.stdout).expect("UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8"),
        status: out.status.code().unwrap_or(-1),
    }
}

/// The explanation's lines of the items taken, best score first.
fn taken(stdout: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("+ ") && l.contains("] 2025-"))
        .collect();
    lines.sort_by(|a, b| b[2..7].cmp(&a[2..7]));
    lines
}

#[test]
fn a_paraphrase_finds_its_entry_with_the_static_table() {
    let dir = folder("paraphrase", ENGLISH);
    let got = recall(
        &dir,
        &["which relational database do we run", "--explain"],
        &models(),
    );
    assert_eq!((got.status, got.stderr.as_str()), (0, ""));
    assert!(
        got.stdout
            .ends_with("# by meaning (all-MiniLM-L6-v2-static-256-v2) and by words\n"),
        "should say the static table recalled it: {}",
        got.stdout
    );
    let best = taken(&got.stdout);
    assert!(
        best.first().is_some_and(|l| l.contains("PostgreSQL 16")),
        "should rank the database entry first: {best:?}"
    );
}

#[test]
fn embedder_none_is_by_words_only() {
    let dir = folder("none", ENGLISH);
    let got = recall(
        &dir,
        &[
            "which relational database do we run",
            "--explain",
            "--embedder",
            "none",
        ],
        &models(),
    );
    assert_eq!((got.status, got.stderr.as_str()), (0, ""));
    assert!(
        got.stdout
            .ends_with("# nothing in the memory answers the question\n# by words only\n"),
        "should find nothing by words: {}",
        got.stdout
    );
}

#[test]
fn a_chinese_memory_is_recalled_with_e5() {
    let dir = folder("chinese", CHINESE);
    for (question, answer) in [
        ("我们用的是哪种关系型数据库", "PostgreSQL 16"),
        ("线上出故障时谁会收到通知", "值班工程师"),
        ("我们在哪座城市上班", "奥斯陆"),
    ] {
        let got = recall(&dir, &[question, "--explain"], &models());
        assert_eq!((got.status, got.stderr.as_str()), (0, ""));
        assert!(
            got.stdout
                .ends_with("# by meaning (multilingual-e5-small-q4) and by words\n"),
            "should choose e5 for {question}: {}",
            got.stdout
        );
        let best = taken(&got.stdout);
        assert!(
            best.first().is_some_and(|l| l.contains(answer)),
            "should rank {answer} first for {question}: {best:?}"
        );
    }
}

#[test]
fn without_files_by_words_with_a_hint() {
    let dir = folder("no-files", ENGLISH);
    let empty = dir.join("no-models");
    std::fs::create_dir_all(&empty).expect("an empty folder");
    let got = recall(
        &dir,
        &["where is the data in PostgreSQL", "--explain"],
        &empty,
    );
    assert_eq!(got.status, 0);
    assert!(got.stdout.ends_with("# by words only\n"), "{}", got.stdout);
    assert!(
        got.stdout.starts_with(
            "## Decisions\n- 2025-03-01: Services store their data in PostgreSQL 16\n"
        ),
        "should still recall by words: {}",
        got.stdout
    );
    assert_eq!(got.stderr.lines().count(), 1, "one line: {}", got.stderr);
    assert!(
        got.stderr
            .starts_with("memdoc: recalled by words only: no embedder's files were found")
            && got.stderr.contains("bash scripts/setup embedders")
            && got.stderr.contains("npm install @memdoc/static"),
        "should say how to get them: {}",
        got.stderr
    );
    let asked = recall(
        &dir,
        &["where is the data in PostgreSQL", "--embedder", "e5"],
        &empty,
    );
    assert!(
        asked
            .stderr
            .contains("the files of the e5 embedder were not found"),
        "should name the embedder asked for: {}",
        asked.stderr
    );
}
