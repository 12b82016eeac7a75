//! Lint depends on what rules mean, not on how they are written: rewriting
//! the rules of the four LLM-formalized real models in ways the solver
//! proves equivalent (swapping the sides of `=`, the contrapositive of an
//! implication, De Morgan's laws) leaves every diagnostic as it was, up to
//! wording.

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

/// The contrapositive of an implication: `(=> a b)` as `(=> (not b) (not a))`.
fn contrapositive(expr: &Expr) -> Expr {
    match &expr.kind {
        ExprKind::App(Op::Implies, args) if args.len() == 2 => Expr::new(ExprKind::App(
            Op::Implies,
            vec![negated(&args[1]), negated(&args[0])],
        )),
        _ => expr.clone(),
    }
}

/// `(not e)`, a double negation cancelled.
fn negated(expr: &Expr) -> Expr {
    match &expr.kind {
        ExprKind::App(Op::Not, args) => args[0].clone(),
        _ => Expr::new(ExprKind::App(Op::Not, vec![expr.clone()])),
    }
}

/// De Morgan's laws, wherever they apply: a conjunction as the negation of
/// a disjunction of negations, and the other way round.
fn de_morgan(expr: &Expr) -> Expr {
    match &expr.kind {
        ExprKind::App(op @ (Op::And | Op::Or), args) => {
            let dual = if *op == Op::And { Op::Or } else { Op::And };
            let inner = args.iter().map(|a| negated(&de_morgan(a))).collect();
            negated(&Expr::new(ExprKind::App(dual, inner)))
        }
        ExprKind::App(op, args) => {
            Expr::new(ExprKind::App(*op, args.iter().map(de_morgan).collect()))
        }
        _ => expr.clone(),
    }
}

/// The diagnostics a rewrite of every rule changes, per model.
fn changed_by(rewrite: impl Fn(usize, &Expr) -> Expr) -> Vec<String> {
    let mut changed = Vec::new();
    for name in MODELS {
        let project = Project::load_unchecked(&support::test_data(name)).unwrap();
        // Definitions generate their rules: they are left as written.
        if !project.model.definitions.is_empty() {
            continue;
        }
        let mut rewritten = project.model.clone();
        for (i, rule) in rewritten.rules.iter_mut().enumerate() {
            if let Ok(expr) = parse_expr(&rule.expression) {
                rule.expression = rewrite(i, &expr).to_string();
            }
        }
        let (before, after) = (findings(&project.model), findings(&rewritten));
        for lost in before.difference(&after) {
            changed.push(format!("{name}: lost {lost:?}"));
        }
        for gained in after.difference(&before) {
            changed.push(format!("{name}: gained {gained:?}"));
        }
    }
    changed
}

#[test]
fn swapping_the_sides_of_every_equation_changes_no_diagnostic() {
    let changed = changed_by(|_, expr| swapped(expr));
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

#[test]
fn random_equivalent_rewrites_change_no_diagnostic() {
    // Each rule gets a rewrite chosen by a fixed pseudo-random sequence:
    // the contrapositive, De Morgan, both, or a swap with one of them.
    let changed = changed_by(|i, expr| {
        let pick = (i as u64)
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407)
            >> 61;
        match pick % 4 {
            0 => contrapositive(expr),
            1 => de_morgan(expr),
            2 => de_morgan(&contrapositive(expr)),
            _ => swapped(&contrapositive(expr)),
        }
    });
    assert!(
        changed.is_empty(),
        "{} changed:\n{}",
        changed.len(),
        changed.join("\n")
    );
}
