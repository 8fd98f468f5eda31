//! The laws every compaction obeys, shared by the property tests
//! (tests/ops_properties.rs) and the compact fuzz target (fuzz/): kept plus
//! removed entries are the input's, raw lines are never removed, the result
//! is canonical and measured right, and compacting a result that fits
//! changes nothing.

use std::collections::HashMap;

use memdoc::{compact, parse, render, CompactOptions, Line};

fn entries(text: &str) -> HashMap<(String, String), usize> {
    let mut out = HashMap::new();
    for e in parse(text).entries() {
        *out.entry((e.date.to_string(), e.text.to_string()))
            .or_insert(0) += 1;
    }
    out
}

fn raw_lines(text: &str) -> HashMap<String, usize> {
    let mut out = HashMap::new();
    for s in parse(text).sections {
        for l in s.lines {
            if let Line::Raw(r) = l {
                if !r.text.is_empty() {
                    *out.entry(r.text.into_owned()).or_insert(0) += 1;
                }
            }
        }
    }
    out
}

fn law(holds: bool, what: &str) -> Result<(), String> {
    if holds {
        Ok(())
    } else {
        Err(what.to_owned())
    }
}

/// Compact `text` with `options` and check the result.
///
/// # Errors
/// The first law the result breaks.
pub fn check_compact(text: &str, options: &CompactOptions) -> Result<(), String> {
    let c = compact(text, options);
    let mut kept = entries(&c.content);
    for r in &c.removed {
        *kept.entry((r.date.clone(), r.text.clone())).or_insert(0) += 1;
        let at = text.get(r.span.start..r.span.end);
        law(
            at.is_some_and(|s| s.ends_with(r.text.as_str())),
            "a removed entry's span is its line",
        )?;
    }
    law(kept == entries(text), "kept + removed = input")?;
    law(
        raw_lines(&c.content) == raw_lines(text),
        "raw lines are never removed",
    )?;
    law(render(&c.content) == c.content, "the result is canonical")?;
    law(c.after == c.content.chars().count(), "after is the size")?;
    law(c.fits == (c.after <= options.target), "fits")?;
    if c.before <= options.target {
        law(
            c.content == render(text),
            "a text that fits is only rendered",
        )?;
        law(
            c.removed.is_empty() && c.merged.is_empty(),
            "nothing done to a text that fits",
        )?;
    }
    if c.fits {
        let again = compact(&c.content, options);
        law(again.content == c.content, "idempotent")?;
        law(
            again.removed.is_empty() && again.merged.is_empty(),
            "nothing left to do",
        )?;
    } else {
        law(
            parse(&c.content).entries().next().is_none(),
            "gave up only with no entry left",
        )?;
    }
    Ok(())
}
