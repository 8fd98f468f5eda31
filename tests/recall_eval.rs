//! The recall evaluation set (tests/recall/eval: four memories; paraphrase,
//! keyword and unanswerable questions), by words alone and by words and
//! meaning with MiniLM (memdoc-minilm, from the weights `bash
//! scripts/setup` fetched). Floors: by words, every keyword question is
//! answered within 400 code points and no unanswerable question selects
//! anything; with MiniLM, at least 90% of the paraphrases (which share no
//! content word with their answer: test-js/recall-eval.test.mjs checks
//! that) are answered within 1,200 and 75% within 400, every keyword
//! question still is, and one of the unanswerable ones selects nothing
//! (MiniLM's query floor; the separation is printed) (`cargo test --release --test recall_eval -- --nocapture`).
#![cfg(not(target_arch = "wasm32"))]

#[path = "recall/eval/eval.rs"]
mod eval;

use eval::{answered, auc, lexical, questions, top_relevance, Question};

const MINILM_FLOOR_1200: f64 = 0.90;
const MINILM_FLOOR_400: f64 = 0.75;
/// Unanswerable questions selecting nothing with MiniLM: 1 of 12 measured
/// (docs/FORMAT.md §12, "The query floor", for the trade-off per method).
const MINILM_NONE_FLOOR: f64 = 0.08;
/// The static table's floors, a question under what it measures (91.4% and
/// 75.7%; docs/FORMAT.md §12).
const STATIC_FLOOR_1200: f64 = 0.90;
const STATIC_FLOOR_400: f64 = 0.74;

fn of_kind<'a>(all: &'a [Question], kind: &str) -> Vec<&'a Question> {
    all.iter().filter(|q| q.kind == kind).collect()
}

#[allow(clippy::cast_precision_loss)]
fn share(found: usize, of: usize) -> f64 {
    found as f64 / of as f64
}

#[test]
fn the_set_has_its_documented_shape() {
    let all = questions();
    assert!(all.len() >= 80, "at least 80 questions");
    assert!(of_kind(&all, "paraphrase").len() >= 60);
    assert!(of_kind(&all, "keyword").len() >= 10);
    assert!(of_kind(&all, "none").len() >= 10);
    for q in &all {
        let text = eval::memory(&q.memory);
        if let Some(answer) = &q.answer {
            assert_eq!(text.matches(answer.as_str()).count(), 1, "{answer:?} once");
        }
    }
    let mut memories: Vec<&str> = all.iter().map(|q| q.memory.as_str()).collect();
    memories.dedup();
    assert!(memories.len() >= 4, "at least four memories");
    for name in memories {
        let entries = eval::memory(name)
            .lines()
            .filter(|l| l.starts_with("- "))
            .count();
        assert!((60..=150).contains(&entries), "{name}: {entries} entries");
    }
}

#[test]
fn keyword_questions_are_answered_by_words() {
    for q in of_kind(&questions(), "keyword") {
        assert!(answered(q, &lexical(q, 400)), "{:?} within 400", q.question);
    }
}

