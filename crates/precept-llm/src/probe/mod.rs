//! Probing a chatbot (issue 15): questions whose right answers the solver
//! proved, asked of a chatbot under test, every answer verified against
//! the model, follow-ups on what the answers commit to, and a report of
//! where the chatbot goes wrong, rule by rule (HalluVault's metamorphic
//! questions, RvLLM's follow-up queries).
//!
//! - `question`: source cases from test generation, each with its proved
//!   expected answer (yes, no, a value, or "it depends on …")
//! - `wording`: the templated English of a question, its variants and a
//!   follow-up
//! - `verbalize`: the translator LLM's wording and the round trip that
//!   keeps only faithful questions
//! - `variants`: the metamorphic variants (negated, an irrelevant fact
//!   added, a paraphrase)
//! - `chatbot`: the chatbot under test (a profile, a system prompt)
//! - `verdict`: what an answer commits to and its verdict
//! - `follow_up`: a consequence the answer commits to but did not state
//! - `rates`: Wilson intervals and the breakdowns by rule and by kind
//! - `report`: the plain-data report
//! - `run`: the whole run, concurrent, with progress events

pub mod chatbot;
pub mod follow_up;
pub mod question;
pub mod rates;
pub mod report;
pub mod run;
pub mod variants;
pub mod verbalize;
pub mod verdict;
pub mod wording;

use serde::Serialize;

/// What a question probes: the breakdown of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProbeKind {
    /// One rule applies, or does not, or one enum value.
    SingleRule,
    /// Several rules in a row (transitive chains, composites).
    Chain,
    /// The claim of a proved question, negated (INVALID by construction).
    Negation,
    /// A compared value just below, at or above its threshold.
    Boundary,
    /// "How much": the exact value of a forced number.
    Numeric,
    /// A metamorphic variant of another question.
    Variant,
    /// A follow-up on what an answer committed to.
    FollowUp,
}

impl ProbeKind {
    pub const ALL: [ProbeKind; 7] = [
        ProbeKind::SingleRule,
        ProbeKind::Chain,
        ProbeKind::Negation,
        ProbeKind::Boundary,
        ProbeKind::Numeric,
        ProbeKind::Variant,
        ProbeKind::FollowUp,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ProbeKind::SingleRule => "single-rule",
            ProbeKind::Chain => "chain",
            ProbeKind::Negation => "negation",
            ProbeKind::Boundary => "boundary",
            ProbeKind::Numeric => "numeric",
            ProbeKind::Variant => "variant",
            ProbeKind::FollowUp => "follow-up",
        }
    }

    pub fn parse(text: &str) -> Option<ProbeKind> {
        let text = text.trim().to_ascii_lowercase().replace('_', "-");
        ProbeKind::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

impl std::fmt::Display for ProbeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The proved right answer to a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// The claim follows from the facts (VALID).
    Yes,
    /// The claim's opposite follows (INVALID).
    No,
    /// The facts force `variable` to `value` (SMT-LIB constant).
    Value { variable: String, value: String },
    /// The facts do not decide the claim (SATISFIABLE); these facts would.
    Depends { on: Vec<String> },
}

impl std::fmt::Display for Expected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expected::Yes => f.write_str("yes"),
            Expected::No => f.write_str("no"),
            Expected::Value { variable, value } => write!(f, "{variable} = {value}"),
            Expected::Depends { on } if on.is_empty() => f.write_str("it depends"),
            Expected::Depends { on } => write!(f, "it depends on {}", on.join(", ")),
        }
    }
}

/// The verdict on one answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// It agrees with the proved answer.
    Correct,
    /// It asserts what the model contradicts.
    Hallucination,
    /// It hedges where the policy decides, or decides where it does not.
    Incomplete,
    /// The verifier could not translate it (NO_TRANSLATIONS, ambiguous, too
    /// complex, an empty answer, a translator failure).
    Untranslatable,
    /// It disagrees with a variant's answer or with its own follow-up.
    Inconsistent,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Correct => "correct",
            Verdict::Hallucination => "hallucination",
            Verdict::Incomplete => "incomplete",
            Verdict::Untranslatable => "untranslatable",
            Verdict::Inconsistent => "inconsistent",
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
