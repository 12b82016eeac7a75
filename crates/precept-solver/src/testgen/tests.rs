//! Unit tests of test generation's inner steps.

use super::budget::*;
use super::candidates::*;
use super::cases::*;
use super::generate::candidates;
use crate::model::CompiledModel;
use crate::smt::Expr;
use crate::smt::build::*;
use crate::smt::parse_expr;
use num_rational::BigRational;
use std::collections::{BTreeSet, HashSet};

fn e(text: &str) -> Expr {
    parse_expr(text).unwrap()
}

fn model(smtlib: &str) -> CompiledModel {
    let policy = crate::model::import::import_smtlib(smtlib).unwrap();
    let compiled = crate::model::compile(&policy);
    assert!(compiled.issues.is_empty(), "{:?}", compiled.issues);
    compiled
}

const SMALL: &str = "(declare-datatypes ((Age 0)) (((CHILD) (ADULT))))
    (declare-const age Age) (declare-const units Int) (declare-const fee Real)
    (declare-const ok Bool) (declare-const member Bool)
    (assert (= fee (ite (= age CHILD) 5.0 10.0)))
    (assert (= ok (<= units 3)))
    (assert (=> (and member (> units 0)) (< fee 20.5)))";

#[test]
fn rules_split_into_guarded_cases() {
    let shown: Vec<String> = cases_of(&model(SMALL))
        .iter()
        .map(|c| format!("{}: {} => {}", c.rule, c.antecedent(), c.conclusion))
        .collect();
    assert_eq!(
        shown,
        vec![
            "R1: (= age CHILD) => (= fee 5.0)",
            "R1: (not (= age CHILD)) => (= fee 10.0)",
            "R2: (<= units 3) => ok",
            "R2: (not (<= units 3)) => (not ok)",
            "R3: (and member (> units 0)) => (< fee 20.5)",
        ]
    );
}

#[test]
fn boundaries_step_by_sort() {
    let candidates = candidates(&model(SMALL), 0);
    let points: Vec<String> = candidates
        .iter()
        .filter(|c| c.kind == CandidateKind::Boundary && c.rules == ["R2"])
        .map(|c| c.premise.to_string())
        .collect();
    assert!(points.contains(&"(= units 2)".to_string()), "{points:?}");
    assert!(points.contains(&"(= units 4)".to_string()), "{points:?}");
    // R3's other condition is held true so the threshold decides.
    assert!(
        candidates
            .iter()
            .any(|c| c.premise.to_string() == "(and member (= units 1))")
    );
}

#[test]
fn the_budget_reaches_every_rule_first() {
    let all = candidates(&model(SMALL), 0);
    let kept = within_budget(all.clone(), 3);
    assert_eq!(kept.len(), 3);
    let rules: BTreeSet<&str> = kept.iter().map(|c| c.rules[0].as_str()).collect();
    assert_eq!(rules.len(), 3, "{kept:?}");
    // Each rule's most telling kind first: R1 has no threshold.
    let kinds: Vec<(&str, CandidateKind)> =
        kept.iter().map(|c| (c.rules[0].as_str(), c.kind)).collect();
    assert_eq!(
        kinds,
        vec![
            ("R2", CandidateKind::Boundary),
            ("R3", CandidateKind::Boundary),
            ("R1", CandidateKind::AntecedentTrue),
        ]
    );
    assert_eq!(within_budget(all.clone(), usize::MAX).len(), {
        let keys: HashSet<String> = all
            .iter()
            .map(|c| key(&c.premise.to_string(), &c.claim.to_string()))
            .collect();
        keys.len()
    });
}

#[test]
fn offsets_fold_into_constants() {
    let one = BigRational::from_integer(1.into());
    assert_eq!(offset(&e("5"), &-one.clone(), true).to_string(), "4");
    assert_eq!(offset(&e("0"), &-one.clone(), true).to_string(), "(- 1)");
    assert_eq!(
        offset(&e("(+ departureDay 90)"), &one, true).to_string(),
        "(+ departureDay 91)"
    );
    assert_eq!(
        offset(&e("x"), &-ten_to_minus(2), false).to_string(),
        "(- x 0.01)"
    );
    assert_eq!(
        offset(&e("5.0"), &ten_to_minus(2), false).to_string(),
        "5.01"
    );
}

#[test]
fn conjunctions_flatten_and_negations_cancel() {
    let both = and_of([e("(and a b)"), e("true"), e("a"), e("c")]);
    assert_eq!(both.to_string(), "(and a b c)");
    assert_eq!(and_of([]).to_string(), "true");
    assert_eq!(not_of(&e("(not a)")).to_string(), "a");
}

#[test]
fn atoms_carry_their_deciding_context() {
    let mut found = Vec::new();
    atoms(&e("(and a (or b c))"), &[], &mut found);
    let shown: Vec<String> = found
        .iter()
        .map(|a| format!("{} | {}", a.atom, and_of(a.context.clone())))
        .collect();
    assert_eq!(
        shown,
        vec!["a | (or b c)", "b | (and a (not c))", "c | (and a (not b))"]
    );
}
