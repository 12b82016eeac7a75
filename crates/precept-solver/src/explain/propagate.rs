//! Propagation: which variables of the premise's cone the rules and the
//! premise force, with the value and a minimal set of supporting rules.
//!
//! A first model gives each variable a candidate value. Those that one
//! change of their own value in that model shows open (`moves.rs`, no
//! solver) are open; for the rest, one check asks
//! for a model in which *every* remaining candidate differs at once (each
//! difference under its own guard): a satisfying model clears them all; an
//! unsat core names the few candidates that cannot all move, which are set
//! aside and the rest asked again. The candidates set aside are decided one
//! by one: a model that moves one clears it (and any other it moves), an
//! unsat answer proves the value forced, and its core, minimized as
//! findings' rule sets are, is the value's support.

use super::moves::open_by_moves;
use super::values::differs;
use super::{Forced, Propagation};
use crate::model::finding::{Scenario, Value};
use crate::smt::Expr;
use crate::solve::{Fact, Outcome, SessionQuery, SolveError};
use std::collections::{HashMap, HashSet};

/// The variables of the query's cone and of the premise, with the premise
/// asserted as a fact.
pub struct Scope {
    pub premise: Fact,
    pub premise_formula: Expr,
    /// Every variable the cone's rules or the premise mention.
    pub variables: HashSet<String>,
}

impl Scope {
    pub fn new(query: &mut SessionQuery<'_>, premise: &Expr) -> Result<Scope, SolveError> {
        let fact = query.fact(premise)?;
        let mut variables: HashSet<String> = query
            .rules()
            .into_iter()
            .flat_map(|r| r.variables)
            .collect();
        variables.extend(
            premise
                .symbols()
                .into_iter()
                .filter(|s| query.is_variable(s))
                .map(str::to_string),
        );
        Ok(Scope {
            premise: fact,
            premise_formula: premise.clone(),
            variables,
        })
    }
}

struct Candidate {
    variable: String,
    value: Value,
    differs: Fact,
    cleared: bool,
}

impl Candidate {
    /// Whether the scenario shows this variable with another value.
    fn moved_in(&self, scenario: &Scenario) -> bool {
        scenario
            .get(&self.variable)
            .is_some_and(|value| *value != self.value)
    }
}

/// Computes what the premise forces in the query's cone.
pub fn propagate(query: &mut SessionQuery<'_>, scope: &Scope) -> Result<Propagation, SolveError> {
    let cone = query.cone().to_vec();
    let first = match query.check(&cone, &[scope.premise], &scope.variables)? {
        Outcome::Sat(scenario) => scenario,
        Outcome::Unsat { rules, .. } => {
            let (minimal, _) = query.minimize(rules, &[scope.premise])?;
            return Ok(Propagation {
                contradiction: Some(query.rule_ids(&minimal)),
                ..Propagation::default()
            });
        }
    };
    let order: Vec<String> = first.values.iter().map(|(n, _)| n.clone()).collect();
    let moved = open_by_moves(query, &scope.premise_formula, &first);
    let mut open = Vec::new();
    let mut candidates = Vec::new();
    for (variable, value) in first.values {
        if moved.contains(&variable) {
            open.push(variable);
            continue;
        }
        match differs(&variable, &value) {
            Some(formula) => candidates.push(Candidate {
                differs: query.fact(&formula)?,
                variable,
                value,
                cleared: false,
            }),
            // An irrational value cannot be written exactly, so it is not
            // reported as forced.
            None => open.push(variable),
        }
    }
    // Again over the candidates set aside, until a round clears none: the
    // ones left are decided one by one.
    let mut pending: Vec<usize> = (0..candidates.len()).collect();
    let suspects = loop {
        let suspects = clear_together(query, scope, &cone, &mut candidates, &pending)?;
        let left: Vec<usize> = suspects
            .into_iter()
            .filter(|&i| !candidates[i].cleared)
            .collect();
        if left.len() == pending.len() {
            break left;
        }
        pending = left;
    };
    let mut forced = Vec::new();
    for &index in &suspects {
        if candidates[index].cleared {
            continue;
        }
        let facts = [scope.premise, candidates[index].differs];
        let show: HashSet<String> = suspects
            .iter()
            .filter(|&&i| !candidates[i].cleared)
            .map(|&i| candidates[i].variable.clone())
            .collect();
        let outcome = query.check(&cone, &facts, &show)?;
        match outcome {
            Outcome::Sat(scenario) => {
                for candidate in candidates.iter_mut().filter(|c| c.moved_in(&scenario)) {
                    candidate.cleared = true;
                }
            }
            Outcome::Unsat { rules, .. } => {
                let (minimal, proved) = query.minimize(rules, &facts)?;
                let candidate = &mut candidates[index];
                candidate.cleared = true;
                forced.push(Forced {
                    variable: candidate.variable.clone(),
                    value: candidate.value.clone(),
                    rules: query.rule_ids(&minimal),
                    rules_minimal: proved,
                });
            }
        }
    }
    // Back in the scenario's (declaration) order.
    let position: HashMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(i, name)| (name.as_str(), i))
        .collect();
    let position = |name: &str| position.get(name).copied();
    forced.sort_by_key(|f| position(&f.variable));
    let forced_names: HashSet<&str> = forced.iter().map(|f| f.variable.as_str()).collect();
    open.extend(
        candidates
            .iter()
            .filter(|c| !forced_names.contains(c.variable.as_str()))
            .map(|c| c.variable.clone()),
    );
    open.sort_by_key(|name| position(name));
    Ok(Propagation {
        forced,
        open,
        contradiction: None,
    })
}

/// Asks for all `pending` candidates to move at once, setting aside those
/// an unsat core blames; returns the indices set aside (the rest are
/// cleared).
fn clear_together(
    query: &mut SessionQuery<'_>,
    scope: &Scope,
    cone: &[usize],
    candidates: &mut [Candidate],
    pending: &[usize],
) -> Result<Vec<usize>, SolveError> {
    let mut suspects: Vec<usize> = Vec::new();
    loop {
        let active: Vec<usize> = pending
            .iter()
            .copied()
            .filter(|i| !candidates[*i].cleared && !suspects.contains(i))
            .collect();
        if active.is_empty() {
            return Ok(suspects);
        }
        let mut facts = vec![scope.premise];
        facts.extend(active.iter().map(|&i| candidates[i].differs));
        // All active candidates move in a model by construction: only the
        // ones set aside need their values read.
        let show: HashSet<String> = suspects
            .iter()
            .map(|&i| candidates[i].variable.clone())
            .collect();
        let outcome = query.check(cone, &facts, &show)?;
        match outcome {
            Outcome::Sat(scenario) => {
                for &i in &active {
                    candidates[i].cleared = true;
                }
                for candidate in candidates.iter_mut() {
                    if candidate.moved_in(&scenario) {
                        candidate.cleared = true;
                    }
                }
                return Ok(suspects);
            }
            Outcome::Unsat { facts: core, .. } => {
                let blamed: Vec<usize> = active
                    .iter()
                    .copied()
                    .filter(|&i| core.contains(&candidates[i].differs))
                    .collect();
                if blamed.is_empty() {
                    // Only the premise and rules: every candidate is decided alone.
                    suspects.extend(active);
                    return Ok(suspects);
                }
                suspects.extend(blamed);
            }
        }
    }
}
