//! Reading a policy definition into a model and natural-language tests.
//! Every problem is collected, each with the line of the file and the
//! field or rule it concerns; an expression outside the fragment is placed
//! by its rule id and the line:column inside the expression.

use super::definition::{ArcPolicy, ArcTestCase};
use crate::model::finding::FindingKind;
use crate::model::project::parse_json_text;
use crate::model::{
    AnswerTest, EnumValue, PolicyModel, ReviewStatus, Rule, TestSuite, TypeDef, Variable,
};
use crate::smt::{Sort, Vocabulary, parse_expr};
use std::collections::HashSet;
use std::fmt;

/// A model and its tests, read from a policy definition.
#[derive(Debug, Clone, PartialEq)]
pub struct ArcImport {
    pub model: PolicyModel,
    pub tests: TestSuite,
}

/// One problem of a policy definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArcProblem {
    /// The line of the file (1-based).
    pub line: usize,
    /// What it concerns: `rule R7`, `variables[2].type`, `testCases[0]`, ...
    pub place: String,
    /// For a rule expression: line and column inside the expression.
    pub inside: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for ArcProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.line, self.place)?;
        if let Some((line, column)) = self.inside {
            write!(f, ", expression {line}:{column}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Why a policy definition cannot be imported: every problem found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ArcImportError {
    pub problems: Vec<ArcProblem>,
}

impl fmt::Display for ArcImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = self.problems.iter().map(ToString::to_string).collect();
        f.write_str(&lines.join("\n"))
    }
}

impl ArcImportError {
    fn one(line: usize, place: impl Into<String>, message: impl Into<String>) -> ArcImportError {
        ArcImportError {
            problems: vec![ArcProblem {
                line,
                place: place.into(),
                inside: None,
                message: message.into(),
            }],
        }
    }
}

/// Reads `source`, a policy definition, into a model (rule ids kept, each
/// alternate expression as the rule's note) and its test cases into
/// natural-language tests.
pub fn read_arc_policy(source: &str) -> Result<ArcImport, ArcImportError> {
    let policy = parse_json(source)?;
    let mut places = Places::new(source);
    let mut problems = Vec::new();
    let mut vocabulary = Vocabulary::new();
    let mut model = PolicyModel::default();

    let types_at = places.key("types");
    for (i, arc_type) in policy.types.iter().enumerate() {
        let line = places.value_line(types_at, &arc_type.name);
        let values: Vec<String> = arc_type.values.iter().map(|v| v.value.clone()).collect();
        if let Err(e) = vocabulary.declare_enum(&arc_type.name, &values) {
            problems.push(problem(line, format!("types[{i}] '{}'", arc_type.name), e));
            continue;
        }
        model.types.push(TypeDef {
            name: arc_type.name.clone(),
            description: arc_type.description.clone(),
            values: arc_type
                .values
                .iter()
                .map(|v| EnumValue {
                    reading: Default::default(),
                    value: v.value.clone(),
                    description: v.description.clone(),
                })
                .collect(),
        });
    }

    let variables_at = places.key("variables");
    for (i, variable) in policy.variables.iter().enumerate() {
        let line = places.value_line(variables_at, &variable.name);
        let Some(sort) = sort_of(&variable.type_name, &model) else {
            let mut known = vec!["BOOL".to_string(), "INT".into(), "REAL".into()];
            known.extend(model.types.iter().map(|t| t.name.clone()));
            problems.push(problem(
                line,
                format!("variables[{i}].type"),
                format!(
                    "expected {}, found '{}'",
                    known.join(", "),
                    variable.type_name
                ),
            ));
            continue;
        };
        if let Err(e) = vocabulary.declare_variable(&variable.name, sort.clone()) {
            problems.push(problem(
                line,
                format!("variables[{i}] '{}'", variable.name),
                e,
            ));
            continue;
        }
        model.variables.push(Variable {
            reading: Default::default(),
            name: variable.name.clone(),
            sort: sort.name().to_string(),
            description: variable.description.clone(),
        });
    }

    let rules_at = places.key("rules");
    let mut ids = HashSet::new();
    for rule in &policy.rules {
        let line = places.value_line(rules_at, &rule.id);
        let place = format!("rule {}", rule.id);
        if rule.id.trim().is_empty() || !ids.insert(rule.id.clone()) {
            problems.push(problem(
                line,
                place,
                "expected a rule id not empty and not used before",
            ));
            continue;
        }
        let checked = parse_expr(&rule.expression)
            .and_then(|e| vocabulary.check_formula(&rule.expression, &e));
        if let Err(e) = checked {
            problems.push(ArcProblem {
                line,
                place,
                inside: Some((e.position.line, e.position.column)),
                message: format!("expected {}, found {}", e.expected, e.found),
            });
            continue;
        }
        model.rules.push(Rule {
            id: rule.id.clone(),
            expression: rule.expression.clone(),
            source_span: None,
            also_from: Vec::new(),
            review: ReviewStatus::Unreviewed,
            note: rule.alternate_expression.clone().unwrap_or_default(),
        });
    }

    let tests_at = places.key("testCases");
    let mut tests = TestSuite::default();
    for (i, case) in policy.test_cases.iter().enumerate() {
        let line = places.value_line(tests_at, &case.guard_content);
        match nl_test(case, &tests) {
            Ok(test) => tests.nl_tests.push(test),
            Err(message) => problems.push(problem(line, format!("testCases[{i}]"), message)),
        }
    }

    if problems.is_empty() {
        Ok(ArcImport { model, tests })
    } else {
        Err(ArcImportError { problems })
    }
}

fn parse_json(source: &str) -> Result<ArcPolicy, ArcImportError> {
    parse_json_text(source).map_err(|problem| {
        ArcImportError::one(
            problem.line,
            problem.field,
            format!(
                "{} (expected a policy definition: version, types, variables, rules)",
                problem.message
            ),
        )
    })
}

