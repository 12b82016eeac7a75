//! The airline example before and after its repair, and natural-language tests.

use super::*;

fn unvetted_airline() -> tempfile::TempDir {
    let dir = copy_sample("airline-refunds");
    let path = dir.path().join("model.json");
    let mut model: Json = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let rules = model["rules"].as_array_mut().unwrap();
    let r7 = rules.iter_mut().find(|r| r["id"] == "R7").unwrap();
    r7["expression"] = json!(UNVETTED_R7);
    std::fs::write(&path, serde_json::to_string_pretty(&model).unwrap()).unwrap();
    dir
}

#[test]
fn airline_example_is_impossible_with_its_two_rules_before_the_repair_and_valid_after() {
    let server = Server::start();
    server
        .respond_with(|_| openai_json(&translation(&[(AIRLINE_PREMISE, "isRefundEligible")], &[])));

    let unvetted = unvetted_airline();
    let bench_before = bench(unvetted.path());
    let report = bench_before.check(&server, AIRLINE_QUESTION, AIRLINE_ANSWER);
    assert_eq!(report.finding, FindingKind::Impossible, "{report:#?}");
    let pair = &report.pairs[0];
    assert_eq!(pair.confidence, 1.0);
    assert_eq!(pair.evidence.contradicting_rules, vec!["R7", "R9"]);
    assert_eq!(pair.evidence.policy_inconsistent, Some(false));
    assert!(
        pair.feedback.contains("R7") && pair.feedback.contains("R9"),
        "{}",
        pair.feedback
    );

    let vetted = copy_sample("airline-refunds");
    let bench_after = bench(vetted.path());
    let report = bench_after.check(&server, AIRLINE_QUESTION, AIRLINE_ANSWER);
    assert_eq!(report.finding, FindingKind::Valid, "{report:#?}");
    assert_eq!(report.pairs[0].evidence.supporting_rules, vec!["R9"]);
    assert!(
        report.feedback.contains("Every claim follows"),
        "{}",
        report.feedback
    );
}
#[test]
fn nl_tests_cache_translations_so_rule_edits_rerun_only_the_solver() {
    let dir = copy_sample("park-admission");
    let server = Server::start();
    server.respond_with(|request| {
        let prompt = request.user_prompt();
        let pair = if prompt.contains("Yes, with credits") {
            ("(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4) (= creditUnits 3))", "isEntryAllowed")
        } else {
            (PARK_PREMISE, PARK_CLAIM)
        };
        openai_json(&translation(&[pair], &[]))
    });
    let mut project = Project::load(dir.path()).unwrap();
    project.tests.nl_tests = vec![
        nl_test("NL1", PARK_ANSWER, FindingKind::Satisfiable),
        nl_test(
            "NL2",
            "Yes, with credits: 3 units of 5 credits.",
            FindingKind::Valid,
        ),
        // The expert thinks "not enough" is settled; the rules leave it open.
        nl_test("NL3", PARK_ANSWER, FindingKind::Valid),
    ];
    project.save_tests().unwrap();
    let run = |server: &Server| {
        let bench = bench(dir.path());
        let verifier = bench.verifier(server, 3, VerifyOptions::default());
        run_answer_tests(
            &verifier,
            &bench.worker,
            &bench.project.tests.nl_tests,
            &mut |_, _| {},
            &Cancel::new(),
        )
    };

    let first = run(&server);
    let actual: Vec<Option<FindingKind>> = first.iter().map(|o| o.actual).collect();
    use FindingKind::*;
    assert_eq!(
        actual,
        vec![Some(Satisfiable), Some(Valid), Some(Satisfiable)]
    );
    assert!(first[0].passed && first[1].passed && !first[2].passed);
    match &first[2].fault {
        Some(Fault::Rules { explanation, .. }) => {
            assert!(explanation.contains("confident (100%)"), "{explanation}")
        }
        other => panic!("the rules are at fault, not {other:?}"),
    }
    // NL1 and NL3 share their text: one set of k translations serves both.
    assert_eq!(server.requests().len(), 6);

    // A rule edit: the base fee drops to $40, so that senior now gets in
    // without credits. Only the solver runs again.
    let mut project = Project::load(dir.path()).unwrap();
    project.model.rules[0].expression = "(= baseFee 40.0)".into();
    project.save_model().unwrap();
    let second = run(&server);
    assert_eq!(
        server.requests().len(),
        6,
        "no new LLM request after a rule edit"
    );
    assert_eq!(second[0].actual, Some(Invalid));
    assert!(second.iter().all(|o| {
        o.report
            .as_ref()
            .unwrap()
            .translations
            .iter()
            .all(|t| t.from_cache)
    }));

    // A description change of a variable no translation uses: still cached.
    project
        .model
        .variables
        .iter_mut()
        .find(|v| v.name == "seasonalFee")
        .unwrap()
        .description = "The fee after the seasonal adjustment".into();
    project.save_model().unwrap();
    run(&server);
    assert_eq!(
        server.requests().len(),
        6,
        "unused variable: no new request"
    );

    // A description change of a variable the translations use: asked again.
    project
        .model
        .variables
        .iter_mut()
        .find(|v| v.name == "creditUnits")
        .unwrap()
        .description = "How many bundles of 5 credits the visitor redeems".into();
    project.save_model().unwrap();
    run(&server);
    assert_eq!(
        server.requests().len(),
        9,
        "only NL2's translations use creditUnits and are asked again"
    );
    let last = server.requests();
    assert!(
        last[6..]
            .iter()
            .all(|r| r.user_prompt().contains("How many bundles of 5 credits"))
    );
    assert!(
        last[6..]
            .iter()
            .all(|r| r.user_prompt().contains("Yes, with credits"))
    );
}

