//! Scenario values read like real cases where the rules allow: counts stay
//! at zero, a measure such as an age takes the middle of the thresholds the
//! rules compare it with rather than 0, and no preference changes a finding.

use crate::support;

use precept::solve::{FindingKind, Value};
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

const MOTORCYCLES: &str = "
(declare-const riderAge Int)
(declare-const numPassengers Int)
(declare-const powerKw Real)
(declare-const feePaid Real)
(declare-const onRoad Bool)
(declare-const needsCbt Bool)
(declare-const fullLicence Bool)
(assert (=> (and onRoad (>= riderAge 17)) needsCbt))
(assert (=> (< riderAge 16) (not onRoad)))
(assert (=> (>= riderAge 24) fullLicence))
(assert (>= numPassengers 0))
(assert (=> (> numPassengers 1) (not onRoad)))
(assert (=> onRoad (<= powerKw 35.0)))
(assert (=> (> powerKw 11.0) fullLicence))
(assert (=> (< powerKw 2.5) (not needsCbt)))
(assert (= feePaid (* 1.5 powerKw)))
";

fn real(value: Option<&Value>) -> f64 {
    match value {
        Some(Value::Real(r)) => {
            use num_traits::ToPrimitive;
            r.to_f64().expect("finite")
        }
        other => panic!("not a Real: {other:?}"),
    }
}

#[test]
fn a_real_measure_takes_the_middle_threshold_the_rules_use_not_zero() {
    let model = model(MOTORCYCLES);
    let worker = worker(&model, Duration::from_secs(5));
    let finding = worker.verify(formula(&model, "onRoad"), formula(&model, "needsCbt"));
    assert_eq!(finding.kind, FindingKind::Satisfiable);
    let yes = finding.claims_true_scenario.expect("claims-true scenario");
    // 2.5, 11 and 35 are compared with the power output: the middle one.
    assert_eq!(real(yes.get("powerKw")), 11.0);
    // An amount the rules compute follows from it.
    assert_eq!(real(yes.get("feePaid")), 16.5);
    assert_eq!(int(yes.get("riderAge")), 17);
    assert_eq!(int(yes.get("numPassengers")), 0);
}

#[test]
fn a_real_the_question_fixes_never_costs_an_int_its_realistic_value() {
    let model = model(MOTORCYCLES);
    let worker = worker(&model, Duration::from_secs(5));
    // The premise refutes the power preference; the age and count keep theirs.
    let finding = worker.verify(
        formula(&model, "(and onRoad (= powerKw 20.0))"),
        formula(&model, "fullLicence"),
    );
    assert_eq!(finding.kind, FindingKind::Valid);
    let yes = finding.claims_true_scenario.expect("claims-true scenario");
    assert_eq!(real(yes.get("powerKw")), 20.0);
    assert_eq!(int(yes.get("riderAge")), 17);
    assert_eq!(int(yes.get("numPassengers")), 0);
    // The claim decides the power against its preference: the rules win.
    let finding = worker.verify(formula(&model, "onRoad"), formula(&model, "(not needsCbt)"));
    assert_eq!(finding.kind, FindingKind::Satisfiable);
    let yes = finding.claims_true_scenario.expect("claims-true scenario");
    assert!(real(yes.get("powerKw")) < 2.5 || int(yes.get("riderAge")) < 17);
}

/// On the LLM-formalized CBT page, a rider on the road rides a motorcycle of
/// the power the rules allow (11 kW), not one of 0 kW.
#[test]
fn the_cbt_page_shows_a_realistic_motorcycle_power_output() {
    let scratch = support::copy_test_data("lab/cbt-llm-model");
    let out = support::precept(&[
        "verify",
        scratch.path().to_str().unwrap(),
        "--premise",
        "ridesMopedOrMotorcycleOnRoad",
        "--claim",
        "usesLPlates",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", support::stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&support::stdout(&out)).unwrap();
    assert_eq!(json["finding"], "SATISFIABLE");
    for side in ["claims_true_scenario", "claims_false_scenario"] {
        let scenario = &json[side];
        assert_eq!(
            scenario["motorcyclePowerOutputKw"], "11",
            "{side}: {scenario}"
        );
        assert_eq!(scenario["riderAge"], "17", "{side}: {scenario}");
    }
}

/// The power output is ten more than the rider's age, so the age's preference
/// (40, the middle of 16, 40 and 70) and the power's (35, the upper of 11 and
/// 35) cannot both hold.
const LINKED: &str = "
(declare-const riderAge Int)
(declare-const powerKw Real)
(declare-const onRoad Bool)
(declare-const needsCbt Bool)
(declare-const fullLicence Bool)
(assert (=> (< riderAge 16) (not onRoad)))
(assert (=> (and onRoad (>= riderAge 40)) needsCbt))
(assert (=> (>= riderAge 70) fullLicence))
(assert (= powerKw (+ 10.0 (to_real riderAge))))
(assert (=> (> powerKw 11.0) needsCbt))
(assert (=> (>= powerKw 35.0) needsCbt))
";

#[test]
fn where_a_real_and_an_int_preference_clash_the_int_keeps_its_value() {
    let model = model(LINKED);
    let worker = worker(&model, Duration::from_secs(5));
    let finding = worker.verify(formula(&model, "onRoad"), formula(&model, "fullLicence"));
    assert_eq!(finding.kind, FindingKind::Satisfiable);
    for scenario in [finding.claims_true_scenario, finding.claims_false_scenario] {
        let scenario = scenario.expect("both scenarios");
        assert_eq!(int(scenario.get("riderAge")), 40);
        assert_eq!(real(scenario.get("powerKw")), 50.0);
    }
}

/// Values are read exactly from the solver's numerals: a negative fraction,
/// an Int too large for 64 bits, and their negations.
#[test]
fn fractions_negatives_and_huge_integers_are_read_exactly() {
    use num_bigint::BigInt;
    use num_rational::BigRational;
    let model = model(
        "
(declare-const share Real)
(declare-const balance Int)
(declare-const settled Bool)
(assert (=> settled (>= balance 0)))
",
    );
    let worker = worker(&model, Duration::from_secs(5));
    let huge: BigInt = "123456789012345678901234567890".parse().unwrap();
    let premise = format!("(and (= (* 3.0 share) (- 7.0)) (= balance (- {huge})))");
    let finding = worker.verify(formula(&model, &premise), formula(&model, "settled"));
    assert_eq!(finding.kind, FindingKind::Invalid);
    let finding = worker.verify(formula(&model, &premise), formula(&model, "(not settled)"));
    assert_eq!(finding.kind, FindingKind::Valid);
    let yes = finding.claims_true_scenario.expect("claims-true scenario");
    assert_eq!(
        yes.get("share"),
        Some(&Value::Real(BigRational::new((-7).into(), 3.into())))
    );
    assert_eq!(yes.get("balance"), Some(&Value::Int(-huge.clone())));
    assert_eq!(yes.get("settled"), Some(&Value::Bool(false)));
    let premise = format!("(and (= (* 4.0 share) 401.0) (= balance {huge}))");
    let finding = worker.verify(formula(&model, &premise), formula(&model, "settled"));
    assert_eq!(finding.kind, FindingKind::Satisfiable);
    let yes = finding.claims_true_scenario.expect("claims-true scenario");
    assert_eq!(
        yes.get("share"),
        Some(&Value::Real(BigRational::new(401.into(), 4.into())))
    );
    assert_eq!(yes.get("balance"), Some(&Value::Int(huge)));
    assert_eq!(yes.get("settled"), Some(&Value::Bool(true)));
}
