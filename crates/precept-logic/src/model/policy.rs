//! The policy model as stored: types, variables and rules, with the field
//! names of ARC's policy definition plus Precept's own review fields.

use super::decision_table::DecisionTable;
use crate::smt::reading::Reading;
use serde::{Deserialize, Serialize};

/// The version of the project file formats this build writes and reads.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyModel {
    pub schema_version: u32,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    #[serde(default)]
    pub types: Vec<TypeDef>,
    #[serde(default)]
    pub variables: Vec<Variable>,
    #[serde(default)]
    pub rules: Vec<Rule>,
    /// The decision tables some rules were imported from (DMN), with their
    /// hit policies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decision_tables: Vec<DecisionTable>,
    /// The definitions of derived variables (`definition.rs`); the rules
    /// each compiles to are among `rules`, with ids `D<n>.…`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub definitions: Vec<Definition>,
}

impl Default for PolicyModel {
    fn default() -> Self {
        PolicyModel {
            schema_version: SCHEMA_VERSION,
            title: String::new(),
            types: Vec::new(),
            variables: Vec::new(),
            rules: Vec::new(),
            decision_tables: Vec::new(),
            definitions: Vec::new(),
        }
    }
}

/// An enumeration type with a description for each value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeDef {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub values: Vec<EnumValue>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnumValue {
    pub value: String,
    #[serde(default)]
    pub description: String,
    /// The clause that says a variable has this value ("the organisation
    /// is a charity"); the description's when empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reading: String,
}

/// A variable: its name, its type (`Bool`, `Int`, `Real` or an enum type's
/// name) and what it means in the words of the source document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variable {
    pub name: String,
    #[serde(rename = "type")]
    pub sort: String,
    #[serde(default)]
    pub description: String,
    /// How the variable is said in English (`smt::reading`); a template
    /// from the description stands in for forms not given.
    #[serde(default, skip_serializing_if = "Reading::is_empty")]
    pub reading: Reading,
}

/// A rule: a stable id and an SMT-LIB Bool expression over the variables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    pub id: String,
    pub expression: String,
    /// The byte range of the document span this rule formalizes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_span: Option<SourceSpan>,
    /// Further spans whose meaning this rule carries: those of the rules
    /// it took the place of (a duplicate deleted, a unit rule dropped as a
    /// repeat), so no sentence is left uncovered by their going.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_from: Vec<SourceSpan>,
    #[serde(default)]
    pub review: ReviewStatus,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceSpan {
    pub start: usize,
    pub end: usize,
}

/// The one definition of a derived variable: cases, requirements and
/// exceptions; `definition.rs` compiles it to rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Definition {
    /// `D1`, `D2`, …: the prefix of the ids of the rules it compiles to.
    pub id: String,
    /// The variable it defines.
    pub variable: String,
    /// The ways the variable holds (a Bool), or its ordered values.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<DefinitionPart>,
    /// Conditions every case needs (Bool only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requirements: Vec<DefinitionPart>,
    /// Conditions under which it does not hold, whatever the cases say
    /// (Bool only). When a claim is checked, each exception the premise
    /// does not mention is assumed absent (the default reading).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exceptions: Vec<DefinitionPart>,
    /// The cases are the only ways it holds.
    #[serde(default)]
    pub exhaustive: bool,
}

/// One case, requirement or exception: an SMT-LIB Bool condition, the
/// value it gives (a case of a number or an enum), and the span of the
/// document it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DefinitionPart {
    pub condition: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_span: Option<SourceSpan>,
}

/// Where the expert stands on a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewStatus {
    #[default]
    Unreviewed,
    Approved,
    NeedsChange,
}

impl Rule {
    /// Gives the rule new text. A change of text sends an approved (or
    /// flagged) rule back to review: the expert approved what it said, not
    /// what it says now. Any change of text counts here; the workbench then
    /// asks the solver (`lifecycle::behaviour::same_meaning`) and gives the
    /// review back when the new text is proved a pure rewrite. Returns
    /// whether the text changed.
    pub fn rewrite(&mut self, expression: String) -> bool {
        if self.expression == expression {
            return false;
        }
        self.expression = expression;
        self.review = ReviewStatus::Unreviewed;
        true
    }

    /// Renames symbols in the rule's text: the same rule in new words, so
    /// its review stands.
    pub fn rename_only(&mut self, expression: String) {
        self.expression = expression;
    }
}

impl ReviewStatus {
    /// In plain words, as the status line and reports say it.
    pub fn label(self) -> &'static str {
        match self {
            ReviewStatus::Unreviewed => "unreviewed",
            ReviewStatus::Approved => "approved",
            ReviewStatus::NeedsChange => "needs change",
        }
    }
}

impl PolicyModel {
    pub fn rule(&self, id: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.id == id)
    }

    pub fn variable(&self, name: &str) -> Option<&Variable> {
        self.variables.iter().find(|v| v.name == name)
    }

    /// A rule id not yet in use, of the form `R<n>`.
    pub fn fresh_rule_id(&self) -> String {
        let highest = self
            .rules
            .iter()
            .filter_map(|r| r.id.strip_prefix('R')?.parse::<u64>().ok())
            .max()
            .unwrap_or(0);
        format!("R{}", highest + 1)
    }
}

/// Orders `R2` before `R10`.
pub fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    // Borrowed parts: a sort of a thousand diagnostics compares often.
    fn split(s: &str) -> (&str, u64, &str) {
        let digits_at = s.find(|c: char| c.is_ascii_digit()).unwrap_or(s.len());
        let (prefix, digits) = s.split_at(digits_at);
        (prefix, digits.parse::<u64>().unwrap_or(0), s)
    }
    split(a).cmp(&split(b))
}