#[test]
fn a_failing_nl_test_blames_the_translation_when_the_translations_disagree() {
    let dir = copy_sample("park-admission");
    let server = Server::start();
    server.respond_with(|request| {
        let claim = if sample(request) == 2 {
            "isEntryAllowed"
        } else {
            PARK_CLAIM
        };
        openai_json(&translation(&[(PARK_PREMISE, claim)], &[]))
    });
    let bench = bench(dir.path());
    let verifier = bench.verifier(&server, 3, VerifyOptions::default());
    let outcomes = run_answer_tests(
        &verifier,
        &bench.worker,
        &[nl_test("NL1", PARK_ANSWER, FindingKind::Satisfiable)],
        &mut |_, _| {},
        &Cancel::new(),
    );
    assert_eq!(outcomes[0].actual, Some(FindingKind::TranslationAmbiguous));
    match &outcomes[0].fault {
        Some(Fault::Translation { explanation }) => {
            assert!(explanation.contains("disagree"), "{explanation}")
        }
        other => panic!("the translation is at fault, not {other:?}"),
    }
}

#[test]
fn an_nl_test_with_its_own_confidence_threshold_is_judged_at_that_threshold() {
    // The same disagreeing translations (2 of 3, and 1 of 3) as above: at
    // the verifier's threshold the answer is TRANSLATION_AMBIGUOUS, but a
    // test imported from ARC with a threshold of 0.3 accepts both pairs and
    // is judged on the solver's findings.
    let dir = copy_sample("park-admission");
    let server = Server::start();
    server.respond_with(|request| {
        let claim = if sample(request) == 2 {
            "isEntryAllowed"
        } else {
            PARK_CLAIM
        };
        openai_json(&translation(&[(PARK_PREMISE, claim)], &[]))
    });
    let bench = bench(dir.path());
    let verifier = bench.verifier(&server, 3, VerifyOptions::default());
    let mut test = nl_test("NL1", PARK_ANSWER, FindingKind::Satisfiable);
    test.confidence_threshold = Some(0.3);
    let outcomes = run_answer_tests(
        &verifier,
        &bench.worker,
        &[test],
        &mut |_, _| {},
        &Cancel::new(),
    );
    let report = outcomes[0].report.as_ref().expect("a report");
    assert_eq!(report.threshold, 0.3);
    assert_eq!(report.pairs.len(), 2);
    assert!(
        report.pairs.iter().all(|p| p.finding == p.evidence.kind),
        "{:?}",
        report.pairs.iter().map(|p| p.finding).collect::<Vec<_>>()
    );
    assert_ne!(outcomes[0].actual, Some(FindingKind::TranslationAmbiguous));
}
