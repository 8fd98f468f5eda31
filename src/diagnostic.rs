//! Findings about a document: [`Diagnostic`], [`Severity`] and the stable
//! [`Code`]s. Every code is defined here, once, and listed in [`Code::ALL`];
//! renaming one is a breaking change for every editor and test that matches it.

use crate::span::Span;

/// How much a finding matters. An error blocks a save; a warning does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "lowercase")
)]
pub enum Severity {
    /// Blocks a save.
    Error,
    /// Reported, does not block a save.
    Warning,
    /// For information only.
    Info,
}

impl Severity {
    /// `"error"`, `"warning"` or `"info"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
            Self::Info => "info",
        }
    }
}

macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $str:literal, $sev:ident;)*) => {
        /// The stable identifier of a finding (docs/FORMAT.md §9).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code {
            $($(#[$doc])* $variant,)*
        }

        impl Code {
            /// Every code, in the order of docs/FORMAT.md §9.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable string, e.g. `"scope/personal-heading"`.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $str,)*
                }
            }

            /// The severity findings with this code have.
            #[must_use]
            pub const fn severity(self) -> Severity {
                match self {
                    $(Code::$variant => Severity::$sev,)*
                }
            }

            /// The code whose string is `s`.
            #[must_use]
            pub fn from_str_opt(s: &str) -> Option<Code> {
                Code::ALL.iter().copied().find(|c| c.as_str() == s)
            }
        }
    };
}

codes! {
    /// The canonical size is over the hard limit.
    SizeHardLimit = "size/hard-limit", Error;
    /// The canonical size is over the soft limit.
    SizeSoftLimit = "size/soft-limit", Warning;
    /// The text has content but no heading and no entry.
    MissingHeading = "structure/missing-heading", Error;
    /// Team scope: a personal heading the previous document did not have.
    PersonalHeading = "scope/personal-heading", Error;
    /// Team scope: a personal heading the previous document already had.
    LegacyPersonalHeading = "scope/legacy-personal-heading", Warning;
    /// A heading of the previous document is gone.
    SectionRemoved = "diff/section-removed", Warning;
    /// The document shrank below 40% of the previous size.
    Shrink = "diff/shrink", Warning;
    /// A line starting with `- ` that is not a valid entry.
    NonstandardEntry = "entry/nonstandard", Warning;
    /// A line shaped like an entry whose `YYYY-MM-DD` date is not on the calendar.
    ImpossibleDate = "entry/impossible-date", Warning;
    /// Two sections normalize to the same title.
    DuplicateHeading = "structure/duplicate-heading", Warning;
    /// A code fence is never closed.
    UnclosedFence = "structure/unclosed-fence", Warning;
    /// Text before the first heading will not be kept.
    PreambleDropped = "structure/preamble-dropped", Warning;
    /// A save would replace a non-empty memory with an empty one.
    WouldErase = "save/would-erase", Error;
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding: a code, its severity, one sentence, optional help, and the
/// range of the input it is about (`None` for the whole document).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// One human sentence.
    pub message: String,
    /// How to fix it, when there is something to say.
    pub help: Option<String>,
    /// The byte range in the text that was passed in; `None` for the whole
    /// document.
    pub span: Option<Span>,
}

impl Diagnostic {
    /// A finding with `code`'s severity.
    #[must_use]
    pub fn new(code: Code, message: impl Into<String>, span: Option<Span>) -> Self {
        Self {
            code,
            severity: code.severity(),
            message: message.into(),
            help: None,
            span,
        }
    }

    /// The same finding with a help text.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Whether this finding blocks a save.
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Sort findings by position (whole-document findings first), then code.
pub(crate) fn sort(diagnostics: &mut Vec<Diagnostic>) {
    crate::fast::sort_by(diagnostics, &|a, b| {
        a.span
            .map(|s| (s.start, s.end))
            .cmp(&b.span.map(|s| (s.start, s.end)))
            .then(a.code.cmp(&b.code))
    });
}
