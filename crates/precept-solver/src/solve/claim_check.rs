//! The findings algorithm (docs/answers.md, "Findings"): IMPOSSIBLE, VALID,
//! INVALID or SATISFIABLE with minimal rule sets and scenarios, logic
//! warnings, and TOO_COMPLEX when the solver gives up.
//!
//! A question is decided in a solver that holds only the rules it can depend
//! on (its cone: the rule groups its variables touch), kept warm across
//! questions; the guards of past questions stay behind, never assumed again.

use super::base_model::NEAR_CHECK_MIN_CONE_RULES;
use super::error::SolveError;
use super::preference_guards::Preference;
use super::session::{Interruption, SolverSession};
use super::sides::{Side, SideResult};
use crate::model::finding::{Finding, FindingKind, KnownSide, KnownSides, LogicWarning, Scenario};
use crate::smt::{Expr, ExprKind, Op};
use std::collections::HashSet;
use z3::ast::Bool;
use z3::{SatResult, Solver};

/// A scenario lists at most about this many variables: those of the question
/// first, then those of the rules nearest to it.
const SCENARIO_VARIABLES: usize = 120;

/// The rules and variables a question involves, and what is known about
/// the policy's consistency.
pub(super) struct Scope {
    pub(super) rules: Vec<usize>,
    /// The variables a scenario shows; None: every variable.
    pub(super) variables: Option<HashSet<String>>,
    pub(super) consistency: Option<bool>,
}

impl Scope {
    /// A consistent cone of a few variables among many rules: one whose
    /// sides may be decided near the question on a base model
    /// (`near_check.rs`), and whose scenarios make one.
    pub(super) fn is_large_cone(&self) -> bool {
        self.consistency == Some(true)
            && self.variables.is_some()
            && self.rules.len() >= NEAR_CHECK_MIN_CONE_RULES
    }
}

fn all_rules(session: &SolverSession) -> Vec<usize> {
    (0..session.rules.len()).collect()
}

/// The premise and claim, each guarded, and as formulas.
struct Guards {
    premise_holds: Bool,
    claim_holds: Bool,
    claim_fails: Bool,
    premise: Bool,
    claim: Bool,
}

/// A question set up in the current solver (`ask`).
pub(super) struct Asked {
    pub(super) premise: Expr,
    pub(super) claim: Expr,
    not_claim: Expr,
    guards: Guards,
    /// The literals of the scope's rules.
    rules: Vec<Bool>,
    preferences: Vec<Preference>,
}

impl Asked {
    /// The premise's guard and the guard of `side`'s claim (or negation).
    pub(super) fn side_guards(&self, side: Side) -> (&Bool, &Bool) {
        let guards = &self.guards;
        match side {
            Side::ClaimFalse => (&guards.premise_holds, &guards.claim_fails),
            Side::ClaimTrue => (&guards.premise_holds, &guards.claim_holds),
        }
    }

    pub(super) fn premise_formula(&self) -> Bool {
        self.guards.premise.clone()
    }

    /// The claim, or its negation, as `side` asks it.
    pub(super) fn side_formula(&self, side: Side) -> Bool {
        match side {
            Side::ClaimFalse => self.guards.claim.not(),
            Side::ClaimTrue => self.guards.claim.clone(),
        }
    }
}

impl SolverSession {
    /// Computes the finding for premise P and claim C (both elaborated Bool
    /// formulas).
    pub fn verify(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        interruption: &dyn Interruption,
    ) -> Finding {
        self.verify_knowing(premise, claim, &KnownSides::default(), interruption)
    }

    /// `verify`, taking the sides of the question that `known` proves
    /// (rule sets by id, minimal; scenarios where the side holds) as
    /// answered, so only the others are checked. The finding is the one
    /// those answers and the checks prove.
    pub fn verify_knowing(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        known: &KnownSides,
        interruption: &dyn Interruption,
    ) -> Finding {
        let first = match self.consistency.is_none() {
            true => self.verify_before_consistency(premise, claim, known, interruption),
            false => Ok(None),
        };
        let result = first.and_then(|first| match first {
            Some(finding) => Ok(finding),
            None => self.scoped(premise, claim, interruption).and_then(|scope| {
                let warnings = self.logic_warnings(premise, claim, interruption)?;
                self.verify_in_cone(premise, claim, &scope, warnings, known, interruption)
            }),
        });
        result.unwrap_or_else(|reason| {
            Finding::too_complex(&premise.to_string(), &claim.to_string(), reason.to_string())
        })
    }

