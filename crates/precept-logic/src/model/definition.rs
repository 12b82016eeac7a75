//! Definitions: one decision (a derived variable) stated once, as cases,
//! requirements and exceptions, the way law is written, and compiled to
//! ordinary rules whose ids name the part they come from.
//!
//! For a Bool X with cases C1..Cn, requirements Q1..Qm and exceptions
//! E1..Ek, the rules are:
//! - `D.c<i>`: Ci ∧ Q1 ∧ … ∧ Qm ∧ ¬E1 ∧ … ∧ ¬Ek ⇒ X, one per case;
//! - `D.r<j>`: X ⇒ Qj, one per requirement;
//! - `D.e<j>`: Ej ⇒ ¬X, one per exception;
//! - `D.only` (with `exhaustive`): X ⇒ C1 ∨ … ∨ Cn.
//!
//! Together they mean (∨C) ∧ (∧Q) ∧ ¬(∨E) ⇒ X, X ⇒ (∧Q) and (∨E) ⇒ ¬X, and
//! with `exhaustive` X ⇔ (∨C) ∧ (∧Q) ∧ ¬(∨E). For a number or an enum the
//! cases are ordered (condition, value) pairs, the first that applies
//! giving the value: `D.c<i>` is Ci ∧ ¬C1 ∧ … ∧ ¬C(i-1) ⇒ X = vi.

use super::policy::{Definition, DefinitionPart, PolicyModel, ReviewStatus, Rule, SourceSpan};
use crate::smt::build::{and_of, not_of};
use crate::smt::{Expr, Op, parse_expr};

/// Which part of a definition a rule or a problem belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartKind {
    Case,
    Requirement,
    Exception,
}

impl PartKind {
    pub fn field(self) -> &'static str {
        match self {
            PartKind::Case => "cases",
            PartKind::Requirement => "requirements",
            PartKind::Exception => "exceptions",
        }
    }

    /// The part's name in a sentence: "case", "requirement", "exception".
    pub fn noun(self) -> &'static str {
        match self {
            PartKind::Case => "case",
            PartKind::Requirement => "requirement",
            PartKind::Exception => "exception",
        }
    }

    fn letter(self) -> &'static str {
        match self {
            PartKind::Case => "c",
            PartKind::Requirement => "r",
            PartKind::Exception => "e",
        }
    }
}

/// Why a definition cannot be compiled to rules, with the field at fault
/// (`cases[1].condition`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct DefinitionError {
    pub field: String,
    pub message: String,
}

impl DefinitionPart {
    pub fn new(condition: &str, source_span: Option<SourceSpan>) -> DefinitionPart {
        DefinitionPart {
            condition: condition.to_string(),
            value: None,
            source_span,
        }
    }
}

impl Definition {
    /// The id of the rule that part `index` (from 0) of `kind` compiles to.
    pub fn rule_id(&self, kind: PartKind, index: usize) -> String {
        format!("{}.{}{}", self.id, kind.letter(), index + 1)
    }

    /// The id of the rule that closes the cases (`exhaustive`).
    pub fn closing_rule_id(&self) -> String {
        format!("{}.only", self.id)
    }

    /// Whether rule `id` is one this definition compiles to.
    pub fn owns_rule(&self, id: &str) -> bool {
        id.strip_prefix(&self.id)
            .is_some_and(|rest| rest.starts_with('.'))
    }

    /// The part rule `id` compiles from (None for the closing rule or a
    /// rule of another definition).
    pub fn part_of_rule(&self, id: &str) -> Option<(PartKind, usize)> {
        self.parts()
            .map(|(kind, index, _)| (kind, index))
            .find(|&(kind, index)| self.rule_id(kind, index) == id)
    }

    /// The parts of `kind`.
    pub fn parts_of(&self, kind: PartKind) -> &[DefinitionPart] {
        match kind {
            PartKind::Case => &self.cases,
            PartKind::Requirement => &self.requirements,
            PartKind::Exception => &self.exceptions,
        }
    }

    /// The parts of `kind`, to edit.
    pub fn parts_mut(&mut self, kind: PartKind) -> &mut Vec<DefinitionPart> {
        match kind {
            PartKind::Case => &mut self.cases,
            PartKind::Requirement => &mut self.requirements,
            PartKind::Exception => &mut self.exceptions,
        }
    }

