//! The solver-backed lint run: the linter's state, the groups of rules
//! checked together, and the helpers every check uses.

use super::budget::{GROUP_CHECKS, Unchecked};
use super::parts::GroupPart;
use crate::model::CompiledModel;
use crate::model::diagnostic::{Diagnostic, LintCode, Severity};
use crate::smt::Expr;
use crate::solve::session::{Interruption, SolverSession};
use std::collections::HashSet;
use z3::SatResult;
use z3::ast::Bool;

/// What the lint run reports as it goes.
#[derive(Debug, Clone, PartialEq)]
pub enum LintEvent {
    Progress {
        done: usize,
        total: usize,
        stage: &'static str,
    },
    Found(Box<Diagnostic>),
    Finished {
        checks: usize,
        undecided: usize,
        /// What the run's budget left unchecked (empty: everything ran).
        unchecked: Vec<Unchecked>,
    },
}

/// The most solver checks spent searching for impossible situations in one
/// lint run (the search is a heuristic: extremes and pairs of input facts),
/// so that a large model's lint stays fast. Each group of rules gets a share
/// in proportion to its size (`share.rs`), so what a group finds does not
/// depend on the order the groups are checked in.
pub(super) const SITUATION_CHECK_BUDGET: usize = 1_500;

/// The most disjoint conflicts reported for an inconsistent policy.
pub(super) const MAX_CONFLICTS: usize = 10;

use crate::model::orientation::{Orientation, orient_group, split_oriented};

/// How the lint's solvers are set: every check has the watchdog's check
/// budget (no timer of Z3's own), and Z3 assigns every atom rather than
/// tracking which are relevant. A lint solver holds its rules under guards
/// and asks thousands of short questions, each switching on most of them;
/// tracking relevancy there cost more than it saved (the dense bench
/// model's 367-rule group: 31 s with it, 21 s without, every question asked
/// of the whole group). The one exception is `near.rs`'s wide solver.
pub(super) fn lint_solver_params(solver: &z3::Solver) {
    crate::solve::check_gate::watchdog_only(solver);
    let mut params = z3::Params::new();
    params.set_u32("relevancy", 0);
    solver.set_params(&params);
}

/// Whether `formula` is true in `model`, by Z3's own evaluation (values
/// the model leaves open completed).
pub(super) fn true_in(model: &z3::Model, formula: &Bool) -> bool {
    model.eval(formula, true).and_then(|b| b.as_bool()) == Some(true)
}

pub(super) struct Linter<'a> {
    pub(super) session: &'a mut SolverSession,
    pub(super) model: &'a CompiledModel,
    pub(super) interruption: &'a dyn Interruption,
    pub(super) report: &'a mut dyn FnMut(LintEvent),
    pub(super) checks: usize,
    pub(super) undecided: usize,
    /// (general rule, rule with the exception) pairs found by L209: the
    /// redundancy check leaves the second alone.
    pub(super) shadowed: HashSet<(usize, usize)>,
    /// Solver checks left for the impossible-situation search (L210) in
    /// the group being checked.
    pub(super) situation_budget: usize,
    /// The group's search stopped at its budget (the run says so once).
    pub(super) situation_budget_ran_out: bool,
    /// Which way each implication of the group points (`orientation.rs`).
    pub(super) orientations: std::collections::HashMap<usize, Orientation>,
    /// The group's rules that read the same both ways: constraints.
    pub(super) symmetric: HashSet<usize>,
    /// When the run's budget ends, if it has one.
    pub(super) deadline: Option<std::time::Instant>,
    /// A check stopped because the budget ran out.
    budget_hit: std::cell::Cell<bool>,
    /// The checks the budget left undone, with their rules.
    pub(super) unchecked: Vec<Unchecked>,
    /// A scenario of the whole group being checked, for near checks
    /// (`near.rs`); None on a small group.
    pub(super) base: Option<z3::Model>,
    /// An empty solver that small checks push their rules onto and pop.
    pub(super) small: Option<z3::Solver>,
    /// The group's rules under their guards with Z3's usual settings, for
    /// the questions near checks leave (`near.rs`); None on a small group.
    pub(super) wide: Option<z3::Solver>,
    /// Whether a large group's questions are tried near them first.
    pub(super) near: bool,
    /// Findings are dropped: the checks run for what another part reports.
    quiet: bool,
    /// The group being checked, when its rules are all linked by shared
    /// variables, with those variables: what `rules_touching` gives for
    /// any of them, found once.
    connected: Option<(HashSet<String>, Vec<usize>)>,
    /// The last complete run's answers and this run's (`answer_memo.rs`).
    pub(super) book: Option<&'a super::answer_memo::AnswerBook>,
    /// What recalling them needs about the group (`recall.rs`); None
    /// on a group without a base model.
    pub(super) recall: Option<super::answer_memo::Recall>,
    /// The values of the scenario that showed the last fresh answer's
    /// formula holds, while recalling.
    pub(super) shown: Option<Vec<std::sync::Arc<super::answer_memo::Values>>>,
    /// A scenario of the group (the base model, or on a small group one
    /// asked of its rules) as exact values, and what mending them reads,
    /// once a check has asked (`scenario_repair.rs`).
    pub(super) mending: Option<(
        std::collections::HashMap<String, crate::model::evaluate::Known>,
        super::scenario_repair::Rules<'a>,
    )>,
}

