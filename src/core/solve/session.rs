//! A solver session: one Z3 solver with the model loaded once, one assumption
//! literal per rule, so unsat cores name rules. It lives on one thread.

use super::encode::Z3Vocabulary;
use super::finding::{Finding, FindingKind, LogicWarning, Scenario};
use crate::core::model::CompiledModel;
use crate::core::smt::{Expr, ExprKind, Sort};
use std::collections::HashMap;
use z3::ast::Bool;
use z3::{SatResult, Solver};

/// Why a check stopped without an answer, as the worker reports it.
pub trait Interruption {
    /// `Some(reason)` once the current request has run out of time or was cancelled.
    fn reason(&self) -> Option<String>;
    /// Limits the next checks to `budget` (None lifts the limit). A check
    /// stopped by this budget answers unknown without ending the request.
    fn limit_checks(&self, budget: Option<std::time::Duration>);
    /// Marks the start of one check, so a check budget counts from now.
    fn start_check(&self);
}

/// The time one check may take while minimizing a rule set. Deciding whether
/// a rule is needed can be much harder than the question itself (dropping a
/// rule can leave a hard non-linear problem), so each such check is bounded.
const MINIMIZE_CHECK_BUDGET: std::time::Duration = std::time::Duration::from_millis(300);

struct GuardedRule {
    id: String,
    literal: Bool,
    /// `(not literal)`: assumed to switch the rule off explicitly, so the
    /// solver never wanders into rules a check leaves out.
    switched_off: Bool,
    formula: Bool,
}

/// At most this many Int variables get a prefer-zero guard per request.
const MAX_PREFERENCES: usize = 64;
/// At most this many extra checks are spent honouring preferences.
const PREFERENCE_ROUNDS: usize = 4;

/// How many retired guards (from edited rules) to tolerate before rebuilding.
const REBUILD_AFTER_RETIRED: usize = 512;

pub struct SolverSession {
    solver: Solver,
    vocabulary: Z3Vocabulary,
    rules: Vec<GuardedRule>,
    literal_owner: HashMap<String, usize>,
    retired: usize,
    timeout_ms: u64,
}

impl SolverSession {
    /// Loads a compiled model: declares its vocabulary and asserts each rule
    /// under its own guard literal.
    pub fn load(model: &CompiledModel, timeout_ms: u64) -> Result<SolverSession, String> {
        let solver = Solver::new();
        let vocabulary =
            Z3Vocabulary::from_vocabulary(&model.vocabulary, &model.enums, &model.variables);
        let mut session = SolverSession {
            solver,
            vocabulary,
            rules: Vec::new(),
            literal_owner: HashMap::new(),
            retired: 0,
            timeout_ms,
        };
        session.set_timeout(timeout_ms);
        for rule in &model.rules {
            session.add_rule(&rule.id, &rule.formula)?;
        }
        Ok(session)
    }

    /// A backstop to the watchdog: Z3's own timeout, a little longer.
    pub fn set_timeout(&mut self, timeout_ms: u64) {
        self.timeout_ms = timeout_ms;
        let mut params = z3::Params::new();
        params.set_u32(
            "timeout",
            u32::try_from(timeout_ms.saturating_add(250)).unwrap_or(u32::MAX),
        );
        self.solver.set_params(&params);
    }

    fn add_rule(&mut self, id: &str, formula: &Expr) -> Result<(), String> {
        let encoded = self.vocabulary.formula(formula)?;
        let literal = Bool::fresh_const("rule");
        self.solver.assert(literal.implies(&encoded));
        self.literal_owner
            .insert(literal.to_string(), self.rules.len());
        let switched_off = literal.not();
        self.rules.push(GuardedRule {
            id: id.to_string(),
            literal,
            switched_off,
            formula: encoded,
        });
        Ok(())
    }

