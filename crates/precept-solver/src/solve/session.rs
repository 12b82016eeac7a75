//! A solver session: one Z3 solver with the model loaded once, one assumption
//! literal per rule, so unsat cores name rules. It lives on one thread. The
//! findings algorithm itself is in `verify.rs`.

use super::base_model::{BaseModel, divides_by_a_term};
use super::encode::Z3Vocabulary;
use super::error::SolveError;
use super::group_answers::SharedAnswers;
pub use super::interruption::Interruption;
use super::preferences::{
    compared_constants, counts_things, preferred_values, thresholded_variables,
};
use crate::model::CompiledModel;
use crate::model::graph::RuleGraph;
use crate::smt::{Expr, Sort};
use num_rational::BigRational;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use z3::ast::Bool;
use z3::{Model, SatResult, Solver};

/// The time one auxiliary check may take: deciding whether a rule is needed
/// in a core, or whether the rules alone are consistent, can be much harder
/// than the question itself (dropping a rule can leave a hard non-linear
/// problem), so such checks are bounded.
pub(super) const AUXILIARY_CHECK_BUDGET: Duration = Duration::from_millis(300);

pub(super) struct GuardedRule {
    pub(super) id: String,
    pub(super) literal: Bool,
    /// `(not literal)`: assumed to switch the rule off explicitly while
    /// minimizing, so the solver never wanders into rules a check leaves out.
    pub(super) switched_off: Bool,
    pub(super) formula: Bool,
    /// The rule as written (elaborated), for evaluation outside Z3.
    pub(super) expr: Expr,
    /// The model variables the rule mentions.
    pub(super) variables: Vec<String>,
    /// The constants the rule compares variables with.
    constants: Vec<(String, BigRational)>,
    /// The variables the rule compares with a constant by an inequality.
    pub(super) thresholded: Vec<String>,
    /// Whether it divides by a term (`base_model::divides_by_a_term`).
    pub(super) divides_by_term: bool,
    /// Tells this version of the rule from any other (an edit makes a new one).
    pub(super) version: u64,
    /// What the rule says, as `rule_content` writes it (made on first use).
    pub(super) content: Option<Arc<str>>,
}

/// How many retired guards (from edited rules) to tolerate before rebuilding.
const REBUILD_AFTER_RETIRED: usize = 512;

pub struct SolverSession {
    pub(super) solver: Solver,
    pub(super) vocabulary: Z3Vocabulary,
    pub(super) rules: Vec<GuardedRule>,
    literal_owner: HashMap<String, usize>,
    retired: usize,
    /// The version the next rule made gets.
    next_version: u64,
    pub(super) timeout_ms: u64,
    /// Rule groups by shared variables (rebuilt after an edit).
    cones: Option<RuleGraph>,
    /// Whether the rules alone are satisfiable; `Some(None)` when the solver
    /// could not say in time (then every question uses every rule).
    pub(super) consistency: Option<Option<bool>>,
    /// Warm solvers per cone (the rule indices they hold), reused across
    /// questions; an edit gives those holding the edited rule its new
    /// formula (a removal drops them).
    cone_solvers: HashMap<Vec<usize>, ConeSolver>,
    /// The next question starts its cone's solver afresh (`start_fresh_cone`).
    fresh_cone: bool,
    /// Whether each group of rules is satisfiable alone, by the guard
    /// literals of its rules (a changed rule has a new one), so an edit
    /// leaves the other groups' answers standing.
    pub(super) consistent_groups: HashMap<Vec<u64>, bool>,
    /// The same answers by the groups' content, shared with the other
    /// workers of the pool (`group_answers.rs`).
    pub(super) shared_answers: Option<SharedAnswers>,
    /// Whether a premise or claim (by its text, and whether negated) is
    /// unsatisfiable on its own: it depends on no rule, so it outlives edits.
    pub(super) alone_answers: HashMap<(String, bool), bool>,
    /// The solver those are decided in, each inside a scope of its own.
    pub(super) alone: Option<Solver>,
    questions_asked: u64,
    /// Variables that count things (their scenarios prefer zero).
    counting: HashSet<String>,
    /// Each variable's preferred non-zero scenario value (rebuilt after an edit).
    preferred: Option<HashMap<String, BigRational>>,
}

