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
    /// The ids of deleted tests: never given to another test, so an id
    /// names one test for the project's whole history.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retired_ids: Vec<String>,
}

impl Default for TestSuite {
    fn default() -> Self {
        TestSuite {
            schema_version: super::SCHEMA_VERSION,
            tests: Vec::new(),
            nl_tests: Vec::new(),
            retired_ids: Vec::new(),
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
    /// A natural-language test id never used, of the form `NL<n>`.
    pub fn fresh_nl_id(&self) -> String {
        let used = self.nl_tests.iter().map(|t| t.id.as_str());
        format!("NL{}", self.highest("NL", used) + 1)
    }

    /// A test id never used (nor retired), of the form `T<n>`.
    pub fn fresh_id(&self) -> String {
        let used = self.tests.iter().map(|t| t.id.as_str());
        format!("T{}", self.highest("T", used) + 1)
    }

    /// The highest number after `prefix` among `used` and the retired ids.
    fn highest<'a>(&'a self, prefix: &str, used: impl Iterator<Item = &'a str>) -> u64 {
        used.chain(self.retired_ids.iter().map(String::as_str))
            .filter_map(|id| id.strip_prefix(prefix)?.parse::<u64>().ok())
            .max()
            .unwrap_or(0)
    }

    /// Deletes test `id` (logic or natural-language) and retires its id.
    pub fn delete(&mut self, id: &str) {
        let before = self.tests.len() + self.nl_tests.len();
        self.tests.retain(|t| t.id != id);
        self.nl_tests.retain(|t| t.id != id);
        if self.tests.len() + self.nl_tests.len() < before
            && !self.retired_ids.iter().any(|r| r == id)
        {
            self.retired_ids.push(id.to_string());
        }
    }
}

#[cfg(test)]
mod id_tests {
    use super::*;

    fn test(id: &str) -> LogicTest {
        LogicTest {
            id: id.into(),
            name: String::new(),
            premise: "true".into(),
            claim: "true".into(),
            expected: FindingKind::Valid,
            note: String::new(),
            status: TestStatus::Manual,
            proved: None,
            rationale: String::new(),
        }
    }

    #[test]
    fn a_deleted_tests_id_is_never_given_again() {
        let mut suite = TestSuite {
            tests: vec![test("T1"), test("T2")],
            ..TestSuite::default()
        };
        suite.delete("T2");
        assert_eq!(suite.retired_ids, ["T2"]);
        assert_eq!(suite.fresh_id(), "T3");
        let json = serde_json::to_string(&suite).unwrap();
        let read: TestSuite = serde_json::from_str(&json).unwrap();
        assert_eq!(read.fresh_id(), "T3", "the retirement is saved");
    }
}
