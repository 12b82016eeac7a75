//! Relevance and follow-up questions for a SATISFIABLE claim.
//!
//! A set S of open inputs *decides* the claim C when no two scenarios of
//! M ∧ P that agree on S disagree on C: one check over the rules and a twin
//! copy of them (C in one, ¬C in the twin, S equal in both) is unsat.
//! Forced values are constants, so the rules split into groups that share
//! only forced variables; the claim depends on its own group alone, and
//! the inputs of the other groups are irrelevant without a check. In the
//! claim's group an input is irrelevant when, with every other input equal,
//! the twin still cannot disagree. Deciding sets are searched by size among
//! the relevant inputs, up to a budget of checks; when it runs out first, a
//! minimal set comes from an unsat core instead.
//!
//! Every failed check leaves a counterexample: twins that disagree on C
//! while agreeing on some inputs. No subset of those inputs decides C, so
//! the search skips such sets without asking the solver again.

use super::propagate::Scope;
use super::values::{differs, order};
use super::{Ask, Propagation, Relevance, ValueSplit};
use crate::model::finding::Value;
use crate::smt::Expr;
use crate::smt::build::{and_of, not_of};
use crate::solve::{Fact, Outcome, SessionQuery, SolveError};
use petgraph::unionfind::UnionFind;
use std::collections::{HashMap, HashSet};

/// How far the search goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Deciding sets have at most this many variables.
    pub max_size: usize,
    /// At most this many deciding sets are reported.
    pub max_sets: usize,
    /// At most this many checks are spent on searching by size.
    pub max_checks: usize,
    /// At most this many values are listed per side of a split.
    pub max_values: usize,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_size: 3,
            max_sets: 5,
            max_checks: 200,
            max_values: 6,
        }
    }
}

/// The twin question's facts: C in the scenario, ¬C in its twin.
struct Twin {
    group: Vec<usize>,
    /// The premise and the forced values (which stand for the other groups).
    given: Vec<Fact>,
    base: Vec<Fact>,
    claim_holds: Fact,
    claim_fails: Fact,
    same: HashMap<String, Fact>,
}

/// The inputs on which the twins of each counterexample found so far agree.
#[derive(Default)]
struct Counterexamples {
    agreeing: Vec<HashSet<String>>,
}

impl Counterexamples {
    /// Whether a counterexample already shows that `set` does not decide.
    fn refute(&self, set: &[&String]) -> bool {
        self.agreeing
            .iter()
            .any(|agree| set.iter().all(|v| agree.contains(v.as_str())))
    }
}

impl Twin {
    /// Whether the inputs of `set` decide the claim; a counterexample
    /// found on the way is kept in `seen`.
    fn decides(
        &self,
        query: &mut SessionQuery<'_>,
        set: &[&String],
        seen: &mut Counterexamples,
    ) -> Result<bool, SolveError> {
        if seen.refute(set) {
            return Ok(false);
        }
        let mut facts = self.base.clone();
        facts.extend(set.iter().map(|v| self.same[v.as_str()]));
        match query.check(&self.group, &facts, &HashSet::new())? {
            Outcome::Unsat { .. } => Ok(true),
            Outcome::Sat(_) => {
                let inputs: Vec<&str> = self.same.keys().map(String::as_str).collect();
                seen.agreeing.push(query.twins_agree_on(&inputs)?);
                Ok(false)
            }
        }
    }
}

