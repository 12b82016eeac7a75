//! Lint diagnostics (plain data: the syntactic checks in `lint` and the
//! solver-backed ones in `solve` both make them): a stable code, a severity, the rules and variables
//! involved, an explanation in plain words, and where it helps a scenario and
//! a fix the expert can apply in one keystroke.

use super::PolicyModel;
use super::finding::Scenario;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// Every kind of diagnostic, with a stable code (`L1xx` syntactic, `L2xx`
/// solver-backed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LintCode {
    UnusedVariable,
    UnusedType,
    UnusedEnumValue,
    UndeclaredName,
    TypeMismatch,
    DuplicateRule,
    EquivalentRule,
    BareAssertion,
    EmptyDescription,
    SharedDescription,
    Inconsistent,
    VacuousRule,
    RedundantRule,
    ForcedVariable,
    UnreachableEnumValue,
    ConflictingOverlap,
    Gap,
    DisjointGroups,
    ShadowedException,
    ImpossibleSituation,
    NotDecided,
}

impl LintCode {
    pub const ALL: [LintCode; 21] = [
        LintCode::UnusedVariable,
        LintCode::UnusedType,
        LintCode::UnusedEnumValue,
        LintCode::UndeclaredName,
        LintCode::TypeMismatch,
        LintCode::DuplicateRule,
        LintCode::EquivalentRule,
        LintCode::BareAssertion,
        LintCode::EmptyDescription,
        LintCode::SharedDescription,
        LintCode::Inconsistent,
        LintCode::VacuousRule,
        LintCode::RedundantRule,
        LintCode::ForcedVariable,
        LintCode::UnreachableEnumValue,
        LintCode::ConflictingOverlap,
        LintCode::Gap,
        LintCode::DisjointGroups,
        LintCode::ShadowedException,
        LintCode::ImpossibleSituation,
        LintCode::NotDecided,
    ];

    /// The stable code, e.g. `L101`.
    pub fn code(self) -> &'static str {
        match self {
            LintCode::UnusedVariable => "L101",
            LintCode::UnusedType => "L102",
            LintCode::UnusedEnumValue => "L103",
            LintCode::UndeclaredName => "L110",
            LintCode::TypeMismatch => "L111",
            LintCode::DuplicateRule => "L120",
            LintCode::EquivalentRule => "L121",
            LintCode::BareAssertion => "L130",
            LintCode::EmptyDescription => "L140",
            LintCode::SharedDescription => "L141",
            LintCode::Inconsistent => "L201",
            LintCode::VacuousRule => "L202",
            LintCode::RedundantRule => "L203",
            LintCode::ForcedVariable => "L204",
            LintCode::UnreachableEnumValue => "L205",
            LintCode::ConflictingOverlap => "L206",
            LintCode::Gap => "L207",
            LintCode::DisjointGroups => "L208",
            LintCode::ShadowedException => "L209",
            LintCode::ImpossibleSituation => "L210",
            LintCode::NotDecided => "L299",
        }
    }

    /// The short name, e.g. `unused-variable`.
    pub fn name(self) -> &'static str {
        match self {
            LintCode::UnusedVariable => "unused-variable",
            LintCode::UnusedType => "unused-type",
            LintCode::UnusedEnumValue => "unused-enum-value",
            LintCode::UndeclaredName => "undeclared-name",
            LintCode::TypeMismatch => "type-mismatch",
            LintCode::DuplicateRule => "duplicate-rule",
            LintCode::EquivalentRule => "equivalent-rule",
            LintCode::BareAssertion => "bare-assertion",
            LintCode::EmptyDescription => "empty-description",
            LintCode::SharedDescription => "shared-description",
            LintCode::Inconsistent => "inconsistent-rules",
            LintCode::VacuousRule => "vacuous-rule",
            LintCode::RedundantRule => "redundant-rule",
            LintCode::ForcedVariable => "forced-variable",
            LintCode::UnreachableEnumValue => "unreachable-enum-value",
            LintCode::ConflictingOverlap => "conflicting-overlap",
            LintCode::Gap => "gap",
            LintCode::DisjointGroups => "disjoint-rule-groups",
            LintCode::ShadowedException => "shadowed-exception",
            LintCode::ImpossibleSituation => "impossible-situation",
            LintCode::NotDecided => "not-decided",
        }
    }
}

