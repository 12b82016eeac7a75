//! How a test run is shared out over the workers (`test_runner/shares.rs`
//! makes the shares): the tests of one cone a few at a time, one after
//! another on one worker in its warm solver of that cone, so the findings do
//! not depend on the number of workers. The loaded model's rules are kept
//! up to date with the edits here, and its graph relinked in place when an
//! edit allows it.

use crate::model::CompiledModel;
use crate::model::finding::KnownSides;
use crate::model::graph::RuleGraph;
use crate::smt::Expr;
use crate::solve::SolverWorker;
use crate::test_runner::shares::{shares, start_share, walks};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The loaded model's declared variables and rules, and its graph once a
/// test run needed it.
#[derive(Default)]
pub(super) struct Cones {
    variables: Vec<String>,
    rules: Vec<(String, Expr)>,
    graph: Option<RuleGraph>,
}

impl Cones {
    pub(super) fn load(&mut self, model: &CompiledModel) {
        self.variables = model.variables.iter().map(|(n, _)| n.clone()).collect();
        self.rules = model
            .rules
            .iter()
            .map(|r| (r.id.clone(), r.formula.clone()))
            .collect();
        self.graph = None;
    }

    pub(super) fn replace_rule(&mut self, id: &str, formula: Option<Expr>) {
        let at = self.rules.iter().position(|(rule, _)| rule == id);
        match (at, &formula) {
            (Some(i), Some(formula)) => {
                self.rules[i].1 = formula.clone();
                // Changed in place: relinked, not built again.
                if let Some(graph) = &mut self.graph
                    && graph.replace_rule(id, formula)
                {
                    return;
                }
            }
            (Some(i), None) => {
                self.rules.remove(i);
            }
            (None, Some(formula)) => self.rules.push((id.to_string(), formula.clone())),
            (None, None) => {}
        }
        self.graph = None;
    }

    /// Queues every question with `submit(worker, premise, claim, known,
    /// tag, taken)`, share by share: each share's questions in their order
    /// on one worker, each share (largest first) on the worker with the
    /// fewest so far. With `shared_out`, every question goes to every
    /// worker with one `taken` flag, each worker walking them from its own
    /// starting point (`shares::walks`), so every core works to the end of
    /// the run and whichever is quicker takes more.
    pub(super) fn share_tests<T: Clone>(
        &mut self,
        workers: &[SolverWorker],
        questions: Vec<(Expr, Expr, KnownSides, T)>,
        shared_out: bool,
        mut submit: impl FnMut(&SolverWorker, Expr, Expr, KnownSides, T, Option<Arc<AtomicBool>>),
    ) {
        let graph = self.graph.get_or_insert_with(|| {
            RuleGraph::build(
                self.variables.iter().map(String::as_str),
                self.rules.iter().map(|(id, f)| (id.as_str(), f)),
            )
        });
        let asked: Vec<_> = questions.iter().map(|(p, c, _, _)| Some((p, c))).collect();
        let plan = shares(graph, &asked);
        if shared_out && workers.len() > 1 {
            let taken: Vec<Arc<AtomicBool>> = questions.iter().map(|_| Arc::default()).collect();
            for (worker, walk) in workers.iter().zip(walks(&plan, workers.len())) {
                let mut share_started = None;
                for (share, i) in walk {
                    if share_started != Some(share) {
                        start_share(worker);
                        share_started = Some(share);
                    }
                    let (premise, claim, known, tag) = questions[i].clone();
                    submit(
                        worker,
                        premise,
                        claim,
                        known,
                        tag,
                        Some(Arc::clone(&taken[i])),
                    );
                }
            }
            return;
        }
        let mut questions: Vec<Option<_>> = questions.into_iter().map(Some).collect();
        let mut load = vec![0usize; workers.len()];
        for share in plan {
            let k = (0..load.len()).min_by_key(|&k| (load[k], k)).unwrap_or(0);
            load[k] += share.len();
            start_share(&workers[k]);
            for i in share {
                if let Some((premise, claim, known, tag)) = questions[i].take() {
                    submit(&workers[k], premise, claim, known, tag, None);
                }
            }
        }
    }
}
