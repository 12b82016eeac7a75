//! Explanations (issue 14): what the facts of a premise force, the chain of
//! reasoning from the premise to a conclusion with each step tied to its
//! rule's source sentence, and which missing facts would settle an
//! undecided claim. Forward chaining after RvLLM (§4.3), propagation and
//! relevance after IDP-Z3's Interactive Consultant.
//!
//! Everything here is plain data over a session query (`solve::SessionQuery`):
//! `propagate` (forced and open values), `chain` (derivation steps),
//! `relevance` (deciding inputs, irrelevant inputs), `inputs` (which rules
//! define which variables), `job` (one request on the solver worker),
//! `describe` (SMT-LIB, English, source sentences and follow-up questions
//! added from the project), `markdown` (a chain for a review document).

pub mod chain;
pub mod describe;
pub mod inputs;
pub mod job;
pub mod json;
pub mod markdown;
pub mod moves;
pub mod propagate;
pub mod relevance;
pub mod values;

use crate::model::finding::{Finding, Value};

/// A variable whose value the rules and the premise force.
#[derive(Debug, Clone, PartialEq)]
pub struct Forced {
    pub variable: String,
    pub value: Value,
    /// A minimal set of rules that, with the premise, force the value
    /// (empty: the premise alone fixes it).
    pub rules: Vec<String>,
    /// Whether every rule listed was proved necessary.
    pub rules_minimal: bool,
}

/// What the premise forces within its cone.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Propagation {
    /// In the model's declaration order.
    pub forced: Vec<Forced>,
    /// The cone's other variables: each has at least two possible values.
    pub open: Vec<String>,
    /// The premise contradicts the rules: a minimal set of them.
    pub contradiction: Option<Vec<String>>,
}

impl Propagation {
    pub fn value_of(&self, variable: &str) -> Option<&Value> {
        self.forced
            .iter()
            .find(|f| f.variable == variable)
            .map(|f| &f.value)
    }
}

/// What one rule says, for a reader.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RuleText {
    pub id: String,
    pub smtlib: String,
    pub english: String,
    /// The sentence(s) of the document the rule formalizes.
    pub source: Option<String>,
}

/// One step of a derivation chain.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// One rule, or several when the conclusion needs them at once (a case
    /// split): such a step is labelled as such, never split up falsely.
    pub rules: Vec<String>,
    /// The values known before this step that its proof uses.
    pub uses: Vec<(String, Value)>,
    /// The values it proves, from the premise, the earlier steps' values
    /// and its rules alone.
    pub derives: Vec<(String, Value)>,
    /// Whether the goal follows once this step is taken.
    pub concludes: bool,
    /// Filled by `describe`.
    pub texts: Vec<RuleText>,
}

impl Step {
    pub fn several_rules(&self) -> bool {
        self.rules.len() > 1
    }
}

/// An ordered chain from the premise to a goal.
#[derive(Debug, Clone, PartialEq)]
pub struct Chain {
    /// What the chain proves (SMT-LIB): the claim, its negation, or a
    /// forced value.
    pub goal: String,
    pub steps: Vec<Step>,
}

/// The values of one variable with which the claim can be true, and false.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueSplit {
    pub variable: String,
    pub claim_true: Vec<Value>,
    pub claim_false: Vec<Value>,
    /// Whether the lists hold every such value (else they are examples).
    pub complete: bool,
}

/// A set of open inputs whose values decide the claim.
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    pub variables: Vec<String>,
    pub splits: Vec<ValueSplit>,
    /// Filled by `describe`.
    pub question: String,
}

/// Which open inputs matter to a SATISFIABLE claim.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Relevance {
    /// Deciding sets, smallest first.
    pub ask: Vec<Ask>,
    /// Whether no smaller deciding set exists than the first (false when
    /// the budget ran out and a minimal set was found another way).
    pub smallest: bool,
    /// Open inputs whose value cannot change the claim.
    pub irrelevant: Vec<String>,
}

/// Everything `precept explain` reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    pub finding: Option<Finding>,
    pub propagation: Propagation,
    pub chain: Option<Chain>,
    pub relevance: Option<Relevance>,
    /// Why part of the work stopped (deadline, cancel), when it did.
    pub stopped: Option<String>,
}
