//! The recall evaluation set (tests/recall-eval: four memories, questions
//! of three kinds) by words alone: every keyword question (a name, a number,
//! an id) is answered within 400 code points, and no question the memories
//! cannot answer selects anything. Paraphrase questions share no content
//! word with their answer (test-js/recall-eval.test.mjs checks that, and
//! measures them with embedders); their lexical numbers are printed for
//! comparison: `cargo test --test recall_eval -- --nocapture`.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

use memdoc::{recall, Recall, RecallOptions, Scope};
use serde_json::Value;

fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("recall-eval")
}

fn questions() -> Vec<Value> {
    serde_json::from_str(&std::fs::read_to_string(dir().join("questions.json")).unwrap()).unwrap()
}

fn run(q: &Value, budget: usize) -> Recall {
    let name = q["memory"].as_str().unwrap();
    let text = std::fs::read_to_string(dir().join(format!("{name}.md"))).unwrap();
    let options = RecallOptions {
        scope: q["scope"].as_str().unwrap().parse().unwrap_or(Scope::User),
        budget,
        today: Some(q["today"].as_str().unwrap().to_owned()),
        ..RecallOptions::default()
    };
    recall(&text, q["question"].as_str().unwrap(), &options)
}

fn answered(q: &Value, budget: usize) -> bool {
    let answer = q["answer"].as_str().unwrap();
    run(q, budget)
        .selected
        .iter()
        .any(|s| s.text.contains(answer))
}

fn of_kind<'a>(all: &'a [Value], kind: &str) -> Vec<&'a Value> {
    all.iter().filter(|q| q["kind"] == kind).collect()
}

#[test]
fn the_set_has_its_documented_shape() {
    let all = questions();
    assert!(all.len() >= 80, "at least 80 questions");
    assert!(of_kind(&all, "paraphrase").len() >= 60);
    assert!(of_kind(&all, "none").len() >= 10);
    for q in of_kind(&all, "paraphrase")
        .into_iter()
        .chain(of_kind(&all, "keyword"))
    {
        let name = q["memory"].as_str().unwrap();
        let text = std::fs::read_to_string(dir().join(format!("{name}.md"))).unwrap();
        let answer = q["answer"].as_str().unwrap();
        assert_eq!(text.matches(answer).count(), 1, "{answer:?} once in {name}");
    }
    for name in [
        "team-platform",
        "team-product",
        "user-engineer",
        "user-researcher",
    ] {
        let text = std::fs::read_to_string(dir().join(format!("{name}.md"))).unwrap();
        let entries = text.lines().filter(|l| l.starts_with("- ")).count();
        assert!((60..=150).contains(&entries), "{name}: {entries} entries");
    }
}

#[test]
fn keyword_questions_are_answered_by_words() {
    for q in of_kind(&questions(), "keyword") {
        assert!(answered(q, 400), "{:?} within 400", q["question"]);
    }
}

#[test]
fn questions_without_an_answer_select_nothing() {
    let mut wrong = Vec::new();
    for q in of_kind(&questions(), "none") {
        let r = run(q, 1_200);
        if !r.selected.is_empty() {
            let texts: Vec<&str> = r.selected.iter().map(|s| s.text.as_str()).collect();
            wrong.push(format!("{:?} selected {texts:?}", q["question"]));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn paraphrases_by_words_alone_are_printed() {
    let all = questions();
    let paraphrases = of_kind(&all, "paraphrase");
    for budget in [1_200, 400] {
        let found = paraphrases.iter().filter(|q| answered(q, budget)).count();
        eprintln!(
            "lexical: {found} of {} paraphrases answered within {budget}",
            paraphrases.len()
        );
    }
}
