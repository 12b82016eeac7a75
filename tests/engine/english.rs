//! The English templates on the bundled samples, and the property that a
//! negation never stacks ("it is not the case that it is not the case that").

use precept::model::{CompiledModel, PolicyModel, compile};
use precept::smt::english::Glossary;
use precept::smt::parse_expr;
use precept::smt::reading::Reading;
use proptest::prelude::*;

fn sample(json: &str) -> CompiledModel {
    let model: PolicyModel = serde_json::from_str(json).expect("sample model");
    compile(&model)
}

fn english(model: &CompiledModel, rule: &str) -> String {
    let rule = model.rule(rule).expect("rule exists");
    model.glossary.sentence(&rule.written)
}

#[test]
fn park_rules_read_with_natural_negation() {
    let park = sample(include_str!("../../samples/park-admission/model.json"));
    assert_eq!(
        english(&park, "R3"),
        "If the visit does not fall in the low season, then the admission fee in dollars after the seasonal adjustment, before discounts equals the standard admission fee in dollars."
    );
    assert_eq!(
        english(&park, "R17"),
        "The visitor may enter the park exactly when the visitor's total expense in dollars, including tax is at most the funds in dollars the visitor has available."
    );
}

#[test]
fn airline_rules_read_with_natural_negation() {
    let airline = sample(include_str!("../../samples/airline-refunds/model.json"));
    assert_eq!(
        english(&airline, "R8"),
        "If the passenger travelled on the flight, then the passenger is not entitled to a refund of the fare."
    );
    assert_eq!(
        english(&airline, "R15"),
        "If the reason recorded for the refund request is a government restriction, the passenger never travelled on the flight, the day number on which the government restriction was issued is greater than the day number of the booking day and the fare type of the ticket is not a Basic fare, then the passenger is entitled to a refund of the fare."
    );
    assert_eq!(
        english(&airline, "R24"),
        "If either the passenger is not entitled to a refund of the fare or the refund was not requested by the deadline, then the refund in dollars paid to the passenger equals 0."
    );
}

#[test]
fn cbt_rules_say_under_16_and_the_number_of_hours() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/lab/cbt-llm-model/model.json");
    let cbt = sample(&std::fs::read_to_string(&path).expect("the lab's CBT model"));
    assert_eq!(
        english(&cbt, "R2"),
        "If the rider's age in years is under 16, then the person cannot ride a moped."
    );
    assert_eq!(
        english(&cbt, "R28"),
        "The trainer cut the on-road riding part short exactly when the number of hours the on-road riding part of the CBT course lasted is under 2."
    );
    assert_eq!(
        english(&cbt, "R31"),
        "If the number of learners per trainer for the on-road parts of the course is over 2, then the person can complain to the Driver and Vehicle Standards Agency."
    );
    // A simple verb before a relative clause negates too.
    let negated = parse_expr("(not knowsMainRulesForMopedAndMotorcycleRiders)").unwrap();
    assert_eq!(
        cbt.glossary.sentence(&negated),
        "The person does not know the main rules that apply to moped and motorcycle riders."
    );
}

/// A small vocabulary: Booleans whose descriptions negate and one that does
/// not, a number, an enumeration.
fn glossary() -> Glossary {
    let mut g = Glossary::default();
    for (name, description) in [
        ("entry", "Whether the visitor may enter"),
        ("senior", "Whether the visitor is a senior (65 or over)"),
        ("falls", "Whether the visit falls in the low season"),
        ("covers", "Whether the visitor's fund covers the fee"),
        ("bare", ""),
    ] {
        g.variables.insert(name.into(), description.into());
        g.bool_variables.insert(name.into());
    }
    g.variables
        .insert("age".into(), "Age of the visitor in years".into());
    g.values.insert("CHILD".into(), "A child".into());
    g.variables
        .insert("kind".into(), "The visitor's kind".into());
    // Forms given by the LLM (or the expert) beside the description.
    g.variables
        .insert("declared".into(), "Whether a declaration was made".into());
    g.bool_variables.insert("declared".into());
    g.readings.insert(
        "declared".into(),
        Reading {
            holds: "the donor has made a Gift Aid declaration".into(),
            negated: "the donor has not made a Gift Aid declaration".into(),
            noun: String::new(),
        },
    );
    g.variables
        .insert("amount".into(), "How much was given".into());
    g.readings.insert(
        "amount".into(),
        Reading {
            noun: "the donation amount, in pounds".into(),
            ..Reading::default()
        },
    );
    g.values.insert("CHARITY".into(), "A charity".into());
    g.value_readings
        .insert("CHARITY".into(), "the organisation is a charity".into());
    g.values.insert("CASC".into(), "A CASC".into());
    g.value_readings.insert(
        "CASC".into(),
        "the organisation is a community amateur sports club".into(),
    );
    g
}

#[test]
fn given_reading_forms_word_the_sentences() {
    let g = glossary();
    let say = |rule: &str| g.sentence(&parse_expr(rule).unwrap());
    assert_eq!(
        say("(=> (not declared) (< amount 30))"),
        "If the donor has not made a Gift Aid declaration, then the donation amount, in pounds is under 30."
    );
    assert_eq!(
        say("(=> (or (= org CHARITY) (= org CASC)) declared)"),
        "If the organisation is a charity or a community amateur sports club, then the donor has made a Gift Aid declaration."
    );
    assert_eq!(
        say("(not (>= amount 30))"),
        "The donation amount, in pounds is under 30."
    );
    // Without forms, the template from the description says it.
    assert_eq!(
        g.reading("falls").negated,
        "the visit does not fall in the low season"
    );
    assert_eq!(
        g.reading("declared").holds,
        "the donor has made a Gift Aid declaration"
    );
}

fn bool_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("entry".to_string()),
        Just("senior".to_string()),
        Just("falls".to_string()),
        Just("covers".to_string()),
        Just("bare".to_string()),
        Just("declared".to_string()),
        (0..100i32).prop_map(|n| format!("(> amount {n})")),
        Just("true".to_string()),
        (0..100i32).prop_map(|n| format!("(>= age {n})")),
        (0..100i32).prop_map(|n| format!("(< age {n})")),
        Just("(= kind CHILD)".to_string()),
        Just("(distinct age 3)".to_string()),
    ];
    leaf.prop_recursive(5, 48, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(|e| format!("(not {e})")),
            inner.clone().prop_map(|e| format!("(not (not {e}))")),
            prop::collection::vec(inner.clone(), 2..4)
                .prop_map(|es| format!("(and {})", es.join(" "))),
            prop::collection::vec(inner.clone(), 2..4)
                .prop_map(|es| format!("(or {})", es.join(" "))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(=> {a} {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(= {a} {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(distinct {a} {b})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("(ite {c} {a} {b})")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn negations_never_stack(rule in bool_expr()) {
        let expr = parse_expr(&rule).expect("generated rules parse");
        let text = glossary().sentence(&expr).to_lowercase();
        prop_assert!(
            !text.contains("it is not the case that it is not the case that"),
            "{rule} reads {text}"
        );
        prop_assert!(!text.contains("(65 or over)"), "{rule} reads {text}");
        for double in ["not not", "does not have made", "has not not", "the whether"] {
            prop_assert!(!text.contains(double), "{rule} reads {text}");
        }
    }
}