/// A solver holding one cone's rules, with what past questions taught.
pub(super) struct ConeSolver {
    /// None while a question has it out (`take_cone_solver`).
    solver: Option<Solver>,
    /// Questions asked so far (each leaves a few retired guards behind).
    questions: usize,
    /// Int variables whose preference guard the rules alone refute.
    refuted: HashSet<String>,
    /// When it was last used (a counter), for eviction.
    last_used: u64,
    /// Preference guards already asserted in this solver, by variable.
    preferences: HashMap<String, Bool>,
    /// A scenario of its rules, for checks near a question (`near_check.rs`).
    base: Option<BaseModel>,
}

/// A cone solver is rebuilt after this many questions, dropping their
/// guards: each question leaves a few behind, and on a cone of a thousand
/// rules they slow every later check more than a rebuild now and then costs
/// (verify median 52–56 ms with 400, 38–46 ms with 100, `--bench scale`).
const QUESTIONS_PER_CONE_SOLVER: usize = 100;
/// At most this many cone solvers are kept (the least recently used goes)…
const MAX_CONE_SOLVERS: usize = 48;
/// …holding at most this many rules between them: each holds its cone's
/// rules, so on a large model they cost memory (a model of 20 groups of 75
/// rules keeps every group warm; one of a single group of 3,000, two).
const MAX_CONE_RULES_HELD: usize = 6_000;
/// A cone of at least this many rules may be served by a kept solver that
/// holds a few rule groups more (`take_cone_solver`).
const SHARED_CONE_RULES: usize = 64;

impl SolverSession {
    /// Loads a compiled model: declares its vocabulary and asserts each rule
    /// under its own guard literal.
    pub fn load(model: &CompiledModel, timeout_ms: u64) -> Result<SolverSession, SolveError> {
        // Z3 compacts every model it hands out unless told not to: on a warm
        // solver of a large cone that cost more than the check itself, and
        // a scenario reads only the variables' values, which compacting
        // leaves as they are. A process-wide setting, made once.
        static UNCOMPACTED_MODELS: std::sync::Once = std::sync::Once::new();
        UNCOMPACTED_MODELS.call_once(|| z3::set_global_param("model.compact", "false"));
        let vocabulary =
            Z3Vocabulary::from_vocabulary(&model.vocabulary, &model.enums, &model.variables);
        let mut session = SolverSession {
            solver: Solver::new(),
            vocabulary,
            rules: Vec::new(),
            literal_owner: HashMap::new(),
            retired: 0,
            next_version: 0,
            timeout_ms,
            cones: None,
            consistency: None,
            cone_solvers: HashMap::new(),
            fresh_cone: false,
            consistent_groups: HashMap::new(),
            shared_answers: None,
            alone_answers: HashMap::new(),
            alone: None,
            questions_asked: 0,
            counting: model
                .variables
                .iter()
                .filter(|(name, sort)| {
                    *sort == Sort::Int
                        && counts_things(
                            name,
                            model
                                .glossary
                                .variables
                                .get(name)
                                .map_or("", String::as_str),
                        )
                })
                .map(|(name, _)| name.clone())
                .collect(),
            preferred: None,
        };
        session.set_timeout(timeout_ms);
        for rule in &model.rules {
            session.add_rule(&rule.id, &rule.formula)?;
        }
        Ok(session)
    }

    /// A backstop to the watchdog off the worker: Z3's own timeout, a
    /// little longer (`check_gate::backstop_timeout`).
    pub fn set_timeout(&mut self, timeout_ms: u64) {
        self.timeout_ms = timeout_ms;
        super::check_gate::backstop_timeout(&self.solver, timeout_ms);
    }

    fn add_rule(&mut self, id: &str, formula: &Expr) -> Result<(), SolveError> {
        let rule = self.guarded_rule(id, formula)?;
        self.literal_owner
            .insert(rule.literal.to_string(), self.rules.len());
        self.rules.push(rule);
        self.forget_derived();
        Ok(())
    }