impl Serialize for LintCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

/// A change to the model that fixes a diagnostic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ModelEdit {
    DeleteRule { id: String },
    DeleteVariable { name: String },
    DeleteType { name: String },
    DeleteEnumValue { type_name: String, value: String },
    ReplaceRule { id: String, expression: String },
}

impl ModelEdit {
    /// Applies the edit; fails with a message when its target is gone.
    pub fn apply(&self, model: &mut PolicyModel) -> Result<(), String> {
        let gone = |what: &str| Err(format!("{what} no longer exists"));
        match self {
            ModelEdit::DeleteRule { id } => {
                let before = model.rules.len();
                model.rules.retain(|r| &r.id != id);
                if model.rules.len() == before {
                    gone(&format!("rule {id}"))
                } else {
                    Ok(())
                }
            }
            ModelEdit::DeleteVariable { name } => {
                let before = model.variables.len();
                model.variables.retain(|v| &v.name != name);
                if model.variables.len() == before {
                    gone(&format!("variable {name}"))
                } else {
                    Ok(())
                }
            }
            ModelEdit::DeleteType { name } => {
                let before = model.types.len();
                model.types.retain(|t| &t.name != name);
                if model.types.len() == before {
                    gone(&format!("type {name}"))
                } else {
                    Ok(())
                }
            }
            ModelEdit::DeleteEnumValue { type_name, value } => {
                let Some(type_def) = model.types.iter_mut().find(|t| &t.name == type_name) else {
                    return gone(&format!("type {type_name}"));
                };
                if type_def.values.len() <= 1 {
                    return Err(format!("{type_name} needs at least one value"));
                }
                let before = type_def.values.len();
                type_def.values.retain(|v| &v.value != value);
                if type_def.values.len() == before {
                    gone(&format!("value {value}"))
                } else {
                    Ok(())
                }
            }
            ModelEdit::ReplaceRule { id, expression } => {
                match model.rules.iter_mut().find(|r| &r.id == id) {
                    Some(rule) => {
                        rule.expression = expression.clone();
                        Ok(())
                    }
                    None => gone(&format!("rule {id}")),
                }
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// What the fix does, in plain words ("delete the unused variable x").
    pub description: String,
    pub edit: ModelEdit,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    pub code: LintCode,
    pub name: &'static str,
    pub severity: Severity,
    pub rules: Vec<String>,
    pub variables: Vec<String>,
    /// The explanation in plain words.
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scenario: Option<Scenario>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
    /// Other fixes to choose from (the expert picks one; `fix` is the
    /// default).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<Fix>,
}

impl Diagnostic {
    pub fn new(code: LintCode, severity: Severity, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            name: code.name(),
            severity,
            rules: Vec::new(),
            variables: Vec::new(),
            message: message.into(),
            scenario: None,
            fix: None,
            alternatives: Vec::new(),
        }
    }

    pub fn rules(mut self, rules: impl IntoIterator<Item = impl Into<String>>) -> Diagnostic {
        self.rules = rules.into_iter().map(Into::into).collect();
        self
    }

    pub fn variables(
        mut self,
        variables: impl IntoIterator<Item = impl Into<String>>,
    ) -> Diagnostic {
        self.variables = variables.into_iter().map(Into::into).collect();
        self
    }

    pub fn scenario(mut self, scenario: Scenario) -> Diagnostic {
        self.scenario = Some(scenario);
        self
    }

    pub fn fix(mut self, description: impl Into<String>, edit: ModelEdit) -> Diagnostic {
        self.fix = Some(Fix {
            description: description.into(),
            edit,
        });
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_stable() {
        let mut codes: Vec<&str> = LintCode::ALL.iter().map(|c| c.code()).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), LintCode::ALL.len());
        assert_eq!(LintCode::UnusedVariable.code(), "L101");
        assert_eq!(
            serde_json::to_string(&LintCode::Inconsistent).unwrap(),
            "\"L201\""
        );
    }
}
