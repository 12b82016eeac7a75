//! The solver-backed lint checks, each on a small model made to trigger it,
//! through the real worker and Z3.

mod support;

use precept::core::lint::{Diagnostic, LintCode, Severity};
use precept::core::solve::SolverWorker;
use precept::core::solve::lint_checks::LintEvent;
use std::time::Duration;
use support::model;

fn lint(smtlib: &str, timeout: Duration) -> (Vec<Diagnostic>, Vec<(usize, usize)>) {
    let compiled = model(smtlib);
    let worker = SolverWorker::spawn(timeout);
    let (events, received) = std::sync::mpsc::channel();
    worker.lint(compiled, events);
    let mut found = Vec::new();
    let mut progress = Vec::new();
    for event in received.iter() {
        match event {
            LintEvent::Found(d) => found.push(*d),
            LintEvent::Progress { done, total, .. } => progress.push((done, total)),
            LintEvent::Finished { .. } => break,
        }
    }
    (found, progress)
}

fn with_code(found: &[Diagnostic], code: LintCode) -> Vec<&Diagnostic> {
    found.iter().filter(|d| d.code == code).collect()
}

const SECONDS: Duration = Duration::from_secs(5);

#[test]
fn every_disjoint_conflict_is_reported_minimally() {
    let (found, _) = lint(
        "(declare-const x Int)(declare-const y Int)(declare-const z Int)
         (assert (> x 5))(assert (< x 3))(assert (> z 0))(assert (= y 1))(assert (= y 2))",
        SECONDS,
    );
    let conflicts = with_code(&found, LintCode::Inconsistent);
    assert_eq!(conflicts.len(), 2, "{found:#?}");
    let mut sets: Vec<Vec<String>> = conflicts.iter().map(|d| d.rules.clone()).collect();
    sets.sort();
    assert_eq!(
        sets,
        vec![
            vec!["R1".to_string(), "R2".to_string()],
            vec!["R4".to_string(), "R5".to_string()]
        ]
    );
    assert!(conflicts.iter().all(|d| d.severity == Severity::Error));
}

#[test]
fn vacuous_and_redundant_rules_are_found_with_their_reasons() {
    let (found, progress) = lint(
        "(declare-const age Int)(declare-const adult Bool)(declare-const senior Bool)
         (assert (>= age 0))(assert (<= age 130))
         (assert (=> (> age 200) senior))
         (assert (=> (>= age 18) adult))
         (assert (=> (>= age 65) adult))",
        SECONDS,
    );
    let vacuous = with_code(&found, LintCode::VacuousRule);
    assert_eq!(vacuous.len(), 1, "{found:#?}");
    assert_eq!(vacuous[0].rules, vec!["R3", "R2"]);
    let redundant = with_code(&found, LintCode::RedundantRule);
    assert!(
        redundant.iter().any(|d| d.rules == vec!["R5", "R4"]),
        "{redundant:#?}"
    );
    assert!(redundant.iter().all(|d| d.fix.is_some()));
    assert!(!progress.is_empty(), "progress is reported");
}

#[test]
fn forced_variables_and_unreachable_values() {
    let (found, _) = lint(
        "(declare-datatype Tier ((GOLD) (SILVER) (BRONZE)))(declare-const tier Tier)(declare-const fee Real)(declare-const vip Bool)
         (assert (= fee 50.0))(assert (not (= tier BRONZE)))(assert (=> vip (= tier GOLD)))",
        SECONDS,
    );
    let forced = with_code(&found, LintCode::ForcedVariable);
    assert_eq!(forced.len(), 1, "{found:#?}");
    assert_eq!(forced[0].variables, vec!["fee"]);
    assert!(forced[0].message.contains("50"), "{}", forced[0].message);
    let unreachable = with_code(&found, LintCode::UnreachableEnumValue);
    assert_eq!(unreachable.len(), 1, "{found:#?}");
    assert!(unreachable[0].message.contains("BRONZE") && unreachable[0].rules == vec!["R2"]);
}

#[test]
fn conflicting_overlaps_come_with_a_scenario() {
    let (found, _) = lint(
        "(declare-const operated Bool)(declare-const travelled Bool)(declare-const deniedBoarding Bool)(declare-const refund Bool)
         (assert (=> (and operated (not travelled)) (not refund)))
         (assert (=> deniedBoarding refund))
         (assert (=> deniedBoarding (not travelled)))",
        SECONDS,
    );
    let overlaps = with_code(&found, LintCode::ConflictingOverlap);
    assert_eq!(overlaps.len(), 1, "{found:#?}");
    assert_eq!(overlaps[0].rules, vec!["R1", "R2"]);
    let scenario = overlaps[0].scenario.as_ref().expect("a scenario");
    assert_eq!(
        scenario
            .get("deniedBoarding")
            .map(ToString::to_string)
            .as_deref(),
        Some("true")
    );
    assert_eq!(
        scenario.get("operated").map(ToString::to_string).as_deref(),
        Some("true")
    );
}

#[test]
fn gaps_name_the_output_and_give_a_witness() {
    let (found, _) = lint(
        "(declare-const age Int)(declare-const fee Real)
         (assert (=> (< age 12) (= fee 5.0)))(assert (=> (>= age 65) (= fee 8.0)))",
        SECONDS,
    );
    let gaps = with_code(&found, LintCode::Gap);
    assert_eq!(gaps.len(), 1, "{found:#?}");
    assert_eq!(gaps[0].variables, vec!["fee"]);
    let age: i64 = gaps[0]
        .scenario
        .as_ref()
        .unwrap()
        .get("age")
        .unwrap()
        .to_string()
        .parse()
        .unwrap();
    assert!(
        (12..65).contains(&age),
        "the witness age {age} must fall between the cases"
    );
    // Complete the cases and the gap is gone.
    let (found, _) = lint(
        "(declare-const age Int)(declare-const fee Real)
         (assert (=> (< age 12) (= fee 5.0)))(assert (=> (>= age 65) (= fee 8.0)))(assert (=> (and (>= age 12) (< age 65)) (= fee 10.0)))",
        SECONDS,
    );
    assert!(with_code(&found, LintCode::Gap).is_empty(), "{found:#?}");
}

#[test]
fn disjoint_groups_are_listed() {
    let (found, _) = lint(
        "(declare-const a Bool)(declare-const b Bool)(declare-const x Int)(assert (=> a b))(assert (> x 1))",
        SECONDS,
    );
    let groups = with_code(&found, LintCode::DisjointGroups);
    assert_eq!(groups.len(), 1);
    assert!(
        groups[0].message.contains("2 groups"),
        "{}",
        groups[0].message
    );
}

#[test]
fn a_check_that_times_out_is_not_decided_never_a_pass() {
    let (found, _) = lint(
        "(declare-const x Int)(declare-const y Int)(declare-const z Int)
         (assert (and (> x 0) (> y 0) (> z 0)))(assert (= (+ (* x x x) (* y y y)) (* z z z)))",
        Duration::from_millis(300),
    );
    assert!(
        !with_code(&found, LintCode::NotDecided).is_empty(),
        "{found:#?}"
    );
    assert!(with_code(&found, LintCode::Inconsistent).is_empty());
}
