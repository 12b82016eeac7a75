//! Lint questions decided near the question first, on a large group.
//!
//! Every lint check asks whether a formula can hold with a set of the
//! group's rules switched on. In a solver of the whole group each such check
//! costs in proportion to the group (the solver decides every rule), so a
//! check per rule or per pair grows with the square of the group. Most
//! questions are settled by the rules around them, in a small solver:
//!
//! - **Refuted near.** The rules that mention a variable near the question
//!   (a subset of those switched on) rule the formula out: then the whole
//!   set does too. The check's unsat core among them is the answer, and a
//!   finding's minimal rule set is shrunk from it in a solver of its own.
//! - **Holds near.** The same rules, with every other variable they mention
//!   pinned to its value in the base model (a scenario of the whole group),
//!   allow the formula. Join the small solver's values with the base
//!   model's: a rule that mentions a free variable holds by the small check,
//!   any other rule mentions only variables at their base values and holds
//!   as in the base model, and the formula mentions only free variables. So
//!   the joined values are a scenario of every rule with the formula (the
//!   argument of `near_check.rs`, which does this for questions).
//!
//! Otherwise (the pins may be what refutes it, or a check ran out of time)
//! the question is asked of the whole group as before. The answer is the
//! same either way; only the time differs. A group with a rule that divides
//! by a term is always asked whole (Z3 may choose such a division's value
//! differently in two solvers).

use super::answer_memo::Kept;
use super::answer_memo::{Shows, question_key};
use super::linter::{Linter, lint_solver_params};
use super::scenario_repair::known_values;
use crate::model::finding::Scenario;
use std::collections::HashSet;
use z3::SatResult;
use z3::ast::Bool;

/// Groups of fewer rules are always asked whole: their checks are cheap.
pub(super) const NEAR_FROM_RULES: usize = 200;

/// The small solvers leave free at most this many variables nearest the
/// question (more when the question itself mentions more): first only the
/// question's own, then wider while the pins refute it. On the dense bench
/// model most questions are settled by the first try, in under 1 ms (the
/// whole lint went 136 s -> 54 s on one worker when it was added).
const NEAR_VARIABLES: [usize; 3] = [1, 24, 96];

/// How a lint question was answered.
pub(super) enum Answer {
    /// The formula holds with the rules: a scenario of `scope`, when asked.
    Holds(Option<Scenario>),
    /// The formula cannot hold with the rules; `core` (a subset of those
    /// switched on: the refuting check's unsat core) already rules it out.
    Refuted { core: Vec<usize> },
    /// Not decided within the check's deadline.
    Undecided,
}

