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
//! whose scenarios already depend on what the worker asked before, may:
//! there every worker walks every test, each from its own starting point
//! (`walks`), and whichever comes to a test first answers it.

use crate::model::CompiledModel;
use crate::model::graph::RuleGraph;
use crate::smt::Expr;
use crate::solve::SolverWorker;
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

/// For a partial rerun on `workers` workers, each sharing every test
/// with the others (whichever comes to a test first answers it): the order
/// in which each worker comes to the tests, as (share, position) pairs.
/// The shares' tests are laid end to end, largest share first; worker `k`
/// starts `k / workers` of the way along and goes round, so the workers
/// start apart and, once one runs out of its own stretch, it takes on the
/// tests the others have not come to yet. A worker starts each share it
/// comes to afresh, so a finding is proved as usual, but a scenario's
/// values may differ from those one worker running the whole share would
/// pick: for a partial rerun, never for a run that must equal one
/// worker's.
pub fn walks(shares: &[Vec<usize>], workers: usize) -> Vec<Vec<(usize, usize)>> {
    let line: Vec<(usize, usize)> = shares
        .iter()
        .enumerate()
        .flat_map(|(s, share)| share.iter().map(move |&i| (s, i)))
        .collect();
    let workers = workers.max(1);
    (0..workers)
        .map(|k| {
            let start = k * line.len() / workers;
            line[start..]
                .iter()
                .chain(&line[..start])
                .copied()
                .collect()
        })
        .collect()
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
    use super::walks;

    #[test]
    fn each_worker_walks_every_test_starting_its_own_stretch() {
        let shares = vec![(0..5).collect(), vec![5, 6], vec![7]];
        let walks = walks(&shares, 2);
        assert_eq!(walks.len(), 2);
        let line = [
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (1, 5),
            (1, 6),
            (2, 7),
        ];
        assert_eq!(walks[0], line);
        // The second starts halfway and goes round.
        assert_eq!(&walks[1][..4], &line[4..]);
        assert_eq!(&walks[1][4..], &line[..4]);
        assert_eq!(super::walks(&shares, 1), vec![line.to_vec()]);
        assert_eq!(super::walks(&[], 2), vec![vec![], vec![]]);
    }
}
