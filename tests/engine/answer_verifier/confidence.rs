//! Confidence from agreeing and dissenting translations, and what is left untranslated.

use super::*;

#[test]
fn park_example_three_agreeing_translations_give_confidence_one_and_satisfiable() {
    let dir = copy_sample("park-admission");
    let server = Server::start();
    server.respond_with(|_| openai_json(&translation(&[(PARK_PREMISE, PARK_CLAIM)], &[])));
    let bench = bench(dir.path());
    let (report, events) = bench.check_with(
        &server,
        PARK_QUESTION,
        PARK_ANSWER,
        VerifyOptions::default(),
    );

    assert_eq!(report.finding, FindingKind::Satisfiable, "{report:#?}");
    assert_eq!(report.pairs.len(), 1);
    let pair = &report.pairs[0];
    assert_eq!(pair.confidence, 1.0);
    assert_eq!(pair.supporting_translations, vec![1, 2, 3]);
    assert_eq!(
        (pair.premise.as_str(), pair.claim.as_str()),
        (PARK_PREMISE, PARK_CLAIM)
    );
    // The paper's counter-example: entry with 3 units of credits, none without.
    assert_eq!(scenario_value(&report, 0, false, "creditUnits"), "3");
    assert_eq!(scenario_value(&report, 0, false, "isEntryAllowed"), "true");
    assert_eq!(scenario_value(&report, 0, true, "creditUnits"), "0");
    assert!(
        pair.feedback.contains("(= creditUnits 0)") && pair.feedback.contains("creditUnits = 3"),
        "{}",
        pair.feedback
    );
    assert!(pair.feedback.contains("proved"), "{}", pair.feedback);

    // Three requests, one per sample, each carrying the vocabulary and the text.
    let requests = server.requests();
    let mut samples: Vec<usize> = requests.iter().map(sample).collect();
    samples.sort_unstable();
    assert_eq!(samples, vec![1, 2, 3]);
    let prompt = requests[0].user_prompt();
    assert!(prompt.contains("    SENIOR: A senior"), "{prompt}");
    assert!(
        prompt.contains("- creditUnits (Int): Number of 5-credit units the visitor uses"),
        "{prompt}"
    );
    assert!(
        prompt.contains(&format!("Answer: {}", json!(PARK_ANSWER))),
        "{prompt}"
    );
    assert!(
        requests[0].prompt_text().contains("(=> t1 t2)"),
        "the grammar is in the prompt"
    );
    // The samples can differ: the first at the profile's temperature (0),
    // samples 2..k above 0, and each asked to work in its own order.
    let mut by_sample: Vec<(usize, f64, String)> = requests
        .iter()
        .map(|r| {
            (
                sample(r),
                r.body["temperature"].as_f64().unwrap_or(0.0),
                r.user_prompt(),
            )
        })
        .collect();
    by_sample.sort_by_key(|(n, _, _)| *n);
    let temperatures: Vec<f64> = by_sample.iter().map(|(_, t, _)| *t).collect();
    assert_eq!(temperatures[0], 0.0, "{temperatures:?}");
    assert!(
        temperatures[1..].iter().all(|t| *t > 0.0),
        "{temperatures:?}"
    );
    for (n, _, prompt) in &by_sample {
        let approach = precept::answer::translate::approach(*n);
        assert!(prompt.contains(approach), "sample {n}: {prompt}");
    }
    assert_ne!(by_sample[0].2, by_sample[1].2);
    assert_ne!(by_sample[1].2, by_sample[2].2);

    let translated = events
        .iter()
        .filter(|e| matches!(e, VerifyEvent::Translated { .. }))
        .count();
    assert_eq!(translated, 3);
    assert!(matches!(
        events[0],
        VerifyEvent::Started { translations: 3 }
    ));
    assert!(matches!(events.last(), Some(VerifyEvent::Solving { .. })));
}

