//! Findings: the verdict for a premise and claim against a policy model, with
//! the evidence that lets anyone re-derive it.

use crate::smt::number::display_rational;
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// The finding names, as ARC defines them (docs/answers.md, "Findings").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum FindingKind {
    Valid,
    Invalid,
    Satisfiable,
    Impossible,
    TooComplex,
    TranslationAmbiguous,
    NoTranslations,
}

impl FindingKind {
    pub const ALL: [FindingKind; 7] = [
        FindingKind::Valid,
        FindingKind::Invalid,
        FindingKind::Satisfiable,
        FindingKind::Impossible,
        FindingKind::TooComplex,
        FindingKind::TranslationAmbiguous,
        FindingKind::NoTranslations,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FindingKind::Valid => "VALID",
            FindingKind::Invalid => "INVALID",
            FindingKind::Satisfiable => "SATISFIABLE",
            FindingKind::Impossible => "IMPOSSIBLE",
            FindingKind::TooComplex => "TOO_COMPLEX",
            FindingKind::TranslationAmbiguous => "TRANSLATION_AMBIGUOUS",
            FindingKind::NoTranslations => "NO_TRANSLATIONS",
        }
    }

    /// Reads a finding name, case-insensitively.
    pub fn parse(text: &str) -> Option<FindingKind> {
        let upper = text.trim().to_ascii_uppercase().replace('-', "_");
        FindingKind::ALL.into_iter().find(|k| k.name() == upper)
    }

    /// How bad a finding is when several claims aggregate to the worst:
    /// TRANSLATION_AMBIGUOUS > IMPOSSIBLE > INVALID > SATISFIABLE > VALID.
    pub fn severity(self) -> u8 {
        match self {
            FindingKind::Valid => 0,
            FindingKind::Satisfiable => 1,
            FindingKind::Invalid => 2,
            FindingKind::Impossible => 3,
            FindingKind::TooComplex | FindingKind::NoTranslations => 4,
            FindingKind::TranslationAmbiguous => 5,
        }
    }
}

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value a variable takes in a scenario. Numbers are exact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Bool(bool),
    Int(BigInt),
    Real(BigRational),
    /// An irrational algebraic number (non-linear real arithmetic), shown as
    /// Z3 approximates it.
    Algebraic(String),
    Enum(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Real(r) => f.write_str(&display_rational(r)),
            Value::Algebraic(text) => write!(f, "≈{text}"),
            Value::Enum(name) => f.write_str(name),
        }
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Bool(b) => serializer.serialize_bool(*b),
            other => serializer.serialize_str(&other.to_string()),
        }
    }
}

/// A concrete assignment of the model's variables.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Scenario {
    pub values: Vec<(String, Value)>,
}

impl Scenario {
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

impl Serialize for Scenario {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.values.len()))?;
        for (name, value) in &self.values {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// A premise or claim that is always true or always false on its own,
/// whatever the rules say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LogicWarning {
    PremiseAlwaysTrue,
    PremiseAlwaysFalse,
    ClaimAlwaysTrue,
    ClaimAlwaysFalse,
}

impl LogicWarning {
    pub fn message(self) -> &'static str {
        match self {
            LogicWarning::PremiseAlwaysTrue => "the premise is always true, whatever the rules say",
            LogicWarning::PremiseAlwaysFalse => {
                "the premise is always false, whatever the rules say"
            }
            LogicWarning::ClaimAlwaysTrue => "the claim is always true, whatever the rules say",
            LogicWarning::ClaimAlwaysFalse => "the claim is always false, whatever the rules say",
        }
    }
}