    /// The rule `id` as a guarded rule under a fresh literal, asserted in
    /// the whole model's solver.
    fn guarded_rule(&mut self, id: &str, formula: &Expr) -> Result<GuardedRule, SolveError> {
        let encoded = self.vocabulary.formula(formula)?;
        let literal = Bool::fresh_const("rule");
        self.solver.assert(literal.implies(&encoded));
        let switched_off = literal.not();
        let variables = formula
            .symbols()
            .into_iter()
            .filter(|s| self.vocabulary.is_variable(s))
            .map(str::to_string)
            .collect();
        Ok(GuardedRule {
            id: id.to_string(),
            literal,
            switched_off,
            formula: encoded,
            expr: formula.clone(),
            variables,
            constants: compared_constants(formula),
            thresholded: thresholded_variables(formula),
            divides_by_term: divides_by_a_term(formula),
            version: {
                self.next_version += 1;
                self.next_version
            },
            content: None,
        })
    }

    /// What the rules as a whole decide is worked out again after an edit:
    /// the scenario preferences, the groups and the consistency. The warm
    /// solvers of cones stay (an edit updates those it touches itself, see
    /// `replace_rule`), and so do the groups' consistency answers, kept by
    /// the content of the group.
    fn forget_derived(&mut self) {
        self.preferred = None;
        self.cones = None;
        self.consistency = None;
    }

    /// The next question decides its cone in a solver made afresh, with
    /// nothing learned from earlier questions: a test run starts each of
    /// its shares of tests so, and its findings then depend neither on the
    /// questions asked before nor on how the run was shared out.
    pub fn start_fresh_cone(&mut self) {
        self.fresh_cone = true;
    }

    /// The warm solver of a cone (made on first use), to be handed back with
    /// `return_cone_solver`. A large cone is served by a warm solver that
    /// holds it and a few rule groups more (`holding`), or by one that holds
    /// most of it, given the groups it lacks (`widened`): a cold solver of
    /// a thousand rules takes many times longer on its first check than a
    /// warm one, and the rules it holds beyond the question's are never
    /// assumed, so they change no finding.
    pub(super) fn take_cone_solver(&mut self, rules: &[usize]) -> Solver {
        self.questions_asked += 1;
        let now = self.questions_asked;
        // A share that starts afresh gets a cold solver of exactly its
        // cone, so its answers do not depend on what was asked before;
        // otherwise a large cone may be served by a kept, wider solver.
        let key = if std::mem::take(&mut self.fresh_cone) {
            self.cone_solvers.remove(rules);
            rules.to_vec()
        } else {
            self.widened(rules).unwrap_or_else(|| rules.to_vec())
        };
        let warm = match self.cone_solvers.get_mut(&key) {
            Some(cone) if cone.questions < QUESTIONS_PER_CONE_SOLVER => {
                cone.questions += 1;
                cone.last_used = now;
                cone.solver.take()
            }
            _ => None,
        };
        match warm {
            Some(solver) => solver,
            None => {
                let refuted = self
                    .cone_solvers
                    .remove(&key)
                    .map(|c| c.refuted)
                    .unwrap_or_default();
                self.make_room_for(key.len());
                let solver = self.scratch_solver(&key);
                self.cone_solvers.insert(
                    key,
                    ConeSolver {
                        solver: None,
                        questions: 1,
                        refuted,
                        last_used: now,
                        preferences: HashMap::new(),
                        base: None,
                    },
                );
                solver
            }
        }
    }

    /// The rules of the kept solver that serves `rules`: the cone itself,
    /// or for a large cone a kept solver holding all of it and not much
    /// more (`holding`).
    fn cone_key(&self, rules: &[usize]) -> Option<Vec<usize>> {
        if self.cone_solvers.contains_key(rules) {
            return Some(rules.to_vec());
        }
        self.holding(rules)
    }