#[test]
fn one_dissenting_translation_gives_two_thirds_and_one_third() {
    let dir = copy_sample("park-admission");
    let server = Server::start();
    server.respond_with(|request| {
        let claim = if sample(request) == 3 {
            "isEntryAllowed"
        } else {
            PARK_CLAIM
        };
        openai_json(&translation(&[(PARK_PREMISE, claim)], &[]))
    });
    let bench = bench(dir.path());
    let report = bench.check(&server, PARK_QUESTION, PARK_ANSWER);

    assert_eq!(report.finding, FindingKind::TranslationAmbiguous);
    assert_eq!(report.pairs.len(), 2);
    let majority = &report.pairs[0];
    assert_eq!(majority.claim, PARK_CLAIM);
    assert!((majority.confidence - 2.0 / 3.0).abs() < 1e-9);
    assert_eq!(majority.supporting_translations, vec![1, 2]);
    assert_eq!(majority.finding, FindingKind::TranslationAmbiguous);
    let minority = &report.pairs[1];
    assert_eq!(minority.claim, "isEntryAllowed");
    assert!((minority.confidence - 1.0 / 3.0).abs() < 1e-9);
    assert_eq!(minority.supporting_translations, vec![3]);

    // Evidence: the two translations and a scenario satisfying the dissenter only.
    let disagreement = majority.disagreement.as_ref().expect("evidence");
    assert_eq!(disagreement.supporting, Some(1));
    assert_eq!(disagreement.dissenting, 3);
    assert_eq!(disagreement.why, DissentReason::AllowsClaimFalse);
    assert_eq!(disagreement.scenario_satisfies, Some(3));
    let scenario = disagreement
        .scenario
        .as_ref()
        .expect("a separating scenario");
    assert_eq!(scenario.get("isEntryAllowed"), Some(&Value::Bool(true)));
    assert_eq!(
        scenario.get("ageClass"),
        Some(&Value::Enum("SENIOR".into()))
    );
    assert!(
        majority.feedback.contains("translation 3"),
        "{}",
        majority.feedback
    );
    assert!(
        majority.feedback.contains("isEntryAllowed"),
        "{}",
        majority.feedback
    );

    // At a 2/3 threshold the majority reading is confident; the other is not.
    let relaxed = VerifyOptions {
        threshold: 2.0 / 3.0,
        ..VerifyOptions::default()
    };
    let (report, _) = bench.check_with(&server, PARK_QUESTION, PARK_ANSWER, relaxed);
    assert_eq!(report.pairs[0].finding, FindingKind::Satisfiable);
    assert_eq!(report.pairs[1].finding, FindingKind::TranslationAmbiguous);
    assert_eq!(report.finding, FindingKind::TranslationAmbiguous);
}

#[test]
fn a_logically_equivalent_translation_written_differently_agrees() {
    let dir = copy_sample("park-admission");
    let server = Server::start();
    server.respond_with(|request| {
        let pair = if sample(request) == 2 {
            (
                "(and isLowSeason (= 35.4 totalAdmissionFund) (not (= ageClass CHILD)) (not (= ageClass ADULT)))",
                "(= isEntryAllowed false)",
            )
        } else {
            (PARK_PREMISE, PARK_CLAIM)
        };
        openai_json(&translation(&[pair], &[]))
    });
    let bench = bench(dir.path());
    let report = bench.check(&server, PARK_QUESTION, PARK_ANSWER);

    assert_eq!(report.finding, FindingKind::Satisfiable, "{report:#?}");
    assert_eq!(report.pairs.len(), 1, "equivalent pairs merge");
    let pair = &report.pairs[0];
    assert_eq!(pair.confidence, 1.0);
    assert_eq!(pair.written_as.len(), 2);
    assert_eq!(pair.written_as[0].translations, vec![1, 3]);
    assert_eq!(pair.written_as[1].translations, vec![2]);
    assert_eq!(pair.claim, PARK_CLAIM);
}

#[test]
fn an_untranslatable_answer_is_no_translations_with_its_exact_span() {
    let dir = copy_sample("park-admission");
    let server = Server::start();
    let answer = "Yes!  The gift shop sells souvenir maps\nfor $4.";
    server.respond_with(|request| {
        // Each translator quotes a little differently; all point at the same words.
        let quote = match sample(request) {
            1 => "The gift shop sells souvenir maps\nfor $4",
            2 => "the gift shop sells souvenir maps for $4",
            _ => "\u{201c}The gift shop sells souvenir maps for $4\u{201d}",
        };
        openai_json(&translation(&[], &[quote]))
    });
    let bench = bench(dir.path());
    let report = bench.check(&server, "Do you sell maps?", answer);

    assert_eq!(report.finding, FindingKind::NoTranslations);
    assert!(report.pairs.is_empty());
    assert_eq!(report.untranslated.len(), 1, "{:#?}", report.untranslated);
    let span = &report.untranslated[0];
    assert_eq!(span.part, TextPart::Answer);
    assert_eq!(span.start, answer.find("The gift").expect("in the answer"));
    assert_eq!(&answer[span.start..span.end], span.text);
    assert_eq!(span.text, "The gift shop sells souvenir maps\nfor $4");
    assert_eq!(span.reported_by, vec![1, 2, 3]);
    assert!(
        report.feedback.contains("souvenir maps"),
        "{}",
        report.feedback
    );
}
