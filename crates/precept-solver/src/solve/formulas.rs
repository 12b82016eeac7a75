//! Satisfiability of stand-alone formulas over the model's vocabulary,
//! without the rules. The answer verifier uses it to compare translations
//! with each other (entailment, equivalence, a scenario that separates two
//! readings): those questions are about what the translations say, not
//! about the policy, so no rule takes part. Enumeration types keep their
//! finite domains, so `(not (= ageClass SENIOR))` and
//! `(or (= ageClass CHILD) (= ageClass ADULT))` are equivalent here.
//! A formula asked about many times with a little more each time (the
//! semantic diff: a model's rules with one fact or another) is held in a
//! solver of its own (`HeldFormula`).

use super::session::{Interruption, SolverSession};
use crate::model::finding::Scenario;
use crate::smt::Expr;
use serde::Serialize;
use std::collections::HashSet;
use z3::SatResult;
use z3::ast::Bool;

/// One formula to decide, and the variables its scenario should list.
#[derive(Debug, Clone, PartialEq)]
pub struct FormulaQuery {
    /// An elaborated (type-checked) Bool formula.
    pub formula: Expr,
    /// The variables whose values a satisfying scenario shows (in the
    /// model's declaration order); values the formula leaves open are
    /// completed by the solver.
    pub show: Vec<String>,
}

impl FormulaQuery {
    /// A query whose scenario shows the variables the formula mentions.
    pub fn new(formula: Expr) -> FormulaQuery {
        let show = formula.symbols().into_iter().map(str::to_string).collect();
        FormulaQuery { formula, show }
    }
}

/// Whether a formula has a satisfying assignment.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "result", content = "detail", rename_all = "snake_case")]
pub enum Satisfiability {
    /// Satisfiable, with a scenario of the requested variables.
    Satisfiable(Scenario),
    Unsatisfiable,
    /// The solver could not decide (out of time, cancelled, or the formula
    /// could not be encoded), with the reason.
    Unknown(String),
}

impl Satisfiability {
    pub fn is_unsatisfiable(&self) -> bool {
        matches!(self, Satisfiability::Unsatisfiable)
    }

    pub fn scenario(&self) -> Option<&Scenario> {
        match self {
            Satisfiability::Satisfiable(scenario) => Some(scenario),
            _ => None,
        }
    }
}

/// A formula held in a solver of its own (a whole model's rules as one
/// conjunction), for many queries that each add a formula to it: the held
/// formula is encoded and taken in by Z3 once, not once per query.
pub struct HeldFormula {
    solver: z3::Solver,
}

impl SolverSession {
    /// Holds `formula` (elaborated, Bool) for `check_with`.
    pub fn hold(&self, formula: &Expr) -> Result<HeldFormula, String> {
        let encoded = self
            .vocabulary
            .formula(formula)
            .map_err(|e| e.to_string())?;
        let solver = self.scratch_solver(&[]);
        solver.assert(&encoded);
        Ok(HeldFormula { solver })
    }

    /// Whether `held` and `query`'s formula can hold together: the query is
    /// added in a scope of its own and taken away after.
    pub fn check_with(
        &self,
        held: &HeldFormula,
        query: &FormulaQuery,
        interruption: &dyn Interruption,
    ) -> Satisfiability {
        if let Some(reason) = interruption.reason() {
            return Satisfiability::Unknown(reason);
        }
        let encoded = match self.vocabulary.formula(&query.formula) {
            Ok(encoded) => encoded,
            Err(message) => {
                return Satisfiability::Unknown(format!(
                    "the formula cannot be encoded: {message}"
                ));
            }
        };
        let solver = &held.solver;
        solver.push();
        solver.assert(&encoded);
        let result = self.decide(solver, &[], &query.show, interruption);
        solver.pop(1);
        result
    }

    /// One check of `solver` under `assumptions`, with a scenario of `show`
    /// when satisfiable.
    fn decide(
        &self,
        solver: &z3::Solver,
        assumptions: &[Bool],
        show: &[String],
        interruption: &dyn Interruption,
    ) -> Satisfiability {
        match super::check_gate::gated_check(solver, assumptions) {
            SatResult::Unsat => Satisfiability::Unsatisfiable,
            SatResult::Sat => match solver.get_model() {
                Some(model) => {
                    let scope: HashSet<String> = show.iter().cloned().collect();
                    Satisfiability::Satisfiable(self.vocabulary.scenario(&model, Some(&scope)))
                }
                None => Satisfiability::Unknown("the solver gave no model".into()),
            },
            SatResult::Unknown => Satisfiability::Unknown(
                interruption
                    .reason()
                    .or_else(|| solver.get_reason_unknown())
                    .unwrap_or_else(|| "the solver could not decide".into()),
            ),
        }
    }

    /// Decides each query in a small solver that holds no rules. Once the
    /// request is stopped (deadline or cancel), the remaining queries answer
    /// `Unknown` with the reason.
    pub fn check_formulas(
        &self,
        queries: &[FormulaQuery],
        interruption: &dyn Interruption,
    ) -> Vec<Satisfiability> {
        let solver = self.scratch_solver(&[]);
        let mut results = Vec::with_capacity(queries.len());
        for query in queries {
            if let Some(reason) = interruption.reason() {
                results.push(Satisfiability::Unknown(reason));
                continue;
            }
            let encoded = match self.vocabulary.formula(&query.formula) {
                Ok(encoded) => encoded,
                Err(message) => {
                    results.push(Satisfiability::Unknown(format!(
                        "the formula cannot be encoded: {message}"
                    )));
                    continue;
                }
            };
            let literal = Bool::fresh_const("query");
            solver.assert(literal.implies(&encoded));
            results.push(self.decide(
                &solver,
                std::slice::from_ref(&literal),
                &query.show,
                interruption,
            ));
        }
        results
    }
}
