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
                    section: title.to_string(),
                    date: e.date.to_string(),
                    text: e.text.to_string(),
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

/// The lengths of the months of year `y` (the proleptic Gregorian calendar).
fn month_lengths(y: i64) -> [i64; 12] {
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let february = if leap { 29 } else { 28 };
    [31, february, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
}

/// Days from 0001-01-01 to 1 January of year `y` (≥ 1): 365 a year and one
/// more per leap year before it. The engine counts with Hinnant's
/// March-based eras instead; this is the plain count, on purpose.
fn days_before_year(y: i64) -> i64 {
    let p = y - 1;
    365 * p + p / 4 - p / 100 + p / 400
}

/// Days since 1970-01-01 of a real `YYYY-MM-DD` date, independently of the
/// engine.
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
    let lengths = month_lengths(y);
    if y < 1 || !(1..=12).contains(&m) || d < 1 || d > lengths[(m - 1) as usize] {
        return None;
    }
    let in_year: i64 = lengths[..(m - 1) as usize].iter().sum::<i64>() + d - 1;
    Some(days_before_year(y) + in_year - days_before_year(1970))
}

/// The `YYYY-MM-DD` of a day count since 1970-01-01 (on or after 0001-01-01),
/// found by walking years and months.
fn civil(z: i64) -> String {
    let n = z + days_before_year(1970);
    let mut y = n / 366 + 1;
    while days_before_year(y + 1) <= n {
        y += 1;
    }
    let mut rest = n - days_before_year(y);
    let mut m = 1;
    for length in month_lengths(y) {
        if rest < length {
            break;
        }
        rest -= length;
        m += 1;
    }
    let d = rest + 1;
    format!("{y:04}-{m:02}-{d:02}")
}
