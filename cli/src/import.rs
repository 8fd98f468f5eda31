//! `memdoc import --from KIND`: memories kept in other tools' formats, as
//! a memory document, and every part that has no place in one, reported
//! (docs/CLI.md, "memdoc import"). Each importer reads the texts the front
//! end read (with their file names) and writes headings and entries;
//! entries without a date of their own are dated `today`. The result is
//! then added to a memory like an agent's proposal ([`super::hook`]).
//!
//! - `mcp-memory`: the official MCP memory server's `memory.jsonl`: an
//!   entity is a section (`name (entityType)`), each observation an entry;
//!   a relation is an entry `from relationType to` in its `from` entity's
//!   section.
//! - `claude-md`: a Claude Code `MEMORY.md` and its topic files: headings
//!   are sections (a file's lines before its first heading go under a
//!   section named for the file), list items entries, other lines notes of
//!   their section; an index line that only links to a topic file given
//!   too is left out, since that file is imported itself.
//! - `basic-memory`: Basic Memory notes: a note is a section (its
//!   front matter's `title`, its `#` title or its file name), each
//!   observation `- [category] text` an entry, each relation
//!   `- relation_type [[Target]]` an entry; other lines are notes.
//! - `mem0`: mem0's JSON export (a list of memories, or an object whose
//!   `results` or `memories` is one): each `memory` an entry dated by its
//!   `created_at`, in a section for its first category (`Memories` when it
//!   has none).

use std::fmt::Write as _;

use memdoc::store::json::{from_json, Value};

use super::hub::text;
use super::{exit, printable, Outcome};

/// The importers' names, for `--from`.
pub const KINDS: [&str; 4] = ["mcp-memory", "claude-md", "basic-memory", "mem0"];

/// An import: the memory document and what could not be mapped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imported {
    /// The memory document.
    pub content: String,
    /// One line per part that was not imported: `FILE:LINE: what`.
    pub unmapped: Vec<String>,
}

/// The import of `files` (`(name, text)`) as `kind`.
///
/// # Errors
///
/// The usage failure of a kind that is not one of [`KINDS`].
pub fn import(kind: &str, files: &[(&str, &str)], today: &str) -> Result<Imported, Outcome> {
    if !KINDS.contains(&kind) {
        return Err(Outcome::failing(
            &format!(
                "--from {}: import from {}",
                printable(kind),
                KINDS.join(", ")
            ),
            exit::USAGE,
        ));
    }
    let mut doc = Doc::new(today);
    for &(name, text) in files {
        match kind {
            "mcp-memory" => mcp_memory(&mut doc, name, text),
            "claude-md" => claude_md(&mut doc, name, text, files),
            "basic-memory" => basic_memory(&mut doc, name, text),
            _ => mem0(&mut doc, name, text),
        }
    }
    Ok(doc.done())
}

/// What `memdoc import` reports before the save: each part not imported,
/// and the totals.
#[must_use]
pub fn report(imported: &Imported) -> String {
    let mut out = String::new();
    for part in &imported.unmapped {
        let _ = writeln!(out, "memdoc: import: not imported: {}", printable(part));
    }
    let doc = memdoc::parse(&imported.content);
    let entries = doc.entries().count();
    let counted =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let _ = writeln!(
        out,
        "memdoc: import: {}, {}; {} not imported",
        counted(doc.sections.len(), "section", "sections"),
        counted(entries, "entry", "entries"),
        counted(imported.unmapped.len(), "part", "parts")
    );
    out
}

/// `memdoc import` without a memory to add to, or with `--dry-run`: the
/// imported document on standard output.
#[must_use]
pub fn shown(imported: &Imported) -> Outcome {
    Outcome {
        stdout: super::file::with_final_break(imported.content.clone()),
        stderr: report(imported),
        ..Outcome::default()
    }
}

/// The document being written, by section in order of first appearance.
struct Doc<'a> {
    today: &'a str,
    sections: Vec<(String, Vec<String>)>,
    unmapped: Vec<String>,
}

