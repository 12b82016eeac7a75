//! A session query: a plain-data window onto the session for questions asked in
//! many steps (propagation, derivation chains, relevance in `explain/`).
//! Facts are asserted under guards of their own, each check names the rules
//! and facts it assumes, an unsat core comes back as rule positions and
//! facts, and cores are minimized exactly as findings' rule sets are. A twin
//! copy of chosen rules (every variable renamed) lets one check compare two
//! scenarios that agree on some variables. The Z3 terms stay in here.
//!
//! A session query works in the warm solver of the cone of the variables it is
//! opened on (every rule when the policy is not known to be consistent),
//! inside a push/pop frame, so nothing it asserts outlives it. A session query can
//! be focused on a few rules of the cone: its checks then run in a small
//! solver holding only those rules and the facts they use, instead of
//! switching every other rule of the cone off in the large one.

use super::error::SolveError;
use super::session::{Interruption, SolverSession};
use crate::model::finding::Scenario;
use crate::smt::Expr;
use std::collections::{HashMap, HashSet};
use z3::ast::{Ast, Bool, Dynamic};
use z3::{SatResult, Solver};

/// A fact asserted in a query, named for assumptions and cores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fact(usize);

/// What one check found.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Satisfiable, with the values of the variables asked for.
    Sat(Scenario),
    /// Unsatisfiable: the assumed rules (positions) and facts of a core.
    Unsat { rules: Vec<usize>, facts: Vec<Fact> },
}

/// One rule of the query's cone.
#[derive(Debug, Clone, PartialEq)]
pub struct ConeRule {
    /// The rule's position in the session (what checks and cores use).
    pub position: usize,
    pub id: String,
    /// The model variables it mentions.
    pub variables: Vec<String>,
}

pub struct SessionQuery<'a> {
    session: &'a mut SolverSession,
    interruption: &'a dyn Interruption,
    cone: Vec<usize>,
    /// The whole-model solver, set aside while the cone's solver works.
    whole: Option<Solver>,
    facts: Vec<Bool>,
    fact_of_literal: HashMap<String, usize>,
    /// Each variable and its twin constant, made on first use.
    twins: HashMap<String, Dynamic>,
    /// Each fact's guarded formula (literal ⇒ formula), by fact.
    implications: Vec<Bool>,
    focus: Option<Focus>,
}

/// A small solver holding a few rules of the cone (see `SessionQuery::focus`).
struct Focus {
    rules: HashSet<usize>,
    /// The cone's solver, set aside while the focus lasts.
    parked: Solver,
    /// The facts asserted in the small solver so far.
    asserted: HashSet<usize>,
}

impl SolverSession {
    /// Opens a query on the cone of `variables`. Fails when the solver
    /// cannot say in time whether the rules are consistent and the request
    /// has been stopped meanwhile.
    pub fn query<'a>(
        &'a mut self,
        variables: &[&str],
        interruption: &'a dyn Interruption,
    ) -> Result<SessionQuery<'a>, SolveError> {
        let cone = match self.consistency(interruption)? {
            Some(true) => self.rules_touching(variables),
            _ => (0..self.rules.len()).collect(),
        };
        let solver = self.take_cone_solver(&cone);
        solver.push();
        let whole = std::mem::replace(&mut self.solver, solver);
        Ok(SessionQuery {
            session: self,
            interruption,
            cone,
            whole: Some(whole),
            facts: Vec::new(),
            fact_of_literal: HashMap::new(),
            twins: HashMap::new(),
            implications: Vec::new(),
            focus: None,
        })
    }
}

impl Drop for SessionQuery<'_> {
    fn drop(&mut self) {
        self.unfocus();
        self.session.solver.pop(1);
        if let Some(whole) = self.whole.take() {
            let cone_solver = std::mem::replace(&mut self.session.solver, whole);
            self.session.return_cone_solver(&self.cone, cone_solver);
        }
    }
}

