//! The expert's review of generated tests, through the CLI and tests.json.

use super::*;

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

    // `precept test` runs the counted tests and says the proposed ones wait.
    let out = precept(&["test", dir, "--skip-nl"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!(
            "(6 generated tests are proposed and wait for review: precept review {dir} --list)\n{before} passed, 0 failed"
        )),
        "{}",
        stdout(&out)
    );
    let out = precept(&["test", dir, "--skip-nl", "--json"]);
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["proposed"], 6, "{summary}");
    assert_eq!(summary["passed"], before, "{summary}");

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
