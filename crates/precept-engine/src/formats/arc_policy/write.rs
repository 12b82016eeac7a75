//! Writing a project as a policy definition. Nothing is dropped silently:
//! whatever the format has no place for, and whatever exceeds ARC's
//! published limits, is listed in the warnings (the export still succeeds).

use super::definition::{
    ARC_POLICY_VERSION, ArcPolicy, ArcRule, ArcTestCase, ArcType, ArcTypeValue, ArcVariable,
};
use crate::model::finding::FindingKind;
use crate::model::{PolicyModel, ReviewStatus, TestSuite};

/// ARC's published limits on a policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArcLimits {
    pub rules: usize,
    pub variables: usize,
    pub types: usize,
    /// Characters per rule expression.
    pub expression_chars: usize,
}

impl Default for ArcLimits {
    fn default() -> Self {
        ArcLimits {
            rules: 1_500,
            variables: 600,
            types: 150,
            expression_chars: 2_048,
        }
    }
}

/// The written definition and what the reader should know about it.
#[derive(Debug, Clone, PartialEq)]
pub struct ArcExport {
    /// Pretty JSON ending in a newline.
    pub json: String,
    pub warnings: Vec<String>,
}

/// What of a project goes into the definition.
#[derive(Debug, Clone, Copy)]
pub struct ArcSource<'a> {
    pub model: &'a PolicyModel,
    pub tests: &'a TestSuite,
    /// Whether the project keeps its source document (the format cannot).
    pub has_document: bool,
    /// Whether the natural-language tests go in as `testCases`.
    pub with_tests: bool,
}

/// Writes `source` as a policy definition.
pub fn write_arc_policy(source: ArcSource<'_>, limits: &ArcLimits) -> ArcExport {
    let model = source.model;
    let policy = ArcPolicy {
        version: ARC_POLICY_VERSION.to_string(),
        types: model
            .types
            .iter()
            .map(|t| ArcType {
                name: t.name.clone(),
                description: t.description.clone(),
                values: t
                    .values
                    .iter()
                    .map(|v| ArcTypeValue {
                        value: v.value.clone(),
                        description: v.description.clone(),
                    })
                    .collect(),
            })
            .collect(),
        variables: model
            .variables
            .iter()
            .map(|v| ArcVariable {
                name: v.name.clone(),
                type_name: arc_type_name(&v.sort),
                description: v.description.clone(),
            })
            .collect(),
        rules: model
            .rules
            .iter()
            .map(|r| ArcRule {
                id: r.id.clone(),
                expression: r.expression.clone(),
                alternate_expression: (!r.note.is_empty()).then(|| r.note.clone()),
            })
            .collect(),
        test_cases: if source.with_tests {
            source
                .tests
                .nl_tests
                .iter()
                .map(|t| ArcTestCase {
                    test_case_id: t.id.clone(),
                    query_content: t.question.clone(),
                    guard_content: t.answer.clone(),
                    expected_aggregated_findings_result: arc_finding_name(t.expected).into(),
                    confidence_threshold: t.confidence_threshold,
                })
                .collect()
        } else {
            Vec::new()
        },
    };
    let json = serde_json::to_string_pretty(&policy).unwrap_or_default() + "\n";
    let mut warnings = limit_warnings(model, limits);
    warnings.extend(unheld_fields(source));
    ArcExport { json, warnings }
}

/// `BOOL`, `INT`, `REAL`, or the custom type's name.
fn arc_type_name(sort: &str) -> String {
    match sort {
        "Bool" => "BOOL".into(),
        "Int" => "INT".into(),
        "Real" => "REAL".into(),
        other => other.into(),
    }
}

/// ARC's spelling of a finding.
fn arc_finding_name(kind: FindingKind) -> &'static str {
    match kind {
        FindingKind::NoTranslations => "NO_TRANSLATION",
        other => other.name(),
    }
}

fn limit_warnings(model: &PolicyModel, limits: &ArcLimits) -> Vec<String> {
    let mut warnings = Vec::new();
    let counts = [
        ("rules", model.rules.len(), limits.rules),
        ("variables", model.variables.len(), limits.variables),
        ("types", model.types.len(), limits.types),
    ];
    for (what, count, limit) in counts {
        if count > limit {
            warnings.push(format!(
                "{} {what}, above ARC's limit of {}",
                thousands(count),
                thousands(limit)
            ));
        }
    }
    for rule in &model.rules {
        let chars = rule.expression.chars().count();
        if chars > limits.expression_chars {
            warnings.push(format!(
                "rule {}: its expression has {} characters, above ARC's limit of {} per expression",
                rule.id,
                thousands(chars),
                thousands(limits.expression_chars)
            ));
        }
    }
    warnings
}

/// Precept's fields that a policy definition has no place for.
fn unheld_fields(source: ArcSource<'_>) -> Vec<String> {
    let model = source.model;
    let mut unheld = Vec::new();
    let mut count = |n: usize, what: String| {
        if n > 0 {
            unheld.push(format!(
                "not written (the format has no place for it): {what}"
            ));
        }
    };
    count(
        usize::from(!model.title.is_empty()),
        format!("the model's title '{}'", model.title),
    );
    count(
        usize::from(source.has_document),
        "the source document".to_string(),
    );
    let spans = model
        .rules
        .iter()
        .filter(|r| r.source_span.is_some())
        .count();
    count(spans, format!("the source span of {spans} rule(s)"));
    let reviewed = model
        .rules
        .iter()
        .filter(|r| r.review != ReviewStatus::Unreviewed)
        .count();
    count(
        reviewed,
        format!("the review status of {reviewed} rule(s) (approved or needs change)"),
    );
    let tables = model.decision_tables.len();
    count(
        tables,
        format!("the hit policy and rows of {tables} DMN decision table(s)"),
    );
    let logic = source.tests.tests.len();
    count(logic, format!("{logic} logic test(s) (premise and claim)"));
    let nl = &source.tests.nl_tests;
    if source.with_tests {
        let named = nl.iter().filter(|t| !t.name.is_empty()).count();
        count(
            named,
            format!("the name of {named} natural-language test(s)"),
        );
        let noted = nl.iter().filter(|t| !t.note.is_empty()).count();
        count(
            noted,
            format!("the note of {noted} natural-language test(s)"),
        );
    } else {
        count(
            nl.len(),
            format!(
                "{} natural-language test(s) (add --tests to write them as test cases)",
                nl.len()
            ),
        );
    }
    unheld
}

/// 1500 as `1,500`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
