//! The verdict the guard adds to a reply: finding, confidence, rules and
//! feedback, from an answer check.

use precept_engine::answer::AnswerReport;
use precept_engine::solve::FindingKind;
use serde_json::{Value, json};

/// The `precept` field: what the check found, how sure the translations
/// were, the rules behind it and the feedback for the chatbot.
pub fn verdict_json(report: &AnswerReport, revisions: u32, blocked: bool) -> Value {
    let deciding = report
        .deciding_pair
        .and_then(|index| report.pairs.get(index));
    let confidence = deciding
        .or_else(|| report.pairs.first())
        .map_or(0.0, |pair| pair.confidence);
    let mut rules: Vec<String> = Vec::new();
    for pair in deciding.into_iter().chain(report.pairs.iter()) {
        for rule in pair.evidence.rules() {
            if !rules.contains(rule) {
                rules.push(rule.clone());
            }
        }
    }
    json!({
        "finding": report.finding.name(),
        "confidence": confidence,
        "rules": rules,
        "feedback": report.feedback,
        "revisions": revisions,
        "blocked": blocked,
    })
}

/// Whether `--block` replaces a reply with this finding.
pub fn is_blocked(finding: FindingKind) -> bool {
    matches!(finding, FindingKind::Invalid | FindingKind::Impossible)
}

/// What the chatbot is told when its reply disagrees with the policy.
pub fn revision_request(report: &AnswerReport) -> String {
    format!(
        "Your answer does not agree with the policy ({}). {}\nPlease answer the question again, \
         following the policy.",
        report.finding.name(),
        report.feedback.trim()
    )
}
