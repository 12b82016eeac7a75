//! Definitions read off the shapes of the rules alone, with no LLM: the
//! starting point of the definition pass, and the fix that lint offers for
//! an open decision.
//!
//! For a derived Bool X:
//! - `C ⇒ X` makes C a case, and an unconditional `X` the case `true`;
//! - `X ⇒ B` makes B a requirement, and so does `¬C ⇒ ¬X` (C);
//! - any other `C ⇒ ¬X` makes C an exception;
//! - `exhaustive` is left false.
//!
//! `A ⇒ B` (or `A ⇒ ¬B`) between two Bool variables is a case (an
//! exception) of B unless other rules
//! conclude A more often than B: then it is a requirement of A (the
//! decision is the variable the other rules decide). A variable defined by an
//! equation (`(= X …)`), or that has a definition, is left alone.

use super::policy::{Definition, DefinitionPart, PolicyModel, Rule};
use crate::smt::build::not_of;
use crate::smt::{Expr, ExprKind, Op, parse_expr};
use std::collections::{BTreeMap, BTreeSet};

/// A definition proposed from the rules' shapes, with the rules it
/// replaces.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapedDefinition {
    pub definition: Definition,
    pub replaces: Vec<String>,
}

/// What one rule says of one variable.
#[derive(Debug, Clone, PartialEq)]
enum Part {
    Case(Expr),
    Requirement(Expr),
    Exception(Expr),
}

/// The parts, by variable, that the rules' shapes give, and the variables
/// that are concluded (in either polarity) by some rule.
struct Reading {
    parts: BTreeMap<String, Vec<(Part, usize)>>,
}

fn bool_symbol(expr: &Expr, bools: &BTreeSet<&str>) -> Option<String> {
    match &expr.kind {
        ExprKind::Symbol(name) if bools.contains(name.as_str()) => Some(name.clone()),
        _ => None,
    }
}

/// `X` → (X, true), `(not X)` → (X, false).
fn literal(expr: &Expr, bools: &BTreeSet<&str>) -> Option<(String, bool)> {
    if let Some(name) = bool_symbol(expr, bools) {
        return Some((name, true));
    }
    match &expr.kind {
        ExprKind::App(Op::Not, args) if args.len() == 1 => {
            bool_symbol(&args[0], bools).map(|name| (name, false))
        }
        _ => None,
    }
}

/// The condition and conclusion of an implication (`(=> a b c)` is
/// a ∧ b ⇒ c).
fn implication(expr: &Expr) -> Option<(Expr, &Expr)> {
    match &expr.kind {
        ExprKind::App(Op::Implies, args) if args.len() >= 2 => {
            let (conclusion, conditions) = args.split_last()?;
            let condition = match conditions {
                [one] => one.clone(),
                many => Expr::app(Op::And, many.to_vec()),
            };
            Some((condition, conclusion))
        }
        _ => None,
    }
}

/// Variables some rule concludes, in either polarity, with no other
/// reading (`C ⇒ X`, `C ⇒ ¬X`, `X`, `¬X`).
fn concluded(rules: &[(usize, Expr)], bools: &BTreeSet<&str>) -> BTreeMap<String, usize> {
    let mut count = BTreeMap::new();
    for (_, expr) in rules {
        let conclusion = match implication(expr) {
            Some((_, conclusion)) => conclusion,
            None => expr,
        };
        if let Some((name, _)) = literal(conclusion, bools) {
            *count.entry(name).or_insert(0) += 1;
        }
    }
    count
}

