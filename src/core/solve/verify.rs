//! The findings algorithm (DESIGN.md, "Findings"): IMPOSSIBLE, VALID,
//! INVALID or SATISFIABLE with minimal rule sets and scenarios, logic
//! warnings, and TOO_COMPLEX when the solver gives up.

use super::finding::{Finding, FindingKind, LogicWarning, Scenario};
use super::session::{Interruption, SolverSession};
use crate::core::smt::{Expr, ExprKind};
use std::collections::HashSet;
use z3::SatResult;
use z3::ast::Bool;

/// At most this many Int variables get a prefer-zero guard per request.
const MAX_PREFERENCES: usize = 64;
/// At most this many extra checks are spent honouring preferences.
const PREFERENCE_ROUNDS: usize = 4;

/// The rules and variables a question involves, and what is known about
/// the policy's consistency.
struct Scope {
    rules: Vec<usize>,
    /// None: every variable (the policy's consistency is unknown or false).
    variables: Option<HashSet<String>>,
    consistency: Option<bool>,
}

/// The premise and claim, each guarded both ways.
struct Guards {
    premise_holds: Bool,
    premise_fails: Bool,
    claim_holds: Bool,
    claim_fails: Bool,
}

impl SolverSession {
    /// Computes the finding for premise P and claim C (both elaborated Bool
    /// formulas). The question is decided in a scratch solver holding only
    /// the rules it can depend on (all of them when the policy's consistency
    /// is unknown): the encoded rules are shared, the scratch is cheap, and a
    /// question about one section of a long policy stays fast.
    pub fn verify(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        interruption: &dyn Interruption,
    ) -> Finding {
        let result = self.scoped(premise, claim, interruption).and_then(|scope| {
            let scratch = self.scratch_solver(&scope.rules);
            let whole_model = std::mem::replace(&mut self.solver, scratch);
            let result = self.verify_inside(premise, claim, &scope, interruption);
            self.solver = whole_model;
            result
        });
        result.unwrap_or_else(|reason| {
            Finding::too_complex(&premise.to_string(), &claim.to_string(), reason)
        })
    }

    fn guard(&self, name: &str, formula: &Bool) -> Bool {
        let literal = Bool::fresh_const(name);
        self.solver.assert(literal.implies(formula));
        literal
    }

    /// Which rules and variables a question involves.
    fn scoped(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        interruption: &dyn Interruption,
    ) -> Result<Scope, String> {
        let consistency = self.consistency(interruption)?;
        if consistency != Some(true) {
            return Ok(Scope {
                rules: (0..self.rules.len()).collect(),
                variables: None,
                consistency,
            });
        }
        let mut question: Vec<&str> = premise
            .symbols()
            .into_iter()
            .chain(claim.symbols())
            .filter(|s| self.vocabulary.is_variable(s))
            .collect();
        question.dedup();
        let rules = self.rules_touching(&question);
        let mut variables: HashSet<String> = question.iter().map(|s| s.to_string()).collect();
        for &r in &rules {
            variables.extend(self.rules[r].variables.iter().cloned());
        }
        Ok(Scope {
            rules,
            variables: Some(variables),
            consistency,
        })
    }

    fn verify_inside(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        scope: &Scope,
        interruption: &dyn Interruption,
    ) -> Result<Finding, String> {
        let p = self.vocabulary.formula(premise)?;
        let c = self.vocabulary.formula(claim)?;
        let guards = Guards {
            premise_holds: self.guard("premise", &p),
            premise_fails: self.guard("not_premise", &p.not()),
            claim_holds: self.guard("claim", &c),
            claim_fails: self.guard("not_claim", &c.not()),
        };
        let mut finding = Finding::new(
            FindingKind::Satisfiable,
            &premise.to_string(),
            &claim.to_string(),
        );
        finding.warnings = self.logic_warnings(premise, &guards, interruption)?;
        if scope.consistency == Some(false) {
            return self.inconsistent_policy(finding, interruption);
        }
        let rules = self.literals(&scope.rules);
        let with = |extra: &[&Bool]| -> Vec<Bool> {
            let mut all = rules.clone();
            all.extend(extra.iter().map(|b| (*b).clone()));
            all
        };
        let variables = scope.variables.as_ref();
        let preferences = self.zero_preferences(variables);

        // 1. M ∧ P
        match self.check(&with(&[&guards.premise_holds])) {
            SatResult::Unsat => {
                let (minimal, proved) = self.minimize(
                    self.core_rules(),
                    std::slice::from_ref(&guards.premise_holds),
                    interruption,
                )?;
                finding.kind = FindingKind::Impossible;
                finding.contradicting_rules = self.rule_names(&minimal);
                finding.rules_minimal = proved;
                finding.policy_inconsistent = scope.consistency.map(|consistent| !consistent);
                return Ok(finding);
            }
            SatResult::Unknown => return Err(self.unknown_reason(interruption)),
            SatResult::Sat => {}
        }
        // 2. M ∧ P ∧ ¬C
        let claims_false = match self.check(&with(&[&guards.premise_holds, &guards.claim_fails])) {
            SatResult::Unsat => {
                let (minimal, proved) = self.minimize(
                    self.core_rules(),
                    &[guards.premise_holds.clone(), guards.claim_fails.clone()],
                    interruption,
                )?;
                finding.kind = FindingKind::Valid;
                finding.supporting_rules = self.rule_names(&minimal);
                finding.rules_minimal = proved;
                None
            }
            SatResult::Sat => Some(self.preferred_scenario(
                &with(&[&guards.premise_holds, &guards.claim_fails]),
                &preferences,
                variables,
            )?),
            SatResult::Unknown => return Err(self.unknown_reason(interruption)),
        };
        // 3. M ∧ P ∧ C
        let claims_true = match self.check(&with(&[&guards.premise_holds, &guards.claim_holds])) {
            SatResult::Unsat => {
                let (minimal, proved) = self.minimize(
                    self.core_rules(),
                    &[guards.premise_holds.clone(), guards.claim_holds.clone()],
                    interruption,
                )?;
                finding.kind = FindingKind::Invalid;
                finding.contradicting_rules = self.rule_names(&minimal);
                finding.rules_minimal = proved;
                None
            }
            SatResult::Sat => Some(self.preferred_scenario(
                &with(&[&guards.premise_holds, &guards.claim_holds]),
                &preferences,
                variables,
            )?),
            SatResult::Unknown => return Err(self.unknown_reason(interruption)),
        };
        // Once M ∧ P is satisfiable, VALID and INVALID exclude each other.
        finding.claims_true_scenario = claims_true;
        finding.claims_false_scenario = claims_false;
        Ok(finding)
    }

