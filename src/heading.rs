//! Heading normalization (docs/FORMAT.md §7): the one key used whenever two
//! headings are compared (scope rules, diffs, duplicates, merges).

#[cfg(not(target_arch = "wasm32"))]
use unicode_normalization::UnicodeNormalization;

/// Normalize a heading title for comparison.
///
/// Compatibility forms are folded first (NFKC), so a full-width
/// `Ｐｒｅｆｅｒｅｎｃｅｓ` cannot slip past the team-scope rule the way it did
/// in SurfSense; then the title is lower-cased, every alphanumeric character
/// is kept, each run of anything else becomes one space, and the result is
/// trimmed.
///
/// ```
/// assert_eq!(memdoc::normalize_heading("Personal_Notes!"), "personal notes");
/// assert_eq!(memdoc::normalize_heading("Team Goals (Q3)"), "team goals q3");
/// assert_eq!(memdoc::normalize_heading("Ｐｒｅｆｅｒｅｎｃｅｓ"), "preferences");
/// assert_eq!(memdoc::normalize_heading("🎯🚀"), "");
/// ```
#[must_use]
pub fn normalize_heading(title: &str) -> String {
    // ASCII is already in NFKC; skipping the fold keeps validation of
    // documents with very many headings cheap.
    let lower = if title.is_ascii() {
        title.to_ascii_lowercase()
    } else {
        compat_fold(title).to_lowercase()
    };
    let mut out = String::with_capacity(lower.len());
    let mut gap = false;
    for c in lower.chars() {
        if c.is_alphanumeric() {
            if gap && !out.is_empty() {
                out.push(' ');
            }
            gap = false;
            out.push(c);
        } else {
            gap = true;
        }
    }
    out
}

/// The key two section titles are told apart by (duplicate headings, the
/// sections a merge pairs up, the sections compaction joins): the
/// normalized title, or, for a title made only of symbols (which normalizes
/// to nothing), its exact text.
pub(crate) fn section_key(title: &str) -> String {
    let key = normalize_heading(title);
    if key.is_empty() {
        title.to_owned()
    } else {
        key
    }
}

/// NFKC. Native builds carry the Unicode tables (the `unicode-normalization`
/// crate).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn compat_fold(title: &str) -> String {
    title.nfkc().collect()
}

/// NFKC. In WebAssembly the tables would be a third of the module, and every
/// JavaScript host already has them (`String.prototype.normalize`), so the
/// boundary installs the host's NFKC when the module starts. Until then (no
/// boundary at all), titles are compared unfolded.
#[cfg(target_arch = "wasm32")]
pub(crate) fn compat_fold(title: &str) -> String {
    match COMPAT_FOLD.get() {
        Some(fold) => fold(title),
        None => title.to_owned(),
    }
}

#[cfg(target_arch = "wasm32")]
static COMPAT_FOLD: std::sync::OnceLock<fn(&str) -> String> = std::sync::OnceLock::new();

/// Install the host's NFKC (WebAssembly only; the boundary calls this once
/// at start). Later calls are ignored.
#[cfg(target_arch = "wasm32")]
pub(crate) fn install_compat_fold(fold: fn(&str) -> String) {
    let _ = COMPAT_FOLD.set(fold);
}
