//! Evaluation on labelled answers (`precept eval`): a JSONL file of
//! questions with answers labelled valid or invalid goes through the answer
//! verifier, and the verdicts are scored with the columns of the ARC paper's
//! Table 1.
//!
//! A verdict of VALID is a positive prediction; a line labelled `valid` is a
//! positive. Soundness follows the paper (§4): `1 − FP / N` over all lines,
//! the probability that the checker approves something wrong. Precision is
//! the share of VALID verdicts that are labelled valid.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use super::report::AnswerReport;
use crate::solve::FindingKind;

/// What the label says the answer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    Valid,
    Invalid,
}

/// One line of the labelled file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LabelledAnswer {
    pub id: String,
    /// The question, with the scenario (when the line has one) before it.
    pub question: String,
    pub answer: String,
    pub label: Label,
}

/// A line that could not be read: its 1-based line and column, and what
/// was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

#[derive(Deserialize)]
struct RawLine {
    id: Option<serde_json::Value>,
    question: Option<String>,
    answer: Option<String>,
    label: Option<String>,
    #[serde(default)]
    scenario: Option<String>,
}

/// Reads the labelled lines. Blank lines are an error too: a file with a
/// hole in it was probably cut or concatenated by mistake.
pub fn read_labelled(text: &str) -> Result<Vec<LabelledAnswer>, LineError> {
    let mut out = Vec::new();
    let mut ids = HashSet::new();
    let error = |line: usize, column: usize, message: String| LineError {
        line,
        column,
        message,
    };
    let body = text.strip_suffix('\n').unwrap_or(text);
    if body.trim().is_empty() {
        return Err(error(
            1,
            1,
            "expected one JSON object per line, found an empty file".into(),
        ));
    }
    for (index, line) in body.split('\n').enumerate() {
        let number = index + 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            return Err(error(
                number,
                1,
                "expected a JSON object {\"id\", \"question\", \"answer\", \"label\"}, found an empty line".into(),
            ));
        }
        let raw: RawLine = serde_json::from_str(line).map_err(|e| {
            error(
                number,
                e.column().max(1),
                format!(
                    "expected a JSON object {{\"id\", \"question\", \"answer\", \"label\"}}: {e}"
                ),
            )
        })?;
        let id = match raw.id {
            Some(serde_json::Value::String(s)) if !s.trim().is_empty() => s,
            Some(serde_json::Value::Number(n)) => n.to_string(),
            _ => {
                return Err(error(
                    number,
                    1,
                    "expected \"id\": a non-empty string or a number".into(),
                ));
            }
        };
        if !ids.insert(id.clone()) {
            return Err(error(number, 1, format!("the id \"{id}\" is used twice")));
        }
        let answer = raw.answer.filter(|a| !a.trim().is_empty()).ok_or_else(|| {
            error(
                number,
                1,
                format!("line \"{id}\": expected a non-empty \"answer\""),
            )
        })?;
        let label = match raw.label.as_deref().map(str::to_ascii_lowercase).as_deref() {
            Some("valid") => Label::Valid,
            Some("invalid") => Label::Invalid,
            Some(other) => {
                return Err(error(
                    number,
                    1,
                    format!(
                        "line \"{id}\": expected \"label\" to be \"valid\" or \"invalid\", found \"{other}\""
                    ),
                ));
            }
            None => {
                return Err(error(
                    number,
                    1,
                    format!("line \"{id}\": expected a \"label\" (\"valid\" or \"invalid\")"),
                ));
            }
        };
        let question = raw.question.unwrap_or_default();
        let question = match raw.scenario.as_deref().map(str::trim) {
            Some(scenario) if !scenario.is_empty() => {
                format!("{scenario} {}", question.trim()).trim().to_string()
            }
            _ => question.trim().to_string(),
        };
        out.push(LabelledAnswer {
            id,
            question,
            answer,
            label,
        });
    }
    Ok(out)
}

/// One line's verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalResult {
    pub id: String,
    pub label: Label,
    pub finding: FindingKind,
    /// Whether the verdict agrees with the label: VALID for a valid answer,
    /// anything else for an invalid one.
    pub correct: bool,
    /// Whether the k translations disagreed on some pair.
    pub translations_differ: bool,
    pub report: AnswerReport,
}