/// The verdict for (M, P, C) with its evidence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    #[serde(rename = "finding")]
    pub kind: FindingKind,
    pub premise: String,
    pub claim: String,
    /// VALID: a minimal set of rules that, with the premise, entail the claim.
    pub supporting_rules: Vec<String>,
    /// IMPOSSIBLE: a minimal set of rules the premise contradicts.
    /// INVALID: a minimal set of rules that, with the premise, refute the claim.
    pub contradicting_rules: Vec<String>,
    /// Whether every listed rule was proved necessary. False when deciding
    /// that for some rule took too long; the set is then sufficient but
    /// perhaps not minimal.
    pub rules_minimal: bool,
    /// IMPOSSIBLE only: whether the rules contradict each other even without
    /// the premise (None when the solver could not settle it in time).
    pub policy_inconsistent: Option<bool>,
    /// VALID and SATISFIABLE: the rules, premise and claim all hold.
    pub claims_true_scenario: Option<Scenario>,
    /// INVALID and SATISFIABLE: the rules and premise hold, the claim does not.
    pub claims_false_scenario: Option<Scenario>,
    pub warnings: Vec<LogicWarning>,
    /// TOO_COMPLEX: why the solver gave up.
    pub reason: Option<String>,
    /// The default reading (`solve/defaults.rs`): the exceptions the
    /// premise does not mention, assumed absent, that a VALID or INVALID
    /// finding needs. Empty in the strict reading.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumptions: Vec<Assumption>,
    /// Assumptions left out because, with them, the premise would have
    /// contradicted the rules: an assumption never makes a finding IMPOSSIBLE.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumptions_dropped: Vec<Assumption>,
}

/// An exception of a definition assumed absent because the premise does
/// not mention it: "you did not know about the situation beforehand".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Assumption {
    /// The variable whose definition has the exception.
    pub variable: String,
    /// The rule the exception compiles to (`D1.e1`).
    pub exception: String,
    /// The exception's condition, in SMT-LIB.
    pub condition: String,
    /// What is assumed, in words: the condition's negation.
    pub english: String,
}

/// What is already proved about one side of a question (the rules and
/// the premise with the claim, or with its negation), before the solver
/// asks it: a scenario where that side holds, or a minimal set of rules
/// (by id) with which it cannot.
#[derive(Debug, Clone, PartialEq)]
pub enum KnownSide {
    Holds(Scenario),
    Refuted(Vec<String>),
}

/// What is already proved about a question's two sides (a test whose
/// finding an edit left partly standing, `test_runner/carry_over.rs`); the
/// solver asks only the sides that are not known.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KnownSides {
    /// The rules, the premise and the claim.
    pub claim_true: Option<KnownSide>,
    /// The rules, the premise and the claim's negation.
    pub claim_false: Option<KnownSide>,
}

impl Finding {
    pub fn new(kind: FindingKind, premise: &str, claim: &str) -> Finding {
        Finding {
            kind,
            premise: premise.to_string(),
            claim: claim.to_string(),
            supporting_rules: Vec::new(),
            contradicting_rules: Vec::new(),
            rules_minimal: true,
            policy_inconsistent: None,
            claims_true_scenario: None,
            claims_false_scenario: None,
            warnings: Vec::new(),
            reason: None,
            assumptions: Vec::new(),
            assumptions_dropped: Vec::new(),
        }
    }

    pub fn too_complex(premise: &str, claim: &str, reason: impl Into<String>) -> Finding {
        Finding {
            reason: Some(reason.into()),
            ..Finding::new(FindingKind::TooComplex, premise, claim)
        }
    }

    /// The rules that justify the finding, whichever role they play.
    pub fn rules(&self) -> &[String] {
        if self.supporting_rules.is_empty() {
            &self.contradicting_rules
        } else {
            &self.supporting_rules
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finding_names_round_trip() {
        for kind in FindingKind::ALL {
            assert_eq!(FindingKind::parse(kind.name()), Some(kind));
            assert_eq!(
                serde_json::to_string(&kind).unwrap(),
                format!("\"{}\"", kind.name())
            );
        }
        assert_eq!(
            FindingKind::parse("satisfiable"),
            Some(FindingKind::Satisfiable)
        );
        assert_eq!(FindingKind::parse("maybe"), None);
    }

    #[test]
    fn severity_orders_as_designed() {
        use FindingKind::*;
        let order = [
            Valid,
            Satisfiable,
            Invalid,
            Impossible,
            TranslationAmbiguous,
        ];
        assert!(order.windows(2).all(|w| w[0].severity() < w[1].severity()));
    }
}
