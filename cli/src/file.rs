//! A memory as a file holds it: the canonical form and one final line
//! break (a text file's last line ends like the others, as git and POSIX
//! tools expect); an empty memory is an empty file. `fmt` writes this form,
//! `fmt --check` compares a file with it, the merge driver writes it.

/// The file form of `text`: its canonical form and a final line break.
///
/// ```
/// use memdoc_cli::file::file_form;
/// assert_eq!(file_form("## A  \r\n- 2025-01-01: x"), "## A\n- 2025-01-01: x\n");
/// assert_eq!(file_form("\n\n"), "");
/// ```
#[must_use]
pub fn file_form(text: &str) -> String {
    with_final_break(memdoc::render(text))
}

/// A canonical text with its final line break (none when it is empty).
#[must_use]
pub fn with_final_break(mut canonical: String) -> String {
    if !canonical.is_empty() {
        canonical.push('\n');
    }
    canonical
}