/// Which open inputs matter to `claim`, given the propagation of the premise.
pub fn relevance(
    query: &mut SessionQuery<'_>,
    scope: &Scope,
    claim: &Expr,
    propagation: &Propagation,
    inputs: &[String],
    budget: Budget,
) -> Result<Relevance, SolveError> {
    let forced: HashSet<&str> = propagation
        .forced
        .iter()
        .map(|f| f.variable.as_str())
        .collect();
    let open_inputs: Vec<&String> = inputs
        .iter()
        .filter(|v| !forced.contains(v.as_str()))
        .collect();
    let (group, linked) = claim_group(query, scope, claim, &forced);
    let mut irrelevant: Vec<String> = open_inputs
        .iter()
        .filter(|v| !linked.contains(v.as_str()))
        .map(|v| v.to_string())
        .collect();
    let candidates: Vec<&String> = open_inputs
        .iter()
        .copied()
        .filter(|v| linked.contains(v.as_str()))
        .collect();
    let twin = twin(query, scope, claim, propagation, group, &candidates)?;
    // Every check from here on is over the claim's group alone.
    query.focus(&twin.group);
    let mut seen = Counterexamples::default();
    let (relevant, proved_irrelevant) = split_relevant(query, &twin, &candidates, &mut seen)?;
    irrelevant.extend(proved_irrelevant.into_iter().cloned());
    let order_of = |name: &str| inputs.iter().position(|v| v == name);
    irrelevant.sort_by_key(|v| order_of(v));
    let mut result = Relevance {
        ask: Vec::new(),
        smallest: true,
        irrelevant,
    };
    if relevant.is_empty() || !twin.decides(query, &relevant, &mut seen)? {
        // The inputs together do not decide it (derived values stay free).
        return Ok(result);
    }
    let mut sets: Vec<Vec<&String>> = Vec::new();
    let mut checks = 0;
    'search: for size in 1..=budget.max_size.min(relevant.len()) {
        for set in combinations(&relevant, size) {
            if sets
                .iter()
                .any(|found| found.iter().all(|v| set.contains(v)))
            {
                continue;
            }
            if seen.refute(&set) {
                continue;
            }
            if checks >= budget.max_checks || sets.len() >= budget.max_sets {
                break 'search;
            }
            checks += 1;
            if twin.decides(query, &set, &mut seen)? {
                sets.push(set);
            }
        }
    }
    if sets.is_empty() {
        result.smallest = false;
        let mut set = relevant.clone();
        let mut i = 0;
        while i < set.len() {
            let mut smaller = set.clone();
            smaller.remove(i);
            if twin.decides(query, &smaller, &mut seen)? {
                set = smaller;
            } else {
                i += 1;
            }
        }
        sets.push(set);
    }
    for set in sets {
        let mut splits = Vec::new();
        for variable in &set {
            splits.push(split(query, &twin, variable, budget.max_values)?);
        }
        result.ask.push(Ask {
            variables: set.iter().map(|v| v.to_string()).collect(),
            splits,
            question: String::new(),
        });
    }
    Ok(result)
}

/// Sorts the candidates into relevant and irrelevant by group testing: if
/// the twins cannot disagree on the claim while agreeing on every candidate
/// outside a set T, no input in T is relevant on its own; otherwise T is
/// halved, down to single inputs (each then decided exactly).
#[allow(clippy::type_complexity)]
fn split_relevant<'a>(
    query: &mut SessionQuery<'_>,
    twin: &Twin,
    candidates: &[&'a String],
    seen: &mut Counterexamples,
) -> Result<(Vec<&'a String>, Vec<&'a String>), SolveError> {
    let (mut relevant, mut irrelevant) = (Vec::new(), Vec::new());
    let mut pending: Vec<Vec<&'a String>> = vec![candidates.to_vec()];
    while let Some(set) = pending.pop() {
        if set.is_empty() {
            continue;
        }
        let others: Vec<&String> = candidates
            .iter()
            .copied()
            .filter(|v| !set.contains(v))
            .collect();
        if twin.decides(query, &others, seen)? {
            irrelevant.extend(set);
        } else if set.len() == 1 {
            relevant.extend(set);
        } else {
            let (first, second) = set.split_at(set.len() / 2);
            pending.push(second.to_vec());
            pending.push(first.to_vec());
        }
    }
    let position = |v: &&String| candidates.iter().position(|c| c == v);
    relevant.sort_by_key(position);
    Ok((relevant, irrelevant))
}