    /// Replaces (or adds, or with `None` removes) one rule: asserts the new
    /// formula under a fresh guard and retires the old guard. The rest of the
    /// model stays loaded.
    pub fn replace_rule(&mut self, id: &str, formula: Option<&Expr>) -> Result<(), String> {
        if let Some(index) = self.rules.iter().position(|r| r.id == id) {
            self.rules.remove(index);
            self.retired += 1;
            self.reindex();
        }
        if let Some(formula) = formula {
            self.add_rule(id, formula)?;
        }
        if self.retired > REBUILD_AFTER_RETIRED {
            self.rebuild()?;
        }
        Ok(())
    }

    /// Declares a variable added after loading (e.g. in the workbench).
    pub fn declare_variable(&mut self, name: &str, sort: &Sort) {
        self.vocabulary.declare_variable(name, sort);
    }

    fn reindex(&mut self) {
        self.literal_owner = self
            .rules
            .iter()
            .enumerate()
            .map(|(i, r)| (r.literal.to_string(), i))
            .collect();
    }

    /// Drops retired guards by asserting the live rules into a fresh solver.
    fn rebuild(&mut self) -> Result<(), String> {
        let fresh = Solver::new();
        for rule in &self.rules {
            fresh.assert(rule.literal.implies(&rule.formula));
        }
        self.solver = fresh;
        self.retired = 0;
        self.set_timeout(self.timeout_ms);
        Ok(())
    }

    fn check(&self, assumptions: &[Bool]) -> SatResult {
        self.solver.check_assumptions(assumptions)
    }

    fn all_rule_literals(&self) -> Vec<Bool> {
        self.rules.iter().map(|r| r.literal.clone()).collect()
    }