    /// Every part with its kind and index, cases first.
    pub fn parts(&self) -> impl Iterator<Item = (PartKind, usize, &DefinitionPart)> {
        fn of(
            kind: PartKind,
            parts: &[DefinitionPart],
        ) -> impl Iterator<Item = (PartKind, usize, &DefinitionPart)> {
            parts
                .iter()
                .enumerate()
                .map(move |(i, part)| (kind, i, part))
        }
        of(PartKind::Case, &self.cases)
            .chain(of(PartKind::Requirement, &self.requirements))
            .chain(of(PartKind::Exception, &self.exceptions))
    }

    /// The rules this definition means, for a variable that is a Bool or
    /// not (`is_bool`). Syntax only: the compiled model type-checks them.
    pub fn rules(&self, is_bool: bool) -> Result<Vec<Rule>, DefinitionError> {
        let parse = |kind: PartKind, index: usize, text: &str, what: &str| {
            parse_expr(text).map_err(|e| DefinitionError {
                field: format!("{}[{index}].{what}", kind.field()),
                message: e.to_string(),
            })
        };
        let x = Expr::symbol(&self.variable);
        let rule = |id: String, expression: Expr, span: Option<SourceSpan>| Rule {
            id,
            expression: expression.to_string(),
            source_span: span,
            also_from: Vec::new(),
            review: ReviewStatus::Unreviewed,
            note: String::new(),
        };
        let mut rules = Vec::new();
        if !is_bool {
            for (kind, list) in [
                (PartKind::Requirement, &self.requirements),
                (PartKind::Exception, &self.exceptions),
            ] {
                if !list.is_empty() {
                    return Err(DefinitionError {
                        field: kind.field().to_string(),
                        message: format!(
                            "only a Bool decision has {}; '{}' is defined by its cases' values",
                            kind.field(),
                            self.variable
                        ),
                    });
                }
            }
            let mut earlier: Vec<Expr> = Vec::new();
            for (i, case) in self.cases.iter().enumerate() {
                let condition = parse(PartKind::Case, i, &case.condition, "condition")?;
                let Some(value_text) = &case.value else {
                    return Err(DefinitionError {
                        field: format!("cases[{i}].value"),
                        message: format!(
                            "a case of '{}', which is not a Bool, needs the value it gives",
                            self.variable
                        ),
                    });
                };
                let value = parse(PartKind::Case, i, value_text, "value")?;
                let applies =
                    and_of(std::iter::once(condition.clone()).chain(earlier.iter().map(not_of)));
                let gives = Expr::app(Op::Eq, vec![x.clone(), value]);
                rules.push(rule(
                    self.rule_id(PartKind::Case, i),
                    implies(applies, gives),
                    case.source_span,
                ));
                earlier.push(condition);
            }
            return Ok(rules);
        }
        if let Some(i) = self.cases.iter().position(|c| c.value.is_some()) {
            return Err(DefinitionError {
                field: format!("cases[{i}].value"),
                message: format!(
                    "a case of the Bool '{}' gives no value: it is a condition",
                    self.variable
                ),
            });
        }
        let conditions = |kind: PartKind, parts: &[DefinitionPart]| {
            parts
                .iter()
                .enumerate()
                .map(|(i, p)| parse(kind, i, &p.condition, "condition"))
                .collect::<Result<Vec<Expr>, _>>()
        };
        let cases = conditions(PartKind::Case, &self.cases)?;
        let requirements = conditions(PartKind::Requirement, &self.requirements)?;
        let exceptions = conditions(PartKind::Exception, &self.exceptions)?;
        let guard: Vec<Expr> = requirements
            .iter()
            .cloned()
            .chain(exceptions.iter().map(not_of))
            .collect();
        for (i, case) in cases.iter().enumerate() {
            let condition = and_of(std::iter::once(case.clone()).chain(guard.iter().cloned()));
            rules.push(rule(
                self.rule_id(PartKind::Case, i),
                implies(condition, x.clone()),
                self.cases[i].source_span,
            ));
        }
        for (i, requirement) in requirements.into_iter().enumerate() {
            rules.push(rule(
                self.rule_id(PartKind::Requirement, i),
                implies(x.clone(), requirement),
                self.requirements[i].source_span,
            ));
        }
        for (i, exception) in exceptions.into_iter().enumerate() {
            rules.push(rule(
                self.rule_id(PartKind::Exception, i),
                implies(exception, not_of(&x)),
                self.exceptions[i].source_span,
            ));
        }
        if self.exhaustive {
            let closing = match cases.len() {
                0 => not_of(&x),
                1 => implies(x.clone(), cases[0].clone()),
                _ => implies(x.clone(), Expr::app(Op::Or, cases)),
            };
            rules.push(rule(
                self.closing_rule_id(),
                closing,
                self.cases.first().and_then(|c| c.source_span),
            ));
        }
        Ok(rules)
    }
}

