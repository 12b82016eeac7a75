//! A side of a question decided near the question first, on a large cone.
//!
//! On a cone of a thousand rules most of a check's time goes on rules far
//! from the question. Once the cone's solver has found one scenario of all
//! its rules (its base model), a side that holds can often be shown to hold
//! in a small solver: the variables nearest the question left free, the
//! rules that mention one of them, and every other variable those rules
//! mention pinned to its value in the base model.
//!
//! That is sound. Join the small solver's values for the variables it holds
//! with the base model's for every other variable: a rule that mentions a
//! free variable holds by the small check; any other rule mentions only
//! pinned variables and variables outside the small solver, all at their
//! base values, so it holds as in the base model. The premise and claim
//! mention only free variables. So every rule of the cone holds with the
//! side, and the joined values, which the scenario shows, are evidence.
//!
//! When the small check fails (the pins may be what refutes it) or cannot
//! decide, the side is decided in the whole cone as usual: a finding never
//! rests on the small check's refutations, only on its scenarios.

use super::claim_check::{Asked, Scope};
use super::error::SolveError;
use super::preference_guards::Preference;
use super::session::{AUXILIARY_CHECK_BUDGET, Interruption, SolverSession};
use super::sides::Side;
use crate::model::finding::Scenario;
use std::collections::HashSet;
use z3::Solver;
use z3::ast::Bool;

/// The small check leaves free at most this many variables nearest the
/// question (more if the question has more). On the scale benchmark's
/// 1,100-rule cone: 20 free variables, 78% of small checks hold, in a
/// median 2.9 ms; 40, 81% in 4.2 ms; 120, 84% in 9.2 ms.
const NEAR_VARIABLES: usize = 40;

/// The small solver's part of the cone: the variables it leaves free (those
/// nearest the question), the rules that mention one, and the other
/// variables those rules mention, pinned.
struct Near {
    free: HashSet<String>,
    rules: Vec<usize>,
    pinned: Vec<String>,
}

impl SolverSession {
    /// Whether a side of a question on this scope may be tried near the
    /// question: a large cone, dividing by no term, whose base model
    /// covers the scope's rules.
    fn near_check_applies(&self, scope: &Scope) -> bool {
        scope.is_large_cone()
            && self
                .base_model(&scope.rules)
                .is_some_and(|base| base.covers(&scope.rules))
            && !scope.rules.iter().any(|&r| self.rules[r].divides_by_term)
    }

    /// The variables nearest the question, up to `NEAR_VARIABLES`, the
    /// scope's rules that mention one, and the others those rules mention.
    fn near_part(&self, asked: &Asked, scope: &Scope) -> Near {
        let question = self.question_variables(&asked.premise, &asked.claim);
        let free = self.variables_within(&question, &scope.rules, NEAR_VARIABLES);
        let rules: Vec<usize> = scope
            .rules
            .iter()
            .copied()
            .filter(|&r| self.rules[r].variables.iter().any(|v| free.contains(v)))
            .collect();
        let mut pinned: Vec<String> = rules
            .iter()
            .flat_map(|&r| self.rules[r].variables.iter())
            .filter(|v| !free.contains(*v))
            .cloned()
            .collect();
        pinned.sort_unstable();
        pinned.dedup();
        Near {
            free,
            rules,
            pinned,
        }
    }

    /// Tries one side near the question (see the module's note): the
    /// scenario where it holds, or `None` when the side must be decided in
    /// the whole cone. Offered the preferences of the whole check that
    /// concern the variables it leaves free.
    pub(super) fn holds_near_question(
        &mut self,
        asked: &Asked,
        side: Side,
        scope: &Scope,
        offered: &[Preference],
        interruption: &dyn Interruption,
    ) -> Result<Option<Scenario>, SolveError> {
        if !self.near_check_applies(scope) {
            return Ok(None);
        }
        let near = self.near_part(asked, scope);
        // Half the cone or more: the whole check costs little more.
        if near.rules.len() * 2 > scope.rules.len() {
            return Ok(None);
        }
        let Some(pins) = self.pins(&scope.rules, &near.pinned) else {
            return Ok(None);
        };
        let small = Solver::new();
        super::check_gate::backstop_timeout(&small, self.timeout_ms);
        for &r in &near.rules {
            small.assert(&self.rules[r].formula);
        }
        let pinned = Bool::fresh_const("pinned");
        small.assert(pinned.implies(Bool::and(&pins)));
        let (premise_holds, side_holds) = asked.side_guards(side);
        small.assert(premise_holds.implies(asked.premise_formula()));
        small.assert(side_holds.implies(asked.side_formula(side)));
        let offered: Vec<Preference> = offered
            .iter()
            .filter(|p| near.free.contains(p.name()))
            .cloned()
            .collect();
        for preference in &offered {
            small.assert(preference.literal.implies(&preference.formula));
        }
        let assumptions = [pinned, premise_holds.clone(), side_holds.clone()];
        // Its checks together get an auxiliary check's budget, so a small
        // check that proves hard leaves the whole cone most of the time.
        let budget = AUXILIARY_CHECK_BUDGET.min(self.timeout() / 4);
        interruption.limit_checks(Some(budget));
        interruption.start_check();
        let whole_cone = std::mem::replace(&mut self.solver, small);
        let checked =
            self.check_preferring(&assumptions, &offered, None, &mut Vec::new(), interruption);
        let small = std::mem::replace(&mut self.solver, whole_cone);
        interruption.limit_checks(None);
        match checked {
            Ok(Ok(())) => self.joined_scenario(&small, &near, scope).map(Some),
            // Refuted with the pins, or undecided: the whole cone decides.
            Ok(Err(_)) => Ok(None),
            Err(_) => match interruption.reason() {
                Some(stopped) => Err(SolveError::Undecided(stopped)),
                None => Ok(None),
            },
        }
    }

    /// The scenario of the whole cone the small check proves: the small
    /// solver's values for the variables it holds, the base model's for
    /// the others.
    fn joined_scenario(
        &self,
        small: &Solver,
        near: &Near,
        scope: &Scope,
    ) -> Result<Scenario, SolveError> {
        let near_model = small.get_model().ok_or(SolveError::NoModel)?;
        let base = self.base_model(&scope.rules).ok_or(SolveError::NoModel)?;
        let held_near = |name: &str| {
            near.free.contains(name)
                || near
                    .pinned
                    .binary_search_by(|p| p.as_str().cmp(name))
                    .is_ok()
        };
        Ok(self.vocabulary.scenario_joined(
            &|name| match held_near(name) {
                true => &near_model,
                false => &base.model,
            },
            scope.variables.as_ref(),
        ))
    }

    /// `variable = its base value` for each variable of `pinned`; `None`
    /// when the base model has no value for one.
    fn pins(&self, rules: &[usize], pinned: &[String]) -> Option<Vec<Bool>> {
        let base = self.base_model(rules)?;
        pinned
            .iter()
            .map(|name| {
                // Read as the joined scenario reads it (`value_in`).
                let value = self.vocabulary.value_in(&base.model, name)?;
                Some(self.vocabulary.constant(name)?.eq(&value))
            })
            .collect()
    }
}
