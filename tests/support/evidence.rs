//! Whether a finding's scenarios are evidence for it.

use precept::model::CompiledModel;
use precept::model::evaluate::{Known, holds};
use precept::smt::Expr;
use precept::solve::Finding;

/// Whether each scenario of `finding` satisfies the premise, the claim (or
/// its negation, for the claim-false scenario) and no rule of `model` is
/// false in it, by exact evaluation.
pub fn scenarios_are_evidence(
    finding: &Finding,
    premise: &Expr,
    claim: &Expr,
    model: &CompiledModel,
) -> bool {
    let cases = [
        (&finding.claims_true_scenario, true),
        (&finding.claims_false_scenario, false),
    ];
    cases.into_iter().all(|(scenario, claim_holds)| {
        let Some(scenario) = scenario else {
            return true;
        };
        // A variable looks up to its value, an enum value to itself.
        let lookup = |name: &str| {
            scenario.get(name).and_then(Known::of).or_else(|| {
                let is_value = model
                    .enums
                    .iter()
                    .any(|(_, values)| values.iter().any(|v| v == name));
                is_value.then(|| Known::Enum(name.to_string()))
            })
        };
        holds(premise, &lookup) == Some(true)
            && holds(claim, &lookup) == Some(claim_holds)
            && model
                .rules
                .iter()
                .all(|rule| holds(&rule.formula, &lookup) != Some(false))
    })
}
