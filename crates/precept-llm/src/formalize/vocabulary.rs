//! The shared vocabulary (plain data): the enum types and variables the
//! vocabulary pass proposed for the whole document, the part of it each
//! span sees in its prompt, and the check that a span's unit reuses it.
//! The pass itself is `compose::vocabulary_pass`.
//!
//! ARC (§3.1) keeps the declarations in the LLM's context within a span;
//! this extends that across the document, so that one fact gets one name.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::document::words::split_identifier;
use crate::formalize::span_task::SpanTask;
use crate::formalize::unit::{PolicyUnit, UnitProblem, UnitType};

/// How spans are formalized.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VocabularyMode {
    /// A vocabulary pass first; spans reuse its names.
    #[default]
    Shared,
    /// Each span on its own (the first wave's path, kept for comparison).
    SpanOnly,
}

/// A variable of the shared vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedVariable {
    pub name: String,
    #[serde(rename = "type")]
    pub sort: String,
    pub description: String,
    /// How the variable is said in English, if the LLM gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<crate::smt::reading::Reading>,
    /// The spans that mention it (`S3`, …).
    #[serde(default)]
    pub spans: Vec<String>,
}

/// The vocabulary the whole document shares.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedVocabulary {
    pub types: Vec<UnitType>,
    pub variables: Vec<SharedVariable>,
    /// Where each variable was first proposed: the section it came from.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sections: BTreeMap<String, String>,
    /// What went wrong in the pass (a section that could not be read, a
    /// proposal that did not check); those parts are left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

impl SharedVocabulary {
    pub fn is_empty(&self) -> bool {
        self.variables.is_empty() && self.types.is_empty()
    }

    pub fn variable(&self, name: &str) -> Option<&SharedVariable> {
        self.variables.iter().find(|v| v.name == name)
    }

    /// The part relevant to `task`: variables it mentions, variables of its
    /// section, and variables whose name shares a word with its text; with
    /// the types they use.
    pub fn relevant(&self, task: &SpanTask) -> (Vec<&UnitType>, Vec<&SharedVariable>) {
        let section = section_title(task);
        let words: BTreeSet<String> = task
            .text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() > 3)
            .map(str::to_lowercase)
            .collect();
        let variables: Vec<&SharedVariable> = self
            .variables
            .iter()
            .filter(|v| {
                v.spans.contains(&task.id)
                    || self.sections.get(&v.name) == Some(&section)
                    || split_identifier(&v.name)
                        .iter()
                        .any(|w| w.len() > 3 && words.contains(w))
            })
            .collect();
        let types: Vec<&UnitType> = self
            .types
            .iter()
            .filter(|t| variables.iter().any(|v| v.sort == t.name))
            .collect();
        (types, variables)
    }

    /// The relevant part as prompt text (empty when there is none).
    pub fn prompt_text(&self, task: &SpanTask) -> String {
        let (types, variables) = self.relevant(task);
        if variables.is_empty() {
            return String::new();
        }
        let mut out = String::from(
            "Shared vocabulary of the document: reuse these names exactly (copy a declaration into your unit when you use it). A variable that is not listed here needs a `reason` saying why none of these fits:\n",
        );
        for t in types {
            let values: Vec<&str> = t.values.iter().map(|v| v.value.as_str()).collect();
            out.push_str(&format!(
                "- type {} = {} ({})\n",
                t.name,
                values.join(" | "),
                t.description
            ));
        }
        for v in variables {
            out.push_str(&format!("- {}: {} ({})\n", v.name, v.sort, v.description));
        }
        out
    }

    /// Problems of a unit against the vocabulary: a shared name declared
    /// with another type, or a new variable without a reason.
    pub fn check(&self, unit: &PolicyUnit) -> Vec<UnitProblem> {
        let mut problems = Vec::new();
        for (i, v) in unit.variables.iter().enumerate() {
            match self.variable(&v.name) {
                Some(shared) if shared.sort != v.sort => problems.push(UnitProblem {
                    field: format!("variables[{i}].type"),
                    message: format!(
                        "'{}' is {} in the shared vocabulary, not {}",
                        v.name, shared.sort, v.sort
                    ),
                }),
                Some(_) => {}
                None if v.reason.trim().is_empty() => problems.push(UnitProblem {
                    field: format!("variables[{i}].reason"),
                    message: format!(
                        "'{}' is not in the shared vocabulary: reuse a shared name, or say in `reason` why none fits",
                        v.name
                    ),
                }),
                None => {}
            }
        }
        problems
    }
}

/// The top-level section a span belongs to (below the document's title
/// when the title is a heading above everything).
pub fn section_title(task: &SpanTask) -> String {
    let mut path = task.heading_path.iter();
    let mut first = path.next();
    if first.is_some() && first == task.context.title.as_ref() {
        first = path.next();
    }
    first
        .cloned()
        .unwrap_or_else(|| "(top of the document)".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formalize::span_task::plan_spans;

    #[test]
    fn a_span_sees_the_variables_it_mentions_its_section_has_or_it_shares_a_word_with() {
        let doc = "# Fees\n\nThe late fee is five.\n\n# Hours\n\nThe depot opens at nine.\n";
        let tasks = plan_spans(doc, 3000);
        let variable = |name: &str, spans: &[&str]| SharedVariable {
            reading: Default::default(),
            name: name.into(),
            sort: "Bool".into(),
            description: String::new(),
            spans: spans.iter().map(|s| s.to_string()).collect(),
        };
        let mut shared = SharedVocabulary {
            variables: vec![
                variable("paysLateFee", &[]),
                variable("depotIsOpen", &["S2"]),
                variable("holidayClosure", &[]),
            ],
            ..SharedVocabulary::default()
        };
        shared
            .sections
            .insert("holidayClosure".into(), "Hours".into());
        let names = |i: usize| -> Vec<String> {
            shared
                .relevant(&tasks[i])
                .1
                .iter()
                .map(|v| v.name.clone())
                .collect()
        };
        assert_eq!(names(0), ["paysLateFee"], "a shared word: late");
        assert_eq!(
            names(1),
            ["depotIsOpen", "holidayClosure"],
            "mentioned; same section"
        );
        assert!(
            shared
                .prompt_text(&tasks[0])
                .contains("- paysLateFee: Bool")
        );
    }
}