/// The rules of the claim's group (positions) and the variables linked to
/// the claim once forced values are constants.
fn claim_group(
    query: &SessionQuery<'_>,
    scope: &Scope,
    claim: &Expr,
    forced: &HashSet<&str>,
) -> (Vec<usize>, HashSet<String>) {
    let rules = query.rules();
    let mut names: Vec<&str> = scope.variables.iter().map(String::as_str).collect();
    names.sort_unstable();
    let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut union = UnionFind::<usize>::new(names.len());
    let link = |vars: Vec<&str>, union: &mut UnionFind<usize>| {
        let free: Vec<usize> = vars
            .into_iter()
            .filter(|v| !forced.contains(v))
            .filter_map(|v| index.get(v).copied())
            .collect();
        for pair in free.windows(2) {
            union.union(pair[0], pair[1]);
        }
    };
    for rule in &rules {
        link(
            rule.variables.iter().map(String::as_str).collect(),
            &mut union,
        );
    }
    // The premise and the claim may link variables too (a disjunction).
    link(scope.premise_formula.symbols(), &mut union);
    link(claim.symbols(), &mut union);
    let roots: HashSet<usize> = claim
        .symbols()
        .iter()
        .filter(|v| !forced.contains(*v))
        .filter_map(|v| index.get(v).map(|&i| union.find(i)))
        .collect();
    let linked: HashSet<String> = names
        .iter()
        .filter(|n| !forced.contains(*n) && roots.contains(&union.find(index[*n])))
        .map(|n| n.to_string())
        .collect();
    let group = rules
        .iter()
        .filter(|r| r.variables.iter().any(|v| linked.contains(v)))
        .map(|r| r.position)
        .collect();
    (group, linked)
}

fn twin(
    query: &mut SessionQuery<'_>,
    scope: &Scope,
    claim: &Expr,
    propagation: &Propagation,
    group: Vec<usize>,
    candidates: &[&String],
) -> Result<Twin, SolveError> {
    let values: Vec<Expr> = propagation
        .forced
        .iter()
        .filter_map(|f| super::values::equals(&f.variable, &f.value))
        .collect();
    let forced_values = and_of(values);
    let given = vec![scope.premise, query.fact(&forced_values)?];
    let mut base = given.clone();
    let claim_holds = query.fact(claim)?;
    let claim_fails = query.fact(&not_of(claim))?;
    base.push(claim_holds);
    base.push(query.twin_rules(&group));
    base.push(query.twin_fact(&scope.premise_formula)?);
    base.push(query.twin_fact(&forced_values)?);
    base.push(query.twin_fact(&not_of(claim))?);
    let mut same = HashMap::new();
    for &variable in candidates {
        same.insert(variable.clone(), query.same_value(variable)?);
    }
    Ok(Twin {
        group,
        given,
        base,
        claim_holds,
        claim_fails,
        same,
    })
}

/// The values of `variable` with which the claim can be true, and false
/// (M ∧ P, over the claim's group with the forced values). A Real has
/// endless values: two examples a side at most.
fn split(
    query: &mut SessionQuery<'_>,
    twin: &Twin,
    variable: &str,
    max_values: usize,
) -> Result<ValueSplit, SolveError> {
    let show: HashSet<String> = [variable.to_string()].into();
    let mut complete = true;
    let mut sides = Vec::new();
    for side in [twin.claim_holds, twin.claim_fails] {
        let mut facts = twin.given.clone();
        facts.push(side);
        let mut values: Vec<Value> = Vec::new();
        let mut exhausted = false;
        let mut limit = max_values;
        while values.len() < limit {
            let Outcome::Sat(scenario) = query.check(&twin.group, &facts, &show)? else {
                exhausted = true;
                break;
            };
            let Some(value) = scenario.get(variable).cloned() else {
                break;
            };
            let other = differs(variable, &value);
            if matches!(value, Value::Real(_) | Value::Algebraic(_)) {
                limit = limit.min(2);
            }
            values.push(value);
            match other {
                Some(other) => facts.push(query.fact(&other)?),
                None => break,
            }
        }
        complete &= exhausted;
        values.sort_by(order);
        sides.push(values);
    }
    let claim_false = sides.pop().unwrap_or_default();
    let claim_true = sides.pop().unwrap_or_default();
    Ok(ValueSplit {
        variable: variable.to_string(),
        claim_true,
        claim_false,
        complete,
    })
}

/// Sets of `size` items, in order (lexicographic by position).
fn combinations<'a>(items: &[&'a String], size: usize) -> Vec<Vec<&'a String>> {
    let mut out = Vec::new();
    let mut chosen: Vec<usize> = (0..size).collect();
    if size == 0 || size > items.len() {
        return out;
    }
    loop {
        out.push(chosen.iter().map(|&i| items[i]).collect());
        let mut k = size;
        while k > 0 && chosen[k - 1] == items.len() - size + k - 1 {
            k -= 1;
        }
        if k == 0 {
            return out;
        }
        chosen[k - 1] += 1;
        for j in k..size {
            chosen[j] = chosen[j - 1] + 1;
        }
    }
}
