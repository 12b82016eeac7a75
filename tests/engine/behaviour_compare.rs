//! The semantic diff's comparison of two models, each side's rules held
//! once for the questions that minimize a distinguishing scenario: the
//! relation of the two whole rule sets, and scenarios minimized to the
//! values that matter.

use precept::lifecycle::behaviour::{Relation, compare};
use precept::model::finding::Value;
use precept::model::import::import_smtlib;

const BASE: &str = "(declare-const x Int)(declare-const y Bool)
    (assert (! (=> (> x 5) y) :named R1))
    (assert (! (> x 0) :named R2))";

fn with(extra: &str) -> precept::model::PolicyModel {
    import_smtlib(&format!("{BASE}{extra}")).expect("valid SMT-LIB")
}

fn ids(model: &precept::model::PolicyModel) -> Vec<String> {
    model.rules.iter().map(|r| r.id.clone()).collect()
}

#[test]
fn a_rule_the_shared_rules_imply_changes_nothing() {
    let a = with("");
    let b = with("(assert (! (=> (> x 10) y) :named R3))");
    let found = compare(&a, &b, &ids(&b), 10_000);
    assert_eq!(found.relation, Relation::Equivalent, "{found:?}");
}

#[test]
fn a_rule_only_one_side_has_makes_it_stronger_and_shows_the_scenario() {
    let a = with("");
    let b = with("(assert (! (=> (> x 2) y) :named R3))");
    let found = compare(&a, &b, &ids(&b), 10_000);
    assert_eq!(found.relation, Relation::BStronger, "{found:?}");
    let scenario = found
        .a_allows_not_b
        .as_ref()
        .expect("A allows what B refuses");
    // Minimized to the values under which B allows nothing: x above 2 (and
    // at most 5, or A would need y) with y false; neither can go.
    let names: Vec<&str> = scenario.values.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["x", "y"], "{scenario:?}");
    assert_eq!(scenario.values[1].1, Value::Bool(false), "{scenario:?}");
    assert!(found.b_allows_not_a.is_none(), "{found:?}");
    // The other way round, the roles swap.
    let back = compare(&b, &a, &ids(&b), 10_000);
    assert_eq!(back.relation, Relation::AStronger, "{back:?}");
}

#[test]
fn a_rule_each_side_has_alone_makes_them_differ_both_ways() {
    let a = with("(assert (! (< x 50) :named R3))");
    let b = with("(assert (! (> x 40) :named R4))");
    let found = compare(&a, &b, &["R3".into(), "R4".into()], 10_000);
    assert_eq!(found.relation, Relation::DifferBothWays, "{found:?}");
}
