//! Logic tests: a premise, a claim and the finding the expert expects.

use crate::core::solve::FindingKind;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestSuite {
    pub schema_version: u32,
    #[serde(default)]
    pub tests: Vec<LogicTest>,
}

impl Default for TestSuite {
    fn default() -> Self {
        TestSuite {
            schema_version: super::SCHEMA_VERSION,
            tests: Vec::new(),
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
}

impl LogicTest {
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
