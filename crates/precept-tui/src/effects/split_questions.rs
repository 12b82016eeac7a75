//! The verify panel's questions split over two solver workers: the main
//! worker decides the claim-false side and the second the claim-true side
//! (`core::solve::sides`), so an expert's question takes both cores. The
//! two answers are joined into the finding the whole verify gives; the few
//! they leave to it (IMPOSSIBLE, rules that contradict each other) go back
//! to the main worker as a whole question, told what the sides proved and
//! given what is left of the question's timeout: the sides ran side by side,
//! so the slower one's solver time is spent (time waiting behind the
//! expert's own runs is not).

use crate::effects::solvers::Solvers;
use precept_engine::model::finding::{Finding, KnownSides};
use precept_engine::smt::Expr;
use precept_engine::solve::{
    Deadline, Side, SideReply, SideVerdict, Ticket, join_sides, known_from_sides,
};
use std::collections::HashMap;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

/// A question whose sides are being decided.
struct Open {
    premise: Expr,
    claim: Expr,
    claim_false: Option<SideVerdict>,
    claim_true: Option<SideVerdict>,
    /// The solver time of the slower side answered so far.
    spent: Duration,
}

/// What a question's two sides came to.
pub enum Joined {
    /// The finding, for the panel's question `ticket`.
    Finding { ticket: u64, finding: Box<Finding> },
    /// The whole verify must finish it, knowing what the sides proved.
    Whole {
        ticket: u64,
        premise: Expr,
        claim: Expr,
        known: Box<KnownSides>,
        /// Its deadline: what the sides left of the timeout.
        deadline: Deadline,
    },
}

pub struct SplitQuestions {
    reply: Sender<SideReply>,
    replies: Receiver<SideReply>,
    /// Each side's solver ticket, to its question's panel ticket.
    sides: HashMap<Ticket, u64>,
    open: HashMap<u64, Open>,
}

impl Default for SplitQuestions {
    fn default() -> Self {
        let (reply, replies) = mpsc::channel();
        SplitQuestions {
            reply,
            replies,
            sides: HashMap::new(),
            open: HashMap::new(),
        }
    }
}

impl SplitQuestions {
    /// Asks the panel's question `ticket` one side on each of two workers;
    /// false (nothing asked) when there is only one.
    pub fn ask(&mut self, solvers: &Solvers, ticket: u64, premise: Expr, claim: Expr) -> bool {
        let Some(second) = solvers.second() else {
            return false;
        };
        let question = (premise.clone(), claim.clone());
        let asked = [
            solvers.main().submit_side(
                question.clone(),
                Side::ClaimFalse,
                Deadline::Fresh,
                self.reply.clone(),
            ),
            second.submit_side(
                question,
                Side::ClaimTrue,
                Deadline::Fresh,
                self.reply.clone(),
            ),
        ];
        for side in asked {
            self.sides.insert(side, ticket);
        }
        self.open.insert(
            ticket,
            Open {
                premise,
                claim,
                claim_false: None,
                claim_true: None,
                spent: Duration::ZERO,
            },
        );
        true
    }

    /// Whether a question still waits for a side.
    pub fn is_waiting(&self) -> bool {
        !self.open.is_empty()
    }

    /// The questions whose two sides have both arrived.
    pub fn poll(&mut self) -> Vec<Joined> {
        let mut joined = Vec::new();
        while let Ok(SideReply {
            ticket,
            verdict,
            elapsed,
        }) = self.replies.try_recv()
        {
            let Some(question) = self.sides.remove(&ticket) else {
                continue;
            };
            let Some(open) = self.open.get_mut(&question) else {
                continue;
            };
            open.spent = open.spent.max(elapsed);
            match verdict.side {
                Side::ClaimFalse => open.claim_false = Some(verdict),
                Side::ClaimTrue => open.claim_true = Some(verdict),
            }
            if open.claim_false.is_none() || open.claim_true.is_none() {
                continue;
            }
            let Some(Open {
                premise,
                claim,
                claim_false: Some(claim_false),
                claim_true: Some(claim_true),
                spent,
            }) = self.open.remove(&question)
            else {
                continue;
            };
            joined.push(
                match join_sides(&premise, &claim, &claim_false, &claim_true) {
                    Some(finding) => Joined::Finding {
                        ticket: question,
                        finding: Box::new(finding),
                    },
                    None => Joined::Whole {
                        ticket: question,
                        premise,
                        claim,
                        known: Box::new(known_from_sides(&claim_false, &claim_true)),
                        deadline: Deadline::AfterSpending(spent),
                    },
                },
            );
        }
        joined
    }
}
