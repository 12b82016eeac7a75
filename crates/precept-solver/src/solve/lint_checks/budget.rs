//! A lint run's wall-clock budget. Within it the checks of each group of
//! rules run most useful first ([`GROUP_CHECKS`]); when it runs out the run
//! stops cleanly, and every check it did not do, or did not finish, is
//! counted by kind with the rules it left unchecked and reported as a
//! finding of its own: a partial lint never reads as a complete one.

use crate::model::diagnostic::{Diagnostic, LintCode, Severity};
use std::time::Duration;

/// The checks of one group of rules in the order a budget takes them:
/// conflicts first, then what leaves questions undecided, then tidiness.
pub const GROUP_CHECKS: [&str; 6] = [
    "conflicting overlaps (L206)",
    "impossible situations (L210)",
    "gaps (L207)",
    "shadowed exceptions (L209)",
    "vacuous and redundant rules (L202, L203)",
    "forced variables and unreachable values (L204, L205)",
];

/// A check the budget left undone (or unfinished) on a number of rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unchecked {
    pub check: &'static str,
    pub rules: usize,
}

/// Adds `more` to `into`, one entry per check, in the order of
/// [`GROUP_CHECKS`].
pub fn add_unchecked(into: &mut Vec<Unchecked>, more: &[Unchecked]) {
    for item in more {
        match into.iter_mut().find(|u| u.check == item.check) {
            Some(known) => known.rules += item.rules,
            None => into.push(item.clone()),
        }
    }
    into.sort_by_key(|u| GROUP_CHECKS.iter().position(|c| *c == u.check));
}

/// The finding that says what the budget left unchecked.
pub fn budget_finding(budget: Duration, unchecked: &[Unchecked]) -> Diagnostic {
    let list: Vec<String> = unchecked
        .iter()
        .map(|u| format!("{} on {} rule(s)", u.check, u.rules))
        .collect();
    Diagnostic::new(
        LintCode::NotDecided,
        Severity::Warning,
        format!(
            "Not checked within the lint budget of {} s: {}. These checks were skipped, not passed: give more time with --budget-s (or `budget_s.lint` in precept.json).",
            budget.as_secs_f64(),
            list.join("; ")
        ),
    )
}
