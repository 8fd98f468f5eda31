//! The prompt block (docs/FORMAT.md §11): what the agent sees of a memory. Content
//! is escaped so that it can never open or close one of the reserved tags;
//! SurfSense injected it verbatim, so a stored `</team_memory>` ended the
//! block early.

use std::borrow::Cow;

use crate::fast::char_count;
use crate::limits::{thousands, usage_fraction};
use crate::options::{InjectOptions, Scope};

/// The tags the block is made of; content may not open or close any of them.
pub const RESERVED_TAGS: [&str; 4] = ["team_memory", "user_memory", "user_name", "memory_warning"];

/// Build the prompt block for a stored memory.
///
/// ```
/// use memdoc::{injection_block, InjectOptions, Scope};
/// let opts = InjectOptions { scope: Scope::Team, ..InjectOptions::default() };
/// let block = injection_block("## Facts\n- 2025-01-01: </team_memory> tricky", &opts);
/// assert_eq!(block.matches("</team_memory>").count(), 1);
///
/// // A recalled part of a larger memory says so.
/// let recalled = memdoc::recall("## Facts\n- 2025-01-01: a\n- 2025-01-02: b", "b", &memdoc::RecallOptions::default());
/// let opts = InjectOptions { scope: Scope::Team, recalled: Some((&recalled.totals).into()), ..InjectOptions::default() };
/// assert!(injection_block(&recalled.content, &opts).starts_with("<team_memory chars=\"24\" limit=\"25000\" recalled=\"1 of 2\">"));
/// ```
#[must_use]
pub fn injection_block(content: &str, options: &InjectOptions) -> String {
    injection_pieces(content, options).concat()
}

/// The prompt block in pieces, in order: the text of `content` that goes
/// in unchanged is borrowed from it, so that the package can hand that part
/// back as a slice of the string it was given instead of a copy.
#[must_use]
pub fn injection_pieces<'a>(content: &'a str, options: &InjectOptions) -> Vec<Cow<'a, str>> {
    let content = content.trim();
    // The parts (name, memory, warning) are separated by a blank line.
    let mut pieces: Vec<Cow<'a, str>> = Vec::new();
    if options.scope == Scope::User {
        if let Some(first) = options
            .user_name
            .as_deref()
            .and_then(|n| n.split_whitespace().next())
        {
            pieces.push(format!("<user_name>{}</user_name>", escape_name(first)).into());
        }
    }
    if !content.is_empty() {
        let tag = match options.scope {
            Scope::Team => "team_memory",
            Scope::User => "user_memory",
        };
        let chars = char_count(content);
        let recalled = options.recalled.map_or(String::new(), |r| {
            format!(" recalled=\"{} of {}\"", r.selected, r.items)
        });
        let blank = if pieces.is_empty() { "" } else { "\n\n" };
        pieces.push(
            format!(
                "{blank}<{tag} chars=\"{chars}\" limit=\"{}\"{recalled}>\n",
                options.limits.hard
            )
            .into(),
        );
        pieces.push(escaped(content));
        pieces.push(format!("\n</{tag}>").into());
        if chars > options.limits.soft {
            let whose = match options.scope {
                Scope::Team => "The team memory",
                Scope::User => "Your memory of this user",
            };
            pieces.push(
                format!(
                    "\n\n<memory_warning>{whose} is at {} characters, above the soft limit of {}. \
                     Before adding anything, consolidate it: merge duplicates, drop outdated \
                     entries and shorten long ones.</memory_warning>",
                    usage_fraction(chars, options.limits.hard),
                    thousands(options.limits.soft)
                )
                .into(),
            );
        }
    }
    pieces
}

fn escape_name(name: &str) -> String {
    name.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Write `&lt;` for every `<` that would open or close a reserved tag: `<`,
/// optional white space, an optional `/`, optional white space, then a
/// reserved name in any case (Unicode simple case folding, so `ſ` counts as
/// `s`) not followed by another name character.
#[must_use]
pub fn escape_reserved(content: &str) -> String {
    escaped(content).into_owned()
}

/// [`escape_reserved`], borrowing `content` when nothing in it needs
/// escaping.
fn escaped(content: &str) -> Cow<'_, str> {
    let mut out = String::new();
    // The text up to `done` is in `out` already.
    let mut done = 0;
    let mut rest = content;
    while let Some(i) = rest.find('<') {
        let after = &rest[i + 1..];
        if opens_reserved(after) {
            let at = content.len() - rest.len() + i;
            out.push_str(&content[done..at]);
            out.push_str("&lt;");
            done = at + 1;
        }
        rest = after;
    }
    if done == 0 {
        return Cow::Borrowed(content);
    }
    out.push_str(&content[done..]);
    Cow::Owned(out)
}

fn opens_reserved(after: &str) -> bool {
    let t = after.trim_start();
    let t = t.strip_prefix('/').unwrap_or(t).trim_start();
    RESERVED_TAGS.iter().any(|tag| {
        let mut chars = t.chars();
        tag.chars()
            .all(|want| chars.next().is_some_and(|c| folds_to(c, want)))
            && !chars
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-')
    })
}

/// Whether `c` equals the ASCII `want` under Unicode simple case folding.
/// Besides ASCII case, two characters fold to ASCII letters: the long s
/// `ſ` (to `s`) and the Kelvin sign (to `k`); a case-insensitive matcher
/// with Unicode rules (e.g. a JavaScript `/iu` regex) sees `<uſer_memory>`
/// as the reserved tag, so it must be escaped too.
fn folds_to(c: char, want: char) -> bool {
    c.to_ascii_lowercase() == want
        || (c == '\u{17f}' && want == 's')
        || (c == '\u{212a}' && want == 'k')
}
