//! How a test run is cut into shares, the same whatever the number of
//! workers: the tests whose variables touch the same groups of rules (one
//! cone) form a share, in test order. A share runs on one worker, one test
//! after another, in one warm solver of its cone that its first test makes
//! afresh (`start_share`). So a test's finding depends on the model and on
//! the tests before it in its share, not on how many workers there are,
//! which worker ran the share, nor on the questions asked before.
//!
//! A full run does not cut a cone into smaller shares over several
//! workers: Z3 orders the arguments of a term by when the term was first
//! made in its context, so a share that reuses terms an earlier share of
//! its cone made in the same context can find other scenarios than one run
//! in a context of its own (seen on the benefit sample). A partial rerun,
//! whose scenarios already depend on what the worker asked before, may
//! (`split`).

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

/// Cuts each share into `parts` shares of consecutive tests, as equal as
/// can be (a share of fewer tests into as many as it has), then orders them
/// largest first as `shares` does. Each part starts its cone afresh, so a
/// part's findings are proved as usual, but a scenario's values may differ
/// from those the whole share on one worker would pick: for a partial
/// rerun, never for a run that must equal one worker's.
pub fn split(shares: Vec<Vec<usize>>, parts: usize) -> Vec<Vec<usize>> {
    let mut cut: Vec<Vec<usize>> = Vec::new();
    for share in shares {
        let parts = parts.clamp(1, share.len().max(1));
        let (size, extra) = (share.len() / parts, share.len() % parts);
        let mut rest = share.as_slice();
        for k in 0..parts {
            let (part, after) = rest.split_at(size + usize::from(k < extra));
            cut.push(part.to_vec());
            rest = after;
        }
    }
    cut.sort_by_key(|s| (std::cmp::Reverse(s.len()), s[0]));
    cut
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

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn a_share_is_cut_into_consecutive_parts_as_equal_as_can_be() {
        let shares = vec![(0..5).collect(), vec![5, 6], vec![7]];
        assert_eq!(
            split(shares.clone(), 2),
            vec![vec![0, 1, 2], vec![3, 4], vec![5], vec![6], vec![7]]
        );
        assert_eq!(split(shares.clone(), 1), shares);
        let parts = split(vec![(0..7).collect()], 3);
        assert_eq!(parts, vec![vec![0, 1, 2], vec![3, 4], vec![5, 6]]);
        assert_eq!(parts.concat(), (0..7).collect::<Vec<_>>());
    }
}
