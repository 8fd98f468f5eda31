//! The recall evaluation set read and measured, shared by
//! tests/recall_eval.rs (the floors) and tests/recall/eval/fit.rs (the
//! calibration's fit, which reads `questions.json` only): its questions,
//! the held-out ones (`heldout.json`: replaced facts, paraphrases, keyword
//! and unanswerable questions the calibration never sees), its memories'
//! items, and each question's recall, lexical or hybrid with MiniLM's
//! vectors.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use memdoc::{hybrid_recall, recall, recall_items, Recall, RecallOptions, RecallVectors, Scope};
use memdoc_minilm::{MiniLm, StaticModel};
use serde_json::Value;

pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recall/eval")
}

pub struct Question {
    pub memory: String,
    pub scope: Scope,
    pub today: String,
    pub kind: String,
    pub question: String,
    pub answer: Option<String>,
    /// A replaced fact's old entry (kind `replaced`).
    pub stale: Option<String>,
}

/// The questions the calibration is fitted on.
pub fn questions() -> Vec<Question> {
    read("questions.json")
}

/// The questions the calibration never sees.
pub fn heldout() -> Vec<Question> {
    read("heldout.json")
}

fn read(file: &str) -> Vec<Question> {
    let all: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(dir().join(file)).unwrap()).unwrap();
    all.iter()
        .map(|q| Question {
            memory: q["memory"].as_str().unwrap().to_owned(),
            scope: q["scope"].as_str().unwrap().parse().unwrap(),
            today: q["today"].as_str().unwrap().to_owned(),
            kind: q["kind"].as_str().unwrap().to_owned(),
            question: q["question"].as_str().unwrap().to_owned(),
            answer: q["answer"].as_str().map(str::to_owned),
            stale: q["stale"].as_str().map(str::to_owned),
        })
        .collect()
}

pub fn memory(name: &str) -> String {
    std::fs::read_to_string(dir().join(format!("{name}.md"))).unwrap()
}

pub fn options(q: &Question, budget: usize) -> RecallOptions {
    RecallOptions {
        scope: q.scope,
        budget,
        today: Some(q.today.clone()),
        ..RecallOptions::default()
    }
}

pub fn lexical(q: &Question, budget: usize) -> Recall {
    recall(&memory(&q.memory), &q.question, &options(q, budget))
}

/// Whether the answer is among the selected items.
pub fn answered(q: &Question, r: &Recall) -> bool {
    let answer = q.answer.as_deref().unwrap();
    r.selected.iter().any(|s| s.text.contains(answer))
}

/// Whether `text` is among the selected items.
pub fn selects(r: &Recall, text: &str) -> bool {
    r.selected.iter().any(|s| s.text.contains(text))
}

/// For a replaced fact: whether the new entry is selected and ranked
/// before the old one (the old one not selected, or marked superseded by
/// the new one's line).
pub fn newest_first(q: &Question, r: &Recall) -> bool {
    let (new, old) = (q.answer.as_deref().unwrap(), q.stale.as_deref().unwrap());
    let Some(taken) = r.selected.iter().find(|s| s.text.contains(new)) else {
        return false;
    };
    let line = taken.range.start.line;
    r.selected
        .iter()
        .filter(|s| s.text.contains(old))
        .all(|s| s.why.superseded_by == Some(line))
}

/// For a replaced fact: whether the old entry is selected without the new.
pub fn stale_alone(q: &Question, r: &Recall) -> bool {
    selects(r, q.stale.as_deref().unwrap()) && !selects(r, q.answer.as_deref().unwrap())
}

/// The highest relevance of any item.
pub fn top_relevance(r: &Recall) -> f64 {
    r.selected
        .iter()
        .map(|s| s.why.relevance)
        .chain(r.omitted.iter().map(|o| o.why.relevance))
        .fold(0.0, f64::max)
}

/// The area under the ROC curve of `top` separating answerable questions
/// (`true`) from unanswerable ones: the chance that an answerable one
/// scores higher (ties count half).
pub fn auc(scored: &[(bool, f64)]) -> f64 {
    let pos: Vec<f64> = scored.iter().filter(|s| s.0).map(|s| s.1).collect();
    let neg: Vec<f64> = scored.iter().filter(|s| !s.0).map(|s| s.1).collect();
    let mut wins = 0.0;
    for p in &pos {
        for n in &neg {
            wins += if p > n {
                1.0
            } else if p == n {
                0.5
            } else {
                0.0
            };
        }
    }
    #[allow(clippy::cast_precision_loss)]
    let pairs = (pos.len() * neg.len()) as f64;
    wins / pairs
}

/// The model behind an [`Embedder`].
enum Model {
    MiniLm(MiniLm),
    Static(StaticModel),
}

/// MiniLM, or the static table distilled from it, from the files `bash
/// scripts/setup` fetched and made, and every vector it gave, by text.
pub struct Embedder {
    model: Model,
    cache: HashMap<String, Vec<f32>>,
}

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/models")
}

fn tokenizer() -> String {
    let path = models().join("all-MiniLM-L6-v2/tokenizer.json");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("no {}: run `bash scripts/setup`", path.display()))
}

impl Embedder {
    /// MiniLM.
    pub fn load() -> Self {
        let path = models().join("all-MiniLM-L6-v2/model.safetensors");
        let weights = std::fs::read(&path).unwrap_or_else(|_| {
            panic!("no {}: run `bash scripts/setup`", path.display());
        });
        Self {
            model: Model::MiniLm(MiniLm::load(&weights, &tokenizer()).unwrap()),
            cache: HashMap::new(),
        }
    }

    /// The static table.
    pub fn load_static() -> Self {
        let path = models().join("static/all-MiniLM-L6-v2-static-256.i8");
        let table = std::fs::read(&path).unwrap_or_else(|_| {
            panic!("no {}: run `bash scripts/setup`", path.display());
        });
        Self {
            model: Model::Static(StaticModel::load(&table, &tokenizer()).unwrap()),
            cache: HashMap::new(),
        }
    }

    /// The embedder's id, which decides recall's calibration.
    pub fn id(&self) -> &'static str {
        match self.model {
            Model::MiniLm(_) => memdoc_minilm::ID,
            Model::Static(_) => memdoc_minilm::static_table::ID,
        }
    }

    pub fn embed(&mut self, text: &str) -> Vec<f32> {
        if let Some(v) = self.cache.get(text) {
            return v.clone();
        }
        let v = match &self.model {
            Model::MiniLm(m) => m.embed(text),
            Model::Static(m) => m.embed(text),
        };
        self.cache.insert(text.to_owned(), v.clone());
        v
    }

    /// `q`'s recall by words and the embedder's vectors.
    pub fn hybrid(&mut self, q: &Question, budget: usize) -> Recall {
        self.recall(&memory(&q.memory), &q.question, &options(q, budget))
    }

    /// The recall of `query` in `text` by words and the embedder's vectors.
    pub fn recall(&mut self, text: &str, query: &str, options: &RecallOptions) -> Recall {
        let items: Vec<f32> = recall_items(text)
            .iter()
            .flat_map(|t| self.embed(t))
            .collect();
        let query_vector = self.embed(query);
        let vectors = RecallVectors {
            embedder: self.id(),
            query: &query_vector,
            items: &items,
        };
        hybrid_recall(text, query, options, &vectors).unwrap()
    }
}
