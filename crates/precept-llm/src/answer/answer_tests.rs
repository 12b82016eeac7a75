//! Natural-language tests: a question and answer with the finding the
//! expert expects, run through the answer verifier. A failing test says
//! what is at fault, the paper's distinction between fixing the answer's
//! translation (or the model's vocabulary) and fixing the policy's rules:
//!
//! - **translation**: the translations disagree (TRANSLATION_AMBIGUOUS),
//!   found nothing to express (NO_TRANSLATIONS), were over budget, or were
//!   confident although the expert expected an ambiguous or untranslatable
//!   text: improve the variables' names and descriptions or the text;
//! - **rules**: the translation is confident and the solver's finding is
//!   not the expected one: the rules of that finding are the place to look;
//! - **solver**: the solver ran out of time.

use super::feedback::answer_feedback;
use super::pipeline::{AnswerVerifier, VerifyEvent};
use super::report::{AnswerReport, pair_kind, worst_pair};
use super::translate::AnswerInput;
use crate::llm::Cancel;
use crate::model::AnswerTest;
use crate::solve::{FindingKind, SolverWorker};
use serde::Serialize;

/// What a failing natural-language test blames.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "at_fault", rename_all = "snake_case")]
pub enum Fault {
    Translation {
        explanation: String,
    },
    Rules {
        /// The rules of the deciding finding (empty for SATISFIABLE: then
        /// no rule decides the claim, and the scenarios show what is open).
        rules: Vec<String>,
        explanation: String,
    },
    Solver {
        explanation: String,
    },
}

impl Fault {
    pub fn explanation(&self) -> &str {
        match self {
            Fault::Translation { explanation }
            | Fault::Rules { explanation, .. }
            | Fault::Solver { explanation } => explanation,
        }
    }
}

/// The outcome of one natural-language test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnswerTestOutcome {
    pub id: String,
    pub name: String,
    pub expected: FindingKind,
    pub actual: Option<FindingKind>,
    pub passed: bool,
    /// For a failing test that ran: what is at fault.
    pub fault: Option<Fault>,
    /// Why the test could not run (no LLM, every translation failed, …).
    pub error: Option<String>,
    pub report: Option<AnswerReport>,
}

impl AnswerTestOutcome {
    /// A test that could not run (no LLM, every translation failed, …).
    pub fn not_run(test: &AnswerTest, error: String) -> AnswerTestOutcome {
        AnswerTestOutcome {
            id: test.id.clone(),
            name: test.name.clone(),
            expected: test.expected,
            actual: None,
            passed: false,
            fault: None,
            error: Some(error),
            report: None,
        }
    }
}

/// Runs `tests` one after the other (each one's k translations run
/// concurrently). `on_event` gets the index of the test with each event.
pub fn run_answer_tests(
    verifier: &AnswerVerifier,
    worker: &SolverWorker,
    tests: &[AnswerTest],
    on_event: &mut dyn FnMut(usize, VerifyEvent),
    cancel: &Cancel,
) -> Vec<AnswerTestOutcome> {
    tests
        .iter()
        .enumerate()
        .map(|(index, test)| {
            let input = AnswerInput::new(&test.question, &test.answer);
            let mut forward = |event| on_event(index, event);
            match verifier.verify(worker, &input, &mut forward, cancel) {
                Ok(report) => match test.confidence_threshold {
                    Some(threshold) => judge(test, at_threshold(report, threshold), threshold),
                    None => judge(test, report, verifier.options().threshold),
                },
                Err(error) => AnswerTestOutcome::not_run(test, error.to_string()),
            }
        })
        .collect()
}

/// The report as it reads at another confidence threshold (a test written
/// for ARC carries its own): each pair's finding and the aggregate are
/// decided again from the confidences and the solver's evidence, which do
/// not depend on the threshold.
pub fn at_threshold(mut report: AnswerReport, threshold: f64) -> AnswerReport {
    if report.pairs.is_empty() {
        return report;
    }
    for pair in &mut report.pairs {
        pair.finding = pair_kind(
            pair.undecided.is_some(),
            pair.confidence,
            threshold,
            &pair.evidence,
        );
    }
    if let Some((index, kind)) = worst_pair(&report.pairs) {
        report.deciding_pair = Some(index);
        report.finding = kind;
    }
    report.threshold = threshold;
    report.feedback = answer_feedback(&report);
    report
}

/// Compares a report with the test's expectation and places the blame.
pub fn judge(test: &AnswerTest, report: AnswerReport, threshold: f64) -> AnswerTestOutcome {
    let passed = report.finding == test.expected;
    let fault = (!passed).then(|| fault(test.expected, &report, threshold));
    AnswerTestOutcome {
        id: test.id.clone(),
        name: test.name.clone(),
        expected: test.expected,
        actual: Some(report.finding),
        passed,
        fault,
        error: None,
        report: Some(report),
    }
}

fn fault(expected: FindingKind, report: &AnswerReport, threshold: f64) -> Fault {
    let deciding = report.deciding_pair.and_then(|i| report.pairs.get(i));
    match report.finding {
        FindingKind::TranslationAmbiguous => Fault::Translation {
            explanation: format!(
                "the translations disagree (confidence {} below the threshold {}): make the \
                 variables' descriptions or the text more precise. {}",
                deciding.map_or("?".into(), |p| percent(p.confidence)),
                percent(threshold),
                deciding.map(|p| p.feedback.as_str()).unwrap_or_default()
            ),
        },
        FindingKind::NoTranslations => Fault::Translation {
            explanation: "nothing in the text could be expressed with the model's variables: the \
                          vocabulary lacks the notions the text uses, or the text is off-topic"
                .into(),
        },
        FindingKind::TooComplex => match deciding {
            Some(pair) if pair.undecided.is_none() => Fault::Solver {
                explanation: format!(
                    "the solver could not decide the claim ({})",
                    pair.evidence.reason.as_deref().unwrap_or("no reason given")
                ),
            },
            Some(pair) => Fault::Solver {
                explanation: format!(
                    "the solver could not compare the translations ({})",
                    pair.undecided.as_deref().unwrap_or_default()
                ),
            },
            None => Fault::Translation {
                explanation: format!(
                    "the text or its translation is over budget: {}",
                    report.reason.as_deref().unwrap_or("too large")
                ),
            },
        },
        actual => {
            if matches!(
                expected,
                FindingKind::TranslationAmbiguous | FindingKind::NoTranslations
            ) {
                return Fault::Translation {
                    explanation: format!(
                        "the text was translated with confidence although {expected} was \
                         expected: the translation reads more into it than the expert does"
                    ),
                };
            }
            let (rules, confidence) = deciding
                .map(|p| (p.evidence.rules().to_vec(), p.confidence))
                .unwrap_or_default();
            let rule_text = if rules.is_empty() {
                "no rule decides the claim under the premise; the scenarios show what is left \
                 open"
                    .to_string()
            } else {
                format!("look at {}", rules.join(", "))
            };
            Fault::Rules {
                explanation: format!(
                    "the translation is confident ({}) and the rules give {actual}, not \
                     {expected}: {rule_text}",
                    percent(confidence)
                ),
                rules,
            }
        }
    }
}

fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}
