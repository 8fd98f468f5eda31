//! Recall: worked examples, coded option errors, and properties over
//! generated memories and arbitrary strings (budget never exceeded, every
//! item accounted for once, order preserved, determinism, a valid canonical
//! document, empty and huge queries, budgets smaller than every item).
#![cfg(not(target_arch = "wasm32"))]

use memdoc::{
    hybrid_recall, parse, recall, recall_items, render, OmitReason, PreparedMemory, Recall,
    RecallOptions, RecallVectors, RecallWeights, Scope,
};
use proptest::prelude::*;

const TEAM: &str = "## Product Decisions
- 2025-01-10: Billing runs on Postgres 16, not MySQL
- 2025-03-02: Releases ship on Tuesdays after the QA sign-off

## Current Priorities
- 2025-05-20: Finish the billing migration before June
- 2024-11-01: Hire a second designer

## Facts
- 2025-02-14: The office is in Oslo, Storgata 5
Loose note without a date

```sh
make release
```";

fn team(budget: usize) -> RecallOptions {
    RecallOptions {
        scope: Scope::Team,
        budget,
        today: Some("2025-06-01".into()),
        ..RecallOptions::default()
    }
}

fn all_items(r: &Recall) -> usize {
    r.selected.len() + r.omitted.len()
}

#[test]
fn a_query_takes_the_matching_items_under_their_headings_in_order() {
    let r = recall(TEAM, "billing", &team(4_000));
    assert_eq!(
        r.content,
        "## Product Decisions\n- 2025-01-10: Billing runs on Postgres 16, not MySQL\n\n## Current Priorities\n- 2025-05-20: Finish the billing migration before June"
    );
    assert_eq!(r.chars, r.content.chars().count());
    assert_eq!(r.estimated_tokens, r.chars.div_ceil(4));
    assert_eq!(r.selected[0].why.terms, ["billing"]);
    assert_eq!(r.selected[0].date.as_deref(), Some("2025-01-10"));
    assert!(r
        .omitted
        .iter()
        .all(|o| o.reason == OmitReason::NoMatch && o.why.terms.is_empty()));
    assert_eq!(r.totals.items, 7);
    assert_eq!((r.totals.selected, r.totals.omitted), (2, 5));
    assert_eq!(r.totals.memory_chars, render(TEAM).chars().count());
}

#[test]
fn the_section_title_counts_as_part_of_each_item() {
    let r = recall(TEAM, "priorities", &team(4_000));
    let texts: Vec<&str> = r.selected.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "Finish the billing migration before June",
            "Hire a second designer"
        ]
    );
}

#[test]
fn the_budget_keeps_the_best_and_reports_the_rest_as_budget() {
    // Room for one billing entry only: the better-scoring one wins.
    let r = recall(TEAM, "billing", &team(80));
    assert!(r.chars <= 80);
    assert_eq!(r.selected.len(), 1);
    assert_eq!(
        r.selected[0].text,
        "Finish the billing migration before June"
    );
    let billing = r
        .omitted
        .iter()
        .find(|o| o.text.starts_with("Billing runs"))
        .unwrap();
    assert_eq!(billing.reason, OmitReason::Budget);
    assert!(billing.score < r.selected[0].score);
}

#[test]
fn an_empty_query_ranks_by_recency_and_priority_alone() {
    let r = recall(TEAM, "  ¿? ", &team(4_000));
    assert!(r.omitted.is_empty(), "everything fits: {:?}", r.omitted);
    // Every item, without the blank lines between them.
    assert_eq!(r.content, render(TEAM).replace("date\n\n```", "date\n```"));
    for s in &r.selected {
        assert_eq!(s.why.relevance, 0.0);
    }
    let small = recall(TEAM, "", &team(100));
    // The newest entry of the highest class goes first.
    assert!(
        small
            .content
            .starts_with("## Product Decisions\n- 2025-03-02: Releases ship"),
        "{}",
        small.content
    );
}

