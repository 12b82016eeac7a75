//! Asking the solver within a budget: candidates taken round-robin over
//! the rules they target, decided on the worker, deduplicated.

use std::collections::{HashMap, HashSet};
use std::sync::mpsc;

use crate::model::CompiledModel;
use crate::smt::Expr;
use crate::solve::{Finding, FindingKind, LogicWarning, SolverWorker};
use crate::test_runner::shares::{model_graph, shares, start_share};

use super::candidates::{Candidate, CandidateKind};

/// The solver answers at most `max(MIN_QUESTIONS, QUESTIONS_PER_TEST × max)`
/// questions per generation (negations included).
pub(super) const MIN_QUESTIONS: usize = 600;
pub(super) const QUESTIONS_PER_TEST: usize = 8;
/// A candidate with its finding.
pub(super) struct Decided {
    pub(super) candidate: Candidate,
    pub(super) premise: String,
    pub(super) claim: String,
    pub(super) finding: Finding,
}

pub(super) fn key(premise: &str, claim: &str) -> String {
    format!("{premise}\u{0}{claim}")
}

/// At most `budget` distinct candidates, taken round-robin over the rules
/// they target first (each rule's boundaries first, then rule-applies,
/// chains, MC/DC, combinations, rule-does-not-apply, impossible probes,
/// values, under-specified), so on a large model every rule gets its first
/// candidates before any rule gets more.
pub(super) fn within_budget(candidates: Vec<Candidate>, budget: usize) -> Vec<Candidate> {
    let mut seen = HashSet::new();
    let distinct: Vec<Candidate> = candidates
        .into_iter()
        .filter(|c| seen.insert(key(&c.premise.to_string(), &c.claim.to_string())))
        .collect();
    if distinct.len() <= budget {
        return distinct;
    }
    let mut order: Vec<&str> = Vec::new();
    let mut buckets: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, candidate) in distinct.iter().enumerate() {
        let rule = candidate.rules.first().cloned().unwrap_or_default();
        let bucket = buckets.entry(rule).or_default();
        if bucket.is_empty() {
            order.push(candidate.rules.first().map_or("", String::as_str));
        }
        bucket.push(i);
    }
    // Within a rule, the kinds most likely to teach something come first.
    let priority = |kind: CandidateKind| match kind {
        CandidateKind::Boundary => 0,
        CandidateKind::AntecedentTrue => 1,
        CandidateKind::Transitive => 2,
        CandidateKind::Mcdc => 3,
        CandidateKind::Composite => 4,
        CandidateKind::AntecedentFalse => 5,
        CandidateKind::Impossible => 6,
        CandidateKind::EnumValue => 7,
        CandidateKind::Underspecified => 8,
        CandidateKind::Negation => 9,
    };
    for bucket in buckets.values_mut() {
        bucket.sort_by_key(|&i| (priority(distinct[i].kind), i));
    }
    let mut keep = vec![false; distinct.len()];
    let mut taken = 0;
    let mut round = 0;
    while taken < budget {
        let mut any = false;
        for rule in &order {
            if let Some(&i) = buckets.get(*rule).and_then(|b| b.get(round)) {
                any = true;
                if taken < budget {
                    keep[i] = true;
                    taken += 1;
                }
            }
        }
        if !any {
            break;
        }
        round += 1;
    }
    distinct
        .into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c))
        .collect()
}