fn implies(condition: Expr, conclusion: Expr) -> Expr {
    match condition.kind {
        crate::smt::ExprKind::Bool(true) => conclusion,
        _ => Expr::app(Op::Implies, vec![condition, conclusion]),
    }
}

impl PolicyModel {
    pub fn definition(&self, id: &str) -> Option<&Definition> {
        self.definitions.iter().find(|d| d.id == id)
    }

    /// The definition that compiles to rule `id`, if any.
    pub fn definition_owning(&self, id: &str) -> Option<&Definition> {
        self.definitions.iter().find(|d| d.owns_rule(id))
    }

    /// The definition of `variable`, if it has one.
    pub fn definition_of(&self, variable: &str) -> Option<&Definition> {
        self.definitions.iter().find(|d| d.variable == variable)
    }

    /// A definition id not yet in use, of the form `D<n>`.
    pub fn fresh_definition_id(&self) -> String {
        let highest = self
            .definitions
            .iter()
            .filter_map(|d| d.id.strip_prefix('D')?.parse::<u64>().ok())
            .max()
            .unwrap_or(0);
        format!("D{}", highest + 1)
    }

    /// Puts `definition` in the model (replacing one of the same id) with
    /// the rules it compiles to, in place of its earlier rules (or at the
    /// end). A generated rule whose text is unchanged keeps its review.
    pub fn set_definition(&mut self, definition: Definition) -> Result<(), DefinitionError> {
        let is_bool = self
            .variable(&definition.variable)
            .map(|v| v.sort == "Bool")
            .ok_or_else(|| DefinitionError {
                field: "variable".into(),
                message: format!("no variable is named '{}'", definition.variable),
            })?;
        if let Some(other) = self
            .definitions
            .iter()
            .find(|d| d.variable == definition.variable && d.id != definition.id)
        {
            return Err(DefinitionError {
                field: "variable".into(),
                message: format!(
                    "'{}' already has a definition, {}",
                    definition.variable, other.id
                ),
            });
        }
        let mut generated = definition.rules(is_bool)?;
        for rule in &mut generated {
            if let Some(old) = self.rule(&rule.id)
                && old.expression == rule.expression
            {
                rule.review = old.review;
                rule.note = old.note.clone();
            }
        }
        let at = self
            .rules
            .iter()
            .position(|r| definition.owns_rule(&r.id))
            .unwrap_or(self.rules.len());
        self.rules.retain(|r| !definition.owns_rule(&r.id));
        let at = at.min(self.rules.len());
        self.rules.splice(at..at, generated);
        match self.definitions.iter_mut().find(|d| d.id == definition.id) {
            Some(slot) => *slot = definition,
            None => self.definitions.push(definition),
        }
        Ok(())
    }

