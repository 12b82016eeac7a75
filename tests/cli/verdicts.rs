//! Verdict sentences: each finding says in plain words what it means for
//! the question asked, in `precept verify`'s text and JSON, on the samples.

use crate::support;

use support::{precept, sample, stderr, stdout};

fn verify(dir: &str, premise: &str, claim: &str, json: bool) -> String {
    let path = sample(dir);
    let mut args = vec![
        "verify",
        path.to_str().unwrap(),
        "--premise",
        premise,
        "--claim",
        claim,
    ];
    if json {
        args.push("--json");
    }
    let out = precept(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout(&out)
}

fn first_line(dir: &str, premise: &str, claim: &str) -> String {
    verify(dir, premise, claim, false)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn park_findings_read_as_plain_sentences() {
    let park = "park-admission";
    assert_eq!(
        first_line(park, "(= ageClass CHILD)", "(= processingFee 10.0)"),
        "VALID: Yes: under these rules, in this situation it is always true that the discount processing fee in dollars equals 10 (R6, R9)."
    );
    assert_eq!(
        first_line(
            park,
            "(and (= ageClass SENIOR) (> creditUnits 0))",
            "(= discountRate 0.4)"
        ),
        "INVALID: No: under these rules, in this situation it is always true that the discount rate granted on the admission fee, as a fraction does not equal 0.4 (R5)."
    );
    assert_eq!(
        first_line(park, "(= totalAdmissionFund 50.0)", "isEntryAllowed"),
        "SATISFIABLE: It depends: under these rules, in this situation it can be true or false that the visitor may enter the park; the scenarios show one case of each."
    );
    assert_eq!(
        first_line(
            park,
            "(and isLowSeason (= seasonalFee 50.0))",
            "(= finalAdmissionFee 50.0)"
        ),
        "IMPOSSIBLE: The situation described cannot happen under these rules (R1, R2), so the question has no answer."
    );
}

#[test]
fn airline_findings_read_as_plain_sentences() {
    let airline = "airline-refunds";
    assert_eq!(
        first_line(airline, "(not didFlightOperate)", "isRefundEligible"),
        "VALID: Yes: under these rules, in this situation it is always true that the passenger is entitled to a refund of the fare (R5, R10)."
    );
    assert_eq!(
        first_line(airline, "didPassengerTravel", "isRefundEligible"),
        "INVALID: No: under these rules, in this situation it is always true that the passenger is not entitled to a refund of the fare (R8)."
    );
}

#[test]
fn a_question_without_a_premise_is_about_any_situation() {
    assert_eq!(
        first_line("park-admission", "true", "(>= cashPayment customerCredits)"),
        "VALID: Yes: under these rules, in any situation it is always true that the cash in dollars paid towards the admission fee is at least the number of park credits used, each worth one dollar of the fee (R13, R15)."
    );
}

#[test]
fn verify_json_adds_the_verdict_and_keeps_every_field() {
    let text = verify(
        "park-admission",
        "(and isLowSeason (= seasonalFee 50.0))",
        "(= finalAdmissionFee 50.0)",
        true,
    );
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "finding",
            "premise",
            "claim",
            "supporting_rules",
            "contradicting_rules",
            "rules_minimal",
            "policy_inconsistent",
            "claims_true_scenario",
            "claims_false_scenario",
            "warnings",
            "reason",
            "verdict"
        ]
    );
    assert_eq!(
        json["verdict"],
        "The situation described cannot happen under these rules (R1, R2), so the question has no answer."
    );
}
