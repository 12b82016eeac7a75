//! RvLLM's follow-up queries (§4.3–4.4): from what an answer asserts,
//! propagate through the model to a consequence the answer commits to but
//! did not state, and ask the chatbot about it in the same conversation.

use crate::explain::Forced;
use crate::explain::job::{ExplainRequest, run as run_explain};
use crate::explain::relevance::Budget;
use crate::explain::values::equals;
use crate::model::CompiledModel;
use crate::model::finding::Value;
use crate::smt::Expr;
use crate::smt::build::and_of;
use crate::solve::SolverWorker;

/// A consequence to ask about: `variable` is forced to `value`.
#[derive(Debug, Clone, PartialEq)]
pub struct Consequence {
    pub variable: String,
    pub value: Value,
    /// `variable = value`.
    pub claim: Expr,
    /// The facts and what the answer committed to.
    pub given: Expr,
    /// The rules that force it.
    pub rules: Vec<String>,
}

/// The consequence of `facts` and the answer's `commitments` that is worth
/// asking: a value the rules force (not given by the facts alone), of a
/// variable neither the question nor the answer mentions; numbers first,
/// then the one that takes the most rules to reach. None when the answer
/// commits to nothing or the rules force nothing new.
pub fn consequence(
    worker: &SolverWorker,
    compiled: &CompiledModel,
    facts: &Expr,
    question_claim: &Expr,
    commitments: &[Expr],
) -> Option<Consequence> {
    if commitments.is_empty() {
        return None;
    }
    let given = and_of(std::iter::once(facts.clone()).chain(commitments.iter().cloned()));
    let request = ExplainRequest {
        premise: given.clone(),
        claim: None,
        inputs: crate::explain::inputs::inputs(compiled),
        budget: Budget::default(),
    };
    let explanation = run_explain(worker, request).ok()?;
    if explanation.propagation.contradiction.is_some() {
        return None;
    }
    let mentioned: Vec<&str> = given
        .symbols()
        .into_iter()
        .chain(question_claim.symbols())
        .collect();
    let is_number = |f: &Forced| matches!(f.value, Value::Int(_) | Value::Real(_));
    let best = explanation
        .propagation
        .forced
        .iter()
        .filter(|f| !f.rules.is_empty() && !mentioned.contains(&f.variable.as_str()))
        .filter(|f| !matches!(f.value, Value::Algebraic(_)))
        .max_by_key(|f| (is_number(f), f.rules.len()))?;
    Some(Consequence {
        variable: best.variable.clone(),
        value: best.value.clone(),
        claim: equals(&best.variable, &best.value)?,
        given,
        rules: best.rules.clone(),
    })
}
