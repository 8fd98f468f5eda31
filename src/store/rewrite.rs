//! The rewrite step for a document over the hard limit (docs/FORMAT.md §10): the
//! prompt the callback receives, the size it is asked to reach, and the
//! guard that decides whether its reply may be stored. The reply is planned
//! like any other save; it is accepted only if that plan is `saved`, the
//! result is non-empty, not a sentinel, and smaller than what was sent.

use crate::{is_sentinel, Limits, SavePlan, SaveStatus, Scope};

/// The size the rewrite is asked to reach: the soft limit, and never more
/// than 90% of the hard limit, so a reply that overshoots its target a
/// little still fits.
#[must_use]
pub fn rewrite_target(limits: Limits) -> usize {
    limits.soft.min(limits.hard - limits.hard / 10).max(1)
}

/// The format rule, first in the rewrite prompt and in [`writing_rules`].
const FORMAT_RULE: &str = "- Keep the format: `## Section` headings, and every entry on one line as `- YYYY-MM-DD: text`, with its original date.\n";

/// The rule of a team memory, in the rewrite prompt and in [`writing_rules`].
const fn team_rule(scope: Scope) -> &'static str {
    match scope {
        Scope::User => "",
        Scope::Team => {
            "- This memory is shared by a team: do not add personal sections such as Preferences or Personal Notes.\n"
        }
    }
}

/// The rules for a model that writes a whole memory document (an agent's
/// save tool, for example): the rewrite prompt's format and team rules, and
/// the limits, as a Markdown list ending with a newline.
///
/// ```
/// use memdoc::{store::writing_rules, Limits, Scope};
/// let rules = writing_rules(Scope::Team, Limits::default());
/// assert!(rules.contains("`- YYYY-MM-DD: text`"));
/// assert!(rules.contains("25000"));
/// assert!(rules.contains("personal sections"));
/// ```
#[must_use]
pub fn writing_rules(scope: Scope, limits: Limits) -> String {
    format!(
        "{FORMAT_RULE}\
         - The whole document is at most {hard} characters; a longer one is rejected. Past {soft} characters it is flagged as too long: keep it shorter.\n\
         {team_rule}",
        hard = limits.hard,
        soft = limits.soft,
        team_rule = team_rule(scope),
    )
}

/// The instructions sent to the rewrite callback, ending with `content`.
#[must_use]
pub fn rewrite_prompt(
    content: &str,
    chars: usize,
    target: usize,
    limits: Limits,
    scope: Scope,
) -> String {
    let whose = match scope {
        Scope::User => "a user's private memory",
        Scope::Team => "a team's shared memory",
    };
    format!(
        "The Markdown document below is {whose}, kept by an AI assistant. It is {chars} characters long, \
         over its hard limit of {hard}. Rewrite it so that it is at most {target} characters.\n\
         \n\
         How to rewrite it:\n\
         {FORMAT_RULE}\
         - Keep what stays true over time. Merge entries that say the same thing, drop entries that later ones replaced or that are out of date, and say the rest in fewer words. Do not add anything new.\n\
         - When something has to go, keep decisions and conventions first, then facts, then current priorities and short-lived status.\n\
         - Keep the section headings, except for sections that end up empty.\n\
         {team_rule}\
         - Answer with the rewritten document and nothing else: no introduction, no explanation, no code fence.\n\
         \n\
         The document:\n\
         \n\
         {content}",
        hard = limits.hard,
        team_rule = team_rule(scope),
    )
}

/// Why a rewrite reply cannot be stored, or `None` when it can.
/// `plan` is the reply's save plan; `original_chars` the size that was sent.
#[must_use]
pub(crate) fn refusal(reply: &str, plan: &SavePlan, original_chars: usize) -> Option<String> {
    if is_sentinel(reply) {
        return Some("the reply was a no-op sentinel".to_owned());
    }
    if plan.status != SaveStatus::Saved {
        let codes: Vec<&str> = plan
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code.as_str())
            .collect();
        return Some(format!("the reply was rejected ({})", codes.join(", ")));
    }
    if plan.content.is_empty() {
        return Some("the reply was empty".to_owned());
    }
    if plan.usage.chars >= original_chars {
        return Some(format!(
            "the reply ({} characters) was not smaller",
            plan.usage.chars
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_leaves_a_margin_below_the_hard_limit() {
        assert_eq!(rewrite_target(Limits::default()), 18_000);
        assert_eq!(
            rewrite_target(Limits {
                soft: 100,
                hard: 100
            }),
            90
        );
        assert_eq!(rewrite_target(Limits { soft: 1, hard: 1 }), 1);
    }

    #[test]
    fn the_prompt_states_the_numbers_and_ends_with_the_document() {
        let p = rewrite_prompt(
            "## A\n- 2025-01-01: x",
            30,
            18,
            Limits { soft: 18, hard: 20 },
            Scope::Team,
        );
        assert!(p.contains("30 characters"), "{p}");
        assert!(p.contains("at most 18 characters"), "{p}");
        assert!(p.contains("hard limit of 20"), "{p}");
        assert!(p.contains("personal sections"), "{p}");
        assert!(p.ends_with("## A\n- 2025-01-01: x"), "{p}");
        let decisions = p.find("decisions and conventions").unwrap_or(usize::MAX);
        let facts = p.find("then facts").unwrap_or(0);
        assert!(decisions < facts, "should rank decisions before facts");
    }
}
