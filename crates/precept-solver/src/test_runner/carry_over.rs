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
//! workbench's consistency check, which sends every test back to the solver
//! then. A finding whose rule set was not proved minimal, or that the solver
//! could not decide, is always asked again.

use crate::model::CompiledModel;
use crate::model::evaluate::{Known, holds};
use crate::model::finding::{KnownSide, KnownSides, Scenario};
use crate::smt::Expr;
use crate::solve::{Finding, FindingKind};

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
    if finding.kind == FindingKind::Impossible {
        // Its one piece of evidence is a set of rules the premise
        // contradicts, kept while the policy was consistent.
        return finding.policy_inconsistent == Some(false)
            && finding.rules_minimal
            && !names(&finding.contradicting_rules, change.id);
    }
    let sides = known_sides(finding, change, model);
    sides.claim_true.is_some() && sides.claim_false.is_some()
}

/// What of `finding`'s evidence, proved on the model before `change`,
/// still proves each side of its question on `model`: a scenario that
/// satisfies the new rule, a minimal rule set that does not name it. The
/// solver asks only the other sides again. Nothing for an IMPOSSIBLE
/// finding (its rule set is for the premise alone), one the solver could
/// not decide, or one whose rule set was not proved minimal.
pub fn known_sides(finding: &Finding, change: RuleChange<'_>, model: &CompiledModel) -> KnownSides {
    let holds = |scenario: &Option<Scenario>| {
        scenario
            .as_ref()
            .filter(|scenario| {
                change
                    .formula
                    .is_none_or(|formula| satisfies(scenario, formula, model))
            })
            .map(|scenario| KnownSide::Holds(scenario.clone()))
    };
    let refuted = |rules: &[String]| {
        (finding.rules_minimal && !names(rules, change.id))
            .then(|| KnownSide::Refuted(rules.to_vec()))
    };
    match finding.kind {
        FindingKind::Valid => KnownSides {
            claim_true: holds(&finding.claims_true_scenario),
            claim_false: refuted(&finding.supporting_rules),
        },
        FindingKind::Invalid => KnownSides {
            claim_true: refuted(&finding.contradicting_rules),
            claim_false: holds(&finding.claims_false_scenario),
        },
        FindingKind::Satisfiable => KnownSides {
            claim_true: holds(&finding.claims_true_scenario),
            claim_false: holds(&finding.claims_false_scenario),
        },
        _ => KnownSides::default(),
    }
}

fn names(rules: &[String], id: &str) -> bool {
    rules.iter().any(|rule| rule == id)
}

/// Whether `formula` is true under `scenario`'s values, exactly; an enum
/// value's name stands for itself.
pub fn satisfies(scenario: &Scenario, formula: &Expr, model: &CompiledModel) -> bool {
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
    use crate::model::compile;
    use crate::model::finding::Value;
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
    fn the_side_whose_evidence_still_holds_is_known_and_the_other_is_asked_again() {
        let after = model(&[("R1", "(=> member (<= fee 3))"), ("R2", "(>= fee 0)")]);
        let invalid = Finding {
            contradicting_rules: vec!["R2".into()],
            claims_false_scenario: Some(scenario(true, 5, "GOLD")),
            ..Finding::new(FindingKind::Invalid, "member", "(< fee 0)")
        };
        let sides = known_sides(&invalid, RuleChange::in_model("R1", &after), &after);
        assert_eq!(
            sides.claim_true,
            Some(KnownSide::Refuted(vec!["R2".into()]))
        );
        assert_eq!(sides.claim_false, None);
        let satisfiable = satisfiable(scenario(true, 2, "GOLD"), scenario(true, 9, "BASIC"));
        let sides = known_sides(&satisfiable, RuleChange::in_model("R1", &after), &after);
        assert_eq!(
            sides.claim_true,
            Some(KnownSide::Holds(scenario(true, 2, "GOLD")))
        );
        assert_eq!(sides.claim_false, None);
        let impossible = Finding {
            contradicting_rules: vec!["R2".into()],
            policy_inconsistent: Some(false),
            ..Finding::new(FindingKind::Impossible, "(< fee 0)", "member")
        };
        let change = RuleChange::in_model("R1", &after);
        assert_eq!(
            known_sides(&impossible, change, &after),
            KnownSides::default()
        );
        assert!(still_proved(&impossible, change, &after));
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