#[test]
fn pinned_sections_come_first_even_without_a_match() {
    let options = RecallOptions {
        pinned: vec!["facts".into()],
        ..team(4_000)
    };
    let r = recall(TEAM, "billing", &options);
    assert!(r
        .content
        .contains("## Facts\n- 2025-02-14: The office is in Oslo"));
    assert!(r.content.contains("Loose note without a date"));
    assert!(
        r.content.contains("```sh\nmake release\n```"),
        "{}",
        r.content
    );
    // Pinned items are taken before better-scoring ones.
    let tight = recall(
        TEAM,
        "billing",
        &RecallOptions {
            budget: 60,
            ..options
        },
    );
    assert_eq!(tight.selected[0].section, "Facts");
}

#[test]
fn a_code_fence_is_one_item_never_split() {
    let text = "## Notes\n```\none\n\n## not a heading\n```\n- 2025-01-01: after";
    let r = recall(text, "heading", &RecallOptions::default());
    assert_eq!(r.selected.len(), 1);
    assert_eq!(r.selected[0].text, "```\none\n\n## not a heading\n```");
    assert_eq!(r.content, "## Notes\n```\none\n\n## not a heading\n```");
    assert_eq!(parse(&r.content).sections.len(), 1);
}

#[test]
fn an_item_larger_than_the_budget_is_too_large() {
    let r = recall(TEAM, "", &team(20));
    assert!(r.selected.is_empty());
    assert_eq!(r.content, "");
    assert!(r.omitted.iter().all(|o| o.reason == OmitReason::TooLarge));
}

#[test]
fn words_are_folded_like_headings() {
    let text = "## Tools\n- 2025-01-01: We use ＰＯＳＴＧＲＥＳ\n- 2025-01-02: Zürich office";
    let r = recall(text, "postgres ZÜRICH", &RecallOptions::default());
    assert_eq!(r.selected.len(), 2);
    assert_eq!(r.selected[0].why.terms, ["postgres"]);
    assert_eq!(r.selected[1].why.terms, ["zürich"]);
}

#[test]
fn words_in_every_item_weigh_almost_nothing_and_stop_words_nothing() {
    let text = "## Log\n- 2025-01-01: the build uses make\n- 2025-01-01: the deploy uses helm\n- 2025-01-01: the team uses slack";
    let r = recall(text, "the uses helm", &RecallOptions::default());
    assert_eq!(r.selected.len(), 1, "{:?}", r.omitted);
    let helm = &r.selected[0];
    assert!(helm.text.contains("helm"));
    assert_eq!(
        helm.why.terms,
        ["helm", "uses"],
        "should never name a stop word"
    );
    assert!(helm.why.relevance > 0.8, "{:?}", helm.why);
    let other = r.omitted.iter().find(|s| s.text.contains("make")).unwrap();
    assert_eq!(other.reason, OmitReason::NoMatch);
    assert!(other.why.lexical.normalized < 0.3, "{:?}", other.why);
    // A query of stop words alone matches nothing.
    let r = recall(text, "what is the", &RecallOptions::default());
    assert!(r.selected.is_empty(), "{:?}", r.selected);
    assert!(r.omitted.iter().all(|o| o.reason == OmitReason::NoMatch));
}

#[test]
fn without_today_ages_count_to_the_newest_entry() {
    let a = recall(
        TEAM,
        "",
        &RecallOptions {
            today: None,
            ..team(4_000)
        },
    );
    let b = recall(
        TEAM,
        "",
        &RecallOptions {
            today: Some("2025-05-20".into()),
            ..team(4_000)
        },
    );
    assert_eq!(a, b);
}

#[test]
fn typed_options_have_the_same_checks() {
    assert_eq!(RecallOptions::default().check(), Ok(()));
    let cases = [
        (
            RecallOptions {
                budget: 0,
                ..RecallOptions::default()
            },
            "options/invalid-budget",
        ),
        (
            RecallOptions {
                today: Some("today".into()),
                ..RecallOptions::default()
            },
            "options/invalid-date",
        ),
        (
            RecallOptions {
                weights: RecallWeights {
                    priority: f64::NAN,
                    ..RecallWeights::default()
                },
                ..RecallOptions::default()
            },
            "options/invalid-weight",
        ),
        (
            RecallOptions {
                half_life_days: -90.0,
                ..RecallOptions::default()
            },
            "options/invalid-weight",
        ),
    ];
    for (options, code) in cases {
        assert_eq!(options.check().unwrap_err().code(), code, "{options:?}");
    }
}