    /// For a large cone, the smallest kept solver that holds every rule of
    /// it and at most a quarter more.
    fn holding(&self, rules: &[usize]) -> Option<Vec<usize>> {
        if rules.len() < SHARED_CONE_RULES {
            return None;
        }
        self.cone_solvers
            .keys()
            .filter(|held| held.len() * 4 <= rules.len() * 5)
            .filter(|held| rules.iter().all(|r| held.binary_search(r).is_ok()))
            .min_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)))
            .cloned()
    }

    /// The key of the kept solver for `rules`, after widening a kept solver
    /// that shares rule groups with a large cone by the groups it lacks
    /// (their rules asserted under their usual guards), when the union stays
    /// within a quarter more than the cone. `None`: no kept solver serves it.
    fn widened(&mut self, rules: &[usize]) -> Option<Vec<usize>> {
        if let Some(key) = self.cone_key(rules) {
            return Some(key);
        }
        if rules.len() < SHARED_CONE_RULES {
            return None;
        }
        let (held, missing) = self
            .cone_solvers
            .iter()
            .filter(|(_, c)| c.questions < QUESTIONS_PER_CONE_SOLVER && c.solver.is_some())
            .filter_map(|(held, _)| {
                let missing: Vec<usize> = rules
                    .iter()
                    .copied()
                    .filter(|r| held.binary_search(r).is_err())
                    .collect();
                let union = held.len() + missing.len();
                (missing.len() < rules.len() && union * 4 <= rules.len() * 5)
                    .then(|| (held.clone(), missing))
            })
            .min_by(|a, b| (a.1.len(), &a.0).cmp(&(b.1.len(), &b.0)))?;
        let cone = self.cone_solvers.remove(&held)?;
        if let Some(solver) = &cone.solver {
            for &r in &missing {
                let rule = &self.rules[r];
                solver.assert(rule.literal.implies(&rule.formula));
            }
        }
        let mut key = held;
        key.extend(missing);
        key.sort_unstable();
        self.cone_solvers.insert(key.clone(), cone);
        Some(key)
    }

    /// Drops the least recently used cone solvers until one of `rules` more
    /// fits the limits.
    fn make_room_for(&mut self, rules: usize) {
        loop {
            let held: usize = self.cone_solvers.keys().map(Vec::len).sum();
            let full =
                self.cone_solvers.len() >= MAX_CONE_SOLVERS || held + rules > MAX_CONE_RULES_HELD;
            let oldest = self
                .cone_solvers
                .iter()
                .min_by_key(|(_, c)| c.last_used)
                .map(|(k, _)| k.clone());
            match (full, oldest) {
                (true, Some(oldest)) => {
                    self.cone_solvers.remove(&oldest);
                }
                _ => return,
            }
        }
    }

    /// After the rule at `position` changed: the kept cone solvers that hold
    /// it get its new formula under its new guard, so they stay warm (the
    /// old guard is never assumed again, and counts as one more question
    /// towards the solver's rebuild). Their scenario preferences are made
    /// anew on next use, as the edit may change the constants a preference
    /// comes from, and so are the preferences the rules alone refute.
    fn refresh_cones_holding(&mut self, position: usize) {
        let rule = &self.rules[position];
        let guarded = rule.literal.implies(&rule.formula);
        self.cone_solvers.retain(|held, cone| {
            if held.binary_search(&position).is_err() {
                return true;
            }
            let Some(solver) = &cone.solver else {
                return false;
            };
            solver.assert(&guarded);
            cone.preferences.clear();
            cone.refuted.clear();
            // The edited rule may be false in it.
            cone.base = None;
            cone.questions += 1;
            true
        });
    }

    /// Drops the cone solvers that hold the rule at `position`, removed;
    /// the positions after it move down by one in the others' keys.
    fn forget_cones_holding(&mut self, position: usize) {
        let kept = std::mem::take(&mut self.cone_solvers);
        self.cone_solvers = kept
            .into_iter()
            .filter(|(rules, _)| rules.binary_search(&position).is_err())
            .map(|(rules, mut cone)| {
                // Its base model names rules by their old positions.
                cone.base = None;
                let moved = rules
                    .into_iter()
                    .map(|r| if r > position { r - 1 } else { r })
                    .collect();
                (moved, cone)
            })
            .collect();
    }

    /// Drops a cone's warm solver and what it learned, as if never made.
    pub(super) fn forget_cone_solver(&mut self, rules: &[usize]) {
        if let Some(key) = self.cone_key(rules) {
            self.cone_solvers.remove(&key);
        }
    }

    pub(super) fn return_cone_solver(&mut self, rules: &[usize], solver: Solver) {
        if let Some(key) = self.cone_key(rules)
            && let Some(cone) = self.cone_solvers.get_mut(&key)
        {
            cone.solver = Some(solver);
        }
    }

    fn cone_entry(&self, rules: &[usize]) -> Option<&ConeSolver> {
        self.cone_key(rules)
            .and_then(|key| self.cone_solvers.get(&key))
    }

    pub(super) fn refuted_preferences(&self, rules: &[usize]) -> std::collections::HashSet<String> {
        self.cone_entry(rules)
            .map(|c| c.refuted.clone())
            .unwrap_or_default()
    }

    /// The non-zero value a scenario prefers for the variable `name`, as
    /// `preferences.rs` derives it from the rules; `None` when the rules
    /// suggest none (an Int then prefers zero, a Real nothing).
    pub(super) fn preferred_value(&mut self, name: &str) -> Option<BigRational> {
        let rules = &self.rules;
        let counting = &self.counting;
        self.preferred
            .get_or_insert_with(|| {
                preferred_values(rules.iter().map(|r| r.constants.as_slice()), &|n| {
                    counting.contains(n)
                })
            })
            .get(name)
            .cloned()
    }

    /// The preference guard of `name` in the cone's solver (which must be
    /// the current solver), asserted on first use and then reused.
    pub(super) fn preference_guard(&mut self, rules: &[usize], name: &str, formula: &Bool) -> Bool {
        if let Some(literal) = self.cone_entry(rules).and_then(|c| c.preferences.get(name)) {
            return literal.clone();
        }
        let literal = Bool::fresh_const("prefer");
        self.solver.assert(literal.implies(formula));
        if let Some(key) = self.cone_key(rules)
            && let Some(cone) = self.cone_solvers.get_mut(&key)
        {
            cone.preferences.insert(name.to_string(), literal.clone());
        }
        literal
    }

    /// The base model of the kept solver that serves `rules`, if it has one.
    pub(super) fn base_model(&self, rules: &[usize]) -> Option<&BaseModel> {
        self.cone_entry(rules).and_then(|c| c.base.as_ref())
    }

    /// Keeps `model`, a scenario of every rule of `rules`, as the base model
    /// of the solver that serves them, unless its base model covers them.
    pub(super) fn keep_base_model(&mut self, rules: &[usize], model: Model) {
        if let Some(key) = self.cone_key(rules)
            && let Some(cone) = self.cone_solvers.get_mut(&key)
            && !cone.base.as_ref().is_some_and(|base| base.covers(rules))
        {
            cone.base = Some(BaseModel {
                rules: rules.to_vec(),
                model,
            });
        }
    }

    pub(super) fn remember_refuted(&mut self, rules: &[usize], names: &[String]) {
        if let Some(key) = self.cone_key(rules)
            && let Some(cone) = self.cone_solvers.get_mut(&key)
        {
            cone.refuted.extend(names.iter().cloned());
        }
    }

    /// Replaces (or adds, or with `None` removes) one rule: asserts the new
    /// formula under a fresh guard and retires the old guard. The rest of the
    /// model stays loaded.
    pub fn replace_rule(&mut self, id: &str, formula: Option<&Expr>) -> Result<(), SolveError> {
        // Encode first: a formula that cannot be encoded leaves the old rule in place.
        if let Some(formula) = formula {
            self.vocabulary.formula(formula)?;
        }
        match (self.rules.iter().position(|r| r.id == id), formula) {
            // Changed in place: the rule keeps its position, as in the
            // model, so the cones that do not hold it keep their solvers.
            (Some(index), Some(formula)) => {
                let rule = self.guarded_rule(id, formula)?;
                self.literal_owner
                    .remove(&self.rules[index].literal.to_string());
                self.literal_owner.insert(rule.literal.to_string(), index);
                self.rules[index] = rule;
                self.retired += 1;
                self.refresh_cones_holding(index);
                // The groups are relinked at the rule, not built again.
                let variables = &self.rules[index].variables;
                let cones = self.cones.take().and_then(|mut cones| {
                    cones
                        .relink_rule(&index.to_string(), variables.iter().map(String::as_str))
                        .then_some(cones)
                });
                self.forget_derived();
                self.cones = cones;
            }
            (Some(index), None) => {
                self.rules.remove(index);
                self.retired += 1;
                self.literal_owner = self
                    .rules
                    .iter()
                    .enumerate()
                    .map(|(i, r)| (r.literal.to_string(), i))
                    .collect();
                self.forget_cones_holding(index);
                self.forget_derived();
            }
            (None, Some(formula)) => self.add_rule(id, formula)?,
            (None, None) => {}
        }
        if self.retired > REBUILD_AFTER_RETIRED {
            self.rebuild();
        }
        Ok(())
    }

    /// Declares a variable added after loading (e.g. in the workbench).
    pub fn declare_variable(&mut self, name: &str, sort: &Sort) {
        self.vocabulary.declare_variable(name, sort);
        if *sort == Sort::Int && counts_things(name, "") {
            self.counting.insert(name.to_string());
        }
    }

    /// Drops retired guards by asserting the live rules into a fresh solver.
    fn rebuild(&mut self) {
        let fresh = Solver::new();
        for rule in &self.rules {
            fresh.assert(rule.literal.implies(&rule.formula));
        }
        self.solver = fresh;
        self.retired = 0;
        self.set_timeout(self.timeout_ms);
    }

    /// A fresh solver holding only `rules` (under their usual guards).
    pub(super) fn scratch_solver(&self, rules: &[usize]) -> Solver {
        let scratch = Solver::new();
        super::check_gate::backstop_timeout(&scratch, self.timeout_ms);
        for &r in rules {
            scratch.assert(self.rules[r].literal.implies(&self.rules[r].formula));
        }
        scratch
    }

    pub(super) fn check(&self, assumptions: &[Bool]) -> SatResult {
        super::check_gate::gated_check(&self.solver, assumptions)
    }

    pub(super) fn literals(&self, rules: &[usize]) -> Vec<Bool> {
        rules
            .iter()
            .map(|&r| self.rules[r].literal.clone())
            .collect()
    }

    /// The rule indices among the unsat core of the last check.
    pub(super) fn core_rules(&self) -> Vec<usize> {
        let mut indices: Vec<usize> = self
            .solver
            .get_unsat_core()
            .iter()
            .filter_map(|l| self.literal_owner.get(&l.to_string()).copied())
            .collect();
        indices.sort_unstable();
        indices.dedup();
        indices
    }

    /// One check bounded by the auxiliary budget; unknown when over it.
    pub(super) fn bounded_check(
        &self,
        assumptions: &[Bool],
        interruption: &dyn Interruption,
    ) -> SatResult {
        // Never more than a quarter of the request's own deadline.
        let budget = AUXILIARY_CHECK_BUDGET.min(Duration::from_millis(self.timeout_ms / 4));
        self.check_within(assumptions, budget, interruption)
    }

    /// One check stopped after `budget` (answering unknown then).
    pub(super) fn check_within(
        &self,
        assumptions: &[Bool],
        budget: Duration,
        interruption: &dyn Interruption,
    ) -> SatResult {
        interruption.limit_checks(Some(budget));
        interruption.start_check();
        let result = self.check(assumptions);
        interruption.limit_checks(None);
        result
    }

    pub(super) fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }

    pub(super) fn unknown_reason(&self, interruption: &dyn Interruption) -> String {
        interruption
            .reason()
            .or_else(|| self.solver.get_reason_unknown())
            .unwrap_or_else(|| "the solver could not decide".to_string())
    }

    pub(super) fn rule_names(&self, indices: &[usize]) -> Vec<String> {
        let mut names: Vec<String> = indices.iter().map(|&i| self.rules[i].id.clone()).collect();
        names.sort_by(|a, b| crate::model::natural_order(a, b));
        names
    }

    /// The rules in the same group as `rule` (itself included).
    pub(super) fn group_of(&mut self, rule: usize) -> Vec<usize> {
        let variables = self.rules[rule].variables.clone();
        if variables.is_empty() {
            return vec![rule];
        }
        let names: Vec<&str> = variables.iter().map(String::as_str).collect();
        self.rules_touching(&names)
    }

    /// The rules whose group mentions any of `variables`.
    pub(super) fn rules_touching(&mut self, variables: &[&str]) -> Vec<usize> {
        self.rule_graph().rules_touching(variables.iter().copied())
    }

    /// The rules linked by the variables they share (built on first use
    /// after an edit that could not relink it).
    pub(super) fn rule_graph(&mut self) -> &RuleGraph {
        let rules = &self.rules;
        self.cones.get_or_insert_with(|| {
            RuleGraph::from_rule_variables(rules.iter().map(|r| r.variables.as_slice()))
        })
    }
}
