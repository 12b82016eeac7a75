//! Scenario values read like real cases where the rules allow: counts stay
//! at zero, a measure such as an age takes the middle of the thresholds the
//! rules compare it with rather than 0, and no preference changes a finding.

mod support;

use precept::core::solve::{FindingKind, Value};
use std::time::Duration;
use support::{formula, model, worker};

const RIDERS: &str = "
(declare-const riderAge Int)
(declare-const numPassengers Int)
(declare-const onRoad Bool)
(declare-const mayRide Bool)
(declare-const needsCbt Bool)
(assert (=> (< riderAge 16) (not mayRide)))
(assert (=> (and onRoad (>= riderAge 17)) needsCbt))
(assert (=> (>= riderAge 24) mayRide))
(assert (>= numPassengers 0))
(assert (=> (> numPassengers 1) (not mayRide)))
";

fn int(value: Option<&Value>) -> i64 {
    match value {
        Some(Value::Int(i)) => i.try_into().expect("small"),
        other => panic!("not an Int: {other:?}"),
    }
}

#[test]
fn an_age_the_premise_leaves_open_is_a_threshold_the_rules_use_not_zero() {
    let model = model(RIDERS);
    let worker = worker(&model, Duration::from_secs(5));
    let finding = worker.verify(formula(&model, "onRoad"), formula(&model, "needsCbt"));
    assert_eq!(finding.kind, FindingKind::Satisfiable);
    let yes = finding.claims_true_scenario.expect("claims-true scenario");
    // 16, 17 and 24 are compared with the age: the middle one, 17.
    assert_eq!(int(yes.get("riderAge")), 17);
    // A count stays at zero.
    assert_eq!(int(yes.get("numPassengers")), 0);
    // Where the preference would decide the claim, the rules win.
    let no = finding
        .claims_false_scenario
        .expect("claims-false scenario");
    assert!(int(no.get("riderAge")) < 17);
}

#[test]
fn preferences_never_change_a_finding() {
    let model = model(RIDERS);
    let worker = worker(&model, Duration::from_secs(5));
    let finding = worker.verify(
        formula(&model, "(and onRoad (= riderAge 30))"),
        formula(&model, "needsCbt"),
    );
    assert_eq!(finding.kind, FindingKind::Valid);
    let yes = finding.claims_true_scenario.expect("claims-true scenario");
    assert_eq!(int(yes.get("riderAge")), 30);
    let finding = worker.verify(
        formula(&model, "onRoad"),
        formula(&model, "(= riderAge 17)"),
    );
    assert_eq!(finding.kind, FindingKind::Satisfiable);
}
