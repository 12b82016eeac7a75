//! Which way a rule points, from what it means rather than how it is
//! written. The checks that tell conditions from conclusions (gaps,
//! overlaps, vacuity, shadowed exceptions, impossible situations, open
//! decisions, duplicates) read rules through [`orient_group`] or
//! [`oriented_model`], which give the same condition and conclusion for
//! `(=> a b)`, its contrapositive `(=> (not b) (not a))` and their De
//! Morgan forms, with the sides of an `=` in either order.
//!
//! Of a rule and its contrapositive (each with its negations pushed inward),
//! the reading with fewer negations and disjunctions is the rule's:
//! `a ∧ ¬b ⇒ ¬c` stays an exception, `¬b ⇒ ¬a` reads `a ⇒ b`. A tie (`a ⇒ ¬c` against `c ⇒ ¬a`)
//! goes by the rule graph: the reading that concludes what the group's other
//! rules conclude, and, failing that, the one whose conclusion sorts first.

use crate::model::PolicyModel;
use crate::smt::{Expr, ExprKind, Op, parse_expr};
use std::collections::BTreeSet;

/// Which reading of an implication is the rule's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orientation {
    AsWritten,
    Contrapositive,
}

/// The rule's condition and conclusion in `orientation`, negations pushed
/// inward; None when `formula` is no implication.
pub fn split_oriented(formula: &Expr, orientation: Orientation) -> Option<(Expr, Expr)> {
    let ExprKind::App(Op::Implies, args) = &formula.kind else {
        return None;
    };
    let (consequent, conditions) = args.split_last()?;
    let antecedent = joined(Op::And, conditions.to_vec());
    Some(match orientation {
        Orientation::AsWritten => (normal(&antecedent, true), normal(consequent, true)),
        Orientation::Contrapositive => (normal(consequent, false), normal(&antecedent, false)),
    })
}

/// The condition and conclusion of a rule read alone: the less awkward
/// reading, as written on a tie.
pub fn split_implication(formula: &Expr) -> Option<(Expr, Expr)> {
    let orientation = match preference(formula)? {
        Some(orientation) => orientation,
        None => Orientation::AsWritten,
    };
    split_oriented(formula, orientation)
}

/// Each formula's orientation (None for a rule that is no implication),
/// ties decided by what the others conclude.
pub fn orient_group(
    formulas: &[&Expr],
    is_variable: &dyn Fn(&str) -> bool,
) -> Vec<Option<Orientation>> {
    let preferred: Vec<Option<Option<Orientation>>> =
        formulas.iter().map(|f| preference(f)).collect();
    let concluded: BTreeSet<String> = formulas
        .iter()
        .zip(&preferred)
        .filter_map(|(f, p)| split_oriented(f, (*p)?.as_ref().copied()?))
        .flat_map(|(_, conclusion)| variables(&conclusion, is_variable))
        .collect();
    formulas
        .iter()
        .zip(preferred)
        .map(|(formula, preferred)| match preferred? {
            Some(orientation) => Some(orientation),
            None => Some(by_graph(formula, &concluded, is_variable)),
        })
        .collect()
}

/// `model` with each rule that is written against the way it points (a
/// contrapositive, a negated `and` or `or`) rewritten the way it points;
/// every other rule, and every rule that does not parse, as it was.
pub fn oriented_model(model: &PolicyModel) -> PolicyModel {
    let parsed: Vec<Option<Expr>> = model
        .rules
        .iter()
        .map(|r| parse_expr(&r.expression).ok())
        .collect();
    let formulas: Vec<&Expr> = parsed.iter().flatten().collect();
    let is_variable = |s: &str| model.variable(s).is_some();
    let mut orientations = orient_group(&formulas, &is_variable).into_iter();
    let mut oriented = model.clone();
    for (rule, expr) in oriented.rules.iter_mut().zip(&parsed) {
        let Some(expr) = expr else { continue };
        let Some(orientation) = orientations.next().flatten() else {
            continue;
        };
        if orientation == Orientation::AsWritten && !negates_a_connective(expr) {
            continue;
        }
        if let Some((condition, conclusion)) = split_oriented(expr, orientation) {
            rule.expression = Expr::app(Op::Implies, vec![condition, conclusion]).to_string();
        }
    }
    oriented
}