impl EvalResult {
    pub fn new(line: &LabelledAnswer, report: AnswerReport) -> EvalResult {
        let valid = report.finding == FindingKind::Valid;
        EvalResult {
            id: line.id.clone(),
            label: line.label,
            finding: report.finding,
            correct: valid == (line.label == Label::Valid),
            translations_differ: report.pairs.iter().any(|p| p.confidence < 1.0)
                || report.translations.iter().any(|t| t.error.is_some()),
            report,
        }
    }
}

/// The Table 1 columns, and the counts behind them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Metrics {
    pub lines: usize,
    pub soundness: f64,
    pub false_positive_rate: f64,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub accuracy: f64,
    pub true_positives: usize,
    pub false_positives: usize,
    pub true_negatives: usize,
    pub false_negatives: usize,
    /// How many lines got each finding.
    pub findings: BTreeMap<String, usize>,
    /// Lines whose k translations did not all agree.
    pub translations_differ: usize,
}

/// A share, 0 when there is nothing to share.
fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

pub fn metrics(results: &[EvalResult]) -> Metrics {
    let (mut tp, mut fp, mut tn, mut fne) = (0, 0, 0, 0);
    let mut findings = BTreeMap::new();
    for r in results {
        let approved = r.finding == FindingKind::Valid;
        match (approved, r.label) {
            (true, Label::Valid) => tp += 1,
            (true, Label::Invalid) => fp += 1,
            (false, Label::Invalid) => tn += 1,
            (false, Label::Valid) => fne += 1,
        }
        *findings.entry(r.finding.to_string()).or_insert(0) += 1;
    }
    let n = results.len();
    let precision = share(tp, tp + fp);
    let recall = share(tp, tp + fne);
    let f1 = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    Metrics {
        lines: n,
        soundness: if n == 0 { 0.0 } else { 1.0 - share(fp, n) },
        false_positive_rate: share(fp, fp + tn),
        precision,
        recall,
        f1,
        accuracy: share(tp + tn, n),
        true_positives: tp,
        false_positives: fp,
        true_negatives: tn,
        false_negatives: fne,
        findings,
        translations_differ: results.iter().filter(|r| r.translations_differ).count(),
    }
}

/// How bad a wrong verdict is: a wrong VALID (a false approval) first,
/// then a valid answer rejected as INVALID, then IMPOSSIBLE, then the
/// undecided ones.
fn badness(result: &EvalResult) -> u8 {
    match (result.label, result.finding) {
        (Label::Invalid, FindingKind::Valid) => 0,
        (_, FindingKind::Invalid) => 1,
        (_, FindingKind::Impossible) => 2,
        (_, FindingKind::TranslationAmbiguous) => 3,
        (_, FindingKind::Satisfiable) => 4,
        _ => 5,
    }
}

/// The wrong verdicts, worst first (input order within a kind).
pub fn failures(results: &[EvalResult]) -> Vec<&EvalResult> {
    let mut wrong: Vec<&EvalResult> = results.iter().filter(|r| !r.correct).collect();
    wrong.sort_by_key(|r| badness(r));
    wrong
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_with_their_scenario_and_bad_lines_are_located() {
        let lines = read_labelled(
            "{\"id\": \"a\", \"scenario\": \"I am 70.\", \"question\": \"Can I enter?\", \"answer\": \"Yes.\", \"label\": \"valid\"}\n{\"id\": 2, \"question\": \"\", \"answer\": \"No.\", \"label\": \"INVALID\"}\n",
        )
        .unwrap();
        assert_eq!(lines[0].question, "I am 70. Can I enter?");
        assert_eq!(lines[1].id, "2");
        assert_eq!(lines[1].label, Label::Invalid);

        let bad = |text: &str| read_labelled(text).unwrap_err().to_string();
        assert!(bad("").starts_with("1:1: expected one JSON object per line"));
        let good = "{\"id\": \"a\", \"answer\": \"Yes.\", \"label\": \"valid\"}";
        assert!(bad(&format!("{good}\n\n{good}")).starts_with("2:1: expected a JSON object"));
        assert!(bad(&format!("{good}\n{{\"id\": \"b\", \"answer\": ")).starts_with("2:"));
        assert!(
            bad("{\"id\": \"a\", \"answer\": \"Yes.\"}").contains("expected a \"label\""),
            "{}",
            bad("{\"id\": \"a\", \"answer\": \"Yes.\"}")
        );
        assert!(
            bad("{\"id\": \"a\", \"answer\": \"Yes.\", \"label\": \"maybe\"}")
                .contains("\"maybe\"")
        );
        assert!(bad(&format!("{good}\n{good}")).contains("used twice"));
    }
}
