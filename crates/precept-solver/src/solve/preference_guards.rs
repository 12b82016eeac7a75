//! Scenario preferences as guards in the solver: each Int (and compared
//! Real) variable asked for the value `preferences.rs` prefers, honoured
//! where the rules allow, dropped (Reals first) where they do not, so a
//! scenario reads like a real case. A preference never changes a finding.

use super::encode::real_literal;
use super::error::SolveError;
use super::preferences::rules_out;
use super::session::{Interruption, SolverSession};
use crate::smt::{Expr, Sort};
use num_rational::BigRational;
use std::collections::HashSet;
use z3::SatResult;
use z3::ast::{Bool, Int, Real};

/// At most this many Int variables get a preference guard per request (and
/// at most as many Real ones).
const MAX_PREFERENCES: usize = 64;

/// At most this many extra checks are spent honouring preferences.
const PREFERENCE_ROUNDS: usize = 3;

/// A scenario preference: the guard that asks a variable for its preferred
/// value (`scenario_preferences`).
#[derive(Clone)]
pub(super) struct Preference {
    name: String,
    /// The value it asks for.
    value: BigRational,
    pub(super) literal: Bool,
    /// `variable = value`, which the literal implies.
    pub(super) formula: Bool,
    /// A Real variable's preference, dropped before any Int one.
    real: bool,
}

impl Preference {
    /// Whether one of `formulas` rules this preference out on its face.
    pub(super) fn ruled_out_by(&self, formulas: &[&Expr]) -> bool {
        formulas
            .iter()
            .any(|f| rules_out(f, &self.name, &self.value))
    }

    pub(super) fn name(&self) -> &str {
        &self.name
    }
}

impl SolverSession {
    /// A check that also asks for the preferences: `Ok(())` when satisfiable
    /// (the model honours as many preferences as a few rounds allow),
    /// `Err(core rules)` when unsatisfiable without them. Preferences the
    /// rules alone refute are remembered for this cone and not offered again.
    ///
    /// An unsat core is not minimal, so it may blame preferences that are not
    /// at fault. Real preferences go first: while a core blames any Real one,
    /// only the blamed Real ones are dropped (the second time, every Real
    /// one), and Int ones only when the core blames no Real one, so adding
    /// Real preferences never costs a count or an age its realistic value.
    /// That takes at most one round more; a check that needs no dropping
    /// costs nothing extra. Preferences dropped because the rules and the
    /// premise refute them (the claim not blamed) are added to
    /// `premise_refuted`, so the question's other check does not offer them.
    /// Without a `cone` (a check outside the cone's solver), nothing is
    /// remembered for the cone.
    pub(super) fn check_preferring(
        &mut self,
        assumptions: &[Bool],
        preferences: &[Preference],
        cone: Option<&[usize]>,
        premise_refuted: &mut Vec<String>,
        interruption: &dyn Interruption,
    ) -> Result<Result<(), Vec<usize>>, SolveError> {
        let refuted = cone
            .map(|cone| self.refuted_preferences(cone))
            .unwrap_or_default();
        let mut active: Vec<&Preference> = preferences
            .iter()
            .filter(|p| !refuted.contains(&p.name))
            .collect();
        let mut rounds = PREFERENCE_ROUNDS + usize::from(active.iter().any(|p| p.real));
        let mut reals_blamed_before = false;
        while rounds > 0 && !active.is_empty() {
            rounds -= 1;
            let mut all = assumptions.to_vec();
            all.extend(active.iter().map(|p| p.literal.clone()));
            match self.check(&all) {
                SatResult::Sat => return Ok(Ok(())),
                SatResult::Unknown => {
                    return Err(SolveError::Undecided(self.unknown_reason(interruption)));
                }
                SatResult::Unsat => {
                    let core: HashSet<String> = self
                        .solver
                        .get_unsat_core()
                        .iter()
                        .map(|l| l.to_string())
                        .collect();
                    let blamed: Vec<&Preference> = active
                        .iter()
                        .copied()
                        .filter(|p| core.contains(&p.literal.to_string()))
                        .collect();
                    if blamed.is_empty() {
                        // Unsatisfiable whatever the preferences: that is the answer.
                        return Ok(Err(self.core_rules()));
                    }
                    let reals_blamed = blamed.iter().any(|p| p.real);
                    let dropped: Vec<String> = blamed
                        .iter()
                        .filter(|p| p.real || !reals_blamed)
                        .map(|p| p.name.clone())
                        .collect();
                    let question_involved = assumptions[assumptions.len().saturating_sub(2)..]
                        .iter()
                        .any(|g| core.contains(&g.to_string()));
                    if !question_involved && let Some(cone) = cone {
                        self.remember_refuted(cone, &dropped);
                    } else if !assumptions
                        .last()
                        .is_some_and(|claim| core.contains(&claim.to_string()))
                    {
                        // The rules and the premise refute them, whatever
                        // the claim: the other check of the question need
                        // not offer them.
                        premise_refuted.extend(dropped.iter().cloned());
                    }
                    let every_real = reals_blamed && reals_blamed_before;
                    reals_blamed_before |= reals_blamed;
                    let goes = |p: &Preference| dropped.contains(&p.name) || (every_real && p.real);
                    active.retain(|p| !goes(p));
                }
            }
        }
        match self.check(assumptions) {
            SatResult::Sat => Ok(Ok(())),
            SatResult::Unsat => Ok(Err(self.core_rules())),
            SatResult::Unknown => Err(SolveError::Undecided(self.unknown_reason(interruption))),
        }
    }