impl SessionQuery<'_> {
    /// The rules of the cone, in model order.
    pub fn rules(&self) -> Vec<ConeRule> {
        self.cone
            .iter()
            .map(|&position| ConeRule {
                position,
                id: self.session.rules[position].id.clone(),
                variables: self.session.rules[position].variables.clone(),
            })
            .collect()
    }

    /// The elaborated formula of the rule at `position`.
    pub fn rule_formula(&self, position: usize) -> &Expr {
        &self.session.rules[position].expr
    }

    /// The values an enumeration variable can take.
    pub fn enum_values(&self, variable: &str) -> Option<&[String]> {
        self.session.vocabulary.values_of(variable)
    }

    /// Whether `name` is a declared variable of the model.
    pub fn is_variable(&self, name: &str) -> bool {
        self.session.vocabulary.is_variable(name)
    }

    /// The ids of rules at these positions, in natural order.
    pub fn rule_ids(&self, positions: &[usize]) -> Vec<String> {
        self.session.rule_names(positions)
    }

    /// Why the request stopped, once it has (deadline or cancel).
    pub fn stopped(&self) -> Option<String> {
        self.interruption.reason()
    }

    fn guard(&mut self, formula: &Bool) -> Fact {
        let literal = Bool::fresh_const("fact");
        let implication = literal.implies(formula);
        let fact = Fact(self.facts.len());
        match &mut self.focus {
            // The cone's solver gets it now, the small one when a check uses it.
            Some(focus) => focus.parked.assert(&implication),
            None => self.session.solver.assert(&implication),
        }
        self.fact_of_literal.insert(literal.to_string(), fact.0);
        self.facts.push(literal);
        self.implications.push(implication);
        fact
    }

    /// Runs the next checks over `rules` (positions in the cone) in a small
    /// solver of their own, until `unfocus` or a check over other rules.
    pub fn focus(&mut self, rules: &[usize]) {
        self.unfocus();
        let small = self.session.scratch_solver(rules);
        let parked = std::mem::replace(&mut self.session.solver, small);
        self.focus = Some(Focus {
            rules: rules.iter().copied().collect(),
            parked,
            asserted: HashSet::new(),
        });
    }

    /// Back to the cone's solver.
    pub fn unfocus(&mut self) {
        if let Some(focus) = self.focus.take() {
            self.session.solver = focus.parked;
        }
    }

    /// Prepares a check over `rules` with `facts`: leaves a focus that does
    /// not hold the rules, and gives the small solver the facts it lacks.
    fn prepare(&mut self, rules: &[usize], facts: &[Fact]) {
        if let Some(focus) = &self.focus
            && !rules.iter().all(|r| focus.rules.contains(r))
        {
            self.unfocus();
        }
        if let Some(focus) = &mut self.focus {
            for fact in facts {
                if focus.asserted.insert(fact.0) {
                    self.session.solver.assert(&self.implications[fact.0]);
                }
            }
        }
    }

    /// Asserts an elaborated Bool formula under a guard of its own.
    pub fn fact(&mut self, formula: &Expr) -> Result<Fact, SolveError> {
        let encoded = self.session.vocabulary.formula(formula)?;
        Ok(self.guard(&encoded))
    }

    /// Asserts a formula about the twin scenario (its variables renamed).
    pub fn twin_fact(&mut self, formula: &Expr) -> Result<Fact, SolveError> {
        let encoded = self.session.vocabulary.formula(formula)?;
        let names: Vec<String> = formula
            .symbols()
            .into_iter()
            .filter(|s| self.is_variable(s))
            .map(str::to_string)
            .collect();
        let twinned = self.on_twin(&encoded, &names);
        Ok(self.guard(&twinned))
    }

    /// Asserts, under one guard, the rules at `positions` on the twin.
    pub fn twin_rules(&mut self, positions: &[usize]) -> Fact {
        let mut parts = Vec::with_capacity(positions.len());
        for &position in positions {
            let rule = &self.session.rules[position];
            let (formula, names) = (rule.formula.clone(), rule.variables.clone());
            parts.push(self.on_twin(&formula, &names));
        }
        let all = Bool::and(&parts);
        self.guard(&all)
    }

    /// Asserts, under a guard, that `variable` has the same value in both
    /// scenarios.
    pub fn same_value(&mut self, variable: &str) -> Result<Fact, SolveError> {
        let original = self
            .session
            .vocabulary
            .constant(variable)
            .cloned()
            .ok_or_else(|| SolveError::Undecided(format!("unknown variable '{variable}'")))?;
        let twin = self.twin_of(variable, &original);
        let equal = original
            .safe_eq(twin)
            .map_err(|e| SolveError::Undecided(format!("{e:?}")))?;
        Ok(self.guard(&equal))
    }

    fn twin_of(&mut self, name: &str, original: &Dynamic) -> Dynamic {
        self.twins
            .entry(name.to_string())
            .or_insert_with(|| Dynamic::new_const(format!("{name}!twin"), &original.get_sort()))
            .clone()
    }

    fn on_twin(&mut self, formula: &Bool, names: &[String]) -> Bool {
        let mut pairs = Vec::with_capacity(names.len());
        for name in names {
            if let Some(original) = self.session.vocabulary.constant(name).cloned() {
                let twin = self.twin_of(name, &original);
                pairs.push((original, twin));
            }
        }
        let pairs: Vec<(&Dynamic, &Dynamic)> = pairs.iter().map(|(a, b)| (a, b)).collect();
        formula.substitute(&pairs)
    }

    /// Of `variables`, those with the same value in the scenario and its
    /// twin, in the model of the last satisfiable check (a variable without
    /// a twin has none to differ from, so it counts as agreeing).
    pub fn twins_agree_on(&self, variables: &[&str]) -> Result<HashSet<String>, SolveError> {
        let model = self.session.solver.get_model().ok_or(SolveError::NoModel)?;
        let mut agreeing = HashSet::new();
        for &name in variables {
            let same = match (self.session.vocabulary.constant(name), self.twins.get(name)) {
                (Some(original), Some(twin)) => {
                    match (model.eval(original, true), model.eval(twin, true)) {
                        (Some(a), Some(b)) => a.to_string() == b.to_string(),
                        _ => false,
                    }
                }
                _ => true,
            };
            if same {
                agreeing.insert(name.to_string());
            }
        }
        Ok(agreeing)
    }

    /// The rules at `rules` on, every other rule of the cone explicitly off
    /// (so a check over a few rules stays small), and the facts.
    fn assumptions(&self, rules: &[usize], facts: &[Fact]) -> Vec<Bool> {
        let on: HashSet<usize> = rules.iter().copied().collect();
        let mut all = self.session.literals(rules);
        let held: Vec<usize> = match &self.focus {
            Some(focus) => focus.rules.iter().copied().collect(),
            None => self.cone.clone(),
        };
        if on.len() < held.len() {
            all.extend(
                held.iter()
                    .filter(|r| !on.contains(r))
                    .map(|&r| self.session.rules[r].switched_off.clone()),
            );
        }
        all.extend(facts.iter().map(|f| self.facts[f.0].clone()));
        all
    }

    /// Checks the rules at `rules` (positions) with `facts`; a satisfying
    /// scenario shows the variables in `show`.
    pub fn check(
        &mut self,
        rules: &[usize],
        facts: &[Fact],
        show: &HashSet<String>,
    ) -> Result<Outcome, SolveError> {
        if let Some(reason) = self.interruption.reason() {
            return Err(SolveError::Undecided(reason));
        }
        self.prepare(rules, facts);
        let assumptions = self.assumptions(rules, facts);
        match self.session.check(&assumptions) {
            SatResult::Sat => Ok(Outcome::Sat(self.session.model_scenario(Some(show))?)),
            SatResult::Unsat => {
                let core: Vec<usize> = self
                    .session
                    .solver
                    .get_unsat_core()
                    .iter()
                    .filter_map(|l| self.fact_of_literal.get(&l.to_string()).copied())
                    .collect();
                let mut facts: Vec<Fact> = core.into_iter().map(Fact).collect();
                facts.sort_unstable();
                Ok(Outcome::Unsat {
                    rules: self.session.core_rules(),
                    facts,
                })
            }
            SatResult::Unknown => Err(SolveError::Undecided(
                self.session.unknown_reason(self.interruption),
            )),
        }
    }

    /// Every rule of the cone.
    pub fn cone(&self) -> &[usize] {
        &self.cone
    }

    /// Shrinks the rules of an unsat core (with `facts` fixed) to a minimal
    /// set, deletion by deletion as findings' rule sets are (each check
    /// bounded; a rule whose check runs out of its budget is kept); `true`
    /// when minimality is proved.
    pub fn minimize(
        &mut self,
        mut rules: Vec<usize>,
        facts: &[Fact],
    ) -> Result<(Vec<usize>, bool), SolveError> {
        let mut proved = true;
        let mut i = 0;
        while i < rules.len() {
            if let Some(reason) = self.interruption.reason() {
                return Err(SolveError::Undecided(reason));
            }
            let mut candidate = rules.clone();
            candidate.remove(i);
            self.prepare(&candidate, facts);
            let assumptions = self.assumptions(&candidate, facts);
            match self.session.bounded_check(&assumptions, self.interruption) {
                SatResult::Unsat => {
                    let smaller = self.session.core_rules();
                    rules = candidate
                        .into_iter()
                        .filter(|r| smaller.contains(r))
                        .collect();
                }
                SatResult::Sat => i += 1,
                SatResult::Unknown => {
                    if let Some(reason) = self.interruption.reason() {
                        return Err(SolveError::Undecided(reason));
                    }
                    proved = false;
                    i += 1;
                }
            }
        }
        Ok((rules, proved))
    }
}
