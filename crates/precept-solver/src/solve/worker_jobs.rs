//! What passes between a solver worker's handle (`worker.rs`) and its
//! thread (`worker_thread.rs`): the jobs, and the replies they answer with.

use super::error::SolveError;
use super::formulas::{FormulaQuery, Satisfiability};
use super::lint_checks::LintShare;
use super::session::{Interruption, SolverSession};
use super::sides::{Side, SideVerdict};
use super::watchdog::{Deadline, Ticket};
use crate::model::CompiledModel;
use crate::model::finding::{Finding, KnownSides};
use crate::smt::{Expr, Sort};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::time::Duration;

/// The answer to one verify request.
#[derive(Debug, Clone)]
pub struct SolverReply {
    pub ticket: Ticket,
    pub finding: Finding,
    pub elapsed: Duration,
    /// A question queued on several workers (`submit_shared`) that another
    /// worker took first: this reply carries no finding of its own.
    pub answered_elsewhere: bool,
}

/// The answer to one side of a question (`submit_side`).
#[derive(Debug, Clone)]
pub struct SideReply {
    pub ticket: Ticket,
    pub verdict: SideVerdict,
    pub elapsed: Duration,
}

/// The answer to one formula-checking request: a result per query, in order.
#[derive(Debug, Clone)]
pub struct FormulaReply {
    pub ticket: Ticket,
    pub results: Vec<Satisfiability>,
    pub elapsed: Duration,
}

/// A job of many checks run on the loaded session (None when no model is
/// loaded) under one request deadline, stopped by `cancel` like the others;
/// `explain/` runs on the worker this way.
pub type SessionTask = Box<dyn FnOnce(Option<&mut SolverSession>, &dyn Interruption) + Send>;

pub(super) enum Job {
    Load {
        model: Box<CompiledModel>,
        done: Sender<Result<(), SolveError>>,
    },
    ReplaceRule {
        id: String,
        formula: Option<Expr>,
    },
    DeclareVariable {
        name: String,
        sort: Sort,
    },
    SetTimeout(Duration),
    Lint {
        ticket: Ticket,
        share: Arc<LintShare>,
        role: usize,
    },
    Verify {
        ticket: Ticket,
        premise: Expr,
        claim: Expr,
        known: Box<KnownSides>,
        /// Set by the first worker that comes to a question queued on
        /// several (`submit_shared`).
        taken: Option<Arc<AtomicBool>>,
        /// Where its deadline counts from.
        deadline: Deadline,
        reply: Sender<SolverReply>,
    },
    Side {
        ticket: Ticket,
        premise: Expr,
        claim: Expr,
        side: Side,
        deadline: Deadline,
        reply: Sender<SideReply>,
    },
    Formulas {
        ticket: Ticket,
        queries: Vec<FormulaQuery>,
        reply: Sender<FormulaReply>,
    },
    Task {
        ticket: Ticket,
        task: SessionTask,
    },
}