impl Reading {
    fn of(model: &PolicyModel) -> (Reading, BTreeSet<String>) {
        let bools: BTreeSet<&str> = model
            .variables
            .iter()
            .filter(|v| v.sort == "Bool")
            .map(|v| v.name.as_str())
            .collect();
        let parsed: Vec<(usize, Expr)> = model
            .rules
            .iter()
            .enumerate()
            .filter(|(_, r)| !model.definitions.iter().any(|d| d.owns_rule(&r.id)))
            .filter_map(|(i, r)| parse_expr(&r.expression).ok().map(|e| (i, e)))
            .collect();
        let concluded = concluded(&parsed, &bools);
        let mut equations = BTreeSet::new();
        let mut parts: BTreeMap<String, Vec<(Part, usize)>> = BTreeMap::new();
        for (index, expr) in &parsed {
            if let ExprKind::App(Op::Eq, args) = &expr.kind {
                for arg in args {
                    if let Some(name) = bool_symbol(arg, &bools) {
                        equations.insert(name);
                    }
                }
                continue;
            }
            let Some((condition, conclusion)) = implication(expr) else {
                if let Some((name, true)) = literal(expr, &bools) {
                    let truth = Expr::new(ExprKind::Bool(true));
                    parts
                        .entry(name)
                        .or_default()
                        .push((Part::Case(truth), *index));
                }
                continue;
            };
            let antecedent = bool_symbol(&condition, &bools);
            let consequent = literal(conclusion, &bools);
            let mentions = |name: &str, e: &Expr| e.symbols().contains(&name);
            match (antecedent, consequent) {
                // A ⇒ B between two variables: whichever is the decision.
                (Some(a), Some((b, polarity)))
                    if a != b && {
                        let decided_a = concluded.get(&a).copied().unwrap_or(0);
                        let decided_b_elsewhere = concluded.get(&b).copied().unwrap_or(1) - 1;
                        decided_a > 0 && decided_a > decided_b_elsewhere
                    } =>
                {
                    let _ = polarity;
                    parts
                        .entry(a)
                        .or_default()
                        .push((Part::Requirement(conclusion.clone()), *index));
                }
                (_, Some((x, polarity))) if !mentions(&x, &condition) => {
                    let part = match (polarity, &condition.kind) {
                        (true, _) => Part::Case(condition.clone()),
                        (false, ExprKind::App(Op::Not, args)) if args.len() == 1 => {
                            Part::Requirement(args[0].clone())
                        }
                        (false, _) => Part::Exception(condition.clone()),
                    };
                    parts.entry(x).or_default().push((part, *index));
                }
                (Some(x), None) if !mentions(&x, conclusion) => {
                    parts
                        .entry(x)
                        .or_default()
                        .push((Part::Requirement(conclusion.clone()), *index));
                }
                _ => {}
            }
        }
        (Reading { parts }, equations)
    }
}

/// Whether the parts make a decision worth one definition: rules of both
/// polarities, only requirements, more than one rule, or an
/// unconditional statement.
fn worth_defining(parts: &[(Part, usize)]) -> bool {
    let unconditional = parts
        .iter()
        .any(|(p, _)| matches!(p, Part::Case(e) if matches!(e.kind, ExprKind::Bool(true))));
    parts.len() > 1 || unconditional || parts.iter().all(|(p, _)| matches!(p, Part::Requirement(_)))
}

/// One definition per decision the rules' shapes show that several rules
/// decide apart (`worth_defining`), numbered from the model's next free
/// definition id, in the order of the variables.
pub fn shaped_definitions(model: &PolicyModel) -> Vec<ShapedDefinition> {
    shaped(model, true)
}

/// Every decision the rules' shapes show, one rule alone included: what
/// the rules say makes each derived Bool hold, what it requires and what
/// excludes it (the lint's open decisions read it).
pub fn decisions(model: &PolicyModel) -> Vec<ShapedDefinition> {
    shaped(model, false)
}