/// Whether a `not` stands over an `and`, an `or`, an `=>` or a `not`.
fn negates_a_connective(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::App(Op::Not, args) => args.iter().any(|a| {
            matches!(
                a.kind,
                ExprKind::App(Op::And | Op::Or | Op::Implies | Op::Not, _)
            ) || negates_a_connective(a)
        }),
        ExprKind::App(_, args) => args.iter().any(negates_a_connective),
        _ => false,
    }
}

/// The less awkward reading; `Some(None)` on a tie, None when
/// `formula` is no implication.
fn preference(formula: &Expr) -> Option<Option<Orientation>> {
    let count = |orientation| {
        split_oriented(formula, orientation).map(|(a, c)| awkwardness(&a) + awkwardness(&c))
    };
    let (written, contrapositive) = (
        count(Orientation::AsWritten)?,
        count(Orientation::Contrapositive)?,
    );
    Some(match written.cmp(&contrapositive) {
        std::cmp::Ordering::Less => Some(Orientation::AsWritten),
        std::cmp::Ordering::Greater => Some(Orientation::Contrapositive),
        std::cmp::Ordering::Equal => None,
    })
}

/// A tie: the reading whose conclusion other rules also conclude (and
/// whose condition they do not), else the one whose conclusion sorts first.
fn by_graph(
    formula: &Expr,
    concluded: &BTreeSet<String>,
    is_variable: &dyn Fn(&str) -> bool,
) -> Orientation {
    let score = |orientation| {
        let (condition, conclusion) = split_oriented(formula, orientation).expect("an implication");
        let derived = |e: &Expr| {
            variables(e, is_variable)
                .iter()
                .filter(|v| concluded.contains(*v))
                .count()
        };
        (
            derived(&conclusion) as isize - derived(&condition) as isize,
            std::cmp::Reverse(conclusion.to_string()),
        )
    };
    match score(Orientation::AsWritten) >= score(Orientation::Contrapositive) {
        true => Orientation::AsWritten,
        false => Orientation::Contrapositive,
    }
}

fn variables(expr: &Expr, is_variable: &dyn Fn(&str) -> bool) -> BTreeSet<String> {
    expr.symbols()
        .into_iter()
        .filter(|s| is_variable(s))
        .map(str::to_string)
        .collect()
}

/// How far a reading is from how rules are stated: each negation counts
/// one, each disjunction two (`a ∧ ¬b ⇒ ¬c` reads better than its
/// contrapositive `c ⇒ ¬a ∨ b`).
fn awkwardness(expr: &Expr) -> usize {
    match &expr.kind {
        ExprKind::App(Op::Not, args) => 1 + args.iter().map(awkwardness).sum::<usize>(),
        ExprKind::App(Op::Or, args) => 2 + args.iter().map(awkwardness).sum::<usize>(),
        ExprKind::App(_, args) => args.iter().map(awkwardness).sum(),
        _ => 0,
    }
}

fn joined(op: Op, mut parts: Vec<Expr>) -> Expr {
    match parts.len() {
        1 => parts.remove(0),
        _ => Expr::app(op, parts),
    }
}

