//! The verdict the guard adds to a reply: finding, confidence, rules and
//! feedback, from an answer check.

use precept_engine::answer::AnswerReport;
use precept_engine::solve::FindingKind;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

/// The `precept` field the guard adds to a reply.
#[derive(Debug, Serialize, ToSchema)]
pub struct VerdictField {
    /// VALID, INVALID, SATISFIABLE, IMPOSSIBLE, TRANSLATION_AMBIGUOUS, …
    pub finding: String,
    /// How far the translations agreed (0 to 1).
    pub confidence: f64,
    /// The rules behind the finding.
    pub rules: Vec<String>,
    /// What the chatbot is told when its reply disagrees with the policy.
    pub feedback: String,
    /// Revision rounds it took (`--revise`).
    pub revisions: u32,
    /// Whether `--block` replaced the reply.
    pub blocked: bool,
}

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
    let field = VerdictField {
        finding: report.finding.name().to_string(),
        confidence,
        rules,
        feedback: report.feedback.clone(),
        revisions,
        blocked,
    };
    serde_json::to_value(field).unwrap_or_default()
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