fn shaped(model: &PolicyModel, only_worth_defining: bool) -> Vec<ShapedDefinition> {
    let (reading, equations) = Reading::of(model);
    let mut next = model
        .fresh_definition_id()
        .trim_start_matches('D')
        .parse::<u64>()
        .unwrap_or(1);
    let mut out = Vec::new();
    for variable in &model.variables {
        let Some(parts) = reading.parts.get(&variable.name) else {
            continue;
        };
        if equations.contains(&variable.name)
            || model.definition_of(&variable.name).is_some()
            || (only_worth_defining && !worth_defining(parts))
        {
            continue;
        }
        let mut definition = Definition {
            id: format!("D{next}"),
            variable: variable.name.clone(),
            cases: Vec::new(),
            requirements: Vec::new(),
            exceptions: Vec::new(),
            exhaustive: false,
        };
        let mut replaces = Vec::new();
        for (part, index) in parts {
            let rule: &Rule = &model.rules[*index];
            let (list, condition) = match part {
                Part::Case(c) => (&mut definition.cases, c),
                Part::Requirement(c) => (&mut definition.requirements, c),
                Part::Exception(c) => (&mut definition.exceptions, c),
            };
            let text = condition.to_string();
            if !list.iter().any(|p| p.condition == text) {
                list.push(DefinitionPart::new(&text, rule.source_span));
            }
            replaces.push(rule.id.clone());
        }
        // A requirement that is also the negation of an exception says the
        // same thing twice; keep it once, as the requirement.
        let requirement_texts: Vec<String> = definition
            .requirements
            .iter()
            .filter_map(|p| parse_expr(&p.condition).ok())
            .map(|e| not_of(&e).to_string())
            .collect();
        definition
            .exceptions
            .retain(|p| !requirement_texts.contains(&p.condition));
        next += 1;
        out.push(ShapedDefinition {
            definition,
            replaces,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::policy::{ReviewStatus, Variable};

    fn model(bools: &[&str], rules: &[&str]) -> PolicyModel {
        PolicyModel {
            variables: bools
                .iter()
                .map(|n| Variable {
                    reading: Default::default(),
                    name: n.to_string(),
                    sort: "Bool".into(),
                    description: String::new(),
                })
                .collect(),
            rules: rules
                .iter()
                .enumerate()
                .map(|(i, e)| Rule {
                    id: format!("R{}", i + 1),
                    expression: e.to_string(),
                    source_span: None,
                    also_from: Vec::new(),
                    review: ReviewStatus::Unreviewed,
                    note: String::new(),
                })
                .collect(),
            ..PolicyModel::default()
        }
    }

    fn conditions(parts: &[DefinitionPart]) -> Vec<&str> {
        parts.iter().map(|p| p.condition.as_str()).collect()
    }

    #[test]
    fn cases_requirements_and_exceptions_come_from_the_rules_shapes() {
        let m = model(
            &["x", "carer", "ill", "employee", "knew", "declared", "other"],
            &[
                "(=> carer x)",
                "(=> (and ill employee) x)",
                "(=> (not employee) (not x))",
                "(=> knew (not x))",
                "(=> x declared)",
                "(=> other declared)",
            ],
        );
        let shaped = shaped_definitions(&m);
        assert_eq!(shaped.len(), 1, "{shaped:?}");
        let d = &shaped[0].definition;
        assert_eq!(d.variable, "x");
        assert_eq!(conditions(&d.cases), ["carer", "(and ill employee)"]);
        assert_eq!(conditions(&d.requirements), ["employee", "declared"]);
        assert_eq!(conditions(&d.exceptions), ["knew"]);
        assert!(!d.exhaustive);
        assert_eq!(shaped[0].replaces, ["R1", "R2", "R3", "R4", "R5"]);
    }

    #[test]
    fn only_requirements_or_an_unconditional_statement_make_a_decision() {
        let m = model(
            &[
                "claim", "declared", "charity", "casc", "online", "plain", "p",
            ],
            &[
                "(=> claim declared)",
                "(=> claim (or charity casc))",
                "online",
                "(=> p plain)",
            ],
        );
        let shaped = shaped_definitions(&m);
        let variables: Vec<&str> = shaped
            .iter()
            .map(|s| s.definition.variable.as_str())
            .collect();
        // `plain` has one case only: nothing to join. `claim ⇒ declared`
        // alone reads as a case of `declared` (nothing else decides
        // `claim`), so `claim` has one requirement.
        assert_eq!(variables, ["claim", "online"]);
        assert_eq!(
            conditions(&shaped[0].definition.requirements),
            ["(or charity casc)"]
        );
        assert_eq!(conditions(&shaped[1].definition.cases), ["true"]);
        assert_eq!(shaped[1].definition.id, "D2");
    }

    #[test]
    fn an_equation_or_an_existing_definition_is_left_alone() {
        let m = model(
            &["x", "a", "b"],
            &["(= x (or a b))", "(=> a x)", "(=> b (not x))"],
        );
        assert!(shaped_definitions(&m).is_empty());
    }
}