/// `expr` (negated unless `positive`) with negations pushed inward through
/// `and`, `or` and `=>`, double negations gone, nested `and`s and `or`s
/// flattened, and the sides of `=` in one order.
fn normal(expr: &Expr, positive: bool) -> Expr {
    let flat = |op: Op, args: Vec<Expr>| {
        let mut parts = Vec::new();
        for arg in args {
            match arg.kind {
                ExprKind::App(inner, nested) if inner == op => parts.extend(nested),
                _ => parts.push(arg),
            }
        }
        joined(op, parts)
    };
    match &expr.kind {
        ExprKind::App(Op::Not, args) if args.len() == 1 => normal(&args[0], !positive),
        ExprKind::App(op @ (Op::And | Op::Or), args) => {
            let op = match (op, positive) {
                (Op::And, true) | (Op::Or, false) => Op::And,
                _ => Op::Or,
            };
            flat(op, args.iter().map(|a| normal(a, positive)).collect())
        }
        ExprKind::App(Op::Implies, args) => {
            // a ⇒ b is ¬a ∨ b.
            let (conclusion, conditions) = args.split_last().expect("=> has arguments");
            let mut parts: Vec<Expr> = conditions.iter().map(|c| normal(c, false)).collect();
            parts.push(normal(conclusion, true));
            match positive {
                true => flat(Op::Or, parts),
                false => flat(Op::And, parts.iter().map(|p| normal(p, false)).collect()),
            }
        }
        ExprKind::App(Op::Eq, args) if args.len() == 2 => {
            let mut sides = args.to_vec();
            if sides[0].to_string() > sides[1].to_string() {
                sides.swap(0, 1);
            }
            literal(Expr::app(Op::Eq, sides), positive)
        }
        _ => literal(expr.clone(), positive),
    }
}

fn literal(atom: Expr, positive: bool) -> Expr {
    match positive {
        true => atom,
        false => Expr::app(Op::Not, vec![atom]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::parse_expr;

    fn split(text: &str) -> Option<(String, String)> {
        split_implication(&parse_expr(text).unwrap()).map(|(a, c)| (a.to_string(), c.to_string()))
    }

    #[test]
    fn equivalent_forms_of_a_rule_point_the_same_way() {
        for form in [
            "(=> (and a b) c)",
            "(=> (not c) (not (and a b)))",
            "(=> (not c) (or (not a) (not b)))",
            "(=> (not (or (not a) (not b))) c)",
            "(=> a b c)",
        ] {
            assert_eq!(
                split(form),
                Some(("(and a b)".into(), "c".into())),
                "{form}"
            );
        }
        // An exception stays one, and so does a disjunction of requirements.
        assert_eq!(
            split("(=> (not c) (or (not a) b))"),
            Some(("(and a (not b))".into(), "c".into()))
        );
        assert_eq!(
            split("(=> (and a (not b)) (not c))"),
            Some(("(and a (not b))".into(), "(not c)".into()))
        );
        assert_eq!(
            split("(=> x (or a b))"),
            Some(("x".into(), "(or a b)".into()))
        );
        assert_eq!(split("(=> (= k A) x)"), split("(=> (not x) (not (= A k)))"));
        assert_eq!(split("(= x 3)"), None);
    }

    #[test]
    fn a_tie_goes_by_what_the_other_rules_conclude() {
        let rules: Vec<Expr> = ["(=> a (not c))", "(=> b c)", "(=> c (not d))"]
            .iter()
            .map(|t| parse_expr(t).unwrap())
            .collect();
        let contrapositive: Vec<Expr> =
            ["(=> c (not a))", "(=> (not c) (not b))", "(=> d (not c))"]
                .iter()
                .map(|t| parse_expr(t).unwrap())
                .collect();
        let is_variable = |_: &str| true;
        let read = |rules: &[Expr]| -> Vec<(String, String)> {
            let formulas: Vec<&Expr> = rules.iter().collect();
            orient_group(&formulas, &is_variable)
                .into_iter()
                .zip(rules)
                .map(|(o, r)| {
                    let (a, c) = split_oriented(r, o.unwrap()).unwrap();
                    (a.to_string(), c.to_string())
                })
                .collect()
        };
        let expected = vec![
            ("a".to_string(), "(not c)".to_string()),
            ("b".to_string(), "c".to_string()),
            ("d".to_string(), "(not c)".to_string()),
        ];
        assert_eq!(read(&rules), expected);
        assert_eq!(read(&contrapositive), expected);
    }
}
