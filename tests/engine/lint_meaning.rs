//! Lint depends on what rules mean, not on how they are written: swapping
//! the sides of every `=` in the rules of the four LLM-formalized real
//! models (a rewrite the solver proves equivalent) leaves every diagnostic
//! as it was, up to wording.

use crate::support;

use precept::lint::full::full_lint;
use precept::model::{PolicyModel, Project, compile};
use precept::scheduler::Scheduler;
use precept::smt::{Expr, ExprKind, Op, parse_expr};
use std::collections::BTreeSet;
use std::time::Duration;

const MODELS: [&str; 4] = [
    "lab/cbt-llm-model",
    "lab/gift-aid-llm-model",
    "lab/time-off-for-dependants-llm-model",
    "lab/vaccine-damage-payment-llm-model",
];

/// `expr` with the two sides of every `=` swapped.
fn swapped(expr: &Expr) -> Expr {
    match &expr.kind {
        ExprKind::App(op, args) => {
            let mut args: Vec<Expr> = args.iter().map(swapped).collect();
            if *op == Op::Eq && args.len() == 2 {
                args.reverse();
            }
            Expr::new(ExprKind::App(*op, args))
        }
        _ => expr.clone(),
    }
}

/// Each diagnostic as kind, rules and variables (its wording aside).
fn findings(model: &PolicyModel) -> BTreeSet<(String, Vec<String>, Vec<String>)> {
    let compiled = compile(model);
    let scheduler = Scheduler::new(2, Duration::from_secs(5));
    full_lint(model, &compiled, Some(scheduler.workers()), &|_, _, _| {})
        .into_iter()
        .map(|d| {
            let mut rules = d.rules.clone();
            rules.sort();
            let mut variables = d.variables.clone();
            variables.sort();
            (d.code.code().to_string(), rules, variables)
        })
        .collect()
}

#[test]
fn swapping_the_sides_of_every_equation_changes_no_diagnostic() {
    let mut changed = Vec::new();
    for name in MODELS {
        let project = Project::load_unchecked(&support::test_data(name)).unwrap();
        let mut rewritten = project.model.clone();
        for rule in &mut rewritten.rules {
            if let Ok(expr) = parse_expr(&rule.expression) {
                rule.expression = swapped(&expr).to_string();
            }
        }
        // Definitions generate their rules: they are left as written.
        if !project.model.definitions.is_empty() {
            continue;
        }
        let (before, after) = (findings(&project.model), findings(&rewritten));
        for lost in before.difference(&after) {
            changed.push(format!("{name}: lost {lost:?}"));
        }
        for gained in after.difference(&before) {
            changed.push(format!("{name}: gained {gained:?}"));
        }
    }
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}
