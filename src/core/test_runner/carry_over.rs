//! After one rule changes, a test whose proved finding does not rest on
//! the old rule keeps it, without the solver. A finding's evidence is of
//! two kinds, and each survives the change on its own terms:
//!
//! - a minimal set of rules that, with the premise (and the claim or its
//!   negation), is unsatisfiable: it still is when the set does not name
//!   the changed rule, since every rule in it is unchanged, and it is still
//!   minimal, since minimality speaks only of the set's own rules;
//! - a scenario where the rules, the premise (and the claim or its
//!   negation) hold: it still is one when it satisfies the new rule by exact
//!   evaluation (`model/evaluate.rs`), since every other rule of its cone is
//!   unchanged and the rules outside the cone share no variable with it. A
//!   new rule that reaches a variable the scenario does not give is true
//!   there only if the given values settle it, whatever the others are.
//!
//! So the finding's kind, its rule sets and its scenarios are proved again
//! on the changed model. An IMPOSSIBLE finding is kept only while the policy
//! was consistent; whether the change made it inconsistent is the
//! workbench's consistency probe, which sends every test back to the solver
//! then. A finding whose rule set was not proved minimal, or that the solver
//! could not decide, is always asked again.

use crate::core::model::CompiledModel;
use crate::core::model::evaluate::{Known, holds};
use crate::core::model::finding::Scenario;
use crate::core::smt::Expr;
use crate::core::solve::{Finding, FindingKind};

/// One rule changed: its id and its formula now (elaborated), or `None`
/// when it was deleted. A rule added is a change of a rule that was not
/// there.
#[derive(Debug, Clone, Copy)]
pub struct RuleChange<'a> {
    pub id: &'a str,
    pub formula: Option<&'a Expr>,
}

impl<'a> RuleChange<'a> {
    /// The change of rule `id` as `model` (after the change) has it.
    pub fn in_model(id: &'a str, model: &'a CompiledModel) -> RuleChange<'a> {
        RuleChange {
            id,
            formula: model.rule(id).map(|r| &r.formula),
        }
    }
}

/// Whether `finding`, proved on the model before `change`, is proved by the
/// same evidence on `model`, the model after it.
pub fn still_proved(finding: &Finding, change: RuleChange<'_>, model: &CompiledModel) -> bool {
    let (needs_true, needs_false) = match finding.kind {
        FindingKind::Valid => (true, false),
        FindingKind::Invalid => (false, true),
        FindingKind::Satisfiable => (true, true),
        FindingKind::Impossible => {
            if finding.policy_inconsistent != Some(false) {
                return false;
            }
            (false, false)
        }
        _ => return false,
    };
    let names_changed_rule = finding
        .supporting_rules
        .iter()
        .chain(&finding.contradicting_rules)
        .any(|rule| rule == change.id);
    if !finding.rules_minimal || names_changed_rule {
        return false;
    }
    let scenario_holds = |scenario: &Option<Scenario>, needed: bool| match scenario {
        None => !needed,
        Some(scenario) => change
            .formula
            .is_none_or(|formula| satisfies(scenario, formula, model)),
    };
    scenario_holds(&finding.claims_true_scenario, needs_true)
        && scenario_holds(&finding.claims_false_scenario, needs_false)
}

