//! Mutation analysis at full scale: the mutants of each rule are judged
//! together in one schema (`solve::SolverSession::judge_mutants`: a
//! selector literal per mutant, the tests of the rule's cone only, each
//! mutant stopping at its first failing test), the rules shared out over a
//! pool of solver workers, and the results put back in the mutants' own
//! order, so the report does not depend on how many workers ran.
//!
//! Mutants proved equivalent are kept by content hash
//! (`equivalence_cache.rs`); a later run judges them without the solver.
//!
//! A mutant the schema could not settle (the solver ran out of time, or the
//! policy is not known to be consistent) is judged the slow way, with a
//! full question per test (`mutation::judge_slowly`), so a check that runs
//! out of time still leaves the mutant undecided, never killed or survived.

use super::coverage::{in_cone, rule_graph};
use super::equivalence_cache::{EquivalenceCache, mutant_key, rule_context};
use super::mutation::{
    Baseline, Mutant, MutantResult, MutantStatus, MutationReport, judge_slowly, passing_tests,
};
use super::report_text::thousands;
use crate::model::finding::Scenario;
use crate::model::graph::RuleGraph;
use crate::model::{CompiledModel, LogicTest};
use crate::smt::Expr;
use crate::solve::{FindingKind, MutantVerdict, SchemaTest, SolverWorker};
use crate::test_runner::carry_over::satisfies;
use crate::test_runner::{TestOutcome, run_tests};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How far a mutation analysis has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MutationProgress {
    pub done: usize,
    pub total: usize,
    pub elapsed: Duration,
}

impl MutationProgress {
    /// The time left at the pace so far; None before the first mutant.
    pub fn eta(&self) -> Option<Duration> {
        if self.done == 0 {
            return None;
        }
        let left = self.total.saturating_sub(self.done) as f64;
        Some(self.elapsed.mul_f64(left / self.done as f64))
    }

    /// "1,200 of 6,000 mutants, about 40 s left".
    pub fn text(&self) -> String {
        let mut text = format!(
            "{} of {} mutants",
            thousands(self.done),
            thousands(self.total)
        );
        if let Some(eta) = self.eta() {
            text.push_str(&format!(", about {} s left", eta.as_secs().max(1)));
        }
        text
    }
}

/// Runs `mutants` against the counting tests on every one of `workers`
/// (each must have `model` loaded), calling `progress` after each rule.
/// Every worker ends with the model it started with.
pub fn mutation_score_pooled(
    workers: &[SolverWorker],
    model: &CompiledModel,
    tests: &[LogicTest],
    mutants: Vec<Mutant>,
    generated: usize,
    progress: &(dyn Fn(MutationProgress) + Sync),
) -> MutationReport {
    let cache = EquivalenceCache::in_memory();
    mutation_score_cached(workers, model, tests, mutants, generated, progress, &cache)
}

/// As `mutation_score_pooled`, with the mutants `cache` knows to be
/// equivalent judged without the solver (they survive every test), and the
/// ones proved equivalent now added to it.
pub fn mutation_score_cached(
    workers: &[SolverWorker],
    model: &CompiledModel,
    tests: &[LogicTest],
    mutants: Vec<Mutant>,
    generated: usize,
    progress: &(dyn Fn(MutationProgress) + Sync),
    cache: &EquivalenceCache,
) -> MutationReport {
    mutation_score_within(
        workers, model, tests, mutants, generated, progress, cache, None, None,
    )
}

/// As `mutation_score_cached`, taking no rule's mutants once `deadline`
/// has passed: those left are counted in the report (`over_budget`), and
/// its summary says so; the score is over the mutants evaluated. `ran`:
/// the outcomes of the counting tests, in order, when a run of the same
/// model already has them (else they are run here first).
#[allow(clippy::too_many_arguments)]
pub fn mutation_score_within(
    workers: &[SolverWorker],
    model: &CompiledModel,
    tests: &[LogicTest],
    mutants: Vec<Mutant>,
    generated: usize,
    progress: &(dyn Fn(MutationProgress) + Sync),
    cache: &EquivalenceCache,
    deadline: Option<Instant>,
    ran: Option<&[TestOutcome]>,
) -> MutationReport {
    let started = Instant::now();
    let counting: Vec<LogicTest> = tests
        .iter()
        .filter(|t| t.status.counts())
        .cloned()
        .collect();
    // A budget already spent leaves every mutant, without the baseline
    // run (on a dense model a full test run of its own).
    let spent = deadline.is_some_and(|d| Instant::now() >= d);
    let run_here;
    let outcomes: &[TestOutcome] = match (spent, ran) {
        (_, Some(ran)) if ran.len() == counting.len() => ran,
        (true, _) => &[],
        (false, _) => {
            run_here = run_tests(&workers[0], model, &counting);
            &run_here
        }
    };
    let baseline = passing_tests(model, &counting, outcomes);
    let graph = rule_graph(model);
    let total = mutants.len();
    let groups = by_rule(mutants);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<MutantResult>>> = Mutex::new(vec![None; total]);
    std::thread::scope(|scope| {
        for worker in workers {
            scope.spawn(|| {
                loop {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((first, group)) = groups.get(i) else {
                        break;
                    };
                    let judged = judge_rule(worker, model, &graph, &baseline, group, cache);
                    let count = group.len();
                    // Results and progress under one lock, so progress is
                    // reported in the order it grows.
                    let mut slots = slots.lock().expect("mutation results poisoned");
                    for (k, result) in judged.into_iter().enumerate() {
                        slots[first + k] = result;
                    }
                    let finished = done.fetch_add(count, Ordering::Relaxed) + count;
                    progress(MutationProgress {
                        done: finished,
                        total,
                        elapsed: started.elapsed(),
                    });
                    drop(slots);
                }
            });
        }
    });
    let judged = done.load(Ordering::Relaxed);
    let results = slots
        .into_inner()
        .expect("mutation results poisoned")
        .into_iter()
        .flatten()
        .collect();
    let mut report = MutationReport::new(
        generated,
        baseline.iter().map(|b| b.test.id.clone()).collect(),
        results,
    );
    if judged < total {
        report.cut_short(total - judged);
    }
    report
}