// ---- properties ----

fn word() -> impl Strategy<Value = String> + Clone {
    prop::sample::select(vec![
        "billing",
        "postgres",
        "deploy",
        "the",
        "a",
        "oslo",
        "Zürich",
        "ＰＯＳＴＧＲＥＳ",
        "中文",
        "release",
        "QA",
        "team",
        "😀",
        "v16",
        "don't",
        "e-mail",
    ])
    .prop_map(str::to_owned)
}

fn line() -> impl Strategy<Value = String> {
    let text = || prop::collection::vec(word(), 1..8).prop_map(|w| w.join(" "));
    prop_oneof![
        6 => (2020u32..2026, 1u32..13, 1u32..29, text())
            .prop_map(|(y, m, d, t)| format!("- {y:04}-{m:02}-{d:02}: {t}")),
        2 => text(),
        1 => Just(String::new()),
        1 => text().prop_map(|t| format!("```\n{t}\n\n## {t}\n```")),
        1 => prop::sample::select(vec!["## Decisions", "## Current Priorities", "## Facts", "## Preferences", "## Ｆａｃｔｓ"]).prop_map(str::to_owned),
        1 => Just("```".to_owned()),
    ]
}

fn memory() -> impl Strategy<Value = String> {
    prop::collection::vec(line(), 0..40).prop_map(|l| l.join("\n"))
}

fn check(text: &str, query: &str, options: &RecallOptions) -> Recall {
    let r = recall(text, query, options);
    // Budget never exceeded, sizes honest.
    assert!(
        r.chars <= options.budget,
        "{} > {}",
        r.chars,
        options.budget
    );
    assert_eq!(r.chars, r.content.chars().count());
    // A valid canonical document, whose items are exactly the selected ones.
    assert_eq!(render(&r.content), r.content, "not canonical");
    let again = recall(
        &r.content,
        "",
        &RecallOptions {
            budget: usize::MAX,
            ..options.clone()
        },
    );
    let texts = |v: Vec<String>| v;
    assert_eq!(
        texts(again.selected.iter().map(|s| s.text.clone()).collect()),
        texts(r.selected.iter().map(|s| s.text.clone()).collect()),
        "the content should hold exactly the selected items, in order"
    );
    // Every item once: selected ∪ omitted = all items, in document order.
    let all = recall(
        text,
        "",
        &RecallOptions {
            budget: usize::MAX,
            pinned: vec![],
            ..options.clone()
        },
    );
    assert_eq!(all_items(&r), all.selected.len());
    assert_eq!(r.totals.items, all_items(&r));
    let mut merged: Vec<(String, String, Option<String>)> = Vec::new();
    let (mut s, mut o) = (r.selected.iter().peekable(), r.omitted.iter().peekable());
    for item in &all.selected {
        // An item is its section, text and date (an entry and a raw line
        // may have the same text).
        let key = (item.section.clone(), item.text.clone(), item.date.clone());
        if s.peek()
            .is_some_and(|x| (x.section.clone(), x.text.clone(), x.date.clone()) == key)
        {
            merged.push(key);
            s.next();
        } else if o
            .peek()
            .is_some_and(|x| (x.section.clone(), x.text.clone(), x.date.clone()) == key)
        {
            merged.push(key);
            o.next();
        }
    }
    assert_eq!(
        merged.len(),
        all.selected.len(),
        "order or membership differs"
    );
    // A superseded item is never selected without the entry that
    // supersedes it, which is a later entry of its section.
    for item in &r.selected {
        if let Some(line) = item.why.superseded_by {
            let newer = r.selected.iter().find(|s| s.range.start.line == line);
            let newer = newer.expect("the superseding entry is selected");
            assert!(newer.date > item.date && newer.section == item.section);
        }
    }
    // Deterministic.
    assert_eq!(recall(text, query, options), r);
    r
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn recall_keeps_its_promises(text in memory(), query in prop::collection::vec(word(), 0..4), budget in 1usize..400) {
        let options = RecallOptions { scope: Scope::Team, budget, today: Some("2025-06-01".into()), pinned: vec!["facts".into()], ..RecallOptions::default() };
        let r = check(&text, &query.join(" "), &options);
        // Greedy: a budget-omitted item did not fit next to the selection.
        for o in &r.omitted {
            let line = o.text.chars().count() + if o.date.is_some() { 14 } else { 0 };
            let alone = line + o.section.chars().count() + 4;
            if o.reason != OmitReason::NoMatch {
                prop_assert_eq!(o.reason == OmitReason::TooLarge, alone > budget, "{:?}", o);
            }
        }
    }

    #[test]
    fn arbitrary_text_and_queries_never_break_it(text in ".{0,300}", query in ".{0,50}", budget in 1usize..200) {
        check(&text, &query, &RecallOptions { budget, ..RecallOptions::default() });
    }

    #[test]
    fn a_budget_below_every_item_selects_nothing(text in memory()) {
        let r = check(&text, "", &RecallOptions { budget: 4, ..RecallOptions::default() });
        prop_assert!(r.selected.is_empty());
        prop_assert!(r.omitted.iter().all(|o| o.reason == OmitReason::TooLarge));
    }
}