impl Linter<'_> {
    /// Notes a scenario of every rule of `group` (the base model that pins
    /// what a near check leaves fixed), when the group is large enough for
    /// near checks to pay.
    pub(super) fn find_base_model(&mut self, group: &[usize]) {
        self.base = None;
        self.wide = None;
        self.recall = None;
        if !self.near
            || group.len() < NEAR_FROM_RULES
            || group.iter().any(|&r| self.session.rules[r].divides_by_term)
        {
            return;
        }
        // A scenario the last run kept in which every rule of the group
        // holds (`answer_memo.rs`) needs no search: its values pinned.
        let witness = self.book.and_then(|book| book.witness(self.model, group));
        // Else in a solver of the rules as plain facts, with Z3's usual
        // settings: Z3 simplifies them before it searches. The group's
        // solver (guarded rules, no relevancy) took over 5 s to find a model
        // of the dense bench model's 1,497 rules; this one takes 0.25 s.
        let (base, values) = match witness {
            Some(values) => match self.pinned_model(group, &values) {
                // The scenario as it is when it has every variable's value.
                Some(base) => {
                    let complete = self
                        .model
                        .variables
                        .iter()
                        .all(|(name, _)| values.contains_key(name));
                    (Some(base), complete.then_some(values))
                }
                None => (self.plain_model(group), None),
            },
            None => (self.plain_model(group), None),
        };
        self.base = base;
        if let Some(base) = &self.base {
            let wide = self.session.scratch_solver(group);
            crate::solve::check_gate::watchdog_only(&wide);
            self.wide = Some(wide);
            let values = values.unwrap_or_else(|| {
                std::sync::Arc::new(known_values(&self.session.vocabulary.scenario(base, None)))
            });
            self.start_recall(group, values);
        }
    }

    /// A model of `group`'s rules, by one check of them as plain facts
    /// (`plain_solver`); None when the check finds none.
    pub(super) fn plain_model(&mut self, group: &[usize]) -> Option<z3::Model> {
        let plain = self.plain_solver(group);
        let group_solver = std::mem::replace(&mut self.session.solver, plain);
        let model = match self.check(&[]) {
            SatResult::Sat => self.session.solver.get_model(),
            _ => None,
        };
        self.session.solver = group_solver;
        model
    }

    /// A solver of `group`'s rules as plain facts (no guards), with Z3's
    /// usual settings and the watchdog's check budget.
    pub(super) fn plain_solver(&self, group: &[usize]) -> z3::Solver {
        let plain = z3::Solver::new();
        crate::solve::check_gate::watchdog_only(&plain);
        for &r in group {
            plain.assert(&self.session.rules[r].formula);
        }
        plain
    }

    /// Whether `formula`, over the variables `about`, can hold with the
    /// rules `on` switched on: near the question first (see the module's
    /// note), else in the group's solver. `scope` names the variables a
    /// scenario of a holding formula shows.
    pub(super) fn ask(
        &mut self,
        on: &[usize],
        formula: &Bool,
        about: &[&str],
        scope: Option<&HashSet<String>>,
    ) -> Answer {
        let key = self.recall.as_ref().map(|_| question_key("ask", formula));
        self.ask_keyed(key, on, formula, about, scope)
    }

    /// The same, the question known by `key` (None: not recalling).
    pub(super) fn ask_keyed(
        &mut self,
        key: Option<String>,
        on: &[usize],
        formula: &Bool,
        about: &[&str],
        scope: Option<&HashSet<String>>,
    ) -> Answer {
        self.recalled_or(key, on, Shows::over(scope), |linter| {
            linter.ask_fresh(on, formula, about, scope)
        })
    }

    pub(super) fn ask_fresh(
        &mut self,
        on: &[usize],
        formula: &Bool,
        about: &[&str],
        scope: Option<&HashSet<String>>,
    ) -> Answer {
        for most in NEAR_VARIABLES {
            if let Some(answer) = self.ask_near(on, formula, about, scope, most) {
                return answer;
            }
        }
        // What near checks leave goes to the wide solver: the group's
        // rules under guards with Z3's usual settings. Without relevancy
        // tracking (the group's own solver, which the impossible-situation
        // search prefers) these questions took 486 ms on average on the
        // dense bench model's 1,497 rules; with it 168 ms.
        match self.wide.take() {
            Some(wide) => {
                let group = std::mem::replace(&mut self.session.solver, wide);
                let answer = self.ask_whole_fresh(on, formula, scope);
                self.wide = Some(std::mem::replace(&mut self.session.solver, group));
                answer
            }
            None => self.ask_whole_fresh(on, formula, scope),
        }
    }

    /// The same question asked of the group's solver only.
    pub(super) fn ask_whole(
        &mut self,
        on: &[usize],
        formula: &Bool,
        scope: Option<&HashSet<String>>,
    ) -> Answer {
        let key = self.recall.as_ref().map(|_| question_key("ask", formula));
        self.recalled_or(key, on, Shows::over(scope), |linter| {
            linter.ask_whole_fresh(on, formula, scope)
        })
    }

    fn ask_whole_fresh(
        &mut self,
        on: &[usize],
        formula: &Bool,
        scope: Option<&HashSet<String>>,
    ) -> Answer {
        let guard = self.guard(formula);
        let mut assumptions = self.session.literals(on);
        assumptions.push(guard);
        match self.check(&assumptions) {
            SatResult::Sat => {
                if self.recall.is_some() {
                    self.shown = self
                        .session
                        .model_scenario(None)
                        .ok()
                        .map(|whole| vec![std::sync::Arc::new(known_values(&whole))]);
                }
                Answer::Holds(scope.and_then(|s| self.session.model_scenario(Some(s)).ok()))
            }
            SatResult::Unsat => Answer::Refuted {
                core: self.session.core_rules(),
            },
            SatResult::Unknown => Answer::Undecided,
        }
    }

    fn ask_near(
        &mut self,
        on: &[usize],
        formula: &Bool,
        about: &[&str],
        scope: Option<&HashSet<String>>,
        most: usize,
    ) -> Option<Answer> {
        let base = self.base.take()?;
        let answer = self.ask_near_base(&base, on, formula, about, scope, most);
        self.base = Some(base);
        answer
    }

    fn ask_near_base(
        &mut self,
        base: &z3::Model,
        on: &[usize],
        formula: &Bool,
        about: &[&str],
        scope: Option<&HashSet<String>>,
        most: usize,
    ) -> Option<Answer> {
        let free = self.session.variables_within(about, on, most);
        let near: Vec<usize> = on
            .iter()
            .copied()
            .filter(|&r| {
                self.session.rules[r]
                    .variables
                    .iter()
                    .any(|v| free.contains(v))
            })
            .collect();
        // Half the rules or more: the whole check costs little more.
        if near.len() * 2 > on.len() {
            return None;
        }
        let mut pinned: Vec<String> = near
            .iter()
            .flat_map(|&r| self.session.rules[r].variables.iter())
            .filter(|v| !free.contains(*v))
            .cloned()
            .collect();
        pinned.sort_unstable();
        pinned.dedup();
        let pins: Vec<Bool> = pinned
            .iter()
            .map(|name| {
                let value = self.session.vocabulary.value_in(base, name)?;
                Some(self.session.vocabulary.constant(name)?.eq(&value))
            })
            .collect::<Option<_>>()?;
        self.in_solver_of(&near, |linter| {
            // Pinned first: most questions hold, and then one check
            // answers them. Only a pinned refutation asks again unpinned.
            let asked = linter.guard(formula);
            let mut assumptions = linter.session.literals(&near);
            assumptions.push(asked);
            // The pins are facts of an inner scope, so that Z3 puts their
            // values into the rules before it searches.
            linter.session.solver.push();
            for pin in &pins {
                linter.session.solver.assert(pin);
            }
            let outcome = linter.check(&assumptions);
            let small = match outcome {
                SatResult::Sat if scope.is_some() || linter.recall.is_some() => {
                    linter.session.solver.get_model()
                }
                _ => None,
            };
            linter.session.solver.pop(1);
            match outcome {
                SatResult::Sat => {}
                SatResult::Unknown => return None,
                SatResult::Unsat => {
                    return match linter.check(&assumptions) {
                        SatResult::Unsat => Some(Answer::Refuted {
                            core: linter.session.core_rules(),
                        }),
                        _ => None,
                    };
                }
            }
            if linter.recall.is_some() {
                // What the scenario changes from the base model, kept for
                // the next run (`recall.rs`).
                let held: HashSet<String> = free.iter().chain(&pinned).cloned().collect();
                let small = small.as_ref()?;
                let values = linter.session.vocabulary.scenario(small, Some(&held));
                let base = linter.recall_base()?;
                linter.shown = Some(vec![std::sync::Arc::new(known_values(&values)), base]);
            }
            let Some(scope) = scope else {
                return Some(Answer::Holds(None));
            };
            let small = small?;
            let held_near = |name: &str| {
                free.contains(name) || pinned.binary_search_by(|p| p.as_str().cmp(name)).is_ok()
            };
            let scenario = linter.session.vocabulary.scenario_joined(
                &|name| match held_near(name) {
                    true => &small,
                    false => base,
                },
                Some(scope),
            );
            Some(Answer::Holds(Some(scenario)))
        })
    }

    /// Runs `work` in a solver of its own that holds only `rules` (under
    /// their usual guards), then goes back to the group's solver.
    pub(super) fn in_solver_of<T>(
        &mut self,
        rules: &[usize],
        work: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let small = self.small.take().unwrap_or_else(|| {
            let small = z3::Solver::new();
            lint_solver_params(&small);
            small
        });
        small.push();
        for &r in rules {
            let rule = &self.session.rules[r];
            small.assert(rule.literal.implies(&rule.formula));
        }
        let group = std::mem::replace(&mut self.session.solver, small);
        let result = work(self);
        let small = std::mem::replace(&mut self.session.solver, group);
        small.pop(1);
        self.small = Some(small);
        result
    }

    /// A minimal set of the rules of `core` (a refuted question's core)
    /// that rule `formula` out, shrunk in a solver of the core's rules
    /// only; None when that could not be told in time.
    pub(super) fn minimal_refuting(
        &mut self,
        core: Vec<usize>,
        formula: &Bool,
    ) -> Option<Vec<usize>> {
        let key = self.recall.as_ref().map(|_| {
            let ids: Vec<String> = core.iter().map(|&r| self.id(r)).collect();
            format!("{} {}", question_key("minimal", formula), ids.join(" "))
        });
        if let Some(Kept::Minimal(rules)) = key.as_ref().and_then(|k| self.recalled_plain(k)) {
            return self.unchanged_rules(&rules, None);
        }
        let within = core.clone();
        let minimal = self.in_solver_of(&within, |linter| {
            let guard = linter.guard(formula);
            linter
                .session
                .minimize(core, &[guard], linter.interruption)
                .ok()
                .map(|(m, _)| m)
        })?;
        if let Some(key) = key {
            let rules = minimal.iter().map(|&r| self.id(r)).collect();
            self.remember_plain(key, Kept::Minimal(rules));
        }
        Some(minimal)
    }

    /// Whether `formula` can hold on its own, asking no rule (in a solver
    /// of its own, not the group's).
    pub(super) fn holds_alone(&mut self, formula: &Bool) -> SatResult {
        let key = self.recall.as_ref().map(|_| question_key("alone", formula));
        self.holds_alone_keyed(key, || formula.clone())
    }

    /// The same, the question known by `key` (None: not recalling) and its
    /// formula made only when it is asked.
    pub(super) fn holds_alone_keyed(
        &mut self,
        key: Option<String>,
        formula: impl FnOnce() -> Bool,
    ) -> SatResult {
        if let Some(Kept::Alone(holds)) = key.as_ref().and_then(|k| self.recalled_plain(k)) {
            return match holds {
                true => SatResult::Sat,
                false => SatResult::Unsat,
            };
        }
        let formula = formula();
        let outcome = self.in_solver_of(&[], |linter| {
            let guard = linter.guard(&formula);
            linter.check(&[guard])
        });
        if let Some(key) = key
            && outcome != SatResult::Unknown
        {
            self.remember_plain(key, Kept::Alone(outcome == SatResult::Sat));
        }
        outcome
    }
}
