//! How a test run is cut into shares, the same whatever the number of
//! workers: the tests whose variables touch the same groups of rules (one
//! cone) form a share, in test order. A share runs on one worker, one test
//! after another, in one warm solver of its cone that its first test makes
//! afresh (`start_share`). So a test's finding depends on the model and on
//! the tests before it in its share, not on how many workers there are,
//! which worker ran the share, nor on the questions asked before.
//!
//! A cone is not cut into smaller shares over several workers: Z3 orders
//! the arguments of a term by when the term was first made in its context,
//! so a share that reuses terms an earlier share of its cone made in the
//! same context can find other scenarios than one run in a context of its
//! own (seen on the benefit sample).

use crate::core::model::CompiledModel;
use crate::core::model::graph::RuleGraph;
use crate::core::smt::Expr;
use crate::core::solve::SolverWorker;
use std::collections::BTreeMap;

/// The rule↔variable graph of a compiled model, to find tests' cones.
pub fn model_graph(model: &CompiledModel) -> RuleGraph {
    RuleGraph::build(
        model.variables.iter().map(|(name, _)| name.as_str()),
        model.rules.iter().map(|r| (r.id.as_str(), &r.formula)),
    )
}

/// The shares of a run over `questions` (a test's premise and claim, None
/// for one that cannot run, left out): each share the positions of its
/// tests in order; the shares largest first, ties by their first test.
pub fn shares(graph: &RuleGraph, questions: &[Option<(&Expr, &Expr)>]) -> Vec<Vec<usize>> {
    let mut by_cone: BTreeMap<Vec<usize>, Vec<usize>> = BTreeMap::new();
    for (i, question) in questions.iter().enumerate() {
        let Some((premise, claim)) = question else {
            continue;
        };
        let mut symbols = premise.symbols();
        symbols.extend(claim.symbols());
        by_cone
            .entry(graph.rules_touching(symbols))
            .or_default()
            .push(i);
    }
    let mut shares: Vec<Vec<usize>> = by_cone.into_values().collect();
    shares.sort_by_key(|s| (std::cmp::Reverse(s.len()), s[0]));
    shares
}

/// Queues, on `worker`, the start of a share: its next question decides
/// its cone in a solver made afresh. Queue the share's tests right after.
pub fn start_share(worker: &SolverWorker) {
    worker.submit_task(Box::new(|session, _| {
        if let Some(session) = session {
            session.start_fresh_cone();
        }
    }));
}