    /// The question in its cone's solver.
    fn verify_in_cone(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        scope: &Scope,
        warnings: Vec<LogicWarning>,
        known: &KnownSides,
        interruption: &dyn Interruption,
    ) -> Result<Finding, SolveError> {
        self.in_cone(&scope.rules, |session| {
            session.verify_inside(premise, claim, scope, warnings, known, interruption)
        })
    }

    /// Runs `ask` with the cone solver of `rules` in place of the whole
    /// model's, and keeps that solver warm for the next question.
    pub(super) fn in_cone<T>(&mut self, rules: &[usize], ask: impl FnOnce(&mut Self) -> T) -> T {
        let cone = self.take_cone_solver(rules);
        let whole_model = std::mem::replace(&mut self.solver, cone);
        let result = ask(self);
        let cone = std::mem::replace(&mut self.solver, whole_model);
        self.return_cone_solver(rules, cone);
        result
    }

    /// The first question on a model whose consistency is not known yet (a
    /// one-shot `precept verify` asks only this one). Rather than checking
    /// every rule first, it asks the question in its cone as if the rules
    /// were consistent, in the same fresh cone solver the usual order would
    /// use, so the finding is the same. A satisfiable check there shows the
    /// cone consistent, and the rules outside it share no variable with it,
    /// so only they are checked, in a solver of their own. `None` when the
    /// rules turn out inconsistent or undecided: the cone solver is dropped
    /// and the question goes the usual way.
    fn verify_before_consistency(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        known: &KnownSides,
        interruption: &dyn Interruption,
    ) -> Result<Option<Finding>, SolveError> {
        let question = self.question_variables(premise, claim);
        let rules = self.rules_touching(&question);
        let variables = self.nearest_variables(&question, &rules);
        let scope = Scope {
            rules,
            variables: Some(variables),
            consistency: Some(true),
        };
        let warnings = self.logic_warnings(premise, claim, interruption)?;
        let finding = self.verify_in_cone(premise, claim, &scope, warnings, known, interruption)?;
        let cone_consistent =
            finding.claims_true_scenario.is_some() || finding.claims_false_scenario.is_some();
        let consistent = match cone_consistent {
            true => {
                self.remember_cone_consistent(&scope.rules);
                self.consistent_outside(&scope.rules, interruption)?
            }
            // IMPOSSIBLE: whether the whole policy is consistent, asked
            // within the auxiliary budget (a hard policy must not make an
            // easy question wait); undecided, the question is asked over
            // every rule, as when the usual consistency check is undecided.
            false => match self.bounded_check(&self.literals(&all_rules(self)), interruption) {
                SatResult::Sat => Some(true),
                SatResult::Unsat => Some(false),
                SatResult::Unknown => {
                    if let Some(reason) = interruption.reason() {
                        return Err(SolveError::Undecided(reason));
                    }
                    self.forget_cone_solver(&scope.rules);
                    let every_rule = Scope {
                        rules: all_rules(self),
                        variables: None,
                        consistency: None,
                    };
                    let warnings = self.logic_warnings(premise, claim, interruption)?;
                    return self
                        .verify_in_cone(premise, claim, &every_rule, warnings, known, interruption)
                        .map(Some);
                }
            },
        };
        if consistent == Some(true) {
            self.consistency = Some(Some(true));
            return Ok(Some(finding));
        }
        if consistent == Some(false) {
            // Some rules contradict each other, so all of them together do.
            self.consistency = Some(Some(false));
        }
        self.forget_cone_solver(&scope.rules);
        Ok(None)
    }

    /// Whether the rules outside `cone` are satisfiable, each group of them
    /// checked alone, within the budget of the consistency check.
    fn consistent_outside(
        &mut self,
        cone: &[usize],
        interruption: &dyn Interruption,
    ) -> Result<Option<bool>, SolveError> {
        // The cone is whole groups: the others are those outside it, each
        // checked alone (and remembered) as the consistency check does.
        let inside: HashSet<usize> = cone.iter().copied().collect();
        let outside: Vec<Vec<usize>> = self
            .groups()
            .into_iter()
            .filter(|group| !inside.contains(&group[0]))
            .collect();
        let budget = self.timeout() / 2;
        self.groups_consistent(&outside, budget, interruption)
    }

