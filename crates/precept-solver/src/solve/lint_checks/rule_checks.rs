//! Checks of single rules and of a group as a whole: inconsistency (every
//! disjoint conflict), vacuous and redundant rules, forced variables,
//! unreachable enum values.

use crate::model::diagnostic::{Diagnostic, LintCode, ModelEdit, Severity};
use crate::model::finding::Scenario;
use crate::smt::{Expr, Sort};
use std::collections::HashSet;
use z3::SatResult;

use super::linter::{Linter, MAX_CONFLICTS};
use super::near::Answer;
use super::parts::GroupPart;
use super::scenario_repair::known_values;

impl Linter<'_> {
    /// L201: the rules contradict each other. Reports every disjoint minimal
    /// conflict (removing each found conflict and checking again).
    pub(super) fn inconsistency(&mut self, rules: &[usize]) -> bool {
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

    /// L202 vacuous rules and L203 redundant rules, of `rules` (of
    /// `group`, each checked against the rest of it).
    pub(super) fn per_rule_checks(&mut self, group: &[usize], rules: &[usize]) {
        let total = rules.len();
        // A rule whose condition holds in a model of the whole group is not
        // vacuous: no check of its own.
        let applicable = self.applicable(group, rules);
        for (done, &rule) in rules.iter().enumerate() {
            if self.stopped() {
                return;
            }
            self.progress(done, total, "vacuous and redundant rules");
            let others: Vec<usize> = self
                .group_of(rule)
                .into_iter()
                .filter(|&r| r != rule)
                .collect();
            let formula = self.model.rules[rule].formula.clone();
            let variables = self.session.rules[rule].variables.clone();
            let about: Vec<&str> = variables.iter().map(String::as_str).collect();
            if !applicable.contains(&rule)
                && let Some((antecedent, _)) = self.split(rule)
                && let Some(encoded) = self.encode(&antecedent)
            {
                match self.ask(&others, &encoded, &about, None) {
                    Answer::Refuted { core } => {
                        let blockers = self
                            .minimal_refuting(core, &encoded)
                            .map(|m| self.session.rule_names(&m))
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
                    Answer::Undecided => self.undecided(
                        format!("whether the condition of {} can hold", self.id(rule)),
                        vec![self.id(rule)],
                    ),
                    Answer::Holds(_) => {}
                }
            }
            let Some(encoded) = self.encode(&formula) else {
                continue;
            };
            if self.breaks_alone(group, rule) {
                continue;
            }
            let broken = encoded.not();
            match self.ask(&others, &broken, &about, None) {
                Answer::Refuted { core } => {
                    let implying = self
                        .minimal_refuting(core, &broken)
                        .map(|m| self.session.rule_names(&m))
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
                    // The first rule it follows from keeps its sentence.
                    let into = implying.first().cloned();
                    involved.extend(implying);
                    self.found(
                        Diagnostic::new(LintCode::RedundantRule, Severity::Warning, message)
                            .rules(involved)
                            .fix(
                                format!("delete the redundant rule {id}"),
                                ModelEdit::DeleteRule { id, into },
                            ),
                    );
                }
                Answer::Undecided => self.undecided(
                    format!("whether {} follows from the other rules", self.id(rule)),
                    vec![self.id(rule)],
                ),
                Answer::Holds(_) => {}
            }
        }
    }

    /// Whether `rule` is shown not to follow from the rest of `group` with
    /// no solver check: a scenario of the whole group (a large group's base
    /// model, for near checks; else one asked once of the group's rules)
    /// changed so that the rule is false and mended so that every other
    /// rule holds (`scenario_repair.rs`).
    fn breaks_alone(&mut self, group: &[usize], rule: usize) -> bool {
        if self.mending.is_none() {
            let scenario = match &self.base {
                Some(base) => Some(self.session.vocabulary.scenario(base, None)),
                None => self.group_scenario(group),
            };
            // With none (a division by a term, or no model), every rule
            // is asked: an empty scenario mends nothing.
            let values = scenario.map(|s| known_values(&s)).unwrap_or_default();
            self.mending = Some((values, self.repair_rules(group)));
        }
        let Some((condition, conclusion)) = self.split(rule) else {
            return false;
        };
        let Some((values, rules)) = &self.mending else {
            return false;
        };
        let variables: std::collections::HashSet<&str> = self.session.rules[rule]
            .variables
            .iter()
            .map(String::as_str)
            .collect();
        rules.breaks(
            values,
            &self.model.rules[rule].formula,
            &condition,
            &conclusion,
            &variables,
        )
    }

    /// A scenario of every rule of a group too small for a base model, by
    /// one check of its rules as plain facts; None when it divides by a
    /// term (Z3 and exact evaluation may read such a division differently)
    /// or the check finds none.
    fn group_scenario(&mut self, group: &[usize]) -> Option<Scenario> {
        if group.iter().any(|&r| self.session.rules[r].divides_by_term) {
            return None;
        }
        let model = self.plain_model(group)?;
        Some(self.session.vocabulary.scenario(&model, None))
    }

    /// L204 forced variables and L205 unreachable enum values, of `part`'s
    /// share of the variables of `group`.
    pub(super) fn forced_and_unreachable(&mut self, group: &[usize], part: GroupPart) {
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
        let variables = variables[part.share(variables.len())].to_vec();
        let total = variables.len();
        // What models of the whole group settle needs no check of its own.
        let varying = self.varying(group, &variables);
        for (done, (name, sort)) in variables.iter().enumerate() {
            if self.stopped() {
                return;
            }
            self.progress(done, total, "forced variables and enum values");
            let users = self.rules_touching(&[name.as_str()]);
            if users.is_empty() {
                continue;
            }
            let Ok(variable) = self.session.vocabulary.term(&Expr::symbol(name)) else {
                continue;
            };
            let seen = varying.values.get(name);
            if varying.variables.contains(name) {
                if let Sort::Enum(type_name) = sort {
                    self.unreachable_values(name, type_name, &variable, &users, seen);
                }
                continue;
            }
            // A value its rules allow: the whole group's model's, else one
            // asked of its rules.
            let value = match varying.first.get(name) {
                Some(value) => value.clone(),
                None => {
                    match self.check(&self.session.literals(&users)) {
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
                    value
                }
            };
            let differs = variable.eq(value.clone()).not();
            match self.ask(&users, &differs, &[name.as_str()], None) {
                Answer::Refuted { core } => {
                    let fixing = self
                        .minimal_refuting(core, &differs)
                        .map(|m| self.session.rule_names(&m))
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
                Answer::Undecided => self.undecided(format!("whether {name} is fixed"), Vec::new()),
                Answer::Holds(_) => {}
            }
            if let Sort::Enum(type_name) = sort {
                self.unreachable_values(name, type_name, &variable, &users, seen);
            }
        }
    }

    /// L205: the values of enum `name` its rules (`literals`) rule out,
    /// those a model already showed (`seen`) left out.
    fn unreachable_values(
        &mut self,
        name: &str,
        type_name: &str,
        variable: &z3::ast::Dynamic,
        users: &[usize],
        seen: Option<&HashSet<String>>,
    ) {
        let values: Vec<String> = self
            .model
            .vocabulary
            .enum_values(type_name)
            .map(<[String]>::to_vec)
            .unwrap_or_default();
        for enum_value in values {
            if seen.is_some_and(|s| s.contains(&enum_value)) {
                continue;
            }
            let Ok(constant) = self.session.vocabulary.term(&Expr::symbol(&enum_value)) else {
                continue;
            };
            let takes = variable.eq(constant);
            match self.ask(users, &takes, &[name], None) {
                Answer::Refuted { core } => {
                    let blockers = self.session.rule_names(&core);
                    let message = format!(
                        "{name} can never be {enum_value}: the rules {} rule it out. Either the value is obsolete or a rule is too strict.",
                        blockers.join(", ")
                    );
                    self.found(
                        Diagnostic::new(LintCode::UnreachableEnumValue, Severity::Warning, message)
                            .rules(blockers)
                            .variables([name.to_string()]),
                    );
                }
                Answer::Undecided => {
                    self.undecided(format!("whether {name} can be {enum_value}"), Vec::new())
                }
                Answer::Holds(_) => {}
            }
        }
    }
}
