//! Symbolic test generation against the real solver: generated tests are
//! deterministic, deduplicated, proved (the solver agrees when asked again),
//! cover every rule of each sample, and round-trip through review into the
//! project's test suite, where a rejected test fails (the repair loop).

mod support;

use precept::core::model::{CompiledModel, LogicTest, Project, TestStatus, TestSuite};
use precept::core::smt::parse_expr;
use precept::core::solve::{FindingKind, SolverWorker};
use precept::core::testgen::generate::{
    CandidateKind, GeneratedTest, accept, candidates, generate, reject, to_proposed,
};
use std::collections::{BTreeSet, HashSet};
use std::time::{Duration, Instant};
use support::{copy_sample, formula, precept, sample, stderr, stdout};

const SAMPLES: [&str; 3] = ["airline-refunds", "benefit-eligibility", "park-admission"];

fn load(name: &str) -> CompiledModel {
    let project = Project::load(&sample(name)).expect("sample loads");
    project.compile_strict().expect("sample compiles")
}

fn fresh_worker(model: &CompiledModel) -> SolverWorker {
    support::worker(model, Duration::from_secs(5))
}

/// Generates on a freshly loaded worker, as the CLI does.
fn generated(model: &CompiledModel, max: usize, seed: u64) -> Vec<GeneratedTest> {
    let worker = fresh_worker(model);
    generate(&worker, model, max, seed)
}

fn suite(dir: &std::path::Path) -> TestSuite {
    Project::load(dir).expect("project loads").tests
}

/// What a run is judged by: everything but scenario values.
fn signature(
    tests: &[GeneratedTest],
) -> Vec<(String, String, CandidateKind, FindingKind, Vec<String>)> {
    tests
        .iter()
        .map(|t| {
            (
                t.premise.clone(),
                t.claim.clone(),
                t.kind,
                t.finding.kind,
                t.finding.rules().to_vec(),
            )
        })
        .collect()
}

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

#[test]
fn accept_and_reject_follow_the_review_rules() {
    let model = load("park-admission");
    let tests = generated(&model, 5, 0);
    let mut test = to_proposed(&tests[0], "T100".into());
    assert_eq!(test.status, TestStatus::Proposed);
    assert_eq!(test.proved, Some(tests[0].finding.kind));
    assert_eq!(test.expected, tests[0].finding.kind);
    // Named after what it asks, never after its finding.
    assert!(
        test.name.ends_with('?')
            && (test.name.contains(", when ") || test.name.ends_with(", always?"))
            && !test.name.starts_with(tests[0].kind.label()),
        "{}",
        test.name
    );
    assert!(!test.rationale.is_empty());

    let proved = tests[0].finding.kind;
    assert!(
        reject(&mut test, proved).is_err(),
        "rejecting with the proved finding"
    );
    let other = if proved == FindingKind::Valid {
        FindingKind::Invalid
    } else {
        FindingKind::Valid
    };
    reject(&mut test, other).unwrap();
    assert_eq!(
        (test.status, test.expected, test.proved),
        (TestStatus::Rejected, other, Some(proved))
    );
    accept(&mut test);
    assert_eq!((test.status, test.expected), (TestStatus::Accepted, proved));
    reject(&mut test, other).unwrap();
    assert_eq!(test.status, TestStatus::Rejected);

    let mut manual = LogicTest::new("T1", "", "true", "true", FindingKind::Valid);
    assert!(reject(&mut manual, FindingKind::Invalid).is_err());
    accept(&mut manual);
    assert_eq!(manual.status, TestStatus::Manual);
}

