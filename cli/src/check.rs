//! `memdoc check`: a file's validation report in the three formats of
//! docs/CLI.md: `human` (`file:line:col: severity code: message`, the line
//! and a caret, colour when asked), `json` (one object per file, one line
//! each) and `github` (workflow commands that GitHub Actions shows as
//! annotations). Positions are those of the API: 1-based lines and 1-based
//! UTF-16 columns, so that a column here is the column the JSON, the editor
//! and the package report.

use std::fmt::Write as _;

use memdoc::store::json::{object, Object};
use memdoc::Error;
use memdoc::ValidateOptions;
use memdoc::{validate, Report};
use memdoc::{Code, Diagnostic, Severity};
use memdoc::{LineIndex, Range};

use super::printable;

/// The output formats of `memdoc check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// For people: a line per finding, the offending line and a caret.
    #[default]
    Human,
    /// One JSON object per file, each on its own line.
    Json,
    /// GitHub Actions workflow commands (`::error file=…::…`).
    Github,
}

impl std::str::FromStr for Format {
    type Err = Error;

    /// Exactly `human`, `json` or `github`.
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "human" => Ok(Self::Human),
            "json" => Ok(Self::Json),
            "github" => Ok(Self::Github),
            other => Err(Error::InvalidOptions(format!(
                "unknown format {}: expected human, json or github",
                memdoc::Quoted(other)
            ))),
        }
    }
}

/// How a file's report is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Style {
    /// The format.
    pub format: Format,
    /// ANSI colours (the human format only; the front end decides: a
    /// terminal, and no `NO_COLOR`).
    pub colour: bool,
    /// Warnings fail the check too.
    pub deny_warnings: bool,
    /// What a file loses is an error: a removed section, the shrinkage
    /// below 40% of the previous version, lines before the first heading
    /// that the canonical form drops (`--deny-losses`).
    pub deny_losses: bool,
}

/// The findings that mean text is lost, which `--deny-losses` makes errors.
const LOSSES: [Code; 3] = [Code::SectionRemoved, Code::Shrink, Code::PreambleDropped];

/// One file checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// What to print on standard output for it (empty for a clean file in
    /// the human and github formats).
    pub output: String,
    /// Its findings that are errors.
    pub errors: usize,
    /// Its findings that are warnings.
    pub warnings: usize,
    /// Whether it fails the check: an error, or a warning when warnings are
    /// denied.
    pub failed: bool,
}

/// Validate `text` (the file `file`) and print its report in `style`.
#[must_use]
pub fn check(file: &str, text: &str, options: &ValidateOptions, style: Style) -> Checked {
    let mut report = validate(text, options);
    if style.deny_losses {
        for d in &mut report.diagnostics {
            if LOSSES.contains(&d.code) {
                d.severity = Severity::Error;
            }
        }
    }
    let count = |severity| {
        report
            .diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    };
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    let output = match style.format {
        Format::Human => human(file, text, &report, style.colour),
        Format::Json => json(file, text, &report),
        Format::Github => github(file, text, &report),
    };
    Checked {
        output,
        errors,
        warnings,
        failed: errors > 0 || (style.deny_warnings && warnings > 0),
    }
}

/// ANSI colour sequences, or nothing.
struct Paint(bool);

impl Paint {
    fn on(&self, code: &str, text: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
}

fn severity_colour(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "1;31",
        Severity::Warning => "1;33",
        Severity::Info => "1;36",
    }
}

/// rustc's layout: the finding, then the line under a gutter with a caret
/// under the range's part of it, then the help.
fn human(file: &str, text: &str, report: &Report, colour: bool) -> String {
    let paint = Paint(colour);
    let index = LineIndex::new(text);
    let file = printable(file);
    let mut out = String::new();
    for d in &report.diagnostics {
        let range = d.span.map(|span| index.range(span));
        let place = match range {
            Some(r) => format!("{file}:{}:{}:", r.start.line, r.start.column),
            None => format!("{file}:"),
        };
        let severity = paint.on(severity_colour(d.severity), d.severity.as_str());
        let _ = writeln!(
            out,
            "{} {severity} {}: {}",
            paint.on("1", &place),
            paint.on("1", d.code.as_str()),
            printable(&d.message)
        );
        let gutter_width = range.map_or(1, |r| r.start.line.to_string().len());
        let bar = paint.on("1;34", "|");
        if let (Some(span), Some(r)) = (d.span, range) {
            let (line, before, under) = caret_parts(text, span.start, span.end);
            let number = paint.on("1;34", &r.start.line.to_string());
            let _ = writeln!(out, " {number} {bar} {}", printable(line));
            let caret = paint.on(severity_colour(d.severity), &"^".repeat(under));
            let _ = writeln!(out, " {:gutter_width$} {bar} {before}{caret}", "");
        }
        if let Some(help) = &d.help {
            let _ = writeln!(out, " {:gutter_width$} = help: {}", "", printable(help));
        }
    }
    out
}

