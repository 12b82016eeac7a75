//! The templated English of questions: the facts as a short scenario and
//! the question about the claim, built from the model's glossary (no LLM),
//! so they say exactly what the facts and claim say.

use super::Expected;
use crate::model::{CompiledModel, PolicyModel};
use crate::smt::Expr;
use crate::smt::wording::{lower_first, sentence_part};

/// What the wording needs of the model.
pub struct WordingContext<'a> {
    pub model: &'a PolicyModel,
    pub compiled: &'a CompiledModel,
}

impl<'a> WordingContext<'a> {
    pub fn new(model: &'a PolicyModel, compiled: &'a CompiledModel) -> WordingContext<'a> {
        WordingContext { model, compiled }
    }

    /// A formula as a phrase inside a sentence; the SMT-LIB itself when it
    /// does not parse.
    pub fn phrase(&self, formula: &str) -> String {
        match self.compiled.check_formula(formula) {
            Ok((written, _)) => self.compiled.glossary.phrase(&written),
            Err(_) => formula.to_string(),
        }
    }

    /// What a variable is, for "What is …?".
    pub fn noun(&self, variable: &str) -> String {
        match self.model.variable(variable) {
            Some(v) if !v.description.trim().is_empty() => {
                format!("the {}", lower_first(&sentence_part(&v.description)))
                    .replace("the the ", "the ")
            }
            _ => crate::smt::wording::humanize(variable),
        }
    }
}

/// The scenario: "Suppose that a, b and c. " (nothing without facts).
pub fn scenario(words: &WordingContext, facts: &str) -> String {
    match facts.trim() {
        "true" => String::new(),
        _ => format!("Suppose that {}. ", words.phrase(facts)),
    }
}

/// The templated question about `claim` given `facts` (SMT-LIB), asked in
/// the form of its `expected` answer ("What is …?" for a value).
pub fn templated_question(
    words: &WordingContext,
    facts: &str,
    claim: &str,
    expected: &Expected,
) -> String {
    let asked = match expected {
        Expected::Value { variable, .. } => format!("What is {}?", words.noun(variable)),
        _ => format!("Is it true that {}?", words.phrase(claim)),
    };
    format!("{}{asked}", scenario(words, facts))
}

/// The same question worded another way (a paraphrase variant).
pub fn paraphrased_question(
    words: &WordingContext,
    facts: &str,
    claim: &str,
    expected: &Expected,
) -> String {
    let given = match facts.trim() {
        "true" => "Under the policy".to_string(),
        facts => format!("Given that {}", words.phrase(facts)),
    };
    match expected {
        Expected::Value { variable, .. } => {
            format!("{given}, how much is {}?", words.noun(variable))
        }
        _ => format!(
            "{given}, does it follow that {}? Please answer yes or no.",
            words.phrase(claim)
        ),
    }
}

/// A follow-up in the same conversation: "So in that case …?"
pub fn follow_up_question(words: &WordingContext, claim: &Expr) -> String {
    format!("So in that case {}?", words.compiled.glossary.phrase(claim))
}
