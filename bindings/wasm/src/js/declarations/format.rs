//! ts-rs's declarations laid out as the package's `.d.ts` is written: an
//! exported `interface` per object type, one field per line with its doc
//! comment, `T[]` for arrays, and Rust's intra-doc links as plain code.

use std::fmt::Write as _;

/// `type Name = …;` from [`ts_rs::TS::decl`] with its doc comment, exported:
/// an object type as an interface, anything else (a union) as a type.
pub fn declaration(decl: &str, docs: Option<&str>) -> String {
    let decl = decl.trim();
    let body = decl
        .strip_prefix("type ")
        .and_then(|d| d.strip_suffix(';'))
        .unwrap_or_else(|| panic!("a ts-rs declaration should be `type …;`: {decl}"));
    let (name, ty) = body
        .split_once(" = ")
        .unwrap_or_else(|| panic!("a ts-rs declaration should have ` = `: {decl}"));
    let mut out = docs
        .map(|d| comment(&first_paragraph(&doc_lines(d)), ""))
        .unwrap_or_default();
    match object_body(ty) {
        Some(fields) => {
            let _ = write!(out, "export interface {name} ");
            out.push_str(&interface_body(&fields, ""));
        }
        None => {
            let _ = write!(out, "export type {name} = {};", type_text(ty, ""));
        }
    }
    out.push('\n');
    out
}

/// `{ … }` with one field a line.
pub fn interface_body(fields: &[Field], indent: &str) -> String {
    let inner = format!("{indent}  ");
    let mut out = String::from("{\n");
    for f in fields {
        out.push_str(&comment(&f.docs, &inner));
        let _ = writeln!(out, "{inner}{}: {};", f.name, type_text(&f.ty, &inner));
    }
    out.push_str(indent);
    out.push('}');
    out
}

/// One field of an object type.
#[derive(Debug, Clone)]
pub struct Field {
    /// Its doc comment's lines, without the comment markers.
    pub docs: Vec<String>,
    /// The name, with `?` when optional.
    pub name: String,
    /// The type as ts-rs wrote it.
    pub ty: String,
}

/// The fields of an object type `{ … }`, or `None` for another type.
pub fn object_body(ty: &str) -> Option<Vec<Field>> {
    let ty = ty.trim();
    if !ty.starts_with('{') || matching(ty, 0) != ty.len() - 1 {
        return None;
    }
    let mut rest = ty[1..ty.len() - 1].trim_start();
    let mut fields = Vec::new();
    let mut docs = Vec::new();
    while !rest.is_empty() {
        if let Some(comment) = rest.strip_prefix("/**") {
            let end = comment.find("*/").expect("a doc comment should end");
            docs = doc_lines(&rest[..end + 5]);
            rest = comment[end + 2..].trim_start();
            continue;
        }
        let end = top_level(rest, ',').unwrap_or(rest.len());
        let (name, field_ty) = rest[..end]
            .split_once(": ")
            .unwrap_or_else(|| panic!("a field should be `name: type`: {}", &rest[..end]));
        fields.push(Field {
            docs: std::mem::take(&mut docs),
            name: name.trim().to_owned(),
            ty: field_ty.trim().to_owned(),
        });
        rest = rest.get(end + 1..).unwrap_or("").trim_start();
    }
    Some(fields)
}

/// A type with each inline object laid out at `indent` and `Array<T>` as
/// `T[]`.
fn type_text(ty: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut at = 0;
    while at < ty.len() {
        let rest = &ty[at..];
        if rest.starts_with('{') {
            let end = at + matching(ty, at);
            let fields = object_body(&ty[at..=end]).expect("an inline object");
            out.push_str(&interface_body(&fields, indent));
            at = end + 1;
        } else if let Some(inner) = rest.strip_prefix("Array<") {
            let end = at + matching(ty, at + 5);
            let element = type_text(&inner[..end - at - 6], indent);
            if element.chars().all(|c| c.is_alphanumeric() || c == '_') {
                let _ = write!(out, "{element}[]");
            } else {
                let _ = write!(out, "({element})[]");
            }
            at = end + 1;
        } else {
            let c = rest.chars().next().expect("not at the end");
            out.push(c);
            at += c.len_utf8();
        }
    }
    out
}