    /// The rule indices among the unsat core of the last check.
    fn core_rules(&self) -> Vec<usize> {
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

    /// Shrinks an unsat core of rules to a minimal one (deletion-based): every
    /// rule left is needed for unsatisfiability together with `fixed`.
    /// Returns the rules and whether minimality is proved: a rule whose check
    /// ran out of its budget is kept, and then the set may not be minimal.
    fn minimize(
        &self,
        core: Vec<usize>,
        fixed: &[Bool],
        interruption: &dyn Interruption,
    ) -> Result<(Vec<usize>, bool), String> {
        interruption.limit_checks(Some(MINIMIZE_CHECK_BUDGET));
        let result = self.minimize_within_budget(core, fixed, interruption);
        interruption.limit_checks(None);
        result
    }

    fn minimize_within_budget(
        &self,
        mut core: Vec<usize>,
        fixed: &[Bool],
        interruption: &dyn Interruption,
    ) -> Result<(Vec<usize>, bool), String> {
        let mut proved_minimal = true;
        let mut i = 0;
        while i < core.len() {
            if let Some(reason) = interruption.reason() {
                return Err(reason);
            }
            let candidate: Vec<usize> = core
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &r)| r)
                .collect();
            let mut assumptions: Vec<Bool> = fixed.to_vec();
            let mut included = vec![false; self.rules.len()];
            for &r in &candidate {
                included[r] = true;
            }
            assumptions.extend(self.rules.iter().zip(&included).map(|(rule, &on)| {
                if on {
                    rule.literal.clone()
                } else {
                    rule.switched_off.clone()
                }
            }));
            interruption.start_check();
            match self.check(&assumptions) {
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
                        return Err(reason);
                    }
                    proved_minimal = false;
                    i += 1;
                }
            }
        }
        Ok((core, proved_minimal))
    }

    fn unknown_reason(&self, interruption: &dyn Interruption) -> String {
        interruption
            .reason()
            .or_else(|| self.solver.get_reason_unknown())
            .unwrap_or_else(|| "the solver could not decide".to_string())
    }

    fn rule_names(&self, indices: &[usize]) -> Vec<String> {
        let mut names: Vec<String> = indices.iter().map(|&i| self.rules[i].id.clone()).collect();
        names.sort_by(|a, b| natural_order(a, b));
        names
    }

    /// Computes the finding for premise P and claim C (both elaborated Bool
    /// formulas), exactly as DESIGN.md defines it.
    pub fn verify(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        interruption: &dyn Interruption,
    ) -> Finding {
        let premise_text = premise.to_string();
        let claim_text = claim.to_string();
        self.solver.push();
        let result = self.verify_inside(premise, claim, interruption);
        self.solver.pop(1);
        match result {
            Ok(finding) => finding,
            Err(reason) => Finding::too_complex(&premise_text, &claim_text, reason),
        }
    }

    fn verify_inside(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        interruption: &dyn Interruption,
    ) -> Result<Finding, String> {
        let p = self.vocabulary.formula(premise)?;
        let c = self.vocabulary.formula(claim)?;
        let guard = |name: &str, formula: &Bool| {
            let literal = Bool::fresh_const(name);
            self.solver.assert(literal.implies(formula));
            literal
        };
        let premise_holds = guard("premise", &p);
        let premise_fails = guard("not_premise", &p.not());
        let claim_holds = guard("claim", &c);
        let claim_fails = guard("not_claim", &c.not());

        let mut finding = Finding::new(
            FindingKind::Satisfiable,
            &premise.to_string(),
            &claim.to_string(),
        );
        finding.warnings = self.logic_warnings(
            premise,
            [&premise_holds, &premise_fails, &claim_holds, &claim_fails],
            interruption,
        )?;

        let preferences = self.zero_preferences();
        let rules = self.all_rule_literals();
        let with = |extra: &[&Bool]| -> Vec<Bool> {
            let mut all = rules.clone();
            all.extend(extra.iter().map(|b| (*b).clone()));
            all
        };

        // 1. M ∧ P
        match self.check(&with(&[&premise_holds])) {
            SatResult::Unsat => {
                let core = self.core_rules();
                finding.kind = FindingKind::Impossible;
                let (minimal, proved) =
                    self.minimize(core, std::slice::from_ref(&premise_holds), interruption)?;
                finding.contradicting_rules = self.rule_names(&minimal);
                finding.rules_minimal = proved;
                interruption.limit_checks(Some(MINIMIZE_CHECK_BUDGET));
                interruption.start_check();
                let alone = self.check(&rules);
                interruption.limit_checks(None);
                finding.policy_inconsistent = match alone {
                    SatResult::Unsat => Some(true),
                    SatResult::Sat => Some(false),
                    SatResult::Unknown => match interruption.reason() {
                        Some(reason) => return Err(reason),
                        None => None,
                    },
                };
                return Ok(finding);
            }
            SatResult::Unknown => return Err(self.unknown_reason(interruption)),
            SatResult::Sat => {}
        }

        // 2. M ∧ P ∧ ¬C
        let claims_false = match self.check(&with(&[&premise_holds, &claim_fails])) {
            SatResult::Unsat => {
                let core = self.core_rules();
                let (minimal, proved) = self.minimize(
                    core,
                    &[premise_holds.clone(), claim_fails.clone()],
                    interruption,
                )?;
                finding.kind = FindingKind::Valid;
                finding.supporting_rules = self.rule_names(&minimal);
                finding.rules_minimal = proved;
                None
            }
            SatResult::Sat => {
                Some(self.preferred_scenario(&with(&[&premise_holds, &claim_fails]), &preferences)?)
            }
            SatResult::Unknown => return Err(self.unknown_reason(interruption)),
        };

        // 3. M ∧ P ∧ C
        let claims_true = match self.check(&with(&[&premise_holds, &claim_holds])) {
            SatResult::Unsat => {
                let core = self.core_rules();
                let (minimal, proved) = self.minimize(
                    core,
                    &[premise_holds.clone(), claim_holds.clone()],
                    interruption,
                )?;
                finding.kind = FindingKind::Invalid;
                finding.contradicting_rules = self.rule_names(&minimal);
                finding.rules_minimal = proved;
                None
            }
            SatResult::Sat => {
                Some(self.preferred_scenario(&with(&[&premise_holds, &claim_holds]), &preferences)?)
            }
            SatResult::Unknown => return Err(self.unknown_reason(interruption)),
        };
        // VALID and INVALID cannot both hold once M ∧ P is satisfiable.
        finding.claims_true_scenario = claims_true;
        finding.claims_false_scenario = claims_false;
        Ok(finding)
    }

    /// Guards that ask each Int variable (a count: units, days, people) to be
    /// zero. Scenarios honour them where the rules allow, so a scenario shows
    /// what *must* happen rather than arbitrary solver choices.
    fn zero_preferences(&self) -> Vec<Bool> {
        self.vocabulary
            .int_variables()
            .take(MAX_PREFERENCES)
            .map(|variable| {
                let literal = Bool::fresh_const("prefer_zero");
                self.solver
                    .assert(literal.implies(variable.eq(z3::ast::Int::from_i64(0))));
                literal
            })
            .collect()
    }

    /// A scenario for the satisfiable `assumptions` that keeps as many
    /// preferences as it can: preferences in an unsat core are dropped and
    /// the check repeated, a few rounds at most.
    fn preferred_scenario(
        &self,
        assumptions: &[Bool],
        preferences: &[Bool],
    ) -> Result<Scenario, String> {
        let mut active: Vec<Bool> = preferences.to_vec();
        for _ in 0..PREFERENCE_ROUNDS {
            if active.is_empty() {
                break;
            }
            let mut all = assumptions.to_vec();
            all.extend(active.iter().cloned());
            match self.check(&all) {
                SatResult::Sat => return self.model_scenario(),
                SatResult::Unsat => {
                    let core: Vec<String> = self
                        .solver
                        .get_unsat_core()
                        .iter()
                        .map(|l| l.to_string())
                        .collect();
                    let before = active.len();
                    active.retain(|l| !core.contains(&l.to_string()));
                    if active.len() == before {
                        break;
                    }
                }
                SatResult::Unknown => break,
            }
        }
        match self.check(assumptions) {
            SatResult::Sat => self.model_scenario(),
            _ => Err(self
                .solver
                .get_reason_unknown()
                .unwrap_or_else(|| "the solver could not decide".into())),
        }
    }

    fn model_scenario(&self) -> Result<Scenario, String> {
        self.solver
            .get_model()
            .map(|m| self.vocabulary.scenario(&m))
            .ok_or_else(|| "the solver gave no model".to_string())
    }

    /// Checks a premise or claim guard with every rule switched off.
    fn check_alone(&self, literal: &Bool) -> SatResult {
        let mut assumptions: Vec<Bool> =
            self.rules.iter().map(|r| r.switched_off.clone()).collect();
        assumptions.push(literal.clone());
        self.check(&assumptions)
    }

    /// Premise or claim always true or always false on their own (no rules).
    fn logic_warnings(
        &self,
        premise: &Expr,
        [premise_holds, premise_fails, claim_holds, claim_fails]: [&Bool; 4],
        interruption: &dyn Interruption,
    ) -> Result<Vec<LogicWarning>, String> {
        // An empty premise (`true`) is the usual way to ask about the policy alone.
        let premise_is_literal_true = matches!(premise.kind, ExprKind::Bool(true));
        let mut warnings = Vec::new();
        let checks = [
            (premise_fails, LogicWarning::PremiseAlwaysTrue),
            (premise_holds, LogicWarning::PremiseAlwaysFalse),
            (claim_fails, LogicWarning::ClaimAlwaysTrue),
            (claim_holds, LogicWarning::ClaimAlwaysFalse),
        ];
        for (literal, warning) in checks {
            if warning == LogicWarning::PremiseAlwaysTrue && premise_is_literal_true {
                continue;
            }
            match self.check_alone(literal) {
                SatResult::Unsat => warnings.push(warning),
                SatResult::Sat => {}
                SatResult::Unknown => return Err(self.unknown_reason(interruption)),
            }
        }
        Ok(warnings)
    }
}

/// Orders `R2` before `R10`.
pub fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    let split = |s: &str| {
        let digits_at = s.find(|c: char| c.is_ascii_digit()).unwrap_or(s.len());
        let (prefix, digits) = s.split_at(digits_at);
        (
            prefix.to_string(),
            digits.parse::<u64>().unwrap_or(0),
            s.to_string(),
        )
    };
    split(a).cmp(&split(b))
}