/// The mutants in runs of the same rule, each run with the position of its
/// first mutant.
fn by_rule(mutants: Vec<Mutant>) -> Vec<(usize, Vec<Mutant>)> {
    let mut groups: Vec<(usize, Vec<Mutant>)> = Vec::new();
    for (i, mutant) in mutants.into_iter().enumerate() {
        match groups.last_mut() {
            Some((_, group)) if group[0].rule == mutant.rule => group.push(mutant),
            _ => groups.push((i, vec![mutant])),
        }
    }
    groups
}

/// Judges the mutants of one rule on `worker`: those `cache` knows to be
/// equivalent without the solver, the others in the schema first and the
/// slow way for those it could not settle.
fn judge_rule(
    worker: &SolverWorker,
    model: &CompiledModel,
    graph: &RuleGraph,
    baseline: &[Baseline<'_>],
    group: &[Mutant],
    cache: &EquivalenceCache,
) -> Vec<Option<MutantResult>> {
    let rule = group[0].rule.clone();
    let cone: Vec<&Baseline<'_>> = baseline
        .iter()
        .filter(|b| {
            let variables: Vec<&str> = b.variables.iter().map(String::as_str).collect();
            in_cone(graph, &rule, &variables)
        })
        .collect();
    let context = rule_context(model, graph, &rule);
    let keys: Vec<String> = group
        .iter()
        .map(|m| mutant_key(&context, &m.formula.to_string()))
        .collect();
    let known: Vec<bool> = keys.iter().map(|key| cache.contains(key)).collect();
    let asked: Vec<Mutant> = group
        .iter()
        .zip(&known)
        .filter(|(_, known)| !**known)
        .map(|(m, _)| m.clone())
        .collect();
    let mut verdicts = if asked.is_empty() {
        Vec::new()
    } else {
        schema_verdicts(worker, model, &rule, &asked, &cone)
    }
    .into_iter();
    group
        .iter()
        .zip(known)
        .zip(keys)
        .map(|((mutant, known), key)| {
            let verdict = if known {
                // Equivalent: the mutated policy answers every question as
                // the original does, so it passes every test of the cone.
                Some(MutantVerdict {
                    inconsistent: false,
                    killed_by: None,
                    tests_run: cone.len(),
                    equivalent: true,
                })
            } else {
                verdicts.next().flatten()
            };
            let result = match verdict {
                Some(verdict) => Some(result_of(mutant.clone(), verdict, &cone, baseline)),
                None => judge_slowly(worker, model, graph, baseline, mutant.clone()),
            };
            if !known && result.as_ref().is_some_and(|r| r.equivalent) {
                cache.remember(key);
            }
            result
        })
        .collect()
}

/// The schema's verdicts, one per mutant (all None if the worker stopped).
fn schema_verdicts(
    worker: &SolverWorker,
    model: &CompiledModel,
    rule: &str,
    group: &[Mutant],
    cone: &[&Baseline<'_>],
) -> Vec<Option<MutantVerdict>> {
    let formulas: Vec<_> = group.iter().map(|m| m.formula.clone()).collect();
    let shown = |scenario: &Option<Scenario>, formula: &Expr| {
        scenario
            .as_ref()
            .is_some_and(|s| satisfies(s, formula, model))
    };
    let tests: Vec<SchemaTest> = cone
        .iter()
        .map(|b| SchemaTest {
            premise: b.premise.clone(),
            claim: b.claim.clone(),
            expected: b.test.expected,
            known: formulas
                .iter()
                .map(|f| [shown(&b.scenarios[0], f), shown(&b.scenarios[1], f)])
                .collect(),
        })
        .collect();
    let (reply, answer) = mpsc::channel();
    let rule = rule.to_string();
    let count = group.len();
    worker.submit_task(Box::new(move |session, interruption| {
        let verdicts = match session {
            Some(session) => session.judge_mutants(&rule, &formulas, &tests, interruption),
            None => vec![None; formulas.len()],
        };
        let _ = reply.send(verdicts);
    }));
    answer.recv().unwrap_or_else(|_| vec![None; count])
}

fn result_of(
    mutant: Mutant,
    verdict: MutantVerdict,
    cone: &[&Baseline<'_>],
    baseline: &[Baseline<'_>],
) -> MutantResult {
    let killed_by = if verdict.inconsistent {
        // Every finding becomes IMPOSSIBLE: the first passing test that
        // expects something else fails.
        baseline
            .iter()
            .find(|b| b.test.expected != FindingKind::Impossible)
            .map(|b| b.test.id.clone())
    } else {
        verdict.killed_by.map(|i| cone[i].test.id.clone())
    };
    MutantResult {
        mutant,
        status: if killed_by.is_some() {
            MutantStatus::Killed
        } else {
            MutantStatus::Survived
        },
        killed_by,
        makes_policy_inconsistent: verdict.inconsistent,
        tests_run: verdict.tests_run,
        equivalent: verdict.equivalent,
    }
}
