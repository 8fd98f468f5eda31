//! The Chinese and cross-lingual recall evaluation (tests/recall/eval-zh:
//! two Chinese team memories; paraphrase, keyword and unanswerable
//! questions in Chinese; cross-lingual questions in English on them and in
//! Chinese on the English team-platform memory), by words alone, and by
//! words and meaning with multilingual-e5-small (memdoc-e5, from the file
//! `bash scripts/setup` fetched). Floors with e5: at least 80% of the
//! Chinese paraphrases answered within 1,200 code points and 60% within
//! 400, 60% of the cross-lingual questions within 1,200, every keyword
//! question answered within 400 that words alone answer. The unanswerable
//! questions and MiniLM's figures are printed (`cargo test --release
//! --test recall_eval_zh -- --nocapture`).
#![cfg(not(target_arch = "wasm32"))]

#[path = "recall/eval/eval.rs"]
mod eval;

use std::collections::HashMap;
use std::path::Path;

use eval::{answered, auc, lexical, options, top_relevance, Question};
use memdoc::{hybrid_recall, recall_items, Recall, RecallVectors};
use memdoc_e5::{Role, E5};
use serde_json::Value;

const PARAPHRASE_FLOOR_1200: f64 = 0.80;
const PARAPHRASE_FLOOR_400: f64 = 0.60;
const CROSS_LINGUAL_FLOOR_1200: f64 = 0.60;

/// The set's questions; memories are named as `eval::memory` reads them
/// (relative to tests/recall/eval).
fn questions() -> Vec<Question> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recall/eval-zh");
    let all: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("questions.json")).unwrap())
            .unwrap();
    all.iter()
        .map(|q| {
            let memory = q["memory"].as_str().unwrap();
            Question {
                memory: memory
                    .strip_prefix("../eval/")
                    .map_or_else(|| format!("../eval-zh/{memory}"), str::to_owned),
                scope: q["scope"].as_str().unwrap().parse().unwrap(),
                today: q["today"].as_str().unwrap().to_owned(),
                kind: q["kind"].as_str().unwrap().to_owned(),
                question: q["question"].as_str().unwrap().to_owned(),
                answer: q["answer"].as_str().map(str::to_owned),
                stale: None,
            }
        })
        .collect()
}

fn of_kind<'a>(all: &'a [Question], kind: &str) -> Vec<&'a Question> {
    all.iter().filter(|q| q.kind == kind).collect()
}

#[allow(clippy::cast_precision_loss)]
fn share(found: usize, of: usize) -> f64 {
    found as f64 / of as f64
}

/// multilingual-e5-small and every vector it gave, by role and text.
struct Multilingual {
    model: E5,
    cache: HashMap<(bool, String), Vec<f32>>,
}

impl Multilingual {
    fn load() -> Self {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("target/models/multilingual-e5-small/e5-small-q4.bin");
        let bytes = std::fs::read(&path)
            .unwrap_or_else(|_| panic!("no {}: run `bash scripts/setup`", path.display()));
        Self {
            model: E5::load(bytes).unwrap(),
            cache: HashMap::new(),
        }
    }

    fn embed(&mut self, text: &str, role: Role) -> Vec<f32> {
        let key = (role == Role::Query, text.to_owned());
        if let Some(v) = self.cache.get(&key) {
            return v.clone();
        }
        let v = self.model.embed(text, role);
        self.cache.insert(key, v.clone());
        v
    }

    fn hybrid(&mut self, q: &Question, budget: usize) -> Recall {
        let text = eval::memory(&q.memory);
        let items: Vec<f32> = recall_items(&text)
            .iter()
            .flat_map(|t| self.embed(t, Role::Passage))
            .collect();
        let query = self.embed(&q.question, Role::Query);
        let vectors = RecallVectors {
            embedder: memdoc_e5::ID,
            query: &query,
            items: &items,
        };
        hybrid_recall(&text, &q.question, &options(q, budget), &vectors).unwrap()
    }
}