/// Checks, submits and collects; candidates that do not type-check or whose
/// premise and claim were asked before are skipped.
///
/// The questions are cut into shares by cone as a test run is
/// (`test_runner::shares`): each share goes to one of `workers` (every one
/// with the model loaded) and starts in a solver made afresh, its questions
/// in the candidates' order, and the answers come back in that order. So
/// the findings, scenarios included, do not depend on how many workers
/// there are.
///
/// Once `deadline` has passed no more answers are waited for: the
/// questions still open are cancelled and counted in `unanswered`.
pub(super) fn solve(
    workers: &[SolverWorker],
    model: &CompiledModel,
    candidates: Vec<Candidate>,
    asked: &mut HashSet<String>,
    deadline: Option<std::time::Instant>,
    unanswered: &mut usize,
) -> Vec<Decided> {
    let mut questions = Vec::new();
    for candidate in candidates {
        let (premise, claim) = (candidate.premise.to_string(), candidate.claim.to_string());
        if !asked.insert(key(&premise, &claim)) {
            continue;
        }
        let (Ok((_, premise_formula)), Ok((_, claim_formula))) =
            (model.check_formula(&premise), model.check_formula(&claim))
        else {
            continue;
        };
        questions.push((candidate, premise, claim, premise_formula, claim_formula));
    }
    let formulas: Vec<Option<(&Expr, &Expr)>> =
        questions.iter().map(|q| Some((&q.3, &q.4))).collect();
    let mut replies = Vec::new();
    let mut tickets = vec![(0, 0); questions.len()];
    for (s, share) in shares(&model_graph(model), &formulas).iter().enumerate() {
        let on = s % workers.len();
        let worker = &workers[on];
        start_share(worker);
        let (reply, received) = mpsc::channel();
        for &at in share {
            let (_, _, _, premise, claim) = &questions[at];
            tickets[at] = (
                on,
                worker.submit(premise.clone(), claim.clone(), reply.clone()),
            );
        }
        replies.push((on, received));
    }
    let mut findings: HashMap<(usize, u64), Finding> = HashMap::new();
    for (on, received) in replies {
        loop {
            let answer = match deadline {
                None => received.recv().ok(),
                Some(end) => received
                    .recv_timeout(end.saturating_duration_since(std::time::Instant::now()))
                    .ok(),
            };
            let Some(answer) = answer else {
                break;
            };
            findings.insert((on, answer.ticket), answer.finding);
        }
    }
    for &(on, ticket) in &tickets {
        if !findings.contains_key(&(on, ticket)) {
            workers[on].cancel(ticket);
            *unanswered += 1;
        }
    }
    questions
        .into_iter()
        .zip(tickets)
        .filter_map(|((candidate, premise, claim, _, _), ticket)| {
            findings.remove(&ticket).map(|finding| Decided {
                candidate,
                premise,
                claim,
                finding,
            })
        })
        .collect()
}

/// Keeps decided findings worth showing: drops TOO_COMPLEX (and the other
/// undecided kinds), premises that contradict themselves without any rule,
/// and premises that contradict one rule alone.
pub(super) fn worth_keeping(decided: &Decided) -> bool {
    matches!(
        decided.finding.kind,
        FindingKind::Valid
            | FindingKind::Invalid
            | FindingKind::Satisfiable
            | FindingKind::Impossible
    ) && !decided
        .finding
        .warnings
        .contains(&LogicWarning::PremiseAlwaysFalse)
        && !contradicts_one_rule(decided)
}

/// An IMPOSSIBLE finding whose premise contradicts one rule directly (A and
/// not B, where a rule says A implies B): it tests nothing the rule's text
/// does not say. An IMPOSSIBLE that needs two rules or more is kept.
fn contradicts_one_rule(decided: &Decided) -> bool {
    decided.finding.kind == FindingKind::Impossible && decided.finding.rules().len() <= 1
}

/// Drops a test whose finding repeats an earlier one of the same kind with
/// the same claim, finding and rules (keeps the first).
pub(super) fn dedupe(decided: Vec<Decided>) -> Vec<Decided> {
    let mut seen = HashSet::new();
    decided
        .into_iter()
        .filter(|d| {
            let mut rules = d.finding.rules().to_vec();
            rules.sort();
            seen.insert((
                d.candidate.kind,
                d.claim.clone(),
                d.finding.kind,
                rules.join(","),
            ))
        })
        .collect()
}