    /// The model variables the premise and claim mention, sorted.
    pub(super) fn question_variables<'e>(
        &self,
        premise: &'e Expr,
        claim: &'e Expr,
    ) -> Vec<&'e str> {
        let mut question: Vec<&str> = premise
            .symbols()
            .into_iter()
            .chain(claim.symbols())
            .filter(|s| self.vocabulary.is_variable(s))
            .collect();
        question.sort_unstable();
        question.dedup();
        question
    }

    fn guard(&self, name: &str, formula: &Bool) -> Bool {
        let literal = Bool::fresh_const(name);
        self.solver.assert(literal.implies(formula));
        literal
    }

    /// Which rules and variables a question involves.
    pub(super) fn scoped(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        interruption: &dyn Interruption,
    ) -> Result<Scope, SolveError> {
        let consistency = self.consistency(interruption)?;
        let question = self.question_variables(premise, claim);
        if consistency != Some(true) {
            return Ok(Scope {
                rules: (0..self.rules.len()).collect(),
                variables: None,
                consistency,
            });
        }
        let rules = self.rules_touching(&question);
        let variables = self.nearest_variables(&question, &rules);
        Ok(Scope {
            rules,
            variables: Some(variables),
            consistency,
        })
    }

    /// The variables a scenario shows: `variables_within` the cone, up to
    /// `SCENARIO_VARIABLES`.
    fn nearest_variables(&self, question: &[&str], cone: &[usize]) -> HashSet<String> {
        self.variables_within(question, cone, SCENARIO_VARIABLES)
    }

    /// The question's variables, then those of the rules that mention them,
    /// and so on outwards through the cone, up to `most` (the question's
    /// own variables all, however many).
    pub(super) fn variables_within(
        &self,
        question: &[&str],
        cone: &[usize],
        most: usize,
    ) -> HashSet<String> {
        let mut chosen: HashSet<String> = question.iter().map(|s| s.to_string()).collect();
        let mut frontier: Vec<String> = chosen.iter().cloned().collect();
        let mut unused: Vec<usize> = cone.to_vec();
        while !frontier.is_empty() && chosen.len() < most {
            let mut next = Vec::new();
            unused.retain(|&r| {
                let rule = &self.rules[r].variables;
                if !rule.iter().any(|v| frontier.contains(v)) {
                    return true;
                }
                for variable in rule {
                    if chosen.len() < most && chosen.insert(variable.clone()) {
                        next.push(variable.clone());
                    }
                }
                false
            });
            frontier = next;
        }
        chosen
    }

    fn verify_inside(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        scope: &Scope,
        warnings: Vec<LogicWarning>,
        known: &KnownSides,
        interruption: &dyn Interruption,
    ) -> Result<Finding, SolveError> {
        let mut finding = Finding::new(
            FindingKind::Satisfiable,
            &premise.to_string(),
            &claim.to_string(),
        );
        finding.warnings = warnings;
        if scope.consistency == Some(false) {
            return self.inconsistent_policy(finding, interruption);
        }
        let asked = self.ask(premise, claim, scope)?;
        // M ∧ P ∧ ¬C, then M ∧ P ∧ C; M ∧ P is unsatisfiable exactly when
        // both are. A side `known` proves is not asked; a rule set it gives
        // is minimal. The second side is not offered the preferences the
        // first found the premise refutes.
        let mut premise_refuted = Vec::new();
        let claims_false = match self.known_answer(known.claim_false.as_ref()) {
            Some(answer) => answer,
            None => self.decide_side(
                &asked,
                Side::ClaimFalse,
                scope,
                &mut premise_refuted,
                interruption,
            )?,
        };
        let claims_true = match self.known_answer(known.claim_true.as_ref()) {
            Some(answer) => answer,
            None => self.decide_side(
                &asked,
                Side::ClaimTrue,
                scope,
                &mut premise_refuted,
                interruption,
            )?,
        };
        match (claims_true, claims_false) {
            (SideResult::Refuted { .. }, SideResult::Refuted { .. }) => {
                // IMPOSSIBLE: the core of M ∧ P itself.
                let mut alone = asked.rules.clone();
                alone.push(asked.guards.premise_holds.clone());
                if self.check(&alone) != SatResult::Unsat {
                    return Err(SolveError::Undecided(self.unknown_reason(interruption)));
                }
                let guards = &asked.guards;
                let (minimal, proved) = self.minimize_question(
                    self.core_rules(),
                    &[(&guards.premise_holds, &guards.premise)],
                    asked.rules.len(),
                    interruption,
                )?;
                finding.kind = FindingKind::Impossible;
                finding.contradicting_rules = self.rule_names(&minimal);
                finding.rules_minimal = proved;
                finding.policy_inconsistent = scope.consistency.map(|consistent| !consistent);
            }
            (SideResult::Holds(true_scenario), SideResult::Refuted { core, minimal }) => {
                let (rules, proved) =
                    self.minimal_core(&asked, Side::ClaimFalse, core, minimal, interruption)?;
                finding.kind = FindingKind::Valid;
                finding.supporting_rules = self.rule_names(&rules);
                finding.rules_minimal = proved;
                finding.claims_true_scenario = Some(true_scenario);
            }
            (SideResult::Refuted { core, minimal }, SideResult::Holds(false_scenario)) => {
                let (rules, proved) =
                    self.minimal_core(&asked, Side::ClaimTrue, core, minimal, interruption)?;
                finding.kind = FindingKind::Invalid;
                finding.contradicting_rules = self.rule_names(&rules);
                finding.rules_minimal = proved;
                finding.claims_false_scenario = Some(false_scenario);
            }
            (SideResult::Holds(true_scenario), SideResult::Holds(false_scenario)) => {
                finding.claims_true_scenario = Some(true_scenario);
                finding.claims_false_scenario = Some(false_scenario);
            }
        }
        Ok(finding)
    }

    /// Sets a question up in the current solver: the premise and claim,
    /// each guarded, the literals of the scope's rules and the scenario
    /// preferences on offer.
    pub(super) fn ask(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        scope: &Scope,
    ) -> Result<Asked, SolveError> {
        let p = self.vocabulary.formula(premise)?;
        let c = self.vocabulary.formula(claim)?;
        let guards = Guards {
            premise_holds: self.guard("premise", &p),
            claim_holds: self.guard("claim", &c),
            claim_fails: self.guard("not_claim", &c.not()),
            premise: p,
            claim: c,
        };
        let rules = self.literals(&scope.rules);
        let preferences = self.scenario_preferences(scope.variables.as_ref(), &scope.rules);
        Ok(Asked {
            premise: premise.clone(),
            claim: claim.clone(),
            not_claim: Expr::app(Op::Not, vec![claim.clone()]),
            guards,
            rules,
            preferences,
        })
    }

    /// One side of an asked question, checked: a scenario where it holds,
    /// or the rules of an unsat core (not yet minimal) where it cannot.
    /// The check is offered the preferences its premise and claim do not
    /// rule out on their face (`preferences::rules_out`) and that the other
    /// side did not find the premise refutes (`premise_refuted`, which this
    /// side adds to): each refutation would cost a check, and preferences
    /// never change the finding.
    pub(super) fn decide_side(
        &mut self,
        asked: &Asked,
        side: Side,
        scope: &Scope,
        premise_refuted: &mut Vec<String>,
        interruption: &dyn Interruption,
    ) -> Result<SideResult, SolveError> {
        let (guard, formulas) = match side {
            Side::ClaimFalse => (
                &asked.guards.claim_fails,
                [&asked.premise, &asked.not_claim],
            ),
            Side::ClaimTrue => (&asked.guards.claim_holds, [&asked.premise, &asked.claim]),
        };
        let mut assumptions = asked.rules.clone();
        assumptions.push(asked.guards.premise_holds.clone());
        assumptions.push(guard.clone());
        let offered: Vec<Preference> = asked
            .preferences
            .iter()
            .filter(|p| !p.ruled_out_by(&formulas))
            .filter(|p| !premise_refuted.iter().any(|n| n == p.name()))
            .cloned()
            .collect();
        if let Some(scenario) =
            self.holds_near_question(asked, side, scope, &offered, interruption)?
        {
            return Ok(SideResult::Holds(scenario));
        }
        let checked = self.check_preferring(
            &assumptions,
            &offered,
            Some(&scope.rules),
            premise_refuted,
            interruption,
        )?;
        Ok(match checked {
            Ok(()) => SideResult::Holds(self.cone_scenario(scope)?),
            Err(core) => SideResult::Refuted {
                core,
                minimal: false,
            },
        })
    }

    /// A refuted side's rules, minimal (`minimize`) unless already proved
    /// so, and whether minimality is proved.
    pub(super) fn minimal_core(
        &mut self,
        asked: &Asked,
        side: Side,
        core: Vec<usize>,
        minimal: bool,
        interruption: &dyn Interruption,
    ) -> Result<(Vec<usize>, bool), SolveError> {
        if minimal {
            return Ok((core, true));
        }
        let guards = &asked.guards;
        let (guard, claim) = match side {
            Side::ClaimFalse => (&guards.claim_fails, guards.claim.not()),
            Side::ClaimTrue => (&guards.claim_holds, guards.claim.clone()),
        };
        self.minimize_question(
            core,
            &[(&guards.premise_holds, &guards.premise), (guard, &claim)],
            asked.rules.len(),
            interruption,
        )
    }

    /// A known side as a check's answer (a rule set it gives is minimal);
    /// None when not known, or when it names a rule this session does not
    /// hold.
    fn known_answer(&self, side: Option<&KnownSide>) -> Option<SideResult> {
        match side? {
            KnownSide::Holds(scenario) => Some(SideResult::Holds(scenario.clone())),
            KnownSide::Refuted(ids) => {
                let mut positions = ids
                    .iter()
                    .map(|id| self.rules.iter().position(|rule| &rule.id == id))
                    .collect::<Option<Vec<usize>>>()?;
                positions.sort_unstable();
                Some(SideResult::Refuted {
                    core: positions,
                    minimal: true,
                })
            }
        }
    }

    /// The rules contradict each other: every question is IMPOSSIBLE, with a
    /// minimal set of rules that conflict.
    fn inconsistent_policy(
        &mut self,
        mut finding: Finding,
        interruption: &dyn Interruption,
    ) -> Result<Finding, SolveError> {
        let all: Vec<usize> = (0..self.rules.len()).collect();
        if self.check(&self.literals(&all)) != SatResult::Unsat {
            return Err(SolveError::Undecided(self.unknown_reason(interruption)));
        }
        let (minimal, proved) =
            self.minimize_question(self.core_rules(), &[], all.len(), interruption)?;
        finding.kind = FindingKind::Impossible;
        finding.contradicting_rules = self.rule_names(&minimal);
        finding.rules_minimal = proved;
        finding.policy_inconsistent = Some(true);
        Ok(finding)
    }

    /// Premise or claim always true or always false on their own: decided in
    /// a small solver holding nothing but them, each answer kept by the
    /// formula's text (it depends on no rule).
    pub(super) fn logic_warnings(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        interruption: &dyn Interruption,
    ) -> Result<Vec<LogicWarning>, SolveError> {
        // An empty premise (`true`) is the usual way to ask about the policy alone.
        let premise_is_literal_true = matches!(premise.kind, ExprKind::Bool(true));
        let checks = [
            (premise, true, LogicWarning::PremiseAlwaysTrue),
            (premise, false, LogicWarning::PremiseAlwaysFalse),
            (claim, true, LogicWarning::ClaimAlwaysTrue),
            (claim, false, LogicWarning::ClaimAlwaysFalse),
        ];
        if self.alone_answers.len() > 100_000 {
            self.alone_answers.clear();
        }
        let mut warnings = Vec::new();
        for (expr, negated, warning) in checks {
            if warning == LogicWarning::PremiseAlwaysTrue && premise_is_literal_true {
                continue;
            }
            let key = (expr.to_string(), negated);
            if let Some(&unsat) = self.alone_answers.get(&key) {
                if unsat {
                    warnings.push(warning);
                }
                continue;
            }
            let encoded = self.vocabulary.formula(expr)?;
            let formula = if negated { encoded.not() } else { encoded };
            let alone = self.alone.get_or_insert_with(Solver::new);
            alone.push();
            alone.assert(&formula);
            let budget = super::session::AUXILIARY_CHECK_BUDGET;
            interruption.limit_checks(Some(budget));
            interruption.start_check();
            let result = super::check_gate::gated_check(alone, &[]);
            interruption.limit_checks(None);
            alone.pop(1);
            match result {
                SatResult::Unsat => {
                    self.alone_answers.insert(key, true);
                    warnings.push(warning);
                }
                SatResult::Sat => {
                    self.alone_answers.insert(key, false);
                }
                SatResult::Unknown => {
                    if let Some(reason) = interruption.reason() {
                        return Err(SolveError::Undecided(reason));
                    }
                }
            }
        }
        Ok(warnings)
    }

    /// The scenario of the cone's check that just succeeded. On a large
    /// cone its model, a scenario of every rule of the scope, becomes the
    /// cone's base model (`near_check.rs`) unless one covers the scope.
    fn cone_scenario(&mut self, scope: &Scope) -> Result<Scenario, SolveError> {
        let model = self.solver.get_model().ok_or(SolveError::NoModel)?;
        let scenario = self.vocabulary.scenario(&model, scope.variables.as_ref());
        if scope.is_large_cone() {
            self.keep_base_model(&scope.rules, model);
        }
        Ok(scenario)
    }

    pub(super) fn model_scenario(
        &self,
        scope: Option<&HashSet<String>>,
    ) -> Result<Scenario, SolveError> {
        self.solver
            .get_model()
            .map(|m| self.vocabulary.scenario(&m, scope))
            .ok_or(SolveError::NoModel)
    }
}
