//! `precept explain` and `precept verify --explain` as scripts rely on them:
//! the fixed JSON fields, the park sample's chain step by step with its
//! source sentences, the follow-up question for an undecided claim, and
//! exit 2 with the position on bad input.

use crate::support;

use serde_json::{Value, json};
use support::{copy_sample, precept, sample, stderr, stdout};

const PARK: &str = "park-admission";
const DECIDED: &str =
    "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4) (= creditUnits 0))";
const UNDECIDED: &str = "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))";

fn explain_json(dir: &std::path::Path, premise: &str, claim: Option<&str>) -> Value {
    let mut args = vec!["explain", dir.to_str().unwrap(), "--premise", premise];
    if let Some(claim) = claim {
        args.extend(["--claim", claim]);
    }
    args.push("--json");
    let out = precept(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

#[test]
fn the_decided_park_question_has_a_chain_from_the_premise_to_entry_refused() {
    let json = explain_json(&sample(PARK), DECIDED, Some("(not isEntryAllowed)"));
    assert_eq!(
        keys(&json),
        ["finding", "forced", "open", "chain", "ask", "irrelevant"]
    );
    assert_eq!(json["finding"], "VALID");
    let chain = json["chain"].as_array().unwrap();
    for step in chain {
        assert_eq!(keys(step), ["rules", "uses", "derives", "source"]);
    }
    let rules: Vec<&str> = chain
        .iter()
        .map(|s| s["rules"].as_array().unwrap())
        .inspect(|r| assert_eq!(r.len(), 1, "one rule per step"))
        .map(|r| r[0].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        [
            "R1", "R2", "R4", "R8", "R9", "R11", "R12", "R14", "R15", "R16", "R17"
        ]
    );
    let derives: Vec<Value> = chain.iter().map(|s| s["derives"].clone()).collect();
    let one = |variable: &str, value: Value| json!([{"variable": variable, "value": value}]);
    assert_eq!(
        derives,
        [
            one("baseFee", json!("50")),
            one("seasonalFee", json!("37.5")),
            one("discountRate", json!("0.4")),
            one("discountedFee", json!("22.5")),
            one("processingFee", json!("10")),
            one("finalAdmissionFee", json!("32.5")),
            one("customerCredits", json!("0")),
            one("creditCost", json!("0")),
            one("cashPayment", json!("32.5")),
            one("totalExpense", json!("35.75")),
            one("isEntryAllowed", json!(false)),
        ]
    );
    // The discount rate step uses the premise's facts, the last one the funds.
    assert_eq!(
        chain[2]["uses"],
        json!([
            {"variable": "ageClass", "value": "SENIOR"},
            {"variable": "creditUnits", "value": "0"}
        ])
    );
    assert_eq!(
        chain[10]["uses"],
        json!([
            {"variable": "totalExpense", "value": "35.75"},
            {"variable": "totalAdmissionFund", "value": "35.4"}
        ])
    );
    assert_eq!(
        chain[2]["source"],
        "Senior visitors receive a 40% discount on the admission fee."
    );
    assert_eq!(
        chain[4]["source"],
        "Whenever a discount is granted, a $10 discount processing fee is added to the discounted admission fee. No processing fee is charged when no discount is granted."
    );
    assert_eq!(
        chain[9]["source"],
        "A federal tax of 10% is charged on the visitor's total expense, that is, the cash paid plus the price of the credits used."
    );
    assert_eq!(
        chain[10]["source"],
        "A visitor may enter the park when their total expense, including tax, does not exceed the funds they have available."
    );
    // Everything is decided: nothing open, nothing to ask.
    assert_eq!(json["open"], json!([]));
    assert_eq!(json["ask"], json!([]));
    let forced = json["forced"].as_array().unwrap();
    assert_eq!(forced.len(), 15);
    assert!(forced.contains(&json!({"variable": "discountRate", "value": "0.4", "rules": ["R4"]})));
    assert!(forced.contains(&json!({"variable": "ageClass", "value": "SENIOR", "rules": []})));
}

#[test]
fn the_decided_park_question_reads_as_text() {
    let out = precept(&[
        "explain",
        sample(PARK).to_str().unwrap(),
        "--premise",
        DECIDED,
        "--claim",
        "(not isEntryAllowed)",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "VALID: Yes: under these rules, in this situation it is always true that the visitor may not enter the park (R1, R2, R4, R8, R9, R11, R12, R14, R15, R16, R17).\nforced:\n  ageClass = SENIOR  (the premise)\n"
        ),
        "{text}"
    );
    assert!(text.contains("  discountRate = 0.4  (R4)\n"), "{text}");
    assert!(
        text.contains("chain to (not isEntryAllowed):\n  1. R1\n       R1: (= baseFee 50.0)\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "  3. R4\n       R4: (=> (and (= ageClass SENIOR) (= creditUnits 0)) (= discountRate 0.4))\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("       source: \"Senior visitors receive a 40% discount on the admission fee.\"\n       uses ageClass = SENIOR, creditUnits = 0\n       derives discountRate = 0.4\n"),
        "{text}"
    );
    assert!(
        text.ends_with("       derives isEntryAllowed = false\n"),
        "{text}"
    );
}

/// The park sample with a parking permit no admission rule mentions.
fn park_with_parking() -> tempfile::TempDir {
    let dir = copy_sample(PARK);
    let path = dir.path().join("model.json");
    let mut model: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    model["variables"].as_array_mut().unwrap().extend([
        json!({"name": "hasParkingPermit", "type": "Bool", "description": "Whether the visitor holds a parking permit"}),
        json!({"name": "parkingFee", "type": "Real", "description": "Parking fee in dollars"}),
    ]);
    model["rules"].as_array_mut().unwrap().push(
        json!({"id": "R18", "expression": "(=> hasParkingPermit (= parkingFee 0.0))", "review": "approved"}),
    );
    std::fs::write(&path, serde_json::to_string_pretty(&model).unwrap()).unwrap();
    dir
}

#[test]
fn the_undecided_park_question_asks_for_the_credit_units() {
    let dir = park_with_parking();
    let json = explain_json(dir.path(), UNDECIDED, Some("(not isEntryAllowed)"));
    assert_eq!(json["finding"], "SATISFIABLE");
    assert_eq!(
        json["ask"],
        json!([{
            "variables": ["creditUnits"],
            "question": "What is the number of 5-credit units the visitor uses?"
        }])
    );
    assert_eq!(json["irrelevant"], json!(["hasParkingPermit"]));
    assert_eq!(json["chain"], json!([]));
    let forced = json["forced"].as_array().unwrap();
    assert!(forced.contains(&json!({"variable": "baseFee", "value": "50", "rules": ["R1"]})));
    assert!(
        forced
            .contains(&json!({"variable": "seasonalFee", "value": "37.5", "rules": ["R1", "R2"]}))
    );
    // A discount is granted either way, so its processing fee is forced too.
    assert!(
        forced
            .iter()
            .any(|f| f["variable"] == "processingFee" && f["value"] == "10")
    );
    assert_eq!(
        json["open"],
        json!([
            "discountRate",
            "discountedFee",
            "finalAdmissionFee",
            "creditUnits",
            "customerCredits",
            "creditCost",
            "cashPayment",
            "totalExpense",
            "isEntryAllowed"
        ])
    );
}

#[test]
fn the_undecided_park_question_shows_the_values_that_decide_it() {
    let dir = park_with_parking();
    let out = precept(&[
        "explain",
        dir.path().to_str().unwrap(),
        "--premise",
        UNDECIDED,
        "--claim",
        "(not isEntryAllowed)",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.ends_with(
            "ask:\n  creditUnits: What is the number of 5-credit units the visitor uses?\n    the claim can be true when creditUnits = 0, 1, 2; false when creditUnits = 3\nirrelevant: hasParkingPermit\n"
        ),
        "{text}"
    );
}

#[test]
fn without_a_claim_explain_lists_forced_and_open_values_only() {
    let json = explain_json(&sample(PARK), "(= ageClass ADULT)", None);
    assert_eq!(
        keys(&json),
        ["forced", "open", "chain", "ask", "irrelevant"]
    );
    let forced = json["forced"].as_array().unwrap();
    assert!(forced.contains(&json!({"variable": "discountRate", "value": "0", "rules": ["R7"]})));
    assert!(
        forced
            .contains(&json!({"variable": "processingFee", "value": "0", "rules": ["R7", "R10"]}))
    );
    assert!(
        json["open"]
            .as_array()
            .unwrap()
            .contains(&json!("seasonalFee"))
    );
}

#[test]
fn bad_input_exits_two_with_the_position() {
    let out = precept(&[
        "explain",
        sample(PARK).to_str().unwrap(),
        "--premise",
        "(and isLowSeason\n  (> baseFe 3))",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).trim(),
        "precept: --premise: 2:6: expected a declared variable or enum value, found the unknown name 'baseFe'; did you mean baseFee?"
    );
    let out = precept(&[
        "explain",
        sample(PARK).to_str().unwrap(),
        "--premise",
        "isLowSeason",
        "--claim",
        "(and isEntryAllowed",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("precept: --claim: 1:"),
        "{}",
        stderr(&out)
    );
    let missing = precept(&["explain", sample(PARK).to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn a_premise_that_contradicts_the_rules_exits_one_naming_them() {
    let out = precept(&[
        "explain",
        sample(PARK).to_str().unwrap(),
        "--premise",
        "(and isLowSeason (= seasonalFee 50.0))",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out).trim(),
        "precept: the premise contradicts the rules R1, R2"
    );
}

#[test]
fn verify_explain_adds_the_chain_and_keeps_every_other_field() {
    let base = [
        "verify",
        sample(PARK).to_str().unwrap().to_string().leak(),
        "--premise",
        DECIDED,
        "--claim",
        "(not isEntryAllowed)",
        "--json",
    ];
    let plain = precept(&base);
    let mut with_chain = base.to_vec();
    with_chain.push("--explain");
    let explained = precept(&with_chain);
    assert_eq!(explained.status.code(), Some(0), "{}", stderr(&explained));
    let plain: Value = serde_json::from_str(&stdout(&plain)).unwrap();
    let mut explained: Value = serde_json::from_str(&stdout(&explained)).unwrap();
    let chain = explained.as_object_mut().unwrap().remove("chain").unwrap();
    assert_eq!(explained, plain);
    assert_eq!(chain.as_array().unwrap().len(), 11);
    assert_eq!(
        chain[10]["derives"],
        json!([{"variable": "isEntryAllowed", "value": false}])
    );
    assert_eq!(chain[0]["rules"], json!(["R1"]));
    assert_eq!(
        chain[0]["source"],
        "The standard admission fee is $50 per visit."
    );

    let text = precept(&[
        "verify",
        sample(PARK).to_str().unwrap(),
        "--premise",
        DECIDED,
        "--claim",
        "(not isEntryAllowed)",
        "--explain",
    ]);
    let text = stdout(&text);
    assert!(text.starts_with("VALID: Yes: "), "{text}");
    assert!(text.contains("chain to (not isEntryAllowed):\n"), "{text}");
    assert!(text.contains("  11. R17\n"), "{text}");
}

/// The Gift Aid page came as HTML: a rule's source quote in a chain shows
/// the sentence, never its tags.
#[test]
fn a_source_quote_never_shows_html_tags() {
    let project = support::copy_test_data("lab/gift-aid-llm-model");
    let out = support::precept(&[
        "explain",
        project.path().to_str().unwrap(),
        "--premise",
        "(and claimsGiftAid donorIsIndividual (= organisationKind CHARITY) (= donationAmount 100.0))",
        "--claim",
        "(= giftAidClaimAmount 25.0)",
    ]);
    let text = support::stdout(&out);
    let source = text
        .lines()
        .find(|l| l.trim_start().starts_with("source:"))
        .unwrap_or_else(|| panic!("a source quote: {text}"));
    assert!(source.contains("You can claim back 25p"), "{source}");
    assert!(!source.contains('<') && !source.contains('>'), "{source}");
}
