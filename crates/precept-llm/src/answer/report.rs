//! The answer verifier's result: a finding per distinct premise–claim pair,
//! the untranslated statements with their spans, the translations, and the
//! aggregate finding with feedback.
//!
//! **Per pair.** TOO_COMPLEX when the solver could not decide whether a
//! translation supports it; TRANSLATION_AMBIGUOUS when its confidence is
//! below the threshold; otherwise the solver's finding against the model.
//!
//! **Aggregate.** TOO_COMPLEX when the text or a translation is over budget;
//! NO_TRANSLATIONS when no translation produced a pair; otherwise the worst
//! pair finding in this order (TRANSLATION_AMBIGUOUS > TOO_COMPLEX
//! and NO_TRANSLATIONS > IMPOSSIBLE > INVALID > SATISFIABLE > VALID; see
//! `FindingKind::severity`). Untranslated statements next to translated
//! pairs are listed as evidence and named in the feedback, but they do not
//! change the finding: what was translated is judged on its own.

use super::confidence::{Disagreement, WrittenForm};
use super::locate::TextPart;
use super::translate::Translation;
use crate::model::verdict::verdict;
use crate::smt::english::Glossary;
use crate::solve::{Finding, FindingKind};
use serde::Serialize;

/// The result of checking one question and answer (or statement).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnswerReport {
    /// The aggregate finding.
    pub finding: FindingKind,
    pub question: String,
    pub answer: String,
    /// The number of translations.
    pub k: usize,
    /// The confidence a pair needs (a share of k).
    pub threshold: f64,
    /// Why, for an aggregate TOO_COMPLEX or NO_TRANSLATIONS.
    pub reason: Option<String>,
    /// The pair whose finding is the aggregate (an index into `pairs`).
    pub deciding_pair: Option<usize>,
    pub pairs: Vec<PairReport>,
    pub untranslated: Vec<UntranslatedSpan>,
    pub translations: Vec<Translation>,
    /// What to change, for an answer-writing LLM or a person.
    pub feedback: String,
    pub timing: Timing,
}

/// One distinct premise–claim pair.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairReport {
    pub finding: FindingKind,
    /// As first written (canonical SMT-LIB).
    pub premise: String,
    pub claim: String,
    /// The words of the text it comes from.
    pub source: String,
    /// The share of the k translations that support it.
    pub confidence: f64,
    pub supporting_translations: Vec<usize>,
    /// Every way the translations wrote it (equivalent forms merge).
    pub written_as: Vec<WrittenForm>,
    /// The solver's finding against the model: rules, scenarios, warnings.
    pub evidence: Finding,
    /// For a pair not all translations support: two differing translations
    /// and a scenario that separates them.
    pub disagreement: Option<Disagreement>,
    /// Why the confidence could not be decided (the pair is TOO_COMPLEX).
    pub undecided: Option<String>,
    pub feedback: String,
}

/// A statement the translations could not express, located in the input.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UntranslatedSpan {
    pub part: TextPart,
    /// Byte range in that part; `text` is exactly that slice.
    pub start: usize,
    pub end: usize,
    pub text: String,
    /// The translators' explanations, one per distinct reason.
    pub reasons: Vec<String>,
    /// The translations (numbers) that reported it.
    pub reported_by: Vec<usize>,
}

/// Where the time went, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Timing {
    /// From the start until the last translation arrived.
    pub translation_ms: f64,
    /// Solver work on this answer (findings, support checks, feedback
    /// conditions), summed; part of it overlaps the translations.
    pub solver_ms: f64,
    /// From the start until the report was complete.
    pub total_ms: f64,
}

impl PairReport {
    /// Whether the pair met the confidence threshold.
    pub fn is_confident(&self, threshold: f64) -> bool {
        self.confidence + 1e-9 >= threshold
    }

    /// The pair's finding in one plain sentence: the solver's verdict on its
    /// evidence, or what an ambiguous or undecided pair means.
    pub fn verdict(&self, glossary: &Glossary) -> String {
        if self.finding == self.evidence.kind {
            verdict(&self.evidence, glossary)
        } else {
            verdict(
                &Finding::new(self.finding, &self.premise, &self.claim),
                glossary,
            )
        }
    }
}

impl AnswerReport {
    /// The aggregate finding in one plain sentence: the deciding pair's, or
    /// what the finding means when no pair decides it.
    pub fn verdict(&self, glossary: &Glossary) -> String {
        match self.deciding_pair.and_then(|i| self.pairs.get(i)) {
            Some(pair) if pair.finding == self.finding => pair.verdict(glossary),
            _ => verdict(&Finding::new(self.finding, "true", "true"), glossary),
        }
    }
}

/// The finding of a pair: TOO_COMPLEX when its support is undecided,
/// TRANSLATION_AMBIGUOUS below the threshold, else the solver's finding.
pub fn pair_kind(
    undecided: bool,
    confidence: f64,
    threshold: f64,
    evidence: &Finding,
) -> FindingKind {
    if undecided {
        FindingKind::TooComplex
    } else if confidence + 1e-9 < threshold {
        FindingKind::TranslationAmbiguous
    } else {
        evidence.kind
    }
}

/// The worst pair (the first of equals) and its finding; None without pairs.
pub fn worst_pair(pairs: &[PairReport]) -> Option<(usize, FindingKind)> {
    pairs.iter().enumerate().fold(
        None,
        |worst: Option<(usize, FindingKind)>, (index, pair)| match worst {
            Some((_, kind)) if kind.severity() >= pair.finding.severity() => worst,
            _ => Some((index, pair.finding)),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(kind: FindingKind) -> PairReport {
        PairReport {
            finding: kind,
            premise: "true".into(),
            claim: "true".into(),
            source: String::new(),
            confidence: 1.0,
            supporting_translations: vec![1],
            written_as: Vec::new(),
            evidence: Finding::new(kind, "true", "true"),
            disagreement: None,
            undecided: None,
            feedback: String::new(),
        }
    }

    #[test]
    fn the_worst_pair_decides_in_the_designed_order() {
        use FindingKind::*;
        let pairs: Vec<PairReport> = [Valid, Invalid, Satisfiable, Impossible, Valid]
            .into_iter()
            .map(pair)
            .collect();
        assert_eq!(worst_pair(&pairs), Some((3, Impossible)));
        let pairs: Vec<PairReport> = [Satisfiable, TranslationAmbiguous, Impossible]
            .into_iter()
            .map(pair)
            .collect();
        assert_eq!(worst_pair(&pairs), Some((1, TranslationAmbiguous)));
        let pairs: Vec<PairReport> = [Invalid, Invalid].into_iter().map(pair).collect();
        assert_eq!(worst_pair(&pairs), Some((0, Invalid)));
        assert_eq!(worst_pair(&[]), None);
    }

    #[test]
    fn confidence_below_the_threshold_is_ambiguous() {
        let valid = Finding::new(FindingKind::Valid, "true", "x");
        assert_eq!(pair_kind(false, 1.0, 1.0, &valid), FindingKind::Valid);
        assert_eq!(
            pair_kind(false, 2.0 / 3.0, 1.0, &valid),
            FindingKind::TranslationAmbiguous
        );
        assert_eq!(
            pair_kind(false, 2.0 / 3.0, 2.0 / 3.0, &valid),
            FindingKind::Valid
        );
        assert_eq!(pair_kind(true, 1.0, 1.0, &valid), FindingKind::TooComplex);
    }
}
