//! Which variables of a group can vary, and which enum values occur, told
//! from a few models of the whole group instead of two checks per
//! variable: each round asks for a model in which at least one variable
//! not yet seen to vary takes another value, and every variable the new
//! model changes is settled at once. A model of the whole group satisfies
//! every subset of its rules, so what it shows holds under a variable's own
//! rules too; the forced-variable check (L204) and the unreachable-value
//! check (L205) then ask the solver only about what is left.
//!
//! The rounds are bounded: a variable still unsettled when they end is
//! checked the plain way, so the result never depends on the bound.

use super::linter::{Linter, true_in};
use crate::smt::{Expr, Sort};
use std::collections::{HashMap, HashSet};
use z3::SatResult;
use z3::ast::{Bool, Dynamic};

/// The most models asked for per group.
const MAX_ROUNDS: usize = 64;

/// Z3's own choice of phases (caching, conservative).
const DEFAULT_PHASE_SELECTION: u32 = 3;

/// Sets how the solver picks the value of a variable it decides: 5 is at
/// random.
fn phases(linter: &Linter<'_>, selection: u32) {
    let mut params = z3::Params::new();
    params.set_u32("phase_selection", selection);
    linter.session.solver.set_params(&params);
}

/// What the models of a group showed.
#[derive(Default)]
pub(super) struct Varying {
    /// Variables seen with two different values.
    pub(super) variables: HashSet<String>,
    /// Each enum variable's values seen.
    pub(super) values: HashMap<String, HashSet<String>>,
    /// Each variable's value in the first model (one its rules allow).
    pub(super) first: HashMap<String, Dynamic>,
}

/// Each variable's value in the first model, by name.
fn first_values(
    terms: &[(&String, &Sort, Dynamic)],
    first: &[Option<Dynamic>],
) -> HashMap<String, Dynamic> {
    terms
        .iter()
        .zip(first)
        .filter_map(|((name, _, _), value)| Some(((*name).clone(), value.clone()?)))
        .collect()
}

impl Linter<'_> {
    /// What models of every rule of `group` show about `variables`.
    pub(super) fn varying(&mut self, group: &[usize], variables: &[(String, Sort)]) -> Varying {
        let mut out = Varying::default();
        let terms: Vec<(&String, &Sort, Dynamic)> = variables
            .iter()
            .filter_map(|(name, sort)| {
                let term = self.session.vocabulary.term(&Expr::symbol(name)).ok()?;
                Some((name, sort, term))
            })
            .collect();
        let literals = self.session.literals(group);
        if let Some(base) = &self.base {
            // A large group: its base model is the one model asked for (a
            // round's disjunction over every variable is slow to decide
            // there), and near checks settle the rest one by one.
            let first: Vec<Option<Dynamic>> =
                terms.iter().map(|(_, _, t)| base.eval(t, true)).collect();
            self.record_values(&terms, &first, &mut out);
            out.first = first_values(&terms, &first);
            return out;
        }
        if self.check(&literals) != SatResult::Sat {
            return out;
        }
        let Some(first) = self.model_values(&terms) else {
            return out;
        };
        self.record_values(&terms, &first, &mut out);
        let mut unsettled: Vec<usize> = (0..terms.len()).filter(|&i| first[i].is_some()).collect();
        // Random phases make each model stray further from the last.
        phases(self, 5);
        for _ in 0..MAX_ROUNDS {
            if unsettled.is_empty() || self.stopped() {
                break;
            }
            let differ: Vec<Bool> = unsettled
                .iter()
                .filter_map(|&i| Some(terms[i].2.eq(first[i].clone()?).not()))
                .collect();
            let some_differs = self.guard(&Bool::or(&differ));
            let mut assumptions = literals.clone();
            assumptions.push(some_differs);
            if self.check(&assumptions) != SatResult::Sat {
                break;
            }
            let Some(values) = self.model_values(&terms) else {
                break;
            };
            self.record_values(&terms, &values, &mut out);
            unsettled.retain(|&i| values[i] == first[i]);
        }
        phases(self, DEFAULT_PHASE_SELECTION);
        out.first = first_values(&terms, &first);
        let unsettled: HashSet<usize> = unsettled.into_iter().collect();
        out.variables = (0..terms.len())
            .filter(|i| first[*i].is_some() && !unsettled.contains(i))
            .map(|i| terms[i].0.clone())
            .collect();
        out
    }

    /// Each term's value in the solver's last model.
    fn model_values(&self, terms: &[(&String, &Sort, Dynamic)]) -> Option<Vec<Option<Dynamic>>> {
        let model = self.session.solver.get_model()?;
        Some(terms.iter().map(|(_, _, t)| model.eval(t, true)).collect())
    }

    /// Notes the enum values a model gives.
    fn record_values(
        &self,
        terms: &[(&String, &Sort, Dynamic)],
        values: &[Option<Dynamic>],
        out: &mut Varying,
    ) {
        for ((name, sort, _), value) in terms.iter().zip(values) {
            if let (Sort::Enum(_), Some(value)) = (sort, value) {
                let shown = self.session.vocabulary.scenario_value(value, sort);
                out.values.entry((*name).clone()).or_default().insert(shown);
            }
        }
    }
}

impl Linter<'_> {
    /// The rules of `rules` (of `group`) whose condition holds in some
    /// model of the whole group: none of them is vacuous (L202), so their
    /// own check is not needed. Each round asks for a model in which some
    /// condition not yet seen to hold does; bounded like
    /// [`Linter::varying`].
    pub(super) fn applicable(&mut self, group: &[usize], rules: &[usize]) -> HashSet<usize> {
        let mut shown = HashSet::new();
        let conditions: Vec<(usize, Bool)> = rules
            .iter()
            .filter_map(|&r| {
                let (condition, _) = self.split(r)?;
                Some((r, self.encode(&condition)?))
            })
            .collect();
        if let Some(base) = &self.base {
            // A large group: only its base model (see `varying`).
            return conditions
                .iter()
                .filter(|(_, c)| true_in(base, c))
                .map(|(r, _)| *r)
                .collect();
        }
        let literals = self.session.literals(group);
        phases(self, 5);
        for _ in 0..MAX_ROUNDS {
            let waiting: Vec<Bool> = conditions
                .iter()
                .filter(|(r, _)| !shown.contains(r))
                .map(|(_, c)| c.clone())
                .collect();
            if waiting.is_empty() || self.stopped() {
                break;
            }
            let some_holds = self.guard(&Bool::or(&waiting));
            let mut assumptions = literals.clone();
            assumptions.push(some_holds);
            if self.check(&assumptions) != SatResult::Sat {
                break;
            }
            let Some(model) = self.session.solver.get_model() else {
                break;
            };
            for (r, condition) in &conditions {
                if true_in(&model, condition) {
                    shown.insert(*r);
                }
            }
        }
        phases(self, DEFAULT_PHASE_SELECTION);
        shown
    }
}