#[test]
fn gen_tests_prints_text_and_json() {
    let dir = sample("park-admission");
    let dir = dir.to_str().unwrap();
    let out = precept(&["gen-tests", dir, "--max", "5"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("premise: "), "{text}");
    assert!(text.contains("claim:   "), "{text}");
    assert!(text.contains("why:     "), "{text}");
    assert!(text.contains("5 tests generated"), "{text}");

    let out = precept(&["gen-tests", dir, "--max", "7", "--seed", "3", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let tests = json.as_array().unwrap();
    assert_eq!(tests.len(), 7);
    for test in tests {
        for field in [
            "premise",
            "claim",
            "claim_english",
            "kind",
            "rationale",
            "name",
        ] {
            assert!(test[field].is_string(), "{field}: {test}");
        }
        assert!(test["finding"]["finding"].is_string());
        assert!(test["rules"].is_array());
        assert!(test["score"].is_number());
    }

    for bad in [
        vec!["gen-tests", "/nonexistent/precept"],
        vec!["gen-tests", dir, "--max", "0"],
        vec!["gen-tests", dir, "--max", "many"],
    ] {
        assert_eq!(precept(&bad).status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn save_then_review_round_trips_through_tests_json() {
    let scratch = copy_sample("park-admission");
    let dir = scratch.path().to_str().unwrap();
    let before = suite(scratch.path()).tests.len();

    let out = precept(&["gen-tests", dir, "--max", "6", "--save"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let saved = suite(scratch.path());
    let proposed: Vec<&LogicTest> = saved.tests[before..].iter().collect();
    assert_eq!(proposed.len(), 6);
    for test in &proposed {
        assert_eq!(test.status, TestStatus::Proposed);
        assert_eq!(test.proved, Some(test.expected));
        assert!(!test.name.is_empty() && !test.rationale.is_empty());
    }
    let ids: Vec<String> = proposed.iter().map(|t| t.id.clone()).collect();
    assert_eq!(ids.len(), ids.iter().collect::<HashSet<_>>().len());

    // Saving again adds nothing: every premise and claim is already there.
    let out = precept(&["gen-tests", dir, "--max", "6", "--save"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("0 saved"), "{}", stdout(&out));
    assert_eq!(suite(scratch.path()).tests.len(), before + 6);

    let out = precept(&["review", dir, "--list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for id in &ids {
        assert!(stdout(&out).contains(&format!("{id} ")), "{}", stdout(&out));
    }

    // (Either may be proved IMPOSSIBLE: accepted knowingly.)
    let out = precept(&[
        "review",
        dir,
        "--accept",
        &ids[0],
        &ids[1],
        "--accept-impossible",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let proved = proposed[2].expected;
    let other = if proved == FindingKind::Satisfiable {
        "VALID"
    } else {
        "SATISFIABLE"
    };
    let out = precept(&["review", dir, "--reject", &ids[2], "--expected", other]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Rejecting with the proved finding is an accept: refused, nothing saved.
    let out = precept(&[
        "review",
        dir,
        "--reject",
        &ids[3],
        "--expected",
        proposed[3].expected.name(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("accepting"), "{}", stderr(&out));
    // Unknown ids and hand-written tests are bad input.
    assert_eq!(
        precept(&["review", dir, "--accept", "T999"]).status.code(),
        Some(2)
    );
    assert_eq!(
        precept(&["review", dir, "--accept", "T1"]).status.code(),
        Some(2)
    );
    assert_eq!(precept(&["review", dir]).status.code(), Some(2));

    let reviewed = suite(scratch.path());
    let status = |id: &str| {
        let t = reviewed.tests.iter().find(|t| t.id == id).unwrap();
        (t.status, t.expected, t.proved)
    };
    assert_eq!(
        status(&ids[0]),
        (
            TestStatus::Accepted,
            proposed[0].expected,
            proposed[0].proved
        )
    );
    assert_eq!(
        status(&ids[1]),
        (
            TestStatus::Accepted,
            proposed[1].expected,
            proposed[1].proved
        )
    );
    assert_eq!(
        status(&ids[2]),
        (
            TestStatus::Rejected,
            FindingKind::parse(other).unwrap(),
            Some(proved)
        )
    );
    assert_eq!(status(&ids[3]).0, TestStatus::Proposed);
    // The hand-written tests are untouched.
    assert_eq!(
        reviewed.tests[..before],
        suite(&sample("park-admission")).tests[..]
    );
}

#[test]
fn a_rejected_generated_test_fails_in_precept_test() {
    let scratch = copy_sample("airline-refunds");
    let dir = scratch.path().to_str().unwrap();
    let out = precept(&["test", dir]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "the sample passes first: {}",
        stdout(&out)
    );

    let out = precept(&["gen-tests", dir, "--max", "10", "--save", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    // The expert disagrees with a proved VALID: they expected the claim refuted.
    let valid = json
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["finding"]["finding"] == "VALID" || t["finding"]["finding"] == "IMPOSSIBLE")
        .expect("a VALID or IMPOSSIBLE test");
    let id = valid["id"].as_str().unwrap().to_string();
    let name = valid["name"].as_str().unwrap().to_string();
    let proved = valid["finding"]["finding"].as_str().unwrap().to_string();

    // (An IMPOSSIBLE one is accepted knowingly.)
    let out = precept(&["review", dir, "--accept", &id, "--accept-impossible"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = precept(&["test", dir]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "an accepted test passes: {}",
        stdout(&out)
    );

    let out = precept(&["review", dir, "--reject", &id, "--expected", "INVALID"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = precept(&["test", dir]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    let failure = text
        .lines()
        .find(|l| l.starts_with("FAIL"))
        .unwrap_or_else(|| panic!("no failure in {text}"));
    assert!(failure.contains(&id), "{failure}");
    assert!(failure.contains(&name), "{failure}");
    assert!(
        failure.contains(&format!("expected INVALID, got {proved}")),
        "{failure}"
    );
    assert_eq!(text.matches("FAIL").count(), 1, "{text}");
}

/// A candidate built to show R1 applying (intended VALID) that the solver
/// proves IMPOSSIBLE is explained as impossible, naming exactly the rules of
/// its conflict (not R4, which shares its variables but takes no part), and
/// is named after the question it asks.
#[test]
fn a_test_proved_impossible_is_explained_by_its_conflict() {
    let model = support::model(
        "(declare-const isCitizen Bool)
         (declare-const isPrisoner Bool)
         (declare-const canVote Bool)
         (declare-const age Int)
         (assert (=> isCitizen canVote))
         (assert (=> isPrisoner (not canVote)))
         (assert (=> isCitizen isPrisoner))
         (assert (=> (< age 18) (not canVote)))",
    );
    let tests = generated(&model, 50, 0);
    let test = tests
        .iter()
        .find(|t| {
            t.kind == CandidateKind::AntecedentTrue
                && t.targets == ["R1"]
                && t.premise == "isCitizen"
        })
        .expect("the rule-applies test of R1");
    assert_eq!(test.finding.kind, FindingKind::Impossible);
    assert_eq!(test.finding.contradicting_rules, ["R1", "R2", "R3"]);
    assert_eq!(
        test.rationale,
        "Impossible: in this situation R1, R2 and R3 contradict each other, so it cannot arise under the rules. Generated as a “Rule applies” test of R1."
    );
    assert_eq!(test.name, "Can vote holds, when is citizen holds?");
    // Every explanation names exactly the rules of its finding.
    for test in &tests {
        for rule in ["R1", "R2", "R3", "R4"] {
            let before_probe = test.rationale.split(" Generated as").next().unwrap();
            assert_eq!(
                before_probe.contains(rule),
                test.finding.rules().iter().any(|r| r == rule),
                "{}: {}",
                test.name,
                test.rationale
            );
        }
    }
}

/// Accepting a test proved IMPOSSIBLE would make a conflict between rules
/// expected behaviour: `review --accept` refuses, says which rules conflict
/// and what accepting would mean, and saves nothing; `--accept-impossible`
/// accepts it knowingly.
#[test]
fn review_refuses_to_accept_an_impossible_test_without_the_flag() {
    let scratch = copy_sample("park-admission");
    let dir = scratch.path().to_str().unwrap();
    let out = precept(&["gen-tests", dir, "--max", "6", "--save"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let saved = suite(scratch.path());
    let impossible = saved
        .tests
        .iter()
        .find(|t| t.status == TestStatus::Proposed && t.proved == Some(FindingKind::Impossible))
        .expect("park has a proposed IMPOSSIBLE test")
        .clone();
    let other = saved
        .tests
        .iter()
        .find(|t| t.status == TestStatus::Proposed && t.proved != Some(FindingKind::Impossible))
        .expect("and another")
        .clone();
    let model = load("park-admission");
    let worker = fresh_worker(&model);
    let finding = worker.verify(
        formula(&model, &impossible.premise),
        formula(&model, &impossible.claim),
    );
    assert_eq!(finding.kind, FindingKind::Impossible);
    let rules = &finding.contradicting_rules;
    assert!(rules.len() >= 2, "{rules:?}");
    let listed = format!(
        "{} and {}",
        rules[..rules.len() - 1].join(", "),
        rules[rules.len() - 1]
    );
    let id = impossible.id.as_str();

    let out = precept(&["review", dir, "--accept", &other.id, id]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(
        stderr(&out).trim_end(),
        format!(
            "precept: {id} was proved IMPOSSIBLE: rules {listed} contradict each other in this situation, so it can never arise. \
             Accepting {id} would make that contradiction expected behaviour: the test would pass while the conflict stays, \
             and fail once the rules are repaired. Usually the rules need repairing instead.\n\
             Nothing was accepted. Repair the rules (or reject the test with --expected), or accept anyway with --accept-impossible."
        )
    );
    assert_eq!(suite(scratch.path()), saved, "nothing saved");

    let out = precept(&["review", dir, "--accept", id, "--accept-impossible"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let accepted = suite(scratch.path());
    let test = accepted.tests.iter().find(|t| t.id == id).unwrap();
    assert_eq!(
        (test.status, test.expected),
        (TestStatus::Accepted, FindingKind::Impossible)
    );
}