#[test]
fn questions_without_an_answer_select_nothing_by_words() {
    let mut wrong = Vec::new();
    for q in of_kind(&questions(), "none") {
        let r = lexical(q, 1_200);
        if !r.selected.is_empty() {
            let texts: Vec<&str> = r.selected.iter().map(|s| s.text.as_str()).collect();
            wrong.push(format!("{:?} selected {texts:?}", q.question));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn with_minilm_paraphrases_find_their_answers() {
    let silent = paraphrases_find_their_answers(
        eval::Embedder::load(),
        [MINILM_FLOOR_1200, MINILM_FLOOR_400],
    );
    assert!(
        silent >= MINILM_NONE_FLOOR,
        "selecting nothing: {silent:.3}"
    );
}

#[test]
fn with_the_static_table_paraphrases_find_their_answers() {
    paraphrases_find_their_answers(
        eval::Embedder::load_static(),
        [STATIC_FLOOR_1200, STATIC_FLOOR_400],
    );
}

/// The paraphrases answered within 1,200 and 400 code points (at least
/// `floors`), every keyword question still answered, the separation of the
/// unanswerable ones printed; the share of them that select nothing.
fn paraphrases_find_their_answers(mut embedder: eval::Embedder, floors: [f64; 2]) -> f64 {
    let all = questions();
    let name = embedder.id();
    let paraphrases = of_kind(&all, "paraphrase");
    let mut report = Vec::new();
    for budget in [1_200, 400] {
        let (mut words, mut meaning) = (0, 0);
        for q in &paraphrases {
            words += usize::from(answered(q, &lexical(q, budget)));
            let hybrid = embedder.hybrid(q, budget);
            if answered(q, &hybrid) {
                meaning += 1;
            } else if budget == 1_200 {
                eprintln!("  missed: {:?}", q.question);
            }
        }
        let (words, meaning) = (
            share(words, paraphrases.len()),
            share(meaning, paraphrases.len()),
        );
        eprintln!(
            "paraphrases within {budget}: words {:.1}%, words and {name} {:.1}% ({} questions)",
            words * 100.0,
            meaning * 100.0,
            paraphrases.len()
        );
        report.push(meaning);
    }
    for q in of_kind(&all, "keyword") {
        assert!(answered(q, &embedder.hybrid(q, 1_200)), "{:?}", q.question);
    }
    let mut tops = Vec::new();
    let mut selecting = 0;
    for q in &all {
        let r = embedder.hybrid(q, 1_200);
        if q.answer.is_none() && !r.selected.is_empty() {
            selecting += 1;
        }
        tops.push((q.answer.is_some(), top_relevance(&r)));
    }
    let none = of_kind(&all, "none").len();
    let lexical_tops: Vec<(bool, f64)> = all
        .iter()
        .map(|q| (q.answer.is_some(), top_relevance(&lexical(q, 1_200))))
        .collect();
    eprintln!(
        "unanswerable questions selecting something: {selecting} of {none}; AUC of the top relevance: words and {name} {:.3}, words {:.3}",
        auc(&tops),
        auc(&lexical_tops)
    );
    assert!(report[0] >= floors[0], "within 1,200: {:.3}", report[0]);
    assert!(report[1] >= floors[1], "within 400: {:.3}", report[1]);
    share(none - selecting, none)
}

/// The held-out floors (`heldout.json`, which the calibration never sees).
/// Replaced facts: the newest first, by words and with MiniLM.
const REPLACED_FLOOR: f64 = 0.95;
/// Unanswerable questions that select nothing, by words.
const NONE_FLOOR: f64 = 0.75;
/// Keyword questions with inflections and identifiers, by words.
const KEYWORD_FLOOR: f64 = 0.97;
/// Paraphrases with MiniLM within 1,200 and 400 code points: the goals of
/// 95% and 85% (95.1% and 85.4% measured; docs/FORMAT.md §12).
const HELDOUT_MINILM_FLOOR_1200: f64 = 0.95;
const HELDOUT_MINILM_FLOOR_400: f64 = 0.85;
/// Paraphrases with the static table within 1,200 and 400: what it
/// reaches (85.4% and 65.9%), less a question.
const HELDOUT_STATIC_FLOOR_1200: f64 = 0.83;
const HELDOUT_STATIC_FLOOR_400: f64 = 0.63;

#[test]
fn the_heldout_set_has_its_documented_shape() {
    let all = eval::heldout();
    assert!(of_kind(&all, "replaced").len() >= 24);
    assert!(of_kind(&all, "paraphrase").len() >= 40);
    assert!(of_kind(&all, "keyword").len() >= 15);
    assert!(of_kind(&all, "none").len() >= 8);
    for q in &all {
        let text = eval::memory(&q.memory);
        for s in q.answer.iter().chain(&q.stale) {
            assert_eq!(text.matches(s.as_str()).count(), 1, "{s:?} once");
        }
    }
}

/// The share of replaced facts whose newest entry comes first, and the
/// questions whose stale entry was returned alone, at each budget.
fn replaced(all: &[Question], mut recall: impl FnMut(&Question, usize) -> memdoc::Recall) -> f64 {
    let facts = of_kind(all, "replaced");
    let mut first = 0;
    let mut alone = Vec::new();
    for q in &facts {
        for budget in [120, 400, 1_200] {
            let r = recall(q, budget);
            if budget == 400 {
                first += usize::from(eval::newest_first(q, &r));
            }
            if eval::stale_alone(q, &r) {
                alone.push(format!("{:?} within {budget}", q.question));
            }
        }
    }
    assert!(alone.is_empty(), "a stale value alone: {alone:#?}");
    share(first, facts.len())
}

#[test]
fn by_words_replaced_facts_come_newest_first_and_keywords_match_their_forms() {
    let all = eval::heldout();
    let first = replaced(&all, lexical);
    eprintln!(
        "replaced facts newest first by words: {:.1}%",
        first * 100.0
    );
    assert!(first >= REPLACED_FLOOR, "{first:.3}");
    let keywords = of_kind(&all, "keyword");
    let missed: Vec<&str> = keywords
        .iter()
        .filter(|q| !answered(q, &lexical(q, 400)))
        .map(|q| q.question.as_str())
        .collect();
    let found = share(keywords.len() - missed.len(), keywords.len());
    eprintln!(
        "keyword questions by words: {:.1}%, missed {missed:?}",
        found * 100.0
    );
    assert!(found >= KEYWORD_FLOOR, "{found:.3}");
    // Unanswerable questions: nothing relevant, nothing selected, for at
    // least NONE_FLOOR of them (7 of 8 measured: "head" is a stem of
    // "headings").
    let none = of_kind(&all, "none");
    let silent = none
        .iter()
        .filter(|q| {
            let r = lexical(q, 1_200);
            assert_eq!(r.selected.is_empty(), r.totals.relevant == 0);
            r.selected.is_empty()
        })
        .count();
    let silent = share(silent, none.len());
    eprintln!(
        "unanswerable selecting nothing by words: {:.1}%",
        silent * 100.0
    );
    assert!(silent >= NONE_FLOOR, "{silent:.3}");
}

/// The held-out paraphrases answered within 1,200 and 400 code points.
fn heldout_paraphrases(all: &[Question], embedder: &mut eval::Embedder) -> [f64; 2] {
    let paraphrases = of_kind(all, "paraphrase");
    [1_200, 400].map(|budget| {
        let found = paraphrases
            .iter()
            .filter(|q| answered(q, &embedder.hybrid(q, budget)))
            .count();
        share(found, paraphrases.len())
    })
}

#[test]
fn with_the_static_table_the_heldout_paraphrases_hold_their_floors() {
    let all = eval::heldout();
    let [p1200, p400] = heldout_paraphrases(&all, &mut eval::Embedder::load_static());
    eprintln!(
        "held out, words and the static table: paraphrases {:.1}% within 1,200, {:.1}% within 400",
        p1200 * 100.0,
        p400 * 100.0
    );
    assert!(
        p1200 >= HELDOUT_STATIC_FLOOR_1200,
        "within 1,200: {p1200:.3}"
    );
    assert!(p400 >= HELDOUT_STATIC_FLOOR_400, "within 400: {p400:.3}");
}

#[test]
fn with_minilm_the_heldout_set_holds_its_floors() {
    let all = eval::heldout();
    let mut embedder = eval::Embedder::load();
    let first = replaced(&all, |q, budget| embedder.hybrid(q, budget));
    let [p1200, p400] = heldout_paraphrases(&all, &mut embedder);
    let none = of_kind(&all, "none");
    let silent = none
        .iter()
        .filter(|q| embedder.hybrid(q, 1_200).selected.is_empty())
        .count();
    let silent = share(silent, none.len());
    eprintln!(
        "held out, words and MiniLM: replaced facts newest first {:.1}%; paraphrases {:.1}% within 1,200, {:.1}% within 400; unanswerable selecting nothing {:.1}%",
        first * 100.0,
        p1200 * 100.0,
        p400 * 100.0,
        silent * 100.0
    );
    assert!(first >= REPLACED_FLOOR, "replaced {first:.3}");
    assert!(
        p1200 >= HELDOUT_MINILM_FLOOR_1200,
        "within 1,200: {p1200:.3}"
    );
    assert!(p400 >= HELDOUT_MINILM_FLOOR_400, "within 400: {p400:.3}");
    // MiniLM's cosines do not part unanswerable questions from paraphrased
    // ones: its query floor rejects one of the fitted set's and none of
    // these (docs/FORMAT.md §12 has the trade-off per method), so here
    // "nothing relevant" by meaning is measured and printed, not promised.
}
