//! Any text (free bytes or generated lines), query, budget and pinned
//! sections through `recall`: the result never exceeds the budget in code
//! points; selected and omitted together are every item exactly once, each
//! in document order; the content is a canonical document that holds
//! exactly the selected items; the scores are finite; the same call gives
//! the same result.
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use memdoc::{parse, recall, render, Recall, RecallOptions, Scope};

mod piece;
mod text;

use text::{Text, Title};

const WORDS: &[&str] = &[
    "decisions",
    "facts",
    "a",
    "b",
    "code",
    "entry",
    "long",
    "memory",
    "é",
    "😀",
    "ＡＢ",
];
const TODAYS: &[&str] = &["2025-01-02", "2024-12-31", "2025-02-30", "1970-01-01"];

#[derive(Arbitrary, Debug)]
struct Input {
    text: Text,
    words: Vec<u8>,
    extra: String,
    budget: u16,
    pinned: Vec<Title>,
    team: bool,
    today: Option<u8>,
    half_life: u8,
}

fuzz_target!(|input: Input| {
    let text = input.text.text();
    let mut query: Vec<&str> = input
        .words
        .iter()
        .take(8)
        .map(|&w| WORDS[usize::from(w) % WORDS.len()])
        .collect();
    query.push(&input.extra);
    let query = query.join(" ");
    let options = RecallOptions {
        scope: if input.team { Scope::Team } else { Scope::User },
        budget: usize::from(input.budget) % 2_000,
        today: input
            .today
            .map(|d| TODAYS[usize::from(d) % TODAYS.len()].to_owned()),
        pinned: input.pinned.iter().take(4).map(Title::title).collect(),
        half_life_days: [90.0, 1.0, 0.5, 1e9][usize::from(input.half_life) % 4],
        ..RecallOptions::default()
    };
    if let Err(broken) = check(&text, &query, &options) {
        panic!("{broken}\ntext: {text:?}\nquery: {query:?}\noptions: {options:?}");
    }
});

/// An item as the result names it.
type Key = (String, Option<String>, String);

fn check(text: &str, query: &str, options: &RecallOptions) -> Result<(), String> {
    let r = recall(text, query, options);
    if r.chars > options.budget {
        return Err(format!(
            "{} code points > budget {}",
            r.chars, options.budget
        ));
    }
    if r.chars != r.content.chars().count() || r.estimated_tokens != r.chars.div_ceil(4) {
        return Err(format!(
            "sizes: {} {} {}",
            r.chars,
            r.estimated_tokens,
            r.content.chars().count()
        ));
    }
    let t = &r.totals;
    if t.items != r.selected.len() + r.omitted.len()
        || t.selected != r.selected.len()
        || t.omitted != r.omitted.len()
        || t.budget != options.budget
        || t.memory_chars != render(text).chars().count()
    {
        return Err(format!("totals {t:?}"));
    }
    let scores = r
        .selected
        .iter()
        .map(|s| s.score)
        .chain(r.omitted.iter().map(|o| o.score));
    if let Some(bad) = scores.into_iter().find(|s| !s.is_finite()) {
        return Err(format!("a score of {bad}"));
    }

    // Every item exactly once: the items of the whole memory (no query, no
    // budget) are an interleaving of the selected and the omitted ones.
    let everything = RecallOptions {
        budget: usize::MAX,
        pinned: Vec::new(),
        ..options.clone()
    };
    let all = recall(text, "", &everything);
    if !all.omitted.is_empty() {
        return Err(format!("without a budget, omitted {:?}", all.omitted));
    }
    let all: Vec<Key> = all
        .selected
        .iter()
        .map(|s| (s.section.clone(), s.date.clone(), s.text.clone()))
        .collect();
    let selected: Vec<Key> = r
        .selected
        .iter()
        .map(|s| (s.section.clone(), s.date.clone(), s.text.clone()))
        .collect();
    let omitted: Vec<Key> = r
        .omitted
        .iter()
        .map(|o| (o.section.clone(), o.date.clone(), o.text.clone()))
        .collect();
    if !interleaves(&all, &selected, &omitted) {
        return Err(format!(
            "selected and omitted are not the items in order:\nall {all:?}\nselected {selected:?}\nomitted {omitted:?}"
        ));
    }

    // The content: canonical, everything in sections, no fence left open
    // that the memory itself did not leave open (its last item), and
    // exactly the selected items in order.
    let doc = parse(&r.content);
    let unclosed = doc.unclosed_fence.is_some() && parse(text).unclosed_fence.is_none();
    if doc.render() != r.content || !doc.preamble.is_empty() || unclosed {
        return Err(format!(
            "content is not a canonical document: {:?}",
            r.content
        ));
    }
    if selected.is_empty() != r.content.is_empty() {
        return Err(format!(
            "content {:?} for {} items",
            r.content,
            selected.len()
        ));
    }
    let inside: Vec<Key> = recall(&r.content, "", &everything)
        .selected
        .iter()
        .map(|s| (s.section.clone(), s.date.clone(), s.text.clone()))
        .collect();
    if inside != selected {
        return Err(format!("content holds {inside:?}, selected {selected:?}"));
    }

    // Deterministic (compared as text: a NaN is not equal to itself).
    let twice: Recall = recall(text, query, options);
    if format!("{twice:?}") != format!("{r:?}") {
        return Err("a second call differs".to_owned());
    }
    Ok(())
}

/// Whether `all` is an interleaving of `a` and `b`, each kept in order.
fn interleaves(all: &[Key], a: &[Key], b: &[Key]) -> bool {
    if all.len() != a.len() + b.len() {
        return false;
    }
    // reach[j]: all[..i + j] can be made of a[..i] and b[..j].
    let mut reach = vec![false; b.len() + 1];
    reach[0] = true;
    for j in 1..=b.len() {
        reach[j] = reach[j - 1] && all[j - 1] == b[j - 1];
    }
    for i in 1..=a.len() {
        reach[0] = reach[0] && all[i - 1] == a[i - 1];
        for j in 1..=b.len() {
            let k = i + j - 1;
            reach[j] = (reach[j] && all[k] == a[i - 1]) || (reach[j - 1] && all[k] == b[j - 1]);
        }
    }
    reach[b.len()]
}
