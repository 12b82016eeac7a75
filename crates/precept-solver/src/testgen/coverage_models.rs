//! Many questions "is M ∧ P ∧ X satisfiable?" about one premise P, answered
//! mostly without the solver.
//!
//! Every model of `M ∧ P` found so far is kept as an exact assignment. A
//! formula X that is true in one of them by exact evaluation
//! (`model/evaluate.rs`) is satisfiable with `M ∧ P`: the model is first
//! checked, also by exact evaluation, to satisfy every rule of the query's
//! cone and P, and the rules outside the cone share no variable with the
//! cone, P or X and are consistent on their own (the query's cone is every
//! rule when the policy is not known to be consistent), so the model
//! extends to one of the whole policy. A question false under the values
//! P's conjuncts fix (`b`, `(not b)`, `(= v constant)`) is unsatisfiable
//! with P, since every model of P has those values. Only the questions
//! neither settles go to the solver, all at once in the query's warm cone solver
//! with P asserted, each X under a guard of its own:
//!
//! - satisfiable: every X assumed holds in the model, which joins the pool;
//! - unsatisfiable with exactly one X in the core: that X contradicts
//!   `M ∧ P` (the core alone is unsatisfiable); with none, `M ∧ P` itself is
//!   unsatisfiable and so is every question; with several, one of them is set
//!   aside and the rest asked again (each round answers or sets aside one, so
//!   it ends);
//! - unknown: the questions are asked one at a time, and one the solver
//!   cannot settle alone stays undecided (None), as does everything once
//!   the request has stopped.

use crate::model::evaluate::{Known, evaluate, holds};
use crate::model::finding::Scenario;
use crate::smt::{Expr, ExprKind, Op};
use crate::solve::{Fact, Outcome, SessionQuery};
use std::collections::{HashMap, HashSet};

/// One question about the premise: X is a formula of the shared list, alone
/// or with the claim Q (`true`) or its negation (`false`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Question {
    Formula(usize),
    WithClaim(usize, bool),
}

/// An exact assignment of the cone's variables satisfying its rules and P.
struct Assignment {
    values: HashMap<String, Known>,
    /// Whether the claim holds in it (None: cannot be told).
    claim: Option<bool>,
}

pub(super) struct PremiseModels<'a, 'p> {
    query: &'a mut SessionQuery<'p>,
    /// The premise's guard; None when it could not be asserted (every
    /// question is then undecided).
    premise: Option<Fact>,
    premise_formula: Expr,
    claim: Expr,
    formulas: &'a [Expr],
    enum_values: &'a HashSet<String>,
    show: HashSet<String>,
    /// The values P's conjuncts fix (`b`, `(not b)`, `(= v constant)`).
    fixed: HashMap<String, Known>,
    models: Vec<Assignment>,
    facts: HashMap<Question, Option<Fact>>,
    answers: HashMap<Question, Option<bool>>,
}

impl<'a, 'p> PremiseModels<'a, 'p> {
    /// Asserts `premise` (elaborated) in `query`, and keeps the `seeds` (the
    /// scenarios of the test's finding) that prove to be models of the cone
    /// and P.
    pub(super) fn open(
        query: &'a mut SessionQuery<'p>,
        premise: &Expr,
        claim: &Expr,
        formulas: &'a [Expr],
        enum_values: &'a HashSet<String>,
        seeds: &[&Scenario],
    ) -> PremiseModels<'a, 'p> {
        let mut show: HashSet<String> = query
            .rules()
            .into_iter()
            .flat_map(|r| r.variables)
            .collect();
        for name in premise.symbols().into_iter().chain(claim.symbols()) {
            if query.is_variable(name) {
                show.insert(name.to_string());
            }
        }
        let fact = query.fact(premise).ok();
        let mut fixed = HashMap::new();
        fixed_values(
            premise,
            &|name| query.is_variable(name),
            enum_values,
            &mut fixed,
        );
        let mut models = PremiseModels {
            query,
            premise: fact,
            premise_formula: premise.clone(),
            claim: claim.clone(),
            formulas,
            enum_values,
            show,
            fixed,
            models: Vec::new(),
            facts: HashMap::new(),
            answers: HashMap::new(),
        };
        for seed in seeds {
            models.keep(seed);
        }
        models
    }

