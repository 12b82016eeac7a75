//! The solver-backed lint checks, each on a small model made to trigger it,
//! through the real worker and Z3.

use crate::support;

use precept::lint::{Diagnostic, LintCode, Severity};
use precept::model::import::import_smtlib;
use precept::model::{PolicyModel, compile};
use precept::solve::FindingKind;
use precept::solve::SolverWorker;
use precept::solve::lint_checks::LintEvent;
use std::time::Duration;
use support::model;

fn lint(smtlib: &str, timeout: Duration) -> (Vec<Diagnostic>, Vec<(usize, usize)>) {
    lint_compiled(model(smtlib), timeout)
}

fn lint_compiled(
    compiled: precept::model::CompiledModel,
    timeout: Duration,
) -> (Vec<Diagnostic>, Vec<(usize, usize)>) {
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

fn policy(smtlib: &str) -> PolicyModel {
    import_smtlib(smtlib).expect("valid SMT-LIB")
}

/// The finding for a premise and claim on a model.
fn decide(model: &PolicyModel, premise: &str, claim: &str) -> FindingKind {
    let compiled = compile(model);
    assert!(compiled.issues.is_empty(), "{:?}", compiled.issues);
    let worker = support::worker(&compiled, SECONDS);
    worker
        .verify(
            support::formula(&compiled, premise),
            support::formula(&compiled, claim),
        )
        .kind
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

/// A real VAT page became "turnover over the threshold ⇒ must register"
/// (R1) and "over the threshold and no exception ⇒ must register" (R2):
/// R1 swallowed the exception and a temporary excess was proved to need
/// registration. L209 names it, and its fix makes the question undecided
/// instead of wrongly VALID.
#[test]
fn a_general_rule_that_swallows_an_exception_is_reported_and_fixed() {
    let source = "(declare-const turnover Real)(declare-const mustRegister Bool)
         (declare-const exceptionApplies Bool)(declare-const overOnlyTemporarily Bool)
         (assert (=> (> turnover 85000.0) mustRegister))
         (assert (=> (and (> turnover 85000.0) (not exceptionApplies)) mustRegister))
         (assert (=> overOnlyTemporarily exceptionApplies))";
    let (found, _) = lint(source, SECONDS);
    let shadowed = with_code(&found, LintCode::ShadowedException);
    assert_eq!(shadowed.len(), 1, "{found:#?}");
    let d = shadowed[0];
    assert_eq!(d.rules, vec!["R1", "R2"]);
    assert_eq!(d.severity, Severity::Warning);
    assert!(
        d.message
            .contains("R1 may be missing the exception that R2 states"),
        "{}",
        d.message
    );
    // The redundancy check does not also offer to delete R2, the rule that
    // carries the exception.
    assert!(
        with_code(&found, LintCode::RedundantRule).iter().all(|r| r
            .rules
            .first()
            .map(String::as_str)
            != Some("R2")),
        "{found:#?}"
    );
    let fix = d.fix.as_ref().expect("a fix");
    assert_eq!(d.alternatives.len(), 1, "delete R1 is the other choice");

    let question = (
        "(and (= turnover 90000.0) overOnlyTemporarily)",
        "mustRegister",
    );
    let mut model = policy(source);
    let before = decide(&model, question.0, question.1);
    assert_eq!(before, FindingKind::Valid);
    fix.edit.apply(&mut model).unwrap();
    let after = decide(&model, question.0, question.1);
    assert_eq!(after, FindingKind::Satisfiable);
    let (found, _) = lint_compiled(compile(&model), SECONDS);
    assert!(
        with_code(&found, LintCode::ShadowedException).is_empty(),
        "{found:#?}"
    );
}

/// A real page became "severely disabled by a vaccine ⇒ could get the
/// payment" (R1) and "could get the payment ⇒ vaccinated in the UK, the Isle
/// of Man or the armed forces" (R2): a vaccine given abroad became
/// impossible. L210 reports the situation with a witness and moves R2's
/// requirement into R1's condition. A bound on one input is not reported.
#[test]
fn an_impossible_real_situation_is_reported_with_its_witness_and_fixed() {
    let source = "(declare-const disabledByVaccine Bool)(declare-const couldGetPayment Bool)
         (declare-const vaccinatedInUk Bool)(declare-const vaccinatedInIsleOfMan Bool)
         (declare-const vaccinatedInArmedForces Bool)(declare-const age Int)
         (assert (>= age 0))
         (assert (=> disabledByVaccine couldGetPayment))
         (assert (=> couldGetPayment (or vaccinatedInUk vaccinatedInIsleOfMan vaccinatedInArmedForces)))";
    let (found, _) = lint(source, SECONDS);
    let impossible = with_code(&found, LintCode::ImpossibleSituation);
    assert_eq!(impossible.len(), 1, "{found:#?}");
    let d = impossible[0];
    let mut rules = d.rules.clone();
    rules.sort();
    assert_eq!(rules, vec!["R2", "R3"]);
    let witness = d.scenario.as_ref().expect("a witness");
    assert_eq!(
        witness
            .get("disabledByVaccine")
            .map(ToString::to_string)
            .as_deref(),
        Some("true")
    );
    for place in [
        "vaccinatedInUk",
        "vaccinatedInIsleOfMan",
        "vaccinatedInArmedForces",
    ] {
        assert_eq!(
            witness.get(place).map(ToString::to_string).as_deref(),
            Some("false"),
            "{witness:?}"
        );
    }
    assert!(
        witness.get("age").is_none(),
        "the domain bound is not part of it"
    );
    let fix = d.fix.as_ref().expect("a fix");
    assert!(
        fix.description.starts_with("R2 gets R3's condition"),
        "{}",
        fix.description
    );

    let mut model = policy(source);
    let abroad = "(and disabledByVaccine (not vaccinatedInUk) (not vaccinatedInIsleOfMan) (not vaccinatedInArmedForces))";
    assert_eq!(
        decide(&model, abroad, "couldGetPayment"),
        FindingKind::Impossible
    );
    fix.edit.apply(&mut model).unwrap();
    // The situation is possible again, and the answer is the page's: a
    // vaccine given abroad does not qualify.
    assert_eq!(
        decide(&model, abroad, "couldGetPayment"),
        FindingKind::Invalid
    );
    let (found, _) = lint_compiled(compile(&model), SECONDS);
    assert!(
        with_code(&found, LintCode::ImpossibleSituation).is_empty(),
        "{found:#?}"
    );
}

/// A conflicting overlap offers both structural fixes (either rule is the
/// exception); each, applied, removes the conflict, and the one that makes
/// denied boarding the exception decides the case as the policy means.
#[test]
fn a_conflicting_overlap_offers_both_exception_fixes() {
    let source = "(declare-const operated Bool)(declare-const travelled Bool)(declare-const deniedBoarding Bool)(declare-const refund Bool)
         (assert (=> (and operated (not travelled)) (not refund)))
         (assert (=> deniedBoarding refund))
         (assert (=> deniedBoarding (not travelled)))";
    let (found, _) = lint(source, SECONDS);
    let overlap = with_code(&found, LintCode::ConflictingOverlap)[0].clone();
    let fixes: Vec<_> = overlap.fix.iter().chain(&overlap.alternatives).collect();
    assert_eq!(fixes.len(), 2, "{overlap:#?}");
    assert_eq!(
        fixes[0].description,
        "R2 is the exception: R1 applies unless deniedBoarding (it gets (not deniedBoarding))"
    );
    assert!(
        fixes[1]
            .description
            .starts_with("R1 is the exception: R2 applies unless")
    );
    for fix in &fixes {
        let mut model = policy(source);
        fix.edit.apply(&mut model).unwrap();
        let (after, _) = lint_compiled(compile(&model), SECONDS);
        assert!(
            with_code(&after, LintCode::ConflictingOverlap).is_empty(),
            "{}: {after:#?}",
            fix.description
        );
    }
    let mut model = policy(source);
    fixes[0].edit.apply(&mut model).unwrap();
    assert_eq!(
        model.rules[0].expression,
        "(=> (and operated (not travelled) (not deniedBoarding)) (not refund))"
    );
    assert_eq!(
        decide(&model, "(and operated deniedBoarding)", "refund"),
        FindingKind::Valid
    );
}

/// A Boolean that names some of an enum's values ("recognised as a charity
/// or a CASC") rules out the other values by definition: no impossible
/// situation. And a rule written as its contrapositive is read the way it
/// points: the vaccine case above is found the same.
#[test]
fn impossible_situations_ignore_restated_values_and_how_rules_are_written() {
    let restated = "(declare-datatype Org ((CHARITY) (CASC) (COMPANY)))(declare-const org Org)
         (declare-const recognised Bool)(declare-const declared Bool)(declare-const canClaim Bool)
         (assert (=> recognised (or (= org CHARITY) (= org CASC))))
         (assert (=> (and recognised declared) canClaim))";
    let (found, _) = lint(restated, SECONDS);
    assert!(
        with_code(&found, LintCode::ImpossibleSituation).is_empty(),
        "{found:#?}"
    );
    let contrapositive = "(declare-const disabledByVaccine Bool)(declare-const couldGetPayment Bool)
         (declare-const vaccinatedInUk Bool)(declare-const vaccinatedInIsleOfMan Bool)
         (declare-const vaccinatedInArmedForces Bool)(declare-const age Int)
         (assert (>= age 0))
         (assert (=> (not couldGetPayment) (not disabledByVaccine)))
         (assert (=> (and (not vaccinatedInUk) (not vaccinatedInIsleOfMan) (not vaccinatedInArmedForces)) (not couldGetPayment)))";
    let (found, _) = lint(contrapositive, SECONDS);
    let impossible = with_code(&found, LintCode::ImpossibleSituation);
    assert_eq!(impossible.len(), 1, "{found:#?}");
    assert!(
        impossible[0]
            .scenario
            .as_ref()
            .and_then(|s| s.get("disabledByVaccine"))
            .is_some(),
        "{:?}",
        impossible[0]
    );
}

/// The Gift Aid draft's defect: a small cash donation decides the top-up
/// scheme (R40), which requires no penalty (R49), so "a £20 cash donation
/// after a penalty" is impossible. The amount is a fact of the situation
/// though a rule bounds it, and the threshold the rules compare it with
/// makes the situation.
#[test]
fn an_impossible_situation_with_a_threshold_of_a_number_is_reported() {
    let source = "(declare-const isCash Bool)(declare-const amount Real)
         (declare-const canClaimTopUp Bool)(declare-const gotPenalty Bool)
         (assert (=> (and isCash (<= amount 30.0)) canClaimTopUp))
         (assert (=> (and canClaimTopUp isCash) (<= amount 30.0)))
         (assert (=> canClaimTopUp (not gotPenalty)))";
    let (found, _) = lint(source, SECONDS);
    let impossible = with_code(&found, LintCode::ImpossibleSituation);
    assert_eq!(impossible.len(), 1, "{found:#?}");
    let d = impossible[0];
    assert!(
        d.message
            .contains("isCash = true, amount ≤ 30, gotPenalty = true"),
        "{}",
        d.message
    );
    let mut rules = d.rules.clone();
    rules.sort();
    assert_eq!(rules, ["R1", "R3"]);
    // The witness holds the threshold itself: exact, and in the situation.
    let witness = d.scenario.as_ref().expect("a witness");
    assert_eq!(
        witness.get("amount").map(ToString::to_string).as_deref(),
        Some("30")
    );
}
