//! One question verified on two workers at once: each decides one side
//! (`sides.rs`), so an idle second core halves the wait for a finding.
//! The finding is the one the whole verify gives on either worker.

use super::sides::{Side, SideAnswer, SideVerdict, join_sides, known_from_sides};
use super::worker::{SideReply, SolverWorker};
use crate::core::model::finding::Finding;
use crate::core::smt::Expr;
use std::sync::mpsc;

/// Verifies `premise` ⇒ `claim` with `first` deciding the claim-false side
/// and `second` the claim-true side, and waits for the finding. When the
/// sides leave it to the whole verify (IMPOSSIBLE, or rules that contradict
/// each other), `first` finishes it, taking what the sides proved as known.
pub fn verify_on_two(
    first: &SolverWorker,
    second: &SolverWorker,
    premise: Expr,
    claim: Expr,
) -> Finding {
    let (reply, answers) = mpsc::channel();
    first.submit_side(
        premise.clone(),
        claim.clone(),
        Side::ClaimFalse,
        reply.clone(),
    );
    second.submit_side(premise.clone(), claim.clone(), Side::ClaimTrue, reply);
    let mut claim_false = stopped(Side::ClaimFalse);
    let mut claim_true = stopped(Side::ClaimTrue);
    for SideReply { verdict, .. } in answers.iter().take(2) {
        match verdict.side {
            Side::ClaimFalse => claim_false = verdict,
            Side::ClaimTrue => claim_true = verdict,
        }
    }
    match join_sides(&premise, &claim, &claim_false, &claim_true) {
        Some(finding) => finding,
        None => first.verify_knowing(premise, claim, known_from_sides(&claim_false, &claim_true)),
    }
}

/// A side whose worker never answered.
fn stopped(side: Side) -> SideVerdict {
    SideVerdict {
        side,
        answer: SideAnswer::Undecided("the solver thread stopped".into()),
        warnings: Vec::new(),
    }
}
