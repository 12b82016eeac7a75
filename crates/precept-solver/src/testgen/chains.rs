//! Multi-step candidates (HalluVault §4.2): transitive chains along the
//! rule↔variable graph, and composites of two rules about one variable.

use std::collections::{BTreeSet, HashMap};

use crate::model::CompiledModel;
use crate::model::graph::RuleGraph;
use crate::smt::build::*;
use crate::smt::{Expr, ExprKind, Op};

use super::candidates::{Builder, CandidateKind, capped};
use super::cases::*;

/// At most this many transitive chains per model (the seed rotates which).
pub(super) const MAX_CHAINS: usize = 240;
/// At most this many three-rule chains are considered before the cap.
pub(super) const MAX_TRIPLES_SCANNED: usize = 50_000;
/// At most this many composite pairs per model (the seed rotates which).
pub(super) const MAX_COMPOSITES: usize = 160;
pub(super) fn transitive(b: &mut Builder, cases: &[Case], seed: u64) {
    let model = b.model;
    let graph = RuleGraph::build(
        model.variables.iter().map(|(name, _)| name.as_str()),
        model.rules.iter().map(|r| (r.id.as_str(), &r.written)),
    );
    // What a case decides: the name a conclusion defines or sets (`x` in
    // `(= x ..)`, `p` or `(not p)`), otherwise every variable it mentions.
    // A fact (a definition) decides what it defines from what it reads, so
    // it can carry a chain from one guarded rule to the next.
    let outputs: Vec<BTreeSet<String>> = cases
        .iter()
        .map(|c| decided_variables(model, &c.conclusion))
        .collect();
    let guard_vars: Vec<Vec<BTreeSet<String>>> = cases
        .iter()
        .map(|c| c.guard.iter().map(|g| variables_of(model, g)).collect())
        .collect();
    // What a case reads: its guard's variables; a fact's other variables.
    let inputs: Vec<BTreeSet<String>> = (0..cases.len())
        .map(|i| {
            if cases[i].guard.is_empty() {
                variables_of(model, &cases[i].conclusion)
                    .into_iter()
                    .filter(|v| !outputs[i].contains(v))
                    .collect()
            } else {
                guard_vars[i].iter().flatten().cloned().collect()
            }
        })
        .collect();
    let mut cases_of_rule: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, case) in cases.iter().enumerate() {
        cases_of_rule.entry(case.rule.as_str()).or_default().push(i);
    }
    // Successors through the rule↔variable graph: the cases of the rules
    // using a variable the case decides, that read it.
    let next: Vec<Vec<usize>> = (0..cases.len())
        .map(|from| {
            let mut found = BTreeSet::new();
            for variable in &outputs[from] {
                for rule in graph.rules_using(variable) {
                    if rule == cases[from].rule {
                        continue;
                    }
                    for &to in cases_of_rule.get(rule.as_str()).into_iter().flatten() {
                        if inputs[to].contains(variable) {
                            found.insert(to);
                        }
                    }
                }
            }
            found.into_iter().collect()
        })
        .collect();
    // The conditions of guarded case `to` that the step before does not decide.
    let rest = |from: usize, to: usize| -> Vec<Expr> {
        cases[to]
            .guard
            .iter()
            .zip(&guard_vars[to])
            .filter(|(_, vars)| vars.is_disjoint(&outputs[from]))
            .map(|(g, _)| g.clone())
            .collect()
    };
    let guarded = |i: usize| !cases[i].guard.is_empty();
    let mut pairs = Vec::new();
    let mut triples = Vec::new();
    for first in (0..cases.len()).filter(|&i| guarded(i)) {
        for &second in &next[first] {
            if guarded(second) {
                pairs.push(vec![first, second]);
            }
            for &third in &next[second] {
                if triples.len() < MAX_TRIPLES_SCANNED
                    && guarded(third)
                    && cases[third].rule != cases[first].rule
                {
                    triples.push(vec![first, second, third]);
                }
            }
        }
    }
    let pairs = capped(pairs, MAX_CHAINS, seed);
    let room = MAX_CHAINS.saturating_sub(pairs.len()).max(MAX_CHAINS / 4);
    let triples = capped(triples, room, seed);
    for chain in pairs.into_iter().chain(triples) {
        let mut premise = cases[chain[0]].guard.clone();
        for step in chain.windows(2) {
            premise.extend(rest(step[0], step[1]));
        }
        let last = chain[chain.len() - 1];
        let rules: Vec<&str> = chain.iter().map(|&i| cases[i].rule.as_str()).collect();
        let path = rules.join(" → ");
        let rationale = if chain.len() == 2 {
            format!(
                "chain {path}: {}'s conclusion feeds {}'s conditions",
                rules[0], rules[1]
            )
        } else {
            format!("chain {path}: each conclusion feeds the next rule")
        };
        b.push(
            CandidateKind::Transitive,
            and_of(premise),
            cases[last].conclusion.clone(),
            &rules,
            rationale,
        );
    }
}

