//! Solver-backed lint checks, run on the solver worker: inconsistency (every
//! disjoint conflict), vacuous and redundant rules, forced variables,
//! unreachable enum values, conflicting overlaps, gaps, disjoint groups.
//! Each check is bounded by the deadline; a check that runs out of time is
//! reported as "not decided", never as a pass.

use super::session::{Interruption, SolverSession};
use crate::core::model::CompiledModel;
use crate::core::model::diagnostic::{Diagnostic, LintCode, ModelEdit, Severity};
use crate::core::smt::{Expr, ExprKind, Op, Sort};
use std::collections::{BTreeSet, HashSet};
use z3::SatResult;
use z3::ast::Bool;

/// What the lint run reports as it goes.
#[derive(Debug, Clone, PartialEq)]
pub enum LintEvent {
    Progress {
        done: usize,
        total: usize,
        stage: &'static str,
    },
    Found(Box<Diagnostic>),
    Finished {
        checks: usize,
        undecided: usize,
    },
}

/// The most disjoint conflicts reported for an inconsistent policy.
const MAX_CONFLICTS: usize = 10;

/// Splits `(=> a b c)` into (antecedent `(and a b)`, consequent `c`).
pub fn split_implication(formula: &Expr) -> Option<(Expr, Expr)> {
    let ExprKind::App(Op::Implies, args) = &formula.kind else {
        return None;
    };
    let (consequent, conditions) = args.split_last()?;
    let antecedent = if conditions.len() == 1 {
        conditions[0].clone()
    } else {
        Expr::app(Op::And, conditions.to_vec())
    };
    Some((antecedent, consequent.clone()))
}

mod exceptions;

struct Linter<'a> {
    session: &'a mut SolverSession,
    model: &'a CompiledModel,
    interruption: &'a dyn Interruption,
    report: &'a mut dyn FnMut(LintEvent),
    checks: usize,
    undecided: usize,
    /// (general rule, rule with the exception) pairs found by L209: the
    /// redundancy check leaves the second alone.
    shadowed: HashSet<(usize, usize)>,
    /// Solver checks left for the impossible-situation search (L210).
    situation_budget: usize,
    situation_budget_reported: bool,
}

impl SolverSession {
    /// Runs every solver-backed check on `model` (this session must hold
    /// exactly `model`'s rules, in order), reporting as it goes. Returns the
    /// number of checks made and how many were not decided in time.
    pub fn lint(
        &mut self,
        model: &CompiledModel,
        interruption: &dyn Interruption,
        report: &mut dyn FnMut(LintEvent),
    ) -> (usize, usize) {
        let mut linter = Linter {
            session: self,
            model,
            interruption,
            report,
            checks: 0,
            undecided: 0,
            shadowed: HashSet::new(),
            situation_budget: exceptions::SITUATION_CHECK_BUDGET,
            situation_budget_reported: false,
        };
        linter.run();
        (linter.checks, linter.undecided)
    }
}

