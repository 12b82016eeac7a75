//! Derivation chains (forward chaining, RvLLM §4.3): from the premise to a
//! goal through the rules of a minimal support set, one rule per step.
//!
//! Known values start with those the premise alone fixes. Each round takes
//! the first remaining rule, in model order, that proves a new value from
//! the premise, the known values and that one rule (the solver proves it:
//! the value's negation is unsatisfiable with them); its unsat cores say
//! which known values the step uses. Rounds repeat until the goal follows
//! from the known values. When no single rule proves anything new, the
//! remaining rules needed for the goal (a minimal core) form one step of
//! several rules, labelled so: a case split is shown as what it is.

use super::values::{differs, equals};
use super::{Chain, Step};
use crate::model::finding::Value;
use crate::smt::Expr;
use crate::smt::build::not_of;
use crate::solve::{ConeRule, Fact, Outcome, SessionQuery, SolveError};
use std::collections::HashSet;

/// A value a step may derive: the fact that it holds, and that it does not.
struct Candidate {
    variable: String,
    value: Value,
    holds: Fact,
    fails: Fact,
    known: bool,
}

/// Builds the chain proving `goal` from the premise (asserted as `premise`)
/// with the rules `support` (ids, e.g. a finding's minimal rule set).
pub fn build(
    query: &mut SessionQuery<'_>,
    premise: Fact,
    goal: &Expr,
    support: &[String],
) -> Result<Chain, SolveError> {
    let rules: Vec<ConeRule> = query
        .rules()
        .into_iter()
        .filter(|r| support.contains(&r.id))
        .collect();
    let positions: Vec<usize> = rules.iter().map(|r| r.position).collect();
    let variables: HashSet<String> = rules.iter().flat_map(|r| r.variables.clone()).collect();
    let goal_fails = query.fact(&not_of(goal))?;
    let scenario = match query.check(&positions, &[premise], &variables)? {
        Outcome::Sat(scenario) => scenario,
        Outcome::Unsat { .. } => {
            return Err(SolveError::Undecided(
                "the premise contradicts the rules of the chain".into(),
            ));
        }
    };
    let mut candidates = Vec::new();
    for (variable, value) in scenario.values {
        let (Some(holds), Some(fails)) = (equals(&variable, &value), differs(&variable, &value))
        else {
            continue;
        };
        let (holds, fails) = (query.fact(&holds)?, query.fact(&fails)?);
        // Known from the start when the premise alone fixes it.
        let known = matches!(
            query.check(&[], &[premise, fails], &variables)?,
            Outcome::Unsat { .. }
        );
        candidates.push(Candidate {
            variable,
            value,
            holds,
            fails,
            known,
        });
    }
    let mut remaining = rules;
    let mut steps: Vec<Step> = Vec::new();
    loop {
        let mut known_facts = vec![premise];
        known_facts.extend(candidates.iter().filter(|c| c.known).map(|c| c.holds));
        let mut goal_check = known_facts.clone();
        goal_check.push(goal_fails);
        if matches!(
            query.check(&[], &goal_check, &variables)?,
            Outcome::Unsat { .. }
        ) {
            if let Some(last) = steps.last_mut() {
                last.concludes = true;
            }
            break;
        }
        if remaining.is_empty() {
            return Err(SolveError::Undecided(
                "the rules given do not prove the goal".into(),
            ));
        }
        let mut taken = None;
        for (index, rule) in remaining.iter().enumerate() {
            let step = derive(query, &[rule.position], &known_facts, &mut candidates)?;
            if let Some(step) = step {
                taken = Some((index, step));
                break;
            }
        }
        match taken {
            Some((index, mut step)) => {
                step.rules = vec![remaining.remove(index).id];
                steps.push(step);
            }
            None => {
                // No rule alone moves forward: the rules the goal needs at once.
                let all: Vec<usize> = remaining.iter().map(|r| r.position).collect();
                let rules = match query.check(&all, &goal_check, &variables)? {
                    Outcome::Unsat { rules, .. } => query.minimize(rules, &goal_check)?.0,
                    Outcome::Sat(_) => {
                        return Err(SolveError::Undecided(
                            "the rules given do not prove the goal".into(),
                        ));
                    }
                };
                let used = used_values(query, &rules, &goal_check, &candidates, &variables)?;
                let mut step =
                    derive(query, &rules, &known_facts, &mut candidates)?.unwrap_or(Step {
                        rules: Vec::new(),
                        uses: Vec::new(),
                        derives: Vec::new(),
                        concludes: false,
                        texts: Vec::new(),
                    });
                for value in used {
                    if !step.uses.contains(&value) {
                        step.uses.push(value);
                    }
                }
                step.rules = query.rule_ids(&rules);
                remaining.retain(|r| !rules.contains(&r.position));
                steps.push(step);
            }
        }
    }
    Ok(Chain {
        goal: goal.to_string(),
        steps,
    })
}

/// The known values an unsat check of `rules` with `facts` uses.
fn used_values(
    query: &mut SessionQuery<'_>,
    rules: &[usize],
    facts: &[Fact],
    candidates: &[Candidate],
    show: &HashSet<String>,
) -> Result<Vec<(String, Value)>, SolveError> {
    Ok(match query.check(rules, facts, show)? {
        Outcome::Unsat { facts: core, .. } => candidates
            .iter()
            .filter(|c| c.known && core.contains(&c.holds))
            .map(|c| (c.variable.clone(), c.value.clone()))
            .collect(),
        Outcome::Sat(_) => Vec::new(),
    })
}

/// The values `rules` prove from the known ones (`known_facts`: the
/// premise, then the known values), marked known; None when they prove
/// nothing new.
fn derive(
    query: &mut SessionQuery<'_>,
    rules: &[usize],
    known_facts: &[Fact],
    candidates: &mut [Candidate],
) -> Result<Option<Step>, SolveError> {
    let mut uses: Vec<(String, Value)> = Vec::new();
    let mut derives = Vec::new();
    let empty = HashSet::new();
    let unknown: Vec<usize> = (0..candidates.len())
        .filter(|&i| !candidates[i].known)
        .collect();
    for i in unknown {
        // The known values alone first, so the core names the values used
        // (the premise as a whole would hide the ones it fixes).
        let mut facts = known_facts[1..].to_vec();
        facts.push(candidates[i].fails);
        let mut outcome = query.check(rules, &facts, &empty)?;
        if matches!(outcome, Outcome::Sat(_)) {
            facts.push(known_facts[0]);
            outcome = query.check(rules, &facts, &empty)?;
        }
        if let Outcome::Unsat { facts: core, .. } = outcome {
            derives.push(i);
            for used in candidates
                .iter()
                .filter(|c| c.known && core.contains(&c.holds))
            {
                let value = (used.variable.clone(), used.value.clone());
                if !uses.contains(&value) {
                    uses.push(value);
                }
            }
        }
    }
    if derives.is_empty() {
        return Ok(None);
    }
    let derives = derives
        .into_iter()
        .map(|i| {
            candidates[i].known = true;
            (candidates[i].variable.clone(), candidates[i].value.clone())
        })
        .collect();
    Ok(Some(Step {
        rules: Vec::new(),
        uses,
        derives,
        concludes: false,
        texts: Vec::new(),
    }))
}