    /// The rules contradict each other: every question is IMPOSSIBLE, with a
    /// minimal set of rules that conflict.
    fn inconsistent_policy(
        &mut self,
        mut finding: Finding,
        interruption: &dyn Interruption,
    ) -> Result<Finding, String> {
        let all: Vec<usize> = (0..self.rules.len()).collect();
        if self.check(&self.literals(&all)) != SatResult::Unsat {
            return Err(self.unknown_reason(interruption));
        }
        let (minimal, proved) = self.minimize(self.core_rules(), &[], interruption)?;
        finding.kind = FindingKind::Impossible;
        finding.contradicting_rules = self.rule_names(&minimal);
        finding.rules_minimal = proved;
        finding.policy_inconsistent = Some(true);
        Ok(finding)
    }

    /// Premise or claim always true or always false on their own (no rules).
    fn logic_warnings(
        &self,
        premise: &Expr,
        guards: &Guards,
        interruption: &dyn Interruption,
    ) -> Result<Vec<LogicWarning>, String> {
        // An empty premise (`true`) is the usual way to ask about the policy alone.
        let premise_is_literal_true = matches!(premise.kind, ExprKind::Bool(true));
        let checks = [
            (&guards.premise_fails, LogicWarning::PremiseAlwaysTrue),
            (&guards.premise_holds, LogicWarning::PremiseAlwaysFalse),
            (&guards.claim_fails, LogicWarning::ClaimAlwaysTrue),
            (&guards.claim_holds, LogicWarning::ClaimAlwaysFalse),
        ];
        let mut warnings = Vec::new();
        for (literal, warning) in checks {
            if warning == LogicWarning::PremiseAlwaysTrue && premise_is_literal_true {
                continue;
            }
            match self.bounded_check(std::slice::from_ref(literal), interruption) {
                SatResult::Unsat => warnings.push(warning),
                SatResult::Sat => {}
                SatResult::Unknown => {
                    if let Some(reason) = interruption.reason() {
                        return Err(reason);
                    }
                }
            }
        }
        Ok(warnings)
    }

    /// Guards that ask each Int variable in scope (a count: units, days,
    /// people) to be zero. Scenarios honour them where the rules allow, so a
    /// scenario shows what *must* happen rather than arbitrary solver choices.
    fn zero_preferences(&self, scope: Option<&HashSet<String>>) -> Vec<Bool> {
        self.vocabulary
            .int_variables()
            .filter(|(name, _)| scope.is_none_or(|s| s.contains(*name)))
            .take(MAX_PREFERENCES)
            .map(|(_, variable)| self.guard("prefer_zero", &variable.eq(z3::ast::Int::from_i64(0))))
            .collect()
    }

    /// A scenario for the satisfiable `assumptions` that keeps as many
    /// preferences as it can: preferences in an unsat core are dropped and
    /// the check repeated, a few rounds at most.
    fn preferred_scenario(
        &self,
        assumptions: &[Bool],
        preferences: &[Bool],
        scope: Option<&HashSet<String>>,
    ) -> Result<Scenario, String> {
        let mut active: Vec<Bool> = preferences.to_vec();
        for _ in 0..PREFERENCE_ROUNDS {
            if active.is_empty() {
                break;
            }
            let mut all = assumptions.to_vec();
            all.extend(active.iter().cloned());
            match self.check(&all) {
                SatResult::Sat => return self.model_scenario(scope),
                SatResult::Unsat => {
                    let core: HashSet<String> = self
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
            SatResult::Sat => self.model_scenario(scope),
            _ => Err(self
                .solver
                .get_reason_unknown()
                .unwrap_or_else(|| "the solver could not decide".into())),
        }
    }

    pub(super) fn model_scenario(
        &self,
        scope: Option<&HashSet<String>>,
    ) -> Result<Scenario, String> {
        self.solver
            .get_model()
            .map(|m| self.vocabulary.scenario(&m, scope))
            .ok_or_else(|| "the solver gave no model".to_string())
    }
}
