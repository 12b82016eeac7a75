//! What lint shows as evidence holds by exact evaluation on groups too
//! small for near checks, where gaps are found in scenarios earlier checks
//! met and a rule is shown not redundant by breaking and mending a scenario
//! of its group, with no check of its own.

use crate::synthetic;
use precept::model::diagnostic::{Diagnostic, LintCode};
use precept::model::evaluate::{Known, holds};
use precept::model::{CompiledModel, compile};
use precept::scheduler::{JobId, Scheduler};
use precept::solve::lint_checks::{LintEvent, split_implication};
use std::time::Duration;

fn lint(model: &CompiledModel) -> Vec<Diagnostic> {
    let pool = Scheduler::new(2, Duration::from_secs(10));
    let (events, received) = std::sync::mpsc::channel();
    pool.lint(JobId::next(), model.clone(), events);
    let mut found = Vec::new();
    for event in received.iter() {
        match event {
            LintEvent::Found(d) => found.push(*d),
            LintEvent::Finished { .. } => return found,
            LintEvent::Progress { .. } => {}
        }
    }
    panic!("the lint run ended without Finished");
}

/// The first two sections of the sectioned bench model (two groups of 75
/// rules), with a copy of one rule planted in the first.
fn two_sections_with_a_copy() -> CompiledModel {
    let mut policy = synthetic::synthetic().0;
    policy.rules.truncate(2 * synthetic::RULES_PER_SECTION);
    let mut copy = policy.rules[10].clone();
    copy.id = "R_copy".into();
    policy.rules.push(copy);
    compile(&policy)
}

#[test]
fn every_gap_on_a_small_group_shows_a_scenario_where_its_rules_hold_and_none_decides() {
    let model = two_sections_with_a_copy();
    let found = lint(&model);
    let gaps: Vec<&Diagnostic> = found.iter().filter(|d| d.code == LintCode::Gap).collect();
    // Far more than the few scenarios kept between gap checks: most are
    // found in a scenario met before.
    assert!(gaps.len() > 20, "{} gaps", gaps.len());
    let enum_value = |name: &str| {
        model
            .enums
            .iter()
            .any(|(_, vs)| vs.iter().any(|v| v == name))
    };
    for gap in gaps {
        let scenario = gap.scenario.as_ref().expect("a gap shows its scenario");
        let lookup = |name: &str| {
            scenario
                .get(name)
                .and_then(Known::of)
                .or_else(|| enum_value(name).then(|| Known::Enum(name.into())))
        };
        let output = &gap.variables[0];
        for rule in &model.rules {
            let mentions = rule.formula.symbols().contains(&output.as_str());
            let value = holds(&rule.formula, &lookup);
            if mentions {
                assert_eq!(
                    value,
                    Some(true),
                    "{}: {} in its scenario",
                    gap.message,
                    rule.id
                );
            } else {
                assert_ne!(value, Some(false), "{}: {}", gap.message, rule.id);
            }
            if gap.rules.contains(&rule.id) {
                let (condition, _) = split_implication(&rule.formula).expect("an implication");
                assert_eq!(
                    holds(&condition, &lookup),
                    Some(false),
                    "{}: {} applies in its scenario",
                    gap.message,
                    rule.id
                );
            }
        }
    }
}

#[test]
fn a_copied_rule_in_a_small_group_is_redundant_and_no_other_rule_is() {
    let found = lint(&two_sections_with_a_copy());
    let redundant: Vec<&Diagnostic> = found
        .iter()
        .filter(|d| d.code == LintCode::RedundantRule)
        .collect();
    let original = "R11".to_string();
    assert!(
        redundant
            .iter()
            .all(|d| d.rules.contains(&"R_copy".to_string()) && d.rules.contains(&original)),
        "{redundant:#?}"
    );
    assert!(!redundant.is_empty(), "the copy is redundant");
}