    /// The answer to a question already settled; None when it is not, or
    /// the solver could not settle it.
    pub(super) fn answer(&self, question: Question) -> Option<bool> {
        self.answers.get(&question).copied().flatten()
    }

    /// Settles every question of `questions` not settled yet.
    pub(super) fn settle(&mut self, questions: &[Question]) {
        let mut open: Vec<Question> = Vec::new();
        for &question in questions {
            if self.answers.contains_key(&question) || open.contains(&question) {
                continue;
            }
            if self.premise.is_none() {
                self.answers.insert(question, None);
            } else if self.refuted_by_premise(question) {
                self.answers.insert(question, Some(false));
            } else if self.models.iter().any(|m| self.true_in(m, question)) {
                self.answers.insert(question, Some(true));
            } else {
                open.push(question);
            }
        }
        self.solve(open);
    }

    fn value(&self, model: &Assignment, name: &str) -> Option<Known> {
        match model.values.get(name) {
            Some(value) => Some(value.clone()),
            None if self.enum_values.contains(name) && !self.query.is_variable(name) => {
                Some(Known::Enum(name.to_string()))
            }
            None => None,
        }
    }

    fn holds_in(&self, model: &Assignment, formula: &Expr) -> Option<bool> {
        holds(formula, &|name| self.value(model, name))
    }

    /// Whether the values P fixes make the question false: every model of
    /// P has them, so `M ∧ P ∧ X` is then unsatisfiable.
    fn refuted_by_premise(&self, question: Question) -> bool {
        let fixed = |name: &str| match self.fixed.get(name) {
            Some(value) => Some(value.clone()),
            None if self.enum_values.contains(name) && !self.query.is_variable(name) => {
                Some(Known::Enum(name.to_string()))
            }
            None => None,
        };
        let (index, side) = match question {
            Question::Formula(i) => (i, None),
            Question::WithClaim(i, side) => (i, Some(side)),
        };
        holds(&self.formulas[index], &fixed) == Some(false)
            || side.is_some_and(|side| holds(&self.claim, &fixed) == Some(!side))
    }

    /// Whether `question` is true in `model` by exact evaluation.
    fn true_in(&self, model: &Assignment, question: Question) -> bool {
        let (index, side) = match question {
            Question::Formula(i) => (i, None),
            Question::WithClaim(i, side) => (i, Some(side)),
        };
        if let Some(side) = side
            && model.claim != Some(side)
        {
            return false;
        }
        self.holds_in(model, &self.formulas[index]) == Some(true)
    }

    /// Keeps `scenario` as a model when it satisfies the cone's rules and
    /// the premise by exact evaluation.
    fn keep(&mut self, scenario: &Scenario) {
        let mut model = Assignment {
            values: scenario
                .values
                .iter()
                .filter_map(|(name, value)| Some((name.clone(), Known::of(value)?)))
                .collect(),
            claim: None,
        };
        let satisfied = self.holds_in(&model, &self.premise_formula) == Some(true)
            && self
                .query
                .cone()
                .iter()
                .all(|&r| self.holds_in(&model, self.query.rule_formula(r)) == Some(true));
        if satisfied {
            model.claim = self.holds_in(&model, &self.claim);
            self.models.push(model);
        }
    }

    /// The guard of a question's formula, asserted on first use; None when
    /// it cannot be encoded.
    fn fact(&mut self, question: Question) -> Option<Fact> {
        if let Some(known) = self.facts.get(&question) {
            return *known;
        }
        let formula = match question {
            Question::Formula(i) => self.formulas[i].clone(),
            Question::WithClaim(i, side) => {
                let claim = match side {
                    true => self.claim.clone(),
                    false => Expr::app(Op::Not, vec![self.claim.clone()]),
                };
                Expr::app(Op::And, vec![self.formulas[i].clone(), claim])
            }
        };
        let fact = self.query.fact(&formula).ok();
        self.facts.insert(question, fact);
        fact
    }