/// Whether `formula` is true under `scenario`'s values, exactly; an enum
/// value's name stands for itself.
fn satisfies(scenario: &Scenario, formula: &Expr, model: &CompiledModel) -> bool {
    let lookup = |name: &str| match scenario.get(name) {
        Some(value) => Known::of(value),
        None if model.vocabulary.variable_sort(name).is_none()
            && model
                .enums
                .iter()
                .any(|(_, values)| values.iter().any(|v| v == name)) =>
        {
            Some(Known::Enum(name.to_string()))
        }
        None => None,
    };
    holds(formula, &lookup) == Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::compile;
    use crate::core::model::finding::Value;
    use num_bigint::BigInt;

    fn model(rules: &[(&str, &str)]) -> CompiledModel {
        let json = serde_json::json!({
            "schema_version": 1,
            "types": [{ "name": "Tier", "values": [{ "value": "GOLD" }, { "value": "BASIC" }] }],
            "variables": [
                { "name": "member", "type": "Bool" },
                { "name": "fee", "type": "Int" },
                { "name": "tier", "type": "Tier" },
            ],
            "rules": rules.iter().map(|(id, e)| serde_json::json!({ "id": id, "expression": e }))
                .collect::<Vec<_>>(),
        });
        let compiled = compile(&serde_json::from_value(json).unwrap());
        assert!(compiled.issues.is_empty(), "{:?}", compiled.issues);
        compiled
    }

    fn scenario(member: bool, fee: i64, tier: &str) -> Scenario {
        Scenario {
            values: vec![
                ("member".into(), Value::Bool(member)),
                ("fee".into(), Value::Int(BigInt::from(fee))),
                ("tier".into(), Value::Enum(tier.into())),
            ],
        }
    }

    fn satisfiable(true_case: Scenario, false_case: Scenario) -> Finding {
        Finding {
            claims_true_scenario: Some(true_case),
            claims_false_scenario: Some(false_case),
            ..Finding::new(FindingKind::Satisfiable, "member", "(= tier GOLD)")
        }
    }

    #[test]
    fn a_scenario_that_satisfies_the_new_rule_keeps_the_finding() {
        let after = model(&[("R1", "(=> member (<= fee 10))")]);
        let finding = satisfiable(scenario(true, 5, "GOLD"), scenario(true, 0, "BASIC"));
        assert!(still_proved(
            &finding,
            RuleChange::in_model("R1", &after),
            &after
        ));
    }

    #[test]
    fn a_scenario_the_new_rule_refutes_sends_the_test_back() {
        let after = model(&[("R1", "(=> member (<= fee 3))")]);
        let finding = satisfiable(scenario(true, 5, "GOLD"), scenario(true, 0, "BASIC"));
        assert!(!still_proved(
            &finding,
            RuleChange::in_model("R1", &after),
            &after
        ));
    }

    #[test]
    fn enum_values_in_the_new_rule_stand_for_themselves() {
        let after = model(&[("R1", "(=> (= tier GOLD) (<= fee 5))")]);
        let kept = satisfiable(scenario(true, 5, "GOLD"), scenario(true, 9, "BASIC"));
        assert!(still_proved(
            &kept,
            RuleChange::in_model("R1", &after),
            &after
        ));
        let refuted = satisfiable(scenario(true, 6, "GOLD"), scenario(true, 9, "BASIC"));
        assert!(!still_proved(
            &refuted,
            RuleChange::in_model("R1", &after),
            &after
        ));
    }

    #[test]
    fn a_rule_set_that_names_the_changed_rule_sends_the_test_back() {
        let after = model(&[("R1", "(=> member (>= fee 1))"), ("R2", "(<= fee 100)")]);
        let valid = Finding {
            supporting_rules: vec!["R1".into()],
            claims_true_scenario: Some(scenario(true, 4, "GOLD")),
            ..Finding::new(FindingKind::Valid, "member", "(>= fee 1)")
        };
        assert!(!still_proved(
            &valid,
            RuleChange::in_model("R1", &after),
            &after
        ));
        assert!(still_proved(
            &valid,
            RuleChange::in_model("R2", &after),
            &after
        ));
    }

    #[test]
    fn a_deleted_rule_leaves_every_scenario_standing_but_not_its_own_rule_sets() {
        let after = model(&[("R2", "(<= fee 100)")]);
        let deleted = RuleChange {
            id: "R1",
            formula: None,
        };
        let finding = satisfiable(scenario(true, 500, "GOLD"), scenario(false, 0, "BASIC"));
        assert!(still_proved(&finding, deleted, &after));
        let impossible = Finding {
            contradicting_rules: vec!["R1".into()],
            policy_inconsistent: Some(false),
            ..Finding::new(FindingKind::Impossible, "(< fee 0)", "member")
        };
        assert!(!still_proved(&impossible, deleted, &after));
    }

    #[test]
    fn impossible_is_kept_only_while_the_policy_was_consistent() {
        let after = model(&[("R1", "(>= fee 0)"), ("R2", "(=> member (<= fee 10))")]);
        let change = RuleChange::in_model("R2", &after);
        let mut impossible = Finding {
            contradicting_rules: vec!["R1".into()],
            policy_inconsistent: Some(false),
            ..Finding::new(FindingKind::Impossible, "(< fee 0)", "member")
        };
        assert!(still_proved(&impossible, change, &after));
        for unknown_or_inconsistent in [None, Some(true)] {
            impossible.policy_inconsistent = unknown_or_inconsistent;
            assert!(!still_proved(&impossible, change, &after));
        }
    }

    #[test]
    fn undecided_or_unproved_findings_are_always_asked_again() {
        let after = model(&[("R1", "(<= fee 100)")]);
        let change = RuleChange {
            id: "R9",
            formula: None,
        };
        let too_complex = Finding::too_complex("member", "member", "timeout");
        assert!(!still_proved(&too_complex, change, &after));
        let mut not_minimal = Finding {
            supporting_rules: vec!["R1".into()],
            claims_true_scenario: Some(scenario(true, 4, "GOLD")),
            ..Finding::new(FindingKind::Valid, "member", "(<= fee 100)")
        };
        assert!(still_proved(&not_minimal, change, &after));
        not_minimal.rules_minimal = false;
        assert!(!still_proved(&not_minimal, change, &after));
        let missing_scenario = Finding::new(FindingKind::Valid, "member", "(<= fee 100)");
        assert!(!still_proved(&missing_scenario, change, &after));
    }

    #[test]
    fn a_new_rule_settled_by_the_given_values_holds_whatever_the_others_are() {
        let json = serde_json::json!({
            "schema_version": 1,
            "variables": [
                { "name": "member", "type": "Bool" },
                { "name": "elsewhere", "type": "Int" },
            ],
            "rules": [{ "id": "R1", "expression": "(=> member (> elsewhere 3))" }],
        });
        let after = compile(&serde_json::from_value(json).unwrap());
        let given = |member| Scenario {
            values: vec![("member".into(), Value::Bool(member))],
        };
        let change = RuleChange::in_model("R1", &after);
        let settled = satisfiable(given(false), given(false));
        assert!(still_proved(&settled, change, &after));
        let open = satisfiable(given(true), given(false));
        assert!(!still_proved(&open, change, &after));
    }
}