    /// Takes definition `id` and the rules it compiled to out of the model;
    /// returns it.
    pub fn remove_definition(&mut self, id: &str) -> Option<Definition> {
        let at = self.definitions.iter().position(|d| d.id == id)?;
        let definition = self.definitions.remove(at);
        self.rules.retain(|r| !definition.owns_rule(&r.id));
        Some(definition)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::policy::Variable;

    fn bool_var(name: &str) -> Variable {
        Variable {
            reading: Default::default(),
            name: name.into(),
            sort: "Bool".into(),
            description: String::new(),
        }
    }

    fn time_off() -> Definition {
        Definition {
            id: "D1".into(),
            variable: "canTakeTimeOff".into(),
            cases: vec![
                DefinitionPart::new("carerDidNotTurnUp", None),
                DefinitionPart::new("dependantIsIll", None),
            ],
            requirements: vec![DefinitionPart::new("isEmployee", None)],
            exceptions: vec![DefinitionPart::new("knewBeforehand", None)],
            exhaustive: false,
        }
    }

    fn expressions(rules: &[Rule]) -> Vec<(String, String)> {
        rules
            .iter()
            .map(|r| (r.id.clone(), r.expression.clone()))
            .collect()
    }

    #[test]
    fn a_bool_definition_compiles_to_one_rule_per_part() {
        let mut definition = time_off();
        assert_eq!(
            expressions(&definition.rules(true).unwrap()),
            [
                (
                    "D1.c1",
                    "(=> (and carerDidNotTurnUp isEmployee (not knewBeforehand)) canTakeTimeOff)"
                ),
                (
                    "D1.c2",
                    "(=> (and dependantIsIll isEmployee (not knewBeforehand)) canTakeTimeOff)"
                ),
                ("D1.r1", "(=> canTakeTimeOff isEmployee)"),
                ("D1.e1", "(=> knewBeforehand (not canTakeTimeOff))"),
            ]
            .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        definition.exhaustive = true;
        let rules = definition.rules(true).unwrap();
        assert_eq!(
            rules.last().unwrap().expression,
            "(=> canTakeTimeOff (or carerDidNotTurnUp dependantIsIll))"
        );
    }

    #[test]
    fn a_numeric_definition_takes_the_first_case_that_applies() {
        let definition = Definition {
            id: "D2".into(),
            variable: "discount".into(),
            cases: vec![
                DefinitionPart {
                    value: Some("40".into()),
                    ..DefinitionPart::new("isSenior", None)
                },
                DefinitionPart {
                    value: Some("50".into()),
                    ..DefinitionPart::new("isChild", None)
                },
                DefinitionPart {
                    value: Some("0".into()),
                    ..DefinitionPart::new("true", None)
                },
            ],
            requirements: vec![],
            exceptions: vec![],
            exhaustive: false,
        };
        assert_eq!(
            expressions(&definition.rules(false).unwrap()),
            [
                ("D2.c1", "(=> isSenior (= discount 40))"),
                ("D2.c2", "(=> (and isChild (not isSenior)) (= discount 50))"),
                (
                    "D2.c3",
                    "(=> (and (not isSenior) (not isChild)) (= discount 0))"
                ),
            ]
            .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        let mut wrong = definition.clone();
        wrong.exceptions = vec![DefinitionPart::new("x", None)];
        assert_eq!(wrong.rules(false).unwrap_err().field, "exceptions");
        wrong = definition;
        wrong.cases[1].condition = "(and isChild".into();
        assert_eq!(wrong.rules(false).unwrap_err().field, "cases[1].condition");
    }

    #[test]
    fn setting_a_definition_replaces_its_rules_in_place() {
        let mut model = PolicyModel {
            variables: ["canTakeTimeOff", "carerDidNotTurnUp", "dependantIsIll"]
                .into_iter()
                .chain(["isEmployee", "knewBeforehand"])
                .map(bool_var)
                .collect(),
            rules: vec![Rule {
                id: "R1".into(),
                expression: "isEmployee".into(),
                source_span: None,
                also_from: Vec::new(),
                review: ReviewStatus::Approved,
                note: String::new(),
            }],
            ..PolicyModel::default()
        };
        model.set_definition(time_off()).unwrap();
        assert_eq!(model.rules.len(), 5);
        model.rules[1].review = ReviewStatus::Approved;
        let mut fewer = time_off();
        fewer.cases.pop();
        model.set_definition(fewer).unwrap();
        let ids: Vec<&str> = model.rules.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["R1", "D1.c1", "D1.r1", "D1.e1"]);
        assert_eq!(model.rules[1].review, ReviewStatus::Approved);
        assert_eq!(model.fresh_definition_id(), "D2");
        let mut twin = time_off();
        twin.id = "D2".into();
        assert!(model.set_definition(twin).is_err());
        assert!(model.remove_definition("D1").is_some());
        assert_eq!(model.rules.len(), 1);
        assert!(model.definitions.is_empty());
    }
}
