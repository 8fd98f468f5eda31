//! The laws every merge obeys, shared by the property tests
//! (tests/ops_properties.rs) and the merge fuzz target (fuzz/): a result is
//! canonical, its conflict sides point into their inputs, and a clean result,
//! parsed again, holds every section and entry of both sides that the other
//! side did not remove, and nothing that neither side has.

use std::collections::HashSet;

use memdoc::{merge, normalize_heading, parse, render, Line, MergeResult};

/// A section's title as the merge matches it: normalized (exact when that
/// normalizes to nothing).
fn title_key(title: &str) -> String {
    match normalize_heading(title) {
        key if key.is_empty() => title.to_owned(),
        key => key,
    }
}

/// The section titles and the entries (title, date, text) of a text, and
/// the titles it repeats.
#[derive(Default)]
struct Shape {
    sections: HashSet<String>,
    entries: HashSet<(String, String, String)>,
    repeated: HashSet<String>,
}

fn shape(text: &str) -> Shape {
    let mut out = Shape::default();
    for s in parse(text).sections {
        let key = title_key(&s.title);
        for e in s.lines.iter().filter_map(Line::as_entry) {
            out.entries
                .insert((key.clone(), e.date.to_string(), e.text.to_string()));
        }
        if !out.sections.insert(key.clone()) {
            out.repeated.insert(key);
        }
    }
    out
}

/// How a law treats renamed sections (docs/ops.md): an entry the side has
/// in a section it renamed is not an addition (`moved`), and an entry is in
/// the result under its title or, when that title is gone (the other side
/// renamed its section) or repeated (repeated titles match by rank, which a
/// rename shifts), under any (`found`); an entry of the result comes
/// from a side under any title (`from_either`).
struct Renames<T> {
    moved: Box<dyn Fn(&T) -> bool>,
    found: Box<dyn Fn(&T) -> bool>,
    from_either: Box<dyn Fn(&T) -> bool>,
}

impl<T> Renames<T> {
    fn none() -> Self {
        Self {
            moved: Box::new(|_| false),
            found: Box::new(|_| false),
            from_either: Box::new(|_| false),
        }
    }
}

/// Every element of `side` that `base` does not have (an addition) is in
/// `result`, and so is every element that all three have, unless its
/// title is `repeated` (repeated titles match by rank, which removals
/// shift); `renames` as above; every element of `result` is in `side` or
/// `other`.
fn kept<T: std::hash::Hash + Eq + std::fmt::Debug>(
    what: &str,
    [base, side, other, result]: [&HashSet<T>; 4],
    repeated: impl Fn(&T) -> bool,
    renames: &Renames<T>,
) -> Result<(), String> {
    for x in side {
        let must =
            (!base.contains(x) && !(renames.moved)(x)) || (other.contains(x) && !repeated(x));
        if must && !result.contains(x) && !(renames.found)(x) {
            return Err(format!("{what} {x:?} is missing from the clean result"));
        }
    }
    match result
        .iter()
        .find(|x| !side.contains(*x) && !other.contains(*x) && !(renames.from_either)(x))
    {
        Some(x) => Err(format!("{what} {x:?} is in neither side")),
        None => Ok(()),
    }
}

/// Check `m = merge(base, ours, theirs)`.
///
/// # Errors
/// The first law the result breaks.
pub fn check_merge(base: &str, ours: &str, theirs: &str, m: &MergeResult) -> Result<(), String> {
    if render(&m.content) != m.content {
        return Err("the result is not canonical".into());
    }
    if m.clean != m.conflicts.is_empty() {
        return Err("clean must mean no conflict".into());
    }
    for c in &m.conflicts {
        for (side, text) in [(&c.base, base), (&c.ours, ours), (&c.theirs, theirs)] {
            if let Some(s) = side {
                if text.get(s.span.start..s.span.end).is_none() {
                    return Err(format!("conflict span {:?} is not in its input", s.span));
                }
            }
        }
    }
    if !m.clean {
        return Ok(());
    }
    let shapes = [base, ours, theirs, m.content.as_str()].map(shape);
    let repeated: HashSet<&String> = shapes.iter().flat_map(|s| &s.repeated).collect();
    let [b, o, t, r] = &shapes;
    for (side, other) in [(o, t), (t, o)] {
        let sections = [&b.sections, &side.sections, &other.sections, &r.sections];
        kept(
            "section",
            sections,
            |title| repeated.contains(title),
            &Renames::none(),
        )?;
        let (base_entries, side_titles) = (b.entries.clone(), side.sections.clone());
        let (result_entries, result_titles) = (r.entries.clone(), r.sections.clone());
        let repeated_titles: HashSet<String> = repeated.iter().map(|t| (*t).clone()).collect();
        let either: Vec<(String, String)> = side
            .entries
            .iter()
            .chain(&other.entries)
            .map(|(_, d, x)| (d.clone(), x.clone()))
            .collect();
        let renames = Renames {
            moved: Box::new(move |(_, date, text): &(String, String, String)| {
                base_entries
                    .iter()
                    .any(|(t, d, x)| d == date && x == text && !side_titles.contains(t))
            }),
            found: Box::new(move |(title, date, text): &(String, String, String)| {
                (!result_titles.contains(title) || repeated_titles.contains(title))
                    && result_entries
                        .iter()
                        .any(|(_, d, x)| d == date && x == text)
            }),
            from_either: Box::new(move |(_, date, text): &(String, String, String)| {
                either.iter().any(|(d, x)| d == date && x == text)
            }),
        };
        let entries = [&b.entries, &side.entries, &other.entries, &r.entries];
        kept("entry", entries, |e| repeated.contains(&e.0), &renames)?;
    }
    Ok(())
}

/// The identities: one side unchanged gives the other side, both sides
/// equal give that side, all clean.
///
/// # Errors
/// The first identity that fails.
pub fn check_identities(base: &str, x: &str) -> Result<(), String> {
    let want = render(x);
    for (name, m) in [
        ("merge(b, x, b)", merge(base, x, base)),
        ("merge(b, b, x)", merge(base, base, x)),
        ("merge(b, x, x)", merge(base, x, x)),
    ] {
        if !m.clean || m.content != want {
            return Err(format!("{name} is not render(x): {:?}", m.conflicts));
        }
    }
    Ok(())
}
