//! What the generator proposes: deterministic, proved, covering every rule.

use super::*;

#[test]
fn candidates_are_deterministic_well_typed_and_of_every_kind() {
    let mut kinds = BTreeSet::new();
    for name in SAMPLES {
        let model = load(name);
        let first = candidates(&model, 0);
        assert_eq!(first, candidates(&model, 0), "{name}: candidates differ");
        assert!(!first.is_empty());
        for candidate in &first {
            kinds.insert(candidate.kind);
            for text in [candidate.premise.to_string(), candidate.claim.to_string()] {
                model
                    .check_formula(&text)
                    .unwrap_or_else(|e| panic!("{name}: {text}: {e}"));
            }
            assert!(!candidate.rules.is_empty(), "{name}: {candidate:?}");
            assert!(!candidate.rationale.is_empty());
            for rule in &candidate.rules {
                assert!(model.rule(rule).is_some(), "{name}: unknown rule {rule}");
            }
        }
    }
    // Every kind but the negations, which generate() adds once findings are known.
    let expected: BTreeSet<CandidateKind> = CandidateKind::ALL
        .into_iter()
        .filter(|k| *k != CandidateKind::Negation)
        .collect();
    assert_eq!(kinds, expected);
}

#[test]
fn generation_is_deterministic_deduplicated_and_proved() {
    for name in SAMPLES {
        let model = load(name);
        let started = Instant::now();
        let first = generated(&model, 200, 0);
        let elapsed = started.elapsed();
        eprintln!("{name}: {} tests in {elapsed:?}", first.len());
        assert!(
            elapsed < Duration::from_secs(30),
            "{name}: generation took {elapsed:?}"
        );
        let second = generated(&model, 200, 0);
        assert_eq!(signature(&first), signature(&second), "{name}: runs differ");
        assert!(first.len() >= 50, "{name}: only {} tests", first.len());

        let mut pairs = HashSet::new();
        let mut findings = HashSet::new();
        let worker = fresh_worker(&model);
        for test in &first {
            assert!(
                pairs.insert((test.premise.clone(), test.claim.clone())),
                "{name}: duplicate {} / {}",
                test.premise,
                test.claim
            );
            let mut rules = test.finding.rules().to_vec();
            rules.sort();
            assert!(
                findings.insert((test.kind, test.claim.clone(), test.finding.kind, rules)),
                "{name}: a second {:?} test proves the same about {}",
                test.kind,
                test.claim
            );
            assert!(matches!(
                test.finding.kind,
                FindingKind::Valid
                    | FindingKind::Invalid
                    | FindingKind::Satisfiable
                    | FindingKind::Impossible
            ));
            // Printed canonically: parsing and printing gives the same text.
            assert_eq!(parse_expr(&test.premise).unwrap().to_string(), test.premise);
            assert_eq!(parse_expr(&test.claim).unwrap().to_string(), test.claim);
            let again = worker.verify(formula(&model, &test.premise), formula(&model, &test.claim));
            assert_eq!(
                again.kind, test.finding.kind,
                "{name}: {} / {} was {} when generated",
                test.premise, test.claim, test.finding.kind
            );
            assert!(!test.name.is_empty() && !test.rationale.is_empty());
        }
        // Ranked: the scores of the first picks are the highest.
        assert!(first[0].score >= first[first.len() - 1].score);
        // A smaller budget gives the head of the same ranking.
        let head = generated(&model, 20, 0);
        assert_eq!(signature(&head), signature(&first[..20]), "{name}");
    }
}

#[test]
fn every_rule_of_every_sample_is_covered() {
    for name in SAMPLES {
        let model = load(name);
        let tests = generated(&model, 200, 0);
        let cited: HashSet<&str> = tests
            .iter()
            .flat_map(|t| t.finding.rules().iter().map(String::as_str))
            .collect();
        let missing: Vec<&str> = model
            .rules
            .iter()
            .map(|r| r.id.as_str())
            .filter(|id| !cited.contains(id))
            .collect();
        assert!(
            missing.is_empty(),
            "{name}: rules no test cites: {missing:?}"
        );
        // Greedy coverage order: the full coverage is reached early.
        let head: HashSet<&str> = tests[..50]
            .iter()
            .flat_map(|t| t.finding.rules().iter().map(String::as_str))
            .collect();
        eprintln!(
            "{name}: {} tests cite {}/{} rules; the first 50 cite {}",
            tests.len(),
            cited.len(),
            model.rules.len(),
            head.len()
        );
        assert_eq!(head.len(), model.rules.len(), "{name}");
    }
}