impl<'a> Linter<'a> {
    pub(super) fn new(
        session: &'a mut SolverSession,
        model: &'a CompiledModel,
        interruption: &'a dyn Interruption,
        report: &'a mut dyn FnMut(LintEvent),
    ) -> Linter<'a> {
        Linter {
            session,
            model,
            interruption,
            report,
            checks: 0,
            undecided: 0,
            shadowed: HashSet::new(),
            situation_budget: SITUATION_CHECK_BUDGET,
            situation_budget_ran_out: false,
            orientations: std::collections::HashMap::new(),
            symmetric: HashSet::new(),
            deadline: None,
            budget_hit: std::cell::Cell::new(false),
            unchecked: Vec::new(),
            base: None,
            small: None,
            wide: None,
            near: true,
            quiet: false,
            connected: None,
            book: None,
            recall: None,
            shown: None,
            mending: None,
        }
    }
}

impl Linter<'_> {
    pub(super) fn found(&mut self, diagnostic: Diagnostic) {
        if self.quiet {
            return;
        }
        (self.report)(LintEvent::Found(Box::new(diagnostic)));
    }

    pub(super) fn progress(&mut self, done: usize, total: usize, stage: &'static str) {
        (self.report)(LintEvent::Progress { done, total, stage });
    }

    pub(super) fn stopped(&self) -> bool {
        if self
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
        {
            self.budget_hit.set(true);
            return true;
        }
        self.interruption.reason().is_some()
    }

    /// A check within the per-check deadline.
    pub(super) fn check(&mut self, assumptions: &[Bool]) -> SatResult {
        self.checks += 1;
        let timeout = self.session.timeout();
        self.session
            .check_within(assumptions, timeout, self.interruption)
    }

    pub(super) fn undecided(&mut self, what: String, rules: Vec<String>) {
        if self.quiet {
            return;
        }
        self.undecided += 1;
        self.found(
            Diagnostic::new(
                LintCode::NotDecided,
                Severity::Info,
                format!(
                    "Not decided within the deadline: {what}. Treat it as unchecked, not as passed."
                ),
            )
            .rules(rules),
        );
    }

    pub(super) fn id(&self, rule: usize) -> String {
        self.model.rules[rule].id.clone()
    }

    /// A fresh literal that switches `formula` on when assumed.
    pub(super) fn guard(&self, formula: &Bool) -> Bool {
        let literal = Bool::fresh_const("lint");
        self.session.solver.assert(literal.implies(formula));
        literal
    }

    pub(super) fn encode(&self, expr: &Expr) -> Option<Bool> {
        self.session.vocabulary.formula(expr).ok()
    }

    /// The checks of the whole model before the groups: the disjoint
    /// groups note (L208) and consistency (L201). False when the rules
    /// contradict each other (or that is not decided): then no group is
    /// checked.
    pub(super) fn prologue(&mut self, groups: &[Vec<usize>]) -> bool {
        self.report_groups(groups);
        self.consistency()
    }

    /// L201 alone: whether the model's rules are consistent (false when
    /// they contradict each other, or that is not decided).
    pub(super) fn consistency(&mut self) -> bool {
        self.session.solver.push();
        let all: Vec<usize> = (0..self.model.rules.len()).collect();
        let consistent = self.inconsistency(&all);
        self.session.solver.pop(1);
        consistent
    }

    /// The checks of `part` of one group, in a solver holding only its
    /// rules: no check can involve another group, and small solvers are
    /// fast. `situation_budget` bounds its impossible-situation search.
    pub(super) fn lint_group(&mut self, group: &[usize], situation_budget: usize, part: GroupPart) {
        self.situation_budget = situation_budget;
        self.situation_budget_ran_out = false;
        let scratch = self.session.scratch_solver(group);
        lint_solver_params(&scratch);
        let whole_model = std::mem::replace(&mut self.session.solver, scratch);
        self.connected = self.connected_group(group);
        self.orient(group);
        self.find_base_model(group);
        let rules: Vec<usize> = group[part.share(group.len())].to_vec();
        let unchecked = part.unchecked(group.len());
        // Most useful first, so a budget that runs out leaves the least
        // useful undone; the shadowed exceptions come before the redundant
        // rules, which leave them alone.
        for (k, &check) in GROUP_CHECKS.iter().enumerate() {
            if !part.runs(k) {
                if k == 3 && part.runs(4) {
                    // Another part reports them; this one needs them.
                    self.quiet = true;
                    self.shadowed = self.shadowed_exceptions(group);
                    self.quiet = false;
                }
                continue;
            }
            let left = || unchecked.iter().find(|u| u.check == check).cloned();
            if self.stopped() && self.budget_hit.get() {
                self.unchecked.extend(left());
                continue;
            }
            match k {
                0 => self.overlaps(group),
                1 => self.impossible_situations(group),
                2 => self.gaps(group),
                3 => self.shadowed = self.shadowed_exceptions(group),
                4 => self.per_rule_checks(group, &rules),
                _ => self.forced_and_unreachable(group, part),
            }
            if self.budget_hit.get() {
                self.unchecked.extend(left());
            }
        }
        self.base = None;
        self.wide = None;
        self.mending = None;
        self.recall = None;
        self.connected = None;
        self.session.solver = whole_model;
    }

    /// `group` with its variables, when all its rules are linked by them.
    fn connected_group(&mut self, group: &[usize]) -> Option<(HashSet<String>, Vec<usize>)> {
        let first = self.session.rules.get(*group.first()?)?.variables.clone();
        let names: Vec<&str> = first.iter().map(String::as_str).collect();
        let linked = self.session.rules_touching(&names);
        let mut sorted = group.to_vec();
        sorted.sort_unstable();
        if names.is_empty() || linked != sorted {
            return None;
        }
        let variables = group
            .iter()
            .flat_map(|&r| self.session.rules[r].variables.iter().cloned())
            .collect();
        Some((variables, linked))
    }

    /// The rules whose group mentions any of `variables` (the session's
    /// answer; the group being checked, when it is linked, without a walk
    /// of the rule graph per question).
    pub(super) fn rules_touching(&mut self, variables: &[&str]) -> Vec<usize> {
        if let Some((names, rules)) = &self.connected
            && variables.iter().any(|v| names.contains(*v))
        {
            return rules.clone();
        }
        self.session.rules_touching(variables)
    }

    /// The rules in the same group as `rule` (itself included): the
    /// session's answer, or the linked group being checked.
    pub(super) fn group_of(&mut self, rule: usize) -> Vec<usize> {
        if let Some((_, rules)) = &self.connected
            && !self.session.rules[rule].variables.is_empty()
            && rules.binary_search(&rule).is_ok()
        {
            return rules.clone();
        }
        self.session.group_of(rule)
    }

    /// Reads each implication of `group` the way it points.
    fn orient(&mut self, group: &[usize]) {
        let formulas: Vec<&Expr> = group
            .iter()
            .map(|&r| &self.model.rules[r].formula)
            .collect();
        let is_variable = |s: &str| self.session.vocabulary.is_variable(s);
        let orientations = orient_group(&formulas, &is_variable);
        // A rule that reads the same both ways is a constraint: no
        // condition, no conclusion.
        self.symmetric = group
            .iter()
            .zip(&orientations)
            .filter(|(_, o)| o.is_some_and(|o| o.symmetric))
            .map(|(&r, _)| r)
            .collect();
        self.orientations = group
            .iter()
            .zip(orientations)
            .filter_map(|(&r, o)| o.filter(|o| !o.symmetric).map(|o| (r, o.orientation)))
            .collect();
    }

    /// Rule `rule`'s condition and conclusion, the way it points; None
    /// when it is no implication.
    pub(super) fn split(&self, rule: usize) -> Option<(Expr, Expr)> {
        let orientation = self.orientations.get(&rule)?;
        split_oriented(&self.model.rules[rule].formula, *orientation)
    }

    /// The same, of the rule as written (with its own spans and no
    /// elaboration), for messages and fixes.
    pub(super) fn split_written(&self, rule: usize) -> Option<(Expr, Expr)> {
        let orientation = self.orientations.get(&rule)?;
        split_oriented(&self.model.rules[rule].written, *orientation)
    }

    /// L208: islands of rules that share no variables.
    fn report_groups(&mut self, members: &[Vec<usize>]) {
        if let Some(note) = groups_note(self.model, members) {
            self.found(note);
        }
    }
}

/// L208, the note that `model`'s rules form islands (`members`, each the
/// positions of its rules) that share no variables; None for one island.
pub(super) fn groups_note(model: &CompiledModel, members: &[Vec<usize>]) -> Option<Diagnostic> {
    if members.len() < 2 {
        return None;
    }
    let first = |g: &[usize]| {
        g.first()
            .map(|&r| model.rules[r].id.clone())
            .unwrap_or_default()
    };
    let sizes: Vec<String> = members
        .iter()
        .map(|g| format!("{} ({} rules)", first(g), g.len()))
        .collect();
    let message = format!(
        "The rules form {} groups that share no variables: {}. A question about one group can never involve another; check that this separation is intended and that no variable was duplicated under two names.",
        members.len(),
        sizes.join(", ")
    );
    let firsts: Vec<String> = members
        .iter()
        .filter(|g| !g.is_empty())
        .map(|g| first(g))
        .collect();
    Some(Diagnostic::new(LintCode::DisjointGroups, Severity::Info, message).rules(firsts))
}