    /// Guards that ask each Int variable in scope for its preferred value
    /// (`preferences.rs`: zero for counts, a value the rules use for
    /// measures), and each Real variable the rules compare with a threshold
    /// for the middle of the constants they compare it with. Scenarios honour them where the rules allow, so a
    /// scenario shows what *must* happen, in a realistic case, rather than
    /// arbitrary solver choices. They never change a finding.
    pub(super) fn scenario_preferences(
        &mut self,
        scope: Option<&HashSet<String>>,
        cone: &[usize],
    ) -> Vec<Preference> {
        let refuted = self.refuted_preferences(cone);
        let ints: Vec<(String, Int)> = self
            .vocabulary
            .variables_of_sort(&Sort::Int, scope)
            .into_iter()
            .filter(|(name, _)| !refuted.contains(*name))
            .filter_map(|(name, variable)| Some((name.to_string(), variable.as_int()?)))
            .take(MAX_PREFERENCES)
            .collect();
        // Only a Real compared with a threshold: one the rules merely set is
        // an output they decide.
        let thresholded: HashSet<&str> = cone
            .iter()
            .flat_map(|&r| self.rules[r].thresholded.iter().map(String::as_str))
            .collect();
        let reals: Vec<(String, Real)> = self
            .vocabulary
            .variables_of_sort(&Sort::Real, scope)
            .into_iter()
            .filter(|(name, _)| !refuted.contains(*name) && thresholded.contains(name))
            .filter_map(|(name, variable)| Some((name.to_string(), variable.as_real()?)))
            .collect();
        let mut preferences = Vec::new();
        for (name, variable) in ints {
            let value = self
                .preferred_value(&name)
                .filter(|v| v.is_integer())
                .map(|v| v.to_integer())
                .unwrap_or_default();
            let Ok(numeral) = value.to_string().parse::<Int>() else {
                continue;
            };
            let formula = variable.eq(numeral);
            let literal = self.preference_guard(cone, &name, &formula);
            preferences.push(Preference {
                name,
                value: BigRational::from_integer(value),
                literal,
                formula,
                real: false,
            });
        }
        for (name, variable) in reals {
            if preferences.iter().filter(|p| p.real).count() >= MAX_PREFERENCES {
                break;
            }
            let Some(value) = self.preferred_value(&name) else {
                continue;
            };
            let Ok(numeral) = real_literal(&value) else {
                continue;
            };
            let formula = variable.eq(numeral);
            let literal = self.preference_guard(cone, &name, &formula);
            preferences.push(Preference {
                name,
                value,
                literal,
                formula,
                real: true,
            });
        }
        preferences
    }
}