#[test]
fn negation_pairs_are_consistent() {
    for name in SAMPLES {
        let model = load(name);
        let tests = generated(&model, 400, 0);
        let worker = fresh_worker(&model);
        let negations = tests
            .iter()
            .filter(|t| t.kind == CandidateKind::Negation)
            .count();
        assert!(negations > 0, "{name}: no negation tests");
        for test in &tests {
            if test.kind == CandidateKind::Negation {
                assert_eq!(test.finding.kind, FindingKind::Invalid, "{name}: {test:?}");
            }
            if test.finding.kind == FindingKind::Valid {
                let negated = format!("(not {})", test.claim);
                let finding =
                    worker.verify(formula(&model, &test.premise), formula(&model, &negated));
                assert_eq!(
                    finding.kind,
                    FindingKind::Invalid,
                    "{name}: {} proves {} but not the negation's refutation",
                    test.premise,
                    test.claim
                );
            }
        }
    }
}

#[test]
fn boundary_tests_pin_numeric_thresholds() {
    // Candidates: one step either side of each threshold, and at it.
    let airline = load("airline-refunds");
    let premises: Vec<String> = candidates(&airline, 0)
        .iter()
        .filter(|c| c.kind == CandidateKind::Boundary)
        .map(|c| c.premise.to_string())
        .collect();
    for point in [
        "(= delayHours 4.99)",
        "(= delayHours 5.0)",
        "(= delayHours 5.01)",
    ] {
        assert!(
            premises.iter().any(|p| p.contains(point)),
            "no boundary premise with {point}"
        );
    }
    // The seed picks a finer Real step.
    let finer: Vec<String> = candidates(&airline, 1)
        .iter()
        .filter(|c| c.kind == CandidateKind::Boundary)
        .map(|c| c.premise.to_string())
        .collect();
    assert!(finer.iter().any(|p| p.contains("(= delayHours 4.999)")));
    // Int thresholds step by one.
    assert!(
        premises
            .iter()
            .any(|p| p.contains("(= requestDay (+ departureDay 91))"))
    );

    // Generated: the park's credit units and admission funds thresholds, and
    // a boundary where the finding flips.
    let park = load("park-admission");
    let tests = generated(&park, 200, 0);
    let boundaries: Vec<&GeneratedTest> = tests
        .iter()
        .filter(|t| t.kind == CandidateKind::Boundary)
        .collect();
    for variable in ["creditUnits", "totalAdmissionFund"] {
        assert!(
            boundaries.iter().any(|t| t.premise.contains(variable)),
            "no boundary test on {variable}"
        );
    }
    let entry = |premise: &str| {
        boundaries
            .iter()
            .find(|t| t.premise == premise && t.claim == "isEntryAllowed")
            .map(|t| t.finding.kind)
    };
    assert_eq!(
        entry("(= totalExpense (+ totalAdmissionFund 0.01))"),
        Some(FindingKind::Invalid)
    );
    // Just below and at the threshold prove the same (VALID by R17), so only
    // the first of the two is kept.
    assert_eq!(
        entry("(= totalExpense (- totalAdmissionFund 0.01))"),
        Some(FindingKind::Valid)
    );

    let benefit = load("benefit-eligibility");
    let tests = generated(&benefit, 200, 0);
    let age = |premise: &str, claim: &str| {
        tests
            .iter()
            .find(|t| t.kind == CandidateKind::Boundary && t.premise == premise && t.claim == claim)
            .map(|t| t.finding.kind)
    };
    // The savings limit switches at 66 (R9 below, R10 from 66 on).
    assert_eq!(
        age("(= applicantAge 66)", "(= savingsLimit 16000.0)"),
        Some(FindingKind::Invalid)
    );
    assert_eq!(
        age("(= applicantAge 65)", "(= savingsLimit 16000.0)"),
        Some(FindingKind::Valid)
    );
}

#[test]
fn multi_step_tests_chain_rules() {
    let airline = load("airline-refunds");
    let tests = generated(&airline, 200, 0);
    // Denied boarding (R9) makes the passenger eligible, which with a timely
    // request pays the fare minus the fee (R22).
    let chain = tests
        .iter()
        .find(|t| {
            t.kind == CandidateKind::Transitive
                && t.premise.contains("DENIED_BOARDING")
                && t.claim == "(= refundAmount (- fareAmount adminFeeCharged))"
        })
        .expect("a chain R9 → R22");
    assert_eq!(chain.finding.kind, FindingKind::Valid);
    assert_eq!(chain.finding.rules(), ["R9", "R22"]);
    assert!(
        tests.iter().any(
            |t| t.kind == CandidateKind::Composite && t.finding.kind == FindingKind::Impossible
        ),
        "composite tests find combinations the rules forbid"
    );
}

/// A generated IMPOSSIBLE test needs two rules or more: a premise that only
/// denies one rule's own conclusion (A and not B, where a rule says A
/// implies B) tests nothing the rule does not say, and is not proposed.
#[test]
fn no_generated_test_merely_contradicts_one_rule() {
    for name in SAMPLES {
        let model = load(name);
        for test in generated(&model, 200, 0) {
            if test.finding.kind == FindingKind::Impossible {
                assert!(
                    test.finding.rules().len() >= 2,
                    "{name}: {} / {} contradicts only {:?}",
                    test.premise,
                    test.claim,
                    test.finding.rules()
                );
            }
        }
    }
}