impl<'a> Doc<'a> {
    fn new(today: &'a str) -> Self {
        Self {
            today,
            sections: Vec::new(),
            unmapped: Vec::new(),
        }
    }

    fn lines(&mut self, section: &str) -> &mut Vec<String> {
        let title = one_line(section);
        let at = if let Some(at) = self.sections.iter().position(|(t, _)| *t == title) {
            at
        } else {
            self.sections.push((title, Vec::new()));
            self.sections.len() - 1
        };
        &mut self.sections[at].1
    }

    /// An entry, dated `date` (a `YYYY-MM-DD` prefix of it) or today.
    fn entry(&mut self, section: &str, text: &str, date: Option<&str>) {
        let date = date
            .and_then(|d| d.get(..10))
            .filter(|d| memdoc::is_valid_date(d))
            .unwrap_or(self.today)
            .to_owned();
        let text = one_line(text);
        if text.is_empty() {
            return;
        }
        let dated = text
            .split_once(": ")
            .is_some_and(|(d, _)| memdoc::is_valid_date(d));
        let line = if dated {
            format!("- {text}")
        } else {
            format!("- {date}: {text}")
        };
        self.lines(section).push(line);
    }

    fn note(&mut self, section: &str, line: &str) {
        self.lines(section).push(line.trim_end().to_owned());
    }

    fn unmapped(&mut self, file: &str, line: usize, what: &str) {
        self.unmapped.push(format!("{file}:{line}: {what}"));
    }

    fn done(self) -> Imported {
        let mut content = String::new();
        for (title, lines) in &self.sections {
            let _ = writeln!(content, "## {title}");
            for line in lines {
                let _ = writeln!(content, "{line}");
            }
            content.push('\n');
        }
        Imported {
            content: memdoc::render(&content),
            unmapped: self.unmapped,
        }
    }
}

/// `text` on one line, its whitespace runs as one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A short quote of `text` for a report.
fn short(text: &str) -> String {
    let line = one_line(text);
    match line.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line,
    }
}

fn mcp_memory(doc: &mut Doc<'_>, file: &str, text: &str) {
    // The entity names first: a relation may come before its entity.
    let mut titles: Vec<(String, String)> = Vec::new();
    let cleaned: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(k, l)| (k + 1, numbers_as_zero(l)))
        .collect();
    let lines: Vec<(usize, Option<Value<'_>>)> = cleaned
        .iter()
        .map(|(k, l)| (*k, from_json(l).ok()))
        .collect();
    for (_, value) in &lines {
        let Some(value) = value else { continue };
        if let (Some("entity"), Some(name)) = (text_of(value, "type"), text_of(value, "name")) {
            let title = match text_of(value, "entityType") {
                Some(kind) if !kind.trim().is_empty() => {
                    format!("{} ({})", one_line(name), one_line(kind))
                }
                _ => one_line(name),
            };
            titles.push((name.to_owned(), title));
        }
    }
    let title_of = |name: &str| {
        titles
            .iter()
            .find(|(n, _)| n == name)
            .map_or_else(|| one_line(name), |(_, t)| t.clone())
    };
    for (line, value) in &lines {
        let Some(value) = value else {
            doc.unmapped(file, *line, "not a JSON object");
            continue;
        };
        match text_of(value, "type") {
            Some("entity") => {
                let Some(name) = text_of(value, "name") else {
                    doc.unmapped(file, *line, "an entity without a name");
                    continue;
                };
                let title = title_of(name);
                doc.lines(&title);
                for observation in list_of(value, "observations") {
                    match observation {
                        Value::Str(o) => doc.entry(&title, o, None),
                        _ => doc.unmapped(file, *line, "an observation that is not text"),
                    }
                }
                for key in keys(value) {
                    if !["type", "name", "entityType", "observations"].contains(&key) {
                        doc.unmapped(file, *line, &format!("the field {key} of {}", short(name)));
                    }
                }
            }
            Some("relation") => match (
                text_of(value, "from"),
                text_of(value, "relationType"),
                text_of(value, "to"),
            ) {
                (Some(from), Some(relation), Some(to)) => doc.entry(
                    &title_of(from),
                    &format!(
                        "{} {} {}",
                        one_line(from),
                        relation.replace('_', " "),
                        one_line(to)
                    ),
                    None,
                ),
                _ => doc.unmapped(file, *line, "a relation without from, relationType and to"),
            },
            Some(other) => doc.unmapped(file, *line, &format!("a record of type {}", short(other))),
            None => doc.unmapped(file, *line, "a record without a type"),
        }
    }
}