/// The index of the bracket that closes the one at `open` in `text`.
fn matching(text: &str, open: usize) -> usize {
    let mut depth = 0;
    scan(&text[open..], |i, c| match c {
        '{' | '<' | '(' | '[' => {
            depth += 1;
            None
        }
        '}' | '>' | ')' | ']' => {
            depth -= 1;
            (depth == 0).then_some(open + i)
        }
        _ => None,
    })
    .unwrap_or_else(|| panic!("unbalanced brackets in {text}"))
}

/// The first `separator` of `text` outside brackets, strings and comments.
fn top_level(text: &str, separator: char) -> Option<usize> {
    let mut depth = 0i32;
    scan(text, |i, c| {
        match c {
            '{' | '<' | '(' | '[' => depth += 1,
            '}' | '>' | ')' | ']' => depth -= 1,
            c if c == separator && depth == 0 => return Some(i),
            _ => {}
        }
        None
    })
}

/// The first `Some` that `found` gives for a character of `text` outside
/// string literals and comments.
fn scan(text: &str, mut found: impl FnMut(usize, char) -> Option<usize>) -> Option<usize> {
    let (mut in_string, mut in_comment) = (false, false);
    let mut previous = ' ';
    for (i, c) in text.char_indices() {
        if in_comment {
            in_comment = !(previous == '*' && c == '/');
        } else if in_string {
            in_string = c != '"';
        } else if c == '/' && text[i + 1..].starts_with('*') {
            in_comment = true;
        } else if c == '"' {
            in_string = true;
        } else if let Some(at) = found(i, c) {
            return Some(at);
        }
        previous = c;
    }
    None
}

/// The lines of a `/** … */` comment as ts-rs writes it (` * ` before each
/// line), without the markers.
fn doc_lines(comment: &str) -> Vec<String> {
    let inner = comment
        .trim()
        .trim_start_matches("/**")
        .trim_end_matches("*/");
    let lines: Vec<String> = inner
        .lines()
        .map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix('*').unwrap_or(l);
            plain_links(l.strip_prefix(' ').unwrap_or(l).trim_end())
        })
        .collect();
    let start = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let end = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(start, |e| e + 1);
    lines[start..end].to_vec()
}

/// The lines up to the first blank one: the summary the TypeScript user
/// reads (what follows is for the Rust reader).
fn first_paragraph(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .take_while(|l| !l.is_empty())
        .cloned()
        .collect()
}

/// ``[`x`]`` and ``[`x`](path)`` (rustdoc's links) as `` `x` ``.
fn plain_links(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(open) = rest.find("[`") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        if let Some(close) = after[1..].find("`]") {
            out.push_str(&after[..close + 2]);
            rest = &after[close + 3..];
            if rest.starts_with('(') {
                rest = &rest[rest.find(')').map_or(0, |e| e + 1)..];
            }
        } else {
            out.push_str("[`");
            rest = &after[1..];
        }
    }
    out.push_str(rest);
    out
}

/// A doc comment at `indent`: one line `/** … */` when it is one line.
fn comment(lines: &[String], indent: &str) -> String {
    match lines {
        [] => String::new(),
        [line] => format!("{indent}/** {line} */\n"),
        _ => {
            let mut out = format!("{indent}/**\n");
            for line in lines {
                if line.is_empty() {
                    let _ = writeln!(out, "{indent} *");
                } else {
                    let _ = writeln!(out, "{indent} * {line}");
                }
            }
            let _ = writeln!(out, "{indent} */");
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{declaration, plain_links};

    #[test]
    fn an_object_type_becomes_an_interface_with_one_field_a_line() {
        let decl = "type A = { \n/**\n * Doc of a.\n */\na: number, b?: Array<string> | null, c: { \n/**\n * x\n */\nx: number, }, };";
        assert_eq!(
            declaration(decl, Some("/**\n * The A.\n *\n * For Rust.\n */\n")),
            "/** The A. */\nexport interface A {\n  /** Doc of a. */\n  a: number;\n  b?: string[] | null;\n  c: {\n    /** x */\n    x: number;\n  };\n}\n"
        );
    }

    #[test]
    fn a_union_stays_a_type() {
        assert_eq!(
            declaration("type L = \"a\" | \"b\";", None),
            "export type L = \"a\" | \"b\";\n"
        );
    }

    #[test]
    fn rustdoc_links_become_code() {
        assert_eq!(
            plain_links("see [`Recall`] and [`recall`](memdoc::recall), `[A-Z]`"),
            "see `Recall` and `recall`, `[A-Z]`"
        );
    }
}