#[test]
fn the_set_has_its_documented_shape() {
    let all = questions();
    assert!(of_kind(&all, "paraphrase").len() >= 40);
    assert!(of_kind(&all, "cross-lingual").len() >= 20);
    assert!(of_kind(&all, "none").len() >= 10);
    assert!(of_kind(&all, "keyword").len() >= 20);
    for q in &all {
        if let Some(answer) = &q.answer {
            let text = eval::memory(&q.memory);
            assert_eq!(text.matches(answer.as_str()).count(), 1, "{answer:?} once");
        }
    }
    for name in ["team-engineering", "team-product"] {
        let text = eval::memory(&format!("../eval-zh/{name}"));
        let entries = text.lines().filter(|l| l.starts_with("- ")).count();
        assert!((60..=150).contains(&entries), "{name}: {entries} entries");
    }
}

/// The share of `questions` answered within `budget` by `recall`.
fn found(questions: &[&Question], mut recall: impl FnMut(&Question) -> Recall) -> f64 {
    let hits = questions.iter().filter(|q| answered(q, &recall(q))).count();
    share(hits, questions.len())
}

#[test]
fn with_e5_chinese_and_cross_lingual_questions_find_their_answers() {
    let all = questions();
    let mut e5 = Multilingual::load();
    let mut minilm = eval::Embedder::load();
    let mut floors = Vec::new();
    for (kind, budgets) in [
        ("paraphrase", [1_200, 400]),
        ("cross-lingual", [1_200, 400]),
    ] {
        let set = of_kind(&all, kind);
        for budget in budgets {
            let words = found(&set, |q| lexical(q, budget));
            let with_minilm = found(&set, |q| minilm.hybrid(q, budget));
            let with_e5 = found(&set, |q| e5.hybrid(q, budget));
            eprintln!(
                "{kind} within {budget}: words {:.1}%, words and MiniLM {:.1}%, words and e5 {:.1}% ({} questions)",
                words * 100.0,
                with_minilm * 100.0,
                with_e5 * 100.0,
                set.len()
            );
            floors.push((kind, budget, with_e5));
        }
        for q in &set {
            if !answered(q, &e5.hybrid(q, 1_200)) {
                eprintln!("  missed within 1,200: {:?}", q.question);
            }
        }
    }
    let keyword = of_kind(&all, "keyword");
    for budget in [1_200, 400] {
        let mut worse = Vec::new();
        let (mut by_words, mut by_e5, mut by_minilm) = (0, 0, 0);
        for q in &keyword {
            let words = answered(q, &lexical(q, budget));
            let with_e5 = answered(q, &e5.hybrid(q, budget));
            by_words += usize::from(words);
            by_e5 += usize::from(with_e5);
            by_minilm += usize::from(answered(q, &minilm.hybrid(q, budget)));
            if words && !with_e5 {
                worse.push(&q.question);
            }
        }
        eprintln!(
            "keyword within {budget}: words {by_words}, words and MiniLM {by_minilm}, words and e5 {by_e5} of {}",
            keyword.len()
        );
        assert!(
            worse.is_empty(),
            "within {budget}, found by words and not with e5: {worse:?}"
        );
    }
    let none = of_kind(&all, "none");
    let selecting = |recall: &mut dyn FnMut(&Question) -> Recall| {
        none.iter()
            .filter(|q| !recall(q).selected.is_empty())
            .count()
    };
    let tops = |recall: &mut dyn FnMut(&Question) -> Recall| -> f64 {
        let scored: Vec<(bool, f64)> = all
            .iter()
            .map(|q| (q.answer.is_some(), top_relevance(&recall(q))))
            .collect();
        auc(&scored)
    };
    eprintln!(
        "unanswerable questions selecting something within 1,200: words {}, words and MiniLM {}, words and e5 {} of {}; AUC of the top relevance: words {:.3}, MiniLM {:.3}, e5 {:.3}",
        selecting(&mut |q| lexical(q, 1_200)),
        selecting(&mut |q| minilm.hybrid(q, 1_200)),
        selecting(&mut |q| e5.hybrid(q, 1_200)),
        none.len(),
        tops(&mut |q| lexical(q, 1_200)),
        tops(&mut |q| minilm.hybrid(q, 1_200)),
        tops(&mut |q| e5.hybrid(q, 1_200)),
    );
    for (kind, budget, share) in floors {
        let floor = match (kind, budget) {
            ("paraphrase", 1_200) => PARAPHRASE_FLOOR_1200,
            ("paraphrase", _) => PARAPHRASE_FLOOR_400,
            (_, 1_200) => CROSS_LINGUAL_FLOOR_1200,
            _ => 0.0,
        };
        assert!(
            share >= floor,
            "{kind} within {budget}: {share:.3} < {floor}"
        );
    }
}
