//! Any text (free bytes or generated lines), date and policies through
//! `expire`, against an oracle that computes ages with its own calendar:
//! the archive is exactly the entries that disappeared, and they are the
//! ones older than their section's strictest policy; raw lines, headings
//! and other sections stay as they were (the result is the input's
//! canonical form without those entries); running it again on the result
//! archives nothing and changes nothing.
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use memdoc::{expire, normalize_heading, parse, ExpireOptions, ExpiredEntry, ExpiryPolicy, Line};

mod piece;
mod text;

use text::{Text, Title};

#[derive(Arbitrary, Debug)]
struct Input {
    text: Text,
    /// Days after 2024-01-01 (valid dates only: the typed options promise one).
    today: u16,
    policies: Vec<(Title, u32)>,
}

fuzz_target!(|input: Input| {
    let text = input.text.text();
    let options = ExpireOptions {
        today: civil(days("2024-01-01").unwrap_or(0) + i64::from(input.today % 1_200)),
        policies: input
            .policies
            .iter()
            .take(4)
            .map(|(title, age)| ExpiryPolicy {
                section: title.title(),
                max_age_days: if *age == u32::MAX {
                    u64::MAX
                } else {
                    u64::from(age % 800)
                },
            })
            .collect(),
    };
    if let Err(broken) = check(&text, &options) {
        panic!("{broken}\ntext: {text:?}\noptions: {options:?}");
    }
});

fn check(text: &str, options: &ExpireOptions) -> Result<(), String> {
    let result = expire(text, options);
    let today = days(&options.today).ok_or("today is not a date")?;

    // The oracle: the document without the entries its policies expire.
    let mut doc = parse(text);
    let mut archived = Vec::new();
    for section in &mut doc.sections {
        let key = normalize_heading(&section.title);
        let max_age = options
            .policies
            .iter()
            .filter(|p| !key.is_empty() && normalize_heading(&p.section) == key)
            .map(|p| p.max_age_days)
            .min();
        let Some(max_age) = max_age else { continue };
        let title = section.title.clone();
        section.lines.retain(|line| {
            let Line::Entry(e) = line else { return true };
            let age = days(&e.date).map_or(0, |d| today - d);
            let expired = age > 0 && age.unsigned_abs() > max_age;
            if expired {
                archived.push(ExpiredEntry {
                    section: title.clone(),
                    date: e.date.clone(),
                    text: e.text.clone(),
                });
            }
            !expired
        });
    }
    if result.archived != archived {
        return Err(format!(
            "archived {:?}, expected {archived:?}",
            result.archived
        ));
    }
    let expected = doc.render();
    if result.content != expected {
        return Err(format!(
            "content {:?}, expected {expected:?}",
            result.content
        ));
    }

    // Idempotent.
    let again = expire(&result.content, options);
    if !again.archived.is_empty() || again.content != result.content {
        return Err(format!(
            "a second run archived {:?} or changed the content to {:?}",
            again.archived, again.content
        ));
    }
    Ok(())
}

/// Days since 1970-01-01 of a real `YYYY-MM-DD` date (the proleptic
/// Gregorian calendar), independently of the engine.
fn days(date: &str) -> Option<i64> {
    let b = date.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = &date[r];
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let month_days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&m) || d < 1 || d > month_days[(m - 1) as usize] {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// The `YYYY-MM-DD` of a day count since 1970-01-01.
fn civil(z: i64) -> String {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}