/// The line that holds byte `start`, the white space that puts a caret
/// under `start` (a tab where the line has one, a space per other
/// character), and how many carets mark the range on that line (at least
/// one).
fn caret_parts(text: &str, start: usize, end: usize) -> (&str, String, usize) {
    let start = floor_boundary(text, start);
    let breaks = ['\n', '\r'];
    let line_start = text[..start].rfind(breaks).map_or(0, |at| at + 1);
    let line_end = text[start..]
        .find(breaks)
        .map_or(text.len(), |at| start + at);
    let line = &text[line_start..line_end];
    let before = text[line_start..start]
        .chars()
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let end = floor_boundary(text, end.clamp(start, line_end));
    (line, before, text[start..end].chars().count().max(1))
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// `{"file", "ok", "usage", "diagnostics"}` on one line, the diagnostics as
/// the API's `Diagnostic` (docs/API.md).
fn json(file: &str, text: &str, report: &Report) -> String {
    let index = LineIndex::new(text);
    let diagnostics: Vec<String> = report
        .diagnostics
        .iter()
        .map(|d| diagnostic_json(d, &index))
        .collect();
    let usage = &report.usage;
    let usage = object(96, |o| {
        o.number("chars", usage.chars)
            .number("utf8Bytes", usage.utf8_bytes)
            .number("soft", usage.soft)
            .number("hard", usage.hard)
            .string("level", usage.level.as_str());
    });
    let mut line = object(256, |o| {
        o.string("file", file)
            .json("ok", if report.ok { "true" } else { "false" })
            .json("usage", &usage)
            .json("diagnostics", &format!("[{}]", diagnostics.join(",")));
    });
    line.push('\n');
    line
}

fn diagnostic_json(d: &Diagnostic, index: &LineIndex<'_>) -> String {
    object(256, |o: &mut Object<'_>| {
        o.string("code", d.code.as_str())
            .string("severity", d.severity.as_str())
            .string("message", &d.message)
            .optional_string("help", d.help.as_deref());
        match d.span.map(|span| index.range(span)) {
            Some(r) => o.json("range", &range_json(r)),
            None => o.json("range", "null"),
        };
    })
}

fn range_json(r: Range) -> String {
    let position = |p: memdoc::Position| {
        object(48, |o| {
            o.number("line", p.line)
                .number("column", p.column)
                .number("offset", p.offset);
        })
    };
    object(112, |o| {
        o.json("start", &position(r.start))
            .json("end", &position(r.end));
    })
}

/// `::error file=F,line=L,col=C,endLine=…,endColumn=…,title=CODE::message`,
/// escaped as the runner reads them (`%`, CR and LF everywhere, `:` and `,`
/// in properties too); the help is the message's second line.
fn github(file: &str, text: &str, report: &Report) -> String {
    let index = LineIndex::new(text);
    let mut out = String::new();
    for d in &report.diagnostics {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let _ = write!(out, "::{command} file={}", property(file));
        if let Some(r) = d.span.map(|span| index.range(span)) {
            let _ = write!(
                out,
                ",line={},col={},endLine={},endColumn={}",
                r.start.line, r.start.column, r.end.line, r.end.column
            );
        }
        let mut message = d.message.clone();
        if let Some(help) = &d.help {
            let _ = write!(message, "\nhelp: {help}");
        }
        let _ = writeln!(
            out,
            ",title={}::{}",
            property(d.code.as_str()),
            data(&message)
        );
    }
    out
}

fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}
