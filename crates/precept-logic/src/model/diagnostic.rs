//! Lint diagnostics (plain data: the syntactic checks in `lint` and the
//! solver-backed ones in `solve` both make them): a stable code, a severity, the rules and variables
//! involved, an explanation in plain words, and where it helps a scenario and
//! a fix the expert can apply in one keystroke.

pub use super::edit::ModelEdit;
use super::finding::Scenario;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
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
    SplitName,
    OpenDecision,
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
    pub const ALL: [LintCode; 23] = [
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
        LintCode::SplitName,
        LintCode::OpenDecision,
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
            LintCode::SplitName => "L142",
            LintCode::OpenDecision => "L150",
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
            LintCode::SplitName => "split-name",
            LintCode::OpenDecision => "open-decision",
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

impl LintCode {
    /// Whether the solver finds it (`L2xx`), rather than reading the text (`L1xx`).
    pub fn is_solver_backed(self) -> bool {
        self.code().starts_with("L2")
    }

    /// Whether the diagnostic says the rules contradict each other (for a
    /// CI gate: `precept lint --strict`): an inconsistent policy, rules that
    /// conflict where they overlap, an exception its general rule shadows,
    /// a situation the rules make impossible.
    pub fn is_conflict(self) -> bool {
        matches!(
            self,
            LintCode::Inconsistent
                | LintCode::ConflictingOverlap
                | LintCode::ShadowedException
                | LintCode::ImpossibleSituation
        )
    }
}

/// How many diagnostics of each severity: one count, said the same way by
/// the CLI, the vetting pane and the status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct LintCounts {
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
}

impl LintCounts {
    pub fn of(diagnostics: &[Diagnostic]) -> LintCounts {
        let mut counts = LintCounts::default();
        for diagnostic in diagnostics {
            match diagnostic.severity {
                Severity::Error => counts.errors += 1,
                Severity::Warning => counts.warnings += 1,
                Severity::Info => counts.notes += 1,
            }
        }
        counts
    }

    pub fn total(self) -> usize {
        self.errors + self.warnings + self.notes
    }

    /// The counts that are not zero, for a narrow title: "3 warnings, 11
    /// notes"; "nothing found" when all are.
    pub fn brief(self) -> String {
        let parts: Vec<String> = [
            (self.errors, "error", "errors"),
            (self.warnings, "warning", "warnings"),
            (self.notes, "note", "notes"),
        ]
        .into_iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, one, many)| format!("{n} {}", if n == 1 { one } else { many }))
        .collect();
        if parts.is_empty() {
            "nothing found".into()
        } else {
            parts.join(", ")
        }
    }
}

impl std::fmt::Display for LintCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        write!(
            f,
            "{}, {}, {}",
            plural(self.errors, "error", "errors"),
            plural(self.warnings, "warning", "warnings"),
            plural(self.notes, "note", "notes")
        )
    }
}

impl Serialize for LintCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
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

    /// The variables involved, each once, in the order first named.
    pub fn variables(
        mut self,
        variables: impl IntoIterator<Item = impl Into<String>>,
    ) -> Diagnostic {
        self.variables = Vec::new();
        for variable in variables.into_iter().map(Into::into) {
            if !self.variables.contains(&variable) {
                self.variables.push(variable);
            }
        }
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
    fn counts_name_every_severity_and_a_variable_is_listed_once() {
        let d = |severity| Diagnostic::new(LintCode::Gap, severity, "m");
        let counts = LintCounts::of(&[d(Severity::Warning), d(Severity::Info), d(Severity::Info)]);
        assert_eq!(counts.to_string(), "0 errors, 1 warning, 2 notes");
        assert_eq!(counts.total(), 3);
        assert_eq!(counts.brief(), "1 warning, 2 notes");
        assert_eq!(LintCounts::default().brief(), "nothing found");
        let listed = d(Severity::Info).variables(["a", "b", "a"]);
        assert_eq!(listed.variables, ["a", "b"]);
    }

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