/// The variables a conclusion decides: the defined name of `(= x ..)`, the
/// name in `p` or `(not p)`; otherwise every variable it mentions.
pub(super) fn decided_variables(model: &CompiledModel, conclusion: &Expr) -> BTreeSet<String> {
    let named = |e: &Expr| match &e.kind {
        ExprKind::Symbol(name) if model.vocabulary.variable_sort(name).is_some() => {
            Some(name.clone())
        }
        _ => None,
    };
    let single = match &conclusion.kind {
        ExprKind::Symbol(_) => named(conclusion),
        ExprKind::App(Op::Not, args) if args.len() == 1 => named(&args[0]),
        ExprKind::App(Op::Eq, args) if args.len() == 2 => {
            named(&args[0]).or_else(|| named(&args[1]))
        }
        _ => None,
    };
    match single {
        Some(name) => BTreeSet::from([name]),
        None => variables_of(model, conclusion),
    }
}

/// Whether two guards plainly exclude each other: one enum variable with two
/// values, or a condition and its negation.
pub(super) fn exclusive(first: &[Expr], second: &[Expr]) -> bool {
    let value_of = |e: &Expr| -> Option<(String, String)> {
        match &e.kind {
            ExprKind::App(Op::Eq, args) if args.len() == 2 => {
                match (&args[0].kind, &args[1].kind) {
                    (ExprKind::Symbol(a), ExprKind::Symbol(b)) => Some((a.clone(), b.clone())),
                    _ => None,
                }
            }
            _ => None,
        }
    };
    first.iter().any(|f| {
        second.iter().any(|g| {
            if not_of(f) == *g {
                return true;
            }
            match (value_of(f), value_of(g)) {
                (Some((v1, a)), Some((v2, b))) => v1 == v2 && a != b && !a.is_empty(),
                _ => false,
            }
        })
    })
}

pub(super) fn composite(b: &mut Builder, cases: &[Case], seed: u64) {
    let model = b.model;
    let guarded: Vec<usize> = (0..cases.len())
        .filter(|&i| !cases[i].guard.is_empty())
        .collect();
    let conclusion_vars: Vec<BTreeSet<String>> = cases
        .iter()
        .map(|c| variables_of(model, &c.conclusion))
        .collect();
    // Two rules that conclude about the same variable: applied together they
    // must agree, or the policy contradicts itself where both apply.
    let mut pairs = Vec::new();
    for (n, &i) in guarded.iter().enumerate() {
        for &j in &guarded[n + 1..] {
            if cases[i].rule != cases[j].rule
                && !conclusion_vars[i].is_disjoint(&conclusion_vars[j])
                && !exclusive(&cases[i].guard, &cases[j].guard)
            {
                pairs.push((i, j));
            }
        }
    }
    for (i, j) in capped(pairs, MAX_COMPOSITES, seed) {
        let (first, second) = (&cases[i], &cases[j]);
        let mut premise = first.guard.clone();
        premise.extend(second.guard.iter().cloned());
        if exclusive(
            std::slice::from_ref(&first.conclusion),
            std::slice::from_ref(&second.conclusion),
        ) {
            // Opposite conclusions: where both rules apply, the policy contradicts itself.
            b.push(
                CandidateKind::Composite,
                and_of(premise),
                first.conclusion.clone(),
                &[&first.rule, &second.rule],
                format!(
                    "{} and {} conclude opposite things: can both apply at once?",
                    first.rule, second.rule
                ),
            );
            continue;
        }
        b.push(
            CandidateKind::Composite,
            and_of(premise),
            and_of([first.conclusion.clone(), second.conclusion.clone()]),
            &[&first.rule, &second.rule],
            format!(
                "{} and {} together: both apply, so both conclusions must hold",
                first.rule, second.rule
            ),
        );
    }
}

// ---------------------------------------------------------------------------
// Solving, deduplication, ranking