fn claude_md(doc: &mut Doc<'_>, file: &str, text: &str, files: &[(&str, &str)]) {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let mut section = title_of_file(base);
    let mut fence: Option<&str> = None;
    for (k, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(open) = fence {
            doc.note(&section, raw);
            if line.starts_with(open) {
                fence = None;
            }
            continue;
        }
        if line.starts_with("```") || line.starts_with("~~~") {
            fence = Some(&line[..3]);
            doc.note(&section, raw);
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let hashes = line.len() - line.trim_start_matches('#').len();
        if hashes > 0 && line[hashes..].starts_with(' ') {
            if hashes <= 3 {
                section = one_line(&line[hashes..]);
                doc.lines(&section);
            } else {
                doc.unmapped(
                    file,
                    k + 1,
                    &format!("a heading below level 3: {}", short(line)),
                );
            }
            continue;
        }
        let item = line
            .strip_prefix("- ")
            .or_else(|| line.strip_prefix("* "))
            .or_else(|| numbered(line));
        match item {
            Some(item) if links_only_to(item, files) => {
                doc.unmapped(
                    file,
                    k + 1,
                    &format!("an index line, its file imported itself: {}", short(item)),
                );
            }
            Some(item) => doc.entry(&section, item, None),
            None => doc.note(&section, line),
        }
    }
}

/// `1. text` → `text`.
fn numbered(line: &str) -> Option<&str> {
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    (digits > 0)
        .then(|| line[digits..].strip_prefix(". "))
        .flatten()
}

/// Whether `item` is a link (`[text](file.md)`, with an optional ` — …`
/// after it) to one of the files being imported.
fn links_only_to(item: &str, files: &[(&str, &str)]) -> bool {
    let Some(rest) = item.strip_prefix('[') else {
        return false;
    };
    let Some((_, rest)) = rest.split_once("](") else {
        return false;
    };
    let Some((target, _)) = rest.split_once(')') else {
        return false;
    };
    files.iter().any(|(name, _)| {
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        target == base || target.ends_with(&format!("/{base}"))
    })
}

/// `debugging-notes.md` → `Debugging notes`.
fn title_of_file(base: &str) -> String {
    let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
    let words = stem.replace(['-', '_'], " ");
    let mut chars = words.trim().chars();
    chars.next().map_or_else(
        || "Memory".to_owned(),
        |first| first.to_uppercase().chain(chars).collect(),
    )
}

fn basic_memory(doc: &mut Doc<'_>, file: &str, text: &str) {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let mut lines = text.lines().enumerate().peekable();
    let mut title = None;
    // Front matter: its title names the section; its other fields are
    // reported.
    if lines.peek().is_some_and(|(_, l)| l.trim() == "---") {
        lines.next();
        for (k, line) in lines.by_ref() {
            if line.trim() == "---" {
                break;
            }
            match line.split_once(':') {
                Some(("title", value)) => {
                    title = Some(value.trim().trim_matches(['"', '\'']).to_owned());
                }
                Some((key, _)) if !key.starts_with([' ', '-']) => {
                    doc.unmapped(file, k + 1, &format!("the front matter's {}", key.trim()));
                }
                _ => {}
            }
        }
    }
    let mut section = title.unwrap_or_else(|| title_of_file(base));
    let mut titled = false;
    for (_, raw) in lines {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(heading) = line.strip_prefix("# ") {
            if !titled {
                section = one_line(heading);
                titled = true;
            }
            continue;
        }
        if line.starts_with("## ") {
            // `## Observations`, `## Relations`: the note's own parts.
            continue;
        }
        // Observations (`[category] text`), relations (`type [[Target]]`)
        // and any other item: entries.
        match line.strip_prefix("- ") {
            Some(item) => doc.entry(&section, item, None),
            None => doc.note(&section, line),
        }
    }
}

fn mem0(doc: &mut Doc<'_>, file: &str, text: &str) {
    let cleaned = numbers_as_zero(text);
    let value = match from_json(cleaned.trim()) {
        Ok(v) => v,
        Err(error) => {
            doc.unmapped(file, 1, &format!("not JSON: {error}"));
            return;
        }
    };
    let items = match &value {
        Value::Array(items) => items.as_slice(),
        Value::Object(_) => match (field_of(&value, "results"), field_of(&value, "memories")) {
            (Some(Value::Array(items)), _) | (_, Some(Value::Array(items))) => items.as_slice(),
            _ => {
                doc.unmapped(file, 1, "no list of memories (results or memories)");
                return;
            }
        },
        _ => {
            doc.unmapped(file, 1, "no list of memories");
            return;
        }
    };
    let mut other_fields: Vec<String> = Vec::new();
    for (k, item) in items.iter().enumerate() {
        let Some(memory) = text_of(item, "memory") else {
            doc.unmapped(file, 1, &format!("memory {} has no text (memory)", k + 1));
            continue;
        };
        let section = match field_of(item, "categories") {
            Some(Value::Array(c)) => match c.first() {
                Some(Value::Str(c)) => title_of_file(c),
                _ => "Memories".to_owned(),
            },
            _ => "Memories".to_owned(),
        };
        doc.entry(&section, memory, text_of(item, "created_at"));
        for key in keys(item) {
            let kept = ["memory", "categories", "created_at", "id", "hash"].contains(&key);
            if !kept && !other_fields.iter().any(|f| f == key) {
                other_fields.push(key.to_owned());
            }
        }
    }
    if !other_fields.is_empty() {
        doc.unmapped(
            file,
            1,
            &format!("the fields {} of its memories", other_fields.join(", ")),
        );
    }
}

fn field_of<'v, 't>(value: &'v Value<'t>, name: &str) -> Option<&'v Value<'t>> {
    match value {
        Value::Object(fields) => fields.iter().find(|(k, _)| k == name).map(|(_, v)| v),
        _ => None,
    }
}

fn text_of<'v>(value: &'v Value<'_>, name: &str) -> Option<&'v str> {
    text(value, name)
}

fn list_of<'v, 't>(value: &'v Value<'t>, name: &str) -> &'v [Value<'t>] {
    match field_of(value, name) {
        Some(Value::Array(items)) => items,
        _ => &[],
    }
}

fn keys<'v>(value: &'v Value<'_>) -> Vec<&'v str> {
    match value {
        Value::Object(fields) => fields.iter().map(|(k, _)| k.as_ref()).collect(),
        _ => Vec::new(),
    }
}

/// `text` with every JSON number that has a fraction or an exponent
/// outside strings written as `0`: no importer keeps a number, and the
/// crate's JSON reader takes whole numbers only.
fn numbers_as_zero(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        if c == '"' {
            in_string = true;
            out.push(c);
        } else if c == '-' || c.is_ascii_digit() {
            let mut number = String::from(c);
            while let Some(&n) = chars.peek() {
                if n.is_ascii_digit() || matches!(n, '.' | 'e' | 'E' | '+' | '-') {
                    number.push(n);
                    chars.next();
                } else {
                    break;
                }
            }
            if number.contains(['.', 'e', 'E']) {
                out.push('0');
            } else {
                out.push_str(&number);
            }
        } else {
            out.push(c);
        }
    }
    out
}
