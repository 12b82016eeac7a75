//! Conflicting overlaps (L206) that share one partner are one finding.
//!
//! When several rules conclude a decision X and a few others deny it
//! ("requirement not met → not X"), the solver finds one conflict per
//! pair: 13 general rules and 2 requirements make 26. They are one defect:
//! the requirements belong in every case, which one definition of X says.
//! So the pairs of one decision are replaced by one diagnostic naming the
//! denying rules and the rules that lack them, with the definition the
//! rules' shapes give as its fix.

use super::{Diagnostic, LintCode, Severity};
use crate::model::definition_shapes::shaped_definitions;
use crate::model::{ModelEdit, PolicyModel};
use crate::smt::{ExprKind, Op, parse_expr};
use std::collections::{BTreeMap, BTreeSet};

/// The fewest pairs grouped into one finding.
const GROUP_AT: usize = 3;

/// The decision a rule concludes, and whether it denies it.
fn conclusion(model: &PolicyModel, id: &str) -> Option<(String, bool)> {
    let expr = parse_expr(&model.rule(id)?.expression).ok()?;
    let last = match &expr.kind {
        ExprKind::App(Op::Implies, args) => args.last()?.clone(),
        _ => expr,
    };
    match &last.kind {
        ExprKind::Symbol(name) => Some((name.clone(), false)),
        ExprKind::App(Op::Not, args) if args.len() == 1 => match &args[0].kind {
            ExprKind::Symbol(name) => Some((name.clone(), true)),
            _ => None,
        },
        _ => None,
    }
}

fn listed(ids: &[String]) -> String {
    match ids.len() {
        0..=5 => ids.join(", "),
        _ => format!("{}, …", ids[..4].join(", ")),
    }
}

/// "R45, R50 and R55" (or "… or R55").
fn joined(ids: &[String], word: &str) -> String {
    match ids.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {word} {last}", rest.join(", ")),
    }
}

/// `diagnostics` with the conflicting overlaps of each decision that has
/// at least `GROUP_AT` of them with one denying partner grouped into one.
pub fn group_conflicts(model: &PolicyModel, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    // Which decision a rule concludes, whichever way it is written.
    let oriented = crate::model::orientation::oriented_model(model);
    let model = &oriented;
    // Decision → the positions of its pairs (one rule concludes it, the
    // other denies it).
    let mut buckets: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (at, d) in diagnostics.iter().enumerate() {
        if d.code != LintCode::ConflictingOverlap || d.rules.len() != 2 {
            continue;
        }
        let (Some((a, deny_a)), Some((b, deny_b))) = (
            conclusion(model, &d.rules[0]),
            conclusion(model, &d.rules[1]),
        ) else {
            continue;
        };
        if a == b && deny_a != deny_b {
            buckets.entry(a).or_default().push(at);
        }
    }
    let mut grouped: BTreeSet<usize> = BTreeSet::new();
    let mut added = Vec::new();
    // Read off the rules' shapes only when some decision is grouped.
    let mut definitions = None;
    for (variable, pairs) in buckets {
        if pairs.len() < GROUP_AT {
            continue;
        }
        let mut denying: Vec<String> = Vec::new();
        let mut concluding: Vec<String> = Vec::new();
        for &at in &pairs {
            for id in &diagnostics[at].rules {
                let list = match conclusion(model, id) {
                    Some((_, true)) => &mut denying,
                    _ => &mut concluding,
                };
                if !list.contains(id) {
                    list.push(id.clone());
                }
            }
        }
        let (verb, denies) = match denying.len() {
            1 => ("states a condition", "denies"),
            _ => ("state conditions", "denies"),
        };
        let rules_word = if concluding.len() == 1 {
            "rule"
        } else {
            "rules"
        };
        let message = format!(
            "{} {verb} that {} {rules_word} of {variable} lack ({}): where one of those \
             concludes {variable} and {} {denies} it, the policy allows nothing ({} \
             overlapping situations). They are one decision written apart: give {variable} one \
             definition, with the general rules as its cases and {} as its requirements or \
             exceptions.",
            joined(&denying, "and"),
            concluding.len(),
            listed(&concluding),
            joined(&denying, "or"),
            pairs.len(),
            joined(&denying, "and"),
        );
        let first = &diagnostics[pairs[0]];
        let mut diagnostic =
            Diagnostic::new(LintCode::ConflictingOverlap, Severity::Warning, message)
                .rules(denying.iter().chain(&concluding).cloned())
                .variables([variable.as_str()]);
        diagnostic.scenario = first.scenario.clone();
        if let Some(shaped) = definitions
            .get_or_insert_with(|| shaped_definitions(model))
            .iter()
            .find(|s| s.definition.variable == variable)
        {
            diagnostic = diagnostic.fix(
                format!("define {variable} once ({})", shaped.definition.id),
                ModelEdit::Define {
                    definition: shaped.definition.clone(),
                    replaces: shaped.replaces.clone(),
                },
            );
        }
        grouped.extend(pairs);
        added.push((diagnostic, variable));
    }
    let mut out: Vec<Diagnostic> = diagnostics
        .into_iter()
        .enumerate()
        .filter(|(at, _)| !grouped.contains(at))
        .map(|(_, d)| d)
        .collect();
    out.extend(added.into_iter().map(|(d, _)| d));
    out
}
