//! The probe's report as plain data. Its JSON (`precept probe --json`) is
//! fixed: `asked`, `discarded`, `results` (each `id`, `kind`, `question`,
//! `expected`, `answer`, `finding`, `verdict`, `rules`, `follow_ups`),
//! `rates`, `by_rule` and `by_kind`. What the JSON leaves out (the proved
//! chain, the source sentences, the request counts, timing) is here for
//! the other front ends and the Markdown report.

use super::question::ChainStep;
use super::rates::{Breakdown, Rates, breakdown};
use super::{ProbeKind, Verdict};
use serde::Serialize;
use std::collections::BTreeMap;

/// A follow-up query and its reply.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FollowUpResult {
    pub question: String,
    pub expected: String,
    pub answer: String,
    pub finding: String,
    pub verdict: Verdict,
    /// Why the verdict (the contradiction, the translation error).
    #[serde(skip)]
    pub detail: String,
}

/// One question asked and its verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProbeResult {
    pub id: String,
    pub kind: ProbeKind,
    pub question: String,
    pub expected: String,
    pub answer: String,
    /// The verifier's aggregate finding of the answer (or why it has none).
    pub finding: String,
    pub verdict: Verdict,
    pub rules: Vec<String>,
    pub follow_ups: Vec<FollowUpResult>,
    /// Why the verdict: the contradicting rules, the variant it disagrees
    /// with, the translation error.
    #[serde(skip)]
    pub detail: String,
    /// The proved chain of the right answer.
    #[serde(skip)]
    pub chain: Vec<ChainStep>,
    /// The document sentences of the rules involved.
    #[serde(skip)]
    pub sources: Vec<String>,
}

/// Requests sent to one profile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestCount {
    /// "target" or "translator".
    pub role: String,
    pub profile: String,
    /// Sent to the server.
    pub sent: usize,
    /// Answered from the cache.
    pub cached: usize,
}

/// The whole probe.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProbeReport {
    /// Answers judged: questions, variants and follow-ups.
    pub asked: usize,
    /// Verbalized questions dropped by the round trip.
    pub discarded: usize,
    pub results: Vec<ProbeResult>,
    pub rates: Rates,
    pub by_rule: BTreeMap<String, Breakdown>,
    pub by_kind: BTreeMap<String, Breakdown>,
    #[serde(skip)]
    pub requests: Vec<RequestCount>,
    /// Solver time spent on the whole probe, in milliseconds.
    #[serde(skip)]
    pub solver_ms: f64,
    /// Why the run stopped before every question was asked.
    #[serde(skip)]
    pub stopped: Option<String>,
    /// Why verbalized questions were dropped or fell back to templates.
    #[serde(skip)]
    pub verbalization_notes: Vec<String>,
}

impl ProbeReport {
    /// A report over `results`: counts, rates and breakdowns follow from them.
    pub fn new(results: Vec<ProbeResult>, discarded: usize) -> ProbeReport {
        let mut verdicts = Vec::new();
        let mut by_rule = Vec::new();
        let mut by_kind = Vec::new();
        for result in &results {
            verdicts.push(result.verdict);
            by_rule.push((result.rules.clone(), result.verdict));
            by_kind.push((vec![result.kind.to_string()], result.verdict));
            for follow_up in &result.follow_ups {
                verdicts.push(follow_up.verdict);
                by_rule.push((result.rules.clone(), follow_up.verdict));
                by_kind.push((vec![ProbeKind::FollowUp.to_string()], follow_up.verdict));
            }
        }
        ProbeReport {
            asked: verdicts.len(),
            discarded,
            rates: Rates::of(&verdicts),
            by_rule: breakdown(by_rule),
            by_kind: breakdown(by_kind),
            results,
            requests: Vec::new(),
            solver_ms: 0.0,
            stopped: None,
            verbalization_notes: Vec::new(),
        }
    }

    /// Every answer judged with `verdict` (follow-ups included), as
    /// (result, follow-up index).
    pub fn failures(&self) -> Vec<(&ProbeResult, Option<usize>)> {
        let mut out = Vec::new();
        for result in &self.results {
            if result.verdict != Verdict::Correct {
                out.push((result, None));
            }
            for (index, follow_up) in result.follow_ups.iter().enumerate() {
                if follow_up.verdict != Verdict::Correct {
                    out.push((result, Some(index)));
                }
            }
        }
        out
    }
}
