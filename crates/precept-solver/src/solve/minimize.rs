//! Shrinking an unsat core of rules to a minimal set, deletion by
//! deletion: the rule sets a finding shows (docs/answers.md, "Findings") and the
//! lint's conflicting rules.

use super::error::SolveError;
use super::session::{Interruption, SolverSession};
use z3::SatResult;
use z3::ast::Bool;

/// A question's core is minimized in a solver of its own when it was
/// found in a solver of at least this many rules (`minimize_question`):
/// on the scale bench's cones of about 1,100 rules that cuts a refuted
/// side from about 50 ms to 9; on cones of about 75 rules (`--bench
/// vetting`) a fresh solver costs more than the checks it saves.
const MINIMIZE_APART_FROM: usize = 300;

impl SolverSession {
    /// `minimize` of a question's core, each of `fixed` a guard literal
    /// with the formula it guards, asked in a solver of `solver_rules`
    /// rules. In a large solver it runs apart (`minimize_apart`); in a
    /// small one its checks are cheap already, and a solver of its own
    /// would cost more than it saves.
    pub(super) fn minimize_question(
        &mut self,
        core: Vec<usize>,
        fixed: &[(&Bool, &Bool)],
        solver_rules: usize,
        interruption: &dyn Interruption,
    ) -> Result<(Vec<usize>, bool), SolveError> {
        if solver_rules < MINIMIZE_APART_FROM {
            let guards: Vec<Bool> = fixed.iter().map(|(guard, _)| (*guard).clone()).collect();
            return self.minimize(core, &guards, interruption);
        }
        let facts: Vec<&Bool> = fixed.iter().map(|(_, formula)| *formula).collect();
        self.minimize_apart(core, &facts, interruption)
    }

    /// `minimize` with `facts` (formulas that hold throughout) in a solver
    /// of its own that holds only the core's rules and the facts. The
    /// session's solvers hold nothing but guarded formulas, so every check
    /// answers there as it would in the cone's solver; but a satisfiable
    /// one need not find a model of the whole cone (tens of milliseconds
    /// on a thousand rules), only of a few rules.
    fn minimize_apart(
        &mut self,
        core: Vec<usize>,
        facts: &[&Bool],
        interruption: &dyn Interruption,
    ) -> Result<(Vec<usize>, bool), SolveError> {
        let apart = self.scratch_solver(&core);
        for fact in facts {
            apart.assert(*fact);
        }
        let cone = std::mem::replace(&mut self.solver, apart);
        let minimized = self.minimize(core, &[], interruption);
        self.solver = cone;
        minimized
    }

    /// Shrinks an unsat core of rules to a minimal one (deletion-based):
    /// every rule left is needed, with `fixed`, for unsatisfiability. Returns
    /// the rules and whether minimality is proved: a rule whose check ran out
    /// of its budget is kept, and then the set may not be minimal.
    pub(super) fn minimize(
        &self,
        mut core: Vec<usize>,
        fixed: &[Bool],
        interruption: &dyn Interruption,
    ) -> Result<(Vec<usize>, bool), SolveError> {
        let mut proved_minimal = true;
        let mut i = 0;
        while i < core.len() {
            if let Some(reason) = interruption.reason() {
                return Err(SolveError::Undecided(reason));
            }
            let candidate: Vec<usize> = core
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &r)| r)
                .collect();
            // The dropped rule is switched off explicitly; rules outside the core stay unassumed.
            let mut assumptions: Vec<Bool> = fixed.to_vec();
            assumptions.extend(self.literals(&candidate));
            assumptions.push(self.rules[core[i]].switched_off.clone());
            match self.bounded_check(&assumptions, interruption) {
                SatResult::Unsat => {
                    let smaller = self.core_rules();
                    core = candidate
                        .into_iter()
                        .filter(|r| smaller.contains(r))
                        .collect();
                }
                SatResult::Sat => i += 1,
                SatResult::Unknown => {
                    if let Some(reason) = interruption.reason() {
                        return Err(SolveError::Undecided(reason));
                    }
                    proved_minimal = false;
                    i += 1;
                }
            }
        }
        Ok((core, proved_minimal))
    }
}

#[cfg(test)]
#[path = "minimize_tests.rs"]
mod tests;
