//! HalluVault's metamorphic variants of a question: the negated question
//! (the opposite answer is expected), the question with an irrelevant fact
//! added (the same answer), and a paraphrase (the same answer). Answers
//! that disagree across variants are inconsistent whatever the model says.
//! All three are templated here; with a translator the probe has the
//! paraphrase worded by it (in other words than usual), round trip and all.

use super::question::{ProbeQuestion, Relation, irrelevant_inputs};
use super::wording::{WordingContext, paraphrased_question, templated_question};
use super::{Expected, ProbeKind};
use crate::explain::values::equals;
use crate::model::finding::Scenario;
use crate::smt::Expr;
use crate::smt::build::{and_of, not_of};
use crate::solve::{FindingKind, SolverWorker};

/// The answer the negated question expects.
pub fn negated_expectation(expected: &Expected) -> Expected {
    match expected {
        Expected::Yes | Expected::Value { .. } => Expected::No,
        Expected::No => Expected::Yes,
        Expected::Depends { on } => Expected::Depends { on: on.clone() },
    }
}

/// The variants of `question` (templated, so faithful by construction).
pub fn variants_of(
    worker: &SolverWorker,
    words: &WordingContext,
    question: &ProbeQuestion,
) -> Vec<ProbeQuestion> {
    let compiled = words.compiled;
    let (Ok((_, facts)), Ok((written_claim, claim))) = (
        compiled.check_formula(&question.facts),
        compiled.check_formula(&question.claim),
    ) else {
        return Vec::new();
    };
    let variant = |suffix: &str, relation: Relation| ProbeQuestion {
        id: format!("{}.{suffix}", question.id),
        kind: ProbeKind::Variant,
        variant_of: Some((question.id.clone(), relation)),
        templated: true,
        ..question.clone()
    };
    let mut out = Vec::new();

    let mut negated = variant("negated", Relation::Negated);
    negated.claim = not_of(&written_claim).to_string();
    negated.expected = negated_expectation(&question.expected);
    // A "how much" question negated is a yes/no question about the value.
    let mut as_claim = negated.clone();
    as_claim.expected = Expected::No;
    negated.text = templated_question(words, &as_claim.facts, &as_claim.claim, &as_claim.expected);
    out.push(negated);

    if let Some(fact) = irrelevant_fact(worker, words, &facts, &claim) {
        let mut added = variant("irrelevant", Relation::IrrelevantFact);
        added.facts = match (
            question.facts.as_str(),
            compiled.check_formula(&question.facts),
        ) {
            ("true", _) | (_, Err(_)) => fact.to_string(),
            (_, Ok((written, _))) => and_of([written, fact]).to_string(),
        };
        added.text = templated_question(words, &added.facts, &added.claim, &added.expected);
        out.push(added);
    }

    let mut paraphrase = variant("paraphrase", Relation::Paraphrase);
    paraphrase.text =
        paraphrased_question(words, &question.facts, &question.claim, &question.expected);
    out.push(paraphrase);
    out
}

/// A fact about an input the question does not mention that cannot change
/// its answer, with a value the rules and facts allow (taken from one of
/// the finding's scenarios). For an undecided claim only the explain
/// layer's irrelevant inputs qualify; a decided one stays decided under
/// any consistent extra fact.
fn irrelevant_fact(
    worker: &SolverWorker,
    words: &WordingContext,
    facts: &Expr,
    claim: &Expr,
) -> Option<Expr> {
    let compiled = words.compiled;
    let finding = worker.verify(facts.clone(), claim.clone());
    let scenario: &Scenario = finding
        .claims_true_scenario
        .as_ref()
        .or(finding.claims_false_scenario.as_ref())?;
    let mentioned: Vec<&str> = facts.symbols().into_iter().chain(claim.symbols()).collect();
    let candidates = match finding.kind {
        FindingKind::Satisfiable => irrelevant_inputs(worker, compiled, facts, claim),
        FindingKind::Valid | FindingKind::Invalid => crate::explain::inputs::inputs(compiled),
        _ => return None,
    };
    let variable = candidates
        .into_iter()
        .find(|v| !mentioned.contains(&v.as_str()) && scenario.get(v).is_some())?;
    let value = scenario.get(&variable)?;
    let fact = equals(&variable, value)?;
    compiled.check_formula(&fact.to_string()).ok()?;
    Some(fact)
}
