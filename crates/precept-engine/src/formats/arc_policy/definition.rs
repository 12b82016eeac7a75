//! The policy definition as JSON, field for field.

use serde::{Deserialize, Serialize};

/// The version this build writes.
pub const ARC_POLICY_VERSION: &str = "1.0";

/// A whole policy definition, optionally with its test cases.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArcPolicy {
    pub version: String,
    #[serde(default)]
    pub types: Vec<ArcType>,
    #[serde(default)]
    pub variables: Vec<ArcVariable>,
    #[serde(default)]
    pub rules: Vec<ArcRule>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub test_cases: Vec<ArcTestCase>,
}

/// A custom type: an enumeration with a description for each value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArcType {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    pub values: Vec<ArcTypeValue>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArcTypeValue {
    pub value: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
}

/// A variable; its type is `BOOL`, `INT` or `REAL` (in any case) or the name
/// of a custom type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArcVariable {
    pub name: String,
    #[serde(rename = "type")]
    pub type_name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
}

/// A rule: an id, an SMT-LIB Bool expression and, optionally, the rule in
/// words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArcRule {
    pub id: String,
    pub expression: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternate_expression: Option<String>,
}

/// One of ARC's test cases: the user's query, the content the guardrail
/// checks, the aggregated finding expected and the confidence threshold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArcTestCase {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub test_case_id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub query_content: String,
    pub guard_content: String,
    pub expected_aggregated_findings_result: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence_threshold: Option<f64>,
}

/// Whether `source` is a policy definition: a JSON object with a `version`
/// and at least one of `types`, `variables` or `rules` (an SMT-LIB script
/// or a DMN file never is).
pub fn looks_like_arc_policy(source: &str) -> bool {
    if !source.trim_start().starts_with('{') {
        return false;
    }
    // Only the top-level keys matter; a malformed file still counts when
    // it starts like one, so its error names the JSON problem.
    match serde_json::from_str::<serde_json::Value>(source) {
        Ok(serde_json::Value::Object(map)) => {
            map.contains_key("version")
                && ["types", "variables", "rules"]
                    .iter()
                    .any(|k| map.contains_key(*k))
        }
        Ok(_) => false,
        Err(_) => source.contains("\"rules\"") || source.contains("\"variables\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_policy_definition_is_told_from_other_files_by_its_content() {
        assert!(looks_like_arc_policy(
            r#"{"version": "1.0", "rules": [{"id": "A", "expression": "true"}]}"#
        ));
        // Malformed, but plainly meant as one: its JSON error is what to report.
        assert!(looks_like_arc_policy(
            "{\n \"version\": \"1.0\",\n \"rules\": [ {\"id\": }"
        ));
        assert!(!looks_like_arc_policy("(declare-const x Int)"));
        assert!(!looks_like_arc_policy(
            r#"{"schema_version": 1, "tests": []}"#
        ));
        assert!(!looks_like_arc_policy("<definitions/>"));
    }
}
