//! Helpers shared by the integration tests.

/// Count the opening and closing tags of `name` in `text` the way a
/// case-insensitive matcher of `<\s*/?\s*name` (Unicode white space and
/// Unicode simple case folding, not followed by another name character)
/// would, independently of `src/inject.rs`.
pub fn count_tags(text: &str, name: &str) -> (usize, usize) {
    let (mut open, mut close) = (0, 0);
    for (i, _) in text.match_indices('<') {
        let rest = text[i + 1..].trim_start();
        let (closing, rest) = match rest.strip_prefix('/') {
            Some(r) => (true, r.trim_start()),
            None => (false, rest),
        };
        let mut chars = rest.chars();
        let matches = name.chars().all(|want| {
            chars.next().is_some_and(|c| {
                let folded: String = c.to_lowercase().collect();
                folded == want.to_string()
                    || (c == 'ſ' && want == 's')
                    || (c == '\u{212a}' && want == 'k')
            })
        });
        let ends = !chars
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-');
        if matches && ends {
            if closing {
                close += 1;
            } else {
                open += 1;
            }
        }
    }
    (open, close)
}