    /// Asks the solver about `open` (see the module comment).
    fn solve(&mut self, open: Vec<Question>) {
        let Some(premise) = self.premise else {
            return;
        };
        let mut queue: Vec<(Question, Fact)> = Vec::new();
        for question in open {
            match self.fact(question) {
                Some(fact) => queue.push((question, fact)),
                None => {
                    self.answers.insert(question, None);
                }
            }
        }
        let mut aside: Vec<(Question, Fact)> = Vec::new();
        let mut one_at_a_time = false;
        let cone = self.query.cone().to_vec();
        // The models every question left was evaluated in.
        let mut evaluated = self.models.len();
        loop {
            // Questions a model found meanwhile settles need no check.
            let fresh = &self.models[evaluated..];
            let settled: Vec<bool> = queue
                .iter()
                .chain(&aside)
                .map(|&(question, _)| fresh.iter().any(|m| self.true_in(m, question)))
                .collect();
            evaluated = self.models.len();
            let mut settled = settled.into_iter();
            for list in [&mut queue, &mut aside] {
                let mut left = Vec::with_capacity(list.len());
                for (question, fact) in list.drain(..) {
                    if settled.next() == Some(true) {
                        self.answers.insert(question, Some(true));
                    } else {
                        left.push((question, fact));
                    }
                }
                *list = left;
            }
            if queue.is_empty() {
                if aside.is_empty() {
                    return;
                }
                queue = std::mem::take(&mut aside);
                continue;
            }
            if one_at_a_time && queue.len() > 1 {
                aside.extend(queue.drain(1..));
            }
            let mut facts = vec![premise];
            facts.extend(queue.iter().map(|&(_, fact)| fact));
            match self.query.check(&cone, &facts, &self.show) {
                Ok(Outcome::Sat(scenario)) => {
                    for (question, _) in queue.drain(..) {
                        self.answers.insert(question, Some(true));
                    }
                    self.keep(&scenario);
                }
                Ok(Outcome::Unsat { facts: core, .. }) => {
                    let blamed: Vec<usize> = (0..queue.len())
                        .filter(|&i| core.contains(&queue[i].1))
                        .collect();
                    match blamed[..] {
                        [] => {
                            // M ∧ P is unsatisfiable: so is every question.
                            for (question, _) in queue.drain(..).chain(aside.drain(..)) {
                                self.answers.insert(question, Some(false));
                            }
                        }
                        [only] => {
                            let (question, _) = queue.remove(only);
                            self.answers.insert(question, Some(false));
                        }
                        [.., last] => aside.push(queue.remove(last)),
                    }
                }
                Err(_) => {
                    if self.query.stopped().is_some() || queue.len() == 1 {
                        for (question, _) in queue.drain(..) {
                            self.answers.insert(question, None);
                        }
                        if self.query.stopped().is_some() {
                            for (question, _) in aside.drain(..) {
                                self.answers.insert(question, None);
                            }
                        }
                    } else {
                        one_at_a_time = true;
                    }
                }
            }
        }
    }
}

/// Collects the values P's conjuncts fix: a Bool variable (true), its
/// negation (false), or a variable equal to a constant.
fn fixed_values(
    premise: &Expr,
    is_variable: &dyn Fn(&str) -> bool,
    enum_values: &HashSet<String>,
    fixed: &mut HashMap<String, Known>,
) {
    let constant = |expr: &Expr| {
        let lookup = |name: &str| {
            (enum_values.contains(name) && !is_variable(name)).then(|| Known::Enum(name.into()))
        };
        evaluate(expr, &lookup)
    };
    let variable = |expr: &Expr| match &expr.kind {
        ExprKind::Symbol(name) if is_variable(name) => Some(name.clone()),
        _ => None,
    };
    match &premise.kind {
        ExprKind::App(Op::And, parts) => {
            for part in parts {
                fixed_values(part, is_variable, enum_values, fixed);
            }
        }
        ExprKind::Symbol(_) => {
            if let Some(name) = variable(premise) {
                fixed.insert(name, Known::Bool(true));
            }
        }
        ExprKind::App(Op::Not, inner) if inner.len() == 1 => {
            if let Some(name) = variable(&inner[0]) {
                fixed.insert(name, Known::Bool(false));
            }
        }
        ExprKind::App(Op::Eq, sides) if sides.len() == 2 => {
            let pairs = [(&sides[0], &sides[1]), (&sides[1], &sides[0])];
            for (left, right) in pairs {
                if let (Some(name), Some(value)) = (variable(left), constant(right)) {
                    fixed.insert(name, value);
                    break;
                }
            }
        }
        _ => {}
    }
}