/// Whether two recalls are equal to the bit (`Debug` writes every float
/// so that it reads back to the same bits, and tells -0 from 0).
fn same_bits(a: &Recall, b: &Recall) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// One prepared memory answers query after query, with any options and
    /// vectors or none, exactly as a recall of the text does each time.
    #[test]
    fn a_prepared_memory_recalls_as_the_text_does(
        text in memory(),
        asks in prop::collection::vec(
            (
                prop::collection::vec(word(), 0..4),
                1usize..400,
                any::<bool>(),
                prop::option::of(prop::collection::vec(-1.0f32..1.0, 3 * 48)),
            ),
            1..5,
        ),
    ) {
        let prepared = PreparedMemory::new(&text);
        let items = recall_items(&text);
        prop_assert_eq!(prepared.items().collect::<Vec<_>>(), items.clone());
        for (query, budget, team, vectors) in asks {
            let query = query.join(" ");
            let options = RecallOptions {
                scope: if team { Scope::Team } else { Scope::User },
                budget,
                pinned: if team { vec!["facts".into()] } else { vec![] },
                ..RecallOptions::default()
            };
            let (expected, got) = match &vectors {
                None => {
                    // Recalled from once, a fresh memory looks only at the entries that answer.
                    let once = PreparedMemory::new(&text).recall_once(&query, &options, None).unwrap();
                    prop_assert!(same_bits(&once, &recall(&text, &query, &options)), "{:?}", once);
                    (recall(&text, &query, &options), prepared.recall(&query, &options, None).unwrap())
                }
                Some(v) => {
                    let d = 3;
                    let Some(used) = v.get(..d * (items.len() + 1)) else {
                        continue;
                    };
                    let vectors = RecallVectors { embedder: "all-MiniLM-L6-v2", query: &used[..d], items: &used[d..] };
                    (
                        hybrid_recall(&text, &query, &options, &vectors).unwrap(),
                        prepared.recall(&query, &options, Some(&vectors)).unwrap(),
                    )
                }
            };
            prop_assert!(same_bits(&got, &expected), "{:?}\n{:?}", got, expected);
        }
    }
}

#[test]
fn a_huge_query_is_fine() {
    let query: String = (0..20_000).map(|i| format!("word{i} billing ")).collect();
    let r = check(TEAM, &query, &team(4_000));
    // 20,001 distinct words of which the memory holds one: "billing" is a
    // sliver of what was asked, under the floor.
    assert!(r.selected.is_empty());
    let r = check(TEAM, &"the billing ".repeat(20_000), &team(4_000));
    assert_eq!(r.selected.len(), 2);
}
