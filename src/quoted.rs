//! A text quoted in a message: `invalid memory id "a\nb": ...`, as
//! `JSON.stringify` quotes it: between double quotes, with `"`, `\` and the
//! control characters escaped (`\n`, `\t`, `\u0000`, ...), so that a message
//! stays one line whatever text it names. The store's JSON writer does the
//! writing ([`crate::store::json`]).
//!
//! Not Rust's `{:?}`, which escapes the same characters otherwise (`\0`,
//! `\u{1}`) and also the ones it finds unprintable, by tables of its own in
//! the WebAssembly module (BENCHMARKS.md, "Module size").

use std::fmt;

/// `text` quoted for a message (see the module): the engine's messages and
/// the `memdoc` command's quote alike.
#[derive(Debug, Clone, Copy)]
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::with_capacity(self.0.len() + 2);
        crate::store::json::quote(&mut out, self.0);
        f.write_str(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::Quoted;

    #[test]
    fn quotes_as_json_does() {
        assert_eq!(Quoted("plain").to_string(), "\"plain\"");
        assert_eq!(Quoted("").to_string(), "\"\"");
        assert_eq!(
            Quoted("a\"b\\c\nd\re\tf\0g\u{1}h\u{7f}").to_string(),
            "\"a\\\"b\\\\c\\nd\\re\\tf\\u0000g\\u0001h\u{7f}\""
        );
        assert_eq!(Quoted("café 記憶 😀 '").to_string(), "\"café 記憶 😀 '\"");
    }
}