impl Linter<'_> {
    fn found(&mut self, diagnostic: Diagnostic) {
        (self.report)(LintEvent::Found(Box::new(diagnostic)));
    }

    fn progress(&mut self, done: usize, total: usize, stage: &'static str) {
        (self.report)(LintEvent::Progress { done, total, stage });
    }

    fn stopped(&self) -> bool {
        self.interruption.reason().is_some()
    }

    /// A check within the per-check deadline.
    fn check(&mut self, assumptions: &[Bool]) -> SatResult {
        self.checks += 1;
        let timeout = self.session.timeout();
        self.session
            .check_within(assumptions, timeout, self.interruption)
    }

    fn undecided(&mut self, what: String, rules: Vec<String>) {
        self.undecided += 1;
        self.found(
            Diagnostic::new(
                LintCode::NotDecided,
                Severity::Info,
                format!(
                    "Not decided within the deadline: {what}. Treat it as unchecked, not as passed."
                ),
            )
            .rules(rules),
        );
    }

    fn id(&self, rule: usize) -> String {
        self.model.rules[rule].id.clone()
    }

    fn guard(&self, formula: &Bool) -> Bool {
        let literal = Bool::fresh_const("lint");
        self.session.solver.assert(literal.implies(formula));
        literal
    }

    fn encode(&self, expr: &Expr) -> Option<Bool> {
        self.session.vocabulary.formula(expr).ok()
    }

    fn run(&mut self) {
        let total_rules = self.model.rules.len();
        self.session.solver.push();
        let groups = self.groups();
        let all: Vec<usize> = (0..total_rules).collect();
        let consistent = self.inconsistency(&all);
        self.session.solver.pop(1);
        if !consistent {
            return;
        }
        // Each group is checked in a solver holding only its rules: no
        // check can involve another group, and small solvers are fast.
        for group in &groups {
            if self.stopped() {
                return;
            }
            let scratch = self.session.scratch_solver(group);
            let whole_model = std::mem::replace(&mut self.session.solver, scratch);
            self.shadowed = self.shadowed_exceptions(group);
            self.per_rule_checks(group);
            self.forced_and_unreachable(group);
            self.overlaps(group);
            self.gaps(group);
            self.impossible_situations(group);
            self.session.solver = whole_model;
        }
    }

    /// L208: islands of rules that share no variables.
    fn groups(&mut self) -> Vec<Vec<usize>> {
        let mut seen = HashSet::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        for rule in 0..self.model.rules.len() {
            if seen.contains(&rule) {
                continue;
            }
            let group = self.session.group_of(rule);
            seen.extend(group.iter().copied());
            members.push(group);
        }
        let groups: Vec<Vec<String>> = members
            .iter()
            .map(|g| g.iter().map(|&r| self.id(r)).collect())
            .collect();
        if groups.len() > 1 {
            let sizes: Vec<String> = groups
                .iter()
                .map(|g| {
                    format!(
                        "{} ({} rules)",
                        g.first().cloned().unwrap_or_default(),
                        g.len()
                    )
                })
                .collect();
            let message = format!(
                "The rules form {} groups that share no variables: {}. A question about one group can never involve another; check that this separation is intended and that no variable was duplicated under two names.",
                groups.len(),
                sizes.join(", ")
            );
            let firsts: Vec<String> = groups.iter().filter_map(|g| g.first().cloned()).collect();
            self.found(
                Diagnostic::new(LintCode::DisjointGroups, Severity::Info, message).rules(firsts),
            );
        }
        members
    }

    /// L201: the rules contradict each other. Reports every disjoint minimal
    /// conflict (removing each found conflict and checking again).
    fn inconsistency(&mut self, rules: &[usize]) -> bool {
        let mut remaining: Vec<usize> = rules.to_vec();
        let mut conflicts = 0;
        loop {
            self.progress(conflicts, MAX_CONFLICTS, "consistency");
            match self.check(&self.session.literals(&remaining)) {
                SatResult::Sat => return conflicts == 0,
                SatResult::Unknown => {
                    self.undecided("whether the rules are consistent".into(), Vec::new());
                    return false;
                }
                SatResult::Unsat => {
                    let core = self.session.core_rules();
                    let Ok((minimal, _)) = self.session.minimize(core, &[], self.interruption)
                    else {
                        return false;
                    };
                    let ids = self.session.rule_names(&minimal);
                    let message = format!(
                        "These rules contradict each other: no scenario satisfies {} together, so every question about the policy is IMPOSSIBLE. Revise one of them (often a broad rule is missing an exception).",
                        ids.join(", ")
                    );
                    self.found(
                        Diagnostic::new(LintCode::Inconsistent, Severity::Error, message)
                            .rules(ids),
                    );
                    conflicts += 1;
                    remaining.retain(|r| !minimal.contains(r));
                    if minimal.is_empty() || conflicts >= MAX_CONFLICTS {
                        return false;
                    }
                }
            }
        }
    }

    /// L202 vacuous rules and L203 redundant rules.
    fn per_rule_checks(&mut self, group: &[usize]) {
        let total = group.len();
        for (done, &rule) in group.iter().enumerate() {
            if self.stopped() {
                return;
            }
            self.progress(done, total, "vacuous and redundant rules");
            let others: Vec<usize> = self
                .session
                .group_of(rule)
                .into_iter()
                .filter(|&r| r != rule)
                .collect();
            let formula = self.model.rules[rule].formula.clone();
            if let Some((antecedent, _)) = split_implication(&formula)
                && let Some(encoded) = self.encode(&antecedent)
            {
                let holds = self.guard(&encoded);
                let mut assumptions = self.session.literals(&others);
                assumptions.push(holds.clone());
                match self.check(&assumptions) {
                    SatResult::Unsat => {
                        let core = self.session.core_rules();
                        let blockers = self
                            .session
                            .minimize(core, std::slice::from_ref(&holds), self.interruption)
                            .map(|(m, _)| self.session.rule_names(&m))
                            .unwrap_or_default();
                        let id = self.id(rule);
                        let because = if blockers.is_empty() {
                            "it contradicts itself".to_string()
                        } else {
                            format!("the rules {} rule it out", blockers.join(", "))
                        };
                        let message = format!(
                            "{id} can never apply: its condition never holds ({because}). The rule has no effect; its condition is probably wrong."
                        );
                        let mut involved = vec![id];
                        involved.extend(blockers);
                        self.found(
                            Diagnostic::new(LintCode::VacuousRule, Severity::Warning, message)
                                .rules(involved),
                        );
                    }
                    SatResult::Unknown => self.undecided(
                        format!("whether the condition of {} can hold", self.id(rule)),
                        vec![self.id(rule)],
                    ),
                    SatResult::Sat => {}
                }
            }
            let Some(encoded) = self.encode(&formula) else {
                continue;
            };
            let broken = self.guard(&encoded.not());
            let mut assumptions = self.session.literals(&others);
            assumptions.push(broken.clone());
            match self.check(&assumptions) {
                SatResult::Unsat => {
                    let core = self.session.core_rules();
                    let implying = self
                        .session
                        .minimize(core, std::slice::from_ref(&broken), self.interruption)
                        .map(|(m, _)| self.session.rule_names(&m))
                        .unwrap_or_default();
                    let shadowed = self.shadowed.iter().any(|&(general, specific)| {
                        specific == rule && implying == [self.id(general)]
                    });
                    if shadowed {
                        // L209 says it better: the rule carries an exception
                        // that a more general rule overrides.
                        continue;
                    }
                    let id = self.id(rule);
                    let message = if implying.is_empty() {
                        format!(
                            "{id} is always true on its own (a tautology): it says nothing about the policy."
                        )
                    } else {
                        format!(
                            "{id} is redundant: it follows from {}. Keep it only if it documents the text; otherwise delete it.",
                            implying.join(", ")
                        )
                    };
                    let mut involved = vec![id.clone()];
                    involved.extend(implying);
                    self.found(
                        Diagnostic::new(LintCode::RedundantRule, Severity::Warning, message)
                            .rules(involved)
                            .fix(
                                format!("delete the redundant rule {id}"),
                                ModelEdit::DeleteRule { id },
                            ),
                    );
                }
                SatResult::Unknown => self.undecided(
                    format!("whether {} follows from the other rules", self.id(rule)),
                    vec![self.id(rule)],
                ),
                SatResult::Sat => {}
            }
        }
    }

    /// L204 forced variables and L205 unreachable enum values.
    fn forced_and_unreachable(&mut self, group: &[usize]) {
        let in_group: HashSet<&String> = group
            .iter()
            .flat_map(|&r| self.session.rules[r].variables.iter())
            .collect();
        let variables: Vec<(String, Sort)> = self
            .model
            .variables
            .iter()
            .filter(|(name, _)| in_group.contains(name))
            .cloned()
            .collect();
        let total = variables.len();
        for (done, (name, sort)) in variables.iter().enumerate() {
            if self.stopped() {
                return;
            }
            self.progress(done, total, "forced variables and enum values");
            let users = self.session.rules_touching(&[name.as_str()]);
            if users.is_empty() {
                continue;
            }
            let Ok(variable) = self.session.vocabulary.term(&Expr::symbol(name)) else {
                continue;
            };
            let literals = self.session.literals(&users);
            match self.check(&literals) {
                SatResult::Sat => {}
                SatResult::Unknown => {
                    self.undecided(format!("the values {name} can take"), Vec::new());
                    continue;
                }
                SatResult::Unsat => continue,
            }
            let Some(value) = self
                .session
                .solver
                .get_model()
                .and_then(|m| m.eval(&variable, true))
            else {
                continue;
            };
            let differs = self.guard(&variable.eq(value.clone()).not());
            let mut assumptions = literals.clone();
            assumptions.push(differs.clone());
            match self.check(&assumptions) {
                SatResult::Unsat => {
                    let core = self.session.core_rules();
                    let fixing = self
                        .session
                        .minimize(core, std::slice::from_ref(&differs), self.interruption)
                        .map(|(m, _)| self.session.rule_names(&m))
                        .unwrap_or_default();
                    let shown = self.session.vocabulary.scenario_value(&value, sort);
                    let message = format!(
                        "{name} is fixed to {shown} by {}: it can never take another value. Fine for a constant of the policy; a mistake if it should vary with the case.",
                        if fixing.is_empty() {
                            "the rules".to_string()
                        } else {
                            fixing.join(", ")
                        }
                    );
                    self.found(
                        Diagnostic::new(LintCode::ForcedVariable, Severity::Info, message)
                            .rules(fixing)
                            .variables([name.clone()]),
                    );
                    continue;
                }
                SatResult::Unknown => {
                    self.undecided(format!("whether {name} is fixed"), Vec::new())
                }
                SatResult::Sat => {}
            }
            if let Sort::Enum(type_name) = sort {
                let values: Vec<String> = self
                    .model
                    .vocabulary
                    .enum_values(type_name)
                    .map(<[String]>::to_vec)
                    .unwrap_or_default();
                for enum_value in values {
                    let Ok(constant) = self.session.vocabulary.term(&Expr::symbol(&enum_value))
                    else {
                        continue;
                    };
                    let takes = self.guard(&variable.eq(constant));
                    let mut assumptions = literals.clone();
                    assumptions.push(takes);
                    match self.check(&assumptions) {
                        SatResult::Unsat => {
                            let blockers = self.session.rule_names(&self.session.core_rules());
                            let message = format!(
                                "{name} can never be {enum_value}: the rules {} rule it out. Either the value is obsolete or a rule is too strict.",
                                blockers.join(", ")
                            );
                            self.found(
                                Diagnostic::new(
                                    LintCode::UnreachableEnumValue,
                                    Severity::Warning,
                                    message,
                                )
                                .rules(blockers)
                                .variables([name.clone()]),
                            );
                        }
                        SatResult::Unknown => self
                            .undecided(format!("whether {name} can be {enum_value}"), Vec::new()),
                        SatResult::Sat => {}
                    }
                }
            }
        }
    }

    /// L206: two rules whose conditions can hold together (under the other
    /// rules) while their consequences contradict each other.
    fn overlaps(&mut self, group: &[usize]) {
        let implications: Vec<(usize, Expr, Expr, BTreeSet<String>)> = group
            .iter()
            .map(|&i| (i, &self.model.rules[i]))
            .filter_map(|(i, r)| {
                let (antecedent, consequent) = split_implication(&r.formula)?;
                let outputs: BTreeSet<String> = consequent
                    .symbols()
                    .into_iter()
                    .filter(|s| self.session.vocabulary.is_variable(s))
                    .map(str::to_string)
                    .collect();
                Some((i, antecedent, consequent, outputs))
            })
            .collect();
        let total = implications.len();
        for (n, (first, a1, c1, out1)) in implications.iter().enumerate() {
            if self.stopped() {
                return;
            }
            self.progress(n, total, "conflicting overlaps");
            for (second, a2, c2, out2) in &implications[n + 1..] {
                if out1.is_disjoint(out2) {
                    continue;
                }
                let (Some(a1e), Some(a2e), Some(c1e), Some(c2e)) = (
                    self.encode(a1),
                    self.encode(a2),
                    self.encode(c1),
                    self.encode(c2),
                ) else {
                    continue;
                };
                let both_apply = self.guard(&Bool::and(&[a1e, a2e]));
                let both_follow = self.guard(&Bool::and(&[c1e, c2e]));
                let mut variables: Vec<&str> =
                    out1.iter().chain(out2.iter()).map(String::as_str).collect();
                variables.dedup();
                let others: Vec<usize> = self
                    .session
                    .rules_touching(&variables)
                    .into_iter()
                    .filter(|r| r != first && r != second)
                    .collect();
                let mut assumptions = self.session.literals(&others);
                assumptions.push(both_apply.clone());
                if self.check(&assumptions) != SatResult::Sat {
                    continue;
                }
                let scope: HashSet<String> = a1
                    .symbols()
                    .into_iter()
                    .chain(a2.symbols())
                    .filter(|s| self.session.vocabulary.is_variable(s))
                    .map(str::to_string)
                    .collect();
                let Ok(scenario) = self.session.model_scenario(Some(&scope)) else {
                    continue;
                };
                match self.check(&[both_apply, both_follow]) {
                    SatResult::Unsat => {
                        let (id1, id2) = (self.id(*first), self.id(*second));
                        let message = format!(
                            "{id1} and {id2} can both apply (the scenario shows when), but their consequences contradict each other, so in that case the policy allows nothing. Decide which rule wins and add the exception to the other."
                        );
                        let mut diagnostic = Diagnostic::new(
                            LintCode::ConflictingOverlap,
                            Severity::Warning,
                            message,
                        )
                        .rules([id1, id2])
                        .variables(variables.iter().map(|v| v.to_string()))
                        .scenario(scenario);
                        let mut fixes = self.exception_fixes(*first, *second).into_iter();
                        diagnostic.fix = fixes.next();
                        diagnostic.alternatives = fixes.collect();
                        self.found(diagnostic);
                    }
                    SatResult::Unknown => self.undecided(
                        format!(
                            "whether {} and {} conflict",
                            self.id(*first),
                            self.id(*second)
                        ),
                        vec![self.id(*first), self.id(*second)],
                    ),
                    SatResult::Sat => {}
                }
            }
        }
    }

    /// L207: an output variable (it appears only in consequents) that no
    /// rule determines for some inputs: a witness where every rule that sets
    /// it is switched off by its condition.
    fn gaps(&mut self, group: &[usize]) {
        let mut in_conditions: HashSet<String> = HashSet::new();
        let mut setters: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
        for &i in group {
            let rule = &self.model.rules[i];
            match split_implication(&rule.formula) {
                Some((antecedent, consequent)) => {
                    in_conditions.extend(antecedent.symbols().into_iter().map(str::to_string));
                    for symbol in consequent.symbols() {
                        if self.session.vocabulary.is_variable(symbol) {
                            setters.entry(symbol.to_string()).or_default().push(i);
                        }
                    }
                }
                None => {
                    in_conditions.extend(rule.formula.symbols().into_iter().map(str::to_string))
                }
            }
        }
        let outputs: Vec<(String, Vec<usize>)> = setters
            .into_iter()
            .filter(|(v, _)| !in_conditions.contains(v))
            .collect();
        let total = outputs.len();
        for (n, (output, rules)) in outputs.into_iter().enumerate() {
            if self.stopped() {
                return;
            }
            self.progress(n, total, "gaps");
            let conditions: Vec<Bool> = rules
                .iter()
                .filter_map(|&r| split_implication(&self.model.rules[r].formula))
                .filter_map(|(a, _)| self.encode(&a))
                .map(|a| a.not())
                .collect();
            let none_applies = self.guard(&Bool::and(&conditions));
            let others: Vec<usize> = self.session.rules_touching(&[output.as_str()]);
            let mut assumptions = self.session.literals(&others);
            assumptions.push(none_applies);
            match self.check(&assumptions) {
                SatResult::Sat => {
                    let scope: HashSet<String> = others
                        .iter()
                        .flat_map(|&r| self.session.rules[r].variables.clone())
                        .collect();
                    let scenario = self.session.model_scenario(Some(&scope)).ok();
                    let ids = self.session.rule_names(&rules);
                    let message = format!(
                        "{output} is decided only by {}, and in the scenario shown none of them applies, so the policy says nothing about {output} there. Add the missing case (often the 'otherwise' of the text).",
                        ids.join(", ")
                    );
                    let mut diagnostic = Diagnostic::new(LintCode::Gap, Severity::Warning, message)
                        .rules(ids)
                        .variables([output.clone()]);
                    if let Some(scenario) = scenario {
                        diagnostic = diagnostic.scenario(scenario);
                    }
                    self.found(diagnostic);
                }
                SatResult::Unknown => {
                    self.undecided(format!("whether {output} is always determined"), Vec::new())
                }
                SatResult::Unsat => {}
            }
        }
    }
}
