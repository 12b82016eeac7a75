//! The English of every rule of the four LLM-formalized real models and of
//! the samples reads as a reviewer would write it: none of the patterns a
//! reviewer stumbled on ("the whether …", "does not have made", "it is not
//! the case that", a description's definition pasted mid-sentence, a word
//! doubled), and no negation is ever doubled.

use crate::support;

use precept::model::Project;
use precept::smt::wording::negate_clause;
use proptest::prelude::*;

const MODELS: [&str; 4] = [
    "lab/cbt-llm-model",
    "lab/gift-aid-llm-model",
    "lab/time-off-for-dependants-llm-model",
    "lab/vaccine-damage-payment-llm-model",
];

/// The known bad patterns a sentence shows, by name.
fn bad_patterns(sentence: &str) -> Vec<&'static str> {
    let lower = sentence.to_lowercase();
    let mut found = Vec::new();
    if lower.contains("the whether") {
        found.push("the whether");
    }
    if lower.contains("it is not the case that") {
        found.push("it is not the case that");
    }
    let words: Vec<&str> = lower.split_whitespace().collect();
    for pair in words.windows(2) {
        let participle =
            pair[1].ends_with("ed") || ["made", "got", "paid", "given"].contains(&pair[1]);
        if pair[0] == "have" && participle && lower.contains("not have") {
            found.push("does not have + participle");
        }
        if pair[0] == pair[1] && pair[0].chars().all(char::is_alphabetic) {
            found.push("a doubled word");
        }
    }
    if lower.contains("; '") || lower.contains("; “") {
        found.push("a definition pasted mid-sentence");
    }
    found
}

#[test]
fn no_rule_of_the_real_models_or_samples_reads_badly() {
    let mut dirs: Vec<std::path::PathBuf> = MODELS.iter().map(|m| support::test_data(m)).collect();
    for sample in ["airline-refunds", "benefit-eligibility", "park-admission"] {
        dirs.push(support::sample(sample));
    }
    let mut bad = Vec::new();
    let mut sentences = 0;
    for dir in dirs {
        let project = Project::load_unchecked(&dir).expect("the project loads");
        let compiled = precept::model::compile(&project.model);
        for rule in &compiled.rules {
            let sentence = compiled.glossary.sentence(&rule.written);
            sentences += 1;
            for pattern in bad_patterns(&sentence) {
                bad.push(format!(
                    "{} {}: {pattern}: {sentence}",
                    dir.display(),
                    rule.id
                ));
            }
        }
    }
    assert!(sentences > 250, "{sentences} sentences");
    assert!(
        bad.is_empty(),
        "{} bad sentences:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

proptest! {
    /// A clause negated once has one negation; negated twice, none.
    #[test]
    fn negation_is_never_doubled(
        subject in prop::sample::select(vec!["the donor", "the charity or CASC", "the visit", "the person"]),
        verb in prop::sample::select(vec![
            "is eligible", "has made a declaration", "has a licence", "may claim",
            "might be able to claim", "needs a declaration", "got a penalty",
            "falls in the low season", "can ride", "is not a member", "was given a refund",
            "must pay", "applies",
        ]),
    ) {
        let clause = format!("{subject} {verb}");
        if let Some(negated) = negate_clause(&clause) {
            for doubled in ["not not", "not never", "never not", "cannot not", "not no "] {
                prop_assert!(!negated.contains(doubled), "{clause} → {negated}");
            }
            let nots = |s: &str| s.split_whitespace().filter(|w| matches!(*w, "not" | "never" | "cannot")).count();
            prop_assert!(nots(&negated) != nots(&clause), "{clause} → {negated}");
        }
    }
}
