//! A save over the hard limit: ask the rewrite callback for a shorter
//! document (its prompt, target and guard are in `rewrite`), and failing
//! that, when the options ask for it, compact the document deterministically.
//! Either result is planned like any save; when neither saves, the first
//! rejection stands and nothing is written.

use crate::{
    compact, is_valid_date, plan_save, Code, CompactOptions, SaveOptions, SavePlan, SaveStatus,
    Severity, ValidateOptions,
};

use super::host::{Host, Rewrite, RewriteRequest};
use super::record::ArchivedEntry;
use super::rewrite::{self, rewrite_prompt, rewrite_target};
use super::{clock, MemoryRef, MemoryStore};

impl<H: Host, R: Rewrite> MemoryStore<H, R> {
    /// Plan the save, and over the hard limit try the rewrite callback.
    pub(super) async fn plan(
        &self,
        r: &MemoryRef,
        updated: &str,
        current: &str,
        allow_erase: bool,
    ) -> Planned {
        let options = SaveOptions {
            validate: ValidateOptions {
                scope: r.scope(),
                previous: Some(current.to_owned()),
                limits: self.options.limits,
                forbidden_team_headings: self.options.forbidden_team_headings.clone(),
            },
            allow_erase,
        };
        let plan = plan_save(updated, &options);
        let first = Planned {
            plan,
            source: updated.to_owned(),
            notice: None,
            extra_codes: Vec::new(),
            archived: Vec::new(),
        };
        if only_over_the_hard_limit(&first.plan) {
            self.fit(r, &options, first).await
        } else {
            first
        }
    }

    /// A document over the hard limit: ask the rewrite callback for a
    /// shorter one and plan its reply; failing that, and only when the
    /// `compact_over_limit` option asks for it, compact it deterministically.
    /// `first` (the rejection) stands when neither produces a document that
    /// saves.
    async fn fit(&self, r: &MemoryRef, options: &SaveOptions, first: Planned) -> Planned {
        let content = first.plan.proposed.clone();
        let limits = self.options.limits;
        let chars = first.plan.usage.chars;
        let target = rewrite_target(limits);
        let over = format!(
            "The update is {chars} characters, over the hard limit of {}",
            limits.hard
        );
        let rewrite_note = match &self.rewrite {
            None => None,
            Some(rewrite) => {
                let request = RewriteRequest {
                    prompt: rewrite_prompt(&content, chars, target, limits, r.scope()),
                    content: content.clone(),
                    target,
                };
                match rewrite.rewrite(request).await {
                    Err(_) => Some("the rewrite failed".to_owned()),
                    Ok(reply) => {
                        let second = plan_save(&reply, options);
                        match rewrite::refusal(&reply, &second, chars) {
                            Some(why) => Some(format!("the rewrite was refused because {why}")),
                            None => {
                                return Planned {
                                    notice: Some(format!(
                                        "{over}; it was rewritten to {} characters to fit.",
                                        second.usage.chars
                                    )),
                                    plan: second,
                                    source: reply,
                                    extra_codes: vec![Code::SizeHardLimit.as_str().to_owned()],
                                    archived: Vec::new(),
                                };
                            }
                        }
                    }
                }
            }
        };
        if self.options.compact_over_limit {
            if let Some(compacted) = self.compact_to_fit(r, &content, options, target, &over) {
                return compacted;
            }
        }
        let notice = match rewrite_note {
            Some(note) => format!("{over}; {note}, so nothing was saved."),
            None if self.options.compact_over_limit => {
                format!(
                    "{over}; compaction could not bring it under the limit, so nothing was saved."
                )
            }
            None => return first,
        };
        Planned {
            notice: Some(notice),
            ..first
        }
    }

    /// Deterministic compaction of an over-limit document to `target`: the
    /// result is planned like any save, and every entry it removed goes into
    /// the audit trail of the revision it creates.
    fn compact_to_fit(
        &self,
        r: &MemoryRef,
        content: &str,
        options: &SaveOptions,
        target: usize,
        over: &str,
    ) -> Option<Planned> {
        let now = clock::now(&self.options);
        let today = now
            .get(..10)
            .filter(|d| is_valid_date(d))
            .map(str::to_owned);
        let compaction = compact(
            content,
            &CompactOptions {
                scope: r.scope(),
                target,
                today,
            },
        );
        if !compaction.fits {
            return None;
        }
        let plan = plan_save(&compaction.content, options);
        if plan.status != SaveStatus::Saved {
            return None;
        }
        let archived: Vec<ArchivedEntry> = compaction
            .removed
            .iter()
            .map(|e| ArchivedEntry {
                section: e.section.clone(),
                date: e.date.clone(),
                text: e.text.clone(),
            })
            .collect();
        Some(Planned {
            notice: Some(format!(
                "{over}; it was compacted to {} characters by merging {} repeated section(s) and removing {} entries, which are archived in this revision's history.",
                plan.usage.chars,
                compaction.merged.len(),
                archived.len()
            )),
            plan,
            source: compaction.content,
            extra_codes: vec![Code::SizeHardLimit.as_str().to_owned()],
            archived,
        })
    }
}

/// A planned save and what the store adds to it.
pub(super) struct Planned {
    /// The plan of the document that is to be saved (or was rejected).
    pub(super) plan: SavePlan,
    /// The text the plan's diagnostics point into.
    pub(super) source: String,
    /// What the caller is told: a rewrite, a compaction, why neither helped.
    pub(super) notice: Option<String>,
    /// Codes the audit entry records beyond the plan's own.
    pub(super) extra_codes: Vec<String>,
    /// Entries compaction removed, for the audit trail.
    pub(super) archived: Vec<ArchivedEntry>,
}

fn only_over_the_hard_limit(plan: &SavePlan) -> bool {
    let mut errors = plan
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error);
    plan.status == SaveStatus::Rejected
        && errors.all(|d| d.code == Code::SizeHardLimit)
        && plan
            .diagnostics
            .iter()
            .any(|d| d.code == Code::SizeHardLimit)
}
