//! The default reading of a claim (docs/definitions.md, "Defaults").
//!
//! Law is written as general rules with exceptions, and a reader assumes
//! no exception applies unless told. An exception of a definition is
//! *mentioned* by a premise P when P names one of its variables, in any
//! polarity. Let A be ¬E over every exception E not mentioned. The default
//! finding is the finding for P ∧ A; the strict finding (ARC's reading)
//! is the finding for P alone.
//!
//! Invariants:
//! - a VALID or INVALID default finding lists as `assumptions` only the ¬E
//!   it needs: with any one of them taken away the finding changes
//!   (deletion, so the set is minimal);
//! - IMPOSSIBLE is never caused by an assumption: when P ∧ A contradicts
//!   the rules but P does not, assumptions are dropped in file order until
//!   it does not, and the dropped ones are listed;
//! - a finding without assumptions is the one the strict reading gives.

use super::worker::SolverWorker;
use crate::model::finding::{Assumption, Finding, FindingKind};
use crate::model::graph::RuleGraph;
use crate::model::{CompiledException, CompiledModel};
use crate::smt::Expr;
use crate::smt::build::{and_of, not_of};

/// How a claim is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reading {
    /// Exceptions the premise does not mention are assumed absent.
    #[default]
    Default,
    /// Nothing is assumed (ARC's reading).
    Strict,
}

impl Reading {
    pub fn strict(strict: bool) -> Reading {
        if strict {
            Reading::Strict
        } else {
            Reading::Default
        }
    }
}

/// A model's exceptions with their assumptions in words, ready to read
/// claims by default.
#[derive(Debug, Clone, Default)]
pub struct Defaults {
    exceptions: Vec<(CompiledException, String)>,
    /// The rules' groups (rules linked through shared variables): an
    /// exception outside a question's groups cannot change its finding.
    graph: RuleGraph,
}

impl Defaults {
    pub fn of(compiled: &CompiledModel) -> Defaults {
        if compiled.exceptions.is_empty() {
            return Defaults::default();
        }
        let graph = RuleGraph::build(
            compiled.variables.iter().map(|(name, _)| name.as_str()),
            compiled.rules.iter().map(|r| (r.id.as_str(), &r.formula)),
        );
        Defaults::with_graph(compiled, graph)
    }

    /// `of`, with the rule graph of `compiled` already built (a front end
    /// that keeps one in step with the model).
    pub fn with_graph(compiled: &CompiledModel, graph: RuleGraph) -> Defaults {
        let exceptions: Vec<(CompiledException, String)> = compiled
            .exceptions
            .iter()
            .map(|e| (e.clone(), compiled.glossary.phrase(&not_of(&e.written))))
            .collect();
        if exceptions.is_empty() {
            return Defaults::default();
        }
        Defaults { exceptions, graph }
    }

    pub fn is_empty(&self) -> bool {
        self.exceptions.is_empty()
    }

    /// The exceptions `premise` does not mention, in file order, among
    /// those in the groups of rules the question reaches: the ones the
    /// default reading assumes absent (one outside those groups shares no
    /// variable with the question, through any rule, so it cannot change
    /// the finding).
    pub fn unmentioned(&self, premise: &Expr, claim: &Expr, reading: Reading) -> Vec<usize> {
        if reading == Reading::Strict || self.exceptions.is_empty() {
            return Vec::new();
        }
        let named = premise.symbols();
        let reached = self
            .graph
            .components_of(named.iter().chain(claim.symbols().iter()).copied());
        (0..self.exceptions.len())
            .filter(|&i| {
                let exception = &self.exceptions[i].0;
                !exception
                    .symbols
                    .iter()
                    .any(|s| named.contains(&s.as_str()))
                    && self
                        .graph
                        .components_of([exception.variable.as_str()])
                        .iter()
                        .any(|g| reached.contains(g))
            })
            .collect()
    }

    /// The premise with the exceptions `assumed` (indices) assumed absent.
    pub fn assumed_premise(&self, premise: &Expr, assumed: &[usize]) -> Expr {
        and_of(
            std::iter::once(premise.clone()).chain(
                assumed
                    .iter()
                    .map(|&i| not_of(&self.exceptions[i].0.formula)),
            ),
        )
    }

    /// The premise with a finding's `assumptions` added, as the facts an
    /// explanation of that finding starts from.
    pub fn premise_with(&self, premise: &Expr, assumptions: &[Assumption]) -> Expr {
        let used: Vec<usize> = (0..self.exceptions.len())
            .filter(|&i| {
                assumptions
                    .iter()
                    .any(|a| a.exception == self.exceptions[i].0.rule)
            })
            .collect();
        self.assumed_premise(premise, &used)
    }

    fn assumption(&self, index: usize) -> Assumption {
        let (exception, english) = &self.exceptions[index];
        Assumption {
            variable: exception.variable.clone(),
            exception: exception.rule.clone(),
            condition: exception.written.to_string(),
            english: english.clone(),
        }
    }

    /// Checks `premise` ⇒ `claim` on `worker` in `reading`, blocking.
    pub fn verify(
        &self,
        worker: &SolverWorker,
        premise: &Expr,
        claim: &Expr,
        reading: Reading,
    ) -> Finding {
        let assumed = self.unmentioned(premise, claim, reading);
        if assumed.is_empty() {
            return worker.verify(premise.clone(), claim.clone());
        }
        let first = worker.verify(self.assumed_premise(premise, &assumed), claim.clone());
        self.settle(worker, premise, claim, assumed, first)
    }

    /// Given `first`, the finding for the premise with every exception of
    /// `assumed` assumed absent (however it was computed), keeps only the
    /// assumptions the finding needs, drops those that would make it
    /// IMPOSSIBLE, and states the finding over the premise as written.
    pub fn settle(
        &self,
        worker: &SolverWorker,
        premise: &Expr,
        claim: &Expr,
        mut assumed: Vec<usize>,
        first: Finding,
    ) -> Finding {
        let ask = |set: &[usize]| worker.verify(self.assumed_premise(premise, set), claim.clone());
        let mut finding = first;
        let mut dropped = Vec::new();
        if finding.kind == FindingKind::Impossible {
            let strict = ask(&[]);
            if matches!(
                strict.kind,
                FindingKind::Impossible | FindingKind::TooComplex
            ) {
                return strict;
            }
            while finding.kind == FindingKind::Impossible && !assumed.is_empty() {
                dropped.push(assumed.remove(0));
                finding = ask(&assumed);
            }
        }
        if matches!(finding.kind, FindingKind::Valid | FindingKind::Invalid) {
            let strict = ask(&[]);
            if strict.kind == finding.kind {
                finding = strict;
                assumed.clear();
            } else {
                let mut at = 0;
                while at < assumed.len() {
                    let mut fewer = assumed.clone();
                    fewer.remove(at);
                    let trial = ask(&fewer);
                    if trial.kind == finding.kind {
                        assumed = fewer;
                        finding = trial;
                    } else {
                        at += 1;
                    }
                }
            }
        } else {
            // SATISFIABLE is the same in both readings, and TOO_COMPLEX
            // proves nothing: neither needs an assumption.
            assumed.clear();
        }
        finding.premise = premise.to_string();
        finding.assumptions = assumed.iter().map(|&i| self.assumption(i)).collect();
        finding.assumptions_dropped = dropped.iter().map(|&i| self.assumption(i)).collect();
        finding
    }
}
