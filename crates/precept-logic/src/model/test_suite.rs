//! Logic tests: a premise, a claim and the finding the expert expects.

use super::finding::FindingKind;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestSuite {
    pub schema_version: u32,
    #[serde(default)]
    pub tests: Vec<LogicTest>,
    /// Natural-language tests, run through the answer verifier.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nl_tests: Vec<AnswerTest>,
}

impl Default for TestSuite {
    fn default() -> Self {
        TestSuite {
            schema_version: super::SCHEMA_VERSION,
            tests: Vec::new(),
            nl_tests: Vec::new(),
        }
    }
}

/// A natural-language test: a question and answer (or, with an empty
/// question, a plain statement) and the finding the expert expects from
/// the answer verifier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerTest {
    pub id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub question: String,
    pub answer: String,
    pub expected: FindingKind,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// The confidence threshold the test was written for (ARC's test cases
    /// carry one); kept so that an exported test says what it said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence_threshold: Option<f64>,
}

impl AnswerTest {
    /// A natural-language test for a question and answer (an empty question
    /// makes the answer a plain statement).
    pub fn new(
        id: impl Into<String>,
        question: impl Into<String>,
        answer: impl Into<String>,
        expected: FindingKind,
    ) -> AnswerTest {
        AnswerTest {
            id: id.into(),
            name: String::new(),
            question: question.into(),
            answer: answer.into(),
            expected,
            note: String::new(),
            confidence_threshold: None,
        }
    }

    /// The name if it has one, otherwise the id.
    pub fn label(&self) -> &str {
        if self.name.is_empty() {
            &self.id
        } else {
            &self.name
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogicTest {
    pub id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    pub premise: String,
    pub claim: String,
    pub expected: FindingKind,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// Written by the expert, or generated and then proposed, accepted or rejected.
    #[serde(default, skip_serializing_if = "TestStatus::is_manual")]
    pub status: TestStatus,
    /// For a generated test: the finding the solver proved when it was generated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proved: Option<FindingKind>,
    /// For a generated test: why it was generated (e.g. "boundary of R4 at units = 3").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub rationale: String,
}

/// Where a test stands in the expert's loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TestStatus {
    /// Written by the expert.
    #[default]
    Manual,
    /// Generated, with a proved finding, waiting for the expert's verdict.
    Proposed,
    /// Generated and agreed with: a regression test.
    Accepted,
    /// Generated, and the expert expected another finding: a failing test
    /// pointing at the responsible rules.
    Rejected,
}

impl TestStatus {
    pub fn is_manual(&self) -> bool {
        *self == TestStatus::Manual
    }

    /// Whether the test counts in the suite's pass/fail (proposed ones wait).
    pub fn counts(&self) -> bool {
        *self != TestStatus::Proposed
    }
}

impl LogicTest {
    /// A test written by the expert.
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        premise: impl Into<String>,
        claim: impl Into<String>,
        expected: FindingKind,
    ) -> LogicTest {
        LogicTest {
            id: id.into(),
            name: name.into(),
            premise: premise.into(),
            claim: claim.into(),
            expected,
            note: String::new(),
            status: TestStatus::Manual,
            proved: None,
            rationale: String::new(),
        }
    }

    /// The name if it has one, otherwise the id.
    pub fn label(&self) -> &str {
        if self.name.is_empty() {
            &self.id
        } else {
            &self.name
        }
    }
}

impl TestSuite {
    /// A natural-language test id not yet in use, of the form `NL<n>`.
    pub fn fresh_nl_id(&self) -> String {
        let highest = self
            .nl_tests
            .iter()
            .filter_map(|t| t.id.strip_prefix("NL")?.parse::<u64>().ok())
            .max()
            .unwrap_or(0);
        format!("NL{}", highest + 1)
    }

    /// A test id not yet in use, of the form `T<n>`.
    pub fn fresh_id(&self) -> String {
        let highest = self
            .tests
            .iter()
            .filter_map(|t| t.id.strip_prefix('T')?.parse::<u64>().ok())
            .max()
            .unwrap_or(0);
        format!("T{}", highest + 1)
    }
}