fn problem(line: usize, place: String, message: impl ToString) -> ArcProblem {
    ArcProblem {
        line,
        place,
        inside: None,
        message: message.to_string(),
    }
}

/// `BOOL`, `INT`, `REAL` in any case, or a declared type's name.
fn sort_of(type_name: &str, model: &PolicyModel) -> Option<Sort> {
    match type_name.to_ascii_uppercase().as_str() {
        "BOOL" | "BOOLEAN" => Some(Sort::Bool),
        "INT" | "INTEGER" => Some(Sort::Int),
        "REAL" => Some(Sort::Real),
        _ => model
            .types
            .iter()
            .any(|t| t.name == type_name)
            .then(|| Sort::Enum(type_name.to_string())),
    }
}

/// Why a test case cannot become a natural-language test.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
enum ArcTestCaseError {
    #[error(
        "expected an aggregated finding (VALID, INVALID, SATISFIABLE, IMPOSSIBLE, \
         TRANSLATION_AMBIGUOUS, TOO_COMPLEX, NO_TRANSLATION), found '{0}'"
    )]
    UnknownFinding(String),
    #[error("expected a confidence threshold between 0 and 1, found {0}")]
    ThresholdOutOfRange(f64),
    #[error("expected a guard content to check, found an empty one")]
    EmptyGuardContent,
    #[error("expected a test case id not used before, found '{0}' again")]
    DuplicateId(String),
}

fn nl_test(case: &ArcTestCase, tests: &TestSuite) -> Result<AnswerTest, ArcTestCaseError> {
    let expected = finding_of(&case.expected_aggregated_findings_result).ok_or_else(|| {
        ArcTestCaseError::UnknownFinding(case.expected_aggregated_findings_result.clone())
    })?;
    if let Some(threshold) = case.confidence_threshold
        && !(0.0..=1.0).contains(&threshold)
    {
        return Err(ArcTestCaseError::ThresholdOutOfRange(threshold));
    }
    if case.guard_content.trim().is_empty() {
        return Err(ArcTestCaseError::EmptyGuardContent);
    }
    let id = if case.test_case_id.is_empty() {
        tests.fresh_nl_id()
    } else if tests.nl_tests.iter().any(|t| t.id == case.test_case_id) {
        return Err(ArcTestCaseError::DuplicateId(case.test_case_id.clone()));
    } else {
        case.test_case_id.clone()
    };
    let mut test = AnswerTest::new(id, &case.query_content, &case.guard_content, expected);
    test.confidence_threshold = case.confidence_threshold;
    Ok(test)
}

/// ARC writes `NO_TRANSLATION` where Precept says `NO_TRANSLATIONS`.
pub fn finding_of(text: &str) -> Option<FindingKind> {
    match text.trim().to_ascii_uppercase().as_str() {
        "NO_TRANSLATION" => Some(FindingKind::NoTranslations),
        _ => FindingKind::parse(text),
    }
}

/// Finds the file line of an item by its first string value, in order.
struct Places<'a> {
    source: &'a str,
    cursor: usize,
}

impl<'a> Places<'a> {
    fn new(source: &'a str) -> Places<'a> {
        Places { source, cursor: 0 }
    }

    /// The byte offset just after the top-level `"key":`, or 0.
    fn key(&mut self, key: &str) -> usize {
        let quoted = format!("\"{key}\"");
        let mut from = 0;
        while let Some(found) = self.source[from..].find(&quoted) {
            let after = from + found + quoted.len();
            if self.source[after..].trim_start().starts_with(':') {
                self.cursor = after;
                return after;
            }
            from = after;
        }
        self.cursor = 0;
        0
    }

    /// The line of the next occurrence of `value` as a JSON string after
    /// the cursor (the section's start if it cannot be found).
    fn value_line(&mut self, section: usize, value: &str) -> usize {
        let quoted = serde_json::to_string(value).unwrap_or_default();
        let at = match self.source[self.cursor..].find(&quoted) {
            Some(found) => {
                self.cursor += found + quoted.len();
                self.cursor - quoted.len()
            }
            None => section,
        };
        self.source[..at].matches('\n').count() + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arcs_finding_names_are_read_including_no_translation() {
        assert_eq!(
            finding_of("NO_TRANSLATION"),
            Some(FindingKind::NoTranslations)
        );
        assert_eq!(finding_of("valid"), Some(FindingKind::Valid));
        assert_eq!(
            finding_of("TRANSLATION_AMBIGUOUS"),
            Some(FindingKind::TranslationAmbiguous)
        );
        assert_eq!(finding_of("MAYBE"), None);
    }

    #[test]
    fn a_test_case_with_a_threshold_outside_0_to_1_is_refused_with_its_line() {
        let source = "{\"version\": \"1.0\",\n \"testCases\": [\n  {\"guardContent\": \"Yes.\", \"expectedAggregatedFindingsResult\": \"VALID\", \"confidenceThreshold\": 1.5}]}";
        let error = read_arc_policy(source).unwrap_err();
        assert_eq!(error.problems.len(), 1);
        assert_eq!(error.problems[0].line, 3);
        assert_eq!(error.problems[0].place, "testCases[0]");
        assert!(
            error.problems[0].message.contains("between 0 and 1"),
            "{error}"
        );
    }

    #[test]
    fn duplicate_rule_ids_are_refused() {
        let source = r#"{"version": "1.0", "rules": [
            {"id": "A", "expression": "true"}, {"id": "A", "expression": "false"}]}"#;
        let error = read_arc_policy(source).unwrap_err();
        assert_eq!(error.problems[0].place, "rule A");
        assert_eq!(error.problems[0].line, 2);
    }
}
